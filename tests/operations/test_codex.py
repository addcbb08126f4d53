"""Codex lookups (Rulebook: Using the Codex; Omen > Investigating Omens): one entry
revealed per lookup, each journalled; omens must match a current omen."""

from __future__ import annotations

import pytest

from companion import operations
from companion.operations import Campaign, Refused
from companion.operations import codex as cx
from companion.operations import journal as j
from companion.operations.codex import CodexReveal


def reveal(changes: operations.Changes) -> CodexReveal:
    assert isinstance(changes.detail, CodexReveal)
    return changes.detail


@pytest.mark.parametrize(("text", "kind", "key"), [
    ("104", "outcome", "104"), ("read entry 7", "outcome", "007"), ("#12", "outcome", "012"),
    ("Cloud FO13", "omen", "FO13"), ("star a01", "omen", "A01"),
    ("R1410", "crafting", "R1410"), ("blue 2132", "crafting", "B2132"),
])
def test_parse_request(text: str, kind: str, key: str) -> None:
    asked = cx.parse_request(text)
    assert (asked.kind, asked.key) == (kind, key)


def test_parse_request_refuses_gibberish() -> None:
    with pytest.raises(Refused, match="not a Codex entry"):
        cx.parse_request("the big one")


def test_outcome_reveals_one_entry_and_journals_it(demo: Campaign) -> None:
    events = demo.file.event_count()
    shown = reveal(cx.read_outcome(demo, number=103))
    assert shown.found and shown.text.startswith("A cold wind")
    assert demo.file.event_count() == events + 1
    line = demo.journal(limit=1)[0]
    assert (line.kind, line.text) == ("codex.outcome", "Codex: read entry 103")


def test_outcome_not_found_says_so(demo: Campaign) -> None:
    shown = reveal(cx.look_up(demo, request="read entry 999"))
    assert not shown.found and shown.text == "No entry 999 in the Codex."


def test_omen_investigation_matching_the_current_omen(demo: Campaign) -> None:
    assert demo.status().omens == ("sun",)
    shown = reveal(cx.investigate_omen(demo, omen="Sun", component="e05"))
    assert shown.found and shown.label == "Sun E05" and "E05" in shown.text
    assert j.omen_investigations(demo) == [(1, "sun", "E05", "entry read")]
    assert demo.journal(limit=1)[0].kind == "codex.omen"


def test_omen_investigation_refused_when_not_the_current_omen(demo: Campaign) -> None:
    events = demo.file.event_count()
    with pytest.raises(Refused, match="Cloud is not a current omen .current: Sun.: your "
                                      "investigation ends"):
        cx.look_up(demo, request="Cloud E01")
    assert demo.file.event_count() == events
    assert j.omen_investigations(demo) == []


def test_omen_with_no_entry_ends_the_investigation_but_is_recorded(demo: Campaign) -> None:
    shown = reveal(cx.look_up(demo, request="Sun FO13"))
    assert not shown.found
    assert shown.text == "No entry Sun FO13 — your investigation ends."
    assert j.omen_investigations(demo) == [(1, "sun", "FO13", "no entry")]


def test_one_omen_per_character_turn(demo: Campaign) -> None:
    cx.investigate_omen(demo, omen="sun", component="E05", character="Ash")
    with pytest.raises(Refused, match="Ash has already investigated an omen this turn"):
        cx.investigate_omen(demo, omen="sun", component="T02", character="Ash")
    assert len(j.omen_investigations(demo)) == 1
    operations.undo(demo)
    cx.investigate_omen(demo, omen="sun", component="T02", character="Ash")


def test_crafting_lookup_records_the_code(demo: Campaign) -> None:
    shown = reveal(cx.look_up(demo, request="R1410"))
    assert shown.found and shown.title == "Red 1410: Stone Knife"
    dead = reveal(cx.look_up_crafting(demo, code="2224", colour="red"))
    assert dead.found and dead.title == "Red 2224: nothing"
    missing = reveal(cx.look_up(demo, request="B9999"))
    assert not missing.found and missing.text == "No crafting entry Blue 9999 in the Codex."
    assert j.crafting_codes(demo) == [("R1410", "recipe", "Stone Knife"),
                                      ("R2224", "null", "dead end")]
    cx.look_up(demo, request="R1410")
    assert len(j.crafting_codes(demo)) == 2  # known codes are recorded once
    with pytest.raises(Refused, match="null pip"):
        cx.look_up_crafting(demo, code="R0123")
