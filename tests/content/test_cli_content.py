"""``companion content check | list | import-crafting``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.cli import main
from tests.content.conftest import edit


def test_check_sample_ok(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["content", "check"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("content OK:") and "sample 1.0.0" in out
    assert len(out.strip().splitlines()) == 1


def test_check_path_reports_every_error(sample_copy: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["content", "check", str(sample_copy)]) == 0
    capsys.readouterr()
    line = edit(sample_copy / "items.yaml", "slot: hand", "slot: pocket")
    edit(sample_copy / "night.yaml", "type: solo", "type: duo")
    assert main(["content", "check", str(sample_copy)]) == 1
    err = capsys.readouterr().err
    assert f"sample/items.yaml:{line}: items.0.slot: " in err
    assert "sample/night.yaml:" in err
    assert "2 problem(s)" in err


def test_check_folder_without_pack(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["content", "check", str(tmp_path)]) == 1
    assert "no content pack here" in capsys.readouterr().err


def test_list_json_counts_without_spoilers(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["content", "list", "--json"]) == 0
    out = capsys.readouterr().out
    data = json.loads(out)
    sample = next(p for p in data["packs"] if p["id"] == "sample")
    assert sample["total"]["codex_outcomes"] >= 40
    assert sample["own"]["night_cards"] == sample["total"]["night_cards"]
    assert "Sunken Grotto lies" not in out and "entry 100" not in out


def test_list_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["content", "list"]) == 0
    out = capsys.readouterr().out
    assert "sample 1.0.0" in out and "night_cards" in out


def test_import_crafting_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    csv = tmp_path / "Purple.csv"
    csv.write_text("Code;Flavor Text;Game Text;Item Name\n2301;Old;Does things;Charm\n",
                   encoding="utf-8")
    pack = tmp_path / "mine"
    assert main(["content", "import-crafting", str(csv), "--pack", str(pack)]) == 0
    assert "imported 1 crafting entry" in capsys.readouterr().out
    assert main(["content", "check", str(pack)]) == 0
