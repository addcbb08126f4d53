"""The pictures of a rich-text document given their display size, which the Markdown they
come from cannot say: the Help's guide (its screenshots fitted to the window) and the
journal PDF (the valley and the cave wall fitted to the page)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from PySide6.QtGui import QTextDocument, QTextImageFormat


def size_images(document: QTextDocument,
                size_of: Callable[[QTextImageFormat], tuple[float, float] | None]) -> None:
    """Give each picture of ``document`` the width and height ``size_of`` says for it
    (None: it stays as it is)."""
    from PySide6.QtGui import QTextCursor

    block = document.begin()
    while block.isValid():
        iterator = block.begin()
        while not iterator.atEnd():
            fragment = iterator.fragment()
            form = fragment.charFormat()
            if fragment.isValid() and form.isImageFormat():
                image = form.toImageFormat()
                size = size_of(image)
                if size is not None:
                    image.setWidth(size[0])
                    image.setHeight(size[1])
                    cursor = QTextCursor(document)
                    cursor.setPosition(fragment.position())
                    cursor.setPosition(fragment.position() + fragment.length(),
                                       QTextCursor.MoveMode.KeepAnchor)
                    cursor.setCharFormat(image)
            iterator += 1
        block = block.next()
