"""The Backups dialog: listing automatic backups, restoring one, and the offer to restore
when a damaged file is refused."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtWidgets import QDialog, QMessageBox

from companion import operations
from companion.ui import dialogs
from companion.ui.main_window import MainWindow


def test_backups_are_listed_and_one_is_restored(qtbot: Any, tmp_path: Path,
                                                monkeypatch: Any) -> None:
    path = tmp_path / "b.stonesaga"
    operations.new_campaign(path, society_name="Backed Up").close()
    campaign = operations.open_campaign(path)  # opening takes a backup
    window = MainWindow()
    qtbot.addWidget(window)
    window.set_campaign(campaign)
    operations.add_journal_entry(campaign, text="after the backup")
    dialog = dialogs.BackupsDialog(window, path)
    qtbot.addWidget(dialog)
    assert dialog.table.rowCount() >= 1 and dialog.restore_button.isEnabled()
    monkeypatch.setattr(QMessageBox, "question",
                        lambda *a, **k: QMessageBox.StandardButton.Yes)
    dialog.restore()
    assert dialog.result() == QDialog.DialogCode.Accepted
    restored = dialog.restored
    assert restored is not None
    assert all(line.text != "after the backup" for line in restored.journal())
    restored.close()


def test_a_damaged_file_is_refused_and_its_backups_offered(qtbot: Any, tmp_path: Path,
                                                           monkeypatch: Any) -> None:
    path = tmp_path / "d.stonesaga"
    operations.new_campaign(path, society_name="Soon Damaged").close()
    operations.open_campaign(path).close()  # a backup exists now
    data = bytearray(path.read_bytes())
    data[4096:8192] = b"\xff" * 4096  # scribble over the second page
    path.write_bytes(bytes(data))
    try:
        operations.open_campaign(path).close()
        raise AssertionError("a damaged file was opened")
    except operations.Damaged as damaged:
        refusal = damaged
    assert path.read_bytes() == bytes(data)  # refused, and left untouched
    window = MainWindow()
    qtbot.addWidget(window)
    offered: list[dialogs.BackupsDialog] = []

    def accept(dialog: dialogs.BackupsDialog) -> int:
        offered.append(dialog)
        dialog.restore(confirm=False)
        return int(dialog.result())

    monkeypatch.setattr(dialogs.BackupsDialog, "exec", accept)
    restored = dialogs.offer_restore(window, refusal)
    assert offered and "damaged" in offered[0].windowTitle()
    assert restored is not None
    assert restored.title == "Soon Damaged"
    restored.close()
