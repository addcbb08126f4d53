"""The Journal as a book: one page per section of the game's journal (Rulebook: Using the
Journal), a contents list to turn to any of them, and one search over everything.

Contracts:
- ``JournalBook(window, history)`` takes the main window (``campaign``,
  ``run_operation``, ``campaign_changed``) and the History page (the event list and the
  entry box of ``views/journal.py``), which it shows first;
- every write goes through ``window.run_operation`` with an operation of
  ``companion.operations.journal`` (one transaction each, undoable);
- pages refresh lazily: a change marks them stale, the page on show reloads.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QFileDialog,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QInputDialog,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QPushButton,
    QSpinBox,
    QSplitter,
    QStackedWidget,
    QTableWidget,
    QTableWidgetItem,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from companion.ui.journal_cave_wall import CaveWallPage

if TYPE_CHECKING:
    from companion.operations import Campaign

ROW_ID = Qt.ItemDataRole.UserRole


def _heading(text: str) -> QLabel:
    label = QLabel(text)
    font = label.font()
    font.setBold(True)
    font.setPointSizeF(font.pointSizeF() * 1.25)
    label.setFont(font)
    return label


def _tree(name: str, headers: Sequence[str]) -> QTreeWidget:
    tree = QTreeWidget()
    tree.setAccessibleName(name)
    tree.setHeaderLabels(list(headers))
    tree.setRootIsDecorated(False)
    tree.setAlternatingRowColors(True)
    tree.setUniformRowHeights(True)
    tree.setWordWrap(True)
    header = tree.header()
    header.setStretchLastSection(True)
    for column in range(len(headers) - 1):
        header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
    return tree


def _item(values: Sequence[object], row_id: int | None = None) -> QTreeWidgetItem:
    item = QTreeWidgetItem([str(v) for v in values])
    if row_id is not None:
        item.setData(0, ROW_ID, row_id)
    for column, value in enumerate(values):
        item.setToolTip(column, str(value))
    return item


def _selected_id(tree: QTreeWidget) -> int | None:
    item = tree.currentItem()
    value = item.data(0, ROW_ID) if item is not None else None
    return int(value) if value is not None else None


class Page(QWidget):
    """A section of the book: ``refresh(campaign)`` reloads it from the file."""

    title = ""

    def __init__(self, window: Any) -> None:
        super().__init__()
        self.window_ = window
        self.layout_ = QVBoxLayout(self)
        self.layout_.addWidget(_heading(self.title))

    def refresh(self, campaign: Campaign | None) -> None:
        """Reload the section from ``campaign``; every section overrides this (a Page
        is never shown itself), so reaching here is a programming error."""
        raise TypeError(f"{type(self).__name__} must reload itself in refresh()")

    def run(self, operation: Callable[..., Any], **kwargs: Any) -> bool:
        return bool(self.window_.run_operation(operation, **kwargs))


# --- the sections ------------------------------------------------------------------------


class EntriesPage(Page):
    """Free-text entries with their time and author."""

    title = "Entries"

    def __init__(self, window: Any) -> None:
        super().__init__(window)
        self.text = QLineEdit()
        self.text.setPlaceholderText("Write an entry…")
        self.text.setAccessibleName("Entry text")
        self.author = QLineEdit()
        self.author.setPlaceholderText("Author")
        self.author.setAccessibleName("Entry author")
        self.author.setMaximumWidth(160)
        self.add_button = QPushButton("&Write")
        self.add_button.clicked.connect(self.add)
        self.text.returnPressed.connect(self.add)
        row = QHBoxLayout()
        row.addWidget(self.text, 1)
        row.addWidget(self.author)
        row.addWidget(self.add_button)
        self.tree = _tree("Journal entries", ("When", "Author", "Entry"))
        self.layout_.addLayout(row)
        self.layout_.addWidget(self.tree, 1)

    def add(self) -> None:
        from companion.operations import journal as j

        if self.text.text().strip() and self.run(j.write_entry, text=self.text.text(),
                                                 author=self.author.text()):
            self.text.clear()

    def refresh(self, campaign: Campaign | None) -> None:
        from companion.operations import journal as j

        self.tree.clear()
        for entry in j.entries(campaign) if campaign else []:
            item = _item((entry.when, entry.author or "—", entry.text), entry.id)
            if entry.undone:
                font = QFont()
                font.setStrikeOut(True)
                for column in range(3):
                    item.setFont(column, font)
            self.tree.addTopLevelItem(item)


class ChallengeLogPage(Page):
    """Challenge Log: per epoch, each challenge, its characters and outcome entry."""

    title = "Challenge Log"

    def __init__(self, window: Any) -> None:
        super().__init__(window)
        self.tree = _tree("Challenge Log", ("Challenge", "Characters", "Outcome entry",
                                            "Notes"))
        self.tree.setRootIsDecorated(True)
        self.outcome_button = QPushButton("Record &Outcome…")
        self.outcome_button.clicked.connect(self.record_outcome)
        self.characters_button = QPushButton("C&haracters…")
        self.characters_button.clicked.connect(self.set_characters)
        row = QHBoxLayout()
        row.addWidget(QLabel("At the start of each game record the challenge and the "
                             "characters; at the end, the outcome entry read."), 1)
        row.addWidget(self.characters_button)
        row.addWidget(self.outcome_button)
        self.layout_.addLayout(row)
        self.layout_.addWidget(self.tree, 1)

    def refresh(self, campaign: Campaign | None) -> None:
        from companion.operations import journal as j

        self.tree.clear()
        lines = j.challenge_log(campaign) if campaign else []
        epochs: dict[int, QTreeWidgetItem] = {}
        for line in lines:
            parent = epochs.get(line.epoch)
            if parent is None:
                parent = epochs[line.epoch] = QTreeWidgetItem([f"Epoch {line.epoch}"])
                self.tree.addTopLevelItem(parent)
            parent.addChild(_item((f"{line.challenge_name} ({line.challenge_id})",
                                   ", ".join(line.characters) or "—",
                                   line.outcome_entry or "—", line.notes_shown), line.id))
        self.tree.expandAll()
        if not lines:
            self.tree.addTopLevelItem(QTreeWidgetItem(["No challenge played yet."]))

    def record_outcome(self) -> None:
        from companion.operations import journal as j

        chosen = _selected_id(self.tree)
        if chosen is None:
            return
        text, ok = QInputDialog.getText(self, "Outcome entry",
                                        "The Codex outcome entry the challenge ended with:")
        if ok:
            self.run(j.record_outcome, entry_id=chosen, outcome=text)

    def set_characters(self) -> None:
        from companion.operations import journal as j

        chosen = _selected_id(self.tree)
        if chosen is None:
            return
        text, ok = QInputDialog.getText(self, "Characters",
                                        "The characters used, separated by commas:")
        if ok:
            self.run(j.set_challenge_characters, entry_id=chosen,
                     characters=text.split(","))


class CultureListBox(QGroupBox):
    """One free list of the Culture page (taboos, pigments, knowledge cards)."""

    def __init__(self, page: Page, key: str, title: str) -> None:
        super().__init__(title)
        self.page, self.key = page, key
        self.list = QListWidget()
        self.list.setAccessibleName(title)
        self.list.itemDoubleClicked.connect(lambda _item: self.edit())
        self.entry = QLineEdit()
        self.entry.setPlaceholderText(f"Add to {title.lower()}…")
        self.entry.setAccessibleName(f"New entry in {title}")
        self.entry.returnPressed.connect(self.add)
        add = QPushButton("Add")
        add.clicked.connect(self.add)
        edit = QPushButton("Edit…")
        edit.clicked.connect(self.edit)
        remove = QPushButton("Remove")
        remove.clicked.connect(self.remove)
        row = QHBoxLayout()
        row.addWidget(self.entry, 1)
        row.addWidget(add)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(edit)
        buttons.addWidget(remove)
        layout = QVBoxLayout(self)
        layout.addWidget(self.list)
        layout.addLayout(row)
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
        grid = QGridLayout()
        lore_box = QGroupBox("Lore")
        lore_layout = QVBoxLayout(lore_box)
        lore_layout.addWidget(self.lore, 1)
        hint = QLabel("Lore is gained and spent on the Society tab; culture abilities come "
                      "from game events, mantle powers from unlocking them.")
        hint.setWordWrap(True)
        lore_layout.addWidget(hint)
        boxes: list[QWidget] = []
        for title, widget in (("Culture abilities", self.abilities),
                              ("Mantle powers", self.powers)):
            group = QGroupBox(title)
            QVBoxLayout(group).addWidget(widget)
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


class OutpostsPage(Page):
    """Outposts: name, category, status, epoch built, overlay, structures."""

    title = "Outposts"

    def __init__(self, window: Any) -> None:
        super().__init__(window)
        self.tree = _tree("Outposts", ("Outpost", "Category", "Status", "Epoch built",
                                       "Overlay", "Hex", "Structures"))
        self.layout_.addWidget(self.tree, 1)

    def refresh(self, campaign: Campaign | None) -> None:
        from companion.operations import journal as j

        self.tree.clear()
        for p in j.outposts(campaign) if campaign else []:
            self.tree.addTopLevelItem(_item((p.name, p.category, p.status, p.epoch_built,
                                             p.overlay_id or "—", p.hex_id or "—",
                                             ", ".join(p.structures) or "—"), p.id))
        if self.tree.topLevelItemCount() == 0:
            self.tree.addTopLevelItem(QTreeWidgetItem(["No outposts yet."]))


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


class BehemothsPage(Page):
    """Behemoths: where each is, its lair, habits and secret learned."""

    title = "Behemoths"

    def __init__(self, window: Any) -> None:
        super().__init__(window)
        self.tree = _tree("Behemoths", ("Behemoth", "Hex", "Lair", "Demeanor",
                                        "Habits learned", "Secrets", "Notes"))
        self.layout_.addWidget(self.tree, 1)

    def refresh(self, campaign: Campaign | None) -> None:
        from companion.operations import journal as j

        self.tree.clear()
        for b in j.behemoths(campaign) if campaign else []:
            self.tree.addTopLevelItem(_item((
                b.name, b.hex_id or "—", b.lair_shown,
                b.demeanor_shown, ", ".join(b.habits_learned) or "—",
                "; ".join(b.secrets) or ("learned" if b.secret_learned else "—"), b.note),
                b.id))
        if self.tree.topLevelItemCount() == 0:
            self.tree.addTopLevelItem(QTreeWidgetItem(["No behemoth met yet."]))


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
        self.list.currentRowChanged.connect(self._show)
        row = QHBoxLayout()
        row.addWidget(self.list, 1)
        row.addWidget(self.text, 2)
        self.layout_.addLayout(row, 1)
        self._notes: list[Any] = []

    def refresh(self, campaign: Campaign | None) -> None:
        from companion.operations import journal as j

        self._notes = j.note_pages(campaign) if campaign else []
        self.list.clear()
        for note in self._notes:
            self.list.addItem(note.title or "Note page")
        if self._notes:
            self.list.setCurrentRow(0)
        else:
            self.text.setPlainText("No note pages. Pages imported from the web Campaign "
                                   "Journal appear here.")

    def _show(self, index: int) -> None:
        if 0 <= index < len(self._notes):
            self.text.setPlainText(self._notes[index].text)


class DecksPage(Page):
    """Decks: persistent changes to the decks (cards added, removed ...)."""

    title = "Decks"

    def __init__(self, window: Any) -> None:
        from companion.operations.journal import DECK_CHANGES

        super().__init__(window)
        self.tree = _tree("Deck changes", ("Deck", "Card", "Change", "Epoch", "Note"))
        self.tree.itemSelectionChanged.connect(self._load_selected)
        self.deck = QComboBox()
        self.deck.setEditable(True)
        self.deck.addItems(["Encounter", "Night", "Discovery", "Fishing", "Delving"])
        self.deck.setAccessibleName("Deck")
        self.card = QLineEdit()
        self.card.setPlaceholderText("Card ID")
        self.card.setAccessibleName("Card ID")
        self.change = QComboBox()
        self.change.addItems(list(DECK_CHANGES))
        self.change.setAccessibleName("Change")
        self.note = QLineEdit()
        self.note.setPlaceholderText("Note")
        self.note.setAccessibleName("Note")
        self.add_button = QPushButton("&Add")
        self.add_button.clicked.connect(self.add)
        self.save_button = QPushButton("&Save Changes")
        self.save_button.clicked.connect(self.save)
        self.remove_button = QPushButton("&Remove")
        self.remove_button.clicked.connect(self.remove)
        form = QHBoxLayout()
        for widget in (self.deck, self.card, self.change):
            form.addWidget(widget)
        form.addWidget(self.note, 1)
        for button in (self.add_button, self.save_button, self.remove_button):
            form.addWidget(button)
        self.layout_.addLayout(form)
        self.layout_.addWidget(self.tree, 1)

    def _fields(self) -> dict[str, str]:
        return {"deck": self.deck.currentText(), "card_id": self.card.text(),
                "change": self.change.currentText(), "note": self.note.text()}

    def _load_selected(self) -> None:
        item = self.tree.currentItem()
        if item is None or item.data(0, ROW_ID) is None:
            return
        self.deck.setCurrentText(item.text(0))
        self.card.setText(item.text(1))
        self.change.setCurrentText(item.text(2))
        self.note.setText(item.text(4))

    def add(self) -> None:
        from companion.operations import journal as j

        if self.run(j.add_deck_change, **self._fields()):
            self.card.clear()
            self.note.clear()

    def save(self) -> None:
        from companion.operations import journal as j

        chosen = _selected_id(self.tree)
        if chosen is not None:
            self.run(j.edit_deck_change, change_id=chosen, **self._fields())

    def remove(self) -> None:
        from companion.operations import journal as j

        chosen = _selected_id(self.tree)
        if chosen is not None:
            self.run(j.remove_deck_change, change_id=chosen)

    def refresh(self, campaign: Campaign | None) -> None:
        from companion.operations import journal as j

        self.tree.clear()
        for d in j.deck_changes(campaign) if campaign else []:
            self.tree.addTopLevelItem(_item((d.deck, d.card_id, d.change, d.epoch, d.note),
                                            d.id))


class LegendsPage(Page):
    """Legends: each lineage across generations, and every legend's card."""

    title = "Legends"

    def __init__(self, window: Any) -> None:
        super().__init__(window)
        self.lineage = QTreeWidget()
        self.lineage.setAccessibleName("Lineages")
        self.lineage.setHeaderLabels(["Lineage (who succeeded whom)"])
        self.tree = _tree("Legends", ("Legend", "Epoch", "Succeeded by", "Assigned to",
                                      "Marks", "Traits"))
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(self.lineage)
        split.addWidget(self.tree)
        self.layout_.addWidget(split, 1)

    def refresh(self, campaign: Campaign | None) -> None:
        from companion.operations import journal as j

        self.lineage.clear()
        self.tree.clear()
        lines = j.legends(campaign) if campaign else []
        for chain in j.lineages(lines):
            top = QTreeWidgetItem([chain[0]])
            self.lineage.addTopLevelItem(top)
            parent = top
            for name in chain[1:]:
                child = QTreeWidgetItem([f"↳ {name}"])
                parent.addChild(child)
                parent = child
        self.lineage.expandAll()
        for x in lines:
            self.tree.addTopLevelItem(_item((x.name, x.epoch, x.succeeded_by or "—",
                                             x.assigned_to or "—", ", ".join(x.marks) or "—",
                                             ", ".join(x.traits) or "—"), x.id))
        if not lines:
            self.lineage.addTopLevelItem(QTreeWidgetItem(["No legends yet."]))


class CodexPage(Page):
    """Omens investigated and crafting codes found, and the way into the Codex."""

    title = "Omens & Codes"

    def __init__(self, window: Any) -> None:
        super().__init__(window)
        self.codex_button = QPushButton("Open the &Codex…")
        self.codex_button.setToolTip("Read one entry: an outcome, an omen entry or a "
                                     "crafting code. Nothing else is shown.")
        self.codex_button.clicked.connect(self.open_codex)
        row = QHBoxLayout()
        row.addWidget(QLabel("Only entries the society has read are recorded here."), 1)
        row.addWidget(self.codex_button)
        self.omens = _tree("Omens investigated", ("Epoch", "Omen", "Component", "Note"))
        self.codes = _tree("Crafting codes found", ("Code", "Found", "Item"))
        self.codex = _tree("Codex entries read", ("Entry", "Title", "Source", "Notes"))
        self.layout_.addLayout(row)
        self.layout_.addWidget(QLabel("Omens investigated"))
        self.layout_.addWidget(self.omens, 1)
        self.layout_.addWidget(QLabel("Codex entries read (numbers and your notes only)"))
        self.layout_.addWidget(self.codex, 1)
        self.layout_.addWidget(QLabel("Crafting codes found"))
        self.layout_.addWidget(self.codes, 1)

    def open_codex(self) -> None:
        from companion.ui.codex_dialog import CodexDialog

        CodexDialog(self.window_, parent=self).exec()

    def refresh(self, campaign: Campaign | None) -> None:
        from companion.operations import journal as j

        self.omens.clear()
        self.codes.clear()
        self.codex.clear()
        if campaign is None:
            return
        for read in j.codex_entries_read(campaign):
            self.codex.addTopLevelItem(_item(read))
        for epoch, omen, component, note in j.omen_investigations(campaign):
            self.omens.addTopLevelItem(_item((epoch, omen.capitalize(), component, note)))
        for code, status, name in j.crafting_codes(campaign):
            self.codes.addTopLevelItem(_item((code, "dead end" if status == "null" else status,
                                              name)))


class SearchPage(Page):
    """What the search found, section by section; double-click turns to the section."""

    title = "Search results"

    def __init__(self, window: Any, turn_to: Callable[[str], None]) -> None:
        super().__init__(window)
        self.turn_to = turn_to
        self.summary = QLabel("Type in the search box above.")
        self.tree = _tree("Search results", ("Section", "Title", "Found", "When"))
        self.tree.itemDoubleClicked.connect(
            lambda item, _col: self.turn_to(str(item.data(1, ROW_ID))))
        self.layout_.addWidget(self.summary)
        self.layout_.addWidget(self.tree, 1)
        self.hits: list[Any] = []

    def show_hits(self, query: str, hits: Sequence[Any]) -> None:
        self.hits = list(hits)
        self.tree.clear()
        for hit in hits:
            item = _item((hit.section_title, hit.title, hit.text, hit.when or ""), hit.row_id)
            item.setData(1, ROW_ID, hit.section)
            self.tree.addTopLevelItem(item)
        self.summary.setText(f"{len(hits)} found for '{query}'." if hits
                             else f"Nothing in the journal mentions '{query}'.")

    def refresh(self, campaign: Campaign | None) -> None:
        pass  # results stay until the next search


# --- the book -------------------------------------------------------------------------------


class JournalBook(QWidget):
    """The Journal tab's book: contents, pages, search and exports."""

    def __init__(self, window: Any, history: QWidget) -> None:
        from companion.operations.journal import SECTIONS

        super().__init__()
        self.window_ = window
        self.history = history
        self.search_box = QLineEdit()
        self.search_box.setPlaceholderText("Search the journal: text, marks, IDs…")
        self.search_box.setAccessibleName("Search the journal")
        self.search_box.setClearButtonEnabled(True)
        self.search_box.returnPressed.connect(self.run_search)
        self._debounce = QTimer(self)
        self._debounce.setSingleShot(True)
        self._debounce.setInterval(300)
        self._debounce.timeout.connect(self.run_search)
        self.search_box.textEdited.connect(lambda _t: self._debounce.start())
        self.section_filter = QComboBox()
        self.section_filter.setAccessibleName("Search in section")
        self.section_filter.addItem("All sections", None)
        for key, title in SECTIONS.items():
            self.section_filter.addItem(title, key)
        self.epoch_filter = QSpinBox()
        self.epoch_filter.setAccessibleName("Search in epoch")
        self.epoch_filter.setRange(0, 99)
        self.epoch_filter.setSpecialValueText("Any epoch")
        self.epoch_filter.setPrefix("Epoch ")
        self.challenge_filter = QComboBox()
        self.challenge_filter.setAccessibleName("Search in challenge")
        self.challenge_filter.addItem("Any challenge", None)
        for widget in (self.section_filter, self.challenge_filter):
            widget.currentIndexChanged.connect(lambda _i: self._rerun())
        self.epoch_filter.valueChanged.connect(lambda _v: self._rerun())
        self.codex_button = QPushButton("&Codex…")
        self.codex_button.setToolTip("Read one Codex entry (recorded in the journal)")
        self.codex_button.clicked.connect(self.open_codex)
        self.pdf_button = QPushButton("Export &PDF…")
        self.pdf_button.clicked.connect(lambda: self.export("pdf"))
        self.md_button = QPushButton("Export &Markdown…")
        self.md_button.clicked.connect(lambda: self.export("md"))
        bar = QHBoxLayout()
        bar.addWidget(self.search_box, 1)
        tools: tuple[QWidget, ...] = (self.section_filter, self.epoch_filter,
                                      self.challenge_filter, self.codex_button,
                                      self.pdf_button, self.md_button)
        for tool in tools:
            bar.addWidget(tool)

        self.contents = QListWidget()
        self.contents.setAccessibleName("Journal sections")
        self.pages = QStackedWidget()
        self.search_page = SearchPage(window, self.turn_to)
        self.cave_wall = CaveWallPage(window)
        built: list[tuple[str, QWidget]] = [
            ("history", history),
            ("entries", EntriesPage(window)),
            ("challenges", ChallengeLogPage(window)),
            ("culture", CulturePage(window)),
            ("outposts", OutpostsPage(window)),
            ("valley", ValleyMapPage(window)),
            ("behemoths", BehemothsPage(window)),
            ("decks", DecksPage(window)),
            ("cave_wall", self.cave_wall),
            ("legends", LegendsPage(window)),
            ("notes", NotesPage(window)),
            ("codex", CodexPage(window)),
            ("search", self.search_page),
        ]
        titles = {**SECTIONS, "codex": "Omens & Codes", "search": "Search results"}
        self.keys: list[str] = []
        for key, page in built:
            self.keys.append(key)
            self.contents.addItem(titles[key])
            self.pages.addWidget(page)
        self.page_of: dict[str, Any] = dict(built)
        self._stale = set(self.keys)
        self.contents.currentRowChanged.connect(self._show_row)
        metrics = self.contents.fontMetrics()
        self.contents.setFixedWidth(max(metrics.horizontalAdvance(t) for t in titles.values())
                                    + 4 * metrics.averageCharWidth() + 8)
        self.contents.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.contents.setSpacing(2)
        body = QHBoxLayout()
        body.addWidget(self.contents)
        body.addWidget(self.pages, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(bar)
        layout.addLayout(body, 1)
        self.contents.setCurrentRow(0)

    # -- pages ------------------------------------------------------------------------

    def page(self, key: str) -> Any:
        return self.page_of[key]

    def turn_to(self, key: str) -> None:
        """Show the section ``key`` (a key of ``journal.SECTIONS``, 'codex' or 'search')."""
        if key == "omens" or key == "codes":
            key = "codex"
        if key in self.keys:
            self.contents.setCurrentRow(self.keys.index(key))

    def _show_row(self, row: int) -> None:
        if row < 0:
            return
        self.pages.setCurrentIndex(row)
        self._refresh_page(self.keys[row])

    def _refresh_page(self, key: str) -> None:
        if key not in self._stale or key == "history":
            return
        self._stale.discard(key)
        page = self.page_of[key]
        page.refresh(self.window_.campaign)

    def refresh(self) -> None:
        """The campaign changed: every page is stale; the one on show reloads now."""
        self._stale = set(self.keys)
        self._refresh_challenges()
        self._refresh_page(self.keys[self.pages.currentIndex()])
        if self.search_box.text().strip() and self.pages.currentIndex() == \
                self.keys.index("search"):
            self.run_search()

    def _refresh_challenges(self) -> None:
        from companion.operations import journal as j

        campaign = self.window_.campaign
        current = self.challenge_filter.currentData()
        self.challenge_filter.blockSignals(True)
        self.challenge_filter.clear()
        self.challenge_filter.addItem("Any challenge", None)
        seen = set()
        for line in j.challenge_log(campaign) if campaign else []:
            if line.challenge_id not in seen:
                seen.add(line.challenge_id)
                self.challenge_filter.addItem(line.challenge_name, line.challenge_id)
        index = self.challenge_filter.findData(current)
        self.challenge_filter.setCurrentIndex(max(index, 0))
        self.challenge_filter.blockSignals(False)

    # -- search ------------------------------------------------------------------------

    def _rerun(self) -> None:
        if self.search_box.text().strip():
            self.run_search()

    def run_search(self) -> list[Any]:
        """Search with the box's text and the filters; show the results page."""
        from companion.operations import Refused
        from companion.operations import journal as j

        self._debounce.stop()
        campaign = self.window_.campaign
        query = self.search_box.text().strip()
        if campaign is None or not query:
            return []
        section = self.section_filter.currentData()
        try:
            hits = j.search(campaign, query, sections=[section] if section else None,
                            epoch=self.epoch_filter.value() or None,
                            challenge=self.challenge_filter.currentData())
        except Refused as exc:
            self.search_page.summary.setText(str(exc))
            return []
        self.search_page.show_hits(query, hits)
        self.turn_to("search")
        return hits

    # -- codex and exports -------------------------------------------------------------------

    def open_codex(self) -> None:
        from companion.ui.codex_dialog import CodexDialog

        CodexDialog(self.window_, parent=self).exec()

    def export(self, kind: str, path: str | None = None) -> bool:
        """Export the journal as PDF or Markdown (asks where when ``path`` is None)."""
        from pathlib import Path

        from PySide6.QtWidgets import QMessageBox

        campaign = self.window_.campaign
        if campaign is None:
            return False
        if path is None:
            suffix = "pdf" if kind == "pdf" else "md"
            path, _ = QFileDialog.getSaveFileName(
                self, "Export the journal", str(campaign.path.with_suffix(f".journal.{suffix}")),
                "PDF (*.pdf)" if kind == "pdf" else "Markdown (*.md)")
            if not path:
                return False
        try:
            if kind == "pdf":
                from companion.ui import pdf_export
                from companion.ui.progress import run_with_progress

                # Read on this thread (the campaign and the map are its own); lay out
                # and paint the pages on a worker, so a long journal never freezes.
                prepared = pdf_export.prepare(campaign)
                pages = run_with_progress(self.window_, "Writing the journal PDF",
                                          pdf_export.paint_pdf, prepared, Path(path))
                message = f"Journal exported to {path} ({pages} pages)"
            else:
                from companion.operations.export import journal_markdown

                Path(path).write_text(journal_markdown(campaign), encoding="utf-8")
                message = f"Journal exported to {path}"
        except OSError as exc:
            QMessageBox.warning(self, "Export failed", f"Could not write {path}: {exc}")
            return False
        status = getattr(self.window_, "statusBar", None)
        if callable(status):
            status().showMessage(message, 6000)
        return True
