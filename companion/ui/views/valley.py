"""Valley view: the journal's Valley Map — every placed tray and the IDs of its hexes.

The interactive hex map (pan, zoom, fog, moving characters) grows here in the Valley
map work; this view already shows the real valley of the campaign, never made-up data.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtWidgets import QLabel, QTreeWidget, QTreeWidgetItem, QVBoxLayout, QWidget

from companion.ui.views import wants

if TYPE_CHECKING:
    from companion.ui.main_window import MainWindow


class ValleyView(QWidget):
    """The Valley tab."""

    def __init__(self, window: MainWindow) -> None:
        super().__init__()
        self.window_ = window
        self.heading = QLabel()
        self.heading.setWordWrap(True)
        self.tree = QTreeWidget()
        self.tree.setAccessibleName("Valley trays and hexes")
        self.tree.setHeaderLabels(["Tray / hex", "Region", "Explored", "Features"])
        layout = QVBoxLayout(self)
        layout.addWidget(self.heading)
        layout.addWidget(self.tree)
        window.campaign_changed.connect(self.on_changed)

    def on_changed(self, changes: object) -> None:
        campaign = self.window_.campaign
        if not wants(changes, "valley") or campaign is None:
            return
        trays = campaign.valley()
        hexes = sum(len(t.hexes) for t in trays)
        self.heading.setText(
            f"<b>Valley map</b> — {len(trays)} terrain tray(s), {hexes} hex(es). "
            "The interactive map view is not built yet; this is the journal's grid of hex IDs."
        )
        self.tree.clear()
        for tray in trays:
            tray_item = QTreeWidgetItem([f"Tray {tray.index}", tray.region, "", ""])
            for hex_ in tray.hexes:
                QTreeWidgetItem(tray_item, [
                    hex_.tile_id if hex_.explored else f"{hex_.tile_id} (face down)",
                    hex_.region,
                    "yes" if hex_.explored else "no",
                    ", ".join(hex_.features) if hex_.explored else "— hidden in the mist —",
                ])
            self.tree.addTopLevelItem(tray_item)
            tray_item.setExpanded(True)
        for column in range(4):
            self.tree.resizeColumnToContents(column)
