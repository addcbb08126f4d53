"""Issue 37, start-up: the campaign is on screen from a light read (plain sqlite3 and
the content cache's JSON) before the database layer loads, and the real views then take
its place with nothing visible changing; whatever opening would refuse, migrate, check
or offer opens the usual way only."""

from __future__ import annotations

import dataclasses
import os
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QApplication, QLabel

from companion import operations
from companion.content import user_pack
from companion.operations import box, core, procedure_row
from companion.store import first_rows, lock, migrations
from companion.ui import first_view
from companion.ui.first_view import read_first_view
from companion.ui.main_window import MainWindow
from companion.ui.map_view import read_map


def _closed_demo(tmp_path: Path) -> Path:
    path = tmp_path / "Demo.stonesaga"
    operations.create_demo_campaign(path).close()  # its packs' cache is written too
    return path


def _played(path: Path) -> None:
    """A little play, so that the map shows more than the demo's start: a fire, lore."""
    campaign = operations.open_campaign(path)
    try:
        with campaign.file.transaction("test", "tokens") as session:
            from companion.store import models

            hexes = session.exec(__import__("sqlmodel").select(models.ValleyHex)).all()
            placed = next(h for h in hexes if h.tile_id)
            session.add(models.HexToken(hex_id=placed.id or 0, kind="fire", count=1))
            session.add(models.HexToken(hex_id=placed.id or 0, kind="lore", count=2))
    finally:
        campaign.close()


def _labels(window: MainWindow) -> dict[str, str]:
    return {label.objectName(): label.text() for label in window.statusBar().findChildren(QLabel)
            if label.objectName().startswith("status_")}


def _shown(window: MainWindow, *, settled: bool
           ) -> tuple[QImage, dict[str, str], str, list[str]]:
    """What the window shows: the first view as the launcher paints it (no event loop
    yet), the real one once the event loop has run (``settled``)."""
    if settled:
        QApplication.processEvents()
    window.repaint()
    tabs = [window.tabs.tabText(i) for i in range(window.tabs.count())]
    return window.grab().toImage(), _labels(window), window.windowTitle(), tabs


@pytest.fixture(params=[100, 125], ids=["system-font", "larger-text"])
def text_percent(request: Any) -> Iterator[int]:
    """The system font, then Settings ▸ Text size ▸ Larger (issue 27 item 13)."""
    from companion.ui import text_size

    app = QApplication.instance()
    assert isinstance(app, QApplication)
    original = app.font()
    text_size.apply(app, request.param)
    yield request.param
    app.setFont(original)


@pytest.mark.parametrize("played", [False, True], ids=["demo", "after-play"])
def test_first_view_shows_exactly_what_the_real_view_then_shows(
        qtbot: Any, tmp_path: Path, played: bool, text_percent: int) -> None:
    """Issue 37: same map, same status bar, same title, same pixels, before and after the
    real views take the first view's place (at both text sizes, on a laptop's window)."""
    path = _closed_demo(tmp_path)
    if played:
        _played(path)
    first = read_first_view(path)
    assert first is not None
    window = MainWindow()
    qtbot.addWidget(window)
    window.resize(1180, 680)
    window.show()
    window.show_first_view(first)
    before = _shown(window, settled=False)
    assert window.campaign is None  # nothing acts on the first view: no campaign yet
    assert not any(action.isEnabled() for action in window._campaign_actions)
    campaign = operations.open_campaign(path, verify="background")
    window.set_campaign(campaign)
    after = _shown(window, settled=True)
    real = dataclasses.replace(read_map(campaign, odds=False))
    assert first.map == real
    assert before[1:] == after[1:]
    assert before[1]["status_activity"].startswith("Activity: ")
    if os.environ.get("FIRST_VIEW_SHOTS"):  # to look at them: before.png, after.png
        shots = Path(os.environ["FIRST_VIEW_SHOTS"])
        before[0].save(str(shots / f"before-{played}-{text_percent}.png"))
        after[0].save(str(shots / f"after-{played}-{text_percent}.png"))
    assert before[0] == after[0], "the screen changed when the real views took over"
    window.close()


def test_first_view_needs_no_database_layer_or_content_schema(tmp_path: Path) -> None:
    """Issue 37: the light read imports neither sqlmodel nor pydantic (a fresh process)."""
    import subprocess
    import sys

    path = _closed_demo(tmp_path)
    code = ("import sys; from pathlib import Path; "
            "from companion.ui.first_view import read_first_view; "
            f"assert read_first_view(Path({str(path)!r})) is not None; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in "
            "('sqlmodel', 'sqlalchemy', 'pydantic', 'yaml')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=dict(os.environ), check=True)
    assert out.stdout.strip() == "[]"


def test_first_view_leaves_to_the_usual_opening_a_log_a_lock_or_an_older_file(
        tmp_path: Path) -> None:
    """A -wal beside the file (StrangerLog's check), a lock (a second copy), an older
    schema (migration), a file not ours: the usual opening deals with each, in words."""
    path = _closed_demo(tmp_path)
    assert read_first_view(path) is not None
    wal = path.with_name(path.name + "-wal")
    wal.write_bytes(b"not a log")
    assert read_first_view(path) is None
    wal.unlink()
    campaign = operations.open_campaign(path)  # holds the lock (and its log)
    assert read_first_view(path) is None
    campaign.close()
    assert read_first_view(path) is not None
    older = tmp_path / "older.stonesaga"
    older.write_bytes(path.read_bytes())
    with sqlite3.connect(older) as conn:
        conn.execute(f"PRAGMA user_version = {migrations.SCHEMA_VERSION - 1}")
    conn.close()
    assert read_first_view(older) is None
    stranger = tmp_path / "stranger.stonesaga"
    stranger.write_bytes(b"SQLite format 3\x00" + b"\x00" * 200)
    assert read_first_view(stranger) is None
    assert read_first_view(tmp_path / "missing.stonesaga") is None


def test_first_view_leaves_a_discovery_due_to_the_usual_opening(tmp_path: Path) -> None:
    """Rulebook: Actions > Move, Discovery: a card due shows in the Valley tab's box,
    which the full view reads: no first view is drawn without it."""
    path = _closed_demo(tmp_path)
    campaign = operations.open_campaign(path)
    with campaign.file.transaction("test", "discovery due") as session:
        from companion.store import models

        session.add(models.ProcedureState(kind=procedure_row.DISCOVERY_DUE,
                                          state={"character": "Ash", "hex": "E01"}))
    campaign.close()
    assert read_first_view(path) is None


def test_launcher_offers_a_procedure_saved_midway_after_the_first_view(
        qtbot: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Rulebook: Game Structure; a procedure saved mid-way (the app was closed during
    an activity) is offered again once the real view is on screen, as before."""
    from companion.operations import activities
    from companion.ui.procedure_dialog import ProcedureDialog

    path = _closed_demo(tmp_path)
    with operations.open_campaign(path) as campaign:
        activities.start_foraging(campaign, name="Ash", feature="forest")
    window, loader = _loader(qtbot, path)
    before = lock._holder
    try:
        loader.run()
        assert loader.first_shown
        qtbot.waitUntil(lambda: window.findChild(ProcedureDialog) is not None, timeout=5000)
    finally:
        _close(window)
        lock._holder = before


def test_first_view_leaves_the_owners_packs_to_the_content_loader(tmp_path: Path) -> None:
    """Which of the owner's packs a campaign plays with is the loader's call: until a
    full open has said which, no first view."""
    path = _closed_demo(tmp_path)
    user_pack.create_pack("sample-mine", "My cards", extends="sample")
    assert read_first_view(path) is None


def _entered(tmp_path: Path) -> Path:
    """The demo with a Discovery card the owner entered (their pack ``sample-mine``,
    and the card carried in the file)."""
    from companion.operations import cards

    path = tmp_path / "Entered.stonesaga"
    with operations.create_demo_campaign(path) as campaign:
        template = next(iter(campaign.content.discovery_cards.values()))
        cards.enter_card(campaign, kind="discovery_cards",
                         data=template.model_dump(mode="json") | {"id": "DX01",
                                                                  "name": "Bones"})
    return path


def test_first_view_of_a_campaign_with_the_owners_cards_after_a_full_open(
        qtbot: Any, tmp_path: Path) -> None:
    """Issue 37: the owner's own cards (a pack of theirs, cards carried in the file):
    the window's last full open remembers which cached chain the campaign plays with;
    the next start shows the first view from it, exactly as the real view."""
    from companion.ui import session

    path = _entered(tmp_path)
    assert read_first_view(path) is None  # no full open through the window yet
    session.open_path(path).close()
    first = read_first_view(path)
    assert first is not None
    window = MainWindow()
    qtbot.addWidget(window)
    window.resize(1180, 680)
    window.show()
    window.show_first_view(first)
    before = _shown(window, settled=False)
    campaign = operations.open_campaign(path, verify="background")
    window.set_campaign(campaign)
    after = _shown(window, settled=True)
    assert first.map == read_map(campaign, odds=False)
    assert before[1:] == after[1:] and before[0] == after[0]
    window.close()


def test_first_view_forgets_the_owners_chain_when_their_cards_change(tmp_path: Path) -> None:
    """A pack file of the owner's changed, or the cards the file carries: the remembered
    chain may no longer be the one the campaign plays with, so no first view."""
    from companion.operations import cards
    from companion.ui import session

    path = _entered(tmp_path)
    session.open_path(path).close()
    assert read_first_view(path) is not None
    pack = user_pack.user_packs()[0]
    cards_file = next(pack.folder.glob("*.yaml"))
    cards_file.write_text(cards_file.read_text(encoding="utf-8") + "\n# edited\n",
                          encoding="utf-8")
    assert read_first_view(path) is None
    session.open_path(path).close()
    assert read_first_view(path) is not None
    with operations.open_campaign(path) as campaign:
        template = next(iter(campaign.content.discovery_cards.values()))
        cards.enter_card(campaign, kind="discovery_cards",
                         data=template.model_dump(mode="json") | {"id": "DX02",
                                                                  "name": "Flint"})
    assert read_first_view(path) is None


def test_first_view_constants_agree_with_the_stores_and_the_operations() -> None:
    """The light read keeps copies of a few constants (it imports no sqlmodel)."""
    assert first_rows.SCHEMA_VERSION == migrations.SCHEMA_VERSION
    assert first_rows.APPLICATION_ID == migrations.APPLICATION_ID
    assert first_rows.NIGHT_DECK == core.NIGHT_DECK
    assert first_rows.DISCOVERY_DUE == procedure_row.DISCOVERY_DUE
    assert first_rows.lock_file(Path("/a/b.stonesaga")) == lock.lock_path(Path("/a/b.stonesaga"))
    assert first_view.SHORT_WORDS == box.SHORT_WORDS
    assert (first_view.BOX_PACK, first_view.SAMPLE_PACK) == (box.BOX_PACK, box.SAMPLE_PACK)


def _loader(qtbot: Any, path: Path) -> tuple[MainWindow, Any]:
    """The launcher's loader (what ``companion PATH`` runs) on a shown window."""
    from companion.cli import gui

    window = MainWindow()
    qtbot.addWidget(window)
    window.show()
    return window, gui._Loader(window, str(path), content=[], smoke=False, outcome={})


def _close(window: MainWindow) -> None:
    if window.campaign is not None:
        window.campaign.close()
        window.campaign = None


def test_launcher_shows_the_first_view_then_the_real_views_holding_the_lock(
        qtbot: Any, tmp_path: Path) -> None:
    """Issue 37: ``companion PATH`` paints the first view, then opens the campaign the
    usual way in the same step: the lock is the window's, the real Valley view is built
    and the first one is gone."""
    from companion.ui.views.valley import ValleyView

    path = _closed_demo(tmp_path)
    window, loader = _loader(qtbot, path)
    before = lock._holder
    try:
        loader.run()
        assert loader.first_shown
        assert window.campaign is not None and lock.lock_path(path).exists()
        assert window.current_view() is window.view("valley")
        QApplication.sendPostedEvents(None, 52)  # DeferredDelete: the first view goes
        assert window.findChildren(ValleyView) == [window.view("valley")]
        assert all(action.isEnabled() for action in window._campaign_actions
                   if action is not window.continue_action)
    finally:
        _close(window)
        lock._holder = before


def test_launcher_says_a_refusal_after_the_first_view_over_no_campaign(
        qtbot: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Another copy of the app takes the lock between the first view and the opening:
    the refusal is said in words, over the "no campaign" page, not over the first view."""
    from PySide6.QtWidgets import QMessageBox

    path = _closed_demo(tmp_path)
    other = lock.WriterLock(path)
    real_read = first_view.read_first_view

    def read_then_lose_the_race(*args: Any) -> Any:
        shown = real_read(*args)
        other.acquire()  # the second copy, just after the light read
        return shown

    monkeypatch.setattr(first_view, "read_first_view", read_then_lose_the_race)
    said: list[str] = []
    monkeypatch.setattr(QMessageBox, "critical", lambda parent, title, text: said.append(text))
    window, loader = _loader(qtbot, path)
    before = lock._holder
    try:
        loader.run()
    finally:
        other.release()
        lock._holder = before
    assert loader.first_shown and window.campaign is None
    assert len(said) == 1 and "is open in another copy of the companion" in said[0]
    assert window.tabs.count() == 0 and window.windowTitle() == "Stonesaga Companion"
    assert "No campaign is open" in window.opening_page.text()


def test_launcher_still_warns_of_a_synced_folder_after_the_first_view(
        qtbot: Any, tmp_path: Path) -> None:
    """The synced-folder warning comes with the real views, as before the first view."""
    from PySide6.QtWidgets import QMessageBox

    folder = tmp_path / "Dropbox"
    folder.mkdir()
    path = _closed_demo(folder)
    window, loader = _loader(qtbot, path)
    before = lock._holder
    try:
        loader.run()
        assert loader.first_shown
        assert window.findChild(QMessageBox, "syncedFolderWarning") is not None
    finally:
        _close(window)
        lock._holder = before


@pytest.mark.parametrize("seed", [1, 2], ids=["sample", "own-box"])
def test_first_view_matches_the_real_view_along_a_played_campaign(
        tmp_path: Path, seed: int) -> None:
    """Issue 37, over a campaign played at random (tests/invariants/player.py; seed 2 is
    one of the owner's box, its tiles typed into their own pack): whenever a start would
    show the first view, it shows the map and status bar the real view then shows."""
    from companion.content import load_content
    from companion.ui import session
    from companion.ui.main_window import window_title
    from tests.invariants.player import Player, one_parser, play, set_up

    player = Player(seed, tmp_path, load_content("sample"), box=seed % 3 == 2)
    compared = 0
    with one_parser():
        set_up(player)
        for _ in range(4):
            play(player, 40)
            session.open_path(player.path).close()  # the window's open: its memo
            first = read_first_view(player.path)
            if first is None:
                continue  # a procedure mid-way: it opens the usual way
            with operations.open_campaign(player.path) as campaign:
                assert first.map == read_map(campaign, odds=False)
                status = campaign.status()
                assert first.status["omen"] == "Omen: " + (
                    ", ".join(o.title() for o in status.omens) or "none")
                assert first.status["unrest"] == f"Unrest: {status.unrest}"
                assert first.status["activity"] == f"Activity: {status.activity}"
                assert first.status["epoch"] == f"Epoch {status.epoch}"
                assert first.status["challenge"] == (
                    f"Challenge: {status.challenge_name}" if status.challenge_name
                    else "No challenge")
                assert window_title(first.title, first.kind) == \
                    window_title(campaign.title, campaign.kind)
            compared += 1
    assert compared, "no start of this campaign could show the first view"


def test_first_view_read_changes_no_file(tmp_path: Path) -> None:
    """The light read writes nothing: not the campaign, not a side file (immutable)."""
    import hashlib

    path = _closed_demo(tmp_path)

    def folder() -> dict[str, str]:
        return {p.name: hashlib.sha256(p.read_bytes()).hexdigest()
                for p in tmp_path.iterdir() if p.is_file()}

    before = folder()
    assert read_first_view(path) is not None
    assert folder() == before
