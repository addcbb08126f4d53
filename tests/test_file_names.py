"""File names made from a society's name are legal on Windows (issue 29): checked with
``PureWindowsPath``'s own rules and Microsoft's "Naming Files, Paths, and Namespaces"
(no <>:"/\\|?* or control characters, no reserved device name with or without an
extension, no trailing dot or space, a bounded length)."""

from __future__ import annotations

from pathlib import Path, PureWindowsPath
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion import paths
from companion.cli import main


def assert_legal_on_windows(file_name: str) -> None:
    windows = PureWindowsPath(file_name)
    assert windows.name == file_name, "one path component, no drive or folder"
    assert not windows.is_reserved(), file_name
    assert not set(file_name) & paths.WINDOWS_FORBIDDEN, file_name
    stem = file_name.removesuffix(paths.CAMPAIGN_SUFFIX)
    assert stem and stem == stem.rstrip(". ") and stem == stem.lstrip(" "), file_name
    assert stem.partition(".")[0].rstrip(" ").upper() not in paths.WINDOWS_RESERVED
    assert len(stem.encode("utf-16-le")) // 2 <= paths.MAX_STEM


@pytest.mark.parametrize(("society", "file_name"), [
    ("Dawn: the Ford?", "Dawn the Ford.stonesaga"),
    ("The Ember Folk", "The Ember Folk.stonesaga"),
    ('Ash <and> "Bone"', "Ash and Bone.stonesaga"),
    ("North/South\\Ford|Pipe*", "North South Ford Pipe.stonesaga"),
    ("CON", "CON_.stonesaga"),
    ("nul", "nul_.stonesaga"),
    ("com1.hearth", "com1_.hearth.stonesaga"),
    ("LPT9 ", "LPT9_.stonesaga"),
    ("The Last.", "The Last.stonesaga"),
    ("   ...   ", "Campaign.stonesaga"),
    ("?*:", "Campaign.stonesaga"),
    ("Tab\there", "Tab here.stonesaga"),
    ("Émile's Fjörd", "Émile's Fjörd.stonesaga"),
])
def test_a_society_name_becomes_a_legal_file_name(society: str, file_name: str) -> None:
    assert paths.campaign_file_name(society) == file_name
    assert_legal_on_windows(file_name)


def test_a_long_name_is_cut_to_the_limit_counting_as_ntfs_does() -> None:
    stem = paths.safe_file_stem("🔥" * 100)  # each is two UTF-16 units
    assert stem == "🔥" * (paths.MAX_STEM // 2)
    assert paths.safe_file_stem("a" * 300) == "a" * paths.MAX_STEM


@given(st.text(max_size=300))
def test_any_typed_name_gives_a_legal_file_name(society: str) -> None:
    assert_legal_on_windows(paths.campaign_file_name(society))


def test_campaign_new_names_the_file_legally(capsys: Any) -> None:
    """``companion campaign new NAME`` without --file: the file sits in the campaigns
    folder under a legal name, and the society keeps the name as typed."""
    assert main(["campaign", "new", "Dawn: the Ford?", "--seed", "1", "--json"]) == 0
    capsys.readouterr()
    made = paths.campaigns_dir() / "Dawn the Ford.stonesaga"
    assert made.is_file()
    assert main(["status", str(made), "--json"]) == 0
    assert '"society_name": "Dawn: the Ford?"' in capsys.readouterr().out


def test_campaign_new_with_a_file_takes_it_as_given(tmp_path: Path, capsys: Any) -> None:
    target = tmp_path / "my own name.stonesaga"
    assert main(["campaign", "new", "CON", "--file", str(target), "--seed", "1"]) == 0
    assert target.is_file() and not (paths.campaigns_dir() / "CON_.stonesaga").exists()
