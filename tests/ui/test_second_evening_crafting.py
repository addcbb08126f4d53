"""Issue 36, the real box's second evening, through the real widgets: crafting from the
owner's Codex (item 1), materials and items entered on the spot (item 2 and Apply
Effects), and their words (item 13). Rulebook: Processing & Crafting > Crafting Items;
Using the Codex > Crafting Entries; Tokens > Material Tokens. The tokens are the
community's transcription (tests/fixtures/community), the item the web Journal's."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from companion import operations
from companion.ui.codex_crafting import CodexCraftingDialog
from companion.ui.crafting_dialog import CraftingDialog
from tests.box_campaign import make_box_with_quartz_and_quill
from tests.community_tokens import journal_recipe
from tests.ui.helpers import make_window
from tests.ui.layout_checks import problems
from tests.ui.newcomer import font_scale  # noqa: F401 (a fixture)

SHOTS = Path(os.environ.get("SECOND_EVENING_SHOTS", "")) if \
    os.environ.get("SECOND_EVENING_SHOTS") else None
"""Where to save the screenshots looked at (unset: not saved)."""


def shot(widget: Any, name: str) -> None:
    QApplication.processEvents()
    if SHOTS is not None:
        SHOTS.mkdir(parents=True, exist_ok=True)
        widget.grab().save(str(SHOTS / f"{name}.png"))


@pytest.fixture
def box(tmp_path: Path) -> Iterator[operations.Campaign]:
    """A box campaign whose pack knows the community's Quartz and Quill, one of each in
    Ash's bag (Quartz unturned beside Quill turned 180° reads Grey 5610)."""
    campaign = make_box_with_quartz_and_quill(tmp_path / "box.stonesaga")
    yield campaign
    if not campaign.file.closed:
        campaign.close()


def crafting_from_the_day_tab(qtbot: Any, box: operations.Campaign) -> CraftingDialog:
    """Day ▸ Ash's Craft button: the Crafting dialog, Quartz beside Quill turned 180°."""
    window = make_window(qtbot, box)
    view = window.show_view("day")
    qtbot.mouseClick(view.button("Ash", "Craft"), Qt.MouseButton.LeftButton)
    dialog = view.dialog
    assert isinstance(dialog, CraftingDialog)
    qtbot.addWidget(dialog)
    dialog.set_tokens(0, 1)
    for _ in range(2):
        qtbot.mouseClick(dialog.turn_buttons["right"][1], Qt.MouseButton.LeftButton)
    assert "Grey 5610" in dialog.code_label.text()
    return dialog


def energy(box: operations.Campaign) -> int:
    return int(box.character_detail("Ash").energy)


def test_crafting_items_own_box_craft_asks_the_owners_codex(
        qtbot: Any, box: operations.Campaign, refusals: list[str],
        font_scale: float) -> None:  # noqa: F811
    """Issue 36 item 1: Craft asks what the owner's Codex says instead of "The Codex has
    no entry"; the item is typed once (name, kind, what it does), crafted with the
    Craft action's energy spent only now, and the explorer knows it afterwards."""
    dialog = crafting_from_the_day_tab(qtbot, box)
    assert "asks what your Codex says" in dialog.known_note.text()
    before = energy(box)
    qtbot.mouseClick(dialog.craft_button, Qt.MouseButton.LeftButton)
    question = dialog.codex_question
    assert isinstance(question, CodexCraftingDialog) and question.isVisible()
    assert energy(box) == before  # nothing spent while the table reads the book
    assert dialog.explorer_kind("G5610") == "untried"
    rope = journal_recipe("IT29")
    qtbot.keyClicks(question.item.lineEdit(), rope["name"])
    assert question.slot.isVisible() and question.does.isVisible()
    question.slot.setCurrentIndex(question.slot.findData("gear"))
    qtbot.keyClicks(question.does, rope["notes"])
    qtbot.keyClicks(question.card, rope["id"])
    assert problems(question) == []
    shot(question, f"codex-crafting-item-{font_scale}")
    qtbot.mouseClick(question.craft_button, Qt.MouseButton.LeftButton)
    assert refusals == []
    assert not question.isVisible()
    assert "Ash crafts Rope." in dialog.result_label.text()
    assert energy(box) == before - box.content.rules.action_costs.craft
    assert [i for i, _ in box.character_detail("Ash").items] == ["IT29"]
    assert box.journal(1)[0].text.startswith("Ash lays Quartz")
    shot(dialog, f"crafting-after-codex-{font_scale}")


def test_crafting_items_own_box_no_entry_is_told_by_the_table(
        qtbot: Any, box: operations.Campaign, refusals: list[str]) -> None:
    """"No entry", said by the owner's Codex: the rulebook's rule for it (the action
    spent, the tokens back), and now the explorer's "Tried: no entry" is true."""
    dialog = crafting_from_the_day_tab(qtbot, box)
    qtbot.mouseClick(dialog.craft_button, Qt.MouseButton.LeftButton)
    question = dialog.codex_question
    question.buttons["no_entry"].click()
    assert not question.item.isVisible() and not question.slot.isVisible()
    shot(question, "codex-crafting-no-entry")
    qtbot.mouseClick(question.craft_button, Qt.MouseButton.LeftButton)
    assert refusals == []
    assert "no entry for it: nothing is crafted" in dialog.result_label.text()
    assert [t.name for t in box.character_detail("Ash").bag] == ["quartz", "quill"]
    assert dialog.explorer_kind("G5610") == "no_entry"


def test_crafting_items_own_box_a_missing_kind_is_said_in_the_question(
        qtbot: Any, box: operations.Campaign, refusals: list[str]) -> None:
    """A new item without its name is refused in the question itself, which stays open
    and changes nothing; Cancel leaves the energy as it was."""
    dialog = crafting_from_the_day_tab(qtbot, box)
    before = energy(box)
    qtbot.mouseClick(dialog.craft_button, Qt.MouseButton.LeftButton)
    question = dialog.codex_question
    qtbot.mouseClick(question.craft_button, Qt.MouseButton.LeftButton)
    assert question.isVisible()
    assert question.status.text().startswith("Not crafted: An item needs its name")
    question.reject()
    assert energy(box) == before and refusals == []


def token_on_the_spot(qtbot: Any, window: Any, needed: str) -> Any:
    """The "enter this material token" dialog opened for ``needed``: its left edge set,
    saved (the app then goes on)."""
    from companion.ui.material_token import MaterialTokenDialog

    token = next(w for w in QApplication.topLevelWidgets()
                 if isinstance(w, MaterialTokenDialog) and w.isVisible()) \
        if not window.findChildren(MaterialTokenDialog) else \
        next(w for w in window.findChildren(MaterialTokenDialog) if w.isVisible())
    assert token.needed == needed
    assert token.name.text() == needed.capitalize()
    token.set_edge("left", "yellow", 4)
    return token


def test_material_tokens_forage_at_the_table_enters_reed_on_the_spot(
        qtbot: Any, box: operations.Campaign, refusals: list[str],
        font_scale: float) -> None:  # noqa: F811
    """Issue 36 item 2: Forage "At the table…" gains reed, which the pack lacks: the
    token is offered on the spot, and once saved the forage goes on with it."""
    from PySide6.QtWidgets import QPushButton

    from companion.ui.table_record import RecordDialog

    window = make_window(qtbot, box)
    view = window.show_view("day")
    [at_table] = [b for b in view.boxes["Ash"].findChildren(QPushButton, "atTable")
                  if "plains" in b.accessibleName()]
    qtbot.mouseClick(at_table, Qt.MouseButton.LeftButton)
    record = view.dialog
    assert isinstance(record, RecordDialog)
    qtbot.keyClicks(record.card, "FP07")
    record.line.setFocus()
    qtbot.keyClicks(record.line, "gain 1 reed")
    assert record.preview.text().startswith("Will apply: gain 1 reed (reed: a material "
                                            "token your pack does not know yet")
    shot(record, f"record-new-material-{font_scale}")
    qtbot.keyClick(record.line, Qt.Key.Key_Return)
    assert record.isVisible()  # waiting for the token
    token = token_on_the_spot(qtbot, window, "reed")
    assert problems(token) == []
    shot(token, f"token-on-the-spot-{font_scale}")
    qtbot.mouseClick(token.save_button, Qt.MouseButton.LeftButton)
    assert refusals == []
    assert not token.isVisible() and not record.isVisible()
    assert box.content.materials["reed"].name == "Reed"
    assert [t.name for t in box.character_detail("Ash").bag][-1] == "reed"
    assert box.journal(1)[0].text.startswith("Ash foraged at the plains (FP07)")


def test_material_tokens_enter_this_card_names_flint_entered_on_the_spot(
        qtbot: Any, box: operations.Campaign, refusals: list[str]) -> None:
    """Issue 36 item 2: "Enter this card…" for a Discovery card that gains flint: the
    flint token is entered on the spot, then the card is saved."""
    from companion.ui.card_entry import enter_card_form

    window = make_window(qtbot, box)
    form = enter_card_form(window, "discovery_cards", initial={
        "id": "D07", "name": "Sharp Stones", "text": "Gain 1 flint.",
        "effects": [{"do": "gain", "resource": "flint", "amount": 1}]})
    assert form is not None
    assert not form.try_save()
    token = token_on_the_spot(qtbot, window, "flint")
    qtbot.mouseClick(token.save_button, Qt.MouseButton.LeftButton)
    assert refusals == []
    assert "D07" in box.content.discovery_cards
    assert "flint" in box.content.materials
    assert not form.isVisible()
    assert box.journal(1)[0].text == "Entered the Discovery card D07 (Sharp Stones) into " \
        f"{box.content.packs[-1].name}"


def test_wording_entered_material_token_not_mining_chip(
        qtbot: Any, box: operations.Campaign) -> None:
    """Issue 36 item 13: "Entered the material token reed", not "material (mining
    chip) reed"."""
    from companion.ui.material_token import MaterialTokenDialog

    window = make_window(qtbot, box)
    dialog = MaterialTokenDialog(window)
    qtbot.addWidget(dialog)
    qtbot.keyClicks(dialog.name, "Reed")
    dialog.set_edge("left", "yellow", 4)
    assert dialog.save()
    assert "Entered the material token reed (Reed)" in dialog.result_label.text()
    assert "mining chip" not in box.journal(1)[0].text


def test_apply_effects_gain_an_item_the_app_has_never_seen(
        qtbot: Any, box: operations.Campaign, refusals: list[str],
        font_scale: float) -> None:  # noqa: F811
    """Issue 36 item 1 (and 13: "gain the item None"): Play ▸ Apply Effects ▸ Gain an
    item in a box whose pack knows no item: the item is typed as its card names it, its
    card entered on the spot, and the effect applied."""
    from companion.ui.card_form import CardForm
    from companion.ui.play_dialogs.effects import open_effects

    window = make_window(qtbot, box)
    dialog = open_effects(window, "Ash")
    assert dialog is not None
    qtbot.addWidget(dialog)
    dialog.choose_kind("gain_item")
    assert dialog.item.count() == 0
    assert dialog.preview.text() == "In the form: gain an item (type its name)"
    rope = journal_recipe("IT29")
    qtbot.keyClicks(dialog.item.lineEdit(), rope["name"])
    assert dialog.preview.text() == "In the form: gain the item Rope (new: its card first)"
    assert problems(dialog) == []
    shot(dialog, f"apply-effects-new-item-{font_scale}")
    qtbot.mouseClick(dialog.apply_button, Qt.MouseButton.LeftButton)
    form = dialog.new_form
    assert isinstance(form, CardForm) and form.isVisible()
    form.editor.editors["slot"].set_value("gear")
    form.editor.editors["text"].set_value(rope["notes"])
    assert problems(form) == []
    shot(form, f"item-card-on-the-spot-{font_scale}")
    assert form.try_save()
    assert refusals == []
    assert box.content.items["rope"].name == "Rope"
    assert [i for i, _ in box.character_detail("Ash").items] == ["rope"]
    assert "None" not in box.journal(1)[0].text


def test_apply_effects_gain_a_material_typed_enters_its_token(
        qtbot: Any, box: operations.Campaign, refusals: list[str]) -> None:
    """Issue 36 item 2 in Apply Effects: "gain 1 reed", typed where the pack knows no
    reed, opens its token on the spot; saved, the effect goes to the list."""
    from companion.ui.play_dialogs.effects import open_effects

    window = make_window(qtbot, box)
    dialog = open_effects(window, "Ash")
    assert dialog is not None
    qtbot.addWidget(dialog)
    dialog.choose_kind("gain")
    dialog.resource.setCurrentIndex(-1)
    qtbot.keyClicks(dialog.resource.lineEdit(), "Reed")
    qtbot.mouseClick(dialog.add_button, Qt.MouseButton.LeftButton)
    token = token_on_the_spot(qtbot, window, "reed")
    qtbot.mouseClick(token.save_button, Qt.MouseButton.LeftButton)
    assert refusals == []
    assert dialog.effects == [{"do": "gain", "resource": "reed", "amount": 1}]
    assert dialog.resource.currentData() == "reed"
