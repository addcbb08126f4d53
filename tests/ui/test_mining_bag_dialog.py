"""Rulebook: Mining > Step 4 in the procedure dialog: a chip the bag does not hold now is
refused in words and the dialog stays on its step (issue 35 item 9, D14)."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt

from companion.operations import procedures
from tests.ui.helpers import make_window
from tests.ui.test_card_entry import open_form
from tests.ui.test_procedure_dialog import go_mining


def type_chip(qtbot: Any, dialog: Any, typed: str) -> None:
    dialog.step_widget.card_combo.setEditText(typed)
    qtbot.mouseClick(dialog.step_widget.use_button, Qt.MouseButton.LeftButton)


def test_mining_step_4_the_second_sunstone_is_refused_and_a_clay_is_pulled(
        qtbot: Any, demo: Any, refusals: list[str]) -> None:
    window = make_window(qtbot, demo)
    dialog = go_mining(qtbot, window, demo)
    qtbot.addWidget(dialog)
    type_chip(qtbot, dialog, "sunstone")
    dialog.step_widget.option_buttons[0].click()  # Step 5: pull one more chip
    log = list(procedures.in_progress(demo).log)
    type_chip(qtbot, dialog, "sunstone")
    assert refusals == ["The bag holds no sunstone now: riverstone, clay, clay, clay."]
    assert list(procedures.in_progress(demo).log) == log
    assert dialog.step is not None and dialog.step.prompt.startswith("Step 4")
    type_chip(qtbot, dialog, "clay")
    assert procedures.in_progress(demo) is None
    assert refusals == ["The bag holds no sunstone now: riverstone, clay, clay, clay."]


def test_mining_step_4_a_material_entered_through_the_form_adds_no_chip(
        qtbot: Any, demo: Any, refusals: list[str]) -> None:
    """"Enter this chip…" saves the material into the own pack; the bag Step 1 filled
    gains no chip of it, so the step is refused in words and waits for a chip it holds."""
    window = make_window(qtbot, demo)
    dialog = go_mining(qtbot, window, demo)
    qtbot.addWidget(dialog)
    form = open_form(qtbot, dialog, "umber")
    form.editor.set_value(demo.content.materials["clay"].model_dump(mode="json")
                          | {"id": "umber", "name": "Burnt Umber"})
    qtbot.mouseClick(form.save_button, Qt.MouseButton.LeftButton)
    assert not form.isVisible(), form.error.text()
    assert "umber" in demo.content.materials
    assert refusals == ["The bag holds no umber now: sunstone, riverstone, clay, clay, "
                        "clay."]
    assert procedures.in_progress(demo).log == ()
    assert [c.material for c in procedures.current(demo).bag] == [  # type: ignore[union-attr]
        "sunstone", "riverstone", "clay", "clay", "clay"]
