"""Help ▸ Getting Started: how a Day, an activity at the table and a Night go in the app,
with pictures. The text is ``docs/getting-started.md`` (the same page the repository
shows), its pictures the screenshots beside it, scaled to the window."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QEvent, QObject, QUrl
from PySide6.QtGui import QPixmap, QTextImageFormat
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QScrollArea,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from companion.paths import shipped_guide
from companion.ui.fit import fit_resize
from companion.ui.text_images import size_images

GUIDE = shipped_guide()
PICTURE_WIDTH = 900
"""Screenshots are shown at most this wide (they are taken at a window's full size): their
text stays readable (at 560 they were thumbnails; issue 27 item 17), and a click on one
shows it at its full size."""


def _shrink_pictures(browser: QTextBrowser, width: int) -> None:
    """Give each picture a display width (Markdown has no way to say it)."""
    document = browser.document()

    def shrunk(image: QTextImageFormat) -> tuple[float, float] | None:
        picture = document.resource(document.ResourceType.ImageResource.value,
                                    QUrl(image.name()))
        if picture is not None and hasattr(picture, "width") and picture.width():
            shown = min(width, picture.width())
            return shown, picture.height() * shown / picture.width()
        return None

    size_images(document, shrunk)


class Picture(QDialog):
    """One of the guide's pictures at its full size (scrolling where the screen is
    smaller)."""

    def __init__(self, parent: QWidget, path: Path, title: str) -> None:
        super().__init__(parent)
        self.setWindowTitle(title or path.stem.replace("-", " "))
        self.image = QLabel()
        self.image.setAccessibleName(title or "picture")
        self.image.setPixmap(QPixmap(str(path)))
        area = QScrollArea()
        area.setWidget(self.image)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(area, 1)
        layout.addWidget(buttons)
        size = self.image.pixmap().size()
        fit_resize(self, size.width() + 40, size.height() + 80)


class GettingStarted(QDialog):
    """The guide, modeless, beside the main window. A click on a picture shows it at its
    full size."""

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
        else:
            self.browser.setPlainText("The guide (docs/getting-started.md) is not installed "
                                      "with this copy of the companion.")
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.browser, 1)
        layout.addWidget(buttons)
        fit_resize(self, PICTURE_WIDTH + 80, 680)
        self.guide = guide
        self.enlarged: Picture | None = None
        self.browser.viewport().installEventFilter(self)
        self._fitted_to = 0
        self.fit_pictures()

    def fit_pictures(self) -> None:
        """Each picture as wide as the page (at most :data:`PICTURE_WIDTH`, never wider
        than it is): readable, and never behind a sideways scroll bar."""
        margin = 2 * round(self.browser.document().documentMargin()) + 24
        width = min(PICTURE_WIDTH, self.browser.viewport().width() - margin)
        if width > 0 and width != self._fitted_to and self.guide.exists():
            self._fitted_to = width
            _shrink_pictures(self.browser, width)

    def picture_at(self, point: Any) -> str | None:
        """The picture's file name under ``point`` (viewport coordinates), if any."""
        cursor = self.browser.cursorForPosition(point)
        for position in (cursor.position(), cursor.position() + 1):
            cursor.setPosition(position)
            form = cursor.charFormat()
            if form.isImageFormat():
                return form.toImageFormat().name()
        return None

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt's)
        if watched is self.browser.viewport() and event.type() == QEvent.Type.Resize:
            self.fit_pictures()  # the page's width changed
        if watched is self.browser.viewport() and \
                event.type() == QEvent.Type.MouseButtonRelease:
            name = self.picture_at(event.position().toPoint())  # type: ignore[attr-defined]
            if name:
                self.enlarge(name)
                return True
        return super().eventFilter(watched, event)

    def enlarge(self, name: str) -> Picture:
        """Show the picture ``name`` (as the guide names it) at its full size."""
        path = (self.guide.parent / name).resolve()
        self.enlarged = Picture(self, path, Path(name).stem.replace("-", " "))
        self.enlarged.show()
        return self.enlarged


def open_getting_started(parent: QWidget) -> GettingStarted:
    """Help ▸ Getting Started (modeless: the table can keep it open while playing)."""
    from PySide6.QtCore import Qt

    dialog = GettingStarted(parent)
    dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    dialog.show()
    return dialog
