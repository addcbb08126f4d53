"""What the command line prints, and how.

Every human-readable line goes through :func:`say` (or :func:`shown`): text that came
from a file (an import, a card, a journal entry, a file name) may hold control
characters, and a terminal obeys them (an escape sequence can set the window title,
write the clipboard with OSC 52, clear the screen). :func:`shown` writes each C0 or C1
control character (newline and tab excepted) and DEL as visible text, ``\\x1b``, so the
line reads as typed and does nothing to the terminal. JSON (:func:`print_json`) is
printed exact: ``json.dumps`` already writes C0 controls as ``\\u001b`` escapes, and a
script gets back the very text that was stored.

Under ``--json`` a refusal (:func:`refuse`) prints one JSON object on standard output,
``{"format": 1, "ok": false, "refused": "<reason>"}``, as well as the ``refused:`` line
on standard error; the exit status stays 1.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

JSON_FORMAT_VERSION = 1

_CONTROLS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")
"""C0 controls but tab (0x09) and newline (0x0a), DEL, and the C1 controls."""

_json_mode = False
"""Whether the command running was given ``--json`` (see :func:`json_output`)."""


def shown(text: object) -> str:
    """``text`` with each control character written as visible ``\\x..`` text."""
    return _CONTROLS.sub(lambda m: f"\\x{ord(m.group()):02x}", str(text))


def say(*parts: object, err: bool = False, end: str = "\n") -> None:
    """Print ``parts`` (joined by spaces) for a person: controls shown harmlessly."""
    stream = sys.stderr if err else sys.stdout
    print(shown(" ".join(str(p) for p in parts)), end=end, file=stream)


def ask(prompt: str = "") -> str:
    """``input()`` whose prompt is shown harmlessly (a card's text, a step's prompt)."""
    return input(shown(prompt))


def print_json(data: Any) -> None:
    """Print ``data`` as JSON, exact (only ``json.dumps``'s own escapes)."""
    print(json.dumps(data, indent=2, default=str, ensure_ascii=False))


def emit(data: dict[str, Any], text: str, *, as_json: bool) -> None:
    """A command's result: ``{"format": 1, **data}`` as JSON, or ``text`` for a person."""
    if as_json:
        print_json({"format": JSON_FORMAT_VERSION, **data})
    else:
        say(text)


def refuse(reason: object, **extra: Any) -> int:
    """Say why a command changed nothing and return its exit status, 1.

    ``refused: <reason>`` goes to standard error; under ``--json`` standard output also
    gets ``{"format": 1, "ok": false, "refused": "<reason>", **extra}``.
    """
    say(f"refused: {reason}", err=True)
    if _json_mode:
        print_json({"format": JSON_FORMAT_VERSION, "ok": False, "refused": str(reason),
                    **extra})
    return 1


@contextmanager
def json_output(enabled: bool) -> Iterator[None]:
    """While a command runs: whether its refusals are also printed as JSON."""
    global _json_mode
    before, _json_mode = _json_mode, enabled
    try:
        yield
    finally:
        _json_mode = before


def json_mode() -> bool:
    """Whether the command running was given ``--json``."""
    return _json_mode
