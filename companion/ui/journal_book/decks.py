"""The Decks page: the lasting changes to the decks (cards added, removed ...), each with
its epoch and a note."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from PySide6.QtWidgets import QComboBox, QHBoxLayout, QTreeWidgetItem

from companion.ui.journal_book.page import ROW_ID, TablePage, item, selected_id
from companion.ui.widgets import button, line_edit

if TYPE_CHECKING:
    from companion.operations import Campaign


class DecksPage(TablePage):
    """Decks: persistent changes to the decks (cards added, removed ...)."""

    title = "Decks"
    headers = ("Deck", "Card", "Change", "Epoch", "Note")
    table_name = "Deck changes"

    def build(self) -> None:
        from companion.operations.journal import DECK_CHANGES

        self.tree.itemSelectionChanged.connect(self._load_selected)
        self.deck = QComboBox()
        self.deck.setEditable(True)
        self.deck.addItems(["Encounter", "Night", "Discovery", "Fishing", "Delving"])
        self.deck.setAccessibleName("Deck")
        self.card = line_edit("Card ID", "Card ID")
        self.change = QComboBox()
        self.change.addItems(list(DECK_CHANGES))
        self.change.setAccessibleName("Change")
        self.note = line_edit("Note", "Note")
        self.add_button = button("&Add", self.add)
        self.save_button = button("&Save Changes", self.save)
        self.remove_button = button("&Remove", self.remove)
        form = QHBoxLayout()
        for widget in (self.deck, self.card, self.change):
            form.addWidget(widget)
        form.addWidget(self.note, 1)
        for push in (self.add_button, self.save_button, self.remove_button):
            form.addWidget(push)
        self.layout_.addLayout(form)

    def _fields(self) -> dict[str, str]:
        return {"deck": self.deck.currentText(), "card_id": self.card.text(),
                "change": self.change.currentText(), "note": self.note.text()}

    def _load_selected(self) -> None:
        row = self.tree.currentItem()
        if row is None or row.data(0, ROW_ID) is None:
            return
        self.deck.setCurrentText(row.text(0))
        self.card.setText(row.text(1))
        self.change.setCurrentText(row.text(2))
        self.note.setText(row.text(4))

    def add(self) -> None:
        from companion.operations import journal as j

        if self.run(j.add_deck_change, **self._fields()):
            self.card.clear()
            self.note.clear()

    def save(self) -> None:
        from companion.operations import journal as j

        chosen = selected_id(self.tree)
        if chosen is not None:
            self.run(j.edit_deck_change, change_id=chosen, **self._fields())

    def remove(self) -> None:
        from companion.operations import journal as j

        chosen = selected_id(self.tree)
        if chosen is not None:
            self.run(j.remove_deck_change, change_id=chosen)

    def rows(self, campaign: Campaign) -> Iterator[QTreeWidgetItem]:
        from companion.operations import journal as j

        for d in j.deck_changes(campaign):
            yield item((d.deck, d.card_id, d.change, d.epoch, d.note), d.id)
