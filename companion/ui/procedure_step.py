"""One step of a procedure as the procedure dialog and the Night wizard show it
(DESIGN.md > Procedures are state machines; Two ways to play).

Contracts:

- :class:`StepWidget` shows one :class:`~companion.rules.procedure.Step` and emits
  ``answered(choice)``: a player's option key, a tuple of dice typed at the table, a card
  or chip key typed or picked, or ``None`` ("roll / draw in the app").
- :class:`StepAnswering` (mixed into both dialogs) answers each step with
  ``window.run_operation(procedures.advance, choice=...)`` and redraws the dialog when
  ``window.campaign_changed`` says the procedure changed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QEvent, Qt, QTimer, Signal
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QPushButton,
    QScrollArea,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from companion.rules.procedure import Decider, Step
from companion.ui.fit import fit_resize
from companion.ui.odds_panel import OddsPanel
from companion.ui.procedure_panels import scaled_font, use_font

if TYPE_CHECKING:
    from PySide6.QtGui import QFont

    from companion.ui.host import Host

BUTTONS_UP_TO = 6
"""A PLAYER step with more options than this shows a list and a Choose button."""

TABLE_FONT = 1.25
"""The dialogs' text size, relative to the system font (readable across a table)."""

def key_numbers(options: Sequence[str]) -> list[int]:
    """The number key of each option: the option's own number when every option has one
    of its own ("4", or "4/red": fishing's strike location 4 keeps key 4 when locations 1
    and 3 are full; issue 27 item 5), else 1, 2, 3... in order."""
    own = [o.split("/", 1)[0] for o in options]  # "4/red": strike location 4's red line
    if own and all(o.isdigit() and 1 <= int(o) <= 9 for o in own) and \
            len(set(own)) == len(own):
        return [int(o) for o in own]
    return list(range(1, len(options) + 1))


def _escape(text: str) -> str:
    """Button text shown literally (a '&' is not a mnemonic)."""
    return text.replace("&", "&&")


def _clear(layout: Any) -> None:
    while layout.count():
        item = layout.takeAt(0)
        widget = item.widget()
        if widget is not None:
            widget.hide()
            widget.deleteLater()
        elif item.layout() is not None:
            _clear(item.layout())


def scrolled(panel: QWidget) -> QScrollArea:
    """``panel`` in a scroll area: its tables keep their height (never printed over each
    other) on a laptop's screen or with a large font."""
    area = QScrollArea()
    area.setWidgetResizable(True)
    area.setFrameShape(QFrame.Shape.NoFrame)
    area.setWidget(panel)
    return area


def log_list(name: str) -> QListWidget:
    """A list of the procedure's lines (the steps taken, what happened): read, wrapped,
    and no stop for the Tab key."""
    lines = QListWidget()
    lines.setAccessibleName(name)
    lines.setWordWrap(True)
    lines.setFocusPolicy(Qt.FocusPolicy.NoFocus)
    return lines


class StepWidget(QWidget):
    """The input for one step: buttons, a list, dice, or a card/chip picker."""

    answered = Signal(object)
    """The answer: an option key, a tuple of dice, or None (the app rolls or draws)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.step: Step | None = None
        self.option_buttons: list[QPushButton] = []
        self.options_list: QListWidget | None = None
        self.choose_button: QPushButton | None = None
        self.dice: list[QSpinBox] = []
        self.use_button: QPushButton | None = None
        self.app_button: QPushButton | None = None
        self.card_combo: QComboBox | None = None
        self.card_field: Any = None
        """The card input (``companion.ui.card_field.CardField``) on a card or chip step."""
        self.card_context: tuple[Host | None, str] = (None, "")
        """(the main window, the procedure's kind): lets an unknown card be entered."""
        self.actor: str | None = None
        """The character doing the activity (whom recorded effects fall on)."""
        self.deck = ""
        """The deck a card step draws from ("forest"), for the unknown card's message."""
        self.table_button: QPushButton | None = None
        """"We resolved this at the table…" (a step of an activity or an encounter)."""
        self._keys: dict[str, str] = {}
        self.app_first = False
        """The "in the app" button comes first (Settings > Procedures start)."""
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.prompt = QLabel()
        self.prompt.setWordWrap(True)
        self.prompt.setObjectName("stepPrompt")
        self.prompt.setFont(scaled_font(self.font(), 1.35, bold=True))
        layout.addWidget(self.prompt)
        self.body = QVBoxLayout()
        layout.addLayout(self.body)

    def changeEvent(self, event: Any) -> None:  # noqa: N802 (Qt's name)
        super().changeEvent(event)
        if event.type() == event.Type.FontChange:
            self.prompt.setFont(scaled_font(self.font(), 1.35, bold=True))

    def set_step(self, step: Step | None, *, cards: Sequence[str] = (),
                 card_labels: Mapping[str, str] | None = None) -> None:
        """Show ``step``; ``cards`` are further card ids the table may have drawn (the
        Night deck beyond its top card), labelled by ``card_labels``."""
        from companion import settings as preferences

        self.step = step
        self.app_first = preferences.load().app_draws  # read each step: changed live too
        _clear(self.body)
        self.option_buttons, self.dice, self._keys = [], [], {}
        self.options_list = self.choose_button = self.use_button = None
        self.app_button = self.card_combo = self.card_field = self.table_button = None
        if step is None:
            self.prompt.setText("")
            return
        self.prompt.setText(step.prompt)
        if step.decider is Decider.PLAYER:
            self._player(step)
        elif step.decider is Decider.DICE:
            self._dice(step)
        else:
            self._card(step, cards, card_labels or {})
        self._resolved_at_table(step)
        use_font(self, self.font())
        for button in self.option_buttons:
            button.setMinimumHeight(round(button.fontMetrics().height() * 1.7))
        # A layout shows new children only later (queued); show them now so the first
        # input can take the focus at once.
        for child in self.findChildren(QWidget, options=Qt.FindChildOption.FindDirectChildrenOnly):
            if not child.testAttribute(Qt.WidgetAttribute.WA_WState_ExplicitShowHide):
                child.show()
        self._focus_first()

    # -- one builder per decider ---------------------------------------------------

    def _player(self, step: Step) -> None:
        if len(step.options) <= BUTTONS_UP_TO:
            # More than three choices go in two columns: five full-width buttons left
            # the layout above them a strip with a larger text (issue 27 item 13).
            grid = QGridLayout()
            grid.setContentsMargins(0, 0, 0, 0)
            columns = 2 if len(step.options) > 3 else 1
            rows = -(-len(step.options) // columns)
            self.body.addLayout(grid)
            for place, (number, option) in enumerate(zip(key_numbers(step.options),
                                                         step.options, strict=True)):
                label = step.labels.get(option, option)
                button = QPushButton(f"&{number}   {_escape(label)}")
                button.setToolTip(label)
                button.setAccessibleName(label)
                button.setStyleSheet("text-align: left; padding: 6px 12px;")
                button.setAutoDefault(False)
                button.clicked.connect(lambda _=False, o=option: self.answered.emit(o))
                if number <= 9:  # a bare digit too: no text field is shown on these steps
                    key = QShortcut(QKeySequence(str(number)), button)
                    key.activated.connect(button.click)
                grid.addWidget(button, place % rows, place // rows)  # down, then across
                self.option_buttons.append(button)
            return
        self.options_list = QListWidget()
        self.options_list.setAccessibleName(step.prompt)
        for option in step.options:
            self.options_list.addItem(step.labels.get(option, option))
        self.options_list.setCurrentRow(0)
        self.options_list.installEventFilter(self)  # Enter chooses (and nothing else)
        self.options_list.itemDoubleClicked.connect(lambda _item: self._choose_from_list())
        self.body.addWidget(self.options_list)
        self.choose_button = QPushButton("&Choose")
        self.choose_button.clicked.connect(self._choose_from_list)
        row = QHBoxLayout()
        row.addStretch(1)
        row.addWidget(self.choose_button)
        self.body.addLayout(row)

    def _choose_from_list(self) -> None:
        assert self.step is not None and self.options_list is not None
        row = self.options_list.currentRow()
        if 0 <= row < len(self.step.options):
            self.answered.emit(self.step.options[row])

    def _in_app_button(self, text: str) -> QHBoxLayout:
        """The "roll / draw in the app" row (added by :meth:`_arrange`)."""
        self.app_button = QPushButton(text)
        self.app_button.setObjectName("inAppButton")
        self.app_button.clicked.connect(lambda: self.answered.emit(None))
        row = QHBoxLayout()
        row.addWidget(self.app_button)
        row.addStretch(1)
        return row

    def _arrange(self, app_row: QHBoxLayout, table: QVBoxLayout) -> None:
        """The app's row and the table's input, in the order the user's preference
        (Settings > Procedures start) asks for, with a rule between them."""
        rule = QFrame()
        rule.setFrameShape(QFrame.Shape.HLine)
        rule.setFrameShadow(QFrame.Shadow.Sunken)
        if self.app_first:
            self.body.addLayout(app_row)
            self.body.addWidget(rule)
            self.body.addLayout(table)
        else:
            self.body.addLayout(table)
            self.body.addWidget(rule)
            self.body.addLayout(app_row)

    def _dice(self, step: Step) -> None:
        count = max(1, step.count)
        app_row = self._in_app_button("&Roll in the app" if count > 1
                                      else "&Roll the die in the app")
        table = QVBoxLayout()
        table.addWidget(QLabel("Type the dice rolled at the table:" if not self.app_first
                               else "Or type the dice rolled at the table:"))
        row = QHBoxLayout()
        for number in range(count):
            spin = QSpinBox()
            spin.setRange(1, 6)
            spin.setValue(1)
            spin.setAccessibleName(f"Die {number + 1}")
            spin.setMinimumWidth(spin.fontMetrics().horizontalAdvance("0") * 6)
            spin.setAlignment(Qt.AlignmentFlag.AlignCenter)
            spin.installEventFilter(self)  # Enter uses the dice (and nothing else)
            row.addWidget(spin)
            self.dice.append(spin)
        self.use_button = QPushButton("&Use these dice" if count > 1 else "&Use this die")
        self.use_button.clicked.connect(self._use_dice)
        row.addSpacing(12)
        row.addWidget(self.use_button)
        row.addStretch(1)
        table.addLayout(row)
        self._arrange(app_row, table)

    def _use_dice(self) -> None:
        self.answered.emit(tuple(s.value() for s in self.dice))

    def eventFilter(self, watched: Any, event: Any) -> bool:  # noqa: N802 (Qt's name)
        """Enter in a die or the options list answers this step and is used up here:
        passed on, the dialog would press the next step's focused button with it."""
        if event.type() == QEvent.Type.KeyPress and \
                event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and \
                not event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier:
            if watched in self.dice:
                self._use_dice()
                return True
            if watched is self.options_list:
                self._choose_from_list()
                return True
        if event.type() == QEvent.Type.FocusIn and watched in self.dice:
            QTimer.singleShot(0, watched.selectAll)  # a typed die replaces the shown one
        return super().eventFilter(watched, event)

    def _card(self, step: Step, cards: Sequence[str], card_labels: Mapping[str, str]) -> None:
        from companion.operations.cards import card_kind
        from companion.ui.card_field import CardField

        chip = step.decider is Decider.CHIP
        window, procedure_kind = self.card_context
        # Issue 36 item 4: drawing in the app only from a deck the app holds whole.
        held = chip or _holds_whole(window, card_kind(procedure_kind, step))
        app_row = self._in_app_button("&Draw a chip in the app" if chip
                                      else "&Draw in the app") if held else None
        table = QVBoxLayout()
        prefix = "Or pick" if self.app_first and held else "Pick"
        table.addWidget(QLabel(
            f"{prefix} (or type) the chip pulled at the table:" if chip
            else f"{prefix} (or type) the card drawn at the table:" if held
            else "Pick (or type) the card drawn from the box: the app holds only the "
                 "cards you typed, not the box's whole deck."))
        field = CardField(window, card_kind(procedure_kind, step), chip=chip)
        field.set_options(step.options, step.labels, cards, card_labels)
        field.actor, field.deck = self.actor, self.deck
        # CardField's own line edit answers Return once (no event filter here: one on
        # that line edit crashed the app at exit).
        field.chosen.connect(self.answered.emit)
        self.card_field = field
        self.card_combo = field.combo
        self.use_button = field.use_button
        table.addWidget(field)
        if app_row is None:
            self.body.addLayout(table)
        else:
            self._arrange(app_row, table)

    def _resolved_at_table(self, step: Step) -> None:
        """"We resolved this at the table…" under a step of an activity or an encounter
        (issue 25 part 3): the table resolved it with the real components; what it did
        is typed in one line and the activity ends with it. A card step has the card
        field's "Just record what happened…" instead; the Night's other steps never
        need a card, so they are answered here."""
        window, procedure_kind = self.card_context
        if window is None or not procedure_kind or procedure_kind == "night" or \
                step.decider in (Decider.CARD, Decider.CHIP):
            return
        self.table_button = QPushButton("We resolved this at the &table…")
        self.table_button.setObjectName("resolvedAtTable")
        self.table_button.setAutoDefault(False)
        self.table_button.setToolTip("The table played this step with the real components: "
                                     "type what happened; the activity ends with it")
        self.table_button.clicked.connect(self.resolve_at_table)
        row = QHBoxLayout()
        row.addStretch(1)
        row.addWidget(self.table_button)
        self.body.addLayout(row)

    def resolve_at_table(self) -> QDialog | None:
        """Open "We resolved this at the table" for the step shown."""
        from companion.operations.cards import PROCEDURE_CARD_KINDS
        from companion.ui.table_record import record_at_table

        window, procedure_kind = self.card_context
        if window is None or self.step is None:
            return None
        return record_at_table(window, kind=PROCEDURE_CARD_KINDS.get(procedure_kind, ""),
                               actor=self.actor, step_prompt=self.step.prompt,
                               parent=self.window())

    def _focus_first(self) -> None:
        table_first: QWidget | None = self.card_combo or (self.dice[0] if self.dice else None)
        first = (self.app_button if self.app_first else table_first) or table_first \
            or self.app_button or (self.option_buttons[0] if self.option_buttons else None) \
            or self.options_list
        if first is not None:
            first.setFocus()
            if isinstance(first, QSpinBox):
                first.selectAll()  # the die typed replaces the one shown


class StepAnswering:
    """What the procedure dialog and the Night wizard share: how they start, the framed
    step and the Close row they show, answering a step through the main window, and
    redrawing when an operation changed the procedure."""

    # The dialog that mixes this in is a QDialog (isVisible) with redraw(view) and
    # _show_finished(text) of its own.
    window_: Host
    last_summary: str | None
    step_widget: StepWidget
    odds_panel: OddsPanel
    summary: QLabel
    outcomes: Any
    close_button: QPushButton
    finished_: bool
    """The Codex outcomes a result names (``companion.ui.codex_outcome.OutcomeLinks``)."""
    finished_procedure: Any = None
    """The :class:`~companion.operations.procedures.FinishedProcedure` of the step that
    ended the procedure (None until then, or after any other change)."""

    if TYPE_CHECKING:  # what the QDialog that mixes this in provides
        def isVisible(self) -> bool: ...  # noqa: N802 (Qt's name)
        def font(self) -> QFont: ...
        def close(self) -> bool: ...
        def redraw(self, view: Any) -> None: ...
        def _show_finished(self, text: str) -> None: ...

    def start_dialog(self, window: Host, title: str) -> None:
        """What both dialogs are at first: modeless (the table plays on), titled, in the
        table's larger text, nothing finished yet."""
        assert isinstance(self, QDialog)  # the QDialog that mixes this in
        self.window_ = window
        self.setModal(False)
        self.setWindowTitle(title)
        self.setFont(scaled_font(self.font(), TABLE_FONT))
        self.last_summary = None
        self.finished_ = False

    def step_frame(self, window: Host, step_stretch: int, odds_stretch: int) -> QFrame:
        """The framed step both dialogs show: its input with the odds of its choices
        beside it, then the summary shown once the procedure ends and the Codex outcomes
        ("Read outcome N…") a result names."""
        from companion.ui.codex_outcome import OutcomeLinks

        frame = QFrame()
        frame.setFrameShape(QFrame.Shape.StyledPanel)
        frame_layout = QVBoxLayout(frame)
        self.step_widget = StepWidget()
        self.step_widget.answered.connect(self.answer)
        # The step's input, and the odds of its choices beside it.
        step_row = QHBoxLayout()
        step_row.addWidget(self.step_widget, step_stretch, Qt.AlignmentFlag.AlignTop)
        self.odds_panel = OddsPanel()
        self.odds_panel.suggested.connect(self.answer)
        step_row.addWidget(self.odds_panel, odds_stretch)
        frame_layout.addLayout(step_row)
        self.summary = QLabel()
        self.summary.setObjectName("finalSummary")
        self.summary.setWordWrap(True)
        self.summary.setFont(scaled_font(self.font(), 1.15, bold=True))
        self.summary.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        frame_layout.addWidget(self.summary)
        self.outcomes = OutcomeLinks(window)  # "Read outcome N…" a result names
        frame_layout.addWidget(self.outcomes)
        return frame

    def close_row(self, *before: QPushButton) -> QHBoxLayout:
        """The dialog's bottom row: ``before`` (a Continue button), then Close."""
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        for button in before:
            buttons.addWidget(button)
        self.close_button = QPushButton("&Close")
        self.close_button.setAutoDefault(False)
        self.close_button.clicked.connect(self.close)
        buttons.addWidget(self.close_button)
        return buttons

    def show_built(self, window: Host) -> None:
        """Size the built dialog, then follow the campaign and show where it stands."""
        assert isinstance(self, QWidget)  # the QDialog that mixes this in
        fit_resize(self, 1366, 680)  # the laptop's whole width: the odds beside the step
        use_font(self, self.font())
        window.campaign_changed.connect(self._campaign_changed)
        self.refresh()

    def refresh(self) -> None:
        """Redraw from the procedure in progress (or show that it has ended): the
        dialog's ``redraw(view)``, once the procedure could be read."""
        ok, view = self._read_view()
        if ok:
            self.redraw(view)

    def answer(self, choice: object) -> bool:
        """Answer the current step through the main window; False if refused."""
        from companion.operations import procedures

        return self.window_.run_operation(procedures.advance, choice=choice) is not None

    def _campaign_changed(self, changes: object) -> None:
        from companion.operations.procedures import FinishedProcedure

        if changes is not None and getattr(changes, "procedure", False):
            self.last_summary = str(getattr(changes, "summary", "")) or self.last_summary
            detail = getattr(changes, "detail", None)
            # The last step's board, steps and result, kept in view once the row is gone.
            self.finished_procedure = detail if isinstance(detail, FinishedProcedure) \
                else None
        if (changes is None or getattr(changes, "procedure", False)) and self.isVisible():
            self.refresh()

    def _read_view(self) -> tuple[bool, Any]:
        """(True, the procedure in progress or None); (False, None) once the dialog has
        shown why it cannot read it."""
        from companion.operations import Refused, procedures

        campaign = self.window_.campaign
        if campaign is None:
            self._show_finished("No campaign is open.")
            return False, None
        try:
            view = procedures.in_progress(campaign)
        except Refused as refusal:
            self._show_finished(str(refusal))
            return False, None
        # A card drawn at the table that the campaign does not know can be entered.
        self.step_widget.card_context = (self.window_, view.kind if view else "")
        self.step_widget.actor = view.actor if view else None
        return True, view


def _holds_whole(window: Any, kind: str | None) -> bool:
    """Whether the open campaign holds the deck ``kind`` whole (the app may draw it)."""
    from companion.operations.box import deck_is_whole

    campaign = getattr(window, "campaign", None)
    if campaign is None or kind is None:
        return True
    return deck_is_whole(campaign.content, kind)
