"""A campaign for the owner's box (issue 25 parts 1 and 2): the rules alone and the
owner's pack; tiles typed once when placed or flipped; empty decks refused in game words,
changing nothing (Rulebook: Set Up; Valley > Hexes; Actions > Explore; Foraging; Fishing;
Mining; Discovery)."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion import operations
from companion.content import load_content
from companion.operations import Campaign, Refused
from companion.operations import exploration as ops
from companion.operations.activities import start_foraging
from companion.operations.procedures import start_fishing, start_mining
from companion.operations.tiles import type_tile
from tests.box_campaign import FACE_DOWN, START, make_box_campaign


@pytest.fixture
def box(tmp_path: Path) -> Campaign:
    campaign = make_box_campaign(tmp_path / "box.stonesaga")
    yield campaign
    campaign.close()


def snapshot(campaign: Campaign) -> tuple[object, ...]:
    return (campaign.characters(), campaign.valley(), campaign.status().journal_events)


def test_rulebook_set_up_the_box_holds_the_rules_and_what_the_table_typed(box: Campaign) -> None:
    assert box.kind == "box"
    assert [p.id for p in box.content.packs] == ["stonesaga-rules", "box", "box-mine"]
    content = box.content
    assert list(content.hexes) == [START]
    for kind in ("forage_cards", "fishing_cards", "delving_cards", "discovery_cards",
                 "night_cards", "challenges", "items", "materials", "behemoths"):
        assert not getattr(content, kind), kind
    assert content.codex.outcome(1) is None and content.counts()["codex_outcomes"] == 0
    # The one rules file: the same constants as the sample's.
    assert content.rules == load_content("sample").rules
    status = box.status()
    assert status.kind == "box" and status.kind_words.startswith("My own box")
    founded = box.journal(500)[-1].text
    assert founded == "The society of The Box Folk was founded (My own box)."


def test_rulebook_set_up_a_typed_id_is_never_a_sample_card(box: Campaign) -> None:
    # The sample has a Discovery card DI07 and a hex E01; the box never resolves to them.
    with pytest.raises(Refused, match="E01"):
        operations.move(box, name="Ash", to_hex="E01")
    type_tile(box, tile=FACE_DOWN[1], region="verdant-vale", sections=["plains"] * 3)
    operations.move(box, name="Ash", to_hex="south-east")
    before = snapshot(box)
    with pytest.raises(Refused, match="DI07"):
        operations.draw_discovery(box, name="Ash", card="DI07")
    assert snapshot(box) == before and "E01" not in box.content.hexes


def test_rulebook_explore_a_face_down_tile_is_typed_once_when_flipped(box: Campaign) -> None:
    before = snapshot(box)
    with pytest.raises(Refused, match="not in your pack yet"):
        operations.move(box, name="Ash", to_hex="north-east")
    assert snapshot(box) == before
    type_tile(box, tile=FACE_DOWN[0], region="verdant-vale", name="Reed Bank",
              sections=["wetlands", "none", "forest"], omens={"comet": "a"})
    assert box.content.hexes[FACE_DOWN[0]].omens[0].omen.value == "comet"
    operations.move(box, name="Ash", to_hex="north-east")
    ash = next(c for c in box.characters() if c.name == "Ash")
    assert ash.hex_id == FACE_DOWN[0]
    # Known next time: typing it again is refused.
    with pytest.raises(Refused, match="already known"):
        type_tile(box, tile=FACE_DOWN[0], region="verdant-vale", sections=["plains"] * 3)
    # Undo takes the move back; the tile stays in the owner's pack (as every card).
    operations.undo(box)
    assert next(c for c in box.characters() if c.name == "Ash").hex_id == START


def test_rulebook_explore_a_new_tray_of_the_box_takes_the_table_s_tiles(box: Campaign) -> None:
    option = ops.legal_placements(box, "Ash")[0]
    with pytest.raises(Refused, match="Type the ids printed"):
        ops.explore_new_tray(box, name="Ash", origin=option.origin,
                             orientation=option.orientation)
    slot, _words = option.entry_words()[-1]
    tiles = ["11", "12", "13"]
    with pytest.raises(Refused, match="not in your pack yet"):
        ops.explore_new_tray(box, name="Ash", origin=option.origin,
                             orientation=option.orientation, tiles=tiles, enter=tiles[slot])
    type_tile(box, tile=tiles[slot], region="Verdant Vale", sections=["lake", "cave", "none"])
    changes = ops.explore_new_tray(box, name="Ash", origin=option.origin,
                                   orientation=option.orientation, tiles=tiles,
                                   enter=tiles[slot])
    assert f"flipped {tiles[slot]}" in changes.summary
    assert "(" not in changes.summary.split("tray", 1)[1].split(":")[0]  # no coordinates
    ash = next(c for c in box.characters() if c.name == "Ash")
    assert ash.hex_id == tiles[slot]


@pytest.mark.parametrize(("start", "feature", "words"), [
    (start_foraging, "plains", "no plains forage cards yet"),
    (start_fishing, "river", "no fishing cards yet"),
    (start_mining, "cave", "no mining chips for the cave yet"),
])
def test_rulebook_feature_actions_an_empty_deck_says_what_to_do(
        box: Campaign, start: object, feature: str, words: str) -> None:
    before = snapshot(box)
    with pytest.raises(Refused, match=words):
        start(box, name="Ash", feature=feature)  # type: ignore[operator]
    assert snapshot(box) == before
    option = next(o for o in operations.available_actions(box, "Ash") if o.target == feature
                  and o.action in ("forage", "fish", "mine"))
    assert option.refusal is not None and words in option.refusal


def test_rulebook_discovery_an_empty_deck_says_draw_from_the_box(box: Campaign) -> None:
    type_tile(box, tile=FACE_DOWN[1], region="verdant-vale", sections=["plains"] * 3)
    operations.move(box, name="Ash", to_hex="south-east")
    before = snapshot(box)
    with pytest.raises(Refused, match="no Discovery cards yet: draw one from the box"):
        operations.draw_discovery(box, name="Ash")
    assert snapshot(box) == before


def test_rulebook_set_up_the_box_needs_its_starting_tile_typed(tmp_path: Path) -> None:
    campaign = operations.new_campaign(tmp_path / "b.stonesaga", society_name="B",
                                       pack_id="box")
    try:
        with pytest.raises(Refused, match="Type the starting tile of Verdant Vale first"):
            operations.set_up_valley(campaign, region="verdant-vale", face_down=["2", "3"])
        type_tile(campaign, tile="1", region="verdant-vale", sections=["plains"] * 3,
                  starting=True)
        with pytest.raises(Refused, match="Type the ids printed on the 2 tiles"):
            operations.set_up_valley(campaign, region="verdant-vale")
        operations.set_up_valley(campaign, region="verdant-vale", face_down=["2", "3"])
        assert [h.tile_id for h in campaign.valley()[0].hexes] == ["1", "2", "3"]
    finally:
        campaign.close()


def test_rulebook_explore_typed_ids_in_the_sample_resolve_to_sample_hexes(
        demo: Campaign) -> None:
    option = ops.legal_placements(demo, "Ash")[0]
    slot, _ = option.entry_words()[0]
    tiles = ["E02", "E03", "E04"]
    changes = ops.explore_new_tray(demo, name="Ash", origin=option.origin,
                                   orientation=option.orientation, tiles=tiles,
                                   enter=tiles[slot])
    name = demo.content.hexes[tiles[slot]].name
    assert f"flipped {name} ({tiles[slot]})" in changes.summary


def test_rulebook_night_phase_the_box_s_first_night_card_is_typed_from_the_box(
        box: Campaign) -> None:
    import yaml

    from companion.operations import procedures
    from companion.operations.cards import enter_card
    from companion.paths import shipped_content_dir

    operations.pass_turn(box, name="Ash")
    operations.pass_turn(box, name="Bryn")
    procedures.start_night(box)
    procedures.advance(box, choice="might")  # Rest: energized
    procedures.advance(box, choice="might")
    procedures.advance(box, choice="Ash")  # who draws in hex 01
    before = snapshot(box)
    with pytest.raises(Refused, match="no Night cards yet: draw one from the box"):
        procedures.advance(box)
    assert snapshot(box) == before
    card = yaml.safe_load((shipped_content_dir() / "sample" / "night.yaml").read_text(
        encoding="utf-8"))["night_cards"][0]
    card.update(id="N77", name="Cold Snap")
    enter_card(box, kind="night_cards", data=card)  # the card the table drew, typed in
    procedures.advance(box, choice="N77")
    while procedures.in_progress(box) is not None:
        procedures.advance(box)
    assert "Cold Snap" in box.journal(1)[0].text


def test_rulebook_fishing_the_box_says_in_words_what_fishing_still_needs(box: Campaign) -> None:
    """Rulebook: Fishing: a stock, a water and an outcome card are drawn; the feature's
    bonus and mishap (D15). Each refusal says what to enter, in words."""
    import yaml

    from companion.operations.cards import enter_card
    from companion.paths import shipped_content_dir

    sample = yaml.safe_load((shipped_content_dir() / "sample" / "fishing.yaml").read_text(
        encoding="utf-8"))["fishing_cards"][0]
    for target in sample["targets"].values():
        target["contents"] = [{"do": "gain", "resource": "fish", "amount": 1}]
    enter_card(box, kind="fishing_cards", data={**sample, "id": "FI31"})
    with pytest.raises(Refused, match="Your pack does not know yet what fishing at the "
                                      "river gives and costs"):
        start_fishing(box, name="Ash", feature="river")
    river = yaml.safe_load((shipped_content_dir() / "sample" / "valley.yaml").read_text(
        encoding="utf-8"))["features"]
    enter_card(box, kind="features", data=next(f for f in river if f["id"] == "river"))
    before = snapshot(box)
    with pytest.raises(Refused, match="Your pack has 1 fishing card yet; fishing draws "
                                      "three"):
        start_fishing(box, name="Ash", feature="river")
    assert snapshot(box) == before
