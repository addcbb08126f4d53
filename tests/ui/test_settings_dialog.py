"""Edit ▸ Settings: shows the saved preferences, OK writes them to the user data folder,
Cancel writes nothing, a folder without packs is refused with a reason."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QApplication, QDialogButtonBox

from companion import settings
from companion.settings import Settings
from companion.ui.settings_dialog import SettingsDialog


def test_ok_saves_every_setting_and_applies_the_theme(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    dialog = SettingsDialog(None, Settings())
    qtbot.addWidget(dialog)
    dialog.odds.setChecked(False)
    dialog.entry.setCurrentIndex(dialog.entry.findData("app"))
    dialog.theme.setCurrentIndex(dialog.theme.findData("dark"))
    dialog.interval.setValue(4)
    dialog.recent.setValue(3)
    dialog.daily.setValue(2)
    dialog.weekly.setValue(1)
    pack = tmp_path / "mypack"
    pack.mkdir()
    (pack / "pack.yaml").write_text("id: mypack\nname: My pack\nversion: '1'\n"
                                    "extends: sample\n", encoding="utf-8")
    assert dialog.add_content_folder(str(pack))
    assert "My pack" in dialog.pack_note.text()
    with qtbot.waitSignal(dialog.settings_changed):
        dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).click()
    saved = settings.load()
    assert saved == Settings(odds_advisor=False, procedure_entry="app", theme="dark",
                             backup_interval_minutes=4, backups_recent=3, backups_daily=2,
                             backups_weekly=1, content_dirs=(str(pack),))
    assert QApplication.instance().property("companionScheme") == "dark"
    from companion.ui import theme

    theme.apply(QApplication.instance(), "light")  # leave the other tests in light


def test_cancel_writes_nothing_and_defaults_can_be_restored(qtbot) -> None:  # type: ignore[no-untyped-def]
    settings.save(Settings(theme="light", backups_recent=2))
    dialog = SettingsDialog()
    qtbot.addWidget(dialog)
    assert dialog.theme.currentData() == "light" and dialog.recent.value() == 2
    dialog.buttons.button(QDialogButtonBox.StandardButton.RestoreDefaults).click()
    assert dialog.current() == Settings()
    dialog.buttons.button(QDialogButtonBox.StandardButton.Cancel).click()
    assert settings.load() == Settings(theme="light", backups_recent=2)


def test_a_folder_without_packs_is_refused(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    dialog = SettingsDialog(None, Settings())
    qtbot.addWidget(dialog)
    assert not dialog.add_content_folder(str(tmp_path))
    assert "holds no content pack" in dialog.pack_note.text()
    assert dialog.folders.count() == 0 and not dialog.remove_folder.isEnabled()


def test_the_open_campaign_takes_the_new_backup_policy(qtbot, campaign, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from datetime import timedelta

    from companion.ui import settings_dialog
    from companion.ui.main_window import MainWindow

    window = MainWindow()
    qtbot.addWidget(window)
    window.campaign = campaign

    def run(self):  # type: ignore[no-untyped-def]
        self.interval.setValue(2)
        self.accept()
        return settings_dialog.QDialog.DialogCode.Accepted

    monkeypatch.setattr(SettingsDialog, "exec", run)
    saved = settings_dialog.open_settings(window)
    assert saved is not None and campaign.file.policy.interval == timedelta(minutes=2)
    window.campaign = None
