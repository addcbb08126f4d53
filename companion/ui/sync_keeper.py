"""Keeping a shared campaign in step while it is open (issue 38): the status bar's words,
a file watcher on the shared folder plus a slow poll, and the synced-folder warning.

The shared folder is a mailbox (``companion.store.mailbox``); this machine's operations
are written there by the store as they run, a burst of play together: what waits is
written by the publish timer a moment after the operation (:data:`PUBLISH_DELAY_MS`).
The other side is here too: a few seconds after another machine's file lands,
:func:`companion.operations.sharing.sync` takes it in, the views refresh through the
usual ``campaign_changed`` path, and the status bar says "Up to date", "3 changes from
Bryn's laptop applied", "Offline since 14:02" or "1 conflict to settle" (with a Settle…
button). While a procedure step is in progress the others' changes wait, and the status
bar says so (the engine's report).
"""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QFileSystemWatcher, QObject, QTimer
from PySide6.QtWidgets import QHBoxLayout, QLabel, QMessageBox, QPushButton, QWidget

from companion.ui.host import Host

if TYPE_CHECKING:
    from companion.operations import Campaign
    from companion.operations.sharing import SyncReport

SETTLE_DELAY_MS = 400
"""How long after the last change the watcher saw the folder is read: a sync engine
writes a file in pieces and renames it into place, so a burst of signals is one file."""
PUBLISH_DELAY_MS = 1_500
"""How long after an operation whose publishing waits (``sync_log.PUBLISH_EVERY``) the
window writes it to the folder, with whatever else was played meanwhile: the other
machines see it within seconds, and a burst of play is one file, not one per click."""
POLL_MS = 20_000
"""The slow poll, for folders a watcher cannot see into (a network share, some cloud
clients' virtual drives) and for a folder coming back online."""


class SyncKeeper(QObject):
    """Keeps the window's shared campaign in step with the folder (one per window)."""

    def __init__(self, window: Host) -> None:
        super().__init__(window)
        self.setObjectName("syncKeeper")
        self.window = window
        self.campaign: Campaign | None = None
        self.last_report: SyncReport | None = None
        self.watcher = QFileSystemWatcher(self)
        self.watcher.directoryChanged.connect(self._landed)
        self.watcher.fileChanged.connect(self._landed)
        self.settle_timer = QTimer(self)
        self.settle_timer.setSingleShot(True)
        self.settle_timer.setInterval(SETTLE_DELAY_MS)
        self.settle_timer.timeout.connect(self.sync_now)
        self.publish_timer = QTimer(self)
        self.publish_timer.setObjectName("syncPublish")
        self.publish_timer.setSingleShot(True)
        self.publish_timer.setInterval(PUBLISH_DELAY_MS)
        self.publish_timer.timeout.connect(self.publish_now)
        self.poll = QTimer(self)
        self.poll.setObjectName("syncPoll")
        self.poll.setInterval(POLL_MS)
        self.poll.timeout.connect(self.sync_now)
        self.box = QWidget()
        self.box.setObjectName("statusSharing")
        row = QHBoxLayout(self.box)
        row.setContentsMargins(8, 0, 8, 0)
        self.label = QLabel("")
        self.label.setObjectName("statusSharingWords")
        self.label.setAccessibleName("Sharing")
        self.settle_button = QPushButton("Settle…")
        self.settle_button.setObjectName("settleConflicts")
        self.settle_button.setToolTip("Both machines changed the same thing while apart: "
                                      "see both sides and choose one")
        self.settle_button.clicked.connect(self.settle_conflicts)
        row.addWidget(self.label)
        row.addWidget(self.settle_button)
        self.box.hide()
        window.statusBar().addPermanentWidget(self.box)
        window.campaign_changed.connect(self._after_change)

    # -- which campaign ------------------------------------------------------------

    def keep(self, campaign: Campaign) -> None:
        """Keep ``campaign`` in step (when shared); a campaign not shared is left alone."""
        self.campaign = campaign
        self.last_report = None
        self.poll.stop()
        self.settle_timer.stop()
        self.publish_timer.stop()
        self._unwatch()
        if not campaign.file.shared:
            self.box.hide()
            return
        self.box.show()
        self.show_words()
        self.poll.start()
        # Picked up on opening too, once the window is idle (the campaign shows first).
        QTimer.singleShot(0, self, self.sync_now)

    def _current(self) -> Campaign | None:
        campaign = self.campaign
        if campaign is None or campaign is not self.window.campaign or campaign.file.closed:
            self.poll.stop()
            self._unwatch()
            return None
        return campaign

    # -- the watcher ---------------------------------------------------------------

    def _unwatch(self) -> None:
        watched = self.watcher.directories() + self.watcher.files()
        if watched:
            self.watcher.removePaths(watched)

    def watch(self) -> list[str]:
        """Watch the campaign's folder and each machine's folder in it (a new machine's
        folder is added at the next sync); returns the folders watched."""
        from companion.operations.sharing import sharing_status

        campaign = self._current()
        status = sharing_status(campaign) if campaign is not None else None
        if status is None:
            return []
        wanted = [status.campaign_folder]
        with contextlib.suppress(OSError):  # offline: the poll notices when it is back
            wanted += [p for p in status.campaign_folder.iterdir() if p.is_dir()]
        fresh = [str(p) for p in wanted if str(p) not in self.watcher.directories()]
        if fresh:
            self.watcher.addPaths(fresh)
        return self.watcher.directories()

    def _landed(self, _path: str) -> None:
        self.settle_timer.start()  # restarted by every signal of one burst

    # -- keeping in step -------------------------------------------------------------

    def sync_now(self) -> SyncReport | None:
        """Publish and take in the others' changes now; say the result in the status bar.

        Never merges in the middle of a procedure step: the changes wait, and the
        status bar says how many (``during_procedure="wait"``)."""
        from companion.operations import Refused, sharing

        campaign = self._current()
        if campaign is None or not campaign.file.shared:
            return None
        try:
            report = sharing.sync(campaign, during_procedure="wait")
        except Refused as refusal:
            self._say(str(refusal), str(refusal))
            return None
        self.last_report = report
        self.watch()
        self.show_words(report)
        if report.changed:
            self.window.refresh_all()  # the views, Undo/Redo and the status bar
        return report

    def publish_now(self) -> int:
        """Write the operations that wait to the folder (the publish timer's call)."""
        from companion.operations import sharing

        campaign = self._current()
        if campaign is None or not campaign.file.shared:
            return 0
        written = sharing.publish_now(campaign)
        self.show_words()  # "Offline since …" when the folder could not be written
        return written

    def show_words(self, report: SyncReport | None = None) -> None:
        """The status bar's sharing words: the report's, else the file's own."""
        from companion.operations.sharing import sharing_status

        campaign = self._current()
        if campaign is None:
            return
        status = sharing_status(campaign)
        if status is None:
            self.box.hide()
            return
        words = report.words if report is not None else status.words
        details = [f"Shared through {status.folder} as {status.machine_name}."]
        if report is not None:
            details += [line for line in (report.deferred, *report.newer, *report.refused)
                        if line]
        self._say(words, "\n".join(details))
        self.settle_button.setVisible(status.conflicts > 0)

    def _say(self, words: str, tip: str) -> None:
        self.label.setText(words)
        self.label.setToolTip(tip)
        self.box.setToolTip(tip)

    def _after_change(self, changes: Any) -> None:
        """After an operation (published by the store as it ran, or a moment later by
        the publish timer), the words follow: a folder that could not be written says
        "Offline since …". Changes that waited for a procedure step are taken in soon
        after the next operation (the one that ends the procedure among them), not only
        at the next poll."""
        if self.campaign is None or not self.box.isVisible():
            return
        # Undo and redo refresh with no Changes (None); what they wrote waits too.
        if self.campaign.file.unpublished and not self.publish_timer.isActive():
            self.publish_timer.start()  # not restarted: published within the delay
        if changes is None:
            return
        self.show_words()
        report = self.last_report
        if report is not None and report.deferred and report.waiting:
            self.settle_timer.start()

    def settle_conflicts(self) -> None:
        """Show the conflicts waiting, one at a time, both sides in game words."""
        from companion.ui.conflict_dialog import settle_conflicts

        settle_conflicts(self.window)
        self.show_words()


def keeper(window: Host) -> SyncKeeper:
    """The window's keeper, made when first asked for."""
    found = window.findChild(SyncKeeper, "syncKeeper")
    return found if isinstance(found, SyncKeeper) else SyncKeeper(window)


def keep_in_step(window: Host, campaign: Campaign) -> None:
    """Called whenever the window shows a campaign: keep it in step when it is shared,
    and warn when its file lies inside a folder a sync tool keeps in step."""
    if campaign.file.shared or window.findChild(SyncKeeper, "syncKeeper") is not None:
        keeper(window).keep(campaign)
    # Said once per file and window: the window shows a campaign again after a restore
    # or a refused open, and the same words each time would only nag.
    warned: set[str] = window.__dict__.setdefault("synced_folder_warned", set())
    if str(campaign.path) not in warned and warn_synced_folder(window, campaign.path):
        warned.add(str(campaign.path))


def warn_synced_folder(window: QWidget, path: Path) -> QMessageBox | None:
    """A campaign file inside a Dropbox, Drive, OneDrive, Nextcloud, iCloud or Syncthing
    folder is said at once (the tool may tear it up while it is open); the box does not
    block the window. Returns the box shown, if any."""
    from companion.operations.sharing import synced_folder_warning

    words = synced_folder_warning(path)
    if words is None:
        return None
    box = QMessageBox(QMessageBox.Icon.Warning, "A campaign in a synced folder", words,
                      QMessageBox.StandardButton.Ok, window)
    box.setObjectName("syncedFolderWarning")
    box.open()
    return box
