"""run_with_progress: the result comes back, the exception too, the window keeps
processing events while the worker runs, and progress reports reach the dialog."""

from __future__ import annotations

import threading
import time

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QWidget

from companion.ui.progress import run_with_progress


def test_returns_the_result_while_the_event_loop_keeps_running(qtbot) -> None:  # type: ignore[no-untyped-def]
    window = QWidget()
    qtbot.addWidget(window)
    ticks: list[int] = []
    timer = QTimer()
    timer.timeout.connect(lambda: ticks.append(1))
    timer.start(10)
    main = threading.get_ident()
    seen: list[int] = []

    def slow(a: int, b: int) -> int:
        seen.append(threading.get_ident())
        # Work until the GUI thread has handled a few timer events (a fixed sleep lost
        # the race on a loaded machine: tests never time things, DESIGN.md).
        deadline = time.monotonic() + 60
        while len(ticks) < 5 and time.monotonic() < deadline:
            time.sleep(0.01)
        return a + b

    assert run_with_progress(window, "Exporting", slow, 2, 3) == 5
    timer.stop()
    assert seen and seen[0] != main  # the work ran off the GUI thread
    assert len(ticks) >= 5  # ...and the GUI thread kept handling events


def test_reraises_in_the_caller(qtbot) -> None:  # type: ignore[no-untyped-def]
    def fail() -> None:
        raise ValueError("the export file is not a campaign")

    with pytest.raises(ValueError, match="not a campaign"):
        run_with_progress(None, "Importing", fail)


def test_reports_progress(qtbot) -> None:  # type: ignore[no-untyped-def]
    def work(n: int, *, report) -> str:  # type: ignore[no-untyped-def]
        for i in range(n):
            report(i + 1, n, f"Page {i + 1} of {n}")
            time.sleep(0.01)
        return "done"

    assert run_with_progress(None, "Building the PDF", work, 5, report=True) == "done"
