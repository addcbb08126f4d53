"""``companion behemoth ...`` through its register() (until it is in COMMAND_MODULES)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from companion import operations
from companion.cli import behemoth_cmd
from tests.cli.helpers import run_group


def run(capsys: Any, *argv: str) -> tuple[int, str, str]:
    return run_group(capsys, behemoth_cmd.register, *argv)


@pytest.fixture
def demo_path(tmp_path: Path) -> Path:
    path = tmp_path / "d.stonesaga"
    campaign = operations.create_demo_campaign(path)
    operations.move(campaign, name="Ash", to_hex="E05")
    campaign.close()
    return path


def test_setup_show_activate_and_contest(demo_path: Path, capsys: Any) -> None:
    p = str(demo_path)
    code, out, _ = run(capsys, "behemoth", "setup", p, "rimeback", "--instinct", "RBI1",
                       "--secret", "RBS2", "--lair", "E01")
    assert code == 0 and "Rimeback is set up" in out
    assert run(capsys, "behemoth", "target", p, "Ash")[0] == 0
    code, out, _ = run(capsys, "behemoth", "show", p)
    assert code == 0 and "Rimeback in E01" in out and "E05: 100.0%" in out and "(1)" not in out
    code, out, _ = run(capsys, "behemoth", "show", p, "--json")
    data = json.loads(out)["behemoth"]
    assert data["end_hexes"] == {"E05": {"fraction": "1", "probability": 1.0}}
    assert data["secret"] is None
    code, out, err = run(capsys, "behemoth", "learn", p, "habits")
    assert code == 1 and "costs 4" in err
    code, out, _ = run(capsys, "behemoth", "activate", p, "--choice", "3", "--choice", "RB3",
                       "--choice", "6")
    assert code == 0, out
    assert "It encounters Ash" in out and "11 against 9: success" in out
    assert "The procedure is finished." in out


def test_encounter_in_the_app_and_refusals(demo_path: Path, capsys: Any) -> None:
    p = str(demo_path)
    code, _, err = run(capsys, "behemoth", "activate", p, "--app")
    assert code == 1 and "No behemoth is in play" in err
    assert run(capsys, "behemoth", "show", p)[1].strip() == "No behemoth is in play."
    assert run(capsys, "behemoth", "setup", p, "rimeback")[0] == 0
    code, _, err = run(capsys, "behemoth", "setup", p, "rimeback")
    assert code == 1 and "set up already" in err
    code, out, _ = run(capsys, "behemoth", "encounter", p, "Bryn", "--app")
    assert code == 0 and "Bryn encounters Rimeback" in out
    assert "The procedure is finished." in out
