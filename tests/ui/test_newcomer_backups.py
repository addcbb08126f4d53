"""File ▸ Backups names each backup by its game moment (issue 27 item 12): the challenge,
Day or Night, the last action, and the time to the second; restoring one taken in the
middle of a Night warns first (Rulebook: Game Structure > Rounds)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from PySide6.QtWidgets import QMessageBox

from companion.ui import dialogs
from tests.cli.test_backup_moments_cmd import day_then_night
from tests.ui.helpers import make_window


def test_rulebook_rounds_backups_show_challenge_day_or_night_and_last_action(
        qtbot: Any, tmp_path: Path) -> None:
    demo = day_then_night(tmp_path)
    window = make_window(qtbot, demo)
    dialog = dialogs.BackupsDialog(window, demo.path)
    qtbot.addWidget(dialog)
    header = [dialog.table.horizontalHeaderItem(c).text()
              for c in range(dialog.table.columnCount())]
    assert header == ["Taken", "Game moment", "Why", "Size"]
    rows = [[dialog.table.item(r, c).text() for c in range(4)]
            for r in range(dialog.table.rowCount())]
    night, day = rows[0], rows[1]
    assert night[1] == "The Long Thaw · Night · last: Night falls"
    assert day[1].startswith("The Long Thaw · Day · last: ")
    assert all(re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d", row[0]) for row in rows)
    assert night[2] == "by hand"


def test_rulebook_rounds_restoring_a_mid_night_backup_warns_first(
        qtbot: Any, tmp_path: Path, monkeypatch: Any) -> None:
    demo = day_then_night(tmp_path)
    window = make_window(qtbot, demo)
    dialog = dialogs.BackupsDialog(window, demo.path)
    qtbot.addWidget(dialog)
    warned: list[str] = []
    asked: list[str] = []

    def warning(_parent: Any, _title: str, text: str, *rest: Any) -> Any:
        warned.append(text)
        return QMessageBox.StandardButton.No  # the player thinks again

    def question(_parent: Any, _title: str, text: str, *rest: Any) -> Any:
        asked.append(text)
        return QMessageBox.StandardButton.No

    monkeypatch.setattr(QMessageBox, "warning", warning)
    monkeypatch.setattr(QMessageBox, "question", question)
    dialog.table.selectRow(0)  # taken in the Night
    dialog.restore()
    assert len(warned) == 1 and not asked
    assert "in the middle of a Night" in warned[0] and "Night falls" in warned[0]
    assert dialog.restored is None and not demo.file.closed  # nothing changed
    dialog.table.selectRow(1)  # taken during the Day: the usual question, no warning
    dialog.restore()
    assert len(warned) == 1 and len(asked) == 1
    assert "The Long Thaw · Day" in asked[0]
