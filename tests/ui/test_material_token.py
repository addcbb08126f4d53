"""Enter a material token on its picture (Rulebook: Tokens > Material Tokens; Processing
& Crafting > Crafting Items; issue 25 part 6), clicking the real controls; the crafting
explorer offers it at once."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt

from companion.content.schema.base import Edge
from companion.ui.crafting_dialog import CraftingDialog
from companion.ui.main_window import MainWindow
from companion.ui.material_token import MaterialTokenDialog


def set_edge(qtbot: Any, dialog: MaterialTokenDialog, edge: str, colour: str,
             count: int) -> None:
    control = dialog.edges[edge]
    control.colour.setCurrentIndex(control.colour.findData(colour))
    control.count.clear()
    qtbot.keyClicks(control.count, str(count))


def test_crafting_items_a_token_set_on_its_picture_is_saved_and_explored(
        qtbot: Any, window: MainWindow, demo: Any, warnings: list[str]) -> None:
    crafting = CraftingDialog(window, "Ash")
    qtbot.addWidget(crafting)
    crafting.show()
    qtbot.mouseClick(crafting.token_button, Qt.MouseButton.LeftButton)
    dialog = crafting.token_dialog
    assert isinstance(dialog, MaterialTokenDialog)
    qtbot.keyClicks(dialog.name, "Glowing Moss")
    set_edge(qtbot, dialog, "left", "blue", 2)
    set_edge(qtbot, dialog, "top", "yellow", 1)
    set_edge(qtbot, dialog, "right", "red", 3)
    # The picture follows: the face drawn shows each edge as set.
    face = dialog.face.face
    assert face is not None and str(face.edge(Edge.LEFT)) == "blue 2"
    assert "top: Y yellow ×1" in dialog.face.accessibleDescription()
    qtbot.mouseClick(dialog.processed_button, Qt.MouseButton.LeftButton)
    assert dialog.face.face is not None and dialog.face.face.processed
    assert dialog.edges["left"].pip() is None  # the other side: bare so far
    set_edge(qtbot, dialog, "bottom", "grey", 0)  # the null pip
    qtbot.mouseClick(dialog.unprocessed_button, Qt.MouseButton.LeftButton)
    assert dialog.edges["left"].pip() == ("blue", 2)  # kept per side
    qtbot.mouseClick(dialog.save_button, Qt.MouseButton.LeftButton)
    assert warnings == []
    moss = demo.content.materials["glowing-moss"]
    assert str(moss.unprocessed.pip(Edge.RIGHT)) == "red 3"
    assert moss.processed.pip(Edge.BOTTOM).count == 0
    assert dialog.name.text() == "" and "crafting explorer" in dialog.result_label.text()
    # The crafting explorer offers it at once.
    assert crafting.material_a.findData("glowing-moss") >= 0


def test_material_token_a_bad_token_is_said_and_nothing_saved(
        qtbot: Any, window: MainWindow, demo: Any, warnings: list[str]) -> None:
    dialog = MaterialTokenDialog(window)
    qtbot.addWidget(dialog)
    dialog.show()
    set_edge(qtbot, dialog, "left", "blue", 2)
    qtbot.mouseClick(dialog.save_button, Qt.MouseButton.LeftButton)
    assert "needs its name" in dialog.problem.text() and dialog.problem.isVisible()
    qtbot.keyClicks(dialog.name, "Flint")
    qtbot.mouseClick(dialog.save_button, Qt.MouseButton.LeftButton)
    assert "knows the material Flint already" in dialog.problem.text()
    assert dialog.saved == []


def test_material_token_from_the_content_menu(qtbot: Any, window: MainWindow) -> None:
    action = next(a for a in window.content_menu.actions()
                  if a.text() == "Enter a &Material Token…")
    action.trigger()
    assert [d for d in window.findChildren(MaterialTokenDialog) if d.isVisible()]
