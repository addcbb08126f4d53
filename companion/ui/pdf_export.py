"""The journal as a PDF: a printed paper backup of the campaign.

``write_pdf(campaign, out)`` lays out the Markdown of ``operations.export`` with
QTextDocument (headings, tables, lists) on A4 pages through QPdfWriter, with the valley
drawn by ``companion.ui.map_view.render_valley_png`` when that is available (the hex
grid of tile IDs is always there as a table) and the cave-wall illustrations. Works
headless: a QGuiApplication is made if there is none (the CLI sets the offscreen
platform when there is no display).
"""

from __future__ import annotations

import os
import re
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from PySide6.QtCore import QSizeF
    from PySide6.QtGui import QImage, QPdfWriter, QTextDocument

    from companion.operations import Campaign


def _ensure_app() -> None:
    if sys.platform.startswith("linux") and not (os.environ.get("DISPLAY")
                                                  or os.environ.get("WAYLAND_DISPLAY")):
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtWidgets import QApplication

    if QApplication.instance() is None:
        QApplication([])


def _valley_png(campaign: Campaign, folder: Path) -> Path | None:
    """The drawn valley, if the map view can render it (None otherwise)."""
    try:
        from companion.ui.map_view import render_valley_png
    except ImportError:
        return None
    out = folder / "valley-map.png"
    try:
        render_valley_png(campaign, out, width=1400)
    except Exception:  # noqa: BLE001 - the grid table is the fallback; never fail an export
        return None
    return out if out.exists() and out.stat().st_size > 0 else None


LAYOUT_DPI = 96
"""Pixels per inch of the layout page: what QTextDocument's point sizes assume."""
IMAGE_DPI = 200
"""Pixels per inch kept in the images placed on the page (sharp when printed)."""


def _add_image(document: QTextDocument, name: str, image: QImage, max_width: float,
               max_height: float, sizes: dict[str, tuple[float, float]]) -> None:
    """Register ``image`` as ``name``, to be shown within max_width x max_height (layout
    pixels), keeping IMAGE_DPI worth of its pixels."""
    from PySide6.QtCore import Qt, QUrl
    from PySide6.QtGui import QTextDocument

    if image.isNull():
        return
    scale = min(1.0, max_width / image.width(), max_height / image.height())
    shown = (image.width() * scale, image.height() * scale)
    keep = int(shown[0] * IMAGE_DPI / LAYOUT_DPI)
    if image.width() > keep:
        image = image.scaledToWidth(keep, Qt.TransformationMode.SmoothTransformation)
    document.addResource(QTextDocument.ResourceType.ImageResource, QUrl(name), image)
    sizes[name] = shown


def pdf_page_count(data: bytes) -> int:
    """How many pages a PDF has, read from its page objects (no PDF library needed)."""
    return len(re.findall(rb"/Type\s*/Page(?![a-zA-Z])", data))


def _style_tables(document: QTextDocument) -> None:
    """Ruled, padded tables: a journal page, not a screen grid."""
    from PySide6.QtGui import QBrush, QColor, QTextFrameFormat, QTextTable

    for frame in document.rootFrame().childFrames():
        if isinstance(frame, QTextTable):
            fmt = frame.format().toTableFormat()
            fmt.setBorder(0.8)
            fmt.setBorderStyle(QTextFrameFormat.BorderStyle.BorderStyle_Solid)
            fmt.setBorderBrush(QBrush(QColor("#777777")))
            fmt.setBorderCollapse(False)
            fmt.setCellPadding(4)
            fmt.setCellSpacing(0)
            fmt.setBottomMargin(6)
            frame.setFormat(fmt)


@dataclass(frozen=True)
class PreparedJournal:
    """What the PDF shows, read from the campaign on the GUI thread (the campaign file
    and the map scene belong to it); painting the pages can then run on a worker."""

    title: str
    markdown: str
    valley_png: bytes | None
    cave_wall: tuple[tuple[int, bytes], ...]
    """(illustration id, PNG bytes) of the illustrations that have an image."""


def prepare(campaign: Campaign) -> PreparedJournal:
    """Read everything the PDF needs (GUI thread)."""
    _ensure_app()
    from companion.operations import journal as j
    from companion.operations.export import journal_markdown

    with tempfile.TemporaryDirectory() as tmp:
        valley = _valley_png(campaign, Path(tmp))
        valley_bytes = valley.read_bytes() if valley is not None else None
    text = journal_markdown(campaign, valley_image="valley-map.png" if valley_bytes else None,
                            cave_wall_images=True)
    images = []
    for art in j.cave_wall(campaign):
        data = j.cave_wall_image(campaign, art.id) if art.has_image else None
        if data:
            images.append((art.id, data))
    return PreparedJournal(campaign.title, text, valley_bytes, tuple(images))


def paint_pdf(prepared: PreparedJournal, out: Path) -> int:
    """Lay out and paint the prepared journal on A4 pages (safe on a worker thread:
    only a text document, images and the PDF writer). Returns the page count."""
    from PySide6.QtCore import QMarginsF, QSizeF
    from PySide6.QtGui import (
        QFont,
        QImage,
        QPageLayout,
        QPageSize,
        QPdfWriter,
        QTextDocument,
    )

    from companion.ui.text_images import size_images

    writer = QPdfWriter(str(out))
    writer.setTitle(f"{prepared.title} — the Journal")
    writer.setCreator("Stonesaga Companion")
    writer.setResolution(150)
    writer.setPageLayout(QPageLayout(QPageSize(QPageSize.PageSizeId.A4),
                                     QPageLayout.Orientation.Portrait,
                                     QMarginsF(15, 15, 15, 15),
                                     QPageLayout.Unit.Millimeter))
    # Lay out on a page of the paper's printable size in 96-dpi pixels (fonts in
    # points come out right); print_() scales it onto the PDF's pages.
    paint = writer.pageLayout().paintRect(QPageLayout.Unit.Inch)
    page = QSizeF(paint.width() * LAYOUT_DPI, paint.height() * LAYOUT_DPI)
    document = QTextDocument()
    document.setDefaultFont(QFont("Serif", 10))
    document.setMarkdown(prepared.markdown)  # (clears resources: add images after it)
    document.setPageSize(page)
    _style_tables(document)
    sizes: dict[str, tuple[float, float]] = {}
    if prepared.valley_png is not None:
        valley = QImage()
        valley.loadFromData(prepared.valley_png)
        _add_image(document, "valley-map.png", valley, page.width() * 0.9,
                   page.height() * 0.6, sizes)
    for art_id, data in prepared.cave_wall:
        image = QImage()
        if image.loadFromData(data):
            _add_image(document, f"cave-wall-{art_id}.png", image, page.width() * 0.45,
                       page.height() * 0.3, sizes)
    size_images(document, lambda image: sizes.get(image.name()))
    pages = _print(document, writer, page, f"{prepared.title} — the Journal")
    del writer  # finishes the file
    return pages


def write_pdf(campaign: Campaign, out: Path) -> int:
    """Write the journal of ``campaign`` to ``out`` as a PDF; returns the page count."""
    return paint_pdf(prepare(campaign), out)


def _print(document: QTextDocument, writer: QPdfWriter, page: QSizeF, title: str) -> int:
    """Print ``document`` page by page with a footer (title, page n of N), as
    QTextDocument.print_ does for a paginated document, plus the footer."""
    from PySide6.QtCore import QRectF, QSizeF, Qt
    from PySide6.QtGui import QAbstractTextDocumentLayout, QFont, QPainter, QPalette

    footer = LAYOUT_DPI * 0.3
    body = QSizeF(page.width(), page.height() - footer)
    document.setPageSize(body)
    count = document.pageCount()
    painter = QPainter(writer)
    scale = writer.resolution() / LAYOUT_DPI
    painter.scale(scale, scale)
    small = QFont("Serif", 8)
    for number in range(count):
        if number:
            writer.newPage()
        view = QRectF(0, number * body.height(), body.width(), body.height())
        painter.save()
        painter.translate(0, -number * body.height())
        painter.setClipRect(view)
        context = QAbstractTextDocumentLayout.PaintContext()
        context.clip = view
        context.palette.setColor(QPalette.ColorRole.Text, Qt.GlobalColor.black)
        document.documentLayout().draw(painter, context)
        painter.restore()
        painter.setFont(small)
        painter.setPen(Qt.GlobalColor.darkGray)
        painter.drawText(QRectF(0, body.height(), body.width(), footer),
                         int(Qt.AlignmentFlag.AlignBottom | Qt.AlignmentFlag.AlignHCenter),
                         f"{title} · page {number + 1} of {count}")
    painter.end()
    return count
