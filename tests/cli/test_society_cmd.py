"""The society, legends and challenge commands through ``companion.cli.main`` with
``--json`` (Rulebook: Tracks; Legends; Continuing Play)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from companion import operations
from companion.cli import main


def run(capsys: Any, *argv: str) -> tuple[int, Any, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, (json.loads(out) if out.strip().startswith("{") else out), err


@pytest.fixture
def demo_path(tmp_path: Path) -> str:
    path = tmp_path / "demo.stonesaga"
    operations.create_demo_campaign(path).close()
    return str(path)


def test_activity_events_the_dial_from_the_cli_applies_the_event(
        capsys: Any, demo_path: str) -> None:
    code, data, _ = run(capsys, "society", demo_path, "activity", "10", "--json")
    assert code == 0 and "The elders argue." in data["summary"]
    _, status, _ = run(capsys, "status", demo_path, "--json")
    assert (status["status"]["activity"], status["status"]["unrest"]) == (10, 2)


def test_unrest_6_from_the_cli_puts_quelling_the_embers_in_play(
        capsys: Any, demo_path: str) -> None:
    code, data, _ = run(capsys, "society", demo_path, "unrest", "6", "--json")
    assert code == 0 and "Quelling the Embers" in data["summary"]
