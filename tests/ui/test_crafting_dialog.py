"""The Crafting dialog on the demo campaign: the live code, Craft, the explorer."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt

from companion import operations
from companion.operations.effects import apply_effects
from companion.ui.crafting_dialog import CraftingDialog, open_crafting
from companion.ui.main_window import MainWindow
from companion.ui.token_face import pip_text


@pytest.fixture
def demo(tmp_path: Path) -> Iterator[operations.Campaign]:
    campaign = operations.create_demo_campaign(tmp_path / "d.stonesaga")
    # flint, sinew, flint, sinew: one pair to craft, one left to see what was learnt
    for _ in range(2):
        apply_effects(campaign, name="Ash", effects=[{"do": "gain", "resource": "flint"},
                                                     {"do": "gain", "resource": "sinew"}])
    yield campaign
    campaign.close()


def make_dialog(qtbot: Any, window: MainWindow) -> CraftingDialog:
    dialog = CraftingDialog(window, "Ash")
    qtbot.addWidget(dialog)
    dialog.show()
    return dialog


def test_flint_beside_sinew_reads_red_1410_and_crafts(qtbot: Any, window: MainWindow,
                                                      demo: Any, warnings: list[str]) -> None:
    dialog = make_dialog(qtbot, window)
    assert dialog.name == "Ash"
    bag = demo.character_detail("Ash").bag
    assert [t.name for t in bag] == ["flint", "sinew", "flint", "sinew"]
    dialog.set_tokens(0, 1)  # flint on the left, sinew on the right, unturned
    assert dialog.rotation == {"left": 0, "right": 0}
    assert "Red 1410" in dialog.code_label.text()
    assert "(R1410)" in dialog.code_label.text()  # the colour letter is always there
    assert dialog.known_label.text() == "untried"
    assert dialog.explorer_kind("R1410") == "untried"
    assert dialog.craft_button.isEnabled()
    dialog.craft_button.click()
    assert warnings == []
    ash = demo.character_detail("Ash")
    assert [str(i) for i, _ in ash.items] == ["stone-knife"]
    assert [t.name for t in ash.bag] == ["flint", "sinew"]
    assert "crafts Stone Knife" in dialog.result_label.text()  # the name, not the id
    # the remaining pair now reads a known item, and so does the explorer
    dialog.set_tokens(0, 1)
    assert dialog.known_label.text() == "item: Stone Knife" or \
        dialog.known_label.text().startswith("item: ")
    assert dialog.explorer_kind("R1410") == "item"
    items = dialog.tree.topLevelItem(0)
    assert items.text(0).startswith("Known items (1)")
    assert items.child(0).text(0) == "Red 1410 (R1410)"


def test_inner_edges_that_differ_give_the_reason_and_disable_craft(
        qtbot: Any, window: MainWindow) -> None:
    dialog = make_dialog(qtbot, window)
    dialog.set_tokens(0, 1)
    dialog.turn("right", 1)  # sinew's top (purple triangle) now touches flint's blue circle
    assert dialog.code_label.text() == "No code"
    assert "cannot combine" in dialog.reason_label.text()
    assert "touching edges" in dialog.reason_label.text()
    assert not dialog.craft_button.isEnabled()
    # the keyboard turns the focused token back
    qtbot.keyClick(dialog.laid["right"], Qt.Key.Key_Left)
    assert dialog.rotation["right"] == 0
    assert dialog.craft_button.isEnabled()
    # the null pip cannot begin a code: sinew on the left turned so its 0 pip leads
    dialog.set_tokens(1, 0)
    dialog.set_rotation("left", 2)
    assert not dialog.craft_button.isEnabled()


def test_explorer_for_the_group_and_colour_letters(qtbot: Any, window: MainWindow,
                                                   demo: Any) -> None:
    dialog = make_dialog(qtbot, window)
    dialog.scope.setCurrentIndex(0)  # the whole group
    groups = dialog.explorer_groups()
    assert groups["untried"] and not groups["item"] and not groups["dead_end"]
    assert all(c.text(0)[-6] in "RBYPS" for i in range(3)
               for c in [dialog.tree.topLevelItem(i).child(j)
                         for j in range(dialog.tree.topLevelItem(i).childCount())])
    face = dialog.faces[0]
    assert pip_text(face.edges[3]) == "R red diamond ×1"


def test_open_crafting_and_too_few_tokens(qtbot: Any, window: MainWindow) -> None:
    dialog = open_crafting(window, "Bryn")
    assert dialog is not None
    qtbot.addWidget(dialog)
    assert dialog.name == "Bryn"
    assert "crafting lays two" in dialog.palette_empty.text()
    assert not dialog.craft_button.isEnabled()


def test_a_refused_craft_leaves_the_dialog_open(qtbot: Any, window: MainWindow, demo: Any,
                                                warnings: list[str]) -> None:
    apply_effects(demo, name="Ash", effects=[{"do": "energy", "amount": -5}])
    dialog = make_dialog(qtbot, window)
    assert "Ash has 0 energy" in dialog.energy_label.text()
    dialog.set_tokens(0, 1)
    dialog.craft_button.click()
    assert len(warnings) == 1 and "energy" in warnings[0]
    assert dialog.isVisible()
    assert dialog.result_label.text() == ""
    assert [t.name for t in demo.character_detail("Ash").bag] == ["flint", "sinew"] * 2


def test_double_click_in_the_explorer_lays_the_code(qtbot: Any, window: MainWindow) -> None:
    dialog = make_dialog(qtbot, window)
    dialog.set_tokens(1, 2)  # sinew beside flint: no code
    assert not dialog.craft_button.isEnabled()
    dialog.tabs.setCurrentIndex(1)
    untried = dialog.tree.topLevelItem(3)
    row = untried.child(0)
    dialog.tree.itemDoubleClicked.emit(row, 0)
    assert dialog.tabs.currentIndex() == 0
    assert dialog.code_label.text() == row.text(0).replace(" (", "  (")
    assert dialog.craft_button.isEnabled()


def test_a_dead_end_is_remembered(qtbot: Any, window: MainWindow, demo: Any,
                                  warnings: list[str]) -> None:
    for _ in range(2):
        apply_effects(demo, name="Bryn", effects=[{"do": "gain", "resource": "flint"},
                                                  {"do": "gain", "resource": "riverstone"}])
    dialog = CraftingDialog(window, "Bryn")
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.set_tokens(0, 1)
    dialog.set_rotation("left", 2)
    dialog.set_rotation("right", 2)
    assert dialog.code_label.text() == "Blue 4120  (B4120)"
    assert dialog.known_label.text() == "untried"
    dialog.craft_button.click()
    assert warnings == []
    dialog.set_tokens(0, 1)
    dialog.set_rotation("left", 2)
    dialog.set_rotation("right", 2)
    assert dialog.known_label.text() == "dead end"
    assert dialog.explorer_kind("B4120") == "dead_end"


def test_crafting_entries_a_code_with_no_entry_reads_as_tried_not_untried(
        qtbot: Any, window: MainWindow, demo: Any, warnings: list[str]) -> None:
    # Rulebook: Using the Codex > Crafting Entries. Flint beside flint turned 180° reads
    # Red 1441; the sample Codex has no entry for it. Laid with the palette and the turn
    # button, crafted with the Craft button: from then on it reads as tried, never untried.
    dialog = make_dialog(qtbot, window)
    flints = [index for index, tile in dialog._palette_tiles if tile.name == "Flint"]
    assert len(flints) == 2
    dialog.set_tokens(None, None)
    for index, tile in dialog._palette_tiles:
        if index in flints:
            qtbot.mouseClick(tile, Qt.MouseButton.LeftButton)
    clockwise = dialog.turn_buttons["right"][1]
    clockwise.click()
    clockwise.click()
    assert dialog.code_label.text() == "Red 1441  (R1441)"
    assert dialog.known_label.text() == "untried"
    dialog.craft_button.click()
    assert warnings == []
    assert "no entry" in dialog.result_label.text()
    # the tokens came back (the sample pack does not use them up): lay them again
    for index, tile in dialog._palette_tiles:
        if index in flints:
            qtbot.mouseClick(tile, Qt.MouseButton.LeftButton)
    clockwise.click()
    clockwise.click()
    assert dialog.code_label.text() == "Red 1441  (R1441)"
    assert dialog.known_label.text() == "tried: no entry in the Codex"
    assert "no entry" in dialog.known_note.text() and "come back" in dialog.known_note.text()
    assert dialog.explorer_kind("R1441") == "no_entry"
    dialog.tabs.setCurrentIndex(1)
    groups = {dialog.tree.topLevelItem(i).text(0): dialog.tree.topLevelItem(i)
              for i in range(dialog.tree.topLevelItemCount())}
    tried = groups["Tried: no entry in the Codex (1)"]
    row = tried.child(0)
    assert row.text(0) == "Red 1441 (R1441)"
    assert row.text(1) == "tried: no entry in the Codex"
    assert not any(groups[t].child(i).text(0) == "Red 1441 (R1441)"
                   for t in groups if t.startswith("Untried")
                   for i in range(groups[t].childCount()))


def test_the_explorer_says_how_to_lay_a_code_with_material_names(
        qtbot: Any, window: MainWindow) -> None:
    dialog = make_dialog(qtbot, window)
    dialog.tabs.setCurrentIndex(1)
    untried = dialog.tree.topLevelItem(3)
    hows = [untried.child(i).text(2) for i in range(untried.childCount())]
    assert hows and all("Flint" in h or "Sinew" in h for h in hows)
    assert not any("flint" in h or "sinew" in h for h in hows)  # never the pack's ids
