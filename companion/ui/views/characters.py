"""Characters view: every character of the campaign in one table (the overview), the
selected character's sheet below it, and "New Character…"."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QScrollArea,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from companion.ui.views import LORE, relevant
from companion.ui.views.character_sheet import CharacterSheet

if TYPE_CHECKING:
    from companion.operations.queries import CharacterSummary
    from companion.ui.host import Host

Index = QModelIndex | QPersistentModelIndex

COLUMNS: tuple[tuple[str, str], ...] = (
    ("Name", "name"),
    ("Player", "player"),
    ("Age", "age"),
    ("Mantle", "mantle"),
    ("Might", "might"),
    ("Dexterity", "dexterity"),
    ("Awareness", "awareness"),
    ("Conviction", "conviction"),
    ("Traits", "traits"),
    ("Energy", "energy_text"),
    ("Health", "health_text"),
    ("Hex", "hex_id"),
    ("Status", "status"),
)


class CharactersModel(QAbstractTableModel):
    """Table model over a list of ``CharacterSummary`` (testable without a window)."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[CharacterSummary] = []
        self.trait_names: dict[str, str] = {}
        """Trait id -> its name as the content prints it (as on the sheet; issue 27)."""

    def set_rows(self, rows: list[CharacterSummary],
                 trait_names: dict[str, str] | None = None) -> None:
        self.beginResetModel()
        self.rows = rows
        if trait_names is not None:
            self.trait_names = trait_names
        self.endResetModel()

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: N802, B008
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: N802, B008
        return 0 if parent.isValid() else len(COLUMNS)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or role not in (
            Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole
        ):
            return None
        key = COLUMNS[index.column()][1]
        value = getattr(self.rows[index.row()], key)
        if key == "traits":  # named as the sheet names them: "Wise", not "wise"
            return ", ".join(self.trait_names.get(str(t), str(t).capitalize())
                             for t in value)
        if isinstance(value, tuple | list):
            return ", ".join(str(v) for v in value)
        return "" if value is None else str(value)

    def headerData(  # noqa: N802
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if role == Qt.ItemDataRole.DisplayRole and orientation == Qt.Orientation.Horizontal:
            return COLUMNS[section][0]
        return None


SHOWS = frozenset({"character", "campaign", "valley_hex", "legend"})
"""The tables the list and the sheet are drawn from (``Campaign.characters``,
``Campaign.character_detail``: the rows, the track maxima, hexes, legends held; issue 37)."""


class CharactersView(QWidget):
    """The Characters tab: the table, the selected character's sheet, New Character…."""

    def __init__(self, window: Host) -> None:
        super().__init__()
        self.window_ = window
        self.model = CharactersModel()
        self.table = QTableView()
        self.table.setModel(self.model)
        self.table.setAccessibleName("Characters")
        self.table.setAlternatingRowColors(True)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().hide()
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.selectionModel().currentRowChanged.connect(lambda *_: self.show_sheet())
        self.empty = QLabel(
            "No characters yet. Characters are created at the start of a challenge "
            "(Rulebook: Character Creation)."
        )
        self.empty.setWordWrap(True)
        self.new_button = QPushButton("&New Character…")
        self.new_button.setAccessibleName("New character")
        self.new_button.clicked.connect(self.new_character)
        self.sheet = CharacterSheet()
        self.sheet.legends_requested.connect(self.open_legends)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setWidget(self.sheet)
        scroll.setAccessibleName("Character sheet")
        top = QWidget()
        top_layout = QVBoxLayout(top)
        top_layout.setContentsMargins(0, 0, 0, 0)
        buttons = QHBoxLayout()
        buttons.addWidget(self.empty, 1)
        buttons.addWidget(self.new_button, 0, Qt.AlignmentFlag.AlignTop)
        top_layout.addLayout(buttons)
        top_layout.addWidget(self.table)
        self.splitter = QSplitter(Qt.Orientation.Vertical)
        self.splitter.addWidget(top)
        self.splitter.addWidget(scroll)
        self.splitter.setStretchFactor(0, 1)
        self.splitter.setStretchFactor(1, 3)
        self._fitted_rows = -1
        layout = QVBoxLayout(self)
        layout.addWidget(self.splitter)
        window.campaign_changed.connect(self.on_changed)

    def on_changed(self, changes: object) -> None:
        if not relevant(changes, ("characters",), LORE, SHOWS) or \
                self.window_.campaign is None or self.window_.defer(self, changes):
            return  # (deferred: refreshed once when its tab is shown, issue 37)
        selected = self.selected_name()
        rows = self.window_.campaign.characters()
        traits = self.window_.campaign.content.traits
        self.model.set_rows(rows, {str(k): str(t.name) for k, t in traits.items()})
        self.empty.setText(
            "No characters yet. Characters are created at the start of a challenge "
            "(Rulebook: Character Creation)." if not rows else
            "Select a character to see their sheet below.")
        names = [r.name for r in rows]
        if len(rows) != self._fitted_rows:  # keep a splitter the user has dragged
            self._fitted_rows = len(rows)
            self._fit_table()
        if rows:
            self.select(selected if selected in names else names[0])
        else:
            self.show_sheet()

    def _fit_table(self) -> None:
        """Give the table the height of its rows (up to half the tab); the sheet the rest."""
        self.table.resizeRowsToContents()
        rows = sum(self.table.rowHeight(r) for r in range(self.model.rowCount()))
        wanted = (self.table.horizontalHeader().sizeHint().height() + rows
                  + 2 * self.table.frameWidth() + self.new_button.sizeHint().height()
                  + self.fontMetrics().height() * 2)
        total = max(sum(self.splitter.sizes()), self.height(), 400)
        top = min(wanted, total // 2)
        self.splitter.setSizes([top, total - top])

    def selected_name(self) -> str | None:
        """The name of the character whose sheet is shown."""
        index = self.table.currentIndex()
        if not index.isValid() or index.row() >= len(self.model.rows):
            return None
        return self.model.rows[index.row()].name

    def select(self, name: str) -> None:
        """Select ``name`` in the table and show their sheet."""
        for row, summary in enumerate(self.model.rows):
            if summary.name == name:
                self.table.setCurrentIndex(self.model.index(row, 0))
                self.table.selectRow(row)
        self.show_sheet()

    def show_sheet(self) -> None:
        """Show the selected character's sheet (read from the file)."""
        from companion.ui.widgets import read_game

        campaign = self.window_.campaign
        name = self.selected_name()
        if campaign is None or name is None:
            self.sheet.show_character(None, None)
            return
        game = read_game(campaign)
        character = next((c for c in game.characters if c.name == name), None)
        self.sheet.show_character(character, campaign.content)
        if character is not None and character.legends:
            from companion.operations.legends import held_legends

            self.sheet.add_detail("Legend cards:", ", ".join(
                f"{c.name} (card {c.id})" for c in held_legends(campaign, name)))

    def open_legends(self, name: str) -> None:
        """Legends and Mantle Power… for the character on the sheet."""
        from companion.ui.legend_dialog import open_legends

        open_legends(self.window_, name or None)

    def new_character(self) -> None:
        """Open the character creation dialog."""
        from companion.ui.character_dialog import CharacterDialog

        if self.window_.campaign is None:
            return
        dialog = CharacterDialog(self.window_)
        if dialog.exec() and dialog.created:
            self.select(dialog.created)
