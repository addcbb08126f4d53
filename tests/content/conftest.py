"""Fixtures: a private copy of the sample pack that a test may break."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from companion.paths import shipped_content_dir

SAMPLE = shipped_content_dir() / "sample"
RULES = shipped_content_dir() / "rules"
"""The rules pack the sample extends (its rules.yaml is the one rules file)."""


@pytest.fixture
def sample_copy(tmp_path: Path) -> Path:
    """A copy of the sample pack in ``tmp/sample``; as an extra folder it shadows the
    shipped pack of the same id, so ``load_content("sample", [copy])`` loads the copy."""
    target = tmp_path / "sample"
    shutil.copytree(SAMPLE, target)
    return target


def edit(path: Path, old: str, new: str) -> int:
    """Replace the first ``old`` in ``path`` by ``new``; return the 1-based line it was on."""
    text = path.read_text(encoding="utf-8")
    index = text.index(old)
    path.write_text(text[:index] + new + text[index + len(old):], encoding="utf-8")
    return text[:index].count("\n") + 1


def line_of(path: Path, needle: str) -> int:
    """1-based line of the first ``needle`` in ``path``."""
    text = path.read_text(encoding="utf-8")
    return text[: text.index(needle)].count("\n") + 1
