"""The odds advisor beside a step's input (issue 12): exact odds of each choice, shown,
never in the way.

Contracts:

- :class:`OddsPanel` draws the :class:`~companion.operations.odds.OddsReport` that
  :func:`companion.operations.odds.advice` returns for the procedure in progress: tables
  of percentages (one decimal; the exact fraction in each cell's tooltip) and notes.
- Its "Show odds" check box switches the advisor on and off in the user's preferences
  (``Settings.odds_advisor``, saved at once). When off, the panel shows only the check
  box and computes nothing.
- A report's :class:`~companion.operations.odds.Suggestion` (fishing's placement for the
  current die) is offered as a "Place as suggested" button that emits
  :attr:`OddsPanel.suggested` with the step's option key; the dialog answers the step
  with it, like any other answer. The panel writes nothing itself.
- A failure while computing never stops the dialog: the panel says the odds are
  unavailable.
"""

from __future__ import annotations

import contextlib
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from companion.operations import odds as odds_queries
from companion.ui.procedure_panels import scaled_font, use_font


class OddsPanel(QFrame):
    """The odds of the current step's choices, beside its input."""

    suggested = Signal(str)
    """The suggested choice (an option key of the current step), when the player takes it."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("oddsPanel")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.report: odds_queries.OddsReport | None = None
        self._campaign: Any = None
        self._procedure: Any = None
        layout = QVBoxLayout(self)
        top = QHBoxLayout()
        self.title = QLabel("Odds")
        self.title.setObjectName("oddsTitle")
        self.title.setFont(scaled_font(self.font(), 1.1, bold=True))
        self.title.setWordWrap(True)
        top.addWidget(self.title, 1)
        self.show_odds = QCheckBox("Show &odds")
        self.show_odds.setAccessibleName("Show odds")
        self.show_odds.setToolTip("Show the exact odds of each choice (saved in the preferences)")
        self.show_odds.setChecked(_advisor_on())
        self.show_odds.toggled.connect(self._toggled)
        top.addWidget(self.show_odds, 0, Qt.AlignmentFlag.AlignTop)
        layout.addLayout(top)
        self.tables_area = QScrollArea()
        self.tables_area.setWidgetResizable(True)
        self.tables_area.setFrameShape(QFrame.Shape.NoFrame)
        self.body = QWidget()
        self.body_layout = QVBoxLayout(self.body)
        self.body_layout.setContentsMargins(0, 0, 0, 0)
        self.tables_area.setWidget(self.body)
        layout.addWidget(self.tables_area, 1)
        self.notes = QLabel()
        self.notes.setObjectName("oddsNotes")
        self.notes.setWordWrap(True)
        self.notes.setFont(scaled_font(self.font(), 0.85))
        layout.addWidget(self.notes)
        self.suggest_button = QPushButton()
        self.suggest_button.setObjectName("placeAsSuggested")
        self.suggest_button.setAutoDefault(False)
        self.suggest_button.clicked.connect(self._take_suggestion)
        layout.addWidget(self.suggest_button)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Preferred)
        self._show(None)

    def changeEvent(self, event: Any) -> None:  # noqa: N802 (Qt's name)
        super().changeEvent(event)
        if event.type() == event.Type.FontChange:  # the dialog's larger font arrived
            self.title.setFont(scaled_font(self.font(), 1.1, bold=True))
            self.notes.setFont(scaled_font(self.font(), 0.85))
            self._show(self.report)

    # -- what the dialogs call -------------------------------------------------------------

    def show_for(self, campaign: Any, procedure: Any = None) -> None:
        """Show the odds for the step in progress in ``campaign`` (``procedure``: the
        procedure object already loaded, if any). Computes nothing while switched off."""
        self._campaign, self._procedure = campaign, procedure
        if not self.show_odds.isChecked() or campaign is None:
            self._show(None)
            return
        try:
            report = odds_queries.advice(campaign, procedure)
        except Exception as exc:  # noqa: BLE001 - the advisor must never stop a step
            report = odds_queries.OddsReport("Odds", notes=(f"Odds unavailable: {exc}",))
        self._show(report)

    def clear(self) -> None:
        """Nothing to advise (the procedure is over)."""
        self._campaign = self._procedure = None
        self._show(None)

    @property
    def advising(self) -> bool:
        """Whether odds are shown now."""
        return self.report is not None

    # -- drawing ------------------------------------------------------------------------

    def _show(self, report: odds_queries.OddsReport | None) -> None:
        self.report = report
        while self.body_layout.count():
            item = self.body_layout.takeAt(0)
            widget = item.widget() if item is not None else None
            if widget is not None:
                widget.hide()
                widget.deleteLater()
        on = self.show_odds.isChecked()
        # Switched off, the panel keeps only its check box's width beside the step.
        self.setSizePolicy(QSizePolicy.Policy.Preferred if on else QSizePolicy.Policy.Maximum,
                           QSizePolicy.Policy.Preferred)
        if report is None:
            self.title.setText("Odds" if on else "")
            self.tables_area.hide()
            self.notes.setText("" if not on else "No odds to show at this step.")
            self.notes.setVisible(on)
            self.suggest_button.hide()
            self.title.setVisible(on)
            return
        self.title.setVisible(True)
        self.title.setText(report.title)
        for table in report.tables:
            box = self._table(table)
            self.body_layout.addWidget(box)
            box.show()  # at once, not when the layout next runs (queued)
        self.body_layout.addStretch(1)
        self.tables_area.show()
        self.notes.setText(" ".join(report.notes))
        self.notes.setVisible(bool(report.notes))
        if report.suggestion is not None:
            self.suggest_button.setText(
                "&Place as suggested: " + report.suggestion.label.replace("&", "&&"))
            self.suggest_button.setAccessibleName("Place as suggested")
            self.suggest_button.show()
        else:
            self.suggest_button.hide()
        use_font(self.body, self.font())

    def _table(self, table: odds_queries.OddsTable) -> QWidget:
        box = QWidget()
        layout = QVBoxLayout(box)
        layout.setContentsMargins(0, 0, 0, 6)
        caption = QLabel(table.caption)
        caption.setWordWrap(True)
        caption.setFont(scaled_font(self.font(), 1.0, bold=True))
        layout.addWidget(caption)
        grid = QGridLayout()
        grid.setHorizontalSpacing(14)
        grid.setVerticalSpacing(2)
        bold = scaled_font(self.font(), 0.95, bold=True)
        for column, header in enumerate(table.headers):
            label = QLabel(header)
            label.setFont(bold)
            if column:
                label.setAlignment(Qt.AlignmentFlag.AlignRight)
            grid.addWidget(label, 0, column)
        for row, cells in enumerate(table.rows, 1):
            for column, cell in enumerate(cells):
                label = QLabel(cell.text)
                label.setToolTip(cell.tooltip)
                label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
                name = table.headers[column] if column < len(table.headers) else ""
                label.setAccessibleName(f"{cells[0].text} {name}".strip())
                label.setAccessibleDescription(cell.tooltip)
                if column:
                    label.setAlignment(Qt.AlignmentFlag.AlignRight)
                grid.addWidget(label, row, column)
        grid.setColumnStretch(0, 1)
        layout.addLayout(grid)
        return box

    # -- the player's actions -------------------------------------------------------------

    def _toggled(self, on: bool) -> None:
        # Not saved (an unwritable folder): the panel still follows the box this session.
        with contextlib.suppress(OSError, ValueError):
            odds_queries.set_advisor(on)
        if on:
            self.show_for(self._campaign, self._procedure)
        else:
            self._show(None)

    def _take_suggestion(self) -> None:
        if self.report is not None and self.report.suggestion is not None:
            self.suggested.emit(self.report.suggestion.choice)


def _advisor_on() -> bool:
    try:
        return odds_queries.advisor_on()
    except (OSError, ValueError):
        return True


__all__ = ["OddsPanel"]
