"""An export never swaps a device, a pipe or a folder for a plain file.

Found while this session's fuzzing ran as root: ``companion export CAMPAIGN /dev/null``
renamed the export over ``/dev/null`` and left a plain file there, which broke every
program on the machine that writes to it. Writing whole files renames a new file over
the destination, so the destination must be a plain file (or absent) first.
"""

from __future__ import annotations

import os
import shutil
import stat
from pathlib import Path

import pytest

from companion.cli import main
from companion.store import export_campaign, migrations
from companion.store.errors import NotARegularFile
from companion.store.portable import ExportWouldReplace
from tests.store.conftest import FIXTURES


@pytest.fixture
def campaign(tmp_path: Path) -> Path:
    path = tmp_path / "rich.stonesaga"
    shutil.copyfile(FIXTURES / f"campaign-v{migrations.SCHEMA_VERSION}.stonesaga", path)
    return path


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX only")
def test_an_export_onto_a_named_pipe_is_refused_and_the_pipe_stays(
        campaign: Path, tmp_path: Path) -> None:
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    with pytest.raises(NotARegularFile, match="not a plain file"):
        export_campaign(campaign, pipe)
    assert stat.S_ISFIFO(pipe.lstat().st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pipe", "rich.stonesaga"]


def test_an_export_onto_a_folder_is_refused(campaign: Path, tmp_path: Path) -> None:
    folder = tmp_path / "exports"
    folder.mkdir()
    with pytest.raises(NotARegularFile):
        export_campaign(campaign, folder)
    assert folder.is_dir() and not any(folder.iterdir())


def test_an_export_through_a_link_writes_the_file_and_keeps_the_link(
        campaign: Path, tmp_path: Path) -> None:
    target = tmp_path / "real.json"
    export_campaign(campaign, target)
    target.write_text(target.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    link = tmp_path / "link.json"
    link.symlink_to(target)
    export_campaign(campaign, link)  # an earlier export: replaced without a word
    assert link.is_symlink() and target.read_text(encoding="utf-8").endswith("}\n")
    assert not target.read_text(encoding="utf-8").endswith("\n\n")


def test_issue35_5_an_export_through_a_link_to_another_file_is_refused_unless_confirmed(
        campaign: Path, tmp_path: Path) -> None:
    """Issue 35 item 5: the link pointed at a file that is not an export, and the export
    replaced it without asking."""
    target = tmp_path / "letters.txt"
    target.write_text("Dear Kim,", encoding="utf-8")
    link = tmp_path / "link.json"
    link.symlink_to(target)
    with pytest.raises(ExportWouldReplace, match=r"letters.txt \(the link .*link.json points "
                       r"to it\) is a file that is not a campaign export"):
        export_campaign(campaign, link)
    assert target.read_text(encoding="utf-8") == "Dear Kim," and link.is_symlink()
    export_campaign(campaign, link, replace=True)
    assert link.is_symlink() and target.read_text(encoding="utf-8").startswith("{")


def test_issue35_5_the_command_line_refuses_a_file_that_is_not_an_export_without_force(
        campaign: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    notes = tmp_path / "notes.json"
    notes.write_text('{"shopping": ["reed", "clay"]}', encoding="utf-8")
    assert main(["export", str(campaign), str(notes)]) == 1
    err = capsys.readouterr().err
    assert "is a file that is not a campaign export" in err and "--force" in err
    assert "Traceback" not in err
    assert notes.read_text(encoding="utf-8") == '{"shopping": ["reed", "clay"]}'
    assert main(["export", str(campaign), str(notes), "--force"]) == 0
    assert notes.read_text(encoding="utf-8").startswith('{\n "format"')
    # An export there now: exporting again needs no --force.
    assert main(["export", str(campaign), str(notes)]) == 0


def test_issue35_5_an_empty_file_loses_nothing_and_is_written(
        campaign: Path, tmp_path: Path) -> None:
    empty = tmp_path / "empty.json"
    empty.touch()
    export_campaign(campaign, empty)
    assert empty.read_text(encoding="utf-8").startswith("{")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX only")
def test_the_command_line_refuses_in_words(
        campaign: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    assert main(["export", str(campaign), str(pipe)]) == 1
    assert "not a plain file" in capsys.readouterr().err
    assert stat.S_ISFIFO(pipe.lstat().st_mode)
