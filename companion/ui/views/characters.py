"""Characters view: every character of the campaign, living and legend, in one table."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtWidgets import QHeaderView, QLabel, QTableView, QVBoxLayout, QWidget

from companion.ui.views import wants

if TYPE_CHECKING:
    from companion.operations.queries import CharacterSummary
    from companion.ui.main_window import MainWindow

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

    def set_rows(self, rows: list[CharacterSummary]) -> None:
        self.beginResetModel()
        self.rows = rows
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
        value = getattr(self.rows[index.row()], COLUMNS[index.column()][1])
        if isinstance(value, tuple | list):
            return ", ".join(str(v) for v in value)
        return "" if value is None else str(value)

    def headerData(  # noqa: N802
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if role == Qt.ItemDataRole.DisplayRole and orientation == Qt.Orientation.Horizontal:
            return COLUMNS[section][0]
        return None


class CharactersView(QWidget):
    """The Characters tab."""

    def __init__(self, window: MainWindow) -> None:
        super().__init__()
        self.window_ = window
        self.model = CharactersModel()
        self.table = QTableView()
        self.table.setModel(self.model)
        self.table.setAccessibleName("Characters")
        self.table.setAlternatingRowColors(True)
        self.table.verticalHeader().hide()
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.empty = QLabel(
            "No characters yet. Characters are created at the start of a challenge "
            "(Rulebook: Character Creation)."
        )
        self.empty.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.addWidget(self.empty)
        layout.addWidget(self.table)
        window.campaign_changed.connect(self.on_changed)

    def on_changed(self, changes: object) -> None:
        if not wants(changes, "characters") or self.window_.campaign is None:
            return
        rows = self.window_.campaign.characters()
        self.model.set_rows(rows)
        self.empty.setVisible(not rows)
