"""What the layout tests check on any window (issue 20): it fits a 1366×768 laptop, no
two visible widgets a layout placed side by side overlap, no label or table header is
cut short, no developer words are shown, and no two actions share a shortcut."""

from __future__ import annotations

import re
from collections.abc import Iterator

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QAbstractScrollArea,
    QApplication,
    QComboBox,
    QGroupBox,
    QHeaderView,
    QLabel,
    QLayout,
    QPlainTextEdit,
    QTabBar,
    QTableView,
    QTextEdit,
    QWidget,
)

from companion.ui.fit import LAPTOP_WINDOW


def fits_a_laptop(window: QWidget) -> list[str]:
    """Problems with the window's size on a 1366×768 laptop (its frame included)."""
    QApplication.processEvents()
    problems = []
    name = window.windowTitle() or type(window).__name__
    for what, size in (("opens at", window.size()),
                       ("needs at least", window.minimumSizeHint())):
        if size.width() > LAPTOP_WINDOW.width() or size.height() > LAPTOP_WINDOW.height():
            problems.append(f"{name} {what} {size.width()}x{size.height()}, more than "
                            f"{LAPTOP_WINDOW.width()}x{LAPTOP_WINDOW.height()}")
    if window.width() < window.minimumSizeHint().width() or \
            window.height() < window.minimumSizeHint().height():
        problems.append(f"{name} opens smaller than it needs")
    return problems


def _layout_widgets(layout: QLayout) -> Iterator[QWidget]:
    """The widgets ``layout`` places, its nested layouts' too.

    Asked of each layout by ``indexOf``, never through ``itemAt``: a stretch's
    QSpacerItem wrapped by ``itemAt`` outlives its C++ item (Qt deletes it with the
    layout, and a spacer is no QObject to tell PySide), so a later object at that address
    came back as the stale QSpacerItem ("'QSpacerItem' object has no attribute
    'addPermanentWidget'" from a new window's status bar, in a full run on PySide 6.11)."""
    owner = layout.parentWidget()
    if owner is None:
        return
    layouts = [layout, *layout.findChildren(QLayout)]
    for widget in owner.findChildren(QWidget):
        if any(each.indexOf(widget) >= 0 for each in layouts):
            yield widget


def overlaps(window: QWidget) -> list[str]:
    """Visible widgets one layout placed that cover each other (squeezed too small)."""
    QApplication.processEvents()
    problems = []
    for parent in [window, *window.findChildren(QWidget)]:
        layout = parent.layout()
        if layout is None or not parent.isVisible():
            continue
        shown = [w for w in _layout_widgets(layout) if w.isVisible() and not w.isWindow()]
        for i, first in enumerate(shown):
            for second in shown[i + 1:]:
                common = first.geometry().intersected(second.geometry())
                if common.width() > 1 and common.height() > 1:
                    problems.append(f"{_name(first)} overlaps {_name(second)} "
                                    f"in {_name(parent)}")
    return problems


def cut_short(window: QWidget) -> list[str]:
    """Labels on one line narrower than their text, and table headers narrower than
    their words, where nothing scrolls to show the rest."""
    QApplication.processEvents()
    problems = []
    for label in window.findChildren(QLabel):
        if not label.isVisible() or label.wordWrap() or not label.text() or \
                _in_scroll_area(label) or label.textFormat() == 1:  # rich text wraps
            continue
        needed = label.fontMetrics().horizontalAdvance(label.text().replace("&", ""))
        if needed > label.contentsRect().width() + 2 and "\n" not in label.text():
            problems.append(f"label {label.text()!r} is cut short "
                            f"({label.width()} < {needed})")
    for table in window.findChildren(QTableView):
        if not table.isVisible():
            continue
        header: QHeaderView = table.horizontalHeader()
        if not header.isVisible() or \
                table.horizontalScrollBarPolicy().name != "ScrollBarAlwaysOff":
            continue
        model = table.model()
        for column in range(header.count()):
            if header.isSectionHidden(column):
                continue
            text = str(model.headerData(column, header.orientation()) or "")
            needed = header.fontMetrics().horizontalAdvance(text)
            if needed > header.sectionSize(column):
                problems.append(f"header {text!r} is cut short "
                                f"({header.sectionSize(column)} < {needed})")
    return problems


def _in_scroll_area(widget: QWidget) -> bool:
    parent = widget.parentWidget()
    while parent is not None:
        if isinstance(parent, QAbstractScrollArea) and \
                not isinstance(parent, QTableView):
            return True
        parent = parent.parentWidget()
    return False


def shared_shortcuts(window: QWidget) -> list[str]:
    """Key sequences bound to more than one enabled action (neither would fire)."""
    seen: dict[str, str] = {}
    problems = []
    for action in window.findChildren(QAction):
        for key in action.shortcuts():
            text = key.toString(QKeySequence.SequenceFormat.PortableText)
            if not text:
                continue
            name = action.text().replace("&", "")
            if text in seen:
                problems.append(f"{text} is bound to {seen[text]!r} and {name!r}")
            seen[text] = name
    return problems


def _name(widget: QWidget) -> str:
    text = getattr(widget, "text", None)
    label = text() if callable(text) else ""
    return f"{type(widget).__name__}({widget.objectName() or label or ''!s:.30})"


DEVELOPER_WORDS = re.compile(
    r"\(reading D\d+\)|\(D\d+(-D?\d+)?\)|\bPosition \(|\(-?\d+, -?\d+\)"
    r"|\b(procedure|dice|behemoth|challenge|valley|society|character|codex|journal)"
    r"\.[a-z_]+\b")
"""Readings' numbers, grid coordinates and journal kinds: never on a player's screen."""


def shown_texts(window: QWidget) -> list[str]:
    """Every text ``window`` shows: labels, buttons, titles, lists, tables, tabs."""
    texts = [window.windowTitle()]
    for widget in [window, *window.findChildren(QWidget)]:
        if not widget.isVisible():
            continue
        if isinstance(widget, QLabel | QAbstractButton):
            texts.append(widget.text())
        elif isinstance(widget, QGroupBox):
            texts.append(widget.title())
        elif isinstance(widget, QComboBox):
            texts += [widget.itemText(i) for i in range(widget.count())]
        elif isinstance(widget, QTabBar):
            texts += [widget.tabText(i) for i in range(widget.count())]
        elif isinstance(widget, QPlainTextEdit | QTextEdit):
            texts.append(widget.toPlainText())
        elif isinstance(widget, QAbstractItemView) and widget.model() is not None:
            model, root = widget.model(), widget.rootIndex()
            try:
                columns = model.columnCount(root)
            except TypeError:  # a list model's column count is private in PySide
                columns = 1
            for row in range(min(model.rowCount(root), 100)):
                for column in range(columns):
                    texts.append(str(model.index(row, column, root).data() or ""))
            for column in range(columns):
                texts.append(str(model.headerData(column, Qt.Orientation.Horizontal) or ""))
    return texts


def developer_words(window: QWidget) -> list[str]:
    """Texts on screen with a developer's words in them."""
    return [f"developer words in {text[:80]!r}" for text in shown_texts(window)
            if DEVELOPER_WORDS.search(text)]


def problems(window: QWidget) -> list[str]:
    """Every layout problem of ``window`` as it is shown now."""
    return [*fits_a_laptop(window), *overlaps(window), *cut_short(window),
            *developer_words(window)]


def bounded(size: QSize) -> QSize:
    return size.boundedTo(LAPTOP_WINDOW)
