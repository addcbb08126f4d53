""""Read outcome N", acted on (issue 25 part 4, issue 27 item 6; Rulebook: Using the
Codex > Outcomes). ONE dialog for every place that names an outcome: a step or a card's
``{do: read, outcome: N}`` (the procedure dialog's "Outcome N…"), the Codex dialog,
and the End Challenge dialog, which calls :func:`show_outcome`.

Spoiler-safe: it shows outcome N only, when N is reached. When the campaign's content
has N, its text and effects are shown and **Apply its effects** applies them in one
undoable operation (a choice the app cannot make is flagged, and the table types what
it did instead). When the content lacks N, the group reads it in the book and types
what it did (an effect line with completion); **Apply and remember** applies it and
remembers it under N in the owner's pack
(``operations.codex_outcomes.resolve_outcome``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QPushButton,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from companion.ui.widgets import action_buttons, button

if TYPE_CHECKING:
    from companion.ui.host import Host


class OutcomeDialog(QDialog):
    """Codex outcome N: shown, and its effects applied (or typed once and remembered)."""

    applied = Signal(object)
    """The operation's Changes, once the outcome was acted on."""

    def __init__(self, window: Host, number: str | int, *, character: str | None = None,
                 parent: QWidget | None = None) -> None:
        from companion.operations.codex_outcomes import outcome_entry
        from companion.operations.recorded import completion_words
        from companion.ui.effect_line_edit import EffectLine, WillApply
        from companion.ui.table_record import who_box

        super().__init__(parent or window)
        self.window_ = window
        campaign = window.campaign
        assert campaign is not None
        self.entry = outcome_entry(campaign, number)
        self.setObjectName("codexOutcome")
        self.setWindowTitle(f"Codex outcome {self.entry.number}")
        layout = QVBoxLayout(self)
        heading = QLabel(f"Outcome {self.entry.number}")
        font = heading.font()
        font.setBold(True)
        font.setPointSizeF(max(font.pointSizeF(), 9) * 1.3)
        heading.setFont(font)
        layout.addWidget(heading)
        self.text = QTextBrowser()
        self.text.setAccessibleName(f"Outcome {self.entry.number}")
        self.text.setMinimumHeight(self.fontMetrics().height() * 5)
        layout.addWidget(self.text, 1)
        self.status = QLabel()
        self.status.setObjectName("outcomeStatus")
        self.status.setWordWrap(True)
        layout.addWidget(self.status)
        form = self.form = QFormLayout()
        self.who = who_box(campaign, "Whom its effects on a character fall on", character)
        form.addRow("&Who:", self.who)
        self.line = EffectLine(completion_words(campaign))
        self.line.setAccessibleName("What the outcome did, as effects")
        form.addRow("What it &did:", self.line)
        # As "Just record what happened" does: what the line will do, as it is typed.
        self.will_apply = WillApply()
        form.addRow(self.will_apply)
        self.line.textChanged.connect(lambda _text: self._preview())
        layout.addLayout(form)
        self.apply_button = button("", self.apply)
        self.apply_button.setObjectName("applyOutcome")
        layout.addWidget(action_buttons(self, QDialogButtonBox.StandardButton.Close,
                                        self.apply_button,
                                        QDialogButtonBox.ButtonRole.ActionRole))
        self._show()
        self.resize(620, 360)

    def keyPressEvent(self, event: Any) -> None:  # noqa: N802 (Qt's name)
        """Return acts on the outcome (a completion picked in the popup is taken first)."""
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            event.accept()
            self.apply()
            return
        super().keyPressEvent(event)

    def _show(self) -> None:
        entry = self.entry
        typed_needed = not entry.known or not entry.effects or bool(entry.needs)
        if not entry.known:
            self.text.setPlainText(
                f"Outcome {entry.number} is not in this campaign's Codex. Read it in the "
                "book, do what it says, and type below what it did: the app applies it and "
                "remembers it for the next time this outcome is read (never listed "
                "anywhere else).")
            self.status.setText("")
            self.apply_button.setText("&Apply and remember")
        else:
            said = "\n".join(f"• {e}" for e in entry.effects)
            origin = "\n\n(Recorded at the table.)" if entry.recorded else ""
            self.text.setPlainText(f"{entry.text}\n\n{said}{origin}" if said else
                                   f"{entry.text}{origin}")
            if entry.needs:
                self.status.setText(f"⚑ The app cannot apply this as it is: {entry.needs}.")
            elif not entry.effects:
                self.status.setText("It has no effects the app can apply: do what it says, "
                                    "or type what it did below.")
            else:
                self.status.setText(f"Its effects: {', '.join(entry.effects)}."
                                    + (" Say who gets them." if entry.needs_character
                                       else ""))
            self.apply_button.setText("&Apply what we typed" if typed_needed
                                      else "&Apply its effects")
        self.typed_needed = typed_needed
        self.form.setRowVisible(self.line, typed_needed)
        self.form.setRowVisible(self.will_apply, typed_needed)
        self.form.setRowVisible(self.who, typed_needed or entry.needs_character)
        (self.line if typed_needed else self.apply_button).setFocus()

    def _preview(self) -> None:
        """What the typed line will do, or why it does not read yet (issue 36 item 5)."""
        from companion.operations import Refused
        from companion.operations.recorded import preview_line

        campaign = self.window_.campaign
        text = self.line.text().strip()
        if campaign is None or not text:
            self.will_apply.say_example()
            return
        try:  # a material the pack lacks: its token is offered on Apply, and said so
            self.will_apply.say(preview_line(campaign, text))
        except Refused as refusal:
            self.will_apply.refuse(str(refusal))

    def apply(self) -> bool:
        """Act on the outcome (one operation); the dialog closes when it is applied,
        else it says why and stays."""
        from companion.operations.codex_outcomes import resolve_outcome
        from companion.ui.dialog_operation import apply_and_close

        if self.window_.campaign is None:
            return False
        line = self.line.text() if self.typed_needed else ""
        return apply_and_close(self, self.window_, lambda campaign: resolve_outcome(
            campaign, number=self.entry.number, line=line, character=self.who.currentData()),
            say=self.status, refused="Not applied", done=self.applied)


def show_outcome(window: Host, number: str | int, *, character: str | None = None,
                 parent: QWidget | None = None) -> OutcomeDialog | None:
    """Open outcome ``number`` (window-modal, returned at once): shown and acted on in
    one undoable operation; ``applied`` is emitted with its Changes. None if no
    campaign is open or ``number`` is not an outcome (said in a message box)."""
    from PySide6.QtWidgets import QMessageBox

    from companion.operations import Refused

    if window.campaign is None:
        return None
    try:
        dialog = OutcomeDialog(window, number, character=character, parent=parent)
    except Refused as refusal:
        QMessageBox.warning(parent or window, "Not an outcome", str(refusal))
        return None
    dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    dialog.setWindowModality(Qt.WindowModality.WindowModal)
    dialog.open()
    return dialog


def outcomes_named(text: str) -> list[str]:
    """The outcome numbers ``text`` tells the table to read ("Read outcome 220", "Read
    Codex outcome 104."), each once, in order."""
    import re

    found = re.findall(r"(?i)\bread (?:codex )?(?:outcome|entry) #?(\d{1,3})\b", text)
    return list(dict.fromkeys(f"{int(n):03d}" for n in found))


class OutcomeLinks(QWidget):
    """A button "Outcome N…" for each outcome a result says to read (a step's, a card's
    ``{do: read}``): each opens :class:`OutcomeDialog`."""

    def __init__(self, window: Host, parent: QWidget | None = None) -> None:
        from PySide6.QtWidgets import QHBoxLayout

        super().__init__(parent)
        self.window_ = window
        self.buttons: list[QPushButton] = []
        outer = QHBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        self.row = QHBoxLayout()
        outer.addLayout(self.row)
        outer.addStretch(1)
        self.hide()

    def show_for(self, text: str, *, character: str | None = None) -> None:
        """One button per outcome ``text`` names (hidden when it names none)."""
        for link in self.buttons:
            self.row.removeWidget(link)
            link.deleteLater()
        self.buttons = []
        for number in outcomes_named(text):
            link = QPushButton(f"Read outcome {number}…")
            link.setObjectName(f"outcome{number}")
            link.setAutoDefault(False)
            link.setToolTip("Show it and apply its effects (or type what it did)")
            link.clicked.connect(lambda _=False, n=number: show_outcome(
                self.window_, n, character=character, parent=self.window()))
            self.row.addWidget(link)
            self.buttons.append(link)
        self.setVisible(bool(self.buttons))
