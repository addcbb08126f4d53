"""Entering a card as it is drawn, then drawing it at the table by id and by name
(DESIGN.md > Two ways to play: the table draws real cards the content may not know)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from sqlmodel import select

from companion import operations, paths
from companion.content import user_pack
from companion.operations import Campaign, Refused, cards
from companion.operations import behemoth as bh
from companion.operations import procedures as run
from companion.operations.activities import start_delving, start_foraging
from companion.rules.procedure import Decider
from companion.store import models
from tests.hex_helpers import tile_towards


def copy_of(campaign: Campaign, kind: str, card_id: str, **changes: Any) -> dict[str, Any]:
    """An existing card's data with another id (and name): a card the box has and the
    sample pack does not."""
    data = getattr(campaign.content, kind)[card_id].model_dump(mode="json")
    data.update(changes)
    return data



def step(campaign: Campaign) -> Any:
    view = run.in_progress(campaign)
    assert view is not None and view.step is not None
    return view.step


def to_delve(campaign: Campaign) -> None:
    caves = [o.target for o in operations.available_actions(campaign, "Ash")
             if o.action == "explore" and "cave" in
             campaign.content.hexes[tile_towards(campaign, "Ash", str(o.target))]
             .sections.values()]
    operations.move(campaign, name="Ash", to_hex=caves[0])
    operations.pass_turn(campaign, name="Bryn")
    start_delving(campaign, name="Ash", feature="cave")


def to_mine(campaign: Campaign) -> None:
    operations.move(campaign, name="Ash", to_hex="E09")
    operations.pass_turn(campaign, name="Bryn")
    mine = next(a for a in operations.available_actions(campaign, "Ash") if a.action == "mine")
    run.start_mining(campaign, name="Ash", feature=mine.target)


def to_night(campaign: Campaign) -> None:
    operations.pass_turn(campaign, name="Ash")
    operations.pass_turn(campaign, name="Bryn")
    run.start_night(campaign)
    while step(campaign).decider is not Decider.CARD:
        now = step(campaign)
        run.advance(campaign, choice=now.options[0] if now.decider is Decider.PLAYER else None)


def to_encounter(campaign: Campaign) -> None:
    bh.set_up_behemoth(campaign, behemoth="rimeback")
    bh.start_encounter(campaign, name="Bryn")


# (kind, how to reach a step drawing it, a card to copy, the new card's changes, typed)
PROCEDURE_KINDS: list[tuple[str, Callable[[Campaign], Any], str, dict[str, Any], str]] = [
    ("fishing_cards", lambda c: run.start_fishing(c, name="Ash", feature="river"),
     "FI01", {"id": "FX90"}, "fx90"),
    ("forage_cards", lambda c: start_foraging(c, name="Ash", feature="forest"),
     "FO01", {"id": "FOX9"}, "fox9"),
    ("delving_cards", to_delve, "DV01", {"id": "DVX9", "min_depth": None}, "dvx9"),
    ("night_cards", to_night, "N01", {"id": "NX99", "name": "Owl at Dusk"}, "owl AT dusk"),
    ("reaction_cards", to_encounter, "RBR1", {"id": "RBX9"}, "rbx9"),
]
# A material entered mid-mining adds no chip to the bag (Mining > Step 4, D14):
# tests/operations/test_mining_bag.py.


def _known(campaign: Campaign, kind: str) -> str:
    return next(iter(getattr(campaign.content, kind)))


@pytest.mark.parametrize(("kind", "reach", "template", "changes", "typed"), PROCEDURE_KINDS,
                         ids=[k[0] for k in PROCEDURE_KINDS])
def test_a_card_entered_at_its_step_is_drawn_by_name_or_id(
        demo: Campaign, kind: str, reach: Callable[[Campaign], Any], template: str,
        changes: dict[str, Any], typed: str) -> None:
    template = template if template in getattr(demo.content, kind) else _known(demo, kind)
    reach(demo)
    data = copy_of(demo, kind, template, **changes)
    if kind == "reaction_cards":
        data["behemoth"] = "rimeback"
    assert not cards.is_known(demo, kind, typed)
    entered = cards.enter_card(demo, kind=kind, data=data)
    assert entered.detail == changes["id"]
    assert cards.is_known(demo, kind, typed)
    now = step(demo)
    assert now.decider in (Decider.CARD, Decider.CHIP)
    before = len(run.in_progress(demo).log)
    run.advance(demo, choice=typed)
    line = run.in_progress(demo).log[before] if run.in_progress(demo) else ""
    assert changes["id"] in line or (changes.get("name", "\0") in line) or \
        run.in_progress(demo) is None
    # The campaign now plays with its own pack, recorded with its version.
    with demo.file.read() as session:
        recorded = session.get(models.Campaign, 1).content_packs
    assert [p["id"] for p in recorded] == ["stonesaga-rules", "sample", "sample-mine"]
    assert recorded[-1]["version"] == "1.0.1"


def test_a_discovery_card_entered_is_drawn_by_name(demo: Campaign) -> None:
    data = copy_of(demo, "discovery_cards", _known(demo, "discovery_cards"),
                   id="DX77", name="Hidden Spring", effects=[])
    cards.enter_card(demo, kind="discovery_cards", data=data)
    assert cards.resolve_card_id(demo.content, "discovery_cards", "hidden SPRING") == "DX77"
    assert cards.resolve_card_id(demo.content, "discovery_cards", "dx77") == "DX77"


@pytest.mark.parametrize("kind", ["instinct_cards", "secret_cards"])
def test_behemoth_cards_entered_are_dealt_by_name(demo: Campaign, kind: str) -> None:
    template = next(c for c in getattr(demo.content, kind).values() if c.behemoth == "rimeback")
    data = template.model_dump(mode="json") | {"id": "RBZ9", "name": "Cold Patience"}
    cards.enter_card(demo, kind=kind, data=data)
    other = {"instinct_cards": "secret", "secret_cards": "instinct"}[kind]
    typed = {kind.split("_")[0]: "cold patience",
             other: next(c.id for c in getattr(demo.content, f"{other}_cards").values()
                         if c.behemoth == "rimeback")}
    bh.set_up_behemoth(demo, behemoth="rimeback", lair_hex="E01", **typed)
    with demo.file.read() as session:
        row = session.exec(select(models.BehemothState)).one()
        dealt = row.instinct_card if kind == "instinct_cards" else row.secret_card
    assert dealt == "RBZ9"


def test_a_card_that_does_not_validate_names_the_field_and_saves_nothing(
        demo: Campaign) -> None:
    data = copy_of(demo, "night_cards", "N01", id="NX98", activity=-2)
    with pytest.raises(Refused, match="activity"):
        cards.enter_card(demo, kind="night_cards", data=data)
    assert not (paths.user_content_dir() / "sample-mine" / "night_cards.yaml").exists()
    assert "NX98" not in demo.content.night_cards


def test_a_card_referring_to_nothing_is_refused_with_its_field(demo: Campaign) -> None:
    data = copy_of(demo, "materials", "clay", id="umber", name="Umber")
    data["chip"] = {"omen": "sun", "effects": [{"do": "gain", "resource": "unobtainium"}]}
    with pytest.raises(Refused, match="unobtainium"):
        cards.enter_card(demo, kind="materials", data=data)
    assert "umber" not in demo.content.materials
    assert not any(user_pack.entries(paths.user_content_dir() / "sample-mine"))


def with_a_card_of_its_own(tmp_path: Path, card_id: str = "DX01", name: str = "Bones") -> Path:
    """A demo campaign, closed, whose table entered the Discovery card ``card_id``
    (``name``; DX01, Bones, unless told)."""
    path = tmp_path / "c.stonesaga"
    campaign = operations.create_demo_campaign(path)
    cards.enter_card(campaign, kind="discovery_cards", data=copy_of(
        campaign, "discovery_cards", _known(campaign, "discovery_cards"), id=card_id,
        name=name))
    campaign.close()
    return path


def test_a_reopened_campaign_keeps_its_own_pack(tmp_path: Path) -> None:
    path = with_a_card_of_its_own(tmp_path)
    with operations.open_campaign(path) as again:
        assert "DX01" in again.content.discovery_cards
        assert again.content.packs[-1].id == "sample-mine"


def test_reload_takes_in_a_card_written_by_hand(demo: Campaign) -> None:
    own = user_pack.own_pack_for(demo.content.packs)
    user_pack.add_card(own.folder, "discovery_cards", copy_of(
        demo, "discovery_cards", _known(demo, "discovery_cards"), id="DX02", name="Ash Pit"))
    demo.content = demo.content  # nothing reloaded yet
    assert "DX02" not in demo.content.discovery_cards
    cards.enter_card(demo, kind="discovery_cards", data=copy_of(
        demo, "discovery_cards", _known(demo, "discovery_cards"), id="DX03", name="Ember"))
    assert {"DX02", "DX03"} <= set(demo.content.discovery_cards)
    user_pack.delete_card(own.folder, "discovery_cards", "DX02")
    cards.reload_content(demo)
    assert "DX02" not in demo.content.discovery_cards


def test_a_broken_own_pack_never_stops_a_campaign_from_opening(tmp_path: Path) -> None:
    path = with_a_card_of_its_own(tmp_path)
    broken = paths.user_content_dir() / "sample-mine" / "discovery_cards.yaml"
    broken.write_text(broken.read_text(encoding="utf-8") + "  - id: DX02\n    name: [\n",
                      encoding="utf-8")
    with operations.open_campaign(path) as again:
        # It plays on with the cards the file carries over the pack they extend (issue 24;
        # before, with the pack they extend alone).
        assert again.content.packs[-1].id == "sample-mine"
        assert "DX01" in again.content.discovery_cards
        assert again.content_problem is not None
        assert "sample-mine/discovery_cards.yaml:" in str(again.content_problem)
        with pytest.raises(Refused, match="discovery_cards.yaml"):
            cards.reload_content(again)
        broken.write_text(broken.read_text(encoding="utf-8").replace(
            "  - id: DX02\n    name: [\n", ""), encoding="utf-8")
        cards.reload_content(again)
        assert again.content_problem is None and "DX01" in again.content.discovery_cards


def test_a_card_added_to_the_own_pack_is_known_when_the_campaign_opens(
        tmp_path: Path) -> None:
    path = tmp_path / "c.stonesaga"
    operations.create_demo_campaign(path).close()
    own = user_pack.create_pack("sample-mine", "My cards", extends="sample")
    with operations.open_campaign(path) as campaign:
        data = copy_of(campaign, "discovery_cards", _known(campaign, "discovery_cards"),
                       id="DX05", name="Reed Bed")
    user_pack.add_card(own.folder, "discovery_cards", data)
    with operations.open_campaign(path) as campaign:
        assert "DX05" in campaign.content.discovery_cards


@pytest.mark.parametrize("typed", ["clay", "Clay", "CLAY"])
def test_a_mining_chip_is_typed_by_its_material(demo: Campaign, typed: str) -> None:
    """Rulebook: Mining, step 4: the chip pulled is named by its material."""
    to_mine(demo)
    assert [c.material for c in run.current(demo).bag].count("clay") == 3  # type: ignore[union-attr]
    run.advance(demo, choice=typed)
    assert run.in_progress(demo).log[0] == ("Step 4: pull a chip from the bag (5 inside): "
                                            "clay (moon)")


def test_a_card_name_that_matches_nothing_is_refused_as_typed(demo: Campaign) -> None:
    run.start_fishing(demo, name="Ash", feature="river")
    with pytest.raises(Refused, match="Moonfish"):
        run.advance(demo, choice="Moonfish")
    assert run.in_progress(demo).log == ()


def test_an_own_pack_whose_manifest_breaks_falls_back_to_the_recorded_pack(
        tmp_path: Path) -> None:
    path = with_a_card_of_its_own(tmp_path, "DX09", "Ash Heap")
    (paths.user_content_dir() / "sample-mine" / "pack.yaml").write_text(
        "id: sample-mine\nname: [My cards\n", encoding="utf-8")
    with operations.open_campaign(path) as again:
        # It plays on with the card the file carries (issue 24), and says what is wrong.
        assert again.content.packs[-1].id == "sample-mine"
        assert "DX09" in again.content.discovery_cards
        assert "sample-mine/pack.yaml:" in str(again.content_problem)


def test_a_removed_own_pack_plays_with_the_cards_the_file_carries(tmp_path: Path) -> None:
    import shutil

    path = with_a_card_of_its_own(tmp_path, "DX08", "Cold Ash")
    shutil.rmtree(paths.user_content_dir() / "sample-mine")
    with operations.open_campaign(path) as again:
        # Before issue 24 it fell back to the recorded pack without the card; now the
        # card travels in the file: played with, and listed as missing from this pack.
        assert again.content.packs[-1].id == "sample-mine"
        assert "DX08" in again.content.discovery_cards
        assert again.content_problem is None
        assert [c.card_id for c in again.cards_missing] == ["DX08"]
