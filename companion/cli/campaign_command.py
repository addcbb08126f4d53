"""A command on one campaign file, as most commands are: the arguments it takes (the
file, ``--json``, ``--content``), the campaign opened for it, and what it prints: its
result (JSON under ``--json``), or ``refused: <reason>`` and exit 1 when the operation
refused and changed nothing.

Nothing heavy is imported here: the operations load when a command runs.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from companion.cli import terminal
from companion.cli.terminal import say

T = TypeVar("T")

Shown = tuple[dict[str, Any], str]
"""What a command prints: its JSON fields and its text for a person."""


def with_path(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """The arguments of a command on one campaign file: the file, ``--json``, ``--content``."""
    parser.add_argument("path", help="campaign file (.stonesaga)")
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    parser.add_argument("--content", action="append", default=[], metavar="PATH",
                        help="an extra content pack folder")
    return parser


def command_family(sub: Any, name: str, words: str, dest: str) -> Any:
    """A command whose subcommands do the work (``companion behemoth setup ...``): its
    subparsers, one of which is required."""
    return sub.add_parser(name, help=words).add_subparsers(dest=dest, required=True)


def emit(args: argparse.Namespace, data: Any, text: str) -> None:
    """The result: JSON (exact) under ``--json``, else ``text`` shown harmlessly."""
    terminal.emit(data, text, as_json=bool(getattr(args, "json", False)))


def open_campaign(args: argparse.Namespace) -> Any:
    """The campaign ``args.path`` names, with ``--content``'s packs; what does not load
    of the user's own cards is said on standard error, not fatal."""
    from companion import operations

    # The writer lock waits for the first write: a command that only reads works while
    # the app has the campaign open.
    campaign = operations.open_campaign(Path(args.path),
                                        extra_content=[Path(p) for p in args.content],
                                        lock="first-write")
    # A shared campaign publishes once per command, when the command closes it (issue 38).
    campaign.file.publish_every = campaign.file.publish_due = math.inf
    if campaign.content_problem is not None:  # a broken own pack: said, not fatal
        said = ("your own pack could not be loaded (the cards this campaign carries are "
                "played)" if campaign.own_cards else "your own cards were left out")
        say(f"warning: {said}; fix them with 'companion content my-cards' and "
            f"'content check':\n{campaign.content_problem}", err=True)
    from companion.operations.sharing import synced_folder_warning

    synced = synced_folder_warning(Path(args.path))  # issue 38: never in a synced folder
    if synced is not None:
        say(f"warning: {synced}", err=True)
    if campaign.cards_missing or campaign.cards_edited:  # the cards it carries differ
        from companion.operations.own_cards import carried_report

        for line in carried_report(campaign).lines(str(args.path)):
            say(f"note: {line}", err=True)
    return campaign


def summary(changes: Any) -> Shown:
    """An operation's Changes as a command prints them: its summary."""
    return {"summary": changes.summary}, changes.summary


def on_campaign(args: argparse.Namespace, call: Callable[[Any], T],
                shown: Callable[[T], Shown] = summary) -> int:
    """Open the campaign, ``call(campaign)`` and print what ``shown`` makes of its result
    (by default an operation's summary), or the refusal; the exit status."""
    from companion import operations

    try:
        with open_campaign(args) as campaign:
            result = call(campaign)
    except operations.Refused as exc:
        return terminal.refuse(exc)
    data, text = shown(result)
    emit(args, data, text)
    return 0
