"""The ``companion`` command.

``companion [PATH]`` opens the GUI (on the last campaign, or a demo campaign on first
start); ``companion --smoke [PATH]`` is the self-test a packaged build runs;
``companion SUBCOMMAND ...`` runs the same operations headless.

Each subcommand family lives in its own module with ``register(subparsers)``, which adds
parsers whose ``func`` default takes the parsed arguments and returns an exit code.
Nothing heavy is imported here: the GUI path must reach its first paint quickly.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, NoReturn

from companion import __version__

if TYPE_CHECKING:
    import argparse

    from companion.store.lock import LockOwner

# Modules that define subcommands: each has register(subparsers).
COMMAND_MODULES: tuple[str, ...] = (
    "companion.cli.content_cmd",
    "companion.cli.campaign_cmd",
    "companion.cli.play_cmd",
    "companion.cli.procedure_cmd",
    "companion.cli.map_cmd",
    "companion.cli.journal_cmd",
    "companion.cli.behemoth_cmd",
    "companion.cli.legend_cmd",
    "companion.cli.challenge_cmd",
    "companion.cli.overlay_cmd",
    "companion.cli.material_cmd",
    "companion.cli.sharing_cmd",
)


def _gui_parser() -> argparse.ArgumentParser:
    import argparse

    parser = argparse.ArgumentParser(
        prog="companion",
        description="Stonesaga Companion: the campaign journal and every procedure, "
        "step by step. Subcommands run headless; see 'companion help'.",
    )
    parser.add_argument("path", nargs="?", help="campaign file (.stonesaga) to open")
    parser.add_argument("--version", action="version", version=f"companion {__version__}")
    parser.add_argument(
        "--smoke",
        action="store_true",
        help="open the campaign (a temporary one if none), paint the main window once, "
        "print one line and exit 0: the self-test of a packaged build",
    )
    parser.add_argument(
        "--screenshot", metavar="OUT.png",
        help="open the campaign (a fresh demo if none), save a picture of the main window "
        "and exit (run it under xvfb-run for a real window)",
    )
    parser.add_argument(
        "--content", action="append", default=[], metavar="PATH",
        help="an extra content pack folder (may be repeated)",
    )
    return parser


def command_parser() -> tuple[argparse.ArgumentParser, set[str]]:
    import argparse
    import importlib

    from companion.cli import terminal

    class Parser(argparse.ArgumentParser):
        """Its subcommands' parsers too (argparse makes them of the same class): a
        usage error under ``--json`` also prints the JSON refusal object."""

        def error(self, message: str) -> NoReturn:
            if terminal.json_mode():
                terminal.print_json({"format": terminal.JSON_FORMAT_VERSION, "ok": False,
                                     "refused": message})
            super().error(terminal.shown(message))

    parser = Parser(prog="companion")
    parser.add_argument("--version", action="version", version=f"companion {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name == name:  # a family not built yet is simply absent
                continue
            raise
        module.register(sub)
    _bound_whole_numbers(parser)
    return parser, set(sub.choices)


def _whole_number(text: str) -> int:
    """An ``int`` argument the campaign file can hold (SQLite's 64-bit integers): a
    number of 19 digits or more is a usage error, not an OverflowError deep inside."""
    import argparse

    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"invalid int value: {text!r}") from None
    if not -(2**63) <= value < 2**63:
        typed = text if len(text) <= 24 else f"{text[:24]}..."
        raise argparse.ArgumentTypeError(f"{typed} is too large a number; no dial, track "
                                         "or count in the game goes that high")
    return value


def _bound_whole_numbers(parser: argparse.ArgumentParser) -> None:
    """Every ``type=int`` argument of every command becomes :func:`_whole_number`."""
    import argparse

    for action in parser._actions:
        if action.type is int:
            action.type = _whole_number
        if isinstance(action, argparse._SubParsersAction):
            for child in action.choices.values():
                _bound_whole_numbers(child)


def _quiet_broken_pipe() -> int:
    """The reader of standard output went away (``companion journal list | head``):
    stop quietly, the way the Python documentation's note on SIGPIPE does it (no
    signal call, so Windows takes the same path): point standard output at devnull so
    the interpreter's last flush does not complain, and exit 1."""
    import os

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # no real file behind stdout
        pass
    return 1


def _say_waiting(owner: LockOwner, seconds: float) -> None:
    from companion.cli.terminal import say
    from companion.store.errors import holder_words

    who = f" (pid {owner.pid} on host {owner.host})" if owner.pid is not None else ""
    unit = "second" if seconds == 1 else "seconds"
    say(f"waiting: the campaign is open in {holder_words(owner.kind)}{who}; waiting up to "
        f"{seconds:g} {unit} for it to be free", err=True)
    sys.stderr.flush()


def _stdout_gone() -> bool:
    """Whether standard output can no longer be written (its reader went away)."""
    try:
        sys.stdout.write("")
        sys.stdout.flush()
    except (OSError, ValueError):
        return True
    return False


def _run_command(parsed: argparse.Namespace) -> int:
    """Run a subcommand: store warnings go to stderr as ``warning: ...``; a refusal that
    escaped the command's own handling is printed as one, never as a traceback."""
    import logging

    from companion.cli import terminal
    from companion.content import ContentError
    from companion.rules.errors import IllegalAction
    from companion.store import CampaignFileError, lock

    class ShownFormatter(logging.Formatter):
        """``warning: <message>``, its control characters shown harmlessly."""

        def format(self, record: logging.LogRecord) -> str:
            return terminal.shown(f"warning: {record.getMessage()}")

    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(ShownFormatter())
    store_log = logging.getLogger("companion.store")
    store_log.addHandler(handler)
    # A campaign the window (or another command) is writing: wait a few seconds for it.
    with terminal.json_output(bool(getattr(parsed, "json", False))), \
            lock.holding_as(lock.COMMAND, wait=lock.command_wait(), on_wait=_say_waiting):
        try:
            result: int = parsed.func(parsed)
            sys.stdout.flush()  # a reader gone away is found here, not at exit
            return result
        except BrokenPipeError:
            return _quiet_broken_pipe()
        except (CampaignFileError, ContentError, IllegalAction) as exc:
            return terminal.refuse(exc)
        except OverflowError:  # a number typed beyond SQLite's integers, read or written
            from companion.operations.core import TOO_LARGE

            return terminal.refuse(TOO_LARGE)
        except OSError as exc:
            import errno

            if sys.platform == "win32" and exc.errno == errno.EINVAL and _stdout_gone():
                # Windows reports a pipe whose reader went away as EINVAL on write.
                return _quiet_broken_pipe()
            where = f" ({exc.filename})" if exc.filename else ""
            return terminal.refuse(f"{exc.strerror or exc}{where}")
        finally:
            store_log.removeHandler(handler)


def _help(parser: argparse.ArgumentParser, commands: set[str], words: Sequence[str]) -> int:
    """``companion help [CMD [SUB ...]]``: the whole list, or that command's own help."""
    if not words:
        parser.print_help()
        return 0
    if words[0] not in commands:
        from companion.cli.terminal import say

        say(f"companion: there is no command {words[0]!r}; the commands are: "
            f"{', '.join(sorted(commands))}", err=True)
        return 2
    try:
        parser.parse_args([*words, "--help"])
    except SystemExit as done:  # argparse prints the help and exits
        code = done.code
        return code if isinstance(code, int) else 0
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the console script and of ``python -m companion``."""
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or (len(args) == 1 and args[0].endswith(".stonesaga")):
        # The common start: no parser to build, straight to the first paint.
        from companion.cli import gui

        return gui.launch(args[0] if args else None)
    if args and not args[0].startswith("-") and not args[0].endswith(".stonesaga"):
        parser, commands = command_parser()
        if args[0] == "help":
            return _help(parser, commands, args[1:])
        if args[0] in commands:
            from companion.cli import terminal

            with terminal.json_output("--json" in args):  # a usage error says so in JSON
                parsed = parser.parse_args(args)
            return _run_command(parsed)
    parsed = _gui_parser().parse_args(args)
    from companion.cli import gui  # lazily: Qt is only needed here

    return gui.launch(parsed.path, smoke=parsed.smoke or bool(parsed.screenshot),
                      content=parsed.content, screenshot=parsed.screenshot)


def gui_main() -> int:
    """Entry point of the ``stonesaga-companion`` window script (``[project.gui-scripts]``:
    on Windows it starts without a console window). It takes what ``companion`` takes;
    with no console, ``sys.stdout``/``sys.stderr`` are None, so what would be printed
    (a refusal, the message that the window cannot open) goes to ``companion.log`` in
    the user's data folder instead of being lost."""
    if sys.stdout is None or sys.stderr is None:
        from companion import paths

        log = open(paths.user_data_dir() / "companion.log", "a", encoding="utf-8")  # noqa: SIM115
        sys.stdout = sys.stdout or log
        sys.stderr = sys.stderr or log
    return main()
