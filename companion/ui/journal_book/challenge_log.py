"""The Challenge Log: per epoch, each challenge played, its characters and the outcome
entry it ended with (recorded at the start and the end of each game)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from PySide6.QtWidgets import QLabel, QTreeWidgetItem

from companion.ui.journal_book.page import TablePage, item
from companion.ui.widgets import button, row_of

if TYPE_CHECKING:
    from companion.operations import Campaign


class ChallengeLogPage(TablePage):
    """Challenge Log: per epoch, each challenge, its characters and outcome entry."""

    title = "Challenge Log"
    headers = ("Challenge", "Characters", "Outcome entry", "Notes")
    empty = "No challenge played yet."

    def build(self) -> None:
        self.tree.setRootIsDecorated(True)
        self.outcome_button = button("Record &Outcome…", self.record_outcome)
        self.characters_button = button("C&haracters…", self.set_characters)
        self.layout_.addLayout(row_of(
            QLabel("At the start of each game record the challenge and the characters; at "
                   "the end, the outcome entry read."),
            self.characters_button, self.outcome_button))

    def rows(self, campaign: Campaign) -> Iterator[QTreeWidgetItem]:
        """One row an epoch, its challenges under it."""
        from companion.operations import journal as j

        epochs: dict[int, QTreeWidgetItem] = {}
        for line in j.challenge_log(campaign):
            parent = epochs.get(line.epoch)
            if parent is None:
                parent = epochs[line.epoch] = QTreeWidgetItem([f"Epoch {line.epoch}"])
                yield parent
            parent.addChild(item((f"{line.challenge_name} ({line.challenge_id})",
                                  ", ".join(line.characters) or "—",
                                  line.outcome_entry or "—", line.notes_shown), line.id))

    def refresh(self, campaign: Campaign | None) -> None:
        super().refresh(campaign)
        self.tree.expandAll()

    def record_outcome(self) -> None:
        from companion.operations import journal as j

        answer = self.ask_about_selected(
            "Outcome entry", "The Codex outcome entry the challenge ended with:")
        if answer is not None:
            self.run(j.record_outcome, entry_id=answer[0], outcome=answer[1])

    def set_characters(self) -> None:
        from companion.operations import journal as j

        answer = self.ask_about_selected("Characters",
                                         "The characters used, separated by commas:")
        if answer is not None:
            self.run(j.set_challenge_characters, entry_id=answer[0],
                     characters=answer[1].split(","))
