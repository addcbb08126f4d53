"""Exploring a new terrain tray as the table does it, and typing a tile of the box once.

Rulebook: Actions > Explore ("take a new terrain tray and place it such that it touches
at least two edges of the current terrain tray ... fill it with three unexplored hexes
from the same region. Move the character into one of the adjacent hexes in the newly
placed tray, then explore it"); Valley > Hexes.

:class:`ExploreTrayBox` lists the legal placements in words ("north-east of Ashen Ford,
touching Birchhollow"), asks for the id printed on each tile the table placed, place by
place, and which tile the table flipped (the table picks, not the app). A flipped tile
the campaign does not know yet is typed once in :class:`TileDialog` (its name, the
terrain feature per section a/b/c, its omens) and joins the owner's pack
(:func:`companion.operations.tiles.type_tile`) before the tray is explored.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QGroupBox,
    QLabel,
    QLineEdit,
    QListWidget,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from companion.ui.widgets import line_edit, note_label

if TYPE_CHECKING:
    from companion.ui.host import Host

SLOTS = 3
"""A tray's three places (Rulebook: Valley > Terrain Trays)."""


class TileDialog(QDialog):
    """Type a tile of the box the first time it is flipped: what it shows."""

    def __init__(self, host: Host, tile: str, region: str, *,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.host = host
        self.tile = tile
        self.region = region
        campaign = host.campaign
        assert campaign is not None
        self.setWindowTitle(f"A new tile: {tile}")
        region_info = campaign.content.regions.get(region)
        intro = QLabel(f"The tile {tile} ({region_info.name if region_info else region}) "
                       "is not in your pack yet. Type what it shows once: it is known from "
                       "then on.")
        intro.setWordWrap(True)
        self.name_edit = QLineEdit()
        self.name_edit.setAccessibleName("Name printed on the tile")
        self.name_edit.setPlaceholderText("as printed (may be left empty)")
        self.sections: list[QComboBox] = []
        form = QFormLayout()
        form.addRow("&Name:", self.name_edit)
        for section in ("a", "b", "c"):
            combo = QComboBox()
            combo.setAccessibleName(f"Terrain feature in section {section.upper()}")
            combo.addItem("nothing (an empty section)", "none")
            for feature in campaign.content.features.values():
                combo.addItem(feature.name, feature.id)
            self.sections.append(combo)
            form.addRow(f"Section &{section.upper()}:", combo)
        self.omens_edit = line_edit("Omens printed on the tile",
                                    "e.g. comet:b (omen and section), or empty")
        form.addRow("&Omens:", self.omens_edit)
        self.error = note_label()
        self.error.setStyleSheet("color: #b00020")
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.ok_button = buttons.addButton("Add the tile to my pack",
                                           QDialogButtonBox.ButtonRole.AcceptRole)
        buttons.accepted.connect(self.add_tile)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addLayout(form)
        layout.addWidget(self.error)
        layout.addWidget(buttons)

    def add_tile(self) -> bool:
        """Write the tile into the owner's pack (one undoable operation); a refusal is
        shown in the dialog and nothing changes."""
        from companion.operations.changes import Refused
        from companion.operations.tiles import parse_omens, type_tile

        campaign = self.host.campaign
        assert campaign is not None
        try:
            omens = parse_omens(self.omens_edit.text().replace(",", " ").split())
        except Refused as refusal:
            self.error.setText(str(refusal))
            return False
        done = self.host.run_operation(
            type_tile, tile=self.tile, region=self.region, name=self.name_edit.text(),
            sections=[str(c.currentData()) for c in self.sections], omens=omens)
        if done is None:
            self.error.setText("The tile was not added: see the message above.")
            return False
        self.accept()
        return True


def ask_tile(host: Host, tile: str, region: str, parent: QWidget | None = None) -> bool:
    """Whether the tile ``tile`` is known now: typed in :class:`TileDialog` if it was not
    (modal: exploring waits for it)."""
    campaign = host.campaign
    if campaign is None:
        return False
    if tile in campaign.content.hexes:
        return True
    dialog = TileDialog(host, tile, region, parent=parent)
    return dialog.exec() == QDialog.DialogCode.Accepted


class ExploreTrayBox(QGroupBox):
    """The new terrain tray: where (in words), which tiles, which one was flipped."""

    def __init__(self, host: Host, parent: QWidget | None = None) -> None:
        super().__init__("New terrain tray", parent)
        self.host = host
        self.options: list[Any] = []
        self.name: str | None = None
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel("Where the table placed it:"))
        self.placements = QListWidget()
        self.placements.setAccessibleName("Legal new tray placements")
        # Long places wrap instead of running off the panel's right edge.
        self.placements.setWordWrap(True)
        self.placements.setTextElideMode(self.placements.textElideMode().ElideNone)
        self.placements.setHorizontalScrollBarPolicy(
            self.placements.horizontalScrollBarPolicy().ScrollBarAlwaysOff)
        self.placements.setMaximumHeight(170)
        self.placements.currentRowChanged.connect(self._placement_chosen)
        layout.addWidget(self.placements)
        self.tiles_form = QFormLayout()
        # Each place's words above its field: they are long, and never squeezed.
        self.tiles_form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapAllRows)
        self.tile_labels: list[QLabel] = []
        self.tile_edits: list[QLineEdit] = []
        for slot in range(SLOTS):
            label = QLabel(f"Tile {slot + 1}:")
            label.setWordWrap(True)
            edit = QLineEdit()
            edit.setAccessibleName(f"Id printed on tile {slot + 1}")
            edit.setPlaceholderText("the id on the tile (empty: the app draws)")
            edit.textChanged.connect(self._fill_flipped)
            label.setBuddy(edit)
            self.tile_labels.append(label)
            self.tile_edits.append(edit)
            self.tiles_form.addRow(label, edit)
        layout.addLayout(self.tiles_form)
        flipped = QLabel("&Flipped (the character steps in):")
        self.entry_combo = QComboBox()
        self.entry_combo.setAccessibleName("The tile the table flipped")
        flipped.setBuddy(self.entry_combo)
        layout.addWidget(flipped)
        layout.addWidget(self.entry_combo)
        self.message = QLabel()
        self.message.setWordWrap(True)
        layout.addWidget(self.message)
        self.place_button = QPushButton("&Place the tray and explore")
        self.place_button.clicked.connect(self.place_tray)
        layout.addWidget(self.place_button)

    # -- filling -----------------------------------------------------------------------

    def fill(self, name: str | None, *, fresh: bool = False) -> None:
        """The legal placements for ``name`` (Actions > Explore), in words; ``fresh``
        (the form opened again): the ids typed last time are cleared, so new typing is
        not appended to them (issue 36 item 6: "E05E05")."""
        from companion.operations.exploration import legal_placements

        campaign = self.host.campaign
        self.name = name
        if fresh:
            for edit in self.tile_edits:
                edit.clear()
        self.options = legal_placements(campaign, name) if campaign and name else []
        self.placements.blockSignals(True)
        self.placements.clear()
        for option in self.options:
            self.placements.addItem(option.label)
        self.placements.blockSignals(False)
        if not self.options:
            self.placements.addItem(f"No legal new tray for {name or 'anyone'} here")
        self.place_button.setEnabled(bool(self.options))
        self.message.setText("")
        if self.options:
            self.placements.setCurrentRow(0)

    def _placement_chosen(self, row: int) -> None:
        if not 0 <= row < len(self.options):
            return
        option = self.options[row]
        for slot, label in enumerate(self.tile_labels):
            words = option.slot_words[slot] if slot < len(option.slot_words) else ""
            label.setText(f"Tile {slot + 1}, {words}:" if words else f"Tile {slot + 1}:")
        self._fill_flipped()

    def _fill_flipped(self) -> None:
        """The tiles next to the character, as typed (the table says which it flipped)."""
        row = self.placements.currentRow()
        if not 0 <= row < len(self.options):
            return
        option = self.options[row]
        chosen = self.entry_combo.currentData()
        self.entry_combo.clear()
        for slot, words in option.entry_words():
            typed = self.tile_edits[slot].text().strip()
            self.entry_combo.addItem(f"{typed} ({words})" if typed else
                                     f"the tile {words}", slot)
        index = self.entry_combo.findData(chosen)
        if index >= 0:
            self.entry_combo.setCurrentIndex(index)

    # -- exploring ---------------------------------------------------------------------

    def typed_tiles(self) -> list[str]:
        """The ids typed, in slot order (empty: the app draws)."""
        return [e.text().strip() for e in self.tile_edits]

    def place_tray(self) -> bool:
        """Type the flipped tile if it is new, then explore the tray (each its own
        undoable operation; a refusal changes nothing)."""
        from companion.operations.exploration import explore_new_tray

        row = self.placements.currentRow()
        if not 0 <= row < len(self.options) or self.name is None:
            return False
        option = self.options[row]
        typed = self.typed_tiles()
        if any(typed) and not all(typed):
            self.message.setText("Type the id printed on each of the three tiles, or none "
                                 "for the app to draw them.")
            return False
        slot = self.entry_combo.currentData()
        if any(typed) and slot is not None and not ask_tile(
                self.host, typed[int(slot)], option.region, self):
            return False
        done = bool(self.host.run_operation(
            explore_new_tray, name=self.name, origin=option.origin,
            orientation=option.orientation, region=option.region,
            tiles=typed if any(typed) else None,
            enter=int(slot) if slot is not None else None))
        if done:
            for edit in self.tile_edits:
                edit.clear()
        return done
