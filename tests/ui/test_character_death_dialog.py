"""Character > New Character after a death (Rulebook: Character Death): the dialog offers
the replacement (0 energy, a hex with shelter) rather than a starting character."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QPoint, Qt

from companion import operations
from companion.operations.effects import apply_effects
from companion.ui.character_dialog import CharacterDialog
from companion.ui.main_window import MainWindow
from tests.operations.test_characters import bryn_perishes


def make_dialog(qtbot: Any, window: MainWindow) -> CharacterDialog:
    dialog = CharacterDialog(window)
    qtbot.addWidget(dialog)
    dialog.show()
    return dialog


@pytest.mark.parametrize(("untick", "energy"), [(False, 0), (True, 5)])
def test_character_death_the_new_character_dialog_offers_the_replacement(
        qtbot: Any, window: MainWindow, demo: operations.Campaign, warnings: list[str],
        untick: bool, energy: int, tmp_path: Path) -> None:
    bryn_perishes(demo)
    apply_effects(demo, name="Ash", effects=[{"do": "place", "token": "shelter"}])
    dialog = make_dialog(qtbot, window)
    assert dialog.replacement.isChecked()
    assert dialog.replacement.text() == ("Replaces Bryn, who perished (0 energy, in a hex "
                                         "with shelter)")
    assert dialog.hex.currentText() == "E01 — has shelter"
    if untick:  # the group makes a starting character instead
        # Click the check box's square, at its left edge.
        qtbot.mouseClick(dialog.replacement, Qt.MouseButton.LeftButton,
                         pos=QPoint(8, dialog.replacement.height() // 2))
        assert not dialog.replacement.isChecked()
    dialog.name.setText("Cora")
    for spin, value in zip(dialog.dice, [6, 2, 5, 4, 3], strict=True):
        spin.setValue(value)
    qtbot.mouseClick(dialog.create_button, Qt.MouseButton.LeftButton)
    assert warnings == []
    cora = demo.character_detail("Cora")
    assert (cora.energy, cora.hex) == (energy, "E01")
    dialog.grab().save(str(tmp_path / f"fix16-replacement-{untick}.png"))


def test_character_death_no_death_no_replacement_offered(
        qtbot: Any, window: MainWindow, demo: operations.Campaign) -> None:
    operations.age_character(demo, name="Ash")
    operations.age_character(demo, name="Ash")  # ageing out is no death
    dialog = make_dialog(qtbot, window)
    assert not dialog.replacement.isChecked()
    assert dialog.replacement.text().startswith("Replaces a character who perished")
