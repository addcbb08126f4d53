"""Issue 38: the CLI warns on stderr when a campaign file lies inside a folder a sync
tool keeps in step (it may tear up a database while it is open); the command still runs
and its output is unchanged."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from companion import operations
from companion.cli import main


@pytest.mark.parametrize("make_synced", [
    lambda root: (root / "Dropbox").mkdir() or root / "Dropbox",
    lambda root: (root / "Music-and-games" / ".stfolder").mkdir(parents=True)
    or root / "Music-and-games"])
def test_issue38_cli_warns_about_a_campaign_in_a_synced_folder(
        tmp_path: Path, capsys: Any, make_synced: Any) -> None:
    synced: Path = make_synced(tmp_path)
    path = synced / "games" / "demo.stonesaga"
    path.parent.mkdir()
    operations.create_demo_campaign(path).close()
    assert main(["status", str(path), "--json"]) == 0
    out, err = capsys.readouterr()
    assert "warning:" in err and str(synced) in err and "Share Campaign" in err
    assert json.loads(out)  # stdout stays the command's own


def test_issue38_cli_says_nothing_for_a_campaign_in_the_data_folder(
        tmp_path: Path, capsys: Any) -> None:
    path = tmp_path / "campaigns" / "demo.stonesaga"
    path.parent.mkdir()
    operations.create_demo_campaign(path).close()
    assert main(["status", str(path), "--json"]) == 0
    assert "sync tool" not in capsys.readouterr().err
