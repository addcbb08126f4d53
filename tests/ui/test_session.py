"""The GUI's backup timer (issue 20 item 13): a backup taken is said in the status bar,
and a failing one says why there instead of a traceback nobody sees."""

from __future__ import annotations

from typing import Any

from companion.store import CampaignFileError
from companion.ui.session import periodic_backup
from tests.ui.helpers import make_window


def test_a_due_backup_is_taken_and_said(qtbot: Any, demo: Any, monkeypatch: Any) -> None:
    window = make_window(qtbot, demo)
    monkeypatch.setattr(type(demo), "maybe_backup", lambda self: object())
    assert periodic_backup(window)
    assert window.statusBar().currentMessage() == "Backed up the campaign."


def test_a_failing_backup_is_said_not_raised(qtbot: Any, demo: Any,
                                             monkeypatch: Any) -> None:
    window = make_window(qtbot, demo)

    def fail(self: Any) -> None:
        raise CampaignFileError("the backup folder is full")

    monkeypatch.setattr(type(demo), "maybe_backup", fail)
    assert not periodic_backup(window)
    assert "backup failed: the backup folder is full" in window.statusBar().currentMessage()


def test_nothing_due_says_nothing(qtbot: Any, demo: Any) -> None:
    window = make_window(qtbot, demo)
    window.statusBar().clearMessage()
    assert not periodic_backup(window)  # nothing changed since the demo's own backup
    assert window.statusBar().currentMessage() == ""
