"""The Crafting dialog (Rulebook: Processing & Crafting > Crafting Items; Using the Codex >
Crafting Entries): lay two of a character's material tokens side by side, turn them,
read the code live, and craft; and the crafting explorer, which lists every code the
materials at hand can make.

What the society knows of a code (item, dead end, untried) comes from the crafting
explorer's records (``operations.crafting.pair_codes`` / ``crafting_explorer``), never
from the Codex, so the dialog spoils nothing. The Codex is read only by the Craft
operation itself. Every pip colour is drawn with its letter (R, B, Y, P, G, Gn, O, S) so the
tokens read without colour vision.

Entry point: :func:`open_crafting`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QApplication,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QFrame,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QSplitter,
    QTabWidget,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from companion.ui.fit import fit_resize
from companion.ui.token_face import TokenFace
from companion.ui.widgets import button, heading, note_label

if TYPE_CHECKING:
    from companion.rules.crafting import MaterialFace
    from companion.ui.host import Host


KNOWN_WORDS = {"item": "known item", "dead_end": "known dead end", "untried": "untried",
               "no_entry": "tried: no entry in the Codex"}
PALETTE_LINES = 6.5
"""The bag's tokens' side, in text lines (the laid tokens are larger)."""
ANY_MATERIALS = "any materials"
"""The explorer's scope over any materials the society knows, held or not."""


def _rotation_text(rotation: int) -> str:
    return "unturned" if rotation % 4 == 0 else f"turned {90 * (rotation % 4)}° clockwise"


class CraftingDialog(QDialog):
    """Lay two tokens and craft; the crafting explorer on a second tab."""

    def __init__(self, window: Host, character: str | None = None) -> None:
        super().__init__(window)
        self.window_ = window
        self.setWindowTitle("Crafting")
        campaign = window.campaign
        assert campaign is not None
        self.content = campaign.content
        self.rotation = {"left": 0, "right": 0}
        self.chosen: dict[str, int | None] = {"left": None, "right": None}
        self.faces: dict[int, MaterialFace] = {}
        self._palette_tiles: list[tuple[int, TokenFace]] = []

        self.character = QComboBox()
        self.character.setAccessibleName("Character")
        for summary in campaign.characters():
            self.character.addItem(summary.name, summary.name)
        if character is not None and self.character.findData(character) >= 0:
            self.character.setCurrentIndex(self.character.findData(character))

        self.tabs = QTabWidget()
        self.tabs.addTab(self._build_lay_tab(), "Lay tokens")
        self.tabs.addTab(self._build_explorer_tab(), "Crafting explorer")

        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        top = QFormLayout()
        top.addRow("Character:", self.character)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(self.tabs, 1)
        layout.addWidget(buttons)
        self.character.currentIndexChanged.connect(self._character_changed)
        window.campaign_changed.connect(self._campaign_changed)
        fit_resize(self, 980, 680)
        self._character_changed()

    # -- building -------------------------------------------------------------------

    def _build_lay_tab(self) -> QWidget:
        page = QWidget()
        palette_box = QGroupBox("Material tokens in the bag (click: lay left, then right)")
        self.palette_layout = QHBoxLayout()
        self.palette_layout.setContentsMargins(4, 4, 4, 4)
        holder = QWidget()
        holder.setLayout(self.palette_layout)
        scroll = QScrollArea()
        scroll.setWidget(holder)
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        scroll.setMinimumHeight(round(self.fontMetrics().height() * (PALETTE_LINES + 1)))
        self.palette_empty = QLabel()
        self.palette_empty.setWordWrap(True)
        box_layout = QVBoxLayout(palette_box)
        box_layout.addWidget(self.palette_empty)
        box_layout.addWidget(scroll)
        self.palette_scroll = scroll

        table = QGroupBox("Laid side by side")
        grid = QGridLayout(table)
        self.pickers: dict[str, QComboBox] = {}
        self.laid: dict[str, TokenFace] = {}
        self.turn_text: dict[str, QLabel] = {}
        self.turn_buttons: dict[str, tuple[QPushButton, QPushButton]] = {}
        for column, side in enumerate(("left", "right")):
            picker = QComboBox()
            picker.setAccessibleName(f"{side.title()} token")
            picker.currentIndexChanged.connect(lambda _=0, s=side: self._picked(s))
            face = TokenFace(12.0, at_least=5.0)
            face.rotate_requested.connect(lambda step, s=side: self.turn(s, step))
            ccw = QPushButton("⟲")
            ccw.setToolTip(f"Turn the {side} token a quarter turn counterclockwise "
                           "(keyboard: Left, Q or [ on the token)")
            ccw.setAccessibleName(f"Turn {side} token counterclockwise")
            cw = QPushButton("⟳")
            cw.setToolTip(f"Turn the {side} token a quarter turn clockwise "
                          "(keyboard: Right, E or ] on the token)")
            cw.setAccessibleName(f"Turn {side} token clockwise")
            for turn in (ccw, cw):
                font = turn.font()
                font.setPointSizeF(max(font.pointSizeF(), 9) * 1.5)
                turn.setFont(font)
            ccw.clicked.connect(lambda _=False, s=side: self.turn(s, -1))
            cw.clicked.connect(lambda _=False, s=side: self.turn(s, 1))
            turned = QLabel()
            # As wide as its longest words, whatever it says now: a text that grew or
            # shrank with each turn moved the buttons under the mouse (issue 27 item 11).
            turned.setMinimumWidth(turned.fontMetrics().horizontalAdvance(
                _rotation_text(3)) + turned.fontMetrics().averageCharWidth())
            turned.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
            turned.setAlignment(Qt.AlignmentFlag.AlignCenter)
            turns = QHBoxLayout()
            turns.addWidget(ccw)
            turns.addWidget(turned, 1)
            turns.addWidget(cw)
            grid.addWidget(QLabel(f"{side.title()} token:"), 0, column)
            grid.addWidget(picker, 1, column)
            grid.addWidget(face, 2, column)
            grid.addLayout(turns, 3, column)
            self.pickers[side], self.laid[side] = picker, face
            self.turn_text[side], self.turn_buttons[side] = turned, (ccw, cw)
        legend = QLabel("Each edge shows its pips (shape × count; a dot where the token "
                        "records no shape) and a badge with the colour letter and count: "
                        "R red, B blue, Y yellow, P purple, G grey, Gn green, O orange, "
                        "S silver. A hollow shape marked 0 is the null pip, which cannot "
                        "begin a code. "
                        "Click a token, then turn it with Left/Right (or Q/E, [ and ]). "
                        "Known / dead end / untried come from what the society has tried "
                        "(the crafting explorer), never from the Codex: the Codex is read "
                        "when you craft.")
        legend.setWordWrap(True)
        grid.setRowStretch(2, 1)  # the tokens take the height there is

        self.code_label = heading("—", 1.8)
        self.code_label.setAccessibleName("Code")
        self.code_label.setWordWrap(True)  # "Red 1441" over "(R1441)" where narrow
        self.code_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.known_label = heading("", 1.2)
        self.known_label.setWordWrap(True)
        self.known_label.setAccessibleName("What the society knows of this code")
        self.known_note = note_label()
        self.reason_label = note_label(name="Why the tokens do not combine")
        self.craft_button = button("Craft", self.craft)
        self.craft_button.setDefault(True)
        self.result_label = note_label(name="Craft result", selectable=True)
        reading = QGroupBox("The code")
        # The reading and the result scroll where a large font needs more lines than
        # the window has; the Craft button stays in view below them.
        words = QWidget()
        read_layout = QVBoxLayout(words)
        read_layout.setContentsMargins(0, 0, 0, 0)
        read_layout.addWidget(self.code_label)
        read_layout.addWidget(self.known_label)
        read_layout.addWidget(self.known_note)
        read_layout.addWidget(self.reason_label)
        self.energy_label = QLabel()
        self.energy_label.setAccessibleName("Energy")
        self.energy_label.setWordWrap(True)
        read_layout.addWidget(self.energy_label)
        read_layout.addWidget(self.result_label)
        read_layout.addStretch(1)
        self.words_scroll = words_scroll = QScrollArea()
        words_scroll.setWidget(words)
        words_scroll.setWidgetResizable(True)
        words_scroll.setFrameShape(QFrame.Shape.NoFrame)
        words_scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        # The code's words never set the panel's width (a code read after each turn of a
        # token resized it, and the next click missed; issue 27 item 11): the two
        # columns share the width 3:2, whatever they say.
        words_scroll.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Expanding)
        reading_layout = QVBoxLayout(reading)
        reading_layout.addWidget(words_scroll, 1)
        reading_layout.addWidget(self.craft_button)

        below = QWidget()
        below_layout = QVBoxLayout(below)
        below_layout.setContentsMargins(0, 0, 0, 0)
        middle = QHBoxLayout()
        middle.addWidget(table, 3)
        middle.addWidget(reading, 2)
        below_layout.addLayout(middle, 1)
        below_layout.addWidget(legend)  # the whole width: fewer lines, taller tokens
        # The bag above, the laid tokens below: the player may drag the line between
        # them; a window smaller than both need scrolls rather than overlaps.
        self.lay_splitter = QSplitter(Qt.Orientation.Vertical)
        self.lay_splitter.setChildrenCollapsible(False)
        self.lay_splitter.addWidget(palette_box)
        self.lay_splitter.addWidget(below)
        self.lay_splitter.setStretchFactor(0, 0)
        self.lay_splitter.setStretchFactor(1, 1)
        layout = QVBoxLayout(page)
        layout.addWidget(self.lay_splitter)
        outer = QScrollArea()
        outer.setWidget(page)
        outer.setWidgetResizable(True)
        outer.setFrameShape(QFrame.Shape.NoFrame)
        return outer

    def _build_explorer_tab(self) -> QWidget:
        page = QWidget()
        self.scope = QComboBox()
        self.scope.setAccessibleName("Whose materials")
        self.scope.currentIndexChanged.connect(self.refresh_explorer)
        self.explorer_summary = QLabel()
        self.explorer_summary.setWordWrap(True)
        self.tree = QTreeWidget()
        self.tree.setColumnCount(4)
        self.tree.setHeaderLabels(["Code", "Known as", "How to lay it", "Tokens held by"])
        self.tree.setAccessibleName("Codes the materials at hand can make")
        self.tree.setAlternatingRowColors(True)
        self.tree.setWordWrap(True)
        self.tree.itemDoubleClicked.connect(self._lay_from_explorer)
        # Any two materials the society knows, held or not (as the community explorer).
        self.material_a = QComboBox()
        self.material_a.setAccessibleName("First material")
        self.material_b = QComboBox()
        self.material_b.setAccessibleName("Second material")
        self._fill_materials()
        for combo in (self.material_a, self.material_b):
            combo.currentIndexChanged.connect(self.refresh_explorer)
        self.pick_row = QWidget()
        pick = QHBoxLayout(self.pick_row)
        pick.setContentsMargins(0, 0, 0, 0)
        pick.addWidget(QLabel("Material:"))
        pick.addWidget(self.material_a, 1)
        pick.addWidget(QLabel("with"))
        pick.addWidget(self.material_b, 1)
        self.pick_row.setVisible(False)
        self.import_button = QPushButton("Import community codes…")
        self.import_button.setToolTip("Read the community's crafting files (one per pip "
                                      "colour) into a pack of your own, unverified")
        self.import_button.clicked.connect(self._import_codes)
        # A token from the box the app doesn't know yet: entered on its picture, and
        # explored as soon as two are known (issue 25 part 6).
        self.token_button = QPushButton("Enter a Material Token…")
        self.token_button.setToolTip("Set a material token's edge pips on its picture; "
                                     "it goes into your own pack")
        self.token_button.clicked.connect(self.enter_token)
        scope_row = QHBoxLayout()
        scope_row.addWidget(self.scope, 1)
        scope_row.addWidget(self.token_button)
        scope_row.addWidget(self.import_button)
        form = QFormLayout()
        form.addRow("Materials of:", scope_row)
        form.addRow("", self.pick_row)
        layout = QVBoxLayout(page)
        layout.addLayout(form)
        layout.addWidget(self.explorer_summary)
        hint = QLabel("Double-click a code to lay it on the first tab, when the character "
                      "chosen above holds both tokens.")
        hint.setWordWrap(True)
        layout.addWidget(hint)
        layout.addWidget(self.tree, 1)
        return page

    # -- state ----------------------------------------------------------------------

    @property
    def name(self) -> str:
        return str(self.character.currentData() or "")

    def _campaign_changed(self, changes: object) -> None:
        if changes is None or getattr(changes, "characters", False):
            self._character_changed(keep=True)
        else:  # a material token entered (its own pack): offered in the explorer at once
            self._fill_materials()

    def _character_changed(self, *_: object, keep: bool = False) -> None:
        campaign = self.window_.campaign
        if campaign is None:
            return
        from companion.operations.crafting import held_materials

        previous = dict(self.chosen) if keep else {"left": None, "right": None}
        held = held_materials(campaign, [self.name]) if self.name else []
        self.faces = {h.index: h.face for h in held}
        if not keep:
            self.rotation = {"left": 0, "right": 0}
        for side, picker in self.pickers.items():
            picker.blockSignals(True)
            picker.clear()
            picker.addItem("— none —", None)
            for index, face in self.faces.items():
                picker.addItem(self._token_title(index, face), index)
            wanted = previous.get(side)
            position = picker.findData(wanted) if wanted is not None else 0
            picker.setCurrentIndex(max(0, position))
            self.chosen[side] = picker.currentData()
            picker.blockSignals(False)
        if not keep and len(self.faces) >= 2:
            first, second = list(self.faces)[:2]
            self.set_tokens(first, second)
        self._fill_palette()
        self._fill_scope()
        self.update_reading()
        if self.name:
            energy = campaign.character_detail(self.name).energy
            cost = self.content.rules.action_costs.craft
            self.energy_label.setText(f"{self.name} has {energy} energy; crafting costs {cost}.")
            self.energy_label.setStyleSheet(
                "" if energy >= cost else "color: #a3231b; font-weight: bold;")

    def _face_name(self, face: MaterialFace) -> str:
        side = "processed" if face.processed else "unprocessed"
        return f"{self._material_name(face)} ({side})"

    def _import_codes(self) -> None:
        from companion.ui.crafting_import_dialog import open_crafting_import

        open_crafting_import(self)

    def _material_name(self, face: MaterialFace) -> str:
        material = self.content.materials.get(face.material)
        return material.name if material is not None else face.material

    def _token_title(self, index: int, face: MaterialFace) -> str:
        material = self.content.materials.get(face.material)
        name = material.name if material is not None else face.material
        side = "processed" if face.processed else "unprocessed"
        return f"#{index + 1} {name} ({side})"

    def _fill_palette(self) -> None:
        for _, tile in self._palette_tiles:
            tile.hide()  # out of sight now, deleted when Qt is back in its loop
            tile.deleteLater()
        self._palette_tiles = []
        while self.palette_layout.count():
            self.palette_layout.takeAt(0)
        for index, face in self.faces.items():
            tile = TokenFace(PALETTE_LINES)
            tile.set_face(face, 0, self._token_title(index, face), self._material_name(face))
            tile.clicked.connect(lambda i=index: self._palette_clicked(i))
            self.palette_layout.addWidget(tile)
            self._palette_tiles.append((index, tile))
        self.palette_layout.addStretch(1)
        self.palette_empty.setVisible(len(self.faces) < 2)
        self.palette_empty.setText(
            f"{self.name or 'Nobody'} holds {len(self.faces)} material token(s): crafting "
            "lays two." if len(self.faces) < 2 else "")
        self._mark_palette()

    def _mark_palette(self) -> None:
        for index, tile in self._palette_tiles:
            tile.selected_as = ("▶ left" if index == self.chosen["left"] else
                                "▶ right" if index == self.chosen["right"] else "")
            tile.update()

    def _palette_clicked(self, index: int) -> None:
        # First click lays the left token, the second the right; a third starts again.
        left, right = self.chosen["left"], self.chosen["right"]
        if left is None:
            self.set_tokens(index, right if right != index else None)
        elif right is None and index != left:
            self.set_tokens(left, index)
        else:
            self.set_tokens(index, None)

    def set_tokens(self, left: int | None, right: int | None) -> None:
        """Lay the bag tokens at ``left`` and ``right`` (bag positions), unturned."""
        for side, index in (("left", left), ("right", right)):
            picker = self.pickers[side]
            picker.setCurrentIndex(max(0, picker.findData(index)) if index is not None else 0)

    def _picked(self, side: str) -> None:
        self.chosen[side] = self.pickers[side].currentData()
        self.rotation[side] = 0
        self.update_reading()

    def turn(self, side: str, step: int) -> None:
        """Turn the ``side`` token a quarter turn (+1 clockwise, -1 counterclockwise)."""
        if self.chosen[side] is None:
            return
        self.rotation[side] = (self.rotation[side] + step) % 4
        self.update_reading()

    def set_rotation(self, side: str, rotation: int) -> None:
        self.rotation[side] = rotation % 4
        self.update_reading()

    def update_reading(self) -> None:
        """Redraw the laid tokens and read the code (or why there is none)."""
        from companion.rules import crafting as crafting_rules
        from companion.rules.errors import IllegalAction

        for side in ("left", "right"):
            index = self.chosen[side]
            face = self.faces.get(index) if index is not None else None
            title = self._token_title(index, face) if face is not None and index is not None \
                else ""
            self.laid[side].set_face(face, self.rotation[side], title,
                                     self._material_name(face) if face else "")
            self.turn_text[side].setText(_rotation_text(self.rotation[side]) if face else "")
            for turn in self.turn_buttons[side]:
                turn.setEnabled(face is not None)
        self._mark_palette()
        left, right = self.chosen["left"], self.chosen["right"]
        self.code = None
        self.known = ""
        if left is None or right is None:
            self._show_reading("—", "", "Choose a left and a right token.")
            return
        if left == right:
            self._show_reading("—", "", "Choose two different tokens.")
            return
        a, b = self.faces[left], self.faces[right]
        try:
            code = crafting_rules.combine(
                a, self.rotation["left"], b, self.rotation["right"],
                lead_only=self.content.rules.crafting.lead_only_colours)
        except IllegalAction as exc:
            self._show_reading("No code", "", f"These tokens cannot combine: {exc}.")
            return
        self.code = code
        self.known = self._knowledge(a, b, str(code))
        self._show_reading(f"{code.label}  ({code})", self.known, "")

    def _knowledge(self, a: MaterialFace, b: MaterialFace, code: str) -> str:
        from companion.operations.crafting import pair_codes

        campaign = self.window_.campaign
        assert campaign is not None
        for _, found, known in pair_codes(campaign, a.material, b.material,
                                          left_processed=a.processed,
                                          right_processed=b.processed):
            if str(found) == code:
                if known.startswith("item: "):
                    item = known[len("item: "):]
                    card = self.content.items.get(item)
                    return f"item: {card.name if card else item}"
                return known
        return "untried"

    def _show_reading(self, code: str, known: str, reason: str) -> None:
        self.code_label.setText(code)
        self.known_label.setText(known)
        self.known_label.setVisible(bool(known))
        notes = {"dead end": "The society has tried this code: a dead end. Crafting it again "
                             "wastes the action" + (" and uses up both tokens."
                                                    if self._dead_end_uses_up() else
                                                    "; the tokens come back."),
                 "untried": "Nobody has tried this code yet: Craft " + (
                     "asks what your Codex says." if self._asks_owner() else
                     "reads the Codex."),
                 KNOWN_WORDS["no_entry"]:
                     "The society has tried this code: the Codex has no entry for it. "
                     "Crafting it again wastes the action" + (
                         " and uses up both tokens."
                         if self.content.rules.crafting.consume_on_no_entry else
                         "; the tokens come back.")}
        note = notes.get(known, "Crafting it again makes another." if known else "")
        self.known_note.setText(note)
        self.known_note.setVisible(bool(note))
        self.reason_label.setText(reason)
        self.reason_label.setVisible(bool(reason))
        self.craft_button.setEnabled(self.code is not None)
        self.craft_button.setToolTip("" if self.code is not None else reason)

    def _asks_owner(self) -> bool:
        from companion.operations.crafting import owners_word_needed

        campaign = self.window_.campaign
        return campaign is not None and self.code is not None and \
            owners_word_needed(campaign, self.code)

    def _dead_end_uses_up(self) -> bool:
        # The society already knows this code is a dead end: its entry may say what
        # happens to the tokens (the community's dead ends return them).
        default = self.content.rules.crafting.consume_on_dead_end
        if self.code is None:
            return default
        entry = self.content.crafting.lookup(self.code.colour, self.code.digits).entry
        return entry.uses_up_materials(default) if entry is not None and entry.dead_end \
            else default

    # -- crafting -------------------------------------------------------------------

    def craft(self) -> None:
        """Craft with the laid tokens (the Codex is read by the operation)."""
        from companion.operations.crafting import craft

        left, right = self.chosen["left"], self.chosen["right"]
        if self.code is None or left is None or right is None:
            return
        laid = {"name": self.name, "left": left, "left_rotation": self.rotation["left"],
                "right": right, "right_rotation": self.rotation["right"]}
        if self._ask_the_codex(laid):
            return
        changes = self.window_.run_operation(craft, **laid)
        if changes is not None:
            self.crafted(changes)

    def _ask_the_codex(self, laid: dict[str, Any]) -> bool:
        """My own box: a code the own pack has not remembered is asked of the table
        first (issue 36 item 1); True when the question is open (or Craft refused)."""
        from companion.operations import Refused
        from companion.operations.crafting import laid_code, owners_word_needed
        from companion.ui.codex_crafting import ask_the_codex

        campaign = self.window_.campaign
        if campaign is None or self.code is None or \
                not owners_word_needed(campaign, self.code):
            return False
        try:  # Craft's own refusals (no energy ...) before the question
            code = laid_code(campaign, **laid)
        except Refused as refusal:
            self.result_label.setText(f"Not crafted: {refusal}")
            return True
        self.codex_question = ask_the_codex(self.window_, code, laid, parent=self)
        self.codex_question.crafted.connect(self.crafted)
        return True

    def crafted(self, changes: Any) -> None:
        """Show a craft's result where the player is looking."""
        self.result_label.setText(changes.summary)
        self._character_changed()
        self.result_label.setText(changes.summary)
        # the outcome where the player is looking, however small the window
        QApplication.processEvents()
        self.words_scroll.ensureWidgetVisible(self.result_label)

    # -- explorer -------------------------------------------------------------------

    def _fill_materials(self) -> None:
        """The explorer's material choices: every material the content knows now (a
        token entered while the dialog is open is offered at once)."""
        campaign = self.window_.campaign
        materials = campaign.content.materials if campaign is not None else \
            self.content.materials
        chosen = (self.material_a.currentData(), self.material_b.currentData())
        for combo in (self.material_a, self.material_b):
            combo.blockSignals(True)
            combo.clear()
        self.material_b.addItem("— every material (itself too) —", None)
        for material in sorted(materials.values(), key=lambda m: m.name):
            self.material_a.addItem(material.name, material.id)
            self.material_b.addItem(material.name, material.id)
        for combo, data in zip((self.material_a, self.material_b), chosen, strict=True):
            combo.setCurrentIndex(max(0, combo.findData(data)))
            combo.blockSignals(False)

    def enter_token(self) -> Any:
        """Content ▸ Enter a Material Token…, from the explorer."""
        from companion.ui.material_token import open_material_token

        self.token_dialog = open_material_token(self.window_)
        return self.token_dialog

    def _fill_scope(self) -> None:
        campaign = self.window_.campaign
        if campaign is None:
            return
        self._fill_materials()
        current = self.scope.currentData()
        self.scope.blockSignals(True)
        self.scope.clear()
        names = [c.name for c in campaign.characters()]
        self.scope.addItem("The whole group", names)
        for name in names:
            self.scope.addItem(name, [name])
        self.scope.addItem("Any materials, held or not", ANY_MATERIALS)
        position = self.scope.findData(current) if current is not None else -1
        if position < 0:
            position = self.scope.findData([self.name]) if self.name else 0
        self.scope.setCurrentIndex(max(0, position))
        self.scope.blockSignals(False)
        self.refresh_explorer()

    def explorer_groups(self) -> dict[str, list[Any]]:
        """The explorer's discoveries by kind ('item', 'dead_end', 'untried', 'no_entry')."""
        from companion.operations.crafting import crafting_explorer

        campaign = self.window_.campaign
        names: Sequence[str] | None = self.scope.currentData()
        # what the society has tried first, then what nobody has
        groups: dict[str, list[Any]] = {"item": [], "dead_end": [], "no_entry": [],
                                        "untried": []}
        if campaign is None:
            return groups
        if self.any_materials:
            from companion.operations.crafting import explore_materials

            first = self.material_a.currentData()
            found = explore_materials(campaign, first, self.material_b.currentData()) \
                if first else []
        else:
            found = crafting_explorer(campaign, names)
        for discovery in found:
            groups[str(discovery.kind)].append(discovery)
        return groups

    @property
    def any_materials(self) -> bool:
        """Whether the explorer is over any materials, held or not."""
        return bool(self.scope.currentData() == ANY_MATERIALS)

    def refresh_explorer(self) -> None:
        from companion.operations.crafting import held_materials

        self.tree.clear()
        self.pick_row.setVisible(self.any_materials)
        groups = self.explorer_groups()
        campaign = self.window_.campaign
        holders: dict[Any, list[str]] = {}
        if campaign is not None:
            scope = None if self.any_materials else self.scope.currentData()
            for held in held_materials(campaign, scope):
                names = holders.setdefault(held.face, [])
                if held.character not in names:
                    names.append(held.character)
        titles = {"item": "Known items", "dead_end": "Known dead ends", "untried": "Untried",
                  "no_entry": "Tried: no entry in the Codex"}
        total = sum(map(len, groups.values()))
        names_of = {m.id: m.name for m in self.content.materials.values()}
        for kind, discoveries in groups.items():
            top = QTreeWidgetItem([f"{titles[kind]} ({len(discoveries)})", "", "", ""])
            font = top.font(0)
            font.setBold(True)
            top.setFont(0, font)
            self.tree.addTopLevelItem(top)
            for discovery in discoveries:
                item = ""
                if discovery.item:
                    card = self.content.items.get(discovery.item)
                    item = card.name if card is not None else discovery.item
                known = f"item: {item}" if kind == "item" else KNOWN_WORDS[kind]
                ways = discovery.orientations
                how = ways[0].described(names_of) + (
                    f" (and {len(ways) - 1} more)" if len(ways) > 1 else "")
                first = ways[0]
                nobody = "nobody" if self.any_materials else "?"
                held_by = "; ".join(
                    f"{self._face_name(f)}: {', '.join(holders.get(f, [])) or nobody}"
                    for f in dict.fromkeys((first.left, first.right)))
                child = QTreeWidgetItem([f"{discovery.code.label} ({discovery.code})", known,
                                         how, held_by])
                child.setToolTip(2, "\n".join(w.described(names_of) for w in ways))
                child.setData(0, Qt.ItemDataRole.UserRole, discovery)
                top.addChild(child)
            top.setExpanded(True)
        for column in (0, 1, 2):
            self.tree.resizeColumnToContents(column)
            self.tree.setColumnWidth(column, self.tree.columnWidth(column) + 16)
        if self.any_materials:
            a = self.material_a.currentText()
            b = self.material_b.currentText() if self.material_b.currentData() else \
                "every material (itself too)"
            self.explorer_summary.setText(
                f"{a} makes {total} code(s) with {b}, either side up, in every "
                "orientation, whether anyone holds the tokens or not. Known items, dead "
                "ends and codes with no entry are what the society has already tried; "
                "nothing here is read from "
                "the Codex." if total else f"{a} makes no code with {b}: no touching "
                "edges match.")
            return
        whose = self.scope.currentText() or "nobody"
        whose = whose[0].lower() + whose[1:] if whose.startswith("The ") else whose
        self.explorer_summary.setText(
            f"{total} code(s) the materials of {whose}"
            " can make, in every orientation (a material with itself where two of its "
            "tokens are held). Known items, dead ends and codes with no entry are what "
            "the society "
            "has already tried; nothing here is read from the Codex."
            if total else f"The materials of {whose} make no code yet: two tokens whose "
            "touching edges match are needed.")

    def lay(self, discovery: Any) -> bool:
        """Lay ``discovery``'s code from the chosen character's bag (any orientation
        whose two faces they hold); False when they do not hold both tokens."""
        for orientation in discovery.orientations:
            left = next((i for i, f in self.faces.items() if f == orientation.left), None)
            right = next((i for i, f in self.faces.items()
                          if f == orientation.right and i != left), None)
            if left is None or right is None:
                continue
            self.set_tokens(left, right)
            self.set_rotation("left", orientation.left_rotation)
            self.set_rotation("right", orientation.right_rotation)
            self.tabs.setCurrentIndex(0)
            return True
        return False

    def _lay_from_explorer(self, item: QTreeWidgetItem, _column: int = 0) -> None:
        discovery = item.data(0, Qt.ItemDataRole.UserRole)
        if discovery is None:
            return
        if not self.lay(discovery):
            self.explorer_summary.setText(
                f"{self.name} does not hold both tokens for {discovery.code.label}: choose "
                "the character who does above, or trade tokens first.")

    def explorer_kind(self, code: str) -> str | None:
        """'item', 'dead_end', 'untried' or 'no_entry' for ``code`` ("R1410"), or None
        (tests)."""
        for kind, discoveries in self.explorer_groups().items():
            if any(str(d.code) == code for d in discoveries):
                return kind
        return None


def open_crafting(window: Host, character: str | None = None) -> CraftingDialog | None:
    """Open the Crafting dialog (modeless) for ``character`` (default: the first)."""
    if window.campaign is None:
        return None
    dialog = CraftingDialog(window, character)
    dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    dialog.show()
    return dialog
