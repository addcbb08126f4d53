"""Issue 27 items 8 and 9 (a newcomer at the table): a new tray is explored by place in
words, the table saying which tiles it placed and which it flipped; face-down tiles stay
"?" everywhere until flipped (Rulebook: Actions > Explore; Valley > Hexes)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QDialog

from companion import operations
from companion.operations import exploration as ops
from companion.ui import fit
from companion.ui.explore_tray import TileDialog
from companion.ui.views.day import DayView
from companion.ui.views.valley import ValleyView
from tests.box_campaign import make_box_campaign
from tests.ui import newcomer
from tests.ui.helpers import make_window

font_scale = newcomer.font_scale  # the fixture: the system font, then 25% larger

COORDINATES = re.compile(r"-?\d+\s*,\s*-?\d+")
HIDDEN = ("E09", "E05")
"""The demo's two face-down tiles (seed 2026)."""


def explore_panel(qtbot: Any, campaign: operations.Campaign) -> ValleyView:
    window = make_window(qtbot, campaign)
    window.resize(fit.LAPTOP_WINDOW)
    view = window.show_view("valley")
    assert isinstance(view, ValleyView)
    view.character_combo.setCurrentText("Ash")
    view.explore_button.click()
    return view


def test_item_8_rulebook_explore_trays_listed_in_words_and_not_cut_off(
        qtbot: Any, demo: Any, font_scale: float) -> None:
    view = explore_panel(qtbot, demo)
    items = [view.placements.item(i) for i in range(view.placements.count())]
    assert len(items) == len(ops.legal_placements(demo, "Ash")) > 1
    for item in items:
        text = item.text()
        assert " of Ashen Ford" in text and not COORDINATES.search(text), text
        assert not any(tile in text for tile in HIDDEN), text
        # The whole line is on screen: wrapped inside the list, nothing past its edge.
        rect = view.placements.visualItemRect(item)
        assert rect.right() <= view.placements.viewport().width(), text
    labels = [label.text() for label in view.explore_box.tile_labels]
    assert all(" of Ashen Ford" in t or "beyond" in t for t in labels), labels
    flipped = [view.entry_combo.itemText(i) for i in range(view.entry_combo.count())]
    assert flipped and all(not COORDINATES.search(t) for t in flipped), flipped


def test_item_8_rulebook_explore_the_table_says_which_tiles_and_which_it_flipped(
        qtbot: Any, demo: Any, refusals: list[str]) -> None:
    view = explore_panel(qtbot, demo)
    option = view.explore_box.options[view.placements.currentRow()]
    for edit, tile in zip(view.explore_box.tile_edits, ("E02", "E03", "E04"), strict=True):
        qtbot.keyClicks(edit, tile)
    # The flipped list names the typed tiles with where they lie; the table picks one.
    entries = option.entry_words()
    texts = [view.entry_combo.itemText(i) for i in range(view.entry_combo.count())]
    assert texts == [f"{('E02', 'E03', 'E04')[slot]} ({words})" for slot, words in entries]
    view.entry_combo.setCurrentIndex(len(texts) - 1)
    slot = entries[-1][0]
    view.place_button.click()
    assert refusals == []
    flipped = ("E02", "E03", "E04")[slot]
    assert next(c.hex_id for c in demo.characters() if c.name == "Ash") == flipped
    assert f"flipped {demo.content.hexes[flipped].name} ({flipped})" in demo.journal(1)[0].text


def test_item_8_rulebook_explore_a_new_tile_of_the_box_is_typed_when_flipped(
        qtbot: Any, tmp_path: Path, refusals: list[str]) -> None:
    box = make_box_campaign(tmp_path / "box.stonesaga")
    view = explore_panel(qtbot, box)
    for edit, tile in zip(view.explore_box.tile_edits, ("31", "32", "33"), strict=True):
        qtbot.keyClicks(edit, tile)
    slot = int(view.entry_combo.currentData())
    seen: list[str] = []

    def fill_the_tile() -> None:
        dialog = QApplication.activeModalWidget()
        assert isinstance(dialog, TileDialog)
        seen.append(dialog.windowTitle())
        qtbot.keyClicks(dialog.name_edit, "Fern Hollow")
        for combo, feature in zip(dialog.sections, ("Forest", "Cave", "Lake"), strict=True):
            combo.setCurrentIndex(combo.findText(feature))
        qtbot.keyClicks(dialog.omens_edit, "moon:b")
        dialog.ok_button.click()

    QTimer.singleShot(0, fill_the_tile)
    view.place_button.click()
    tile = ("31", "32", "33")[slot]
    assert seen == [f"A new tile: {tile}"] and refusals == []
    assert box.content.hexes[tile].name == "Fern Hollow"
    assert [str(f) for f in box.content.hexes[tile].sections.values()] == [
        "forest", "cave", "lake"]
    assert next(c.hex_id for c in box.characters() if c.name == "Ash") == tile
    # Known next time: the dialog is not asked again for it.
    assert box.content.hexes[tile].omens[0].omen.value == "moon"


def test_item_8_tile_dialog_cancelled_changes_nothing(qtbot: Any, tmp_path: Path) -> None:
    box = make_box_campaign(tmp_path / "box.stonesaga")
    view = explore_panel(qtbot, box)
    for edit, tile in zip(view.explore_box.tile_edits, ("41", "42", "43"), strict=True):
        qtbot.keyClicks(edit, tile)
    before = (box.characters(), box.valley())

    def cancel() -> None:
        dialog = QApplication.activeModalWidget()
        assert isinstance(dialog, QDialog)
        dialog.reject()

    QTimer.singleShot(0, cancel)
    assert not view.explore_box.place_tray()
    assert (box.characters(), box.valley()) == before


def test_item_9_rulebook_hexes_day_buttons_name_no_face_down_tile(
        qtbot: Any, demo: Any, refusals: list[str], font_scale: float) -> None:
    window = make_window(qtbot, demo)
    window.resize(fit.LAPTOP_WINDOW)
    day = window.show_view("day")
    assert isinstance(day, DayView)
    texts = [b.text() for b in day.buttons["Ash"]]
    assert not any(tile in t for t in texts for tile in HIDDEN), texts
    button = day.button("Ash", "Explore the unexplored hex north-east of Ashen Ford")
    button.click()
    assert refusals == []
    # Flipped now: its tile is named from here on.
    assert next(c.hex_id for c in demo.characters() if c.name == "Ash") in HIDDEN


def test_item_9_rulebook_hexes_map_details_and_move_keep_the_tile_hidden(
        qtbot: Any, demo: Any) -> None:
    window = make_window(qtbot, demo)
    view = window.show_view("valley")
    assert isinstance(view, ValleyView)
    view.character_combo.setCurrentText("Ash")
    assert view.data is not None
    hidden = [c for c in view.data.valley.tiles if c not in view.data.valley.explored]
    for cell in hidden:
        view.select_hex(cell)
        view.start_move(cell)
        shown = " ".join([view.hex_title.text(), view.hex_details.text(),
                          view.actions_label.text(), view.confirm_label.text()])
        assert view.hex_title.text() == "A face-down hex"
        assert not any(tile in shown for tile in HIDDEN), shown
        assert "Explore the unexplored hex" in view.confirm_label.text()
    view.select_hex(hidden[0].neighbour(0).neighbour(0).neighbour(0))  # nowhere yet
    assert not COORDINATES.search(view.hex_details.text())


def test_item_9_rulebook_hexes_a_box_tile_flipped_from_the_day_tab_is_typed_first(
        qtbot: Any, tmp_path: Path, refusals: list[str]) -> None:
    box = make_box_campaign(tmp_path / "box.stonesaga")
    window = make_window(qtbot, box)
    day = window.show_view("day")
    assert isinstance(day, DayView)
    button = day.button("Ash", "Explore the unexplored hex north-east of Mossy Ford")
    asked: list[str] = []

    def fill_the_tile() -> None:
        dialog = QApplication.activeModalWidget()
        assert isinstance(dialog, TileDialog)
        asked.append(dialog.tile)
        dialog.sections[0].setCurrentIndex(dialog.sections[0].findText("Moraine"))
        dialog.ok_button.click()

    QTimer.singleShot(0, fill_the_tile)
    button.click()
    assert asked == ["04"] and refusals == []
    assert next(c.hex_id for c in box.characters() if c.name == "Ash") == "04"
    assert str(box.content.hexes["04"].sections["a"]) == "moraine"
