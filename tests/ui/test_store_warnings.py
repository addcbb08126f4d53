"""Issue 19, faults 2 and 3 in the window: a backup that could not be taken is shown to
the players (the campaign keeps working), not hidden."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtWidgets import QMessageBox

from companion import operations
from companion.ui import session
from tests.ui.helpers import make_window


def test_a_file_where_the_backups_folder_goes_is_shown(qtbot: Any, tmp_path: Path) -> None:
    path = tmp_path / "w.stonesaga"
    operations.new_campaign(path, society_name="Warned").close()
    backups = path.with_name(path.name + ".backups")
    for old in backups.iterdir():
        old.unlink()
    backups.rmdir()
    backups.write_text("in the way")
    campaign = operations.open_campaign(path)  # the opening backup cannot be taken
    window = make_window(qtbot, campaign)
    session.wire_window(window)
    box = window.findChild(QMessageBox, "storeWarning")
    assert box is not None and box.isVisible()
    assert "is a file, not a folder" in box.text() and str(backups) in box.text()
    assert "is a file" in window.statusBar().currentMessage()
    operations.add_journal_entry(campaign, text="still saved")  # play goes on
    box.grab().save(str(tmp_path / "reliability-store-warning.png"))
    campaign.close()
