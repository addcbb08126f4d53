"""The synopsis of every command, from the parser itself: ``docs/cli.md`` carries it
(written by ``scripts/cli_reference.py``, checked by a test), so the manual's syntax is
always the program's."""

from __future__ import annotations

import argparse
from collections.abc import Iterator

BEGIN = "<!-- commands: written by scripts/cli_reference.py; do not edit by hand -->"
END = "<!-- end of commands -->"


def _subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:  # argparse keeps its subcommands here, nowhere public
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def _synopsis(parser: argparse.ArgumentParser) -> str:
    wide = argparse.HelpFormatter(parser.prog, width=10_000)
    wide.add_usage(parser.usage, parser._actions, parser._mutually_exclusive_groups, "")
    return " ".join(wide.format_help().split()).replace(" [-h]", "")


def synopses(parser: argparse.ArgumentParser) -> Iterator[str]:
    """One line per command that runs (a family's subcommands, not the family)."""
    for _name, sub in sorted(_subparsers(parser).items()):
        inner = _subparsers(sub)
        if inner:
            yield from synopses(sub)
        else:
            yield _synopsis(sub)


def markdown() -> str:
    """The generated block of ``docs/cli.md``, markers included."""
    from companion.cli import command_parser

    parser, _ = command_parser()
    lines = [BEGIN, "", "```text", *synopses(parser), "```", "", END]
    return "\n".join(lines)
