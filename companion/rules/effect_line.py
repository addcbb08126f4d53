"""One line of effects, as a group says what a card did at the table (issue 25 part 3).

"Just record what happened": a card the app does not know is resolved at the table,
and the group types what it did in the effect words the app already uses
(:mod:`companion.rules.effect_words`), several separated by commas, with a character's
name where it matters::

    gain 2 meat Ash, minor injury Ash, activity +1, unrest +2, lore +1, item stone-knife
    unlock delving, culture ability Fire Keeping

Each part is read into one step of the effect vocabulary and whom it falls on
(:class:`LineEffect`). Both orders of a gain are read ("gain 2 meat", "gain meat 2"),
an injury or disease needs no verb ("minor injury Ash"), and "Ash gains 2 meat" is
read too. Names of resources and items are matched without regard to case, spaces or
hyphens (``resources`` / ``items``: what a player types -> the content's id).
Unlocking Delving and a culture ability ("gain a culture ability Fire Keeping") fall on
the society; a culture ability's name is kept as typed, even where it holds a name.

>>> [e.effect for e in parse_effect_line("gain 2 meat, lore +1")]
[{'do': 'gain', 'resource': 'meat', 'amount': 2}, {'do': 'lore', 'amount': 1}]
>>> parse_effect_line("minor injury Ash", characters=["Ash"])[0].who
'Ash'
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.rules.effect_words import EFFECT_WORDS, culture_ability, parse_effect
from companion.rules.errors import IllegalAction

SOCIETY_EFFECTS = frozenset({"lore", "activity", "unrest", "unlock", "culture", "read"})
"""Steps that fall on the whole society: they need no character."""

_HEALTH = ("minor injury", "major injury", "minor disease", "major disease")
_VERBS = {"gains": "gain", "loses": "lose", "suffers": "suffer", "places": "place",
          "reads": "read", "gets": "gain", "takes": "gain"}


@dataclass(frozen=True)
class LineEffect:
    """One effect of a recorded line, and the character it falls on (None: the
    society's, or the character doing the step)."""

    who: str | None
    effect: Mapping[str, Any]

    def as_data(self) -> dict[str, Any]:
        """JSON-safe: ``{"who": ..., "effect": {...}}``."""
        return {"who": self.who, "effect": dict(self.effect)}

    @classmethod
    def of_data(cls, data: Mapping[str, Any]) -> LineEffect:
        return cls(data.get("who"), dict(data.get("effect") or {}))


def _fold(text: str) -> str:
    return re.sub(r"[\s_-]+", " ", text.strip()).casefold()


def _split(line: str) -> list[str]:
    return [part.strip() for part in re.split(r"[,;\n]", line) if part.strip()]


def _who(words: list[str], characters: Sequence[str]) -> tuple[str | None, list[str]]:
    """The character named among ``words`` (a whole name, any case), and the rest."""
    folded = {_fold(name): name for name in characters}
    for size in (3, 2, 1):  # a name of several words first
        for start in range(0, len(words) - size + 1):
            name = folded.get(_fold(" ".join(words[start:start + size])))
            if name is not None:
                rest = words[:start] + words[start + size:]
                if rest and rest[0].casefold() in ("for", "on", "to", "by"):
                    rest = rest[1:]
                if rest and rest[-1].casefold() in ("for", "on", "to", "by"):
                    rest = rest[:-1]
                return name, rest
    return None, words


def _named(text: str, table: Mapping[str, str]) -> str:
    """A resource or item as typed, as the content's id (the text when unknown: the
    operation refuses it in game words)."""
    wanted = _fold(text)
    for typed, key in table.items():
        if _fold(typed) == wanted:
            return key
    return "-".join(text.split()) if text.strip() else text


def _culture(words: list[str], characters: Sequence[str]) -> list[str] | None:
    """The words naming a culture ability gained ("culture ability Fire Keeping", "gain
    a culture ability: Fire Keeping", "Ash gains culture Fire Keeping"), else None."""
    rest = words[1:] if words and _fold(words[0]) in {_fold(c) for c in characters} \
        else words
    for skipped in (("gain", "gains", "gets"), ("a", "the")):
        if rest and rest[0].casefold() in skipped:
            rest = rest[1:]
    if rest and rest[0].casefold().rstrip(":") == "culture":
        return rest[1:]
    return None


def _one(part: str, characters: Sequence[str], resources: Mapping[str, str],
         items: Mapping[str, str]) -> LineEffect:
    words = part.split()
    named = _culture(words, characters)
    if named is not None:  # the society's, and a name in it stays in it
        return LineEffect(None, culture_ability(named))
    who, words = _who(words, characters)
    if not words:
        raise IllegalAction(f"'{part}' names no effect (e.g. 'gain 2 meat', 'lore +1').")
    verb = _VERBS.get(words[0].casefold(), words[0].casefold())
    rest = words[1:]
    text = " ".join(words).casefold()
    if any(text.startswith(h) for h in _HEALTH):  # "minor injury", "minor injury 2"
        verb, rest = "suffer", words
    if verb in ("gain", "lose"):
        if rest and rest[0].casefold() in ("item", "the") and verb == "gain":
            verb, rest = "item", rest[1:]
        else:
            amount = 1
            if rest and rest[0].lstrip("+").isdigit():
                amount, rest = int(rest[0].lstrip("+")), rest[1:]
            elif len(rest) > 1 and rest[-1].lstrip("+").isdigit():
                amount, rest = int(rest[-1].lstrip("+")), rest[:-1]
            if not rest:
                raise IllegalAction(f"'{part}': say what is {verb}ed "
                                    f"(e.g. '{verb} 2 meat').")
            if amount < 1:
                raise IllegalAction(f"'{part}': {verb} at least 1.")
            resource = _named(" ".join(rest), resources)
            return LineEffect(who, {"do": verb, "resource": resource, "amount": amount})
    if verb == "item":
        if not rest:
            raise IllegalAction(f"'{part}': say which item (e.g. 'item stone-knife').")
        return LineEffect(who, {"do": "gain_item", "item": _named(" ".join(rest), items)})
    if verb in ("lore", "activity", "unrest", "energy") and rest:
        rest = [rest[0].lstrip("+") if rest[0].startswith("+") else rest[0], *rest[1:]]
    return LineEffect(who, parse_effect(" ".join([verb, *rest])))


def parse_effect_line(line: str, *, characters: Sequence[str] = (),
                      resources: Mapping[str, str] | None = None,
                      items: Mapping[str, str] | None = None) -> tuple[LineEffect, ...]:
    """Every effect of ``line`` (parts separated by commas), in order; refused in game
    words, naming the part that does not read, if any part does not."""
    parts = _split(line)
    if not parts:
        raise IllegalAction("Type what happened, e.g. 'gain 2 meat Ash, lore +1'.")
    found = []
    for part in parts:
        try:
            found.append(_one(part, characters, resources or {}, items or {}))
        except IllegalAction as exc:
            message = str(exc)
            if part not in message:
                message = f"'{part}': {message}"
            raise IllegalAction(message) from exc
    return tuple(found)


def describe_line(effects: Sequence[LineEffect]) -> str:
    """The effects in words, each once: "Ash: gain 2 meat; lore +1"."""
    from companion.rules.effects import describe_effect, effects_from_data

    said = []
    for each in effects:
        try:
            words = describe_effect(effects_from_data([dict(each.effect)])[0])
        except (ValueError, TypeError):
            words = str(dict(each.effect))
        said.append(f"{each.who}: {words}" if each.who else words)
    return "; ".join(said)


def completions(*, characters: Sequence[str] = (), resources: Sequence[str] = (),
                items: Sequence[str] = ()) -> list[str]:
    """What the record line offers as it is typed: the effect words with examples,
    each resource and item, and the characters' names."""
    offered = [f"gain 1 {r}" for r in resources] + [f"lose 1 {r}" for r in resources]
    offered += list(_HEALTH)
    offered += ["activity +1", "unrest +1", "lore +1", "lore -1", "energy -1",
                "energy +1", "place fire", "place shelter", "place lore 1"]
    offered += [f"item {i}" for i in items]
    offered += [w.example for w in EFFECT_WORDS if w.do in ("boost", "mark", "read")]
    offered += ["unlock delving", "culture ability"]
    offered += list(characters)
    return list(dict.fromkeys(offered))
