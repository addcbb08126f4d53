"""Rulebook: Mining > Step 1 fills the bag with the feature's chips ("Dried Flats:
sunstone, riverstone, clay, clay, clay"); Step 4 pulls one chip out of it, without
replacement (reading D14). A chip typed at the table is one the bag holds now, or it is
refused in words and nothing changes (issue 35 item 9)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion import operations
from companion.operations import Campaign, Refused, cards
from companion.operations import procedures as run
from companion.operations.state import load_game
from companion.operations.typed_cards import take_typed
from companion.rules.errors import IllegalAction
from companion.rules.mining import MiningProcedure
from tests.operations.test_cards import copy_of, to_mine

DRIED_FLATS = ["sunstone", "riverstone", "clay", "clay", "clay"]


def ash_bag(campaign: Campaign) -> Counter[str]:
    with campaign.file.read() as session:
        game = load_game(session, campaign.content)
    return Counter(t.name for t in game.character("Ash").bag)


def bag_now(campaign: Campaign) -> list[str]:
    procedure = run.current(campaign)
    assert isinstance(procedure, MiningProcedure)
    return [chip.material for chip in procedure.bag]


def snapshot(campaign: Campaign) -> tuple[Any, ...]:
    view = run.in_progress(campaign)
    return (view.log if view else None, bag_now(campaign), ash_bag(campaign),
            campaign.status().unrest, campaign.status().journal_events)


def pull(campaign: Campaign, typed: str) -> None:
    """Step 4 with ``typed``, then Step 5's "pull one more chip" if it is asked."""
    run.advance(campaign, choice=typed)
    view = run.in_progress(campaign)
    if view is not None and view.step is not None and "draw" in view.step.options:
        run.advance(campaign, choice="draw")


def test_mining_step_1_the_dried_flats_bag(demo: Campaign) -> None:
    to_mine(demo)
    assert run.current(demo).feature == "dried-flats"  # type: ignore[union-attr]
    assert bag_now(demo) == DRIED_FLATS


# The chips typed before, the chip typed now, what the refusal says.
REFUSED = [
    (["sunstone"], "sunstone", "The bag holds no sunstone now: riverstone, clay, clay, clay."),
    (["sunstone"], "SUNSTONE (sun)", "The bag holds no sunstone now: riverstone, clay, clay, "
                                     "clay."),
    (["sunstone"], "Sunstone", "The bag holds no sunstone now: riverstone, clay, clay, clay."),
    (["riverstone"], "riverstone", "The bag holds no riverstone now: sunstone, clay, clay, "
                                   "clay."),
    ([], "cloudstone", "The bag holds no cloudstone now: sunstone, riverstone, clay, clay, "
                       "clay."),
    ([], "granite", "The bag holds no granite now: sunstone, riverstone, clay, clay, clay."),
    (["clay"], "9", "The bag holds 4 chips now, not 9: sunstone, riverstone, clay, clay."),
]


@pytest.mark.parametrize(("before", "typed", "said"), REFUSED,
                         ids=[f"{'+'.join(r[0]) or 'first'}-{r[1]}" for r in REFUSED])
def test_mining_step_4_a_chip_the_bag_does_not_hold_is_refused(
        demo: Campaign, before: Sequence[str], typed: str, said: str) -> None:
    to_mine(demo)
    for chip in before:
        pull(demo, chip)
    unchanged = snapshot(demo)
    with pytest.raises(Refused) as refused:
        run.advance(demo, choice=typed)
    assert str(refused.value) == said
    assert snapshot(demo) == unchanged


# The chips typed (a material, or a chip's key), the bag left, Ash's gains, unrest.
PULLED = [
    # The reproducer: the sunstone (its omen matches: +1 sunstone), then clay
    # (moon does not match: unrest +1). Ash ends with 2 sunstone, not 4.
    (["sunstone", "clay"], ["riverstone", "clay", "clay"], {"sunstone": 2, "clay": 1}, 1),
    (["sunstone", "1"], ["riverstone", "clay", "clay"], {"sunstone": 2, "clay": 1}, 1),
    (["sunstone", "0"], ["clay", "clay", "clay"], {"sunstone": 2, "riverstone": 1}, 0),
    (["clay", "clay"], ["sunstone", "riverstone", "clay"], {"clay": 2}, 2),
    (["4", "riverstone"], ["sunstone", "clay", "clay"], {"clay": 1, "riverstone": 1}, 1),
]


@pytest.mark.parametrize(("typed", "left", "gained", "unrest"), PULLED,
                         ids=["+".join(r[0]) for r in PULLED])
def test_mining_step_4_a_chip_typed_or_picked_comes_out_of_the_bag(
        demo: Campaign, typed: Sequence[str], left: list[str], gained: dict[str, int],
        unrest: int) -> None:
    to_mine(demo)
    before, unrest_before = ash_bag(demo), demo.status().unrest
    run.advance(demo, choice=typed[0])
    assert bag_now(demo) == [c for i, c in enumerate(DRIED_FLATS) if i != (
        int(typed[0]) if typed[0].isdigit() else DRIED_FLATS.index(typed[0]))]
    run.advance(demo, choice="draw")
    assert run.current(demo).bag and len(bag_now(demo)) == 4  # type: ignore[union-attr]
    run.advance(demo, choice=typed[1])
    assert run.in_progress(demo) is None  # two pulls at most (D14)
    assert ash_bag(demo) - before == Counter(gained)
    assert demo.status().unrest - unrest_before == unrest


def test_mining_step_4_a_material_entered_mid_mining_adds_no_chip(demo: Campaign) -> None:
    """A material entered while mining joins the own pack; the bag keeps its chips."""
    to_mine(demo)
    run.advance(demo, choice="sunstone")
    run.advance(demo, choice="draw")
    cards.enter_card(demo, kind="materials",
                     data=copy_of(demo, "materials", "clay", id="umber", name="Burnt Umber"))
    assert "umber" in demo.content.materials
    assert bag_now(demo) == ["riverstone", "clay", "clay", "clay"]
    with pytest.raises(Refused, match="The bag holds no umber now: riverstone, clay"):
        run.advance(demo, choice="Burnt Umber")
    assert bag_now(demo) == ["riverstone", "clay", "clay", "clay"]


MATERIALS = ["sunstone", "riverstone", "clay", "cloudstone", "ochre", "granite",
             "Sunstone (sun)", "CLAY"]


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(typed=st.lists(st.one_of(st.sampled_from(MATERIALS),
                                st.integers(0, 6).map(str)), min_size=1, max_size=6))
def test_mining_step_4_the_chips_drawn_come_from_the_bag_as_filled(
        demo: Campaign, typed: list[str]) -> None:
    """Whatever the table types, the chips drawn are a sub-multiset of the bag as
    Step 1 filled it (D14: no replacement, no chip from nowhere)."""
    if run.current(demo) is None:
        to_mine(demo)
    with demo.file.read() as session:
        row, procedure = run.load(demo, session)
        saved = dict(row.state)
    assert isinstance(procedure, MiningProcedure)
    filled = Counter(c.material for c in procedure.bag)
    for choice in typed:
        if procedure.is_finished():
            break
        if procedure.deciding:
            procedure = procedure.apply("draw")
        step = procedure.step()
        try:
            taken, step, key = take_typed(demo, saved, procedure, step, choice)
            procedure = taken.apply(key)  # type: ignore[assignment]
        except (Refused, IllegalAction):
            continue
    drawn = Counter(c.material for c in procedure.drawn)
    assert drawn <= filled, (typed, drawn)
    assert drawn + Counter(c.material for c in procedure.bag) == filled


def test_mining_step_4_from_the_terminal_refused_in_words(
        tmp_path: Any, capsys: Any) -> None:
    from tests.cli.helpers import run as cli

    path = tmp_path / "c.stonesaga"
    with operations.create_demo_campaign(path) as campaign:
        to_mine(campaign)
    assert cli(capsys, "step", str(path), "--choice", "sunstone")[0] == 0
    assert cli(capsys, "step", str(path), "--choice", "draw")[0] == 0
    code, _out, err = cli(capsys, "step", str(path), "--choice", "sunstone")
    assert code == 1 and "Traceback" not in err
    assert "The bag holds no sunstone now: riverstone, clay, clay, clay." in err
    code, out, err = cli(capsys, "step", str(path), "--choice", "2")  # listed: clay
    assert code == 0, err
    assert "Pulled clay (moon): gain 1 clay; omen: increase unrest by 1." in out
