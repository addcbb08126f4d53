"""The valley's pages: the Outposts built, the Valley Map (the journal's hex grid of tile
IDs) and the Behemoths met, with their lairs, habits and secrets learned."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QLabel,
    QTableWidget,
    QTableWidgetItem,
    QTreeWidgetItem,
)

from companion.ui.journal_book.page import Page, TablePage, item

if TYPE_CHECKING:
    from companion.operations import Campaign


class OutpostsPage(TablePage):
    """Outposts: name, category, status, epoch built, overlay, structures."""

    title = "Outposts"
    headers = ("Outpost", "Category", "Status", "Epoch built", "Overlay", "Hex", "Structures")
    empty = "No outposts yet."

    def rows(self, campaign: Campaign) -> Iterator[QTreeWidgetItem]:
        from companion.operations import journal as j

        for p in j.outposts(campaign):
            yield item((p.name, p.category, p.status, p.epoch_built, p.overlay_id or "—",
                        p.hex_id or "—", ", ".join(p.structures) or "—"), p.id)


class ValleyMapPage(Page):
    """Valley Map: the journal's hex grid of tile IDs (odd columns half a hex lower)."""

    title = "Valley Map"

    def __init__(self, window: Any) -> None:
        super().__init__(window)
        self.grid = QTableWidget()
        self.grid.setAccessibleName("Valley Map hex grid")
        self.grid.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.grid.horizontalHeader().hide()
        self.grid.verticalHeader().hide()
        self.note = QLabel("The hex grid at the start of the journal: the ID of each hex "
                           "tile explored, where it lies. Odd columns sit half a hex lower.")
        self.note.setWordWrap(True)
        self.layout_.addWidget(self.note)
        self.layout_.addWidget(self.grid, 1)

    def refresh(self, campaign: Campaign | None) -> None:
        from companion.operations import journal as j

        rows = j.valley_map(campaign) if campaign else []
        columns = len(rows[0]) if rows else 0
        # Two table rows per hex row: odd columns start one half-row lower.
        self.grid.clear()
        self.grid.setRowCount(len(rows) * 2 + 1)
        self.grid.setColumnCount(columns)
        for r, row in enumerate(rows):
            for c, tile in enumerate(row):
                if tile is None:
                    continue
                top = r * 2 + (c % 2)
                item = QTableWidgetItem(tile)
                item.setTextAlignment(Qt.AlignmentFlag.AlignCenter)
                self.grid.setItem(top, c, item)
                self.grid.setSpan(top, c, 2, 1)
        height = self.fontMetrics().height()
        for r in range(self.grid.rowCount()):
            self.grid.setRowHeight(r, height + 6)
        for c in range(columns):
            self.grid.setColumnWidth(c, self.fontMetrics().horizontalAdvance("MMMMM") + 12)


class BehemothsPage(TablePage):
    """Behemoths: where each is, its lair, habits and secret learned."""

    title = "Behemoths"
    headers = ("Behemoth", "Hex", "Lair", "Demeanor", "Habits learned", "Secrets", "Notes")
    empty = "No behemoth met yet."

    def rows(self, campaign: Campaign) -> Iterator[QTreeWidgetItem]:
        from companion.operations import journal as j

        for b in j.behemoths(campaign):
            yield item((
                b.name, b.hex_id or "—", b.lair_shown,
                b.demeanor_shown, ", ".join(b.habits_learned) or "—",
                "; ".join(b.secrets) or ("learned" if b.secret_learned else "—"), b.note),
                b.id)
