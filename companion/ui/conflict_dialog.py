"""Settling a conflict of a shared campaign (issue 38): both sides side by side in game
words ("On Bryn's laptop: … Here: …"), and the group picks one.

The side not kept is never deleted: it stays in the history as undone operations (it can
be redone, and undoing the settle brings the conflict back). The choice travels like any
operation, so every machine ends with the same campaign.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from companion.ui.file_menu import show_refusal
from companion.ui.host import Host

if TYPE_CHECKING:
    from companion.operations.sharing import Conflict

KEPT_AS_HISTORY = ("The side you do not keep is not deleted: it stays in the campaign's "
                   "history as undone changes, and can be redone later. Edit ▸ Undo after "
                   "settling brings the conflict back.")


def their_name(conflict: Conflict) -> str:
    """The other machine's name in this conflict ("Bryn's laptop")."""
    if conflict.waiting.machine != "Here":
        return conflict.waiting.machine
    names = [s.machine for s in conflict.in_effect if s.machine != "Here"]
    return ", ".join(dict.fromkeys(names)) or "the other machine"


class ConflictDialog(QDialog):
    """One conflict at a time; settling it shows the next, until none is left."""

    def __init__(self, window: Host, parent: QWidget | None = None) -> None:
        super().__init__(parent or window)
        self.setObjectName("conflictDialog")
        self.setWindowTitle("Settle a conflict")
        self.window_ = window
        self.conflict: Conflict | None = None
        layout = QVBoxLayout(self)
        self.heading = QLabel()
        self.heading.setObjectName("conflictHeading")
        self.heading.setWordWrap(True)
        layout.addWidget(self.heading)
        sides = QHBoxLayout()
        self.theirs_box, self.theirs_text, self.keep_theirs = self._side("theirs")
        self.here_box, self.here_text, self.keep_here = self._side("here")
        sides.addWidget(self.theirs_box, 1)
        sides.addWidget(self.here_box, 1)
        layout.addLayout(sides, 1)
        note = QLabel(KEPT_AS_HISTORY)
        note.setObjectName("conflictHistoryNote")
        note.setWordWrap(True)
        layout.addWidget(note)
        buttons = QDialogButtonBox()
        later = buttons.addButton("Decide later", QDialogButtonBox.ButtonRole.RejectRole)
        later.setObjectName("decideLater")
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self.setMinimumWidth(560)
        self.refresh()

    def _side(self, side: str) -> tuple[QGroupBox, QLabel, QPushButton]:
        box = QGroupBox()
        box.setObjectName(f"{side}Side")
        column = QVBoxLayout(box)
        text = QLabel()
        text.setObjectName(f"{side}Text")
        text.setWordWrap(True)
        column.addWidget(text, 1)
        keep = QPushButton()
        keep.setObjectName(f"keep_{side}")
        keep.clicked.connect(lambda: self.keep(side))
        column.addWidget(keep)
        return box, text, keep

    def refresh(self) -> bool:
        """Show the first conflict waiting; False when none is left."""
        from companion.operations import Refused, sharing

        campaign = self.window_.campaign
        try:
            waiting = sharing.conflicts(campaign) if campaign is not None else []
        except Refused:
            waiting = []
        self.conflict = waiting[0] if waiting else None
        if self.conflict is None:
            self.heading.setText("No conflict is left to settle.")
            for widget in (self.theirs_box, self.here_box):
                widget.setEnabled(False)
            return False
        conflict = self.conflict
        other = their_name(conflict)
        count = f" (1 of {len(waiting)})" if len(waiting) > 1 else ""
        if conflict.refused:  # the rules refuse the waiting side on the merged campaign
            self.heading.setText(
                f"<b>A change made apart cannot apply here{count}:</b> the rules refuse it "
                "on the campaign as merged. Keep the other side, or first settle the "
                "conflict that holds back what it needs; every machine will keep the same.")
        else:
            self.heading.setText(
                f"<b>Both machines changed the same thing while apart{count}.</b> Choose "
                "the side the campaign keeps; every machine will keep the same.")
        self.theirs_box.setTitle(f"On {other}")
        self.theirs_text.setText(conflict.theirs)
        self.keep_theirs.setText(f"Keep {other}'s side")
        self.here_box.setTitle("Here")
        self.here_text.setText(conflict.here)
        self.keep_here.setText("Keep this machine's side")
        for widget in (self.theirs_box, self.here_box):
            widget.setEnabled(True)
        # A side the rules refuse here cannot be kept (settle says why): not offered.
        refused = self.keep_here if conflict.waiting.machine == "Here" else self.keep_theirs
        refused.setEnabled(not (conflict.refused and not conflict.in_effect))
        for label in (self.theirs_text, self.here_text):
            # Wrapped, a side needs its height at its column's width at any text size
            # (a dialog's layout sizes by the one-line height and would clip it).
            label.setMinimumHeight(label.heightForWidth(
                min(label.width(), self.minimumWidth() // 2 - 40)))
        self.adjustSize()
        return True

    def keep(self, side: str) -> None:
        """Settle the conflict shown, keeping ``side`` ("here" or "theirs")."""
        from companion.operations import Refused, sharing

        campaign = self.window_.campaign
        if campaign is None or self.conflict is None:
            return
        try:
            report = sharing.settle(campaign, self.conflict.number, side)
        except Refused as refusal:
            show_refusal(self, "Could not settle the conflict", refusal)
            return
        self.window_.refresh_all()
        self.window_.statusBar().showMessage(report.words)
        if not self.refresh():
            self.accept()


def settle_conflicts(window: Host) -> ConflictDialog | None:
    """Open the conflict dialog (non-blocking); None, with the user told, when there is
    no conflict to settle."""
    dialog = ConflictDialog(window)
    if dialog.conflict is None:
        dialog.deleteLater()
        window.statusBar().showMessage("No conflict is left to settle.")
        return None
    dialog.open()
    return dialog
