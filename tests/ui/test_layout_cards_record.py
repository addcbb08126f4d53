"""Layout tests (issue 20) for the ways past an unknown card and the Codex outcome
dialog (issue 25 parts 3-4, issue 27 items 6 and 10): each fits a 1366×768 laptop, has
no two widgets over each other and no text cut short, with the system font and at the
larger text size."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt

from companion.operations.activities import start_foraging
from companion.operations.recorded import record_what_happened
from companion.ui.codex_outcome import OutcomeDialog
from companion.ui.procedure_dialog import ProcedureDialog, open_procedure
from companion.ui.table_record import RecordDialog, RecordedCardsDialog
from tests.ui import layout_checks, newcomer
from tests.ui.helpers import make_window

font_scale = newcomer.font_scale  # the fixture: the system font, then the larger text


def test_layout_unknown_card_and_record_dialogs(qtbot: Any, demo: Any,
                                                font_scale: float) -> None:
    found: list[str] = []
    start_foraging(demo, name="Ash", feature="forest")
    window = make_window(qtbot, demo)
    dialog = open_procedure(window)
    assert isinstance(dialog, ProcedureDialog)
    qtbot.addWidget(dialog)
    field = dialog.step_widget.card_field
    field.combo.setEditText("FF99")
    qtbot.mouseClick(field.use_button, Qt.MouseButton.LeftButton)
    assert field.unknown.isVisible()
    found += [f"foraging, unknown card: {p}" for p in layout_checks.problems(dialog)]
    record = RecordDialog(window, kind="forage_cards", card="FF99", actor="Ash")
    qtbot.addWidget(record)
    record.show()
    qtbot.keyClicks(record.line, "gain 2 meat, lore +1")
    found += [f"record: {p}" for p in layout_checks.problems(record)]
    record.record()
    listed = RecordedCardsDialog(window)
    qtbot.addWidget(listed)
    listed.show()
    found += [f"recorded cards: {p}" for p in layout_checks.problems(listed)]
    assert found == []


def test_layout_codex_outcome_dialog(qtbot: Any, demo: Any, font_scale: float) -> None:
    found: list[str] = []
    window = make_window(qtbot, demo)
    for number in ("100", "103", "999"):
        outcome = OutcomeDialog(window, number)
        qtbot.addWidget(outcome)
        outcome.show()
        found += [f"outcome {number}: {p}" for p in layout_checks.problems(outcome)]
    record_what_happened(demo, line="lore +1", card="DI99", kind="discovery_cards")
    assert found == []
