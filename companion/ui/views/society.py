"""Society view: unrest (with its thresholds), activity, lore, epoch and culture."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QFormLayout,
    QGroupBox,
    QLabel,
    QListWidget,
    QVBoxLayout,
    QWidget,
)

from companion.ui.views import wants

if TYPE_CHECKING:
    from companion.ui.main_window import MainWindow


def _big(text: str = "") -> QLabel:
    label = QLabel(text)
    font = label.font()
    font.setPointSizeF(font.pointSizeF() * 1.8)
    font.setBold(True)
    label.setFont(font)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    return label


class SocietyView(QWidget):
    """The Society tab."""

    def __init__(self, window: MainWindow) -> None:
        super().__init__()
        self.window_ = window
        self.society_name = QLabel()
        self.society_name.setObjectName("societyName")
        self.unrest = _big()
        self.activity = _big()
        self.lore = _big()
        self.epoch = QLabel()
        for label, name in ((self.unrest, "Unrest"), (self.activity, "Activity"),
                            (self.lore, "Lore"), (self.epoch, "Epoch")):
            label.setAccessibleName(name)
        tracks = QGroupBox("Tracks")
        form = QFormLayout(tracks)
        form.addRow("Unrest (persists):", self.unrest)
        form.addRow("Activity (this challenge):", self.activity)
        form.addRow("Lore:", self.lore)
        form.addRow("Epoch:", self.epoch)
        self.thresholds = QListWidget()
        self.thresholds.setAccessibleName("Unrest thresholds")
        threshold_box = QGroupBox("Unrest thresholds (Rulebook: Tracks > Unrest)")
        QVBoxLayout(threshold_box).addWidget(self.thresholds)
        self.culture = QListWidget()
        self.culture.setAccessibleName("Culture abilities and mantle powers")
        culture_box = QGroupBox("Culture abilities and mantle powers")
        QVBoxLayout(culture_box).addWidget(self.culture)
        layout = QVBoxLayout(self)
        layout.addWidget(self.society_name)
        layout.addWidget(tracks)
        layout.addWidget(threshold_box)
        layout.addWidget(culture_box)
        window.campaign_changed.connect(self.on_changed)

    def on_changed(self, changes: object) -> None:
        campaign = self.window_.campaign
        if not wants(changes, "society") or campaign is None:
            return
        status = campaign.status()
        self.society_name.setText(f"<h2>{status.society_name}</h2>")
        self.unrest.setText(str(status.unrest))
        self.activity.setText(str(status.activity))
        self.lore.setText(str(status.lore))
        self.epoch.setText(f"{status.epoch} — games this epoch: {status.games_this_epoch}")
        self.thresholds.clear()
        for line in status.unrest_thresholds:
            self.thresholds.addItem(("● " if line.active else "○ ") + line.text)
        self.culture.clear()
        for name in status.culture:
            self.culture.addItem(name)
        if not status.culture:
            self.culture.addItem("None yet: culture abilities and mantle powers are unlocked "
                                 "by game effects.")
