"""A challenge card the app doesn't know yet, typed from the card in hand (Rulebook: Set
Up > Select Challenge, Set Up Challenge, Set Up Vital and Epoch Goals; issue 25 part 5).

A compact form of what the card prints: id, name, priority, starting omen, the vital and
epoch goals (one a line, "Name: text", or a goal the app knows by its name), the
activity-track events (threshold, type, text, effects in the effect words the Apply
Effects dialog uses) and the outcome entry it names for End Challenge. "Save and Start"
writes the card and its goals into the owner's own pack and starts the challenge with
the places and mantles chosen in Start Challenge: one operation,
``operations.challenge_cards.start_typed_challenge``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox,
    QCompleter,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QSpinBox,
    QTableWidget,
    QVBoxLayout,
    QWidget,
)

from companion.content.schema.base import Omen
from companion.ui import fit

if TYPE_CHECKING:
    from companion.ui.host import Host

WARN = "color: #a3231b; font-weight: bold;"
EVENT_COLUMNS = ("At", "To (ongoing)", "Type", "Text on the card", "Effects")
"""The event table's columns: threshold, the end of an ongoing event's range, type,
text, effects."""


def _lines(edit: QPlainTextEdit, rows: int) -> None:
    height = edit.fontMetrics().lineSpacing() * rows + 2 * edit.frameWidth() + 10
    edit.setFixedHeight(height)


class ChallengeCardDialog(QDialog):
    """Type a challenge card from the box and start it (Start Challenge ▸ "A challenge
    card the app doesn't know yet…")."""

    def __init__(self, window: Host, *, card_id: str = "",
                 start_choices: Callable[[], Mapping[str, Any]] | None = None,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent or window)
        from companion.operations.challenge_cards import EVENT_TYPES
        from companion.rules.effect_words import EFFECT_WORDS

        self.window_ = window
        self.start_choices = start_choices or dict
        self.event_types = EVENT_TYPES
        self.examples = [w.example for w in EFFECT_WORDS]
        self.setWindowTitle("A Challenge Card the App Doesn't Know Yet")
        intro = QLabel("Type what the challenge card prints. It is saved into your own "
                       "pack with its goals (known from then on), then started.")
        intro.setWordWrap(True)
        self.card_id = QLineEdit(card_id)
        self.card_id.setAccessibleName("Card id")
        self.card_id.setPlaceholderText("the id printed on the card, e.g. C4")
        self.name = QLineEdit()
        self.name.setAccessibleName("Card name")
        self.priority = QSpinBox()
        self.priority.setRange(0, 99)
        self.priority.setValue(1)
        self.priority.setAccessibleName("Priority")
        self.omen = QComboBox()
        self.omen.setAccessibleName("Starting omen")
        for omen in Omen:
            self.omen.addItem(omen.value.capitalize(), omen.value)
        self.outcome = QLineEdit()
        self.outcome.setAccessibleName("Outcome entry")
        self.outcome.setPlaceholderText("the entry it names for End Challenge, e.g. 112")
        self.outcome.setMaximumWidth(self.outcome.fontMetrics().horizontalAdvance("0") * 12)
        top = QHBoxLayout()
        for label, widget, stretch in (("Id:", self.card_id, 1), ("Name:", self.name, 3),
                                       ("Priority:", self.priority, 0),
                                       ("Starting omen:", self.omen, 0)):
            top.addWidget(QLabel(label))
            top.addWidget(widget, stretch)
        self.vital = QPlainTextEdit()
        self.vital.setAccessibleName("Vital goals")
        self.vital.setPlaceholderText("one a line — First Hearth: Build an outpost with a "
                                      "drying rack.")
        self.epoch = QPlainTextEdit()
        self.epoch.setAccessibleName("Epoch goals")
        self.epoch.setPlaceholderText("one a line (none if the card names none)")
        for edit in (self.vital, self.epoch):
            _lines(edit, 2)
        self.text = QLineEdit()
        self.text.setAccessibleName("Card text")
        self.text.setPlaceholderText("the card's text (optional)")
        form = QFormLayout()
        form.addRow(top)
        form.addRow("Vital goals:", self.vital)
        form.addRow("Epoch goals:", self.epoch)
        form.addRow("Outcome entry:", self.outcome)
        form.addRow("Text:", self.text)
        self.events = QTableWidget(0, len(EVENT_COLUMNS))
        self.events.setAccessibleName("Activity-track events")
        self.events.setHorizontalHeaderLabels(EVENT_COLUMNS)
        header = self.events.horizontalHeader()
        for column in range(3):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(3, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(4, QHeaderView.ResizeMode.Stretch)
        self.events.verticalHeader().setVisible(False)
        self.add_event_button = QPushButton("Add Event")
        self.add_event_button.clicked.connect(lambda: self.add_event())
        self.remove_event_button = QPushButton("Remove Event")
        self.remove_event_button.clicked.connect(self.remove_event)
        event_buttons = QHBoxLayout()
        event_buttons.addWidget(QLabel("Activity-track events (the blue numbers), effects "
                                       "in effect words, e.g. 'unrest 1, place lore':"), 1)
        event_buttons.addWidget(self.add_event_button)
        event_buttons.addWidget(self.remove_event_button)
        self.problem = QLabel()
        self.problem.setWordWrap(True)
        self.problem.setStyleSheet(WARN)
        self.problem.setAccessibleName("Problem")
        self.problem.hide()
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.start_button = self.buttons.addButton(
            "Save Card and Start", QDialogButtonBox.ButtonRole.AcceptRole)
        self.start_button.setDefault(True)
        self.buttons.accepted.connect(self.start)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addLayout(form)
        layout.addLayout(event_buttons)
        layout.addWidget(self.events, 1)
        layout.addWidget(self.problem)
        layout.addWidget(self.buttons)
        self.add_event()
        self.changes: Any = None
        fit.fit_resize(self, 980, 560)

    # -- the events table --------------------------------------------------------------

    def add_event(self, threshold: int = 0, kind: str = "event", text: str = "",
                  effects: str = "", until: int | None = None) -> int:
        """A new row of the events table; returns its index."""
        row = self.events.rowCount()
        self.events.insertRow(row)
        at = QSpinBox()
        at.setRange(0, 99)
        at.setValue(threshold)
        at.setAccessibleName(f"Event {row + 1} threshold")
        to = QSpinBox()
        to.setRange(0, 99)
        to.setSpecialValueText("—")
        to.setValue(until or 0)
        to.setAccessibleName(f"Event {row + 1} ongoing until")
        kinds = QComboBox()
        kinds.setAccessibleName(f"Event {row + 1} type")
        for value in self.event_types:
            kinds.addItem(value.capitalize(), value)
        kinds.setCurrentIndex(max(0, kinds.findData(kind)))
        kinds.currentIndexChanged.connect(lambda _=0, r=row: self._ongoing(r))
        said = QLineEdit(text)
        said.setAccessibleName(f"Event {row + 1} text")
        words = QLineEdit(effects)
        words.setAccessibleName(f"Event {row + 1} effects")
        words.setPlaceholderText("e.g. " + ", ".join(self.examples[4:7]))
        completer = QCompleter(self.examples, words)
        completer.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        words.setCompleter(completer)
        for column, widget in enumerate((at, to, kinds, said, words)):
            self.events.setCellWidget(row, column, widget)
        self.events.setRowHeight(row, max(kinds.sizeHint().height(),
                                          said.sizeHint().height()) + 4)
        self._ongoing(row)
        return row

    def _ongoing(self, row: int) -> None:
        kinds = self.events.cellWidget(row, 2)
        until = self.events.cellWidget(row, 1)
        if isinstance(kinds, QComboBox) and until is not None:
            until.setEnabled(kinds.currentData() == "ongoing")

    def remove_event(self) -> None:
        row = self.events.currentRow()
        self.events.removeRow(row if row >= 0 else self.events.rowCount() - 1)

    def event_widget(self, row: int, column: int) -> Any:
        """The control in ``row`` (from 0) and ``column`` of :data:`EVENT_COLUMNS`."""
        return self.events.cellWidget(row, column)

    def typed_events(self) -> list[dict[str, Any]]:
        from companion.operations.challenge_cards import event_entry

        out = []
        for row in range(self.events.rowCount()):
            at, to, kinds, said, words = (self.events.cellWidget(row, c) for c in range(5))
            assert isinstance(at, QSpinBox) and isinstance(to, QSpinBox)
            assert isinstance(kinds, QComboBox)
            assert isinstance(said, QLineEdit) and isinstance(words, QLineEdit)
            kind = str(kinds.currentData())
            out.append(event_entry(at.value(), kind, said.text(),
                                   [w for w in words.text().replace(";", ",").split(",")],
                                   until=to.value() if kind == "ongoing" else None))
        return out

    # -- saving ------------------------------------------------------------------------

    def typed_card(self) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """The card and its new goals, as the pack writes them (Refused, in game words,
        when something the card prints is missing or unreadable)."""
        from companion.operations import Refused
        from companion.operations.challenge_cards import challenge_from_typed

        campaign = self.window_.campaign
        assert campaign is not None
        if not self.card_id.text().strip() or not self.name.text().strip():
            raise Refused("Type the card's id and name, as the card prints them.")

        def lines(edit: QPlainTextEdit) -> list[str]:
            return [line for line in edit.toPlainText().splitlines() if line.strip()]

        return challenge_from_typed(
            campaign.content, id=self.card_id.text(), name=self.name.text(),
            priority=self.priority.value(), starting_omen=str(self.omen.currentData()),
            vital_goals=lines(self.vital), epoch_goals=lines(self.epoch),
            events=self.typed_events(), outcome=self.outcome.text() or None,
            text=self.text.text())

    def start(self) -> None:
        from companion.operations import Refused
        from companion.operations.challenge_cards import start_typed_challenge

        try:
            card, goals = self.typed_card()
        except Refused as refusal:
            self.problem.setText(str(refusal))
            self.problem.show()
            return
        self.problem.hide()
        changes = self.window_.run_operation(start_typed_challenge, card=card, goals=goals,
                                             **self.start_choices())
        if changes is not None:
            self.changes = changes
            self.accept()


def open_challenge_card(window: Host, *, card_id: str = "",
                        start_choices: Callable[[], Mapping[str, Any]] | None = None,
                        parent: QWidget | None = None) -> ChallengeCardDialog | None:
    """Start Challenge ▸ "A challenge card the app doesn't know yet…" (modeless)."""
    if window.campaign is None:
        return None
    dialog = ChallengeCardDialog(window, card_id=card_id, start_choices=start_choices,
                                 parent=parent)
    dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    dialog.show()
    return dialog
