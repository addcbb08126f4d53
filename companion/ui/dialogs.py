"""The File and Help menus' dialogs: new, open, copy, export, import, backups, readings.

Each dialog collects input with Qt's own widgets and calls one function of
``companion.operations``; a refusal is shown in game words and changes nothing.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QHeaderView,
    QLabel,
    QMessageBox,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from companion.ui.file_menu import (
    CAMPAIGN_FILTER,
    CAMPAIGN_SUFFIX,
    EXPORT_FILTER,
    EXPORT_SUFFIX,
    campaigns_folder,
    show_refusal,
    with_suffix,
)

if TYPE_CHECKING:
    from companion.operations import Campaign
    from companion.ui.host import Host


def new_campaign(window: Host) -> None:
    """File ▸ New Campaign: the New Campaign wizard (society, players, packs, region,
    first challenge, then each character)."""
    from companion.ui.new_campaign_wizard import new_campaign as run_wizard

    run_wizard(window)


def settings(window: Host) -> None:
    """Edit ▸ Settings."""
    from companion.ui.settings_dialog import open_settings

    if open_settings(window) is not None:
        window.refresh_all()


def open_campaign(window: Host) -> None:
    """File ▸ Open."""
    path, _ = QFileDialog.getOpenFileName(window, "Open a campaign", campaigns_folder(),
                                          CAMPAIGN_FILTER)
    if path and window.open_file_handler is not None:
        window.open_file_handler(path)


def save_copy(window: Host) -> None:
    """File ▸ Save a Copy: a consistent copy taken with SQLite's backup API."""
    from companion import operations

    if window.campaign is None:
        return
    proposed = Path(campaigns_folder()) / f"{window.campaign.path.stem} copy{CAMPAIGN_SUFFIX}"
    typed, _ = QFileDialog.getSaveFileName(window, "Save a copy of the campaign",
                                           str(proposed), CAMPAIGN_FILTER)
    if not typed:
        return
    path = str(with_suffix(typed, CAMPAIGN_SUFFIX))
    try:
        operations.save_copy(window.campaign, Path(path))
    except operations.Refused as refusal:
        show_refusal(window, "Could not save a copy", refusal)
        return
    window.statusBar().showMessage(f"Saved a copy as {path}", 6000)


def may_replace(window: QWidget, path: Path) -> bool:
    """Whether the export may go to ``path``: nothing is there, or the player says an
    existing file may be replaced. A file that is not an export (through a link too) is
    asked about in its own words (issue 35 item 5)."""
    from companion.store.portable import replaced_by_export

    if not path.exists():
        return True
    lost = replaced_by_export(path)
    if lost is None:
        answer = QMessageBox.question(
            window, "Export the campaign", f"{path.name} already exists. Replace it?",
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            QMessageBox.StandardButton.No)
        return answer == QMessageBox.StandardButton.Yes
    box = QMessageBox(QMessageBox.Icon.Warning, "Replace a file that is not an export?",
                      f"{lost}.\n\nExporting there replaces what it holds, and the "
                      "companion cannot bring it back.", parent=window)
    box.setAccessibleName("Replace a file that is not an export?")
    replace = box.addButton("Replace It", QMessageBox.ButtonRole.DestructiveRole)
    keep = box.addButton("Keep It", QMessageBox.ButtonRole.RejectRole)
    box.setDefaultButton(keep)
    box.exec()
    return box.clickedButton() is replace


def export(window: Host) -> None:
    """File ▸ Export Campaign: one portable file (see docs/campaign-file.md), written
    behind a progress bar."""

    if window.campaign is None:
        return
    # A name with the extension the Import filter shows, as the PDF export proposes one;
    # one typed without it gets it (issue 27 item 15).
    proposed = Path(campaigns_folder()) / f"{window.campaign.path.stem}{EXPORT_SUFFIX}"
    # The companion asks itself whether an existing file may go: in its own words when
    # it is not an export (issue 35 item 5).
    typed, _ = QFileDialog.getSaveFileName(window, "Export the campaign", str(proposed),
                                           EXPORT_FILTER, "",
                                           QFileDialog.Option.DontConfirmOverwrite)
    if not typed:
        return
    path = str(with_suffix(typed, EXPORT_SUFFIX, accepted=(".json",)))
    if not may_replace(window, Path(path)):
        return
    from companion import store
    from companion.ui.progress import run_with_progress

    try:
        # A file-level export on its own read-only connection, off the GUI thread.
        run_with_progress(window, "Exporting the campaign", store.export_campaign,
                          window.campaign.path, Path(path), replace=True, report=True)
    except store.CampaignFileError as refusal:
        show_refusal(window, "Could not export the campaign", refusal)
        return
    from companion.ui.import_place import remember_export

    remember_export(Path(path))  # Import opens here (issue 36 item 15)
    window.statusBar().showMessage(f"Exported to {path}", 6000)


def import_(window: Host) -> None:
    """File ▸ Import Campaign: a portable export (read behind a progress bar), or a web
    Campaign Journal file."""
    from companion import operations
    from companion.ui.import_place import ask_import_place, export_folder

    # In the last export's folder; then where the new campaign goes, saying why
    # (issue 36 item 15).
    src, _ = QFileDialog.getOpenFileName(window, "Import a campaign", export_folder(),
                                         EXPORT_FILTER + ";;All files (*)")
    if not src:
        return
    place = ask_import_place(window, Path(src))
    if place is None:
        return
    dest = str(place)
    from companion.ui import webjournal_dialog

    try:
        # Our export is told by its first bytes: a year of history is never read whole
        # here, and a file beyond the import limit is refused before it is read.
        ours = operations.is_portable_import(Path(src))
    except operations.Refused as refusal:
        show_refusal(window, "Could not import", refusal)
        return
    if not ours and webjournal_dialog.is_web_journal_file(Path(src)):  # shows what went where
        webjournal_dialog.open_import(window, Path(src), Path(dest))
        return
    from companion.ui.progress import run_with_progress

    try:
        campaign = run_with_progress(window, "Importing the campaign",
                                     operations.import_campaign, Path(src), Path(dest),
                                     report=True)
    except operations.Refused as refusal:
        show_refusal(window, "Could not import", refusal)
        return
    window.show_created(campaign, Path(dest))


class BackupsDialog(QDialog):
    """File ▸ Backups: every automatic backup of a campaign file, and restoring one.

    Works on a path, so a file too damaged to open can still be restored.
    """

    def __init__(self, window: Host, path: Path, *, intro: str = "") -> None:
        super().__init__(window)
        from companion import operations

        self.window_ = window
        self.path = path
        self.restored: Campaign | None = None
        self.setWindowTitle("Backups")
        self.resize(900, 420)
        operations.list_backups(path)  # its refusals, as before
        # Each backup by its game moment and the time to the second (issue 27 item 12).
        from companion.operations.backup_moments import describe_backups

        campaign = getattr(window, "campaign", None)
        content = campaign.content if campaign is not None and campaign.path == path else None
        self.described = describe_backups(path, content)
        self.backups = [d.info for d in self.described]
        self.table = QTableWidget(len(self.backups), 4)
        self.table.setAccessibleName("Backups")
        self.table.setHorizontalHeaderLabels(["Taken", "Game moment", "Why", "Size"])
        self.table.verticalHeader().hide()
        self.table.setSelectionBehavior(QTableWidget.SelectionBehavior.SelectRows)
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        for row, described in enumerate(self.described):
            cells = (described.taken, described.moment.label(), described.why,
                     f"{described.info.size / 1024:.0f} KiB")
            for column, cell in enumerate(cells):
                item = QTableWidgetItem(cell)
                item.setToolTip(cell)
                self.table.setItem(row, column, item)
        if self.backups:
            self.table.selectRow(0)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        self.restore_button = buttons.addButton("&Restore Selected…",
                                                QDialogButtonBox.ButtonRole.ActionRole)
        self.restore_button.setEnabled(bool(self.backups))
        self.restore_button.clicked.connect(self.restore)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        text = QLabel(intro or "Backups are taken automatically: on open and close, every "
                      "few minutes while something changed (less often for a very large "
                      "campaign), and before upgrades and restores. Each is named by its "
                      "moment in the game.")
        text.setWordWrap(True)
        layout.addWidget(text)
        layout.addWidget(self.table)
        layout.addWidget(buttons)

    def restore(self, *, confirm: bool = True) -> None:
        from companion import operations

        rows = self.table.selectionModel().selectedRows()
        if not rows:
            return
        described = self.described[rows[0].row()]
        backup = described.info
        try:  # said before anything closes: the window keeps its campaign
            operations.refuse_backup_before_share(self.path, backup)
        except operations.Refused as refusal:
            show_refusal(self, "Could not restore", refusal)
            return
        if confirm:
            from companion.operations.backup_moments import mid_night_warning

            warning = mid_night_warning(described)
            ask = QMessageBox.warning if warning else QMessageBox.question
            answer = ask(
                self, "Restore this backup?",
                (f"{warning}\n\n" if warning else "")
                + f"Replace the campaign with the backup taken {described.taken} "
                f"({described.moment.label()})? A backup of the file as it is now is "
                "taken first, so nothing is lost.",
                QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
                QMessageBox.StandardButton.No if warning else QMessageBox.StandardButton.Yes,
            )
            if answer != QMessageBox.StandardButton.Yes:
                return
        from companion import store
        from companion.ui.progress import run_with_progress

        window = self.window_
        if window.campaign is not None and window.campaign.path == self.path:
            window.campaign.close()  # the restore needs the file to itself
            window.campaign = None
        try:
            # The copy runs on a worker (a whole file through SQLite's backup API);
            # the restored campaign is then opened here, on the GUI's own thread.
            run_with_progress(self, "Restoring the backup", store.restore_backup,
                              self.path, backup)
            self.restored = operations.open_campaign(self.path)
        except store.CampaignFileError as refusal:
            show_refusal(self, "Could not restore", refusal)
            return
        except operations.Refused as refusal:
            show_refusal(self, "Could not open the restored campaign", refusal)
            return
        self.accept()


def backups(window: Host) -> None:
    """File ▸ Backups."""
    if window.campaign is None:
        return
    dialog = BackupsDialog(window, window.campaign.path)
    if dialog.exec() == QDialog.DialogCode.Accepted and dialog.restored is not None:
        window.set_campaign(dialog.restored)


def offer_restore(window: Host, damaged: Exception) -> Campaign | None:
    """A damaged file was refused: explain, and offer its backups. Returns the restored
    campaign, or None if the user did not restore one."""
    path = getattr(damaged, "path", None)
    if path is None:
        show_refusal(window, "Could not open the campaign", damaged)
        return None
    dialog = BackupsDialog(window, Path(path), intro=f"{damaged}\n\nChoose a backup to "
                           "restore. The damaged file is kept beside the backups.")
    dialog.setWindowTitle("The campaign file is damaged")
    if dialog.exec() == QDialog.DialogCode.Accepted:
        return dialog.restored
    return None


def save_point(window: Host) -> None:
    """Edit ▸ Save Point: name this point in the history ("before the Night")."""
    from PySide6.QtWidgets import QInputDialog

    from companion import operations

    name, ok = QInputDialog.getText(window, "Save Point", "Name this point in the history:",
                                    text="before the Night")
    if ok and name.strip():
        window.run_operation(operations.save_point, name=name.strip())


class SavePointDialog(QDialog):
    """Choose the save point to go back to (newest first), with room for its title
    (the stock item picker was narrower than its own title)."""

    def __init__(self, parent: QWidget | None, names: list[str]) -> None:
        from PySide6.QtWidgets import QListWidget

        super().__init__(parent)
        self.setWindowTitle("Undo to Save Point")
        intro = QLabel("Undo every operation made after this save point. Redo brings "
                       "them back, one at a time.")
        intro.setWordWrap(True)
        self.points = QListWidget()
        self.points.setAccessibleName("Save points, newest first")
        self.points.addItems(list(reversed(names)))
        self.points.setCurrentRow(0)
        self.points.itemActivated.connect(lambda _item: self.accept())
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        undo = buttons.addButton("&Undo to Here", QDialogButtonBox.ButtonRole.AcceptRole)
        undo.setDefault(True)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addWidget(self.points, 1)
        layout.addWidget(buttons)
        title = self.fontMetrics().horizontalAdvance(self.windowTitle())
        self.resize(max(420, title * 3), 320)

    def chosen(self) -> str | None:
        item = self.points.currentItem()
        return item.text() if item is not None else None


def undo_to_save_point(window: Host) -> None:
    """Edit ▸ Undo to Save Point: undo everything after a named point."""
    from companion import operations

    if window.campaign is None:
        return
    names = operations.save_points(window.campaign)
    if not names:
        QMessageBox.information(window, "Undo to Save Point",
                                "There are no save points yet (Edit ▸ Save Point).")
        return
    dialog = SavePointDialog(window, names)
    name = dialog.chosen() if dialog.exec() == QDialog.DialogCode.Accepted else None
    if name:
        window.run_operation(operations.undo_to_save_point, name=name)
        window.refresh_all()


def readings(window: Host) -> None:
    """Help ▸ Rulebook Readings: the readings (D1-D20) the loaded content pack follows."""
    dialog = QDialog(window)
    dialog.setWindowTitle("Rulebook readings")
    dialog.resize(760, 520)
    table = QTableWidget(0, 2)
    table.setAccessibleName("Rulebook readings")
    table.setHorizontalHeaderLabels(["Reading", "What the companion does"])
    table.verticalHeader().hide()
    table.setWordWrap(True)
    table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
    items = sorted(window.campaign.content.rules.readings.items(),
                   key=lambda kv: int(kv[0][1:]) if kv[0][1:].isdigit() else 999) \
        if window.campaign is not None else []
    table.setRowCount(len(items))
    for row, (key, text) in enumerate(items):
        table.setItem(row, 0, QTableWidgetItem(key))
        table.setItem(row, 1, QTableWidgetItem(text))
    table.horizontalHeader().setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
    table.resizeRowsToContents()
    intro = QLabel(
        "Where the prototype rulebook is garbled or contradicts itself, the companion "
        "follows these readings. They live in the content pack's rules.yaml, so a pack "
        "for a later printing can change them." if items else
        "Open a campaign to see the readings its content pack follows."
    )
    intro.setWordWrap(True)
    buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
    buttons.rejected.connect(dialog.reject)
    layout = QVBoxLayout(dialog)
    layout.addWidget(intro)
    layout.addWidget(table)
    layout.addWidget(buttons)
    table.setFocus(Qt.FocusReason.OtherFocusReason)
    dialog.exec()
