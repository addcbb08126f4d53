"""The behemoth panel: its board, Instinct card, what is known of its habits and secret,
where it is and its target, and the exact odds of its path this coming Night; buttons to
set it up, learn its habits or secret (D18), place its target, activate it and resolve an
encounter. Every change goes through ``Host.run_operation``; the procedures open in
the procedure dialog.

Contract: ``BehemothPanel(window)`` where ``window`` has ``campaign``,
``run_operation(op, **kwargs)`` and the ``campaign_changed`` signal (the main window). It
refreshes on ``Changes`` flagged ``behemoth``, ``procedure``, ``characters``, ``valley`` or
``society`` (and on ``None``: a reload).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QFrame,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QInputDialog,
    QLabel,
    QPushButton,
    QScrollArea,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from companion.ui.widgets import heading

if TYPE_CHECKING:
    from companion.operations.behemoth import BehemothView, SetUpOptions
    from companion.ui.host import Host

APP_DRAWS = "(drawn by the app)"
FLAGS = ("behemoth", "procedure", "characters", "valley", "society")


def _percent(p: Any) -> str:
    return f"{float(p) * 100:.1f}%"


def _why(refusal: str | None) -> str:
    return f"<br><small>({refusal})</small>" if refusal else ""


def _label(text: str = "", name: str = "") -> QLabel:
    label = QLabel(text)
    label.setWordWrap(True)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    if name:
        label.setObjectName(name)
        label.setAccessibleName(name)
    return label


class SetUpDialog(QDialog):
    """Behemoth Setup: the behemoth, the cards dealt and the lair's hex, each typed from
    the table or left to the app."""

    def __init__(self, options: SetUpOptions, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Set Up a Behemoth")
        self.options = options
        form = QFormLayout(self)
        self.behemoth = QComboBox()
        for key, name in options.behemoths.items():
            self.behemoth.addItem(name, key)
        self.instinct = QComboBox()
        self.secret = QComboBox()
        self.lair = QComboBox()
        self.lair.addItem("(picked at random by the app)", None)
        for hex_id in options.lair_hexes:
            self.lair.addItem(hex_id, hex_id)
        self.section = QComboBox()
        self.section.addItems(["a", "b", "c"])
        form.addRow("&Behemoth:", self.behemoth)
        for combo in (self.instinct, self.secret):  # typed by id or name, with completion
            combo.setEditable(True)
            combo.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
            completer = combo.completer()
            if completer is not None:
                completer.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
                completer.setFilterMode(Qt.MatchFlag.MatchContains)
        self.window_ = getattr(parent, "window_", None)
        form.addRow("&Instinct card (face up):", self._with_enter(self.instinct, "instinct_cards"))
        form.addRow("&Secret card (face down):", self._with_enter(self.secret, "secret_cards"))
        form.addRow("&Lair hex (explored, no overlay):", self.lair)
        form.addRow("Lair se&ction:", self.section)
        hint = QLabel("Leave a card to the app to have it deal from the content pack. When "
                      "the app deals both cards it shuffles the Reaction deck too; otherwise "
                      "the table draws its Reaction cards and types them.")
        hint.setWordWrap(True)
        form.addRow(hint)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                        | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        form.addRow(self.buttons)
        self.behemoth.currentIndexChanged.connect(self._fill_cards)
        self._fill_cards()

    def _with_enter(self, combo: QComboBox, kind: str) -> QWidget:
        """The card's list, and "Enter a card…" for one the content does not know."""
        if self.window_ is None:
            return combo
        row = QWidget()
        line = QHBoxLayout(row)
        line.setContentsMargins(0, 0, 0, 0)
        line.addWidget(combo, 1)
        enter = QPushButton("Enter a card…")
        enter.setObjectName(f"enter_{kind}")
        enter.setAutoDefault(False)
        enter.clicked.connect(lambda _=False: self._enter(combo, kind))
        line.addWidget(enter)
        return row

    def _enter(self, combo: QComboBox, kind: str) -> QDialog | None:
        from companion.operations.behemoth import set_up_options
        from companion.ui.card_field import enter_card_form

        window = self.window_
        assert window is not None  # the button is there only with a window

        def saved(card: str) -> None:
            self.options = set_up_options(window.campaign)
            self._fill_cards()
            combo.setCurrentIndex(max(combo.findData(card), 0))

        return enter_card_form(window, kind, parent=self, on_saved=saved,
                               initial={"behemoth": self.behemoth.currentData()})

    @staticmethod
    def _card(combo: QComboBox) -> Any:
        """The card picked, or the id or name typed (None: the app deals)."""
        index = combo.currentIndex()
        text = combo.currentText().strip()
        if index >= 0 and text == combo.itemText(index):
            return combo.itemData(index)
        return text or None

    def _fill_cards(self) -> None:
        key = self.behemoth.currentData()
        self.instinct.clear()
        self.secret.clear()
        self.instinct.addItem(APP_DRAWS, None)
        self.secret.addItem(APP_DRAWS, None)
        for card, name in self.options.instincts.get(key, ()):
            self.instinct.addItem(f"{card} {name}", card)
        for card in self.options.secrets.get(key, ()):
            self.secret.addItem(card, card)

    def values(self) -> dict[str, Any]:
        """The arguments of ``set_up_behemoth``."""
        return {"behemoth": self.behemoth.currentData(),
                "instinct": self._card(self.instinct), "secret": self._card(self.secret),
                "lair_hex": self.lair.currentData(), "lair_section": self.section.currentText()}


class BehemothPanel(QWidget):
    """The behemoth in play and its next activation (a dock or a tab of the main window)."""

    scrolls_itself = True
    """Its board scrolls above its buttons (the main window adds no scroll area)."""

    def __init__(self, window: Host) -> None:
        super().__init__()
        self.window_ = window
        self.view: BehemothView | None = None
        # The board and its odds scroll; the buttons below them stay in view (they were
        # cut at the window's edge, or below the fold at the larger text; issue 27).
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        body = QWidget()
        layout = QVBoxLayout(body)
        scroller = QScrollArea()
        scroller.setObjectName("behemothScroller")
        scroller.setWidgetResizable(True)
        scroller.setFrameShape(QFrame.Shape.NoFrame)
        scroller.setWidget(body)
        outer.addWidget(scroller, 1)
        self.title = heading("No behemoth is in play", 1.5)
        self.title.setObjectName("behemothTitle")
        layout.addWidget(self.title)
        self.where = _label(name="behemothWhere")
        layout.addWidget(self.where)

        columns = QHBoxLayout()
        left = QVBoxLayout()
        board = QGroupBox("Board")
        grid = QGridLayout(board)
        self.abilities = _label(name="Abilities")
        self.movement = _label(name="Movement values")
        self.text = _label(name="Board text")
        self.text.setStyleSheet("font-style: italic;")
        grid.addWidget(QLabel("Abilities:"), 0, 0, Qt.AlignmentFlag.AlignTop)
        grid.addWidget(self.abilities, 0, 1)
        grid.addWidget(QLabel("Movement:"), 1, 0, Qt.AlignmentFlag.AlignTop)
        grid.addWidget(self.movement, 1, 1)
        grid.addWidget(self.text, 2, 0, 1, 2)
        grid.setColumnStretch(1, 1)
        left.addWidget(board)

        instinct = QGroupBox("Instinct card (face up)")
        instinct_layout = QVBoxLayout(instinct)
        self.instinct = _label(name="Instinct card")
        instinct_layout.addWidget(self.instinct)
        left.addWidget(instinct)

        known = QGroupBox("Habits and secret")
        known_layout = QGridLayout(known)
        self.habits = _label(name="Habits")
        self.secret = _label(name="Secret")
        self.learn_habits_button = QPushButton("Learn &Habits")
        self.learn_secret_button = QPushButton("Learn Se&cret")
        self.learn_habits_button.clicked.connect(lambda: self.learn("habits"))
        self.learn_secret_button.clicked.connect(lambda: self.learn("secret"))
        known_layout.addWidget(self.habits, 0, 0)
        known_layout.addWidget(self.learn_habits_button, 0, 1)
        known_layout.addWidget(self.secret, 1, 0)
        known_layout.addWidget(self.learn_secret_button, 1, 1)
        known_layout.setColumnStretch(0, 1)
        left.addWidget(known)
        self.deck = _label(name="Reaction deck")
        left.addWidget(self.deck)
        left.addStretch(1)
        columns.addLayout(left, 5)

        right = QVBoxLayout()
        preview = QGroupBox("This coming Night: where it ends its activation")
        preview_layout = QVBoxLayout(preview)
        self.target = _label(name="Target")
        preview_layout.addWidget(self.target)
        self.end_table = QTableWidget(0, 2)
        self.end_table.setObjectName("endHexTable")
        self.end_table.setHorizontalHeaderLabels(["Hex", "Chance"])
        self.reach_table = QTableWidget(0, 4)
        self.reach_table.setObjectName("reachTable")
        self.reach_table.setHorizontalHeaderLabels(["Character", "Hex", "Reaches", "Encounter"])
        for table in (self.end_table, self.reach_table):
            table.verticalHeader().hide()
            table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
            table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
            table.setSelectionMode(QTableWidget.SelectionMode.NoSelection)
            table.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        preview_layout.addWidget(self.end_table)
        preview_layout.addWidget(_label("The chance it reaches each character (enters "
                                        "their hex or ends there), and meets them by its "
                                        "card:"))
        preview_layout.addWidget(self.reach_table)
        right.addWidget(preview)
        right.addStretch(1)
        columns.addLayout(right, 4)
        layout.addLayout(columns, 1)

        self.progress = _label(name="Procedure in progress")
        layout.addWidget(self.progress)
        buttons = QHBoxLayout()
        self.set_up_button = QPushButton("&Set Up…")
        self.target_button = QPushButton("Place &Target…")
        self.activate_button = QPushButton("&Activate")
        self.encounter_button = QPushButton("Resolve &Encounter")
        self.set_up_button.clicked.connect(lambda: self.set_up())
        self.target_button.clicked.connect(lambda: self.place_target())
        self.activate_button.clicked.connect(lambda: self.activate())
        self.encounter_button.clicked.connect(lambda: self.resolve_encounter())
        for button in (self.set_up_button, self.target_button, self.activate_button,
                       self.encounter_button):
            buttons.addWidget(button)
        buttons.addStretch(1)
        buttons.setContentsMargins(9, 0, 9, 9)
        outer.addLayout(buttons)
        window.campaign_changed.connect(self.on_changed)
        self.refresh()

    # -- refreshing -------------------------------------------------------------------

    def on_changed(self, changes: object) -> None:
        """Refresh for ``changes`` (now, or when its tab is next shown)."""
        from companion.ui.views import relevant

        # Learning habits and the secret costs lore (D18): the panel shows lore too.
        if relevant(changes, FLAGS) and not self.window_.defer(self, changes):
            self.refresh()

    def refresh(self) -> None:
        """Redraw from the open campaign."""
        from companion.operations import Refused
        from companion.operations.behemoth import behemoth_view

        campaign = self.window_.campaign
        view = None
        if campaign is not None:
            try:
                view = behemoth_view(campaign)
            except Refused as refusal:
                self.where.setText(str(refusal))
        self.view = view
        self._enable_set_up(campaign)
        for button in (self.target_button, self.activate_button, self.encounter_button,
                       self.learn_habits_button, self.learn_secret_button):
            button.setEnabled(view is not None)
        if view is None:
            self._show_none()
            return
        self._show(view)

    def _enable_set_up(self, campaign: Any) -> None:
        from companion.operations.behemoth import set_up_options

        left = set_up_options(campaign).behemoths if campaign is not None else {}
        self.set_up_button.setEnabled(bool(left))
        self.set_up_button.setToolTip(
            "Behemoth Setup: deal its cards and place its lair" if left else
            "Every behemoth of the content pack has been set up.")

    def _show_none(self) -> None:
        self.title.setText("No behemoth is in play")
        self.where.setText("A challenge or an event says when to set one up (Rulebook: "
                           "Behemoths > Behemoth Setup).")
        for label in (self.abilities, self.movement, self.text, self.instinct, self.habits,
                      self.secret, self.deck, self.target, self.progress):
            label.clear()
        self.end_table.setRowCount(0)
        self.reach_table.setRowCount(0)
        self.learn_habits_button.setToolTip("")
        self.learn_secret_button.setToolTip("")

    def _show(self, view: BehemothView) -> None:
        self.title.setText(view.name)
        self.where.setText(f"In <b>{view.hex}</b>; its lair in {view.lair[0]} "
                           f"(section {view.lair[1]}).")
        boosts = view.boosts
        self.abilities.setText("  ".join(
            f"{a.capitalize()} <b>{v}</b>" + (f" (+{'+'.join(map(str, boosts[a]))})"
                                             if a in boosts else "")
            for a, v in view.abilities.items()))
        self.movement.setText(", ".join(f"{f} {v}" for f, v in sorted(
            view.movement.items(), key=lambda kv: (kv[1], kv[0]))))
        self.text.setText(view.text)
        self.instinct.setText(
            f"<b>{view.instinct} {view.instinct_name}</b><br>Target: {view.instinct_target}"
            f"<br>Movement: {view.instinct_movement}<br>Encounters: {view.instinct_encounter}"
            + (f"<br>{view.instinct_text}" if view.instinct_text else ""))
        self.habits.setText(f"Habits: learned, read outcome <b>{view.habits}</b>"
                            if view.habits_learned else "Habits: not learned"
                            + _why(view.learn_habits_refusal))
        if view.secret is not None:
            self.secret.setText(f"Secret: <b>{view.secret['id']} {view.secret['name']}</b> "
                                f"({view.secret['omen']}): {view.secret['text']}")
        else:
            self.secret.setText("Secret: face down" + _why(view.learn_secret_refusal))
        self._learn_button(self.learn_habits_button, view.habits_learned,
                           view.learn_habits_refusal, "habits")
        self._learn_button(self.learn_secret_button, view.secret_learned,
                           view.learn_secret_refusal, "secret")
        order = "" if view.reaction_ordered else " (shuffled; the next card is any of them)"
        self.deck.setText(f"Reaction deck: {view.reaction_deck} cards{order}")
        target = view.target or "none"
        where = f" — hex {view.target_hex}" if view.target_hex and view.target and \
            not view.target.startswith("hex") else ""
        self.target.setText(f"Target token: <b>{target}</b>{where}")
        self.end_table.setRowCount(len(view.end_hexes))
        for row, (hex_id, p) in enumerate(view.end_hexes.items()):
            self._cell(self.end_table, row, 0, hex_id)
            exact = f"  ({p})" if 0 < float(p) < 1 else ""  # not "100.0% (1)"
            self._cell(self.end_table, row, 1, f"{_percent(p)}{exact}")
        self.reach_table.setRowCount(len(view.reach))
        for row, (name, p) in enumerate(view.reach.items()):
            self._cell(self.reach_table, row, 0, name)
            self._cell(self.reach_table, row, 1, view.characters.get(name) or "—")
            self._cell(self.reach_table, row, 2, _percent(p))
            self._cell(self.reach_table, row, 3, _percent(view.encounter.get(name, 0)))
        self._fit(self.end_table)
        self._fit(self.reach_table)
        busy = view.procedure is not None
        if view.procedure is not None:
            then = (f"; then {', '.join(view.pending_encounters)}"
                    if view.pending_encounters else "")
            self.progress.setText(f"In progress: {view.procedure.replace('_', ' ')}{then}. "
                                  "Resolve it to go on.")
        else:
            self.progress.clear()
        self.activate_button.setEnabled(not busy)

    @staticmethod
    def _fit(table: QTableWidget) -> None:
        # As tall as its rows: the preview reads at a glance, with no empty grid below.
        height = table.horizontalHeader().height() + 2 * table.frameWidth()
        height += sum(table.rowHeight(r) for r in range(table.rowCount()))
        table.setFixedHeight(height)

    @staticmethod
    def _cell(table: QTableWidget, row: int, column: int, text: str) -> None:
        item = QTableWidgetItem(text)
        table.setItem(row, column, item)

    @staticmethod
    def _learn_button(button: QPushButton, learned: bool, refusal: str | None,
                      what: str) -> None:
        button.setEnabled(not learned and refusal is None)
        if learned:
            button.setToolTip(f"Its {what} {'are' if what == 'habits' else 'is'} learned.")
        else:
            button.setToolTip(refusal[0].upper() + refusal[1:] + "." if refusal else
                              f"Spend lore to learn its {what} (at the end of a Night).")

    # -- actions ----------------------------------------------------------------------

    def _run(self, operation: Any, **kwargs: Any) -> bool:
        return bool(self.window_.run_operation(operation, **kwargs))

    def set_up(self, values: dict[str, Any] | None = None) -> bool:
        """Set Up…: ask with :class:`SetUpDialog` (or use ``values``), then set it up."""
        from companion.operations.behemoth import set_up_behemoth, set_up_options

        campaign = self.window_.campaign
        if campaign is None:
            return False
        if values is None:
            dialog = SetUpDialog(set_up_options(campaign), self)
            if not dialog.exec():
                return False
            values = dialog.values()
        return self._run(set_up_behemoth, **values)

    def learn(self, what: str) -> bool:
        """Learn Habits / Learn Secret."""
        from companion.operations import behemoth

        return self._run(behemoth.learn_habits if what == "habits" else behemoth.learn_secret)

    def place_target(self, target: str | None = "") -> bool:
        """Place Target…: on a character or a hex, as the Instinct card says."""
        from companion.operations.behemoth import set_target

        if target == "" and self.view is not None:
            choices = [*self.view.characters, *self._hexes(), "none"]
            picked, ok = QInputDialog.getItem(
                self, "Place the Target Token",
                f"{self.view.instinct_name}: target {self.view.instinct_target}.", choices,
                0, False)
            if not ok:
                return False
            target = picked
        return self._run(set_target, target=None if target in (None, "none") else target)

    def _hexes(self) -> list[str]:
        campaign = self.window_.campaign
        if campaign is None:
            return []
        return sorted(h.tile_id for tray in campaign.valley() for h in tray.hexes
                      if h.explored and h.tile_id != "?")

    def activate(self) -> bool:
        """Activate: start the activation and open the procedure dialog."""
        from companion.operations.behemoth import start_activation

        if not self._run(start_activation):
            return False
        self._open_procedure()
        return True

    def resolve_encounter(self, name: str | None = None) -> bool:
        """Resolve Encounter: open the encounter in progress, or start one for ``name``
        (asked for when not given)."""
        from companion.operations.behemoth import start_encounter

        if self.view is not None and self.view.procedure is not None:
            self._open_procedure()
            return True
        if name is None:
            if self.view is None:
                return False
            names = list(self.view.characters)
            picked, ok = QInputDialog.getItem(self, "Encounter", "Who encounters it?",
                                              names, 0, False)
            if not ok:
                return False
            name = picked
        if not self._run(start_encounter, name=name):
            return False
        self._open_procedure()
        return True

    def _open_procedure(self) -> Any:
        try:
            from companion.ui.procedure_dialog import open_procedure
        except ImportError:  # pragma: no cover (the dialog ships with the app)
            return None
        from companion.operations import procedures

        campaign = self.window_.campaign
        if campaign is None or procedures.in_progress(campaign) is None:
            return None
        return open_procedure(self.window_)


__all__ = ["BehemothPanel", "SetUpDialog", "behemoth_overlay_data"]


def behemoth_overlay_data(campaign: Any) -> dict[str, Any] | None:
    """For the map view: see :func:`companion.operations.behemoth.behemoth_overlay_data`."""
    from companion.operations.behemoth import behemoth_overlay_data as data

    return data(campaign)
