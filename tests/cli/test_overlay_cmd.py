"""``companion overlay``: a game effect places an overlay (Rulebook: Valley > Overlays),
through the CLI's main() with --json; refusals change nothing and print no traceback."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from companion import operations
from companion.cli import main


@pytest.fixture
def demo_path(tmp_path: Path) -> Path:
    path = tmp_path / "d.stonesaga"
    operations.create_demo_campaign(path).close()
    return path


def start_hex(path: Path) -> str:
    campaign = operations.open_campaign(path)
    try:
        hex_id = next(c.hex_id for c in campaign.characters() if c.name == "Ash")
    finally:
        campaign.close()
    assert hex_id is not None
    return hex_id


def run(capsys: Any, *argv: str) -> tuple[int, str, str]:
    code = main(["overlay", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_valley_overlays_listed_then_placed_with_json(demo_path: Path, capsys: Any) -> None:
    code, out, _ = run(capsys, str(demo_path), "--json")
    assert code == 0
    assert json.loads(out)["overlays"] == [{"id": "rockfall", "name": "Rockfall",
                                            "placed_on": None}]
    hex_id = start_hex(demo_path)
    code, out, _ = run(capsys, str(demo_path), "--hex", hex_id, "--section", "C",
                       "--overlay", "rockfall", "--json")
    assert code == 0
    data = json.loads(out)
    assert (data["section"], data["overlay"]) == ("c", "rockfall")
    assert data["summary"] == f"Rockfall covers section C of {hex_id}"
    code, out, _ = run(capsys, str(demo_path), "--json")
    assert json.loads(out)["overlays"][0]["placed_on"] == hex_id


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (("--section", "b", "--overlay", "OP2"), "Stilt Houses is placed by building"),
        (("--section", "e", "--overlay", "rockfall"), "sections are A, B and C"),
        (("--overlay", "rockfall"), "say which hex (--hex) and section"),
    ],
)
def test_valley_overlays_refused_in_game_words(
    demo_path: Path, capsys: Any, extra: tuple[str, ...], message: str
) -> None:
    hex_args = () if "--section" not in extra else ("--hex", start_hex(demo_path))
    code, _, err = run(capsys, str(demo_path), *hex_args, *extra, "--json")
    assert code == 1 and message in err and "Traceback" not in err
    code, out, _ = run(capsys, str(demo_path), "--json")
    assert json.loads(out)["overlays"][0]["placed_on"] is None
