"""UI test fixtures: a fresh campaign file per test."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtWidgets import QMessageBox

from companion import operations
from companion.ui.main_window import MainWindow
from tests.ui.helpers import make_window


@pytest.fixture
def campaign(tmp_path: Path) -> Iterator[operations.Campaign]:
    """A new two-character campaign from the sample pack, closed after the test."""
    opened = operations.new_campaign(tmp_path / "Test.stonesaga", society_name="The Ember Folk",
                                     players=2, characters=2, seed=7)
    yield opened
    opened.close()


@pytest.fixture
def demo(tmp_path: Path) -> Iterator[operations.Campaign]:
    """The demo campaign: first tray (E01 face up), challenge C1, Ash and Bryn in E01."""
    opened = operations.create_demo_campaign(tmp_path / "d.stonesaga")
    yield opened
    if not opened.file.closed:
        opened.close()


@pytest.fixture
def refusals(monkeypatch: Any) -> list[str]:
    """Refusals the window would show in a message box, collected instead."""
    shown: list[str] = []
    monkeypatch.setattr(QMessageBox, "warning", lambda parent, title, text: shown.append(text))
    return shown


@pytest.fixture
def window(qtbot: Any, demo: operations.Campaign) -> MainWindow:
    """A shown main window on the demo campaign."""
    return make_window(qtbot, demo)


@pytest.fixture
def warnings(monkeypatch: Any) -> list[str]:
    """Warnings a dialog would show in a message box (any number of arguments)."""
    shown: list[str] = []
    monkeypatch.setattr(QMessageBox, "warning",
                        lambda parent, title, text, *rest: shown.append(text))
    return shown


@pytest.fixture
def day(window: MainWindow) -> Any:
    """The Day view of a shown main window on the demo campaign."""
    from companion.ui.views.day import DayView

    view = window.show_view("day")
    assert isinstance(view, DayView)
    return view
