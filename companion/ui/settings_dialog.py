"""Edit ▸ Settings (Preferences on macOS): the odds advisor, backups, extra content
pack folders, how procedures start, and the theme.

Reads and writes :mod:`companion.settings` (``preferences.json`` in the user data
folder). OK saves, re-applies the theme, and gives the open campaign the new backup
policy; ``settings_changed`` carries the new ``Settings`` for anyone else who cares.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QApplication,
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from companion import settings as prefs
from companion.settings import LIMITS, Settings

if TYPE_CHECKING:
    from companion.ui.host import Host

THEME_CHOICES = (("system", "Follow the system"), ("light", "Light"), ("dark", "Dark"))
ENTRY_CHOICES = (
    ("table", "At the table: we roll the dice and draw the cards, then type them in"),
    ("app", "In the app: the companion rolls and draws"),
)


class SettingsDialog(QDialog):
    """The settings, edited in place; OK saves them."""

    settings_changed = Signal(object)
    """Emitted with the saved ``Settings`` after OK."""

    def __init__(self, parent: QWidget | None = None, current: Settings | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Settings")
        self.setObjectName("settingsDialog")
        self.original = current if current is not None else prefs.load()
        self.saved: Settings | None = None

        self.odds = QCheckBox("Show the &odds of a check while the players decide")
        self.odds.setAccessibleName("Odds advisor")
        self.entry = QComboBox()
        self.entry.setAccessibleName("How procedures start")
        for key, text in ENTRY_CHOICES:
            self.entry.addItem(text, key)
        self.theme = QComboBox()
        self.theme.setAccessibleName("Theme")
        for key, text in THEME_CHOICES:
            self.theme.addItem(text, key)
        self.text_size = QComboBox()
        self.text_size.setAccessibleName("Text size")
        for percent in prefs.TEXT_SIZES:
            self.text_size.addItem("Normal (the system's)" if percent == 100 else
                                   f"Larger ({percent}%)", percent)

        self.interval = self._spin("backup_interval_minutes", "Minutes between backups",
                                   " min")
        self.recent = self._spin("backups_recent", "Recent backups kept")
        self.daily = self._spin("backups_daily", "Daily backups kept")
        self.weekly = self._spin("backups_weekly", "Weekly backups kept")
        backups = QGroupBox("&Backups")
        backup_form = QFormLayout()
        backup_form.addRow("Back up every:", self.interval)
        backup_form.addRow("Keep the most recent:", self.recent)
        backup_form.addRow("Keep one a day, for (days):", self.daily)
        backup_form.addRow("Keep one a week, for (weeks):", self.weekly)
        self.backup_note = QLabel("A backup is also taken on opening, before upgrades and "
                                  "before a restore. Changes apply to the open campaign at "
                                  "once.")
        self.backup_note.setWordWrap(True)
        # Below the form, not a row of it: a form row kept one line's height for the
        # wrapped note, and cut it at the larger text size (issue 36 item 11).
        backup_layout = QVBoxLayout(backups)
        backup_layout.addLayout(backup_form)
        backup_layout.addWidget(self.backup_note)

        packs = QGroupBox("Extra &content pack folders")
        self.folders = QListWidget()
        self.folders.setAccessibleName("Extra content pack folders")
        self.add_folder = QPushButton("&Add Folder…")
        self.add_folder.setAccessibleName("Add a content pack folder")
        self.add_folder.clicked.connect(self.choose_folder)
        self.remove_folder = QPushButton("&Remove")
        self.remove_folder.setAccessibleName("Remove the selected content pack folder")
        self.remove_folder.clicked.connect(self.remove_selected)
        self.pack_note = QLabel("The shipped packs and the packs in your data folder are "
                                "always found. New folders apply to campaigns opened next.")
        self.pack_note.setWordWrap(True)
        self.pack_note.setAccessibleName("Content pack check")
        buttons_row = QVBoxLayout()
        buttons_row.addWidget(self.add_folder)
        buttons_row.addWidget(self.remove_folder)
        buttons_row.addStretch(1)
        pack_row = QHBoxLayout()
        pack_row.addWidget(self.folders, 1)
        pack_row.addLayout(buttons_row)
        pack_layout = QVBoxLayout(packs)
        pack_layout.addLayout(pack_row)
        pack_layout.addWidget(self.pack_note)

        form = QFormLayout()
        form.addRow(self.odds)
        form.addRow("&Procedures start:", self.entry)
        form.addRow("&Theme:", self.theme)
        form.addRow("Te&xt size:", self.text_size)

        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok |
                                        QDialogButtonBox.StandardButton.Cancel |
                                        QDialogButtonBox.StandardButton.RestoreDefaults)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        self.buttons.button(QDialogButtonBox.StandardButton.RestoreDefaults).clicked.connect(
            lambda: self.show_settings(Settings(extra=dict(self.original.extra))))
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(backups)
        layout.addWidget(packs)
        layout.addWidget(self.buttons)
        self.show_settings(self.original)

    def showEvent(self, event: Any) -> None:  # noqa: N802 (Qt's name)
        super().showEvent(event)
        # Tall enough for the wrapped notes at the width it opened with: the window's
        # first size counted them one line high (issue 36 item 11).
        layout = self.layout()
        if layout is not None:
            needed = layout.totalHeightForWidth(self.width())
            self.setMinimumHeight(max(self.minimumHeight(), needed))
            if self.height() < needed:
                self.resize(self.width(), needed)

    def _spin(self, name: str, accessible: str, suffix: str = "") -> QSpinBox:
        spin = QSpinBox()
        low, high = LIMITS[name]
        spin.setRange(low, high)
        spin.setSuffix(suffix)
        spin.setAccessibleName(accessible)
        return spin

    # -- values ----------------------------------------------------------------------

    def show_settings(self, s: Settings) -> None:
        """Put ``s`` in the controls."""
        self.odds.setChecked(s.odds_advisor)
        self.entry.setCurrentIndex(self.entry.findData(s.procedure_entry))
        self.theme.setCurrentIndex(self.theme.findData(s.theme))
        self.text_size.setCurrentIndex(self.text_size.findData(s.text_size))
        self.interval.setValue(s.backup_interval_minutes)
        self.recent.setValue(s.backups_recent)
        self.daily.setValue(s.backups_daily)
        self.weekly.setValue(s.backups_weekly)
        self.folders.clear()
        self.folders.addItems(list(s.content_dirs))
        if self.folders.count():
            self.folders.setCurrentRow(0)
        self.remove_folder.setEnabled(bool(self.folders.count()))

    def current(self) -> Settings:
        """The settings as the controls show them."""
        return self.original.with_changes(
            odds_advisor=self.odds.isChecked(),
            procedure_entry=str(self.entry.currentData()),
            theme=str(self.theme.currentData()),
            text_size=int(self.text_size.currentData()),
            backup_interval_minutes=self.interval.value(),
            backups_recent=self.recent.value(),
            backups_daily=self.daily.value(),
            backups_weekly=self.weekly.value(),
            content_dirs=[self.folders.item(i).text() for i in range(self.folders.count())],
        )

    # -- content folders -------------------------------------------------------------------

    def choose_folder(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, "A folder of content packs")
        if folder:
            self.add_content_folder(folder)

    def add_content_folder(self, folder: str) -> bool:
        """Add a pack folder after checking it holds at least one readable pack."""
        from companion.content import ContentError, discover_packs

        existing = [self.folders.item(i).text() for i in range(self.folders.count())]
        if folder in existing:
            return False
        try:
            found = discover_packs([Path(folder)])
        except ContentError as exc:
            self.pack_note.setText(f"⚠ {folder} was not added: a pack there is broken.\n{exc}")
            return False
        shipped = {m.id for m in discover_packs()}
        new = [m for m in found if m.id not in shipped]
        if not new:
            self.pack_note.setText(f"⚠ {folder} was not added: it holds no content pack "
                                   "(a folder with pack.yaml, or folders of them).")
            return False
        self.folders.addItem(folder)
        self.folders.setCurrentRow(self.folders.count() - 1)
        self.remove_folder.setEnabled(True)
        names = ", ".join(f"{m.name} ({m.id})" for m in new)
        self.pack_note.setText(f"✓ Added {folder}: {names}.")
        return True

    def remove_selected(self) -> None:
        row = self.folders.currentRow()
        if row >= 0:
            self.folders.takeItem(row)
        self.remove_folder.setEnabled(bool(self.folders.count()))

    # -- saving ------------------------------------------------------------------------------

    def accept(self) -> None:
        chosen = self.current()
        prefs.save(chosen)
        self.saved = chosen
        app = QApplication.instance()
        if isinstance(app, QApplication):
            from companion.ui import text_size, theme

            theme.apply(app, chosen.theme)
            text_size.apply(app, chosen.text_size)
        self.settings_changed.emit(chosen)
        super().accept()


def open_settings(window: Host) -> Settings | None:
    """Edit ▸ Settings: show the dialog; on OK the open campaign takes the new backup
    policy. Returns the saved settings (``None`` if cancelled)."""
    dialog = SettingsDialog(window)
    if dialog.exec() != QDialog.DialogCode.Accepted or dialog.saved is None:
        return None
    if window.campaign is not None:
        window.campaign.file.policy = dialog.saved.backup_policy()
    return dialog.saved
