"""The Culture page: the society's lore, its culture abilities and mantle powers, and the
journal's free lists (taboos, pigments, knowledge cards)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QInputDialog,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QVBoxLayout,
)

from companion.ui.journal_book.page import ROW_ID, Page
from companion.ui.widgets import button, line_edit, row_of

if TYPE_CHECKING:
    from companion.operations import Campaign


class CultureListBox(QGroupBox):
    """One free list of the Culture page (taboos, pigments, knowledge cards)."""

    def __init__(self, page: Page, key: str, title: str) -> None:
        super().__init__(title)
        self.page, self.key = page, key
        self.list = QListWidget()
        self.list.setAccessibleName(title)
        self.list.itemDoubleClicked.connect(lambda _item: self.edit())
        self.entry = line_edit(f"New entry in {title}", f"Add to {title.lower()}…")
        self.entry.returnPressed.connect(self.add)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(button("Edit…", self.edit))
        buttons.addWidget(button("Remove", self.remove))
        layout = QVBoxLayout(self)
        layout.addWidget(self.list)
        layout.addLayout(row_of(self.entry, button("Add", self.add)))
        layout.addLayout(buttons)

    def fill(self, entries: Sequence[Any]) -> None:
        self.list.clear()
        for entry in entries:
            item = QListWidgetItem(entry.text)
            item.setData(ROW_ID, entry.id)
            self.list.addItem(item)

    def add(self) -> None:
        from companion.operations import journal as j

        if self.entry.text().strip() and self.page.run(j.add_culture_entry, category=self.key,
                                                       text=self.entry.text()):
            self.entry.clear()

    def edit(self) -> None:
        from companion.operations import journal as j

        item = self.list.currentItem()
        if item is None:
            return
        text, ok = QInputDialog.getText(self, self.title(), "Entry:", text=item.text())
        if ok:
            self.page.run(j.edit_culture_entry, entry_id=int(item.data(ROW_ID)), text=text)

    def remove(self) -> None:
        from companion.operations import journal as j

        item = self.list.currentItem()
        if item is not None:
            self.page.run(j.remove_culture_entry, entry_id=int(item.data(ROW_ID)))


class CulturePage(Page):
    """Culture: lore, culture abilities, mantle powers, and the free lists."""

    title = "Culture"
    PER_ROW = 4

    def __init__(self, window: Any) -> None:
        from companion.operations.journal import CULTURE_LISTS

        super().__init__(window)
        self.lore = QLabel()
        self.lore.setAccessibleName("Lore")
        self.lore.setAlignment(Qt.AlignmentFlag.AlignCenter)
        font = self.lore.font()
        font.setPointSizeF(font.pointSizeF() * 2)
        font.setBold(True)
        self.lore.setFont(font)
        self.abilities = QListWidget()
        self.abilities.setAccessibleName("Culture abilities")
        self.powers = QListWidget()
        self.powers.setAccessibleName("Mantle powers")
        for words in (self.abilities, self.powers):  # the group's words run long
            words.setWordWrap(True)
        # Rulebook: Using the Journal > Culture: "Culture abilities added by game events".
        self.ability_entry = line_edit("New culture ability", "Add an ability…")
        self.ability_entry.returnPressed.connect(self.add_ability)
        self.add_ability_button = button("Add", self.add_ability)
        grid = QGridLayout()
        lore_box = QGroupBox("Lore")
        lore_layout = QVBoxLayout(lore_box)
        lore_layout.addWidget(self.lore, 1)
        hint = QLabel("Lore is gained and spent on the Society tab; culture abilities come "
                      "from game events (a card or the Codex names them), mantle powers "
                      "from unlocking them.")
        hint.setWordWrap(True)
        lore_layout.addWidget(hint)
        boxes: list[QGroupBox] = []
        for title, widget in (("Culture abilities", self.abilities),
                              ("Mantle powers", self.powers)):
            group = QGroupBox(title)
            inside = QVBoxLayout(group)
            inside.addWidget(widget)
            if widget is self.abilities:
                inside.addLayout(row_of(self.ability_entry, self.add_ability_button))
            boxes.append(group)
        boxes.append(lore_box)
        self.lists = {key: CultureListBox(self, key, title)
                      for key, title in CULTURE_LISTS.items()}
        boxes += self.lists.values()
        # Four to a row, so the page fits a 1366x768 laptop however many lists there are
        # (a fifth list in one row pushed the page wider than the window).
        for index, cell in enumerate(boxes):
            grid.addWidget(cell, index // self.PER_ROW, index % self.PER_ROW)
        for column in range(self.PER_ROW):
            grid.setColumnStretch(column, 1)
        self.layout_.addLayout(grid, 1)

    def add_ability(self) -> None:
        """The society gains the culture ability typed (one undoable operation)."""
        from companion.operations import add_culture_ability

        name = self.ability_entry.text().strip()
        if name and self.run(add_culture_ability, name=name):
            self.ability_entry.clear()

    def refresh(self, campaign: Campaign | None) -> None:
        from companion.operations import journal as j

        if campaign is None:
            return
        page = j.culture(campaign)
        self.lore.setText(str(page.lore))
        for widget, entries in ((self.abilities, page.abilities),
                                (self.powers, page.mantle_powers)):
            widget.clear()
            widget.addItems([e.text for e in entries] or ["None yet."])
        for key, box in self.lists.items():
            box.fill(page.lists[key])
