"""docs/cli.md states the real syntax (issue 20): its synopsis block is the parser's own,
the examples in its prose parse, and ``companion help CMD`` prints that command's help."""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import Any

import pytest

from companion.cli import command_parser, main
from companion.cli.reference import markdown

DOC = Path(__file__).resolve().parents[2] / "docs" / "cli.md"


def test_the_manual_lists_every_command_as_the_program_parses_it() -> None:
    assert markdown() in DOC.read_text(encoding="utf-8"), \
        "docs/cli.md is out of date: run python scripts/cli_reference.py"


@pytest.mark.parametrize("example", [
    "codex outcome PATH 160",
    "codex omen PATH cloud FO13 --character Ash",
    "codex craft PATH R1410",
    "journal-export PATH --md OUT.md",
    "journal-export PATH --pdf OUT.pdf",
    "map PATH --png OUT.png --width 800 --grid",
    "search PATH fish --section history --epoch 1",
    "fish PATH Ash river --app",
])
def test_the_manuals_examples_parse(example: str) -> None:
    parser, _ = command_parser()
    parsed = parser.parse_args(shlex.split(example))
    assert parsed.func is not None


def test_help_for_one_command(capsys: Any) -> None:
    assert main(["help", "codex", "outcome"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: companion codex outcome") and "number" in out


def test_help_for_an_unknown_command(capsys: Any) -> None:
    assert main(["help", "fly"]) == 2
    err = capsys.readouterr().err
    assert "there is no command 'fly'" in err and "codex" in err
