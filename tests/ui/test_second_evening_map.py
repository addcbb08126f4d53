"""Issue 36 (the real box, second evening), item 14: after Undo to the start of the
campaign and Redo to the end, the Valley map shows the whole valley again, as it did
before (it came back hugely zoomed in: fitted to the empty valley of the start)."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtWidgets import QApplication

from companion.ui.main_window import MainWindow
from companion.ui.views.valley import ValleyView


def settle() -> None:
    for _ in range(4):
        QApplication.processEvents()


def whole_valley_in_view(valley: ValleyView) -> bool:
    view = valley.map
    shown = view.mapToScene(view.viewport().rect()).boundingRect()
    return shown.contains(view.map_scene.content_rect())


def test_item14_undo_to_the_start_and_redo_to_the_end_shows_the_whole_valley(
        qtbot: Any, window: MainWindow) -> None:
    window.resize(1280, 700)
    valley = window.show_view("valley")
    assert isinstance(valley, ValleyView)
    settle()
    before = valley.map.zoom()
    assert whole_valley_in_view(valley)
    while window.undo_action.isEnabled():  # back to the empty campaign
        window.undo_action.trigger()
    window.show_view("day")
    settle()
    window.show_view("valley")  # the map of the start: no hex yet
    settle()
    assert valley.map.zoom() <= 3.0  # not blown up to fill the window (it was 11 x)
    while window.redo_action.isEnabled():
        window.redo_action.trigger()
    settle()
    assert valley.map.zoom() == pytest.approx(before, rel=0.05)
    assert whole_valley_in_view(valley)
    window.grab().save("/tmp/shots/item14_redone.png")
