"""Society view: the unrest, activity and lore tracks drawn as tracks (thresholds and
activity events marked), the current challenge's activity events (the back of the
challenge card is open information), the unrest thresholds in effect, epoch goals in
play, culture, and controls to adjust the tracks through the operations.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from PySide6 import QtWidgets
from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QColor, QFont

from companion.ui.views import relevant
from companion.ui.widgets import STYLES, Slot, SlotRow, heading, read_game

if TYPE_CHECKING:
    from companion.ui.host import Host

TRACK_LENGTH = 20
"""Boxes drawn on a track at least (the dials go on; the row grows with the value)."""


def _big(text: str = "") -> QtWidgets.QLabel:
    label = heading(text, 1.8)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    return label


def unrest_slots(unrest: int, thresholds: dict[int, str]) -> list[Slot]:
    """Unrest 0..20 (or more): filled up to the dial, thresholds marked, reached ones
    highlighted (Rulebook: Tracks > Unrest; D10)."""
    slots = []
    for n in range(0, max(TRACK_LENGTH, unrest) + 1):
        at = thresholds.get(n)
        kind = ("reached" if at and n <= unrest else "filled" if 0 < n <= unrest else "")
        tip = f"Unrest {n}" + (f": {at}" if at else "") + (" (reached)" if at and
                                                          n <= unrest else "")
        slots.append(Slot(str(n), kind, tip, marked=bool(at)))
    return slots


def activity_slots(activity: int, events: list[tuple[int, int | None, str, bool]]) -> list[Slot]:
    """Activity 0..20 (or the card's last event): filled up to the dial, event thresholds
    marked, fired events highlighted."""
    at: dict[int, list[tuple[str, bool]]] = {}
    for threshold, _until, text, fired in events:
        at.setdefault(threshold, []).append((text, fired))
    top = max([TRACK_LENGTH, activity, *[e[0] for e in events],
               *[e[1] for e in events if e[1] is not None]])
    slots = []
    for n in range(0, top + 1):
        here = at.get(n, [])
        fired = any(f for _, f in here)
        kind = "fired" if fired else ("filled" if 0 < n <= activity else "")
        tip = f"Activity {n}" + "".join(f": {t}{' (fired)' if f else ''}" for t, f in here)
        slots.append(Slot(str(n), kind, tip, marked=bool(here)))
    return slots


def lore_slots(lore: int) -> list[Slot]:
    """Lore boxes on the Culture page: marked up to the lore held."""
    return [Slot(str(n), "filled" if n <= lore else "", f"Lore box {n}"
                 + (" (marked)" if n <= lore else ""))
            for n in range(1, max(TRACK_LENGTH, lore) + 1)]


SHOWS = frozenset({"society", "campaign", "culture_ability", "mantle_power", "goal_state",
                   "deck_state"})
"""The tables the view is drawn from (``Campaign.status``, the goals, the events fired;
issue 37: a move or a step of the Night leaves it alone)."""


class SocietyView(QtWidgets.QWidget):
    """The Society tab."""

    def __init__(self, window: Host) -> None:
        super().__init__()
        self.window_ = window
        self.society_name = QtWidgets.QLabel()
        self.society_name.setObjectName("societyName")
        self.unrest = _big()
        self.activity = _big()
        self.lore = _big()
        self.epoch = QtWidgets.QLabel()
        for label, name in ((self.unrest, "Unrest"), (self.activity, "Activity"),
                            (self.lore, "Lore"), (self.epoch, "Epoch")):
            label.setAccessibleName(name)
        self.unrest_track = SlotRow("Unrest track")
        self.activity_track = SlotRow("Activity track")
        self.lore_track = SlotRow("Lore track")
        tracks = QtWidgets.QGroupBox("Tracks")
        grid = QtWidgets.QGridLayout(tracks)
        for row, (title, big, track) in enumerate((
                ("Unrest (persists)", self.unrest, self.unrest_track),
                ("Activity (this challenge)", self.activity, self.activity_track),
                ("Lore", self.lore, self.lore_track))):
            grid.addWidget(QtWidgets.QLabel(title), row * 2, 0)
            grid.addWidget(big, row * 2, 1)
            grid.addWidget(track, row * 2 + 1, 0, 1, 3)
        grid.addWidget(QtWidgets.QLabel("Epoch:"), 6, 0)
        grid.addWidget(self.epoch, 6, 1, 1, 2)
        legend = QtWidgets.QLabel("Boxes up to the dial are filled; a heavy border marks an unrest "
                                  "threshold or an activity event; red: threshold reached; purple: "
                                  "event fired. Hover a box for its effect.")
        legend.setWordWrap(True)
        grid.addWidget(legend, 7, 0, 1, 3)
        grid.setColumnStretch(2, 1)

        adjust = QtWidgets.QGroupBox("Adjust the tracks (an effect or a card says so)")
        form = QtWidgets.QGridLayout(adjust)
        self.unrest_amount, self.unrest_reason, self.unrest_button = self._adjust_row(
            form, 0, "U&nrest by:", -20, 20, "Change &Unrest", self.change_unrest)
        self.activity_amount, self.activity_reason, self.activity_button = self._adjust_row(
            form, 1, "Ac&tivity up by:", 1, 30, "Increase &Activity", self.increase_activity)
        self.lore_amount, self.lore_reason, self.lore_button = self._adjust_row(
            form, 2, "L&ore by:", -20, 20, "Gain or Spend &Lore", self.change_lore)
        hint = QtWidgets.QLabel("Negative amounts lower unrest or spend lore. Thresholds and "
                                "activity events apply by themselves.")
        hint.setWordWrap(True)
        form.addWidget(hint, 3, 0, 1, 4)
        form.setColumnStretch(2, 1)

        self.thresholds = QtWidgets.QListWidget()
        self.thresholds.setAccessibleName("Unrest thresholds")
        threshold_box = QtWidgets.QGroupBox("Unrest thresholds (Rulebook: Tracks > Unrest)")
        threshold_layout = QtWidgets.QVBoxLayout(threshold_box)
        threshold_layout.addWidget(self.thresholds)
        self.goals = QtWidgets.QLabel()
        self.goals.setWordWrap(True)
        self.goals.setAccessibleName("Epoch goals in play")
        threshold_layout.addWidget(self.goals)
        self.events = QtWidgets.QListWidget()
        self.events.setAccessibleName("Activity events of the challenge")
        self.events.setWordWrap(True)
        self.events_box = QtWidgets.QGroupBox("Activity events (back of the challenge card)")
        QtWidgets.QVBoxLayout(self.events_box).addWidget(self.events)
        self.culture = QtWidgets.QListWidget()
        self.culture.setAccessibleName("Culture abilities and mantle powers")
        culture_box = QtWidgets.QGroupBox("Culture abilities and mantle powers")
        QtWidgets.QVBoxLayout(culture_box).addWidget(self.culture)

        left = QtWidgets.QVBoxLayout()
        left.addWidget(tracks)
        left.addWidget(adjust)
        left.addWidget(culture_box)
        left.addStretch(1)
        right = QtWidgets.QVBoxLayout()
        right.addWidget(threshold_box, 2)
        right.addWidget(self.events_box, 3)
        columns = QtWidgets.QHBoxLayout()
        columns.addLayout(left, 3)
        columns.addLayout(right, 2)
        layout = QtWidgets.QVBoxLayout(self)
        layout.addWidget(self.society_name)
        layout.addLayout(columns, 1)
        for widget in (self.thresholds, self.events, self.culture):
            widget.setMinimumHeight(self.fontMetrics().height() * 3)
            widget.setWordWrap(True)
            widget.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.culture.setMaximumHeight(self.fontMetrics().height() * 7)
        window.campaign_changed.connect(self.on_changed)

    def _adjust_row(self, grid: QtWidgets.QGridLayout, row: int, title: str, low: int, high: int,
                    button_text: str, slot: Callable[[], None]
                    ) -> tuple[QtWidgets.QSpinBox, QtWidgets.QLineEdit, QtWidgets.QPushButton]:
        spin = QtWidgets.QSpinBox()
        spin.setRange(low, high)
        spin.setValue(1)
        label = QtWidgets.QLabel(title)
        label.setBuddy(spin)
        name = title.replace("&", "").rstrip(":")
        spin.setAccessibleName(name)
        reason = QtWidgets.QLineEdit()
        reason.setPlaceholderText("Reason (for the journal)")
        reason.setAccessibleName(f"Reason: {name}")
        reason.returnPressed.connect(slot)
        button = QtWidgets.QPushButton(button_text)
        button.setAccessibleName(button_text.replace("&", ""))
        button.clicked.connect(slot)
        grid.addWidget(label, row, 0)
        grid.addWidget(spin, row, 1)
        grid.addWidget(reason, row, 2)
        grid.addWidget(button, row, 3)
        return spin, reason, button

    # -- adjusting (through the operations) -----------------------------------------

    def _run(self, operation: Any, reason: QtWidgets.QLineEdit, **kwargs: Any) -> None:
        if self.window_.run_operation(operation, reason=reason.text().strip(), **kwargs):
            reason.clear()

    def change_unrest(self) -> None:
        from companion.operations import change_unrest

        self._run(change_unrest, self.unrest_reason, amount=self.unrest_amount.value())

    def increase_activity(self) -> None:
        from companion.operations import increase_activity

        self._run(increase_activity, self.activity_reason, amount=self.activity_amount.value())

    def change_lore(self) -> None:
        from companion.operations import gain_lore, spend_lore

        amount = self.lore_amount.value()
        operation = spend_lore if amount < 0 else gain_lore
        self._run(operation, self.lore_reason, amount=abs(amount))

    # -- showing ------------------------------------------------------------------------

    def on_changed(self, changes: object) -> None:
        campaign = self.window_.campaign
        if campaign is None or not relevant(changes, ("society", "challenge"), shows=SHOWS) \
                or self.window_.defer(self, changes):
            return  # (deferred: refreshed once when its tab is shown, issue 37)
        from companion.operations.setup import goals

        status = campaign.status()
        content = campaign.content
        self.society_name.setText(f"<h2>{status.society_name}</h2>")
        self.unrest.setText(str(status.unrest))
        self.activity.setText(str(status.activity))
        self.lore.setText(str(status.lore))
        self.epoch.setText(f"{status.epoch} — games this epoch: {status.games_this_epoch}")
        thresholds = {line.at: line.text for line in status.unrest_thresholds}
        active = [line.text for line in status.unrest_thresholds if line.active]
        self.unrest_track.set_slots(
            unrest_slots(status.unrest, thresholds),
            f"Unrest {status.unrest}; " + ("; ".join(active) if active else
                                           "no threshold reached"))
        self.thresholds.clear()
        bold = QFont(self.font())
        bold.setBold(True)
        background, colour = STYLES["reached"]
        for line in status.unrest_thresholds:
            item = QtWidgets.QListWidgetItem(("● " if line.active else "○ ") + line.text)
            item.setToolTip(("In effect: " if line.active else "Not reached: ") + line.text)
            if line.active:
                item.setFont(bold)
                item.setBackground(QBrush(QColor(background)))
                item.setForeground(QBrush(QColor(colour)))
            self.thresholds.addItem(item)
        in_play = [content.goals[g].name if g in content.goals else g
                   for g, state in goals(campaign) if state == "epoch"]
        self.goals.setText("Epoch goals in play: " + (", ".join(in_play) if in_play else
                                                       "none"))

        fired_ids = read_game(campaign).society.triggered_events
        card = content.challenges.get(status.challenge_id) if status.challenge_id else None
        events: list[tuple[int, int | None, str, bool]] = []
        self.events.clear()
        if card is None:
            self.events.addItem("No challenge is being played.")
            self.events_box.setTitle("Activity events (no challenge)")
        else:
            self.events_box.setTitle(f"Activity events of {card.name} "
                                     "(back of the challenge card)")
            for number, event in enumerate(card.events, 1):
                fired = f"{card.id}#{number}" in fired_ids
                events.append((event.threshold, event.until, event.text, fired))
                span = (f"{event.threshold}–{event.until}" if event.until is not None
                        else f"{event.threshold}+")
                item = QtWidgets.QListWidgetItem(
                    f"{'✔ fired' if fired else '○'}  Activity {span} · "
                    f"{str(event.type.value).title()} · {event.text}")
                item.setToolTip(("Fired: " if fired else "Not yet: ") + event.text)
                if fired:
                    item.setFont(bold)
                self.events.addItem(item)
        self.activity_track.set_slots(
            activity_slots(status.activity, events),
            f"Activity {status.activity}; {sum(1 for e in events if e[3])} event(s) fired")
        self.lore_track.set_slots(lore_slots(status.lore), f"Lore {status.lore}")
        self.culture.clear()
        for name in status.culture:
            self.culture.addItem(name)
        if not status.culture:
            self.culture.addItem("None yet: culture abilities and mantle powers are unlocked "
                                 "by game effects.")
