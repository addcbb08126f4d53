"""Issue 24 (Build 4): the Campaign Journal importer's culture-line parse is linear.

Measured by counting work, never by timing: every whitespace test the parser makes is
counted, for lines of growing length built to make a backtracking parser go quadratic
(long runs of whitespace, dashes without whitespace around them, a dash at the end).
"""

from __future__ import annotations

import re

import pytest

from companion.operations import webjournal as wj
from companion.operations import webjournal_entries as wje
from companion.store.webjournal import WebCultureEntry


class _Counting:
    def __init__(self) -> None:
        self.calls = 0
        self._pattern = re.compile(r"\s")

    def match(self, text: str, pos: int = 0) -> re.Match[str] | None:
        self.calls += 1
        return self._pattern.match(text, pos)


LINES = {
    "a run of spaces": lambda n: "ST02 a" + " " * n + "b",
    "spaces and tabs before a dash": lambda n: "Fire Pit" + " \t" * (n // 2) + "—x",
    "dashes with no space": lambda n: "Pit" + "—a" * (n // 2),
    "a space-dash-space at the end": lambda n: "x " * (n // 2) + " — notes",
    "newlines": lambda n: "KN4a " + "\n" * n,
}


@pytest.mark.parametrize("shape", list(LINES))
def test_culture_line_parse_work_grows_linearly(shape: str, monkeypatch: pytest.MonkeyPatch
                                                ) -> None:
    work = {}
    for n in (1_000, 4_000, 16_000):
        counter = _Counting()
        monkeypatch.setattr(wje, "_SPACE", counter)
        text = LINES[shape](n)
        wj.parse_culture_text("structures", text)
        work[n] = counter.calls
        assert counter.calls <= 2 * len(text) + 4, (shape, n, counter.calls)
    # Four times the line, at most about four times the work.
    assert work[16_000] <= 4.5 * work[4_000] + 8
    assert work[4_000] <= 4.5 * work[1_000] + 8


@pytest.mark.parametrize(("text", "entry"), [
    ("ST02 Fire Pit — warm", {"cardId": "ST02", "name": "Fire Pit", "notes": "warm"}),
    ("Fire Pit", {"cardId": "", "name": "Fire Pit", "notes": ""}),
    ("Pit—no spaces — real notes", {"cardId": "", "name": "Pit—no spaces",
                                    "notes": "real notes"}),
    ("ST02   Hut \t —  a — b", {"cardId": "ST02", "name": "Hut", "notes": "a — b"}),
    ("Hut\n", {"cardId": "", "name": "Hut", "notes": ""}),
])
def test_culture_line_reads_as_before(text: str, entry: dict[str, str]) -> None:
    assert wj.parse_culture_text("structures", text) == entry
    assert wj.parse_culture_text("structures", wj.culture_text(WebCultureEntry(
        "structures", entry["name"], entry["cardId"], entry["notes"]))) == entry
