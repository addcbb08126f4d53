"""The Codex dialog: read one entry, as a game component tells you to.

Spoiler-safe by construction (Rulebook: the Codex is secret information): the dialog
lists nothing and suggests nothing; it shows only the entry asked for, after the
lookup operation has recorded the reveal in the journal. An omen investigation must
match a current omen; a refusal shows the reason and reveals nothing.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

HELP = ("Type what the component tells you to read:\n"
        "  an outcome — 104 (\"read entry 104\")\n"
        "  an omen and a component ID — Cloud FO13\n"
        "  a crafting code — R1410, B2132 or Red 1410")


class CodexDialog(QDialog):
    """Look up one Codex entry; the reveal is an operation, journalled."""

    def __init__(self, window: Any, parent: QWidget | None = None) -> None:
        super().__init__(parent or window)
        self.window_ = window
        self.setWindowTitle("The Codex")
        self.setMinimumWidth(520)
        self.request = QLineEdit()
        self.request.setAccessibleName("Codex entry to read")
        self.request.setPlaceholderText("104, Cloud FO13 or R1410")
        # Enter reads the entry through the default button below; connecting
        # returnPressed as well read it (and showed a refusal) twice.
        self.character = QComboBox()
        self.character.setAccessibleName("Who investigates (omens)")
        self.character.addItem("— nobody in particular —", None)
        campaign = window.campaign
        for summary in campaign.characters() if campaign is not None else []:
            if summary.status == "active":
                self.character.addItem(summary.name, summary.name)
        self.omens = QLabel(self._omens_text())
        self.look_button = QPushButton("&Read Entry")
        self.look_button.setDefault(True)
        self.look_button.clicked.connect(self.look_up)
        row = QHBoxLayout()
        row.addWidget(self.request, 1)
        row.addWidget(self.look_button)
        form = QFormLayout()
        label = QLabel("&Entry:")
        label.setBuddy(self.request)
        form.addRow(label, row)
        form.addRow("&Investigator:", self.character)
        form.addRow("Current omen:", self.omens)
        self.help = QLabel(HELP)
        self.help.setObjectName("codexHelp")
        self.result_title = QLabel("")
        self.result_title.setObjectName("codexResultTitle")
        font = self.result_title.font()
        font.setBold(True)
        font.setPointSizeF(font.pointSizeF() * 1.2)
        self.result_title.setFont(font)
        self.entry_text = QTextBrowser()
        self.entry_text.setAccessibleName("Codex entry")
        self.entry_text.setPlaceholderText("Only the entry you ask for is shown, and reading it "
                                       "is recorded in the journal.")
        self.reveal: Any = None
        """The last :class:`~companion.operations.codex.CodexReveal` shown."""
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        # "Read outcome N" acted on (issue 25 part 4): its effects applied, or what it
        # did typed once and remembered (companion.ui.codex_outcome).
        self.act_button = QPushButton("Apply this &outcome…")
        self.act_button.setObjectName("actOnOutcome")
        self.act_button.setAutoDefault(False)
        self.act_button.hide()
        self.act_button.clicked.connect(self.act_on_outcome)
        buttons.addButton(self.act_button, QDialogButtonBox.ButtonRole.ActionRole)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.help)
        layout.addWidget(self.result_title)
        layout.addWidget(self.entry_text, 1)
        layout.addWidget(buttons)

    def _omens_text(self) -> str:
        campaign = self.window_.campaign
        omens = campaign.status().omens if campaign is not None else ()
        return ", ".join(o.capitalize() for o in omens) or "none"

    def look_up(self) -> bool:
        """Read the entry asked for; returns whether a lookup was made (and journalled)."""
        from companion.operations import codex

        text = self.request.text().strip()
        if not text:
            return False
        made: dict[str, Any] = {}

        def operation(campaign: Any, **kwargs: Any) -> Any:
            changes = codex.look_up(campaign, **kwargs)
            made["changes"] = changes
            return changes

        self.result_title.clear()
        self.entry_text.clear()
        if not self.window_.run_operation(operation, request=text,
                                          character=self.character.currentData()):
            return False
        reveal = made["changes"].detail
        self.reveal = reveal
        self.result_title.setText(reveal.title)
        self.entry_text.setPlainText(reveal.text)
        self.omens.setText(self._omens_text())
        outcome = reveal.kind == "outcome"
        self.act_button.setVisible(outcome)
        if outcome:
            self.act_button.setText("Apply this &outcome…" if reveal.found else
                                    "Type what it &did…")
        return True

    def act_on_outcome(self) -> QDialog | None:
        """The outcome just read, acted on (``codex_outcome.show_outcome``)."""
        from companion.ui.codex_outcome import show_outcome

        if self.reveal is None or self.reveal.kind != "outcome":
            return None
        return show_outcome(self.window_, self.reveal.label.split()[-1],
                            character=self.character.currentData(), parent=self)


def open_codex(window: Any) -> CodexDialog:
    """Play ▸ Codex: look up one entry (modeless, so the table can keep it open)."""
    dialog = CodexDialog(window)
    dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    dialog.show()
    return dialog
