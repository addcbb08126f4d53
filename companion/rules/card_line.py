"""A card's effects as one typed line (issue 36 item 5): the effect words "Just record
what happened" reads (:mod:`companion.rules.effect_line`), plus the test a card prints
(Rulebook: Basic Concepts > Tests), so a card is entered in one line instead of a
structured step per effect::

    energy -1, test awareness 7 success: lore +1 failure: unrest +1, minor injury

A test is ``test ABILITY DIFFICULTY`` (``7`` or ``7+``), then what a success does after
``success:`` and what a failure does after ``failure:`` (either may be left out, in
either order); the clauses run to the end of the line, so effects that come before the
test are written first. A card's effects fall on the character drawing it: the line
names no one. A note for the table goes in brackets after its effect: "lose 1 meat (if
you have any)".

>>> parse_card_line("test might 6 failure: minor injury")[0]["failure"]
[{'do': 'suffer', 'token': 'minor_injury'}]
>>> card_line_of([{"do": "test", "ability": "might", "difficulty": 6,
...                "success": [{"do": "lore", "amount": 1}]}])
'test might 6 success: lore +1'
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from companion.content.schema.base import Ability
from companion.rules.effect_line import completions, parse_effect_line
from companion.rules.errors import IllegalAction

_TEST = re.compile(r"(?:^|,)\s*test\s", re.IGNORECASE)
_HEAD = re.compile(r"^\s*test\s+([a-z]+)\s+(\d+)\s*\+?\s*[,:]?\s*(.*)$",
                   re.IGNORECASE | re.DOTALL)
_CLAUSE = re.compile(r"(?:^|[\s,;])(success|succeed|pass|failure|fail)\s*:", re.IGNORECASE)
_NOTE = re.compile(r"^(.*?)\s*\((.+)\)\s*$", re.DOTALL)
EXAMPLE = "test awareness 7 success: lore +1 failure: unrest +1"
"""A test as the line reads it."""


def _ability(typed: str) -> str:
    """An ability named in full or by its start ("aware")."""
    word = typed.casefold()
    found = [a.value for a in Ability if a.value.startswith(word)] if len(word) >= 3 else []
    if len(found) != 1:
        raise IllegalAction(f"'{typed}' is not an ability: test "
                            f"{', '.join(a.value for a in Ability)} (e.g. '{EXAMPLE}').")
    return found[0]


def _plain(text: str, resources: Mapping[str, str], items: Mapping[str, str]
           ) -> list[dict[str, Any]]:
    """Effects without a test; a part's note for the table in brackets ("lose 1 meat
    (if you have any)") is the effect's text."""
    found = []
    for part in (p.strip() for p in re.split(r"[,;\n]", text)):
        if not part:
            continue
        note = _NOTE.match(part)
        (effect,) = parse_effect_line(note[1] if note else part, resources=resources,
                                      items=items)
        found.append({**effect.effect, "text": note[2].strip()} if note else
                     dict(effect.effect))
    return found


def _test(text: str, resources: Mapping[str, str], items: Mapping[str, str]
          ) -> dict[str, Any]:
    head = _HEAD.match(text)
    if head is None:
        raise IllegalAction(f"Could not read the test '{text.strip()}': write "
                            f"'test ABILITY DIFFICULTY', then 'success:' and 'failure:' "
                            f"(e.g. '{EXAMPLE}').")
    test: dict[str, Any] = {"do": "test", "ability": _ability(head[1]),
                            "difficulty": int(head[2])}
    rest = head[3]
    marks = list(_CLAUSE.finditer(rest))
    before = rest[:marks[0].start()] if marks else rest
    if before.strip(" ,;"):
        raise IllegalAction(f"After '{head[0][:len(head[0]) - len(rest)].strip()}' say what "
                            f"a success and a failure do (e.g. '{EXAMPLE}'); got "
                            f"'{before.strip()}'.")
    for number, mark in enumerate(marks):
        end = marks[number + 1].start() if number + 1 < len(marks) else len(rest)
        key = "success" if mark[1].casefold() in ("success", "succeed", "pass") else "failure"
        if key in test:
            raise IllegalAction(f"The test says '{key}:' twice.")
        clause = rest[mark.end():end]
        if _TEST.search(clause):
            raise IllegalAction("A test inside a test does not read in one line: use "
                                "Step by step.")
        test[key] = _plain(clause, resources, items)
    return test


def parse_card_line(line: str, *, resources: Mapping[str, str] | None = None,
                    items: Mapping[str, str] | None = None) -> list[dict[str, Any]]:
    """The effects of ``line`` as a pack writes them (``resources`` / ``items``: what a
    player types -> the content's id); refused in game words, naming the part that does
    not read. An empty line is no effects."""
    resources, items = resources or {}, items or {}
    found = _TEST.search(line)
    if found is None:
        return _plain(line, resources, items)
    start = found.start() + (1 if line[found.start()] == "," else 0)
    return [*_plain(line[:start], resources, items), _test(line[start:], resources, items)]


def _word(effect: Mapping[str, Any]) -> str | None:
    """One effect in the line's words, or None when the line cannot say it."""
    do, amount = effect.get("do"), effect.get("amount", 1)
    note = str(effect.get("text") or "")
    if note:
        if "(" in note or ")" in note or "," in note or ";" in note:
            return None
        word = _word({k: v for k, v in effect.items() if k != "text"})
        return f"{word} ({note})" if word else None
    if do in ("gain", "lose"):
        return f"{do} {amount} {effect['resource']}"
    if do == "suffer":
        token = str(effect["token"]).replace("_", " ")
        return token if amount == 1 else f"{token} {amount}"
    if do in ("energy", "lore", "activity", "unrest"):
        return f"{do} {int(amount):+d}"
    if do == "gain_item":
        return f"item {effect['item']}"
    if do == "place":
        return f"place {effect['token']}" + (f" {amount}" if amount != 1 else "")
    if do == "boost" and effect.get("ability"):
        return f"boost {effect['ability']}" + (" major" if effect.get("major") else "")
    if do == "mark":
        return f"mark {effect['mark']}"
    if do == "read":
        return f"read {effect['outcome']}"
    return None


def card_line_of(effects: Sequence[Mapping[str, Any]]) -> str | None:
    """``effects`` as one line that reads back the same, or None when some effect
    cannot be said in one line (a note of its own, a boost of the player's choice, an
    unlock, a test not last, a test in a test)."""
    parts: list[str] = []
    for number, effect in enumerate(effects):
        if effect.get("do") != "test":
            word = _word(effect)
            if word is None:
                return None
            parts.append(word)
            continue
        if number != len(effects) - 1 or effect.get("text"):
            return None
        test = f"test {effect['ability']} {effect['difficulty']}"
        for key in ("success", "failure"):
            said = [_word(e) for e in effect.get(key) or ()]
            if any(w is None for w in said):
                return None
            if said:
                test += f" {key}: " + ", ".join(w for w in said if w)
        parts.append(test)
    return ", ".join(parts)


def card_line_words(*, resources: Sequence[str] = (), items: Sequence[str] = ()) -> list[str]:
    """What the card line offers as it is typed: the record line's words, the tests and
    their clauses."""
    tests = [f"test {a.value} " for a in Ability]
    return [*tests, "success: ", "failure: ",
            *completions(resources=resources, items=items)]


def describe_card_line(effects: Sequence[Mapping[str, Any]]) -> str:
    """The effects in game words ("lose 1 energy; test awareness (7+) — success: gain 1
    lore; failure: increase unrest by 1")."""
    from companion.rules.effects import describe_effect, effects_from_data

    said = []
    for effect in effects:
        step = effects_from_data([dict(effect)])[0]
        words = describe_effect(step)
        if effect.get("do") == "test":
            for key in ("success", "failure"):
                inner = effects_from_data([dict(e) for e in effect.get(key) or ()])
                words += f" — {key}: " + ("; ".join(describe_effect(e) for e in inner)
                                          or "nothing happens")
        said.append(words)
    return "; ".join(said) or "no effect"
