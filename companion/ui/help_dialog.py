"""Help ▸ Getting Started: how a Day, an activity at the table and a Night go in the app,
with pictures. The text is ``docs/getting-started.md`` (the same page the repository
shows), its pictures the screenshots beside it, scaled to the window."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QUrl
from PySide6.QtGui import QTextImageFormat
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QTextBrowser, QVBoxLayout, QWidget

from companion.paths import shipped_guide
from companion.ui.fit import fit_resize

GUIDE = shipped_guide()
PICTURE_WIDTH = 560
"""Screenshots are shown at most this wide (they are taken at a window's full size)."""


def _shrink_pictures(browser: QTextBrowser, width: int) -> None:
    """Give each picture a display width (Markdown has no way to say it)."""
    document = browser.document()
    block = document.begin()
    while block.isValid():
        iterator = block.begin()
        while not iterator.atEnd():
            fragment = iterator.fragment()
            form = fragment.charFormat()
            if fragment.isValid() and form.isImageFormat():
                image = form.toImageFormat()
                picture = document.resource(document.ResourceType.ImageResource.value,
                                            QUrl(image.name()))
                if picture is not None and hasattr(picture, "width") and picture.width():
                    scaled = QTextImageFormat(image)
                    scaled.setWidth(min(width, picture.width()))
                    scaled.setHeight(picture.height() * scaled.width() / picture.width())
                    cursor = browser.textCursor()
                    cursor.setPosition(fragment.position())
                    cursor.setPosition(fragment.position() + fragment.length(),
                                       cursor.MoveMode.KeepAnchor)
                    cursor.setCharFormat(scaled)
            iterator += 1
        block = block.next()


class GettingStarted(QDialog):
    """The guide, modeless, beside the main window."""

    def __init__(self, parent: QWidget | None = None, guide: Path = GUIDE) -> None:
        super().__init__(parent)
        self.setWindowTitle("Getting started")
        self.browser = QTextBrowser()
        self.browser.setAccessibleName("Getting started")
        self.browser.setOpenExternalLinks(True)
        self.browser.setSearchPaths([str(guide.parent)])
        if guide.exists():
            self.browser.document().setBaseUrl(QUrl.fromLocalFile(str(guide.parent) + "/"))
            self.browser.setMarkdown(guide.read_text(encoding="utf-8"))
            _shrink_pictures(self.browser, PICTURE_WIDTH)
        else:
            self.browser.setPlainText("The guide (docs/getting-started.md) is not installed "
                                      "with this copy of the companion.")
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.browser, 1)
        layout.addWidget(buttons)
        fit_resize(self, 720, 640)


def open_getting_started(parent: QWidget) -> GettingStarted:
    """Help ▸ Getting Started (modeless: the table can keep it open while playing)."""
    from PySide6.QtCore import Qt

    dialog = GettingStarted(parent)
    dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    dialog.show()
    return dialog
