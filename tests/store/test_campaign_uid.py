"""Issue 35 item 3, first part: every campaign has its own identity (``campaign.uid``,
schema 4), set when it is made, given once to a file made before it, and carried
unchanged through an export and its import."""

from __future__ import annotations

import re
import shutil
import sqlite3
from pathlib import Path

import pytest

from companion.store import (
    CampaignFile,
    check_campaign,
    export_campaign,
    import_campaign,
    migrations,
)
from companion.store.models import Campaign
from tests.store.conftest import FIXTURES


def uid_of(path: Path) -> str:
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return str(conn.execute("SELECT uid FROM campaign WHERE id = 1").fetchone()[0])
    finally:
        conn.close()


def test_issue35_item3_a_new_campaign_gets_its_own_uid(tmp_path: Path) -> None:
    one, two = tmp_path / "one.stonesaga", tmp_path / "two.stonesaga"
    CampaignFile.create(one, backups=False).close()
    CampaignFile.create(two, backups=False).close()
    assert re.fullmatch(r"[0-9a-f]{32}", uid_of(one))
    assert uid_of(one) != uid_of(two)


@pytest.mark.parametrize("fixture", ["campaign-v1.stonesaga", "campaign-v2.stonesaga",
                                     "campaign-v3.stonesaga"])
def test_issue35_item3_an_older_file_gets_a_uid_once(tmp_path: Path, fixture: str) -> None:
    path = tmp_path / fixture
    shutil.copyfile(FIXTURES / fixture, path)
    with CampaignFile.open(path) as cf, cf.read() as session:
        row = session.get(Campaign, 1)
        assert row is not None and re.fullmatch(r"[0-9a-f]{32}", row.uid)
        first = row.uid
    with CampaignFile.open(path):
        pass
    assert uid_of(path) == first
    assert check_campaign(path).ok


def test_issue35_item3_the_uid_survives_export_and_import(tmp_path: Path) -> None:
    path = tmp_path / "c.stonesaga"
    shutil.copyfile(FIXTURES / f"campaign-v{migrations.SCHEMA_VERSION}.stonesaga", path)
    exported = tmp_path / "c.json"
    with CampaignFile.open(path) as cf:
        export_campaign(cf, exported)
    with import_campaign(exported, tmp_path / "again.stonesaga"):
        pass
    assert uid_of(tmp_path / "again.stonesaga") == uid_of(path)


def test_issue35_item3_a_version_3_export_gets_a_uid() -> None:
    tables = {"campaign": {"columns": ["id", "epoch"], "rows": [[1, 2]]}}
    upgraded = migrations.EXPORT_UPGRADES[3](tables)["campaign"]
    assert upgraded["columns"] == ["id", "epoch", "uid"]
    assert re.fullmatch(r"[0-9a-f]{32}", upgraded["rows"][0][2])
