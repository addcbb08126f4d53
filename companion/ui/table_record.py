"""What happened at the table, in one line (issue 25 part 3, issue 27 item 10).

Contracts:

- :class:`EffectLine` is the one line of effects ("gain 2 meat Ash, lore +1") with
  completion (``QCompleter`` over the effect words, the campaign's resources, items and
  characters), completing the part after the last comma.
- :class:`RecordDialog` ("Just record what happened" from a card field, "We resolved
  this at the table" from a procedure's step) reads the line as it is typed (what it
  will do, or why it does not read) and runs ``operations.recorded.record_what_happened``
  in one undoable operation; ``recorded`` is emitted with its Changes.
- :class:`RecordedCardsDialog` (My Cards ▸ Recorded at the table…) lists the cards
  recorded that way; **Save as a card…** opens the card form filled in with the card's
  id and effects (``operations.recorded.card_from_record``).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QVBoxLayout,
    QWidget,
)

from companion.ui.effect_line_edit import EXAMPLE, EffectLine
from companion.ui.widgets import action_buttons, button, note_label

if TYPE_CHECKING:
    from companion.operations import Campaign
    from companion.ui.host import Host

__all__ = ["EXAMPLE", "EffectLine", "RecordDialog", "RecordedCardsDialog", "who_box"]


def who_box(campaign: Campaign, name: str, chosen: str | None) -> QComboBox:
    """Whom a line's effects fall on where it names no one: "— as the line says —" or
    one of the characters (``chosen`` first chosen, if any); ``name`` for screen readers."""
    box = QComboBox()
    box.setAccessibleName(name)
    box.addItem("— as the line says —", None)
    for summary in campaign.characters():
        box.addItem(summary.name, summary.name)
    if chosen:
        box.setCurrentIndex(max(0, box.findData(chosen)))
    return box


class RecordDialog(QDialog):
    """Record what a card (or a step) did at the table, in one line; window-modal."""

    recorded = Signal(object)
    """The operation's Changes, once recorded."""

    def __init__(self, window: Host, *, kind: str = "", card: str = "",
                 actor: str | None = None, title: str = "Just record what happened",
                 intro: str = "", parent: QWidget | None = None,
                 operation: Callable[..., Any] | None = None) -> None:
        from companion.content.user_pack import kind_word
        from companion.operations.recorded import completion_words

        super().__init__(parent or window)
        self.window_ = window
        self.kind = kind
        # What Record runs: by default the record of a card or step; a Day action played
        # at the table passes its own (``table_activity.activity_at_table``, bound).
        self.operation = operation
        self.setWindowTitle(title)
        self.setObjectName("recordDialog")
        campaign = window.campaign
        assert campaign is not None
        layout = QVBoxLayout(self)
        word = kind_word(kind) if kind else "card"
        text = QLabel(intro or (
            f"Resolve the {word} with the real card, then type what it did: its effects "
            "in one line, separated by commas, with a character's name where it matters. "
            "It is applied in one step (Undo takes it back) and the journal keeps it with "
            "the card's id; My Cards ▸ Recorded at the table saves it as a card later."))
        text.setWordWrap(True)
        layout.addWidget(text)
        form = QFormLayout()
        self.card = QLineEdit(card)
        self.card.setAccessibleName("The card's id, as printed")
        self.card.setPlaceholderText("as printed, e.g. FF99 (may stay empty)")
        form.addRow("&Card:", self.card)
        self.who = who_box(campaign, "Whom unnamed effects fall on", actor)
        form.addRow("&Who:", self.who)
        self.line = EffectLine(completion_words(campaign))
        self.line.setMinimumWidth(self.line.fontMetrics().horizontalAdvance(EXAMPLE) + 24)
        form.addRow("What &happened:", self.line)
        layout.addLayout(form)
        self.preview = QLabel()
        self.preview.setObjectName("recordPreview")
        self.preview.setWordWrap(True)
        layout.addWidget(self.preview)
        self.record_button = button("&Record", self.record)
        self.record_button.setObjectName("recordButton")
        buttons = action_buttons(self, QDialogButtonBox.StandardButton.Cancel,
                                 self.record_button, QDialogButtonBox.ButtonRole.AcceptRole)
        cancel = buttons.button(QDialogButtonBox.StandardButton.Cancel)
        cancel.setAutoDefault(False)  # Return records (keyPressEvent), never cancels
        layout.addWidget(buttons)
        self.line.textChanged.connect(self._preview)
        self._preview()
        self.setWindowModality(Qt.WindowModality.WindowModal)
        self.line.setFocus()

    def keyPressEvent(self, event: Any) -> None:  # noqa: N802 (Qt's name)
        """Return records the line (a completion picked in the popup is taken first)."""
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            event.accept()
            if self.record_button.isEnabled():
                self.record()
            return
        super().keyPressEvent(event)

    def _preview(self) -> None:
        """What the line will do, or why it does not read, as it is typed."""
        from companion.operations import Refused
        from companion.operations.recorded import preview_line

        campaign = self.window_.campaign
        text = self.line.text().strip()
        if campaign is None or not text:
            self.preview.setText(f"e.g. {EXAMPLE}")
            self.record_button.setEnabled(False)
            return
        try:
            said = preview_line(campaign, text)
        except Refused as refusal:
            self.preview.setText(f"Not yet: {refusal}")
            self.record_button.setEnabled(False)
            return
        self.preview.setText(f"Will apply: {said}")
        self.record_button.setEnabled(True)

    def record(self) -> bool:
        """Record the line (one operation); the dialog closes when it is applied, else
        it shows why and stays."""
        from companion.operations import recorded
        from companion.ui.dialog_operation import apply_and_close

        if self.window_.campaign is None:
            return False
        line, card, who = self.line.text(), self.card.text().strip(), self.who.currentData()
        operation = self.operation if self.operation is not None else functools.partial(
            recorded.record_what_happened, kind=self.kind)
        return apply_and_close(self, self.window_, lambda campaign: operation(
            campaign, line=line, card=card, character=who),
            say=self.preview, refused="Not recorded", done=self.recorded)


def record_at_table(window: Host, *, kind: str = "", card: str = "",
                    actor: str | None = None, step_prompt: str = "",
                    parent: QWidget | None = None) -> RecordDialog | None:
    """Open the record dialog (window-modal, returned at once): "Just record what
    happened" for a card, or, with ``step_prompt``, "We resolved this at the table"."""
    if window.campaign is None:
        return None
    intro = ""
    title = "Just record what happened"
    if step_prompt:
        title = "We resolved this at the table"
        intro = (f"“{step_prompt}” was resolved at the table. Type what happened, in one "
                 "line of effects: the activity ends here with this as its whole outcome "
                 "(what the app had tallied so far is not applied). Undo takes it back.")
    dialog = RecordDialog(window, kind=kind, card=card, actor=actor, title=title,
                          intro=intro, parent=parent)
    dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    dialog.open()
    return dialog


class RecordedCardsDialog(QDialog):
    """The cards recorded at the table as effects; each can be saved as a card."""

    def __init__(self, window: Host, parent: QWidget | None = None) -> None:
        super().__init__(parent or window)
        self.window_ = window
        self.setWindowTitle("Recorded at the table")
        self.setObjectName("recordedCards")
        layout = QVBoxLayout(self)
        hint = note_label("Cards the table resolved and recorded as effects. Save one as a "
                          "card of your own pack (its id and effects filled in) so the app "
                          "knows it next time.")
        layout.addWidget(hint)
        self.list = QListWidget()
        self.list.setAccessibleName("Cards recorded at the table")
        layout.addWidget(self.list, 1)
        self.save_button = button("&Save as a card…", self.save_selected)
        self.save_button.setObjectName("saveRecordAsCard")
        layout.addWidget(action_buttons(self, QDialogButtonBox.StandardButton.Close,
                                        self.save_button,
                                        QDialogButtonBox.ButtonRole.ActionRole, default=False))
        self.refresh()
        self.resize(620, 360)

    def refresh(self) -> None:
        from companion.content.user_pack import kind_word
        from companion.operations.recorded import recorded_cards

        self.list.clear()
        campaign = self.window_.campaign
        if campaign is None:
            self.save_button.setEnabled(False)
            return
        for record in recorded_cards(campaign):
            word = kind_word(record.kind) if record.kind else "card"
            saved = record.kind and record.card in (getattr(campaign.content, record.kind, {})
                                                    or {})
            item = QListWidgetItem(f"{word} {record.card}: {record.line}  ({record.when})"
                                   + ("  — saved as a card" if saved else ""))
            item.setData(Qt.ItemDataRole.UserRole, record)
            self.list.addItem(item)
        if self.list.count():
            self.list.setCurrentRow(0)
        self.save_button.setEnabled(self.list.count() > 0)

    def save_selected(self) -> QDialog | None:
        """Open the card form for the selected record, filled in; saving writes the card
        into the owner's pack (``operations.cards.enter_card``)."""
        from companion.operations.recorded import card_from_record
        from companion.ui.card_entry import enter_card_form

        item = self.list.currentItem()
        if item is None:
            return None
        kind, start = card_from_record(item.data(Qt.ItemDataRole.UserRole))
        return enter_card_form(self.window_, kind, initial=start, parent=self,
                               on_saved=lambda _card: self.refresh())
