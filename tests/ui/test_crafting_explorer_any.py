"""The crafting explorer (Rulebook: Processing & Crafting > Crafting Items) in the
Crafting dialog: a material with itself where two tokens are held, any materials the
society knows (held or not), and importing the community's crafting files, played
through the dialog's own controls on the demo campaign with the sample's slate and moss
(grey, green and orange pips without a shape)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from companion import operations
from companion.operations.effects import apply_effects
from companion.ui.crafting_dialog import ANY_MATERIALS, CraftingDialog
from companion.ui.crafting_import_dialog import CraftingImportDialog
from tests.ui.helpers import make_window


@pytest.fixture
def demo(tmp_path: Path) -> Iterator[operations.Campaign]:
    campaign = operations.create_demo_campaign(tmp_path / "d.stonesaga")
    apply_effects(campaign, name="Ash", effects=[{"do": "gain", "resource": "slate"},
                                                 {"do": "gain", "resource": "moss"},
                                                 {"do": "gain", "resource": "slate"}])
    yield campaign
    campaign.close()


@pytest.fixture
def dialog(qtbot: Any, demo: operations.Campaign) -> CraftingDialog:
    window = make_window(qtbot, demo)
    dialog = CraftingDialog(window, "Ash")
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.tabs.setCurrentIndex(1)
    return dialog


def rows(dialog: CraftingDialog) -> dict[str, list[str]]:
    found = {}
    for i in range(dialog.tree.topLevelItemCount()):
        top = dialog.tree.topLevelItem(i)
        for j in range(top.childCount()):
            child = top.child(j)
            found[child.text(0)] = [child.text(c) for c in range(4)]
    return found


def choose(combo: Any, data: object) -> None:
    index = combo.findData(data)
    assert index >= 0, data
    combo.setCurrentIndex(index)


def test_two_slates_in_the_bag_pair_with_each_other(dialog: CraftingDialog) -> None:
    choose(dialog.scope, ["Ash"])
    found = rows(dialog)
    assert found["Grey 5656 (G5656)"][1] == "untried"
    assert "slate turned 0° beside slate turned 0°" in found["Grey 5656 (G5656)"][2].lower()
    assert "a material with itself where two of its tokens are held" in \
        dialog.explorer_summary.text()
    row = next(dialog.tree.topLevelItem(i).child(j)
               for i in range(dialog.tree.topLevelItemCount())
               for j in range(dialog.tree.topLevelItem(i).childCount())
               if dialog.tree.topLevelItem(i).child(j).text(0) == "Grey 5656 (G5656)")
    dialog.tree.itemDoubleClicked.emit(row, 0)
    assert dialog.tabs.currentIndex() == 0
    assert dialog.code_label.text() == "Grey 5656  (G5656)"
    assert dialog.chosen["left"] != dialog.chosen["right"]
    assert dialog.craft_button.isEnabled()


def test_any_materials_held_or_not(dialog: CraftingDialog) -> None:
    assert not dialog.pick_row.isVisible()
    choose(dialog.scope, ANY_MATERIALS)
    assert dialog.pick_row.isVisible()
    choose(dialog.material_a, "moss")
    choose(dialog.material_b, "flint")  # nobody holds flint
    # moss shows grey, green and orange pips, flint none of them: no edges match
    assert rows(dialog) == {}
    assert dialog.explorer_summary.text() == "Moss makes no code with Flint: no touching " \
        "edges match."
    choose(dialog.material_b, "slate")
    found = rows(dialog)
    assert "Grey 1621 (G1621)" in found and "Orange 3621 (O3621)" in found
    assert found["Grey 1621 (G1621)"][3] == "Moss (unprocessed): Ash; Slate (processed): nobody"
    assert dialog.explorer_summary.text().startswith(
        f"Moss makes {len(found)} code(s) with Slate, either side up")
    choose(dialog.material_b, None)  # every material, itself too
    assert "Green 6116 (Gn6116)" in rows(dialog)  # moss beside moss


def test_import_community_codes_from_the_explorer(dialog: CraftingDialog, qtbot: Any,
                                                  tmp_path: Path) -> None:
    green = tmp_path / "Crafting - Green.csv"
    green.write_text("code;flavor text;game text;item name\n"
                     "6116;Soft.;Search the Item Card deck for IT12; keep it dry.;Moss Pad\n"
                     "2156;;Return the materials.;None\n"
                     "6116;Soft.;Search the Item Card deck for IT12; keep it dry.;Moss Pad\n",
                     encoding="utf-8")
    before = set(QApplication.topLevelWidgets())
    qtbot.mouseClick(dialog.import_button, Qt.MouseButton.LeftButton)
    opened = [w for w in QApplication.topLevelWidgets()
              if isinstance(w, CraftingImportDialog) and w not in before]
    assert len(opened) == 1
    importer = opened[0]
    qtbot.addWidget(importer)
    assert importer.extends == "sample"
    assert Path(importer.pack.text()).name == "community-crafting"
    assert not importer.import_button.isEnabled()
    importer.add_files([green])
    assert importer.files.item(0).text() == "Crafting - Green.csv — green"
    pack = tmp_path / "mine"
    importer.pack.setText(str(pack))
    qtbot.mouseClick(importer.import_button, Qt.MouseButton.LeftButton)
    shown = [[importer.rows.topLevelItem(i).text(c) for c in range(3)]
             for i in range(importer.rows.topLevelItemCount())]
    assert shown == [["imported", "Gn6116", "Moss Pad (IT12)"],
                     ["imported", "Gn2156", "dead end, materials returned"],
                     ["skipped", "Gn6116",
                      "repeats Crafting - Green.csv:2 (1 time(s): Crafting - Green.csv:4); "
                      "written once"]]
    assert importer.summary.text().startswith("2 code(s) written to crafting-imported.yaml")
    assert "Skipped: 1 repeated." in importer.summary.text()
    data = yaml.safe_load((pack / "crafting-imported.yaml").read_text(encoding="utf-8"))
    assert len(data["crafting"]) == 2


def test_a_dead_end_that_returns_the_materials(qtbot: Any, dialog: CraftingDialog,
                                               demo: operations.Campaign,
                                               monkeypatch: Any) -> None:
    """Orange 3621 (processed moss turned 270° beside processed slate turned 270°) is the
    sample's dead end whose entry returns the materials: crafting it keeps both tokens,
    and the dialog then says so. Processed slate beside slate turned 270° would read
    Orange 5650, but that puts orange in the second row (D23): the dialog refuses it."""
    from PySide6.QtWidgets import QMessageBox

    from companion.operations.day import pass_turn, process

    warnings: list[str] = []
    monkeypatch.setattr(QMessageBox, "warning",
                        lambda parent, title, text, *rest: warnings.append(text))
    apply_effects(demo, name="Ash", effects=[{"do": "gain_item", "item": "stone-knife"},
                                             {"do": "gain_item", "item": "fire-drill"}])
    process(demo, name="Ash", tokens=[0, 1])  # a slate (the knife's cut), moss (heat)
    pass_turn(demo, name="Bryn")  # Ash's turn again
    dialog.window_.campaign_changed.emit(None)
    bag = [(t.name, str(t.side)) for t in demo.character_detail("Ash").bag]
    assert bag[:3] == [("slate", "processed"), ("moss", "processed"),
                       ("slate", "unprocessed")]
    dialog.set_tokens(0, 2)
    dialog.set_rotation("right", 3)
    assert dialog.code_label.text() == "No code"
    assert "orange pips can only begin a code" in dialog.reason_label.text()
    dialog.set_tokens(1, 0)
    dialog.set_rotation("left", 3)
    dialog.set_rotation("right", 3)
    assert dialog.code_label.text() == "Orange 3621  (O3621)"
    assert dialog.known_label.text() == "untried"
    qtbot.mouseClick(dialog.craft_button, Qt.MouseButton.LeftButton)
    assert warnings == []
    assert "take both pieces back. The materials go back to the inventory." in \
        dialog.result_label.text()
    assert [t.name for t in demo.character_detail("Ash").bag].count("slate") == 2
    assert [t.name for t in demo.character_detail("Ash").bag].count("moss") == 1
    bag = [(t.name, str(t.side)) for t in demo.character_detail("Ash").bag]
    dialog.set_tokens(bag.index(("moss", "processed")), bag.index(("slate", "processed")))
    dialog.set_rotation("left", 3)
    dialog.set_rotation("right", 3)
    assert dialog.code_label.text() == "Orange 3621  (O3621)"
    assert dialog.known_label.text() == "dead end"
    assert dialog.known_note.text().endswith("the tokens come back.")


def test_import_of_files_that_cannot_be_read_changes_nothing(qtbot: Any,
                                                             tmp_path: Path) -> None:
    importer = CraftingImportDialog(None, tmp_path / "mine", "sample")
    qtbot.addWidget(importer)
    importer.show()
    codes = tmp_path / "codes.csv"
    codes.write_text("Code;Flavor Text;Game Text;Item Name\n1111;;;Thing\n", encoding="utf-8")
    importer.add_files([codes])
    assert importer.files.item(0).text() == "codes.csv — no pip colour in the name"
    qtbot.mouseClick(importer.import_button, Qt.MouseButton.LeftButton)
    assert importer.rows.topLevelItemCount() == 0
    assert importer.summary.text() == (
        f"Nothing imported: {tmp_path / 'mine' / 'crafting-imported.yaml'} is unchanged.\n"
        "codes.csv: the file name names no single pip colour "
        "(red, blue, yellow, purple, grey, green, orange, silver)")
    assert not (tmp_path / "mine").exists()
