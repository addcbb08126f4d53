"""Crafting from the owner's Codex (issue 36 item 1; Rulebook: Processing & Crafting >
Crafting Items; Using the Codex > Crafting Entries): in a "My own box" campaign, a code
the own pack has not remembered is asked of the table (the item, typed once, or no
entry), remembered in the owner's pack, and crafted with the rulebook's cost and result;
the energy is spent only once the outcome is known. Tokens and the item come from the
community's files (tests/fixtures)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from companion import operations
from companion.content import user_pack
from companion.operations import Campaign, Refused
from companion.operations.carried import carried
from companion.operations.codex_crafting import CodexSays, craft_from_codex
from companion.operations.crafting import craft, crafting_explorer, laid_code
from companion.operations.effects import apply_effects
from companion.operations.material_tokens import add_material
from tests.box_campaign import make_box_with_quartz_and_quill
from tests.community_tokens import journal_recipe

# Quartz unturned, Quill turned 180° (its red 1 to the left): grey 5 | red 6, red 1 | bare.
LAID = {"name": "Ash", "left": 0, "left_rotation": 0, "right": 1, "right_rotation": 2}
CODE = "G5610"


@pytest.fixture
def box(tmp_path: Path) -> Iterator[Campaign]:
    campaign = make_box_with_quartz_and_quill(tmp_path / "box.stonesaga")
    yield campaign
    if not campaign.file.closed:
        campaign.close()


def energy(campaign: Campaign) -> int:
    return campaign.character_detail("Ash").energy


def bag(campaign: Campaign) -> list[str]:
    return [t.name for t in campaign.character_detail("Ash").bag]


def test_crafting_items_own_box_asks_the_owners_codex_and_spends_nothing(box: Campaign) -> None:
    """Issue 36 item 1: no more "The Codex has no entry for it" where the app simply has
    no Codex: Craft is refused asking what the owner's Codex says; nothing is spent."""
    assert str(laid_code(box, **LAID)) == CODE
    before = energy(box)
    with pytest.raises(Refused, match=r"Grey 5610 \(G5610\) is not in the app's copy of "
                                      r"your Codex yet.*--no-entry"):
        craft(box, **LAID)
    assert energy(box) == before
    assert bag(box) == ["quartz", "quill"]
    assert [str(d.kind) for d in crafting_explorer(box, ["Ash"])
            if str(d.code) == CODE] == ["untried"]


def test_crafting_items_an_item_typed_once_is_crafted_and_remembered(box: Campaign) -> None:
    """The item the Codex names (the web Journal's Rope, IT29), typed once: crafted with
    the rulebook's cost (the Craft action's energy, both tokens used up), remembered in
    the owner's pack and carried in the campaign file; the next time the code is known."""
    rope = journal_recipe("IT29")
    before = energy(box)
    says = CodexSays(item=rope["name"], slot="gear", text=rope["notes"], card=rope["id"])
    done = craft_from_codex(box, **LAID, says=says)
    assert "Ash crafts Rope." in done.summary
    assert "remembered in your own pack" in done.summary
    assert energy(box) == before - box.content.rules.action_costs.craft
    assert bag(box) == []
    assert [i[0] for i in box.character_detail("Ash").items] == ["IT29"]
    assert box.content.items["IT29"].text == "Two lengths."
    pack = user_pack.find_user_pack("box-mine")
    assert pack is not None
    cards = user_pack.pack_cards(pack.folder)
    assert cards[("crafting", CODE)] == {"colour": "grey", "code": "5610", "item": "IT29"}
    assert ("items", "IT29") in cards
    with box.file.read() as session:
        assert {(k[1], k[2]) for k in carried(session)} >= {("crafting", CODE),
                                                            ("items", "IT29")}
    assert [str(d.kind) for d in crafting_explorer(box) if str(d.code) == CODE] == []
    # Undo gives back the energy and the tokens; the pack remembers the entry, so the
    # same laying now crafts without asking.
    operations.undo(box)
    assert energy(box) == before and bag(box) == ["quartz", "quill"]
    assert "Ash crafts Rope." in craft(box, **LAID).summary
    operations.undo(box)
    with pytest.raises(Refused, match="known already"):
        craft_from_codex(box, **LAID, says=says)


def test_crafting_items_no_entry_applies_the_rule_for_a_code_without_one(box: Campaign) -> None:
    """"No entry": the action is spent, nothing is crafted, the tokens go back (the
    rules file's consume_on_no_entry); remembered, so the explorer's "Tried: no entry in
    the Codex" is now true, and the next craft of it asks nothing."""
    before = energy(box)
    done = craft_from_codex(box, **LAID, says=CodexSays.parse("no entry"))
    assert "The Codex has no entry for it: nothing is crafted." in done.summary
    assert "The materials go back to the inventory." in done.summary
    assert energy(box) == before - box.content.rules.action_costs.craft
    assert bag(box) == ["quartz", "quill"]
    assert [str(d.kind) for d in crafting_explorer(box, ["Ash"])
            if str(d.code) == CODE] == ["no_entry"]
    operations.pass_turn(box, name="Bryn")
    again = craft(box, **LAID)
    assert "no entry" in again.summary


def test_crafting_items_a_known_item_by_name_and_a_dead_end(box: Campaign) -> None:
    """An answer naming an item the pack knows needs no kind; a dead end keeps its
    words; an answer without a new item's kind is refused and writes nothing."""
    with pytest.raises(Refused, match="say its kind"):
        craft_from_codex(box, **LAID, says=CodexSays.parse("Fishing Spear"))
    pack = user_pack.find_user_pack("box-mine")
    assert pack is not None and ("crafting", CODE) not in user_pack.pack_cards(pack.folder)
    done = craft_from_codex(box, **LAID, says=CodexSays.parse("dead end; The cords slip."))
    assert "The cords slip." in done.summary


def test_crafting_items_owners_answer_refused_without_energy(box: Campaign) -> None:
    """Craft's own refusals come first: without energy nothing is asked or written."""
    apply_effects(box, name="Ash", effects=[{"do": "energy", "amount": -20}])
    with pytest.raises(Refused, match="energy"):
        craft_from_codex(box, **LAID, says=CodexSays.parse("Rope; gear; Two lengths."))
    pack = user_pack.find_user_pack("box-mine")
    assert pack is not None and ("crafting", CODE) not in user_pack.pack_cards(pack.folder)


@pytest.mark.parametrize(("typed", "says"), [
    ("Rope; gear; Two lengths.; IT29",
     CodexSays(item="Rope", slot="gear", text="Two lengths.", card="IT29")),
    ("Stone Knife", CodexSays(item="Stone Knife")),
    ("No entry", CodexSays(no_entry=True)),
    ("dead end", CodexSays(dead_end=True)),
])
def test_crafting_items_codex_says_as_typed(typed: str, says: CodexSays) -> None:
    assert CodexSays.parse(typed) == says


def test_crafting_items_sample_campaign_keeps_its_codex(demo: Campaign) -> None:
    """The sample's Codex is the app's own: a code without an entry is no entry there,
    and the owner's word is not asked."""
    apply_effects(demo, name="Ash", effects=[{"do": "gain", "resource": "flint", "amount": 1},
                                             {"do": "gain", "resource": "sinew", "amount": 1}])
    with pytest.raises(Refused, match="its pack's own Codex"):
        craft_from_codex(demo, name="Ash", left=0, left_rotation=0, right=1,
                         right_rotation=0, says=CodexSays(no_entry=True))


def test_using_the_codex_crafting_entries_own_box_look_up_says_what_the_app_lacks(
        box: Campaign) -> None:
    """Codex ▸ a crafting code in a box campaign: not "no entry" before the table has
    read it; after "no entry" was read at the table, no entry."""
    from companion.operations.codex import look_up_crafting

    assert "not in the app's copy of your Codex yet" in \
        look_up_crafting(box, code=CODE).detail.text
    craft_from_codex(box, **LAID, says=CodexSays(no_entry=True))
    assert look_up_crafting(box, code=CODE).detail.text == \
        "No crafting entry Grey 5610 in the Codex."


@pytest.mark.parametrize("line", ["gain 1 reed", "lose 1 reed"])
def test_material_tokens_a_new_material_is_named_not_unknown(box: Campaign, line: str) -> None:
    """Issue 36 item 2: a card's line or Apply Effects naming a material the pack lacks
    is refused naming the token to enter (MissingFromPack), changing nothing."""
    from companion.operations.changes import MissingFromPack
    from companion.operations.recorded import read_line

    with pytest.raises(MissingFromPack) as refused:
        read_line(box, line)
    assert refused.value.materials == ("reed",)
    verb = line.split()[0]
    with pytest.raises(MissingFromPack, match="companion material add PATH 'reed'"):
        apply_effects(box, name="Ash", effects=[{"do": verb, "resource": "reed", "amount": 1}])
    add_material(box, name="Reed", material_id="reed", unprocessed={"left": ("yellow", 4)})
    assert read_line(box, line)[0].effect["resource"] == "reed"


def test_crafting_items_the_remembered_entry_travels_in_the_campaign_file(
        box: Campaign) -> None:
    """The crafting entry and the item typed at the table are carried in the campaign
    file: opened where the owner's pack lacks them, the code is still known."""
    import shutil

    from companion import paths

    craft_from_codex(box, **LAID, says=CodexSays.parse("Rope; gear; Two lengths.; IT29"))
    path = box.path
    box.close()
    shutil.rmtree(paths.user_content_dir() / "box-mine")
    again = operations.open_campaign(path)
    try:
        found = again.content.crafting.lookup("grey", "5610")
        assert found.item is not None and found.item.name == "Rope"
        assert {c.card_id for c in again.cards_missing} >= {"G5610", "IT29"}
    finally:
        again.close()
