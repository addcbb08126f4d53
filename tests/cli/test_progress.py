"""Issue 35 item 6 on the terminal: export and import show a progress bar on standard
error, redrawn in place on a terminal; elsewhere (a log, a pipe) only for large work, one
line per tenth done; standard output (and ``--json``) is left alone."""

from __future__ import annotations

import io
import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from companion.cli import campaign_cmd, main
from companion.cli import progress as cli_progress
from companion.cli.progress import ProgressBar
from tests.store.conftest import FIXTURES


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_issue35_6_on_a_terminal_the_bar_is_redrawn_in_place_and_cleared(
        monkeypatch: Any) -> None:
    monkeypatch.setattr(cli_progress, "REDRAW_SECONDS", 0.0)
    screen = Terminal()
    bar = ProgressBar("Importing", screen, large=10**9)
    for done in (0, 50, 100):
        bar.report(done, 100, f"Reading the history: {done} of 100 MiB")
    bar.close()
    text = screen.getvalue()
    assert "\n" not in text and text.count("\r") == 5  # three draws, then a cleared line
    assert "Importing [############............]  50% Reading the history: 50" in text
    assert "100%" in text and text.endswith("\r")


def test_issue35_6_elsewhere_large_work_is_one_line_per_tenth_and_small_work_silent() -> None:
    log = io.StringIO()
    bar = ProgressBar("Exporting", log, large=1000)
    for done in range(0, 2001, 50):
        bar.report(done, 2000, f"Writing the history: {done:,} of 2,000 rows")
    bar.close()
    lines = log.getvalue().splitlines()
    assert len(lines) == 11 and lines[0].startswith("Exporting: 0% ")
    assert lines[-1] == "Exporting: 100% Writing the history: 2,000 of 2,000 rows"
    quiet = io.StringIO()
    small = ProgressBar("Exporting", quiet, large=1000)
    small.report(10, 999, "Writing")
    assert quiet.getvalue() == ""


@pytest.fixture
def campaign(tmp_path: Path) -> Path:
    path = tmp_path / "rich.stonesaga"
    shutil.copyfile(FIXTURES / "campaign-v3.stonesaga", path)
    return path


def test_issue35_6_a_large_export_and_import_tell_their_progress_on_standard_error(
        campaign: Path, tmp_path: Path, monkeypatch: Any,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Captured standard error is no terminal: only large work shows; the thresholds are
    lowered so the small fixture counts as large."""
    monkeypatch.setattr(campaign_cmd, "LARGE_EXPORT_ROWS", 1)
    monkeypatch.setattr(campaign_cmd, "LARGE_IMPORT_BYTES", 1)
    out = tmp_path / "rich.json"
    assert main(["export", str(campaign), str(out), "--json"]) == 0
    done = capsys.readouterr()
    assert json.loads(done.out)["exported"] == str(out)  # standard output stays JSON
    assert "Exporting: 100% Writing" in done.err
    assert main(["import", str(out), str(tmp_path / "back.stonesaga")]) == 0
    assert "Importing: 100% Reading" in capsys.readouterr().err


def test_issue35_6_small_work_off_a_terminal_prints_no_bar(
        campaign: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "rich.json"
    assert main(["export", str(campaign), str(out)]) == 0
    assert main(["import", str(out), str(tmp_path / "back.stonesaga")]) == 0
    err = capsys.readouterr().err
    assert "Exporting" not in err and "Importing" not in err and "%" not in err
