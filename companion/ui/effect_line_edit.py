"""One line of effects with completion (issue 25 part 3, issue 36 item 5): the line "Just
record what happened", the Codex's "Type what it did…" and the card form's effects are
typed in (``QCompleter`` over the effect words and the campaign's names, completing the
part after the last comma), and the "Will apply" line that says, as it is typed, what the
line will do or why it does not read yet."""

from __future__ import annotations

from PySide6.QtCore import QStringListModel, Qt
from PySide6.QtWidgets import QCompleter, QLabel, QLineEdit, QSizePolicy, QWidget

EXAMPLE = "gain 2 meat Ash, minor injury Ash, activity +1, lore +1"


class EffectLine(QLineEdit):
    """One line of effects, with completion over the effect words and the campaign's
    names: the part after the last comma is completed, the parts before it kept."""

    def __init__(self, words: list[str], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setPlaceholderText(EXAMPLE)
        self.setAccessibleName("What happened, as effects")
        self.words = QStringListModel(words, self)  # owned here: a bare one is collected
        self.parts = QCompleter(self.words, self)
        self.parts.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self.parts.setFilterMode(Qt.MatchFlag.MatchContains)
        self.parts.setCompletionMode(QCompleter.CompletionMode.PopupCompletion)
        self.parts.setMaxVisibleItems(8)
        # The completer is driven here, not by QLineEdit (which would complete, and
        # replace, the whole line).
        self.parts.setWidget(self)
        self.parts.activated.connect(self._take)
        self.textEdited.connect(self._offer)

    def completer(self) -> QCompleter:
        """The completer of the part being typed."""
        return self.parts

    def _offer(self, text: str) -> None:
        """Offer completions for the part after the last comma, or, when nothing starts
        that way, for its last word (a character's name: "minor injury Br")."""
        part = text.split(",")[-1].lstrip()
        self._replacing = part
        for typed in (part.strip(), part.split()[-1] if part.split() else ""):
            if not typed:
                continue
            self.parts.setCompletionPrefix(typed)
            if self.parts.completionCount():
                self._replacing = typed
                self.parts.complete()
                return
        popup = self.parts.popup()
        if popup is not None:
            popup.hide()

    def _take(self, completion: str) -> None:
        text = self.text().rstrip()
        replacing = getattr(self, "_replacing", "").strip()
        head = text[:len(text) - len(replacing)] if replacing and text.endswith(replacing) \
            else text + (", " if text and not text.endswith(",") else "")
        self.setText(head + completion)


class WillApply(QLabel):
    """What a typed line will do ("Will apply: …"), or why it does not read yet."""

    def __init__(self, example: str = EXAMPLE, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.example = example
        self.setObjectName("willApply")
        self.setAccessibleName("Will apply")
        self.setWordWrap(True)
        self.setTextFormat(Qt.TextFormat.PlainText)
        # Two lines kept for it from the start: the form does not jump, nor clip it, as
        # the line grows while it is typed.
        self.setMinimumHeight(self.fontMetrics().lineSpacing() * 2 + 4)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Minimum)
        self.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        self.say_example()

    def say_example(self) -> None:
        """Nothing typed: an example of the line."""
        self.setStyleSheet("")
        self.setText(f"e.g. {self.example}")

    def say(self, effects: str) -> None:
        """The line reads: what it will do."""
        self.setStyleSheet("")
        self.setText(f"Will apply: {effects}")

    def refuse(self, why: str) -> None:
        """The line does not read yet: why, in game words."""
        self.setStyleSheet("color: #a3231b;")
        self.setText(f"Not yet: {why}")
