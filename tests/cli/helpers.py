"""The CLI tests' terminal: a command run in-process, its output captured by pytest."""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from typing import Any

from companion.cli import main


def run(capsys: Any, *argv: str) -> tuple[int, str, str]:
    """``companion ARGV``: the exit code, standard output and standard error."""
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def run_json(capsys: Any, *argv: str) -> tuple[int, Any, str]:
    """``run``, the output parsed when it is a JSON object."""
    code, out, err = run(capsys, *argv)
    return code, (json.loads(out) if out.strip().startswith("{") else out), err


def run_group(capsys: Any, register: Callable[[Any], None], *argv: str) -> tuple[int, str, str]:
    """One command group alone, on a parser of its own (``register`` adds its commands)."""
    parser = argparse.ArgumentParser(prog="companion")
    register(parser.add_subparsers(dest="command"))
    args = parser.parse_args(list(argv))
    code = args.func(args)
    out, err = capsys.readouterr()
    return code, out, err


def walk_typed(campaign: Any, *answers: str) -> None:
    """``companion step`` at a terminal (no ``--choice``): each answer typed at its
    prompt in turn, then the end of input."""
    from companion.cli import procedure_cmd

    typed = iter(answers)

    class Args:
        choice: list[str] = []
        app = False
        json = False

    def read() -> str:
        try:
            return next(typed)
        except StopIteration:
            raise EOFError from None

    procedure_cmd.walk(campaign, Args(), read)  # type: ignore[arg-type]
