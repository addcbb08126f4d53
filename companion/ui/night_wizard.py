"""The Night phase as a wizard, in the rulebook's order (Rulebook: Game Structure > Night
Phase).

Contract: :class:`NightWizard` shows the stages with the current one highlighted
(``NightProcedure.stage``), the Rest of each character as a table, the society's numbers
as they stand in the Night, what happened, and the current step's input (the same
:class:`~companion.ui.procedure_step.StepWidget` as the procedure dialog). Every answer
goes through ``window.run_operation(procedures.advance, ...)``; there is no Next button:
the procedure alone moves from stage to stage, so none can be skipped.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6 import QtWidgets
from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QFontMetrics, QPalette

from companion.rules.night import NightStage, RestBreakdown
from companion.rules.procedure import Step
from companion.ui.procedure_panels import (
    fill_table,
    heading,
    load_procedure,
    make_table,
    scaled_font,
)
from companion.ui.procedure_step import StepAnswering, log_list, scrolled

if TYPE_CHECKING:
    from companion.ui.host import Host

STAGES: tuple[tuple[NightStage, str, str], ...] = (
    (NightStage.START, "Night Phase Begins",
     "Effects at the start of the Night; incapacitated characters perish."),
    (NightStage.REST, "Rest",
     "Automatic energy, shelter or fire, food and water; capped at the track's maximum."),
    (NightStage.DEGRADE_FOOD, "Degrade Food",
     "Food in bags and storage containers degrades."),
    (NightStage.TEND_FIRE, "Tend Fire",
     "Each fire goes out unless a character in its hex spends one wood."),
    (NightStage.NIGHT_ACTIONS, "Night Actions",
     "Night actions granted by items, each once per character."),
    (NightStage.RECONCILE, "Reconcile Inventory",
     "Discard what does not fit in the bag (plus item storage)."),
    (NightStage.NIGHT_CARDS, "Night Cards",
     "One Night card per hex with characters: Solo, Champion or Group."),
    (NightStage.ACTIVITY, "Increase Activity",
     "Each resolved card's amount, then unrest."),
    (NightStage.END, "Night Phase Ends",
     "Effects at the end of the Night, activity events, the behemoth."),
)
ORDER = [stage for stage, _, _ in STAGES]

REST_HEADERS = ("Character", "Before", "Automatic", "Shelter/fire", "Food", "Water", "Total",
                "After", "Capped", "Energized", "Needs met", "Starving")


def rest_row(rest: RestBreakdown) -> list[str]:
    """One row of the Rest table (Rulebook: Night Phase > Rest; D9)."""
    return [
        str(rest.character),
        str(rest.before),
        str(rest.automatic),
        str(rest.shelter),
        f"{rest.food} ({rest.ate})" if rest.ate is not None else str(rest.food),
        str(rest.water) if rest.drank else "0 (none)",
        f"+{rest.total}",
        f"{rest.after}/{rest.energy_max}",
        f"{rest.lost_to_cap} lost" if rest.lost_to_cap else "no",
        "yes" if rest.energized else "",
        "yes" if rest.needs_met else "",
        "yes" if rest.starving else "",
    ]


class NightWizard(StepAnswering, QtWidgets.QDialog):
    """The Night, stage by stage; non-blocking."""

    def __init__(self, window: Host) -> None:
        super().__init__(window)
        self.start_dialog(window, "The Night")
        self.stage: NightStage | None = None
        outer = QtWidgets.QVBoxLayout(self)
        top = QtWidgets.QHBoxLayout()
        self.title = QtWidgets.QLabel("The Night")
        self.title.setFont(scaled_font(self.font(), 1.5, bold=True))
        top.addWidget(self.title)
        top.addStretch(1)
        self.society = QtWidgets.QLabel()
        self.society.setObjectName("nightSociety")
        self.society.setFont(scaled_font(self.font(), 1.1, bold=True))
        top.addWidget(self.society)
        outer.addLayout(top)
        # What the last answer did, always in view (issue 27 item 2): the full log lies
        # below the step, under the fold at 1366x768, and a card that failed its
        # requirement and was discarded looked as if nothing had happened.
        self.latest = QtWidgets.QLabel()
        self.latest.setObjectName("justHappened")
        self.latest.setAccessibleName("What just happened")
        self.latest.setWordWrap(True)
        self.latest.setTextFormat(Qt.TextFormat.PlainText)
        self.latest.setFrameShape(QtWidgets.QFrame.Shape.StyledPanel)
        self.latest.setStyleSheet("QLabel#justHappened { padding: 4px 8px; "
                                  "background: palette(alternate-base); }")
        self.latest.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        # Three lines kept, so the step below does not move as an answer says more or
        # less (issue 36 item 11: the Rest's buttons moved at each answer).
        self.latest.setMinimumHeight(self.latest.fontMetrics().lineSpacing() * 3 + 12)
        outer.addWidget(self.latest)
        self._lines_seen: int | None = None

        body = QtWidgets.QHBoxLayout()
        self.stages = QtWidgets.QListWidget()
        self.stages.setObjectName("nightStages")
        self.stages.setAccessibleName("Stages of the Night")
        self.stages.setSelectionMode(QtWidgets.QAbstractItemView.SelectionMode.NoSelection)
        self.stages.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        for number, (stage, name, tip) in enumerate(STAGES, 1):
            item = QtWidgets.QListWidgetItem(f"{number}. {name}")
            item.setData(Qt.ItemDataRole.UserRole, stage.value)
            item.setToolTip(tip)
            item.setFlags(Qt.ItemFlag.ItemIsEnabled)
            self.stages.addItem(item)
        self.stages.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        bold = scaled_font(self.font(), 1.0, bold=True)
        self.stages.setFont(self.font())
        width = max(QFontMetrics(bold).horizontalAdvance(f"▶ 9. {name}")
                    for _, name, _ in STAGES)
        self.stages.setFixedWidth(width + 4 * QFontMetrics(bold).averageCharWidth())
        body.addWidget(self.stages)

        right = QtWidgets.QVBoxLayout()
        self.stage_title = heading("", self.font(), 1.3)
        self.stage_title.setObjectName("stageTitle")
        right.addWidget(self.stage_title)
        self.stage_text = QtWidgets.QLabel()
        self.stage_text.setWordWrap(True)
        right.addWidget(self.stage_text)
        self.rest_title = heading("Rest", self.font())
        right.addWidget(self.rest_title)
        # Twelve columns: each as wide as its words, sideways scrolling where the
        # window is narrow (a stretched first column was squeezed to "aract").
        self.rest = make_table(REST_HEADERS)
        self.rest.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)
        self.rest.setObjectName("restTable")
        self.rest.setAccessibleName("Rest of each character")
        right.addWidget(self.rest)
        self.rest_title.hide()
        self.rest.hide()

        frame = self.step_frame(window, 1, 1)
        self.summary.hide()
        right.addWidget(frame)

        self.logs = QtWidgets.QTabWidget()
        self.happened = log_list("What happened")
        self.logs.addTab(self.happened, "What &happened")
        self.log = log_list("Steps taken")
        self.logs.addTab(self.log, "&Steps taken")
        right.addWidget(self.logs, 1)
        holder = QtWidgets.QWidget()
        holder.setLayout(right)
        # Scrolls rather than squeezing the step's buttons on a laptop with a large font.
        body.addWidget(scrolled(holder), 1)
        outer.addLayout(body, 1)

        self.next_button = QtWidgets.QPushButton()
        self.next_button.setObjectName("nextProcedure")
        self.next_button.clicked.connect(self._continue)
        self.next_button.hide()
        outer.addLayout(self.close_row(self.next_button))
        self.close_button.setToolTip("The Night is saved after every step: reopen it any time.")
        self.show_built(window)

    # -- showing -----------------------------------------------------------------------

    def redraw(self, view: Any) -> None:
        """Redraw from the Night in progress (or show that it has ended)."""
        campaign = self.window_.campaign
        if view is None or view.kind != "night":
            self._show_finished(self.last_summary or "No Night is in progress.")
            done = self.finished_procedure
            if done is not None and done.kind == "night":  # the last step's results too
                self._fill(self.happened, done.procedure.result().log, numbered=False)
                self._show_latest(done.procedure.result().log)
                self._fill(self.log, done.log, numbered=True)
            if view is not None:  # the Night's end began another (the behemoth's turn)
                self.next_button.setText(f"&Continue: {view.kind.replace('_', ' ')}")
                self.next_button.show()
                self.next_button.setDefault(True)
            return
        assert campaign is not None  # _read_view said so
        night = load_procedure(campaign)
        if night is None:
            self._show_finished("The Night could not be read.")
            return
        self.finished_ = False
        self.next_button.hide()
        self._show_stage(night.stage)
        society = night.game.society
        self.society.setText(f"Activity {society.activity}   ·   Unrest {society.unrest}"
                             f"   ·   Lore {society.lore}")
        self._show_rest(night.rest, [c.name for c in night.game.characters]
                        if night.stage is NightStage.REST else [])
        self._fill(self.happened, night.result().log, numbered=False)
        self._show_latest(night.result().log)
        self._fill(self.log, view.log, numbered=True)
        self.summary.hide()
        self.outcomes.show_for("")
        self.step_widget.show()
        cards = night.draw_pile
        labels = {c: f"{c} {night.facts.cards[c].name}" for c in cards if c in night.facts.cards}
        self.step_widget.set_step(view.step, cards=cards, card_labels=labels)
        self.odds_panel.show()
        self.odds_panel.show_for(campaign, night)
        self.close_button.setDefault(False)

    def _show_stage(self, stage: NightStage) -> None:
        self.stage = stage
        current = ORDER.index(stage) if stage in ORDER else len(ORDER)
        highlight = self.palette().brush(QPalette.ColorRole.Highlight)
        on_highlight = self.palette().brush(QPalette.ColorRole.HighlightedText)
        for row, (_, name, _tip) in enumerate(STAGES):
            item = self.stages.item(row)
            font = self.stages.font()
            if row < current:
                item.setText(f"✓ {row + 1}. {name}")
                item.setBackground(QBrush())
                item.setForeground(self.palette().brush(QPalette.ColorRole.PlaceholderText))
            elif row == current:
                item.setText(f"▶ {row + 1}. {name}")
                font.setBold(True)
                item.setBackground(highlight)
                item.setForeground(on_highlight)
            else:
                item.setText(f"   {row + 1}. {name}")
                item.setBackground(QBrush())
                item.setForeground(self.palette().brush(QPalette.ColorRole.Text))
            item.setFont(font)
        if current < len(STAGES):
            _, name, tip = STAGES[current]
            self.stage_title.setText(f"Step {current + 1} of {len(STAGES)}: {name}")
            self.stage_text.setText(tip)
        else:
            self.stage_title.setText("The Night is over")
            self.stage_text.setText("A new Day begins.")

    def changeEvent(self, event: Any) -> None:  # noqa: N802 (Qt's name)
        super().changeEvent(event)
        if event.type() == event.Type.PaletteChange and self.stage is not None:
            self._show_stage(self.stage)  # the highlight follows a theme switched live

    def _show_rest(self, rest: tuple[RestBreakdown, ...], resting: list[str]) -> None:
        """The Rest table; while the Night's Rest lasts, a row for every character who
        rests (one still to rest: "rests in turn"), so the step's buttons below keep
        their place as each row is filled (issue 36 item 11: they moved down a row at
        a time)."""
        done = {r.character for r in rest}
        waiting = [[name, "rests in turn"] + [""] * (len(REST_HEADERS) - 2)
                   for name in resting if name not in done]
        fill_table(self.rest, [rest_row(r) for r in rest] + waiting)
        shown = bool(rest) or bool(waiting)
        self.rest_title.setVisible(shown)
        self.rest.setVisible(shown)

    LATEST_LINES = 4
    """At most this many of the newest lines are shown in "Just now" (the rest are in the
    What happened log below)."""

    def _show_latest(self, lines: Any) -> None:
        """"Just now": the lines the last answer added to what happened (the newest few),
        or the last line when the wizard has just opened."""
        lines = [str(line) for line in lines]
        seen = self._lines_seen
        new = lines[seen:] if seen is not None and seen <= len(lines) else lines[-1:]
        self._lines_seen = len(lines)
        if not new:
            return  # the same step redrawn: what just happened stays said
        shown = new[-self.LATEST_LINES:]
        more = len(new) - len(shown)
        self.latest.setText("Just now: " + "\n".join(shown) +
                            (f"\n(and {more} more in What happened below)" if more else ""))

    @staticmethod
    def _fill(widget: QtWidgets.QListWidget, lines: Any, *, numbered: bool) -> None:
        widget.clear()
        for number, line in enumerate(lines, 1):
            widget.addItem(f"{number}. {line}" if numbered else str(line))
        widget.scrollToBottom()

    def _continue(self) -> None:
        self.close()
        self.window_.open_procedure()

    def _show_finished(self, text: str) -> None:
        self.finished_ = True
        self.next_button.hide()
        self._show_stage(NightStage.DONE)
        campaign = self.window_.campaign
        if campaign is not None:
            status = campaign.status()
            self.society.setText(f"Activity {status.activity}   ·   Unrest {status.unrest}"
                                 f"   ·   Lore {status.lore}")
        self.step_widget.set_step(None)
        self.step_widget.hide()
        self.odds_panel.clear()
        self.odds_panel.hide()  # nothing left to weigh
        self.summary.setText(text)
        self.summary.show()
        self.outcomes.show_for(text)  # "Read outcome N…": shown and applied (issue 25)
        self.close_button.setDefault(True)
        self.close_button.setFocus()

    def current_stage(self) -> str | None:
        """The stage highlighted in the list (its NightStage value), None once over."""
        for row in range(self.stages.count()):
            if self.stages.item(row).text().startswith("▶"):
                return str(self.stages.item(row).data(Qt.ItemDataRole.UserRole))
        return None

    @property
    def step(self) -> Step | None:
        """The step shown now (None once the Night is over)."""
        return None if self.finished_ else self.step_widget.step
