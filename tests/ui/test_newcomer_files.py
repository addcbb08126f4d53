"""Issue 27 (a newcomer at the table), item 15: File ▸ Export Campaign proposes a name
with its extension and adds the extension to a name typed without one, so File ▸ Import
Campaign's filter shows the file (as the journal's PDF export does)."""

from __future__ import annotations

import fnmatch
import re
from pathlib import Path
from typing import Any

from PySide6.QtWidgets import QFileDialog

from companion.ui.dialogs import CAMPAIGN_FILTER, EXPORT_FILTER
from tests.ui.helpers import make_window
from tests.ui.test_webjournal_dialog import choose_then_import, menu_action


def shown_by(name: str, file_filter: str) -> bool:
    """Whether a file dialog with ``file_filter`` lists a file called ``name``."""
    patterns = re.findall(r"\*[^\s)]*", file_filter)
    return any(fnmatch.fnmatch(name, p) for p in patterns)


def test_export_campaign_typed_without_extension_is_shown_by_import(
        qtbot: Any, demo: Any, tmp_path: Path, monkeypatch: Any, refusals: list[str]) -> None:
    window = make_window(qtbot, demo)
    proposed: list[str] = []
    answers = iter([str(tmp_path / "evening two"), str(tmp_path / "back again")])

    def save_as(parent: Any, caption: str, directory: str, file_filter: str, *_: Any
                ) -> tuple[str, str]:
        proposed.append(directory)
        return next(answers), file_filter

    monkeypatch.setattr(QFileDialog, "getSaveFileName", save_as)
    menu_action(window, "Export Campaign…").trigger()
    assert not refusals
    # The name offered already has the extension the Import filter shows.
    assert shown_by(Path(proposed[0]).name, EXPORT_FILTER), proposed[0]
    written = tmp_path / "evening two.stonesaga-export.json"
    assert written.exists() and not (tmp_path / "evening two").exists()
    assert shown_by(written.name, EXPORT_FILTER)
    # File ▸ Import Campaign lists it; the imported campaign is saved with its extension.
    listed: list[str] = []

    def open_one(parent: Any, caption: str, directory: str, file_filter: str, *_: Any
                 ) -> tuple[str, str]:
        listed.extend(p.name for p in tmp_path.iterdir()
                      if shown_by(p.name, file_filter.split(";;")[0]))
        return str(written), file_filter

    monkeypatch.setattr(QFileDialog, "getOpenFileName", open_one)
    choose_then_import(monkeypatch)
    menu_action(window, "Import Campaign…").trigger()
    assert not refusals
    assert written.name in listed
    imported = tmp_path / "back again.stonesaga"
    assert imported.exists() and shown_by(imported.name, CAMPAIGN_FILTER)


def test_save_a_copy_typed_without_extension_gets_one(qtbot: Any, demo: Any, tmp_path: Path,
                                                     monkeypatch: Any,
                                                     refusals: list[str]) -> None:
    window = make_window(qtbot, demo)
    monkeypatch.setattr(QFileDialog, "getSaveFileName",
                        lambda *args: (str(tmp_path / "spare"), CAMPAIGN_FILTER))
    menu_action(window, "Save a Copy…").trigger()
    assert not refusals
    assert (tmp_path / "spare.stonesaga").exists()


def test_getting_started_pictures_are_readable_and_a_click_enlarges_one(
        qtbot: Any, demo: Any, monkeypatch: Any) -> None:
    # Issue 27 item 17: the pictures were unreadable thumbnails (on a laptop's screen).
    from companion.ui import fit

    monkeypatch.setattr(fit, "room", lambda widget: fit.LAPTOP_WINDOW)
    from PySide6.QtCore import QPoint, Qt
    from PySide6.QtGui import QPixmap
    from PySide6.QtWidgets import QApplication

    from companion.ui.help_dialog import GettingStarted, Picture

    window = make_window(qtbot, demo)
    menu_action(window, "Getting Started…").trigger()
    dialog = window.findChild(GettingStarted)
    assert dialog is not None
    qtbot.addWidget(dialog)
    QApplication.processEvents()
    browser = dialog.browser
    # the first picture: find where it is drawn, and click it
    document = browser.document()
    block = document.begin()
    found = None
    while block.isValid() and found is None:
        iterator = block.begin()
        while not iterator.atEnd():
            fragment = iterator.fragment()
            if fragment.charFormat().isImageFormat():
                found = fragment
                break
            iterator += 1
        block = block.next()
    assert found is not None
    image = found.charFormat().toImageFormat()
    full = QPixmap(str(dialog.guide.parent / image.name())).width()
    assert image.width() >= min(800, full)  # readable: not a thumbnail
    cursor = browser.textCursor()
    cursor.setPosition(found.position())
    browser.setTextCursor(cursor)
    browser.ensureCursorVisible()
    rect = browser.cursorRect(cursor)
    point = QPoint(rect.right() + 20, rect.bottom() - 20)  # inside the picture
    qtbot.mouseClick(browser.viewport(), Qt.MouseButton.LeftButton, pos=point)
    enlarged = dialog.enlarged
    assert isinstance(enlarged, Picture) and enlarged.isVisible()
    qtbot.addWidget(enlarged)
    assert enlarged.image.pixmap().width() == full
