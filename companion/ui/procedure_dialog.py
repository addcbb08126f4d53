"""The procedure dialog: an activity in progress, one step at a time, at the table or in
the app (DESIGN.md > Procedures are state machines; Two ways to play).

Contracts:

- :class:`~companion.ui.procedure_step.StepWidget` (shared with the Night wizard) shows
  one :class:`~companion.rules.procedure.Step` and emits ``answered(choice)``.
- :class:`ProcedureDialog` (non-blocking) answers each step with
  ``window.run_operation(procedures.advance, choice=...)`` and redraws itself from
  ``procedures.in_progress`` whenever ``window.campaign_changed`` says the procedure
  changed (so Undo in the main window moves it back too). A refusal leaves it on the step.
- :func:`open_procedure`, :func:`start_night`, :func:`start_activity` are what the main
  window's menus call; which dialog shows the procedure in progress (the Night wizard
  or this one) the main window decides (:meth:`Host.open_procedure`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6 import QtWidgets
from PySide6.QtCore import Qt, QTimer

from companion.rules.procedure import Step
from companion.ui.procedure_panels import (
    ProcedurePanel,
    load_procedure,
    panel_for,
    scaled_font,
    use_font,
)
from companion.ui.procedure_step import StepAnswering, StepWidget, log_list, scrolled

if TYPE_CHECKING:
    from companion.ui.host import Host

KIND_TITLES = {"fishing": "Fishing", "mining": "Mining", "foraging": "Foraging",
               "delving": "Delving", "night": "The Night",
               "behemoth_activation": "The Behemoth Activates",
               "behemoth_encounter": "Behemoth Encounter"}


class ProcedureDialog(StepAnswering, QtWidgets.QDialog):
    """An activity in progress (fishing, mining ...), step by step; non-blocking."""

    def __init__(self, window: Host) -> None:
        super().__init__(window)
        self.start_dialog(window, "Procedure")
        self.kind: str | None = None
        layout = QtWidgets.QVBoxLayout(self)
        self.title = QtWidgets.QLabel()
        self.title.setObjectName("procedureTitle")
        self.title.setFont(scaled_font(self.font(), 1.5, bold=True))
        layout.addWidget(self.title)
        splitter = QtWidgets.QSplitter(Qt.Orientation.Horizontal)
        self.tabs = QtWidgets.QTabWidget()
        self.tabs.setAccessibleName("The procedure's layout")
        self.panel: ProcedurePanel = panel_for("", self.font())
        self.tabs.addTab(scrolled(self.panel), "&Layout")
        self.words = ProcedurePanel(self.font())
        self.tabs.addTab(self.words, "In &words")
        splitter.addWidget(self.tabs)
        side = QtWidgets.QWidget()
        side_layout = QtWidgets.QVBoxLayout(side)
        side_layout.setContentsMargins(0, 0, 0, 0)
        side_layout.addWidget(QtWidgets.QLabel("Steps taken:"))
        self.log = log_list("Steps taken")
        side_layout.addWidget(self.log)
        splitter.addWidget(side)
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 2)
        layout.addWidget(splitter, 1)
        frame = self.step_frame(window, 2, 3)  # the odds the wider: columns whole (item 20)
        # The odds' tables scroll inside the panel beside the step: at their full height
        # they left the board a strip on a laptop's screen; in a second scroll area
        # around the panel they showed one row, or none (issue 27 item 20). At least
        # its title, a caption, the headers and four rows.
        self.odds_area = self.odds_panel
        self.odds_area.setMaximumHeight(self.fontMetrics().height() * 14)
        self.odds_area.setMinimumHeight(self.fontMetrics().height() * 9)
        layout.addWidget(frame)
        layout.addLayout(self.close_row())
        self.show_built(window)

    # -- showing -----------------------------------------------------------------------

    def redraw(self, view: Any) -> None:
        """Redraw from the procedure in progress (or show that it has finished)."""
        campaign = self.window_.campaign
        if view is None or view.kind == "night":  # the Night is the wizard's
            self._show_final_board()
            self._show_finished(self.last_summary or "No activity is in progress.")
            return
        self.finished_ = False
        assert campaign is not None  # _read_view said so
        procedure = load_procedure(campaign)
        self._show_kind(view.kind)
        title = KIND_TITLES.get(view.kind, view.kind.replace("_", " ").title())
        self.title.setText(f"{title} — {view.actor}" if view.actor else title)
        self.setWindowTitle(self.title.text())
        if procedure is not None:
            self.panel.show_procedure(procedure)
            self.words.show_procedure(procedure)
            self._scroll_to_focus(procedure)
        self.log.clear()
        for number, line in enumerate(view.log, 1):
            self.log.addItem(f"{number}. {line}")
        self.log.scrollToBottom()
        self.summary.hide()
        self.outcomes.show_for("")
        self.step_widget.show()
        self.step_widget.deck = str(getattr(procedure, "deck_name", "") or "")
        self.step_widget.set_step(view.step, **self.extra_cards(procedure))
        self.odds_area.show()
        self.odds_panel.show_for(campaign, procedure)
        # Room for four rows of odds when there are odds; none taken from the board else.
        self.odds_area.setMinimumHeight(
            self.fontMetrics().height() * 9 if self.odds_panel.advising else 0)
        self.close_button.setDefault(False)

    def _scroll_to_focus(self, procedure: Any) -> None:
        """Bring the part of the layout the step is about into view (now, and once the
        event loop has laid the new rows out)."""
        area = self.tabs.widget(0)

        def scroll() -> None:
            target = self.panel.in_focus(procedure)
            if target is not None and isinstance(area, QtWidgets.QScrollArea):
                area.ensureWidgetVisible(target, 0, 0)

        scroll()
        QTimer.singleShot(0, self, scroll)

    def _show_final_board(self) -> None:
        """The board as the last step left it, and every step taken, the last one too."""
        done = self.finished_procedure
        if done is None or done.kind == "night":
            return
        self._show_kind(done.kind)
        self.panel.show_procedure(done.procedure)
        self.words.show_procedure(done.procedure)
        self.log.clear()
        for number, line in enumerate(done.log, 1):
            self.log.addItem(f"{number}. {line}")
        self.log.scrollToBottom()

    def extra_cards(self, procedure: Any) -> dict[str, Any]:
        """Further cards the table may type at a CARD step (none for activities)."""
        return {}

    def _show_kind(self, kind: str) -> None:
        if kind == self.kind:
            return
        self.kind = kind
        old = self.tabs.widget(0)
        self.tabs.removeTab(0)
        if old is not None:
            old.deleteLater()
        self.panel = panel_for(kind, self.font())
        use_font(self.panel, self.font())
        self.tabs.insertTab(0, scrolled(self.panel), "&Layout")
        self.tabs.setCurrentIndex(0)

    def _show_finished(self, text: str) -> None:
        self.finished_ = True
        self.step_widget.set_step(None)
        self.step_widget.hide()
        self.odds_panel.clear()
        self.odds_area.hide()  # nothing left to weigh
        self.summary.setText(text)
        self.summary.show()
        self.outcomes.show_for(text, character=getattr(self.finished_procedure, "actor", None))
        self.close_button.setDefault(True)
        self.close_button.setFocus()

    @property
    def step(self) -> Step | None:
        """The step shown now (None once finished)."""
        return None if self.finished_ else self.step_widget.step


# --- opening them ---------------------------------------------------------------------------


def open_procedure(window: Host) -> QtWidgets.QDialog | None:
    """Show the procedure in progress in its dialog (the main window decides which:
    the Night wizard for the Night, else the procedure dialog). Returns the dialog, or
    None if nothing is in progress (the user is told)."""
    return window.open_procedure()


def start_night(window: Host) -> QtWidgets.QDialog | None:
    """Begin the Night (refused until everyone has passed) and open the wizard; if the
    Night is already in progress, just open it."""
    from companion.operations import procedures

    if window.campaign is None:
        return None
    view = procedures.in_progress(window.campaign)
    if view is not None and view.kind == "night":
        return open_procedure(window)
    if not window.run_operation(procedures.start_night):
        return None
    return open_procedure(window)


def start_activity(window: Host, kind: str, name: str, feature: str) -> QtWidgets.QDialog | None:
    """Begin ``kind`` (fishing, mining, foraging, delving) for ``name`` at ``feature``
    and open it."""
    from companion.operations import activities, procedures

    starters = {"fishing": procedures.start_fishing, "mining": procedures.start_mining,
                "foraging": activities.start_foraging, "delving": activities.start_delving}
    if kind not in starters:
        QtWidgets.QMessageBox.warning(window, "Not allowed",
                                      f"The companion cannot run {kind} yet.")
        return None
    if not window.run_operation(starters[kind], name=name, feature=feature):
        return None
    return open_procedure(window)


__all__ = ["ProcedureDialog", "StepWidget", "open_procedure", "start_activity", "start_night"]
