"""Issue 36 (the real box, second evening), item 15: File ▸ Import Campaign opens in the
folder of the last export, and asks where the imported campaign is kept in a titled
dialog that says why (it was a second, untitled Save dialog)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QFileDialog, QLabel

from companion import paths
from companion.ui.main_window import MainWindow
from tests.ui import newcomer
from tests.ui.test_webjournal_dialog import menu_action

font_scale = newcomer.font_scale  # the fixture: the system font, then Larger text


def export_to(window: MainWindow, folder: Path, monkeypatch: Any) -> Path:
    """File ▸ Export Campaign into ``folder`` (the Save dialog answered)."""
    folder.mkdir()
    target = folder / "Second evening"
    monkeypatch.setattr(QFileDialog, "getSaveFileName",
                        lambda *args: (str(target), args[3] if len(args) > 3 else ""))
    menu_action(window, "Export Campaign…").trigger()
    written = folder / "Second evening.stonesaga-export.json"
    assert written.exists()
    return written


def test_item15_import_opens_in_the_last_exports_folder_and_says_why_it_asks_where(
        qtbot: Any, window: MainWindow, tmp_path: Path, monkeypatch: Any,
        refusals: list[str], font_scale: float) -> None:
    written = export_to(window, tmp_path / "usb stick", monkeypatch)
    opened_in: list[str] = []

    def open_one(parent: Any, caption: str, directory: str, *_: Any) -> tuple[str, str]:
        opened_in.append(directory)
        return str(written), ""

    monkeypatch.setattr(QFileDialog, "getOpenFileName", open_one)
    asked: list[Any] = []

    def answer() -> None:  # the player reads the question, then Import
        from companion.ui.import_place import ImportPlaceDialog

        dialog = next(w for w in QApplication.topLevelWidgets()
                      if isinstance(w, ImportPlaceDialog) and w.isVisible())
        asked.append(dialog)
        dialog.grab().save(f"/tmp/shots/item15_place_{font_scale}.png")
        dialog.import_button.click()

    QTimer.singleShot(0, answer)
    menu_action(window, "Import Campaign…").trigger()
    assert refusals == []
    assert opened_in == [str(tmp_path / "usb stick")]
    [dialog] = asked
    assert dialog.windowTitle() == "Import a campaign: where to keep it"
    said = " ".join(label.text() for label in dialog.findChildren(QLabel))
    assert "Importing Second evening.stonesaga-export.json makes a new campaign file" in said
    kept = paths.campaigns_dir() / "Second evening.stonesaga"
    assert dialog.path_edit.text() == str(kept)
    assert window.campaign is not None and window.campaign.path == kept
    window.campaign.close()
