"""The Legends page: each lineage across the generations (who succeeded whom), and every
legend's card."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QSplitter, QTreeWidget, QTreeWidgetItem

from companion.ui.journal_book.page import Page, item, tree

if TYPE_CHECKING:
    from companion.operations import Campaign


class LegendsPage(Page):
    """Legends: each lineage across generations, and every legend's card."""

    title = "Legends"

    def __init__(self, window: Any) -> None:
        super().__init__(window)
        self.lineage = QTreeWidget()
        self.lineage.setAccessibleName("Lineages")
        self.lineage.setHeaderLabels(["Lineage (who succeeded whom)"])
        self.tree = tree("Legends", ("Legend", "Epoch", "Succeeded by", "Assigned to",
                                     "Marks", "Traits"))
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(self.lineage)
        split.addWidget(self.tree)
        self.layout_.addWidget(split, 1)

    def refresh(self, campaign: Campaign | None) -> None:
        from companion.operations import journal as j

        self.lineage.clear()
        self.tree.clear()
        lines = j.legends(campaign) if campaign else []
        for chain in j.lineages(lines):
            top = QTreeWidgetItem([chain[0]])
            self.lineage.addTopLevelItem(top)
            parent = top
            for name in chain[1:]:
                child = QTreeWidgetItem([f"↳ {name}"])
                parent.addChild(child)
                parent = child
        self.lineage.expandAll()
        for x in lines:
            self.tree.addTopLevelItem(item((x.name, x.epoch, x.succeeded_by or "—",
                                            x.assigned_to or "—", ", ".join(x.marks) or "—",
                                            ", ".join(x.traits) or "—"), x.id))
        if not lines:
            self.lineage.addTopLevelItem(QTreeWidgetItem(["No legends yet."]))
