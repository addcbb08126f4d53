"""The user's own packs: written as YAML, checked by the loader, never left broken."""

from __future__ import annotations

from typing import Any

import pytest

from companion import paths
from companion.content import ContentError, load_content
from companion.content import user_pack as packs


@pytest.fixture
def own() -> packs.UserPack:
    sample = load_content("sample")
    return packs.own_pack_for(sample.packs)


def discovery(card_id: str, name: str, **more: Any) -> dict[str, Any]:
    return {"id": card_id, "name": name, "text": "A card from the box.", **more}


def test_the_own_pack_extends_the_campaigns_pack_and_is_made_once(own: packs.UserPack) -> None:
    assert (own.manifest.id, own.manifest.extends, own.manifest.version) == (
        "sample-mine", "sample", "1.0.0")
    assert own.folder == paths.user_content_dir() / "sample-mine"
    again = packs.own_pack_for(load_content("sample").packs)
    assert again.folder == own.folder
    # A campaign already playing with the own pack writes into that pack.
    packs.add_card(own.folder, "discovery_cards", discovery("DX01", "Bones"))
    assert packs.own_pack_for(load_content("sample-mine").packs).folder == own.folder


def test_add_replace_delete_bump_the_version_and_keep_lines(own: packs.UserPack) -> None:
    packs.add_card(own.folder, "discovery_cards", discovery("DX01", "Bones"))
    packs.add_card(own.folder, "discovery_cards", discovery("DX02", "Flint"))
    listed = [(e.id, e.name, e.where) for e in packs.entries(own.folder)]
    assert listed == [("DX01", "Bones", "sample-mine/discovery_cards.yaml:2"),
                      ("DX02", "Flint", "sample-mine/discovery_cards.yaml:5")]
    packs.add_card(own.folder, "discovery_cards", discovery("DX03", "Flint Seam"),
                   replace="DX02")
    assert [e.id for e in packs.entries(own.folder)] == ["DX01", "DX03"]
    packs.delete_card(own.folder, "discovery_cards", "DX01")
    content = load_content("sample-mine")
    assert "DX03" in content.discovery_cards and "DX01" not in content.discovery_cards
    assert content.packs[-1].version == "1.0.4"


def test_a_second_card_with_one_id_is_refused(own: packs.UserPack) -> None:
    packs.add_card(own.folder, "discovery_cards", discovery("DX01", "Bones"))
    with pytest.raises(ContentError, match="already has a Discovery card 'DX01'"):
        packs.add_card(own.folder, "discovery_cards", discovery("DX01", "Other"))


@pytest.mark.parametrize(("data", "field", "why"), [
    (discovery("DX01", ""), "name", "at least 1 character"),
    ({"id": "DX01", "name": "Bones"}, "text", "required field is missing"),
    (discovery("DX 01", "Bones"), "id", "should match pattern"),
    (discovery("DX01", "Bones", colour="red"), "colour", "unknown field"),
])
def test_a_card_that_does_not_fit_names_the_field_and_writes_nothing(
        own: packs.UserPack, data: dict[str, Any], field: str, why: str) -> None:
    with pytest.raises(ContentError) as error:
        packs.add_card(own.folder, "discovery_cards", data)
    assert any(i.path == field and why in i.message for i in error.value.issues)
    assert not packs.card_file(own.folder, "discovery_cards").exists()
    assert packs.find_user_pack("sample-mine").manifest.version == "1.0.0"  # type: ignore[union-attr]


def test_a_card_that_breaks_the_chain_is_undone(own: packs.UserPack) -> None:
    data = discovery("DX01", "Bones", effects=[{"do": "gain", "resource": "stardust"}])
    with pytest.raises(ContentError) as error:
        packs.add_card(own.folder, "discovery_cards", data)
    assert str(error.value.issues[0]).startswith("sample-mine/discovery_cards.yaml:")
    assert "no material, food or water with id 'stardust'" in str(error.value)
    assert not packs.card_file(own.folder, "discovery_cards").exists()
    load_content("sample-mine")  # still loads


def test_deleting_a_card_something_refers_to_is_refused(own: packs.UserPack) -> None:
    packs.add_card(own.folder, "forage_bonuses",
                   {"id": "amber", "name": "Amber", "yields": "clay"})
    packs.add_card(own.folder, "forage_objects",
                   {"id": "resin-tree", "name": "Resin Tree", "decks": ["forest"]})
    packs.add_card(own.folder, "forage_cards", {
        "id": "FX01", "deck": "forest",
        "rows": {"front": ["resin-tree + amber"], "middle": [], "back": []}})
    with pytest.raises(ContentError, match="no forage bonus with id 'amber'"):
        packs.delete_card(own.folder, "forage_bonuses", "amber")
    assert "amber" in load_content("sample-mine").forage_bonuses


def test_check_pack_lists_a_hand_made_slip_with_its_line(own: packs.UserPack) -> None:
    (own.folder / "night_cards.yaml").write_text(
        "night_cards:\n  - id: N40\n    name: Long Dark\n    type: solo\n"
        "    omens: [moon]\n    activity: 1\n", encoding="utf-8")
    assert [str(i) for i in packs.check_pack(own.folder)] == [
        "sample-mine/night_cards.yaml:2: night_cards.0.text: required field is missing"]
    # A pack that was broken already can still take a new, good card.
    packs.add_card(own.folder, "discovery_cards", discovery("DX01", "Bones"))
    assert [e.id for e in packs.entries(own.folder)] == ["DX01", "N40"]


def test_kinds_without_an_id_are_written_too(own: packs.UserPack) -> None:
    sample = load_content("sample")
    item = next(iter(sample.items))
    for code in ("2301", "2302"):
        packs.add_card(own.folder, "crafting",
                       {"colour": "yellow", "code": code, "item": item, "verified": True})
    content = load_content("sample-mine")
    assert content.crafting.lookup("yellow", "2302").item is not None


def test_a_pack_whose_manifest_does_not_read_is_never_overwritten(own: packs.UserPack) -> None:
    (own.folder / "pack.yaml").write_text("id: sample-mine\nname: [\n", encoding="utf-8")
    with pytest.raises(ContentError, match="does not read"):
        packs.own_pack_for(load_content("sample").packs)
    assert (own.folder / "pack.yaml").read_text(encoding="utf-8").endswith("name: [\n")
