"""Issue 38 in the GUI: File ▸ Share Campaign… and Join a Shared Campaign…, the status
bar's words, the watcher and the poll taking the other machine's changes in, the conflict
dialog, and the warning for a campaign file inside a synced folder."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtWidgets import QFileDialog, QInputDialog, QMessageBox

from companion import operations
from companion.operations import Campaign, sharing
from companion.ui.conflict_dialog import KEPT_AS_HISTORY, ConflictDialog, settle_conflicts
from companion.ui.main_window import MainWindow
from companion.ui.sync_keeper import POLL_MS, PUBLISH_DELAY_MS, keeper, warn_synced_folder
from tests.sharing.machines import ana_shares_bryn_joins
from tests.ui import newcomer
from tests.ui.helpers import make_window

font_scale = newcomer.font_scale  # the fixture: the system font, then Larger


@pytest.fixture
def shared(tmp_path: Path) -> Iterator[tuple[Path, Campaign, Campaign]]:
    """Ana's demo campaign shared through a folder; Bryn joined from it (headless)."""
    folder, ana, bryn = ana_shares_bryn_joins(tmp_path)
    yield folder, ana, bryn
    for campaign in (ana, bryn):
        if not campaign.file.closed:
            campaign.close()


@pytest.fixture
def answers(monkeypatch: Any) -> dict[str, Any]:
    """The folder and the machine's name the dialogs are answered with; messages kept."""
    given: dict[str, Any] = {"folder": "", "name": "Ana's laptop", "shown": []}
    monkeypatch.setattr(QFileDialog, "getExistingDirectory",
                        lambda *args, **kwargs: given["folder"])
    monkeypatch.setattr(QInputDialog, "getText",
                        lambda *args, **kwargs: (given["name"], True))
    for kind in ("information", "warning"):
        monkeypatch.setattr(QMessageBox, kind,
                            lambda parent, title, text, *rest: given["shown"].append(text))
    return given


def _clash(ana: Campaign, bryn: Campaign) -> None:
    """Both machines change the unrest while apart: one conflict."""
    operations.change_unrest(ana, amount=2, reason="the river flooded")
    operations.change_unrest(bryn, amount=1, reason="a quarrel")
    for _ in range(2):
        for campaign in (ana, bryn):
            sharing.sync(campaign, during_procedure="merge")


def _begin_night(campaign: Campaign) -> None:
    """Both characters pass; the Night begins (a procedure in progress)."""
    from companion.operations import procedures

    operations.pass_turn(campaign, name="Ash")
    operations.pass_turn(campaign, name="Bryn")
    procedures.start_night(campaign)


def _first_sync(qtbot: Any, window: MainWindow) -> None:
    """The keeper's sync on opening has run (the words said before it are the file's)."""
    qtbot.waitUntil(lambda: keeper(window).last_report is not None)
    assert _words(window) in ("Up to date", "1 conflict to settle")


def _words(window: MainWindow) -> str:
    return keeper(window).label.text()


def test_issue38_file_share_campaign_shares_the_open_campaign_through_the_folder(
        qtbot: Any, demo: Campaign, tmp_path: Path, answers: dict[str, Any]) -> None:
    window = make_window(qtbot, demo)
    folder = tmp_path / "Dropbox-like"
    folder.mkdir()
    answers["folder"] = str(folder)
    action = next(a for a in window.findChildren(type(window.undo_action))
                  if a.text().replace("&", "") == "Share Campaign…")
    action.trigger()
    status = sharing.sharing_status(demo)
    assert status is not None and status.machine_name == "Ana's laptop"
    assert (folder / demo.file.campaign().uid).is_dir()
    assert "Join a Shared Campaign" in answers["shown"][-1]
    _first_sync(qtbot, window)
    assert keeper(window).box.isVisible()


def test_issue38_share_refuses_the_folder_the_campaign_file_lies_in(
        qtbot: Any, demo: Campaign, answers: dict[str, Any]) -> None:
    window = make_window(qtbot, demo)
    answers["folder"] = str(demo.path.parent)
    from companion.ui.sharing_dialogs import share_campaign

    assert share_campaign(window) is False
    assert "never lie in the shared folder" in answers["shown"][-1]
    assert sharing.sharing_status(demo) is None
    assert not keeper(window).box.isVisible()


def test_issue38_file_join_shows_the_campaign_with_its_history(
        qtbot: Any, shared: tuple[Path, Campaign, Campaign], tmp_path: Path,
        answers: dict[str, Any], monkeypatch: Any) -> None:
    folder, ana, _bryn = shared
    operations.gain_lore(ana, amount=1, reason="an old song")
    monkeypatch.setenv("COMPANION_HOME", str(tmp_path / "cara-home"))
    window = MainWindow()
    qtbot.addWidget(window)
    window.show()
    answers["folder"], answers["name"] = str(folder), "Cara's tablet"
    from companion.ui.sharing_dialogs import join_shared_campaign

    assert join_shared_campaign(window) is True
    cara = window.campaign
    assert cara is not None and cara.path.is_relative_to(tmp_path / "cara-home")
    assert cara.file.society().lore == ana.file.society().lore
    assert any("old song" in line.text for line in cara.journal(10))
    assert cara.file.policy is not None  # its backups start
    _first_sync(qtbot, window)
    cara.close()


def test_issue38_the_watcher_takes_the_other_machines_changes_in_and_says_so(
        qtbot: Any, shared: tuple[Path, Campaign, Campaign]) -> None:
    _folder, ana, bryn = shared
    window = make_window(qtbot, ana)
    _first_sync(qtbot, window)
    assert keeper(window).watcher.directories()  # the campaign's and each machine's folder
    refreshed: list[Any] = []
    window.campaign_changed.connect(refreshed.append)
    before = ana.file.society().lore
    operations.gain_lore(bryn, amount=2, reason="a song from Bryn's table")  # published
    qtbot.waitUntil(lambda: _words(window) == "1 change from Bryn's laptop applied",
                    timeout=15000)
    assert ana.file.society().lore == before + 2
    assert None in refreshed  # the views refreshed through campaign_changed


def test_issue38_the_window_publishes_a_burst_of_play_a_moment_later(
        qtbot: Any, shared: tuple[Path, Campaign, Campaign]) -> None:
    _folder, ana, bryn = shared
    window = make_window(qtbot, ana)
    sync = keeper(window)
    _first_sync(qtbot, window)
    ana.file.publish_every = ana.file.publish_due = 3600  # within the batching window
    for n in range(2):
        window.run_operation(operations.gain_lore, amount=1, reason=f"a song {n}")
    assert ana.file.unpublished and sync.publish_timer.isActive()
    assert sync.publish_timer.interval() == PUBLISH_DELAY_MS
    qtbot.waitUntil(lambda: not ana.file.unpublished, timeout=5000)
    assert sharing.sync(bryn).applied == {"Ana's laptop": 2}


def test_issue38_the_slow_poll_takes_changes_in_where_no_watcher_sees(
        qtbot: Any, shared: tuple[Path, Campaign, Campaign]) -> None:
    _folder, ana, bryn = shared
    window = make_window(qtbot, ana)
    sync = keeper(window)
    _first_sync(qtbot, window)
    sync.watcher.blockSignals(True)  # a network share: no signal ever comes
    assert sync.poll.isActive() and sync.poll.interval() == POLL_MS
    operations.change_unrest(bryn, amount=1, reason="a quarrel")
    sync.poll.timeout.emit()
    assert _words(window) == "1 change from Bryn's laptop applied"


def test_issue38_never_merged_in_the_middle_of_a_procedure_step_without_saying_so(
        qtbot: Any, shared: tuple[Path, Campaign, Campaign]) -> None:
    _folder, ana, bryn = shared
    window = make_window(qtbot, ana)
    _first_sync(qtbot, window)
    _begin_night(ana)
    operations.gain_lore(bryn, amount=1, reason="an old song")
    before = ana.file.society().lore
    report = keeper(window).sync_now()
    assert report is not None and report.deferred is not None
    assert _words(window) == "1 change from the others wait"
    assert "wait until the night" in keeper(window).label.toolTip()
    assert ana.file.society().lore == before
    # The procedure over (its start undone), the changes are taken in soon after.
    window.undo_action.trigger()
    qtbot.waitUntil(lambda: _words(window) == "1 change from Bryn's laptop applied",
                    timeout=15000)
    assert ana.file.society().lore == before + 1


def test_issue38_a_folder_out_of_reach_says_offline_since(
        qtbot: Any, shared: tuple[Path, Campaign, Campaign]) -> None:
    folder, ana, _bryn = shared
    window = make_window(qtbot, ana)
    _first_sync(qtbot, window)
    folder.rename(folder.with_name("Unplugged"))
    keeper(window).sync_now()
    assert _words(window).startswith("Offline since ")
    folder.with_name("Unplugged").rename(folder)
    keeper(window).sync_now()
    assert _words(window) == "Up to date"


def test_issue38_conflict_dialog_shows_both_sides_and_keeps_the_chosen_one(
        qtbot: Any, shared: tuple[Path, Campaign, Campaign]) -> None:
    _folder, ana, bryn = shared
    _clash(ana, bryn)
    window = make_window(qtbot, ana)
    _first_sync(qtbot, window)
    assert _words(window) == "1 conflict to settle"
    assert keeper(window).settle_button.isVisible()
    dialog = settle_conflicts(window)
    assert isinstance(dialog, ConflictDialog)
    qtbot.addWidget(dialog)
    assert dialog.theirs_box.title() == "On Bryn's laptop"
    assert dialog.here_box.title() == "Here"
    assert "quarrel" in dialog.theirs_text.text()
    assert "flooded" in dialog.here_text.text()
    assert dialog.keep_theirs.text() == "Keep Bryn's laptop's side"
    assert KEPT_AS_HISTORY in [label.text() for label in dialog.findChildren(
        type(dialog.heading))]
    dialog.keep_theirs.click()
    assert not dialog.isVisible()
    assert sharing.conflicts(ana) == []
    sharing.sync(bryn, during_procedure="merge")
    assert sharing.conflicts(bryn) == []
    # Ana's side stays in the history, undone.
    assert any("flooded" in line.text and line.undone for line in ana.journal(10))
    keeper(window).sync_now()
    assert _words(window) == "Up to date"
    assert not keeper(window).settle_button.isVisible()


def test_issue38_conflict_dialog_refuses_in_the_middle_of_a_procedure(
        qtbot: Any, shared: tuple[Path, Campaign, Campaign],
        answers: dict[str, Any]) -> None:
    _folder, ana, bryn = shared
    _clash(ana, bryn)
    window = make_window(qtbot, ana)
    _begin_night(ana)
    dialog = settle_conflicts(window)
    assert dialog is not None
    qtbot.addWidget(dialog)
    dialog.keep_here.click()
    assert "Finish the procedure" in answers["shown"][-1]
    assert len(sharing.conflicts(ana)) == 1 and dialog.isVisible()


@pytest.mark.parametrize("marker", [".stfolder", ".dropbox"])
def test_issue38_a_campaign_inside_a_synced_folder_is_warned_on_opening(
        qtbot: Any, tmp_path: Path, marker: str) -> None:
    synced = tmp_path / "Synced"
    (synced / "campaigns").mkdir(parents=True)
    (synced / marker).mkdir()
    campaign = operations.create_demo_campaign(synced / "campaigns" / "demo.stonesaga")
    try:
        window = make_window(qtbot, campaign)
        box = window.findChild(QMessageBox, "syncedFolderWarning")
        assert box is not None and box.isVisible()
        assert "Share Campaign" in box.text() and str(synced) in box.text()
        box.close()
        box.deleteLater()
        window.set_campaign(campaign)  # shown again (a restore): not said twice
        assert not any(b.isVisible() for b in window.findChildren(QMessageBox))
    finally:
        campaign.close()


@pytest.mark.parametrize("where", ["Dropbox", "OneDrive - Acme", "Google Drive",
                                   "Nextcloud", "iCloud Drive"])
def test_issue38_synced_folders_are_known_by_their_names(
        qtbot: Any, tmp_path: Path, where: str) -> None:
    path = tmp_path / where / "Games" / "demo.stonesaga"
    assert warn_synced_folder(_parent(qtbot), path) is not None


def test_issue38_a_campaign_in_the_data_folder_is_not_warned(
        qtbot: Any, demo: Campaign) -> None:
    window = make_window(qtbot, demo)
    assert window.findChild(QMessageBox, "syncedFolderWarning") is None
    assert not keeper(window).box.isVisible()


def _parent(qtbot: Any) -> Any:
    from PySide6.QtWidgets import QWidget

    widget = QWidget()
    qtbot.addWidget(widget)
    return widget


def test_issue38_conflict_dialog_fits_a_laptop_at_both_text_sizes(
        qtbot: Any, shared: tuple[Path, Campaign, Campaign], font_scale: float) -> None:
    """Nothing cut short or overlapping, within 1366×768, at the system font and at
    Settings ▸ Text size ▸ Larger."""
    from tests.ui import layout_checks

    _folder, ana, bryn = shared
    _clash(ana, bryn)
    window = make_window(qtbot, ana)
    dialog = settle_conflicts(window)
    assert dialog is not None
    qtbot.addWidget(dialog)
    qtbot.waitExposed(dialog)
    assert layout_checks.problems(dialog) == []


@pytest.mark.parametrize("where", [
    ("Library", "Mobile Documents", "com~apple~CloudDocs"), ("Nextcloud-at-home",)])
def test_issue38_icloud_and_a_nextcloud_journal_are_known_too(
        tmp_path: Path, where: tuple[str, ...]) -> None:
    folder = tmp_path.joinpath(*where)
    folder.mkdir(parents=True)
    (folder / "._sync_3f2a.db").write_bytes(b"")  # Nextcloud's journal (harmless elsewhere)
    assert sharing.synced_folder_warning(folder / "demo.stonesaga") is not None
    (folder / "._sync_3f2a.db").unlink()
    named = sharing.synced_folder_warning(folder / "demo.stonesaga")
    assert (named is not None) == (where[0] == "Library")


def test_issue38_the_status_bar_of_a_shared_campaign_fits_a_laptop(
        qtbot: Any, shared: tuple[Path, Campaign, Campaign], font_scale: float) -> None:
    """"1 conflict to settle" and Settle… beside the game's numbers, nothing cut short,
    at both text sizes."""
    from tests.ui import layout_checks

    _folder, ana, bryn = shared
    _clash(ana, bryn)
    window = make_window(qtbot, ana)
    _first_sync(qtbot, window)
    assert keeper(window).settle_button.isVisible()
    assert layout_checks.problems(window) == []
