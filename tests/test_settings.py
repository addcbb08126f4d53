"""The preferences file: defaults, round trip, bad values, unknown keys, BackupPolicy."""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path

import pytest

from companion import paths, settings
from companion.settings import Settings


def test_defaults_when_there_is_no_file() -> None:
    assert settings.load() == Settings()
    assert settings.problems() == []
    assert settings.settings_path().parent == paths.user_data_dir()


def test_round_trip_in_the_user_data_folder() -> None:
    chosen = Settings(odds_advisor=False, backup_interval_minutes=3, backups_recent=4,
                      backups_daily=2, backups_weekly=1, content_dirs=("~/packs",),
                      procedure_entry="app", theme="dark")
    written = settings.save(chosen)
    assert written == paths.user_data_dir() / "preferences.json"
    assert settings.load() == chosen
    assert settings.load().app_draws
    assert settings.load().extra_content() == [Path("~/packs").expanduser()]


def test_bad_values_fall_back_and_are_reported() -> None:
    settings.settings_path().write_text(json.dumps({
        "theme": "purple", "backups_recent": 0, "odds_advisor": "yes",
        "backup_interval_minutes": 15, "content_dirs": [3]}), encoding="utf-8")
    loaded = settings.load()
    assert loaded.theme == "system" and loaded.backups_recent == 10
    assert loaded.odds_advisor is True and loaded.content_dirs == ()
    assert loaded.backup_interval_minutes == 15
    assert len(settings.problems()) == 4


def test_a_broken_file_is_kept_aside_not_overwritten() -> None:
    path = settings.settings_path()
    path.write_text("{not json", encoding="utf-8")
    assert settings.load() == Settings()
    assert "not valid JSON" in settings.problems()[0]
    settings.save(Settings(theme="light"))
    assert path.with_name("preferences.json.bad").read_text(encoding="utf-8") == "{not json"
    assert settings.load().theme == "light"


def test_unknown_keys_from_a_newer_version_survive_a_save() -> None:
    settings.settings_path().write_text(json.dumps({"theme": "dark", "future": [1, 2]}),
                                        encoding="utf-8")
    loaded = settings.load()
    settings.save(loaded.with_changes(odds_advisor=False))
    data = json.loads(settings.settings_path().read_text(encoding="utf-8"))
    assert data["future"] == [1, 2] and data["odds_advisor"] is False
    assert data["theme"] == "dark"


def test_with_changes_refuses_a_value_out_of_range() -> None:
    with pytest.raises(ValueError, match="backup_interval_minutes"):
        Settings().with_changes(backup_interval_minutes=0)


def test_backup_policy_maps_onto_the_store() -> None:
    policy = Settings(backup_interval_minutes=5, backups_recent=3, backups_daily=2,
                      backups_weekly=1).backup_policy()
    assert policy.interval == timedelta(minutes=5)
    assert (policy.recent, policy.daily, policy.weekly) == (3, 2, 1)


def test_the_module_imports_no_qt() -> None:
    import ast

    tree = ast.parse(Path(settings.__file__).read_text(encoding="utf-8"))
    names = [n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)]
    names += [a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names]
    assert not any(name.startswith(("PySide6", "shiboken6")) for name in names)
