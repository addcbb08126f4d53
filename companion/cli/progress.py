"""A progress bar on standard error for long file work (export and import, issue 35).

On a terminal the bar redraws in place a few times a second; when standard error is not
a terminal (a log, a pipe) it is shown only for large work, as one line per tenth done,
so a script's captured output stays short. Standard output (and ``--json``) is left alone.
"""

from __future__ import annotations

import shutil
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TextIO

Report = Callable[[int, int, str], None]

REDRAW_SECONDS = 0.1
BAR_WIDTH = 24


class ProgressBar:
    """``report(done, total, text)`` drawn on ``stream``; ``large`` is the ``total`` from
    which it is shown when ``stream`` is not a terminal."""

    def __init__(self, verb: str, stream: TextIO, *, large: int) -> None:
        self.verb, self.stream, self.large = verb, stream, large
        self.tty = stream.isatty()
        self.drawn_at = 0.0
        self.tenths = -1
        self.width = 0  # of the line drawn last on a terminal

    def report(self, done: int, total: int, text: str = "") -> None:
        """Show that ``done`` of ``total`` is done (``text`` says what)."""
        if total <= 0 or not (self.tty or total >= self.large):
            return
        share = min(done / total, 1.0)
        if self.tty:
            now = time.monotonic()
            if now - self.drawn_at < REDRAW_SECONDS and done < total:
                return
            self.drawn_at = now
            filled = round(share * BAR_WIDTH)
            line = f"{self.verb} [{'#' * filled}{'.' * (BAR_WIDTH - filled)}] " \
                f"{share:4.0%} {text}"
            line = line[:max(20, shutil.get_terminal_size().columns - 1)]
            self.stream.write("\r" + line.ljust(self.width))
            self.width = len(line)
        else:
            tenths = int(share * 10)
            if tenths == self.tenths:
                return
            self.tenths = tenths
            self.stream.write(f"{self.verb}: {share:.0%} {text}\n")
        self.stream.flush()

    def close(self) -> None:
        """End the bar's line on a terminal (the result is printed below it)."""
        if self.tty and self.width:
            self.stream.write("\r" + " " * self.width + "\r")
            self.stream.flush()


@contextmanager
def terminal_progress(verb: str, *, large: int) -> Iterator[Report]:
    """A ``report`` for an operation that shows a bar on standard error while it runs."""
    bar = ProgressBar(verb, sys.stderr, large=large)
    try:
        yield bar.report
    finally:
        bar.close()
