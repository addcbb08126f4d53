"""journal-export, codex and search, headless (companion.cli.journal_cmd), driven
through an argparse parser of their own (the lead wires them into ``companion``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from companion import operations
from companion.cli import journal_cmd
from companion.operations import journal as j
from tests.cli.helpers import run_group


def run(capsys: Any, *argv: str) -> tuple[int, str, str]:
    return run_group(capsys, journal_cmd.register, *argv)


@pytest.fixture
def demo(tmp_path: Path) -> Path:
    path = tmp_path / "d.stonesaga"
    campaign = operations.create_demo_campaign(path)
    j.add_cave_wall_illustration(campaign, title="The great hunt", marks=["spiral"])
    campaign.close()
    return path


def test_codex_outcome_omen_and_craft(capsys: Any, demo: Path) -> None:
    code, out, _ = run(capsys, "codex", "outcome", str(demo), "103")
    assert code == 0 and "A cold wind" in out
    code, out, _ = run(capsys, "codex", "omen", str(demo), "sun", "E05", "--json")
    entry = json.loads(out)["entry"]
    assert code == 0 and entry["found"] and entry["label"] == "Sun E05"
    code, out, err = run(capsys, "codex", "omen", str(demo), "cloud", "E01")
    assert code == 1 and "Cloud is not a current omen (current: Sun)" in err
    code, out, _ = run(capsys, "codex", "omen", str(demo), "sun", "FO13")
    assert code == 0 and out.strip() == "No entry Sun FO13 — your investigation ends."
    code, out, _ = run(capsys, "codex", "craft", str(demo), "red", "1410")
    assert code == 0 and out.startswith("Red 1410: Stone Knife")
    with operations.open_campaign(demo) as campaign:
        kinds = [line.kind for line in campaign.journal(limit=10)]
    assert kinds[:4] == ["codex.crafting", "codex.omen", "codex.omen", "codex.outcome"]


def test_search_text_and_json_with_filters(capsys: Any, demo: Path) -> None:
    code, out, _ = run(capsys, "search", str(demo), "spiral", "--section", "cave_wall")
    assert code == 0 and out.strip() == "Primal Cave Wall   The great hunt: Marks: spiral"
    code, out, _ = run(capsys, "search", str(demo), "spiral", "--json", "--epoch", "1")
    hits = json.loads(out)["hits"]
    assert {h["section"] for h in hits} == {"cave_wall", "history"}
    code, out, _ = run(capsys, "search", str(demo), "zebra")
    assert out.strip() == "Nothing in the journal mentions 'zebra'."


def test_journal_export_markdown_and_pdf(capsys: Any, demo: Path, tmp_path: Path) -> None:
    md, pdf = tmp_path / "j.md", tmp_path / "j.pdf"
    code, out, _ = run(capsys, "journal-export", str(demo), "--md", str(md), "--pdf", str(pdf),
                       "--json")
    written = json.loads(out)["written"]
    assert code == 0 and written["pages"] >= 1
    assert "## Primal Cave Wall" in md.read_text(encoding="utf-8")
    assert pdf.read_bytes().startswith(b"%PDF")
    code, _, err = run(capsys, "journal-export", str(demo))
    assert code == 1 and "--md OUT.md" in err
