"""A long evening at the table never crashes the app (issue 37, the clicks of an evening).

PySide6-Essentials 6.12.0 loses a reference to ``None`` on every call of a Qt method that
returns nothing (``show``, ``setText``, ``setToolTip`` ...). On Python 3.11 ``None`` is not
immortal: each click of the window lowered its count by ~125, and a few hundred clicks
into an evening Python deallocated ``None`` and aborted ("Fatal Python error:
none_dealloc"). pyproject.toml excludes that release; these tests catch any release that
brings the leak back. They count references (no timing): a leaking build loses about one
per call, so ``N`` calls would lower the count by ``N`` or more.
"""

from __future__ import annotations

import sys
from typing import Any

from PySide6.QtWidgets import QLabel

from companion import operations
from companion.ui.main_window import MainWindow
from companion.ui.widgets import Slot, SlotRow

CALLS = 500


def none_references() -> int:
    """How many references to ``None`` the interpreter holds now."""
    return sys.getrefcount(None)


def settle_the_heap() -> None:
    """Objects of earlier tests in this process (widgets waiting for deleteLater, cycles
    waiting for the collector) let go of their references to None when they go; let them
    go before counting, so only the evening's own calls are counted."""
    import gc

    from PySide6.QtCore import QCoreApplication, QEvent
    from PySide6.QtWidgets import QApplication

    for _ in range(3):
        QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
        QApplication.processEvents()
        gc.collect()


def test_a_qt_call_returning_nothing_keeps_its_reference_to_none(qtbot: Any) -> None:
    label = QLabel()
    qtbot.addWidget(label)
    label.setToolTip("Ash")  # the first call may fill Qt's and shiboken's caches
    before = none_references()
    for _ in range(CALLS):
        label.setToolTip("Ash")
        label.setText("3")
        label.show()
    lost = before - none_references()
    assert lost < CALLS, (
        f"{3 * CALLS} Qt calls returning nothing lost {lost} references to None: this "
        "PySide6 release would crash the app after a long evening")


def test_a_track_redrawn_all_evening_keeps_none_alive(qtbot: Any) -> None:
    """The track SlotRow.set_slots redraws after every click (health, energy, unrest,
    lore ...) was on the stack of the crash."""
    track = SlotRow("Health")
    qtbot.addWidget(track)
    track.show()
    slots = [Slot("1", "filled", "a wound"), Slot("2", marked=True), Slot("3")]
    track.set_slots(slots, "Health 1 of 3")
    before = none_references()
    for i in range(CALLS):
        track.set_slots(slots[: 1 + i % 3], f"Health {1 + i % 3} of 3")
    lost = before - none_references()
    assert track.texts() == ["1", "2", "3"][: 1 + (CALLS - 1) % 3]
    assert lost < CALLS, f"{CALLS} redraws of a track lost {lost} references to None"


def test_an_evening_of_clicks_keeps_none_alive(qtbot: Any, demo: operations.Campaign) -> None:
    """Clicks through the main window (a move, Undo, Redo, lore), every view built."""
    from companion.ui.views import VIEWS

    window = MainWindow()
    qtbot.addWidget(window)
    window.show()
    window.set_campaign(demo)
    for key, *_ in VIEWS:  # every tab visited, as after a player looked at each
        window.view(key)
    window.show_view("valley")
    clicks, lore = 0, demo.status().lore
    settle_the_heap()
    before = none_references()
    for i in range(10):
        assert window.run_operation(operations.move, name="Ash", to_hex="E09") is not None
        window.undo_action.trigger()
        window.redo_action.trigger()
        window.undo_action.trigger()
        assert window.run_operation(operations.gain_lore, amount=1,
                                    reason=f"a song {i}") is not None
        clicks += 5
    settle_the_heap()
    lost = before - none_references()
    assert demo.status().lore == lore + 10
    assert lost < clicks, f"{clicks} clicks lost {lost} references to None"
