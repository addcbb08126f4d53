"""Issue 38: a backup taken before the campaign was shared, restored now that it is.

Restored, it would be the campaign unshared: this machine apart from the others for good,
with nothing said. The restore (File ▸ Backups, ``companion backup restore``) refuses it
in words instead, and says what to do (undo travels; join again mends a damaged file);
a backup taken since the share restores as usual."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtWidgets import QMessageBox

from companion import operations
from companion.operations import Refused, sharing
from tests.cli.helpers import run
from tests.sharing.conftest import Table


def shared(path: Path) -> bool:
    conn = sqlite3.connect(path)
    try:
        return conn.execute("SELECT count(*) FROM sync_state").fetchone() == (1,)
    finally:
        conn.close()


def before_share(path: Path) -> list[Any]:
    found = [b for b in operations.list_backups(path) if not shared(b.path)]
    assert found, "the demo campaign's first open took a backup before the share"
    return found


def test_issue38_a_backup_from_before_the_share_is_refused_in_words(table: Table) -> None:
    ana = table.machines["ana"]
    operations.add_journal_entry(ana, text="played after the share")
    old = before_share(ana.path)[0]
    path = ana.path
    before = table.export("ana")
    with pytest.raises(Refused, match="taken before .* was shared") as refused:
        operations.restore_backup(ana, old)
    words = str(refused.value)
    assert str(table.folder) in words and "Ana's laptop" in words
    assert "undo" in words and "join the campaign again" in words
    table.machines["ana"] = ana = operations.open_campaign(path)
    assert table.export("ana") == before and shared(path)
    assert sharing.sync(ana).words == "Up to date"


def test_issue38_a_damaged_shared_file_still_refuses_it_and_a_later_backup_restores(
        table: Table) -> None:
    ana = table.machines["ana"]
    path = ana.path
    ana.close()
    table.machines["ana"] = ana = operations.open_campaign(path)  # a backup since the share
    ana.close()
    data = bytearray(path.read_bytes())
    data[4096:8192] = b"\xff" * 4096
    path.write_bytes(bytes(data))
    with pytest.raises(Refused, match="taken before"):
        operations.restore_backup(path, before_share(path)[0])
    since = next(b for b in operations.list_backups(path) if shared(b.path))
    table.machines["ana"] = ana = operations.restore_backup(path, since)
    assert shared(path) and sharing.sync(ana).words == "Up to date"


def test_issue38_backup_restore_at_the_terminal_says_why_and_changes_nothing(
        table: Table, capsys: Any) -> None:
    ana = table.machines["ana"]
    path = ana.path
    ana.close()  # closing takes a backup too: numbered after it
    listed = operations.list_backups(path)
    number = next(n for n, b in enumerate(listed, 1) if not shared(b.path))
    before = path.read_bytes()
    code, _, err = run(capsys, "backup", "restore", str(path), str(number))
    assert code != 0
    assert "was taken before" in err and "Nothing was restored or changed" in err
    assert path.read_bytes() == before
    table.machines["ana"] = operations.open_campaign(path)


def test_issue38_file_backups_says_why_and_the_window_keeps_its_campaign(
        table: Table, qtbot: Any, monkeypatch: Any) -> None:
    from companion.ui import dialogs
    from companion.ui.main_window import MainWindow

    ana = table.machines["ana"]
    window = MainWindow()
    qtbot.addWidget(window)
    window.set_campaign(ana)
    dialog = dialogs.BackupsDialog(window, ana.path)
    qtbot.addWidget(dialog)
    row = next(n for n, b in enumerate(dialog.backups) if not shared(b.path))
    dialog.table.selectRow(row)
    said: list[str] = []
    monkeypatch.setattr(QMessageBox, "warning", lambda _p, _t, text, *a, **k: said.append(
        text) or QMessageBox.StandardButton.Ok)
    monkeypatch.setattr(QMessageBox, "question",
                        lambda *a, **k: QMessageBox.StandardButton.Yes)
    dialog.restore()
    assert said and "was taken before" in said[0] and "join the campaign again" in said[0]
    assert dialog.restored is None and window.campaign is ana
    assert sharing.sync(ana).words == "Up to date"
    window.campaign = None  # the table fixture closes it
