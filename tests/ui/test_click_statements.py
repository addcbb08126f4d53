"""Issue 37, "History length does not matter": a click's SQL statements, counted (never
timed) through the main window with every view built, are few and the same on a campaign
with thousands of journal events as on a new one; and every view still shows the truth
after a click that refreshes only what it wrote (lore leaves the map alone)."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import Engine

from bench.campaign import played_events
from companion import operations
from companion.operations import procedures
from companion.ui.main_window import MainWindow
from companion.ui.views import VIEWS
from tests.ui.helpers import make_window


@contextmanager
def statements() -> Iterator[list[str]]:
    """The SQL statements run inside the block."""
    seen: list[str] = []

    def hook(conn: Any, cursor: Any, statement: str, *rest: Any) -> None:
        seen.append(" ".join(statement.split()))

    event.listen(Engine, "before_cursor_execute", hook)
    try:
        yield seen
    finally:
        event.remove(Engine, "before_cursor_execute", hook)


def demo_with_history(path: Path, events: int) -> operations.Campaign:
    """The demo campaign with ``events`` journal events of past play before it."""
    operations.create_demo_campaign(path).close()
    if events:
        conn = sqlite3.connect(path)
        with conn:
            conn.executemany(
                "INSERT INTO journal_event (time, kind, text, author, payload, changes, "
                "undone, redoable) VALUES (?, ?, ?, NULL, ?, ?, 0, 0)", played_events(events))
        conn.close()
    return operations.open_campaign(path)


def every_view(qtbot: Any, campaign: operations.Campaign) -> MainWindow:
    window = make_window(qtbot, campaign)
    for key, *_ in VIEWS:
        window.view(key)
    window.show_view("valley")
    return window


CLICKS: tuple[tuple[str, Callable[..., Any], dict[str, Any]], ...] = (
    ("lore", operations.gain_lore, {"amount": 1}),
    ("journal entry", operations.add_journal_entry, {"text": "Kim fished at dawn"}),
    ("move", operations.move, {"name": "Ash", "to_hex": "E09"}),
)


def counted(window: MainWindow) -> dict[str, int]:
    """Statements per click of :data:`CLICKS`, then of Undo."""
    counts = {}
    for name, operation, kwargs in CLICKS:
        with statements() as seen:
            assert window.run_operation(operation, **kwargs)
        counts[name] = len(seen)
    with statements() as seen:
        window.undo_action.trigger()
    counts["undo"] = len(seen)
    return counts


def test_issue_37_a_click_reads_no_more_with_a_long_history(qtbot: Any, tmp_path: Path) -> None:
    new = counted(every_view(qtbot, demo_with_history(tmp_path / "new.stonesaga", 0)))
    long = counted(every_view(qtbot, demo_with_history(tmp_path / "long.stonesaga", 3000)))
    assert long == new
    # A journal entry writes no game row: the History page reads the new event, no more.
    assert new["journal entry"] <= 8
    assert new["lore"] <= 35
    # A move and its Undo read again only the rows they wrote (the map's character and
    # hex), the Undo/Redo labels come with the Undo.
    assert new["move"] <= 50
    assert new["undo"] <= 30


def test_issue_37_no_statement_of_a_click_counts_or_scans_the_journal(
        qtbot: Any, tmp_path: Path) -> None:
    window = every_view(qtbot, demo_with_history(tmp_path / "long.stonesaga", 200))
    with statements() as seen:
        for _name, operation, kwargs in CLICKS:
            assert window.run_operation(operation, **kwargs)
        window.undo_action.trigger()
        window.redo_action.trigger()
    journal = [s for s in seen if "journal_event" in s and s.startswith("SELECT")]
    assert journal
    for statement in journal:
        assert "count(" not in statement.lower()
        # Every read of the journal walks its id index from the newest end, or looks
        # one event up by id.
        assert ("ORDER BY journal_event.id DESC LIMIT" in statement
                or "max(journal_event.id)" in statement
                or "journal_event.redoable" in statement
                or "WHERE journal_event.id = " in statement), statement


def same_as_fresh(qtbot: Any, window: MainWindow, path: Path) -> None:
    """Every view of ``window`` shows what the views of a window opened afresh show."""
    fresh = every_view(qtbot, operations.open_campaign(path, lock="first-write"))
    shown: Any = {key: window.view(key) for key, *_ in VIEWS}
    again: Any = {key: fresh.view(key) for key, *_ in VIEWS}
    assert shown["valley"].data == again["valley"].data
    scenes = shown["valley"].scene, again["valley"].scene
    assert [{cell: item.state for cell, item in scene.hex_items.items()} for scene in scenes] \
        == [{cell: item.state for cell, item in scenes[1].hex_items.items()}] * 2
    assert [{name: item.state for name, item in scene.piece_items.items()}
            for scene in scenes] == \
        [{name: item.state for name, item in scenes[1].piece_items.items()}] * 2
    assert shown["valley"].grid.toPlainText() == again["valley"].grid.toPlainText()
    assert shown["valley"].heading.text() == again["valley"].heading.text()
    assert shown["characters"].model.rows == again["characters"].model.rows
    for label in ("lore", "unrest", "activity", "epoch"):
        assert getattr(shown["society"], label).text() == getattr(again["society"], label).text()
    assert shown["day"].turn.text() == again["day"].turn.text()
    assert sorted(shown["day"].boxes) == sorted(again["day"].boxes)
    assert [b.title() for b in shown["day"].boxes.values()] == \
        [b.title() for b in again["day"].boxes.values()]
    assert [line.text for line in shown["journal"].model.lines[:20]] == \
        [line.text for line in again["journal"].model.lines[:20]]
    assert shown["behemoth"].habits.text() == again["behemoth"].habits.text()
    for label in ("omen", "activity", "unrest", "epoch", "challenge"):
        assert window._status_labels[label].text() == fresh._status_labels[label].text()
    assert window.undo_action.text() == fresh.undo_action.text()
    assert window.redo_action.text() == fresh.redo_action.text()
    assert window.continue_action.isEnabled() == fresh.continue_action.isEnabled()
    fresh.close()


def test_issue_37_lore_leaves_the_map_and_every_view_shows_the_truth(
        qtbot: Any, tmp_path: Path) -> None:
    path = tmp_path / "d.stonesaga"
    campaign = demo_with_history(path, 0)
    window = every_view(qtbot, campaign)
    valley: Any = window.view("valley")
    before = valley.data
    assert window.run_operation(operations.gain_lore, amount=2)
    assert valley.data is before  # the map was not read again
    same_as_fresh(qtbot, window, path)
    # Each click on whichever tab is in front; after each, every view tells the truth.
    clicks: list[tuple[str, Any, dict[str, Any]]] = [
        ("day", operations.move, {"name": "Ash", "to_hex": "E09"}),
        ("valley", "undo", {}),
        ("journal", "redo", {}),
        ("society", "undo", {}),
        ("characters", operations.pass_turn, {"name": "Ash"}),
        ("valley", operations.pass_turn, {"name": "Bryn"}),
        ("journal", procedures.start_night, {}),
        ("day", "undo", {}),
        ("valley", operations.change_unrest, {"amount": 1}),
    ]
    for tab, operation, kwargs in clicks:
        window.show_view(tab)
        if operation == "undo":
            window.undo_action.trigger()
        elif operation == "redo":
            window.redo_action.trigger()
        else:
            assert window.run_operation(operation, **kwargs)
        same_as_fresh(qtbot, window, path)
    # Several clicks while the other tabs wait: each view catches up with all of them.
    window.show_view("valley")
    assert window.run_operation(operations.gain_lore, amount=1)
    window.undo_action.trigger()
    window.undo_action.trigger()
    window.undo_action.trigger()
    window.redo_action.trigger()
    same_as_fresh(qtbot, window, path)


def test_issue_37_the_map_reads_again_only_the_rows_a_click_wrote(
        qtbot: Any, tmp_path: Path, monkeypatch: Any, refusals: list[str]) -> None:
    """A move, its undo and redo read again the character's row and the explored hex's,
    not the whole map; a new tray reads it whole. After each, the map is a fresh
    window's."""
    from companion.operations import exploration
    from companion.ui.views import valley as valley_view

    path = tmp_path / "d.stonesaga"
    campaign = demo_with_history(path, 0)
    window = every_view(qtbot, campaign)
    whole: list[str] = []
    read_rows = valley_view.read_rows

    def read_whole(campaign: operations.Campaign) -> Any:
        whole.append("read")
        return read_rows(campaign)

    monkeypatch.setattr(valley_view, "read_rows", read_whole)
    tray = exploration.legal_placements(campaign, "Bryn")[0]
    clicks: list[tuple[str, Any, dict[str, Any], bool]] = [
        # (what, the operation or "undo"/"redo", its arguments, the map read whole)
        ("Ash explores E09", operations.move, {"name": "Ash", "to_hex": "E09"}, False),
        ("undone", "undo", {}, False),
        ("redone", "redo", {}, False),
        ("the Discovery drawn", exploration.draw_discovery, {}, False),
        ("Bryn follows to E09", operations.move, {"name": "Bryn", "to_hex": "E09"}, False),
        ("undone", "undo", {}, False),
        ("Bryn explores a new tray", exploration.explore_new_tray,
         {"name": "Bryn", "origin": tray.origin, "orientation": tray.orientation,
          "enter": tray.entries[-1]}, True),
        ("undone", "undo", {}, True),
        ("redone", "redo", {}, True),
    ]
    for what, operation, kwargs, read in clicks:
        whole.clear()
        if operation == "undo":
            window.undo_action.trigger()
        elif operation == "redo":
            window.redo_action.trigger()
        else:
            assert window.run_operation(operation, **kwargs), (what, refusals)
        assert bool(whole) is read, what
        same_as_fresh(qtbot, window, path)
