"""Foraging and delving through the procedure runner (Rulebook: Foraging; Delving)."""

from __future__ import annotations

import pytest

from companion import operations
from companion.operations import Campaign, Refused
from companion.operations import procedures as run
from companion.operations.activities import start_delving, start_foraging
from companion.rules.procedure import Decider


def finish(campaign: Campaign) -> str:
    last = ""
    for _ in range(200):
        view = run.in_progress(campaign)
        if view is None:
            return last
        step = view.step
        choice = step.options[0] if step.decider is Decider.PLAYER else None
        last = run.advance(campaign, choice=choice).summary
    raise AssertionError("the activity did not end")


def tile_towards(campaign: Campaign, name: str, way: str) -> str:
    """The tile under the face-down hex a Day option names by the way it lies."""
    from companion.operations.valley import load_valley
    from companion.rules.hex_words import COMPASS

    here = next(c.hex_id for c in campaign.characters() if c.name == name)
    with campaign.file.read() as session:
        valley = load_valley(session)
    return str(valley.tiles[valley.locate(str(here)).neighbour(COMPASS.index(way))])


def energy(campaign: Campaign, name: str) -> int:
    return next(c.energy for c in campaign.characters() if c.name == name)


@pytest.mark.parametrize("feature", ["forest", "plains"])
def test_foraging_costs_2_and_ends_with_a_result(demo: Campaign, feature: str) -> None:
    start_foraging(demo, name="Ash", feature=feature)
    assert energy(demo, "Ash") == 3  # D1
    assert run.in_progress(demo).kind == "foraging"
    assert finish(demo).startswith("Ash finished foraging")


def test_foraging_needs_the_feature_in_the_hex(demo: Campaign) -> None:
    with pytest.raises(Refused, match="no one forages at a mountain"):
        start_foraging(demo, name="Ash", feature="mountain")
    with pytest.raises(Refused, match="no usable forest"):
        operations.move(demo, name="Ash", to_hex=next(
            o.target for o in operations.available_actions(demo, "Ash")
            if o.action == "explore" and "forest" not in demo.content.hexes[
                tile_towards(demo, "Ash", str(o.target))].sections.values()))
        operations.pass_turn(demo, name="Bryn")
        start_foraging(demo, name="Ash", feature="forest")
    assert run.in_progress(demo) is None and energy(demo, "Ash") == 3  # only the explore


def test_delving_at_a_cave_after_the_challenge_opened_it(demo: Campaign) -> None:
    caves = [o.target for o in operations.available_actions(demo, "Ash")
             if o.action == "explore" and "cave" in demo.content.hexes[
                 tile_towards(demo, "Ash", str(o.target))].sections.values()]
    assert caves, "the demo's first tray has a cave under the fog (E05)"
    operations.move(demo, name="Ash", to_hex=caves[0])
    operations.pass_turn(demo, name="Bryn")
    start_delving(demo, name="Ash", feature="cave")
    assert energy(demo, "Ash") == 5 - 2 - 1  # explore 2, delve 1 (D4)
    assert finish(demo).startswith("Ash finished delving")
