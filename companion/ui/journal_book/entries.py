"""The pages the players write: free-text Entries with their time and author, and the
Note pages (the web Campaign Journal's, and what an import kept with its original text).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QHBoxLayout,
    QListWidget,
    QPlainTextEdit,
    QTreeWidgetItem,
)

from companion.ui.journal_book.page import Page, TablePage, item
from companion.ui.widgets import button, line_edit, row_of

if TYPE_CHECKING:
    from companion.operations import Campaign


class EntriesPage(TablePage):
    """Free-text entries with their time and author."""

    title = "Entries"
    headers = ("When", "Author", "Entry")
    table_name = "Journal entries"

    def build(self) -> None:
        self.text = line_edit("Entry text", "Write an entry…")
        self.author = line_edit("Entry author", "Author")
        self.author.setMaximumWidth(160)
        self.add_button = button("&Write", self.add)
        self.text.returnPressed.connect(self.add)
        self.layout_.addLayout(row_of(self.text, self.author, self.add_button))

    def add(self) -> None:
        from companion.operations import journal as j

        if self.text.text().strip() and self.run(j.write_entry, text=self.text.text(),
                                                 author=self.author.text()):
            self.text.clear()

    def rows(self, campaign: Campaign) -> Iterator[QTreeWidgetItem]:
        from companion.operations import journal as j

        for entry in j.entries(campaign):
            row = item((entry.when, entry.author or "—", entry.text), entry.id)
            if entry.undone:
                font = QFont()
                font.setStrikeOut(True)
                for column in range(3):
                    row.setFont(column, font)
            yield row


class NotesPage(Page):
    """Note pages: free pages of notes (the web Campaign Journal's, and what an import
    kept with its original text)."""

    title = "Note pages"

    def __init__(self, window: Any) -> None:
        super().__init__(window)
        self.list = QListWidget()
        self.list.setAccessibleName("Note pages")
        self.text = QPlainTextEdit()
        self.text.setReadOnly(True)
        self.text.setAccessibleName("Note page text")
        self.list.currentRowChanged.connect(self.show_note)
        row = QHBoxLayout()
        row.addWidget(self.list, 1)
        row.addWidget(self.text, 2)
        self.layout_.addLayout(row, 1)
        self.notes: list[Any] = []

    def refresh(self, campaign: Campaign | None) -> None:
        from companion.operations import journal as j

        self.notes = j.note_pages(campaign) if campaign else []
        self.list.clear()
        for note in self.notes:
            self.list.addItem(note.title or "Note page")
        if self.notes:
            self.list.setCurrentRow(0)
        else:
            self.text.setPlainText("No note pages. Pages imported from the web Campaign "
                                   "Journal appear here.")

    def show_note(self, index: int) -> None:
        if 0 <= index < len(self.notes):
            self.text.setPlainText(self.notes[index].text)
