"""The Primal Cave Wall page: illustrations with their marks, drawn in a sketch pad or
imported from an image file, found again by mark.

Contract: every change goes through ``window.run_operation`` with an operation of
``companion.operations.journal``; images travel as PNG bytes.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QPoint, QSize, Qt
from PySide6.QtGui import QColor, QIcon, QImage, QMouseEvent, QPainter, QPaintEvent, QPen, QPixmap
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListView,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

if TYPE_CHECKING:
    from companion.operations import Campaign

WALL = QColor("#d8c7a6")
#: The web journal's pencils (its ``c`` index): black, blue, red, dark green, orange,
#: silver.
PENCILS = ("#2c1d1c", "#4a90c4", "#c04a4a", "#3d6b47", "#c47a3a", "#9a9ea6")
STROKE_SPACE = 1000
"""The web journal draws in a 1000 x 1000 space."""


def draw_strokes(pixmap: QPixmap, strokes: list[dict[str, Any]]) -> None:
    """Draw a web journal drawing's pen strokes onto ``pixmap``, centred and scaled."""
    if not strokes:
        return
    side = min(pixmap.width(), pixmap.height())
    scale = side / STROKE_SPACE
    left, top = (pixmap.width() - side) / 2, (pixmap.height() - side) / 2
    painter = QPainter(pixmap)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    for stroke in strokes:
        points = [float(p) for p in stroke.get("pts") or []]
        colour = stroke.get("c")
        pen = QPen(QColor(PENCILS[colour] if isinstance(colour, int)
                          and 0 <= colour < len(PENCILS) else PENCILS[0]))
        pen.setWidthF(max(1.0, float(stroke.get("w") or 6) * scale))
        pen.setCapStyle(Qt.PenCapStyle.RoundCap)
        pen.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
        painter.setPen(pen)
        xy = [QPoint(round(left + points[i] * scale), round(top + points[i + 1] * scale))
              for i in range(0, len(points) - 1, 2)]
        if len(xy) == 1:
            painter.drawPoint(xy[0])
        for start, end in zip(xy, xy[1:], strict=False):
            painter.drawLine(start, end)
    painter.end()
"""The rock's colour: the sketch pad's background."""
OCHRE = QColor("#7a2e12")
"""The pigment the sketch pad draws with."""


def image_png(image: QImage) -> bytes:
    """A QImage as PNG bytes."""
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    image.save(buffer, "PNG")  # type: ignore[call-overload]
    buffer.close()
    return bytes(data.data())


class SketchPad(QWidget):
    """A small drawing surface: press and drag to draw in ochre on the rock."""

    def __init__(self, size: QSize | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        size = size or QSize(480, 320)
        self.image = QImage(size, QImage.Format.Format_RGB32)
        self.image.fill(WALL)
        self.setFixedSize(size)
        self.setAccessibleName("Sketch pad")
        self.setCursor(Qt.CursorShape.CrossCursor)
        self._last: QPoint | None = None
        self.strokes = 0

    def clear(self) -> None:
        self.image.fill(WALL)
        self.strokes = 0
        self.update()

    def draw_line(self, start: QPoint, end: QPoint) -> None:
        """Draw one stroke segment (what dragging the mouse does)."""
        painter = QPainter(self.image)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(QPen(OCHRE, 5, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap,
                            Qt.PenJoinStyle.RoundJoin))
        painter.drawLine(start, end)
        painter.end()
        self.strokes += 1
        self.update()

    def mousePressEvent(self, event: QMouseEvent) -> None:  # noqa: N802 (Qt's name)
        self._last = event.position().toPoint()
        self.draw_line(self._last, self._last)

    def mouseMoveEvent(self, event: QMouseEvent) -> None:  # noqa: N802
        if self._last is not None:
            point = event.position().toPoint()
            self.draw_line(self._last, point)
            self._last = point

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:  # noqa: N802
        self._last = None

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802
        painter = QPainter(self)
        painter.drawImage(0, 0, self.image)
        painter.end()

    def png(self) -> bytes:
        return image_png(self.image)


class IllustrationDialog(QDialog):
    """Title, marks and note of an illustration; with a sketch pad when drawing one."""

    def __init__(self, parent: QWidget | None, *, drawing: bool, title: str = "",
                 marks: str = "", note: str = "") -> None:
        super().__init__(parent)
        self.setWindowTitle("Draw on the cave wall" if drawing else "Cave-wall illustration")
        self.title = QLineEdit(title)
        self.title.setPlaceholderText("What it shows: The great hunt")
        self.marks = QLineEdit(marks)
        self.marks.setPlaceholderText("Marks, separated by commas: spiral, hand")
        self.note = QLineEdit(note)
        form = QFormLayout()
        form.addRow("&Title:", self.title)
        form.addRow("&Marks:", self.marks)
        form.addRow("&Note:", self.note)
        layout = QVBoxLayout(self)
        self.pad: SketchPad | None = None
        if drawing:
            self.pad = SketchPad()
            clear = QPushButton("C&lear")
            clear.clicked.connect(self.pad.clear)
            row = QHBoxLayout()
            row.addWidget(self.pad)
            row.addWidget(clear, 0, Qt.AlignmentFlag.AlignTop)
            layout.addLayout(row)
        layout.addLayout(form)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                   | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)

    def mark_list(self) -> list[str]:
        return [m.strip() for m in self.marks.text().split(",") if m.strip()]


class CaveWallPage(QWidget):
    """Journal > Primal Cave Wall."""

    THUMB = 160

    def __init__(self, window: Any) -> None:
        super().__init__()
        self.window_ = window
        self.filter = QLineEdit()
        self.filter.setPlaceholderText("Find by mark…")
        self.filter.setAccessibleName("Find illustrations by mark")
        self.filter.setClearButtonEnabled(True)
        self.filter.textChanged.connect(lambda _text: self.refresh(self.window_.campaign))
        self.list = QListWidget()
        self.list.setAccessibleName("Cave-wall illustrations")
        self.list.setViewMode(QListView.ViewMode.IconMode)
        self.list.setIconSize(QSize(self.THUMB, self.THUMB * 2 // 3))
        self.list.setResizeMode(QListView.ResizeMode.Adjust)
        self.list.setMovement(QListView.Movement.Static)
        self.list.setSpacing(8)
        self.list.setWordWrap(True)
        self.list.itemDoubleClicked.connect(lambda _item: self.edit_selected())
        self.draw_button = QPushButton("&Draw…")
        self.draw_button.clicked.connect(self.draw)
        self.import_button = QPushButton("&Import Image…")
        self.import_button.clicked.connect(lambda: self.import_image())
        self.edit_button = QPushButton("&Edit…")
        self.edit_button.clicked.connect(self.edit_selected)
        self.remove_button = QPushButton("&Wipe")
        self.remove_button.setToolTip("Remove the selected illustration (Undo brings it back)")
        self.remove_button.clicked.connect(self.remove_selected)
        top = QHBoxLayout()
        top.addWidget(QLabel("Marks:"))
        top.addWidget(self.filter, 1)
        for button in (self.draw_button, self.import_button, self.edit_button,
                       self.remove_button):
            top.addWidget(button)
        self.empty = QLabel("Nothing is drawn on the cave wall yet. When a card tells you to "
                            "illustrate an event, draw it here or import a photo of your "
                            "drawing, with its marks.")
        self.empty.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(self.empty)
        layout.addWidget(self.list, 1)

    def refresh(self, campaign: Campaign | None) -> None:
        from companion.operations import journal as j

        self.list.clear()
        lines = j.cave_wall(campaign, mark=self.filter.text().strip() or None) \
            if campaign else []
        for line in lines:
            item = QListWidgetItem(f"{line.title}\n{', '.join(line.marks)}")
            item.setData(Qt.ItemDataRole.UserRole, line.id)
            item.setToolTip(f"{line.title} — marks: {', '.join(line.marks)} — epoch "
                            f"{line.epoch}" + (f"\n{line.note}" if line.note else ""))
            image = j.cave_wall_image(campaign, line.id) if line.has_image and campaign \
                else None
            pixmap = QPixmap()
            if image is None or not pixmap.loadFromData(image):
                pixmap = QPixmap(self.THUMB, self.THUMB * 2 // 3)
                pixmap.fill(WALL)
                if campaign is not None:  # a drawing from the web journal: its strokes
                    draw_strokes(pixmap, j.cave_wall_strokes(campaign, line.id))
            item.setIcon(QIcon(pixmap))
            self.list.addItem(item)
        filtered = bool(self.filter.text().strip())
        self.empty.setVisible(not lines)
        if filtered and not lines:
            self.empty.setText(f"No illustration carries the mark '{self.filter.text()}'.")

    def selected_id(self) -> int | None:
        item = self.list.currentItem()
        return int(item.data(Qt.ItemDataRole.UserRole)) if item is not None else None

    def draw(self) -> None:
        dialog = IllustrationDialog(self, drawing=True)
        if dialog.exec() == QDialog.DialogCode.Accepted and dialog.pad is not None:
            self._add(dialog, dialog.pad.png())

    def import_image(self, path: str | None = None, *, title: str = "",
                     marks: str = "") -> bool:
        """Import an image file (asks for one when ``path`` is None) with its marks."""
        if path is None:
            path, _ = QFileDialog.getOpenFileName(
                self, "Import a cave-wall illustration", "",
                "Images (*.png *.jpg *.jpeg *.gif *.bmp *.webp);;All files (*)")
            if not path:
                return False
        try:
            data = Path(path).read_bytes()
        except OSError as exc:
            from PySide6.QtWidgets import QMessageBox

            QMessageBox.warning(self, "Not allowed", f"Cannot read {path}: {exc}")
            return False
        if title and marks:
            return self._run_add(title, [m.strip() for m in marks.split(",")], data, "")
        dialog = IllustrationDialog(self, drawing=False, title=title or Path(path).stem,
                                    marks=marks)
        if dialog.exec() != QDialog.DialogCode.Accepted:
            return False
        return self._add(dialog, data)

    def _add(self, dialog: IllustrationDialog, image: bytes) -> bool:
        return self._run_add(dialog.title.text(), dialog.mark_list(), image,
                             dialog.note.text())

    def _run_add(self, title: str, marks: list[str], image: bytes, note: str) -> bool:
        from companion.operations import journal as j

        return bool(self.window_.run_operation(j.add_cave_wall_illustration, title=title,
                                               marks=marks, image=image, note=note))

    def edit_selected(self) -> None:
        from companion.operations import journal as j

        chosen = self.selected_id()
        campaign = self.window_.campaign
        if chosen is None or campaign is None:
            return
        line = next((x for x in j.cave_wall(campaign) if x.id == chosen), None)
        if line is None:
            return
        dialog = IllustrationDialog(self, drawing=False, title=line.title,
                                    marks=", ".join(line.marks), note=line.note)
        if dialog.exec() == QDialog.DialogCode.Accepted:
            self.window_.run_operation(j.edit_cave_wall_illustration, illustration_id=chosen,
                                       title=dialog.title.text(), marks=dialog.mark_list(),
                                       note=dialog.note.text())

    def remove_selected(self) -> None:
        from companion.operations import journal as j

        chosen = self.selected_id()
        if chosen is not None:
            self.window_.run_operation(j.remove_cave_wall_illustration,
                                       illustration_id=chosen)
