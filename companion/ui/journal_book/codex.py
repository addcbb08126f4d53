"""The Omens & Codes page: the omens investigated, the Codex entries read (their numbers
and the players' notes only) and the crafting codes found, and the way into the Codex."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtWidgets import QLabel

from companion.ui.journal_book.page import Page, item, tree
from companion.ui.widgets import button, row_of

if TYPE_CHECKING:
    from companion.operations import Campaign


class CodexPage(Page):
    """Omens investigated and crafting codes found, and the way into the Codex."""

    title = "Omens & Codes"

    def __init__(self, window: Any) -> None:
        super().__init__(window)
        self.codex_button = button("Open the &Codex…", self.open_codex)
        self.codex_button.setToolTip("Read one entry: an outcome, an omen entry or a "
                                     "crafting code. Nothing else is shown.")
        row = row_of(QLabel("Only entries the society has read are recorded here."),
                     self.codex_button)
        self.omens = tree("Omens investigated", ("Epoch", "Omen", "Component", "Note"))
        self.codes = tree("Crafting codes found", ("Code", "Found", "Item"))
        self.codex = tree("Codex entries read", ("Entry", "Title", "Source", "Notes"))
        self.layout_.addLayout(row)
        self.layout_.addWidget(QLabel("Omens investigated"))
        self.layout_.addWidget(self.omens, 1)
        self.layout_.addWidget(QLabel("Codex entries read (numbers and your notes only)"))
        self.layout_.addWidget(self.codex, 1)
        self.layout_.addWidget(QLabel("Crafting codes found"))
        self.layout_.addWidget(self.codes, 1)

    def open_codex(self) -> None:
        from companion.ui.codex_dialog import CodexDialog

        CodexDialog(self.window_, parent=self).exec()

    def refresh(self, campaign: Campaign | None) -> None:
        from companion.operations import journal as j

        self.omens.clear()
        self.codes.clear()
        self.codex.clear()
        if campaign is None:
            return
        for read in j.codex_entries_read(campaign):
            self.codex.addTopLevelItem(item(read))
        for epoch, omen, component, note in j.omen_investigations(campaign):
            self.omens.addTopLevelItem(item((epoch, omen.capitalize(), component, note)))
        for code, status, name in j.crafting_codes(campaign):
            self.codes.addTopLevelItem(item((code, "dead end" if status == "null" else status,
                                             name)))
