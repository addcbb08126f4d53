"""The Valley tab's map on the demo campaign (Ash and Bryn in E01; the first tray holds
E01 face up and two hexes face down): clicking hexes, moving through the panel and by
dragging, refusals with their reasons, exploring a new tray, redrawing only what changed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QEvent, QPoint, QPointF, Qt
from PySide6.QtGui import QMouseEvent
from PySide6.QtWidgets import QApplication, QMessageBox

from companion import operations
from companion.operations import exploration as ops
from companion.rules.geometry import Axial
from companion.ui import map_items
from companion.ui.main_window import MainWindow
from companion.ui.views.valley import ValleyView
from tests.ui.helpers import make_window


@pytest.fixture
def refusals(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    shown: list[str] = []

    def warning(parent: Any, title: str, text: str, *args: Any) -> Any:
        shown.append(text)
        return QMessageBox.StandardButton.Ok

    monkeypatch.setattr(QMessageBox, "warning", warning)
    return shown


def open_valley(qtbot: Any, campaign: operations.Campaign) -> tuple[MainWindow, ValleyView]:
    window = make_window(qtbot, campaign)
    view = window.view("valley")
    assert isinstance(view, ValleyView)
    return window, view


def cell_of(view: ValleyView, tile: str) -> Axial:
    assert view.data is not None
    return view.data.valley.locate(tile)  # type: ignore[arg-type]


def energy(campaign: operations.Campaign, name: str) -> int:
    return next(c.energy for c in campaign.characters() if c.name == name)


def hex_of(campaign: operations.Campaign, name: str) -> str | None:
    return next(c.hex_id for c in campaign.characters() if c.name == name)


def face_down(view: ValleyView) -> list[Axial]:
    assert view.data is not None
    return sorted(c for c in view.data.valley.tiles if c not in view.data.valley.explored)


def click(qtbot: Any, view: ValleyView, cell: Axial) -> None:
    view.map.centerOn(map_items.centre(cell))
    qtbot.mouseClick(view.map.viewport(), Qt.MouseButton.LeftButton,
                     pos=view.map.view_point(cell))


def test_the_map_shows_the_demo_valley(qtbot: Any, demo: operations.Campaign) -> None:
    _, view = open_valley(qtbot, demo)
    scene = view.scene
    assert len(scene.hex_items) == 3
    assert set(scene.piece_items) == {"Ash", "Bryn"}
    start = cell_of(view, "E01")
    assert scene.hex_items[start].state.explored
    assert [s.feature for s in scene.hex_items[start].state.sections] == \
        ["plains", "river", "forest"]
    assert all(not scene.hex_items[c].state.explored for c in face_down(view))
    assert {p.state.cell for p in scene.piece_items.values()} == {start}
    assert scene.piece_items["Ash"].state.initials == "As"  # not a section letter


def test_clicking_a_hex_fills_the_side_panel(qtbot: Any, demo: operations.Campaign) -> None:
    _, view = open_valley(qtbot, demo)
    click(qtbot, view, cell_of(view, "E01"))
    assert view.selected == cell_of(view, "E01")
    assert view.hex_title.text() == "E01 — Ashen Ford"
    details = view.hex_details.text()
    assert "Emberfen Lowlands" in details
    assert "A: Plains" in details and "B: River" in details and "C: Forest" in details
    assert "at set up" in details
    assert "Ash (5/5 energy)" in details and "Bryn" in details
    view.character_combo.setCurrentText("Ash")
    actions = view.actions_label.text()
    assert "Gather Water at the river: 1 energy" in actions
    assert "Forage at the plains: 2 energy" in actions
    assert not view.move_button.isEnabled()  # already here
    # a face-down neighbour: the Explore cost
    other = face_down(view)[0]
    click(qtbot, view, other)
    assert view.hex_title.text() == "A face-down hex"  # its ID is not shown
    assert "hidden in the mist" in view.hex_details.text()
    assert "Explore" in view.actions_label.text() and "2 energy" in view.actions_label.text()
    assert view.move_button.isEnabled()


def test_move_here_shows_the_cost_then_moves(qtbot: Any, demo: operations.Campaign,
                                             refusals: list[str]) -> None:
    _, view = open_valley(qtbot, demo)
    view.character_combo.setCurrentText("Ash")
    target = face_down(view)[0]
    tile = view.data.valley.tiles[target]  # type: ignore[union-attr]
    click(qtbot, view, target)
    qtbot.mouseClick(view.move_button, Qt.MouseButton.LeftButton)
    assert view.confirm_box.isVisibleTo(view)
    # Valley > Hexes: the face-down tile is not named, only where it lies.
    assert "Explore the unexplored hex " in view.confirm_label.text()
    assert f"{tile}" not in view.confirm_label.text()
    assert energy(demo, "Ash") == 5  # nothing paid before confirming
    qtbot.mouseClick(view.confirm_button, Qt.MouseButton.LeftButton)
    assert refusals == []
    assert energy(demo, "Ash") == 3 and hex_of(demo, "Ash") == tile
    assert view.scene.hex_items[target].state.explored
    assert view.scene.piece_items["Ash"].state.cell == target
    # a Discovery is now due: the panel offers it, the app draws
    assert view.discovery_box.isVisibleTo(view)
    assert "Ash arrived in" in view.discovery_label.text()
    qtbot.mouseClick(view.draw_button, Qt.MouseButton.LeftButton)
    assert ops.discovery_due(demo) is None
    assert not view.discovery_box.isVisibleTo(view)


def drag(view: ValleyView, start: QPointF, end: QPointF) -> None:
    """Press, move with the left button held, release: a real drag through the viewport."""
    viewport = view.map.viewport()
    a, b = view.map.mapFromScene(start), view.map.mapFromScene(end)
    left, none = Qt.MouseButton.LeftButton, Qt.MouseButton.NoButton
    mods = Qt.KeyboardModifier.NoModifier
    for kind, at, button, held in ((QEvent.Type.MouseButtonPress, a, left, left),
                                   (QEvent.Type.MouseMove, (a + b) / 2, none, left),
                                   (QEvent.Type.MouseMove, b, none, left),
                                   (QEvent.Type.MouseButtonRelease, b, left, none)):
        point = QPointF(at)
        event = QMouseEvent(kind, point, viewport.mapToGlobal(point), button, held, mods)
        QApplication.sendEvent(viewport, event)


def test_drag_a_piece_onto_a_neighbour_asks_to_confirm(qtbot: Any, demo: operations.Campaign,
                                                       refusals: list[str]) -> None:
    _, view = open_valley(qtbot, demo)
    view.map.fit()
    target = face_down(view)[1]
    piece = view.scene.piece_items["Bryn"]
    drag(view, piece.scenePos(), map_items.centre(target))
    # the piece goes back until the move is confirmed
    assert piece.pos() == map_items.piece_position(piece.state.cell, piece.state.slot)
    assert view.character() == "Bryn" and view.move_target == target
    assert "Explore" in view.confirm_label.text() and "2 energy" in view.confirm_label.text()
    assert energy(demo, "Bryn") == 5
    qtbot.mouseClick(view.confirm_button, Qt.MouseButton.LeftButton)
    assert energy(demo, "Bryn") == 3
    assert view.scene.piece_items["Bryn"].state.cell == target


def test_a_second_action_in_a_row_is_refused_with_the_reason(
        qtbot: Any, demo: operations.Campaign, refusals: list[str]) -> None:
    window, view = open_valley(qtbot, demo)
    view.character_combo.setCurrentText("Ash")
    first, second = face_down(view)
    view.select_hex(first)
    view.start_move(first)
    assert view.confirm_move()
    operations_before = demo.journal(1)[0].id
    ops.draw_discovery(demo, card="DI04")
    window.refresh_all()
    view.select_hex(second)
    assert "Bryn must act or pass first" in view.actions_label.text()
    before = (demo.characters(), view.data.valley)  # type: ignore[union-attr]
    view.start_move(second)
    assert not view.confirm_move()
    assert refusals and "Bryn must act or pass first" in refusals[-1]
    assert (demo.characters(), view.data.valley) == before  # type: ignore[union-attr]
    assert demo.journal(1)[0].id == operations_before + 1  # only the Discovery since


def test_a_move_to_a_hex_not_adjacent_is_refused(qtbot: Any, demo: operations.Campaign,
                                                 refusals: list[str]) -> None:
    window, view = open_valley(qtbot, demo)
    option = next(o for o in ops.legal_placements(demo, "Ash") if len(o.entries) == 1)
    ops.explore_new_tray(demo, name="Ash", origin=option.origin, orientation=option.orientation)
    ops.draw_discovery(demo, card="DI04")
    window.refresh_all()
    start = cell_of(view, "E01")
    far = next(c for c in option.cells if not c.is_adjacent(start))
    view.character_combo.setCurrentText("Bryn")
    view.select_hex(far)
    assert "not next to" in view.actions_label.text()
    before = demo.characters()
    view.start_move(far)
    assert not view.confirm_move()
    assert refusals and "not next to" in refusals[-1]
    assert demo.characters() == before


def test_a_move_updates_only_the_moved_piece(qtbot: Any, demo: operations.Campaign) -> None:
    _, view = open_valley(qtbot, demo)
    start = cell_of(view, "E01")
    explored_neighbour_moves = []
    created = map_items.ITEMS_CREATED["count"]
    hex_items = dict(view.scene.hex_items)
    pieces = dict(view.scene.piece_items)
    view.character_combo.setCurrentText("Ash")
    target = face_down(view)[0]
    view.select_hex(target)
    view.start_move(target)
    assert view.confirm_move()
    # exploring flips one hex and moves one piece; nothing is recreated
    assert map_items.ITEMS_CREATED["count"] == created
    assert view.scene.hex_items == hex_items and view.scene.piece_items == pieces
    assert sorted(view.scene.updated) == sorted([f"hex {target}", "piece Ash"])
    # a plain move back (after Bryn passes): only Ash's piece changes
    operations.pass_turn(demo, name="Bryn")
    ops.draw_discovery(demo, card="DI04")
    view.window_.refresh_all()
    view.select_hex(start)
    view.start_move(start)
    assert view.confirm_move()
    assert map_items.ITEMS_CREATED["count"] == created
    assert view.scene.updated == ["piece Ash"]
    del explored_neighbour_moves


def test_explore_a_new_tray_from_the_panel(qtbot: Any, demo: operations.Campaign,
                                           refusals: list[str]) -> None:
    _, view = open_valley(qtbot, demo)
    view.character_combo.setCurrentText("Ash")
    view.explore_button.setChecked(True)
    legal = ops.legal_placements(demo, "Ash")
    assert view.placements.count() == len(legal)
    assert len(view.scene.ghosts) == len(legal)
    view.placements.setCurrentRow(1)
    assert view.entry_combo.count() == len(legal[1].entries)
    assert view.place_tray()
    assert refusals == []
    assert len(view.scene.hex_items) == 6
    assert not view.scene.ghosts
    assert hex_of(demo, "Ash") == view.data.valley.tiles[legal[1].entries[0]]  # type: ignore
    assert "Ash arrived in" in view.discovery_label.text()


def test_zoom_and_pan(qtbot: Any, demo: operations.Campaign) -> None:
    _, view = open_valley(qtbot, demo)
    view.map.resize(600, 400)
    before = view.map.zoom()
    view.map.zoom_in()
    assert view.map.zoom() == pytest.approx(before * 1.2)
    view.map.zoom_out()
    assert view.map.zoom() == pytest.approx(before)
    bar = view.map.horizontalScrollBar()
    view.map.zoom_by(3)
    value = bar.value()
    qtbot.mousePress(view.map.viewport(), Qt.MouseButton.MiddleButton, pos=QPoint(300, 200))
    qtbot.mouseMove(view.map.viewport(), QPoint(250, 200))
    qtbot.mouseRelease(view.map.viewport(), Qt.MouseButton.MiddleButton, pos=QPoint(250, 200))
    assert bar.value() != value or bar.maximum() == 0


def _full_valley(path: Path) -> operations.Campaign:
    """The screenshots' full valley: both regions' 18 hexes, outposts, a ruin, the lair,
    the behemoth and its target, tokens (built by scripts/map_screenshots.py)."""
    import importlib.util

    script = Path(__file__).resolve().parents[2] / "scripts" / "map_screenshots.py"
    spec = importlib.util.spec_from_file_location("map_screenshots", script)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.build_full_valley(path)  # type: ignore[no-any-return]


def test_largest_valley_a_move_touches_one_piece(qtbot: Any, tmp_path: Path,
                                                 refusals: list[str]) -> None:
    campaign = _full_valley(tmp_path / "full.stonesaga")
    try:
        _, view = open_valley(qtbot, campaign)
        scene = view.scene
        assert len(scene.hex_items) == 18
        assert scene.behemoth_item is not None and scene.target_item is not None
        states = [h.state for h in scene.hex_items.values()]
        covers = {s.overlay for h in states for s in h.sections}
        assert {"outpost", "ruin", "lair"} <= covers
        assert any(h.fire for h in states) and any(h.shelter for h in states)
        assert any(h.lore > 1 for h in states)
        created = map_items.ITEMS_CREATED["count"]
        ash = view.data.valley.locate(  # type: ignore[union-attr]
            next(c.hex_id for c in campaign.characters() if c.name == "Ash"))
        # an explored neighbour with no lore token (entering one collects it: a real change)
        target = next(c for c in ash.neighbours()
                      if c in view.data.valley.explored  # type: ignore[union-attr]
                      and not scene.hex_items[c].state.lore)
        view.character_combo.setCurrentText("Ash")
        view.select_hex(target)
        view.start_move(target)
        assert view.confirm_move(), refusals
        assert map_items.ITEMS_CREATED["count"] == created
        assert view.scene.updated == ["piece Ash"]
    finally:
        campaign.close()


def test_arrow_keys_pan_and_ctrl_plus_zooms(qtbot: Any, demo: operations.Campaign) -> None:
    _, view = open_valley(qtbot, demo)
    view.map.resize(500, 400)
    view.map.resetTransform()  # from 1:1, whatever size the window gave the map
    view.map.zoom_by(3)
    view.map.setFocus()
    bar = view.map.horizontalScrollBar()
    value = bar.value()
    qtbot.keyClick(view.map, Qt.Key.Key_Right)
    assert bar.value() > value
    zoom = view.map.zoom()
    view.map.zoom_in()
    assert view.map.zoom() > zoom
    view.map.fit()
    assert view.map.zoom() < zoom


def test_the_map_previews_the_behemoths_path_with_exact_odds(qtbot: Any, demo: Any) -> None:
    from companion.operations import behemoth as behemoth_ops

    window = make_window(qtbot, demo)
    options = behemoth_ops.set_up_options(demo)
    beast = next(iter(options.behemoths))
    assert window.run_operation(behemoth_ops.set_up_behemoth, behemoth=beast,
                                lair_hex=options.lair_hexes[0])
    valley = window.view("valley")
    badges = valley.scene.odds_items
    assert badges, "no preview on the map"
    total = sum(badge.chance for badge in badges.values())
    assert abs(total - 1.0) < 1e-9
    assert all(b.text().startswith("◆ ") and b.text().endswith("%") for b in badges.values())


def test_a_campaign_with_a_behemoth_shows_its_odds_once_the_map_is_up(
        qtbot: Any, demo: Any) -> None:
    """The odds are exact but cost time: opening the campaign paints the map first."""
    from companion.operations import behemoth as behemoth_ops

    options = behemoth_ops.set_up_options(demo)
    beast = next(iter(options.behemoths))
    behemoth_ops.set_up_behemoth(demo, behemoth=beast, lair_hex=options.lair_hexes[0])
    window, valley = open_valley(qtbot, demo)
    assert valley.data is not None and valley.data.behemoth is not None
    qtbot.waitUntil(lambda: bool(valley.scene.odds_items))
    total = sum(badge.chance for badge in valley.scene.odds_items.values())
    assert abs(total - 1.0) < 1e-9
    assert valley.data.behemoth_odds == {tile: badge.chance for tile, badge in
                                         valley.scene.odds_items.items()}


def test_valley_overlays_place_an_overlay_from_the_hex_panel(
    qtbot: Any, demo: operations.Campaign, refusals: list[str]
) -> None:
    """Rulebook: Valley > Overlays: a game effect covers a section; the panel offers the
    overlays still in the box for the uncovered sections of an explored hex."""
    _, view = open_valley(qtbot, demo)
    click(qtbot, view, face_down(view)[0])
    assert view.overlay_box.isHidden()  # nothing is placed on a face-down hex
    click(qtbot, view, cell_of(view, "E01"))
    assert not view.overlay_box.isHidden()
    assert [view.overlay_combo.itemText(i) for i in range(view.overlay_combo.count())] == [
        "Rockfall"]
    assert [view.section_combo.itemText(i) for i in range(view.section_combo.count())] == [
        "A: Plains", "B: River", "C: Forest"]
    view.section_combo.setCurrentIndex(1)
    qtbot.mouseClick(view.overlay_button, Qt.MouseButton.LeftButton)
    assert refusals == []
    assert "B: River — covered by the" in view.hex_details.text()
    assert "Rockfall" in view.hex_details.text()
    assert view.overlay_box.isHidden()  # the only such overlay is now in the valley
    operations.undo(demo)
    assert ops.overlay_choices(demo)[0]["placed_on"] is None
