"""Valley view: the interactive map of the valley and a side panel for the clicked hex.

The map (``companion.ui.map_view``) shows the real valley of the campaign. The panel
shows the clicked hex (tile, region, features by section, when it was explored,
outposts, ruins and the lair, tokens, who stands there) and, for the character chosen in
its combo, what they can do there, with the energy cost: Move/Explore into a
neighbouring hex (button or drag the piece; the cost is shown before confirming),
exploring a new terrain tray (legal placements shown as ghost trays), and the Discovery
card due after arriving; and an overlay a game effect places on a section. Every change
goes through ``Host.run_operation``; the rules refuse, the panel shows why. The journal's
grid of hex IDs is a collapsible section.
"""

from __future__ import annotations

import html
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QComboBox,
    QFrame,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
    QSplitter,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from companion.rules.geometry import Axial
from companion.ui.map_read import MapData, MapRows, behemoth_end_odds, map_data, read_rows, reread
from companion.ui.map_view import MapView, valley_grid
from companion.ui.views import LORE, relevant

if TYPE_CHECKING:
    from companion.ui.host import Host

FLAGS = ("valley", "characters", "behemoth", "outposts", "society", "procedure")


class ValleyView(QWidget):
    """The Valley tab: the map and the hex panel."""

    def __init__(self, window: Host) -> None:
        super().__init__()
        self.window_ = window
        self.data: MapData | None = None
        self.rows: MapRows | None = None
        """What :attr:`data` was drawn from (a click reads again only the rows it wrote)."""
        self.selected: Axial | None = None
        self.move_target: Axial | None = None
        self.options: list[Any] = []
        self._fitted: int | None = None
        """How many hexes the map had when it was last fitted to the window."""

        self.map = MapView()
        self.scene = self.map.map_scene
        self.map.hex_clicked.connect(self.select_hex)
        self.scene.piece_dropped.connect(self.piece_dropped)

        bar = QHBoxLayout()
        self.heading = QLabel()
        bar.addWidget(self.heading, 1)
        for text, tip, slot in (("−", "Zoom out (Ctrl+-)", self.map.zoom_out),
                                ("+", "Zoom in (Ctrl+=)", self.map.zoom_in),
                                ("Fit", "Fit the valley in the window (Ctrl+0)", self.map.fit)):
            button = QToolButton()
            button.setText(text)
            button.setToolTip(tip)
            button.setAccessibleName(tip)
            button.clicked.connect(slot)
            bar.addWidget(button)
        left = QWidget()
        left_layout = QVBoxLayout(left)
        left_layout.setContentsMargins(0, 0, 0, 0)
        left_layout.addLayout(bar)
        left_layout.addWidget(self.map, 1)

        splitter = QSplitter(Qt.Orientation.Horizontal)
        splitter.addWidget(left)
        splitter.addWidget(self._build_panel())
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 1)
        splitter.setSizes([760, 360])
        layout = QVBoxLayout(self)
        layout.addWidget(splitter)
        window.campaign_changed.connect(self.on_changed)

    # -- the panel ------------------------------------------------------------------

    def _build_panel(self) -> QWidget:
        panel = QWidget()
        layout = QVBoxLayout(panel)
        self.hex_title = QLabel("Click a hex on the map.")
        title_font = QFont()
        title_font.setPointSizeF(title_font.pointSizeF() * 1.3)
        title_font.setBold(True)
        self.hex_title.setFont(title_font)
        self.hex_details = QLabel()
        self.hex_details.setWordWrap(True)
        self.hex_details.setTextFormat(Qt.TextFormat.RichText)
        layout.addWidget(self.hex_title)
        layout.addWidget(self.hex_details)

        who = QHBoxLayout()
        who.addWidget(QLabel("Character:"))
        self.character_combo = QComboBox()
        self.character_combo.setAccessibleName("Character acting on the map")
        self.character_combo.currentTextChanged.connect(self._character_chosen)
        who.addWidget(self.character_combo, 1)
        layout.addLayout(who)

        self.actions_label = QLabel()
        self.actions_label.setWordWrap(True)
        self.actions_label.setTextFormat(Qt.TextFormat.RichText)
        layout.addWidget(self.actions_label)
        self.move_button = QPushButton("Move here…")
        self.move_button.setToolTip("Move (or Explore) the chosen character into this hex; "
                                    "the cost is shown before you confirm")
        self.move_button.clicked.connect(lambda: self.start_move(self.selected))
        layout.addWidget(self.move_button)

        self.confirm_box = QFrame()
        self.confirm_box.setFrameShape(QFrame.Shape.StyledPanel)
        confirm_layout = QVBoxLayout(self.confirm_box)
        self.confirm_label = QLabel()
        self.confirm_label.setWordWrap(True)
        self.confirm_label.setTextFormat(Qt.TextFormat.RichText)
        confirm_layout.addWidget(self.confirm_label)
        buttons = QHBoxLayout()
        self.confirm_button = QPushButton("Confirm move")
        self.confirm_button.clicked.connect(self.confirm_move)
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.clicked.connect(self.cancel_move)
        buttons.addWidget(self.confirm_button)
        buttons.addWidget(self.cancel_button)
        confirm_layout.addLayout(buttons)
        self.confirm_box.hide()
        layout.addWidget(self.confirm_box)

        # Rulebook: Valley > Overlays: a game effect may cover a section of this hex.
        self.overlay_box = QGroupBox("Overlay placed by a game effect")
        overlay_box = QVBoxLayout(self.overlay_box)
        overlay_row = QHBoxLayout()
        self.overlay_combo = QComboBox()
        self.overlay_combo.setAccessibleName("Overlay to place")
        self.section_combo = QComboBox()
        self.section_combo.setAccessibleName("Section it covers")
        self.overlay_button = QPushButton("Place overlay")
        self.overlay_button.setToolTip("Cover the chosen section of this hex with the overlay "
                                       "(its feature can no longer be used)")
        self.overlay_button.clicked.connect(self.place_overlay)
        overlay_row.addWidget(self.overlay_combo, 1)
        overlay_row.addWidget(QLabel("on"))
        overlay_row.addWidget(self.section_combo, 1)
        overlay_box.addLayout(overlay_row)
        overlay_box.addWidget(self.overlay_button)
        layout.addWidget(self.overlay_box)

        self.discovery_box = QGroupBox("Discovery")
        discovery = QVBoxLayout(self.discovery_box)
        self.discovery_label = QLabel()
        self.discovery_label.setWordWrap(True)
        discovery.addWidget(self.discovery_label)
        from companion.ui.card_field import CardField  # by id or name; or entered

        self.discovery_card = CardField(self.window_, "discovery_cards")
        self.discovery_card.combo.setAccessibleName("Discovery card drawn at the table")
        # The card field's own reading (id, name, its drop-down text, a fragment):
        # the one every card field uses (operations.cards.resolve_card_id).
        self.discovery_card.chosen.connect(
            lambda card: self.draw_discovery(typed=True, card=card))
        self.typed_draw_button = self.discovery_card.use_button
        discovery.addWidget(self.discovery_card)
        self.draw_button = QPushButton("Draw in the app")
        self.draw_button.clicked.connect(lambda: self.draw_discovery(typed=False))
        discovery.addWidget(self.draw_button)
        self.discovery_box.hide()
        layout.addWidget(self.discovery_box)

        self.explore_button = QPushButton("Explore a new tray…")
        self.explore_button.setCheckable(True)
        self.explore_button.toggled.connect(self.toggle_explore)
        layout.addWidget(self.explore_button)
        from companion.ui.explore_tray import ExploreTrayBox  # Actions > Explore

        self.explore_box = ExploreTrayBox(self.window_)
        self.placements = self.explore_box.placements
        self.entry_combo = self.explore_box.entry_combo
        self.place_button = self.explore_box.place_button
        self.placements.currentRowChanged.connect(self._placement_chosen)
        self.explore_box.hide()
        layout.addWidget(self.explore_box)

        self.grid_toggle = QToolButton()
        self.grid_toggle.setText("Journal grid")
        self.grid_toggle.setCheckable(True)
        self.grid_toggle.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.grid_toggle.setArrowType(Qt.ArrowType.RightArrow)
        self.grid = QPlainTextEdit()
        self.grid.setReadOnly(True)
        self.grid.setFont(QFont("monospace"))
        self.grid.setAccessibleName("Journal grid of hex IDs")
        self.grid.setMaximumHeight(160)
        self.grid.hide()
        self.grid_toggle.toggled.connect(self._toggle_grid)
        layout.addWidget(self.grid_toggle)
        layout.addWidget(self.grid)
        layout.addStretch(1)

        scroll = QScrollArea()
        self.panel_scroll = scroll
        scroll.setWidgetResizable(True)
        scroll.setWidget(panel)
        scroll.setMinimumWidth(300)
        return scroll

    def _toggle_grid(self, shown: bool) -> None:
        self.grid.setVisible(shown)
        self.grid_toggle.setArrowType(Qt.ArrowType.DownArrow if shown else
                                      Qt.ArrowType.RightArrow)

    # -- refreshing -------------------------------------------------------------------

    def on_changed(self, changes: object) -> None:
        campaign = self.window_.campaign
        if campaign is None or not relevant(changes, FLAGS, LORE) or \
                self.window_.defer(self, changes):
            return
        # The first fill (the campaign being shown) draws the map first and the
        # behemoth's odds once the window is idle; every later refresh, at once.
        later = self.data is None
        rows = self._rows_now(campaign, changes)
        if rows is not self.rows or self.data is None:
            self.rows = rows
            self._show_map(map_data(rows, campaign, odds=not later))
            if later and self.rows.behemoth is not None:
                QTimer.singleShot(0, self, self._add_odds)
        if self.explore_button.isChecked():
            self._fill_placements()
        self._refresh_panel()
        # Fitted when first shown, and again when Undo, Redo or opening changed the
        # valley's extent: fitted to the empty valley at the start, the map came back
        # hugely zoomed in (issue 36 item 14); a move or a new tray keeps the player's zoom.
        assert self.data is not None
        hexes = len(self.data.valley.tiles)
        everything = changes is None or bool(getattr(changes, "everything", False))
        if hexes and (self._fitted is None or (everything and hexes != self._fitted)):
            self._fitted = hexes
            self.map.fit()

    def _rows_now(self, campaign: Any, changes: object) -> MapRows:
        """What the map is drawn from now: :attr:`rows` itself when ``changes`` wrote
        nothing it shows, those rows with the ones written read again, else read whole
        (issue 37: a move reads its character and the hex it explored, not the map)."""
        written = getattr(changes, "written", None)
        if self.rows is not None and written is not None:
            again = reread(campaign, self.rows, written)
            if again is not None:
                return again
        return read_rows(campaign)

    def _show_map(self, data: MapData) -> None:
        """Draw ``data``: the map, its heading, the characters who may act, the grid."""
        self.data = data
        self.scene.sync(data)
        trays = len(data.valley.trays)
        explored = len(data.valley.explored)
        self.heading.setText(f"<b>Valley map</b> — {trays} terrain tray(s), "
                             f"{len(data.valley.tiles)} hex(es), {explored} explored")
        current = self.character_combo.currentText()
        names = [p for p in data.energy]
        if names != [self.character_combo.itemText(i)
                     for i in range(self.character_combo.count())]:
            self.character_combo.blockSignals(True)
            self.character_combo.clear()
            self.character_combo.addItems(names)
            if current in names:
                self.character_combo.setCurrentText(current)
            self.character_combo.blockSignals(False)
        grid = valley_grid(data.valley)
        if grid != self.grid.toPlainText():  # (laid out again only when it changed)
            self.grid.setPlainText(grid)

    def show_first(self, data: MapData) -> None:
        """Fill the view from the start-up's first read (``companion.ui.first_view``),
        exactly as the first :meth:`on_changed` fills it from the campaign; it shows
        until the real view takes its place. Not connected to the window's changes."""
        self.window_.campaign_changed.disconnect(self.on_changed)
        self.data = data
        self.scene.sync(data)
        self.heading.setText(f"<b>Valley map</b> — {len(data.valley.trays)} terrain tray(s), "
                             f"{len(data.valley.tiles)} hex(es), "
                             f"{len(data.valley.explored)} explored")
        self.character_combo.blockSignals(True)
        self.character_combo.addItems(list(data.energy))
        self.character_combo.blockSignals(False)
        self.grid.setPlainText(valley_grid(data.valley))
        # The panel as _refresh_panel leaves it with no hex chosen; its Discovery box
        # stays hidden (a campaign with one due opens the usual way).
        self.move_button.setEnabled(False)
        self.overlay_box.hide()
        self._fitted = len(data.valley.tiles)  # fitted by the window once laid out

    def _add_odds(self) -> None:
        campaign, data = self.window_.campaign, self.data
        if campaign is None or campaign.file.closed or data is None or \
                data.behemoth is None or data.behemoth_odds:
            return
        self.data = replace(data, behemoth_odds=behemoth_end_odds(campaign))
        self.scene.sync(self.data)

    def showEvent(self, event: Any) -> None:  # noqa: N802 (Qt's name)
        super().showEvent(event)
        self.map.fit()

    # -- selecting -----------------------------------------------------------------------

    def select_hex(self, cell: Axial) -> None:
        """Show ``cell`` in the panel (the map emits this on a click)."""
        self.selected = cell
        self.scene.select(cell if self.data is not None and cell in self.data.valley.tiles
                          else None)
        self.cancel_move()
        self._refresh_panel()

    def piece_dropped(self, name: str, cell: Axial) -> None:
        """A piece was dragged onto ``cell``: choose that character and ask to confirm."""
        self.character_combo.setCurrentText(name)
        self.select_hex(cell)
        self.start_move(cell)

    def character(self) -> str | None:
        return self.character_combo.currentText() or None

    def _character_chosen(self, _name: str) -> None:
        """Another character acts on the map: the new tray's form, if open, is theirs
        now (issue 36 item 6: it acted for the one chosen when it opened)."""
        if self.explore_button.isChecked():
            self._fill_placements()
        self._refresh_panel()

    def _character_cell(self, name: str | None) -> Axial | None:
        if self.data is None or name is None:
            return None
        return next((p.cell for p in self.data.pieces if p.name == name), None)

    # -- the panel's content ---------------------------------------------------------------

    def _refresh_panel(self) -> None:
        self._refresh_discovery()
        data, cell = self.data, self.selected
        if data is None or cell is None:
            self.move_button.setEnabled(False)
            self.overlay_box.hide()
            return
        if cell not in data.valley.tiles:
            self.hex_title.setText("No hex here")
            self.hex_details.setText("No tile lies here yet: a new tray may be placed "
                                     "here by exploring.")
            self.actions_label.setText("")
            self.move_button.setEnabled(False)
            self.overlay_box.hide()
            return
        self.hex_title.setText(self._hex_title(cell))
        self.hex_details.setText(self._hex_details(cell))
        self.actions_label.setText(self._actions_text(cell))
        here = self._character_cell(self.character())
        self.move_button.setEnabled(here is not None and here != cell)
        self._refresh_overlay(cell)

    def _refresh_overlay(self, cell: Axial) -> None:
        """Offer the overlays still in the box for the sections of an explored hex."""
        from companion.operations.exploration import overlay_choices

        campaign, data = self.window_.campaign, self.data
        assert campaign is not None and data is not None
        tile = data.valley.tiles.get(cell)
        free = [o for o in overlay_choices(campaign) if o["placed_on"] is None]
        if tile is None or cell not in data.valley.explored or not free:
            self.overlay_box.hide()
            return
        state = next(h for h in data.hexes if h.cell == cell)
        self.overlay_combo.clear()
        for overlay in free:
            self.overlay_combo.addItem(overlay["name"], overlay["id"])
        self.section_combo.clear()
        for section in state.sections:
            if section.overlay is None:  # a covered section takes no second overlay
                self.section_combo.addItem(f"{section.section.upper()}: "
                                           f"{section.feature_name or 'nothing'}",
                                           section.section)
        self.overlay_button.setEnabled(self.section_combo.count() > 0)
        self.overlay_box.show()

    def place_overlay(self) -> bool:
        """Place the chosen overlay on the chosen section (refusals are shown by the window)."""
        from companion.operations.exploration import place_overlay

        data, cell = self.data, self.selected
        if data is None or cell is None or data.valley.tiles.get(cell) is None:
            return False
        return bool(self.window_.run_operation(
            place_overlay, hex_id=str(data.valley.tiles[cell]),
            section=str(self.section_combo.currentData()),
            overlay=str(self.overlay_combo.currentData())))

    def _hex_title(self, cell: Axial) -> str:
        assert self.data is not None and self.window_.campaign is not None
        tile = self.data.valley.tiles[cell]
        info = self.window_.campaign.content.hexes.get(tile) if tile else None
        if cell not in self.data.valley.explored:
            return "A face-down hex"  # its ID is read only when it is explored
        return f"{tile} — {info.name}" if info is not None else str(tile)

    def _hex_details(self, cell: Axial) -> str:
        data = self.data
        campaign = self.window_.campaign
        assert data is not None and campaign is not None
        content = campaign.content
        region_id = data.valley.region_of(cell)
        region = content.regions.get(region_id)
        tile = data.valley.tiles[cell]
        lines = [f"Region: <b>{html.escape(region.name if region else region_id)}</b>"]
        state = next(h for h in data.hexes if h.cell == cell)
        if not state.explored:
            lines.append("<i>Unexplored: its features are hidden in the mist.</i>")
        else:
            lines.append(f"Explored: {html.escape(self._explored_when(str(tile)))}")
            rows = []
            for section in state.sections:
                feature = html.escape(section.feature_name or "nothing")
                cover = ""
                if section.overlay is not None:
                    cover = (f" — covered by the {section.overlay} "
                             f"<i>{html.escape(section.overlay_name)}</i>")
                rows.append(f"<li>{section.section.upper()}: {feature}{cover}</li>")
            lines.append("Features:<ul style='margin:0'>" + "".join(rows) + "</ul>")
        for outpost in data.outposts:
            if outpost.tile == tile and tile is not None:
                kind = "Ruin" if outpost.status == "ruin" else "Outpost"
                built = f"; structures: {', '.join(outpost.structures)}" \
                    if outpost.structures else ""
                lines.append(f"{kind}: <b>{html.escape(outpost.name)}</b> over section "
                             f"{(outpost.section or '?').upper()}{html.escape(built)}")
        if data.valley.lair is not None and data.valley.lair[0] == tile:
            lines.append(f"The behemoth's lair covers section {data.valley.lair[1].upper()}")
        tokens = []
        if state.fire:
            tokens.append("fire")
        if state.shelter:
            tokens.append("shelter")
        if state.lore:
            tokens.append(f"{state.lore} lore")
        if tokens:
            lines.append("Tokens: " + ", ".join(tokens))
        people = [p.name for p in data.pieces if p.cell == cell]
        if people:
            lines.append("Here: " + ", ".join(
                f"{html.escape(n)} ({data.energy[n][0]}/{data.energy[n][1]} energy)"
                for n in people))
        if data.behemoth is not None and data.behemoth[1] == tile:
            lines.append(f"The behemoth <b>{html.escape(data.behemoth[0])}</b> is here")
        if data.target == ("hex", tile):
            lines.append("The behemoth's target token lies here")
        return "<br>".join(lines)

    def _explored_when(self, tile: str) -> str:
        campaign = self.window_.campaign
        assert campaign is not None
        found = None
        for line in campaign.journal(limit=1000):
            if line.undone:
                continue
            if line.kind == "valley.setup" or (tile in line.text and "xplore" in line.text):
                found = line
                if line.kind != "valley.setup":
                    break
        if found is None:
            return "not recorded in the journal"
        if found.kind == "valley.setup":
            return f"at set up ({found.when})"
        return f"{found.when}: {found.text}"

    def _actions_text(self, cell: Axial) -> str:
        from companion import operations
        from companion.rules import exploration
        from companion.rules.errors import IllegalAction

        campaign = self.window_.campaign
        name = self.character()
        data = self.data
        assert campaign is not None and data is not None
        if name is None:
            return ""
        here = self._character_cell(name)
        if here is None:
            return f"{html.escape(name)} is not in the valley."
        options = operations.available_actions(campaign, name)
        energy, top = data.energy[name]
        head = f"<b>{html.escape(name)}</b> ({energy}/{top} energy)"
        if cell == here:
            rows = [self._option_row(o) for o in options if o.action not in ("move", "explore")]
            return head + " can do here:<ul style='margin:0'>" + (
                "".join(rows) or "<li>no feature action</li>") + "</ul>"
        tile = data.valley.tiles[cell]
        try:
            cost = exploration.move_cost(campaign.content.rules, data.valley, campaign.content,
                                         here, cell, who=name)
        except IllegalAction as exc:
            return f"{head}: <span style='color:#b00020'>not allowed — {html.escape(str(exc))}" \
                   "</span>"
        # A face-down hex is offered by the way it lies from the character's hex.
        from companion.rules.hex_words import direction

        want = tile if cell in data.valley.explored else direction(here, cell)
        option = next((o for o in options if o.target == want), None)
        refusal = option.refusal if option is not None else None
        text = f"{head}: {html.escape(cost.reason)}"
        if refusal:
            text += f"<br><span style='color:#b00020'>Not allowed now: " \
                    f"{html.escape(refusal)}</span>"
        return text

    @staticmethod
    def _option_row(option: Any) -> str:
        if option.refusal:
            return (f"<li>{html.escape(option.label)} — <span style='color:#b00020'>"
                    f"{html.escape(option.refusal)}</span></li>")
        return f"<li>{html.escape(option.label)}</li>"

    # -- moving --------------------------------------------------------------------------------

    def start_move(self, cell: Axial | None) -> None:
        """Show what moving the chosen character into ``cell`` costs, and ask to confirm."""
        if cell is None or self.data is None:
            return
        self.move_target = cell
        text = self._actions_text(cell) if cell in self.data.valley.tiles else \
            "No tile lies there yet."
        self.confirm_label.setText(text + "<br>Confirm?")
        self.confirm_button.setEnabled(cell in self.data.valley.tiles)
        self.confirm_box.show()

    def cancel_move(self) -> None:
        self.move_target = None
        self.confirm_box.hide()

    def confirm_move(self) -> bool:
        """Run the move through the window (refusals are shown there, with the reason)."""
        from companion.operations.exploration import move_and_discover

        name, cell, data = self.character(), self.move_target, self.data
        if name is None or cell is None or data is None:
            return False
        tile = data.valley.tiles.get(cell)
        self.cancel_move()
        if tile is None:
            self.actions_label.setText("That hex's tile was never read: explore it at the "
                                       "table and type its id.")
            return False
        from companion.operations.tiles import tile_to_type
        from companion.ui.explore_tray import ask_tile

        campaign = self.window_.campaign
        due = tile_to_type(campaign, name, str(tile)) if campaign is not None else None
        if due is not None and not ask_tile(self.window_, *due, parent=self):
            return False
        return bool(self.window_.run_operation(move_and_discover, name=name,
                                                to_hex=str(tile)))

    # -- Discovery -------------------------------------------------------------------------------

    def _refresh_discovery(self) -> None:
        from companion.operations.procedure_row import discovery_due

        campaign = self.window_.campaign
        due = discovery_due(campaign) if campaign is not None else None
        self.discovery_box.setVisible(due is not None)
        if due is not None:
            self.discovery_card.show_all_cards()
            aside = due.get("set_aside") or []
            text = (f"{due['character']} arrived in {due['hex']}: draw Discovery cards "
                    "until one can be resolved.")
            if aside:
                text += f" Set aside: {', '.join(aside)}."
            self.discovery_label.setText(text)
            # Settings > Procedures start: the table's card field, or the app's draw.
            from companion import settings as preferences
            from companion.operations.box import deck_is_whole

            # Issue 36 item 4: the app draws only from a deck it holds whole.
            whole = campaign is None or deck_is_whole(campaign.content, "discovery_cards")
            self.draw_button.setVisible(whole)
            app_first = preferences.load().app_draws and whole
            (self.draw_button if app_first else self.discovery_card).setFocus()
            # Below a long list of actions it was out of view: the card due comes first.
            from PySide6.QtCore import QTimer

            QTimer.singleShot(0, lambda: self.panel_scroll.ensureWidgetVisible(
                self.discovery_box))  # once the box has its place in the layout

    def draw_discovery(self, *, typed: bool, card: str | None = None) -> bool:
        """Draw the Discovery due: the card drawn at the table (``card``, as the card
        field hands it on; else what is typed in it), or in the app."""
        from companion.operations.exploration import draw_discovery

        if typed:
            card = card or self.discovery_card.key() or self.discovery_card.text() or None
        else:
            card = None
        if typed and not card:
            self.discovery_label.setText("Type the id of the card you drew, or draw in the app.")
            return False
        rolls: tuple[int, ...] = ()
        if card and self.window_.campaign is not None:
            from companion.ui.day_dialogs import ask_discovery_die

            asked = ask_discovery_die(self, self.window_.campaign, card, "the character")
            if asked is None:
                return False
            rolls = asked
        done = bool(self.window_.run_operation(draw_discovery, card=card, rolls=rolls))
        if done:
            self.discovery_card.clear()
        return done

    # -- a new tray ------------------------------------------------------------------------------

    def toggle_explore(self, shown: bool) -> None:
        self.explore_box.setVisible(shown)
        if shown:
            self._fill_placements(fresh=True)
        else:
            self.scene.clear_ghosts()

    def _fill_placements(self, *, fresh: bool = False) -> None:
        self.explore_box.fill(self.character(), fresh=fresh)
        self.options = self.explore_box.options
        self.scene.show_ghosts([o.cells for o in self.options],
                               chosen=self.placements.currentRow() if self.options else None)

    def _placement_chosen(self, row: int) -> None:
        if 0 <= row < len(self.options):
            self.scene.show_ghosts([o.cells for o in self.options], chosen=row)

    def place_tray(self) -> bool:
        """Explore the chosen new tray with the tiles the table placed (see
        :class:`~companion.ui.explore_tray.ExploreTrayBox`)."""
        done = self.explore_box.place_tray()
        if done:
            self.explore_button.setChecked(False)
        return done
