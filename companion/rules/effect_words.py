"""The words for one effect of the vocabulary, as a player types them (``companion effect
NAME 'gain wood 2'``) or picks them (the Apply Effects dialog): ONE table and ONE parser,
so the CLI and the GUI offer the same effects (issue 26).

Each :class:`EffectWord` names a step of :mod:`companion.content.schema.effects`, the
verb typed first, the label the dialog lists, an example, and how its amount is read.

>>> parse_effect("place lore 2")
{'do': 'place', 'token': 'lore', 'amount': 2}
>>> parse_effect("boost might major")
{'do': 'boost', 'ability': 'might', 'major': True}
>>> parse_effect("mark the broken spear")
{'do': 'mark', 'mark': 'the broken spear'}
>>> parse_effect("culture ability Fire Keeping")
{'do': 'culture', 'ability': 'Fire Keeping'}
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from companion.content.schema.base import Ability, HealthToken
from companion.rules.errors import IllegalAction


@dataclass(frozen=True)
class EffectWord:
    """One effect as a player names it."""

    do: str
    """The vocabulary's step (``do`` key)."""
    verb: str
    """The word typed first in the CLI."""
    label: str
    """What the Apply Effects dialog lists."""
    example: str
    """A typed example."""
    amount: str = ""
    """"count" (1 or more, default 1), "signed" (+ gains, - loses) or "" (none)."""


EFFECT_WORDS: tuple[EffectWord, ...] = (
    EffectWord("gain", "gain", "Gain a resource", "gain wood 2", "count"),
    EffectWord("lose", "lose", "Lose a resource", "lose fish", "count"),
    EffectWord("suffer", "suffer", "Suffer an injury or disease", "suffer minor injury",
               "count"),
    EffectWord("energy", "energy", "Energy (+ gain / − lose)", "energy -1", "signed"),
    EffectWord("lore", "lore", "Lore (+ gain / − spend)", "lore 2", "signed"),
    EffectWord("activity", "activity", "Activity (+ / −)", "activity 1", "signed"),
    EffectWord("unrest", "unrest", "Unrest (+ / −)", "unrest 1", "signed"),
    EffectWord("gain_item", "item", "Gain an item", "item stone-knife"),
    EffectWord("place", "place", "Place lore, fire or shelter in the hex",
               "place fire", "count"),
    EffectWord("boost", "boost", "Boost an ability", "boost might major"),
    EffectWord("mark", "mark", "Write a mark on the character card", "mark spiral"),
    EffectWord("unlock", "unlock", "Unlock Delving (the society)", "unlock delving"),
    EffectWord("culture", "culture", "Gain a culture ability (the society)",
               "culture ability Fire Keeping"),
    EffectWord("read", "read", "Read a Codex outcome", "read 104"),
)
"""Every effect a player can apply by hand, in the dialog's order."""

SIGNED = frozenset(w.do for w in EFFECT_WORDS if w.amount == "signed")
"""Effects whose amount is signed."""
WITH_AMOUNT = frozenset(w.do for w in EFFECT_WORDS if w.amount)
"""Effects that take an amount."""
PLACED = ("lore", "fire", "shelter")
"""The tokens an effect places in the hex."""
UNLOCKED = ("delving",)
"""What an effect typed by a player unlocks (Rulebook: Delving; D4)."""
SUFFERED = "a minor injury, a major injury, a minor disease or a major disease"


def _word(verb: str) -> EffectWord:
    for word in EFFECT_WORDS:
        if verb in (word.verb, word.do):
            return word
    raise IllegalAction(f"Unknown effect '{verb}': use "
                        f"{', '.join(w.verb for w in EFFECT_WORDS[:-1])} or "
                        f"{EFFECT_WORDS[-1].verb} (e.g. "
                        f"'{next(w.example for w in EFFECT_WORDS if w.do == 'place')}').")


def health_token(typed: str) -> str:
    """The health token typed as 'major injury', 'major_injury' or 'Major-Injury'; refused
    in game words otherwise (Rulebook: Mantle > Health Track)."""
    token = "_".join(typed.replace("-", " ").replace("_", " ").split()).casefold()
    if token not in {t.value for t in HealthToken}:
        raise IllegalAction(f"A character cannot suffer '{typed.strip()}': what is suffered "
                            f"is {SUFFERED} (e.g. 'suffer major injury').")
    return token


def _count(text: str, words: Sequence[str]) -> tuple[dict[str, Any], list[str]]:
    """A trailing count ('... 2'), at least 1."""
    if len(words) > 1 and words[-1].lstrip("-").isdigit():
        amount = int(words[-1])
        if amount < 1:
            verb = text.split()[0]
            raise IllegalAction(f"Could not read the effect '{text}': {verb} at least 1.")
        return {"amount": amount}, list(words[:-1])
    return {}, list(words)


def parse_effect(text: str) -> dict[str, Any]:
    """A short effect typed by a player, as the vocabulary's data: 'gain wood 2',
    'suffer minor injury', 'energy -1', 'lore 2', 'activity 1', 'unrest 1', 'lose fish',
    'item bone-knife', 'place fire', 'place lore 2', 'boost might', 'boost might major',
    'mark spiral', 'unlock delving', 'culture ability Fire Keeping', 'read 104'. Refused
    in game words when it can't be read."""
    words = text.split()
    if not words:
        raise IllegalAction("Type an effect, e.g. 'gain wood 2'.")
    word, rest = _word(words[0].casefold()), words[1:]
    try:
        if word.do in ("gain", "lose"):
            return {"do": word.do, "resource": rest[0],
                    "amount": int(rest[1]) if len(rest) > 1 else 1}
        if word.do == "suffer":
            if not rest:
                raise IllegalAction(f"Say what is suffered: {SUFFERED} "
                                    "(e.g. 'suffer minor injury').")
            counted, rest = _count(text, rest)
            return {"do": "suffer", "token": health_token(" ".join(rest)), **counted}
        if word.amount == "signed":
            return {"do": word.do, "amount": int(rest[0])}
        if word.do == "gain_item":
            return {"do": "gain_item", "item": rest[0]}
        if word.do == "place":
            counted, rest = _count(text, rest)
            token = " ".join(rest).casefold()
            if token not in PLACED:
                raise IllegalAction(f"Place {', '.join(PLACED[:-1])} or {PLACED[-1]} "
                                    f"(e.g. 'place fire', 'place lore 2'); got '{text}'.")
            return {"do": "place", "token": token, **counted}
        if word.do == "boost":
            return _boost(text, rest)
        if word.do == "mark":
            if not rest:
                raise IllegalAction("Say which mark is written (e.g. 'mark spiral').")
            return {"do": "mark", "mark": " ".join(rest)}
        if word.do == "unlock":
            return _unlock(text, rest)
        if word.do == "culture":
            return culture_ability(rest)
        return {"do": "read", "outcome": rest[0]}
    except (IndexError, ValueError) as exc:
        raise IllegalAction(f"Could not read the effect '{text}' (e.g. "
                            f"'{word.example}').") from exc


def _unlock(text: str, words: Sequence[str]) -> dict[str, Any]:
    """'unlock delving': a game effect grants access to Delving (Rulebook: Delving; D4)."""
    flag = " ".join(words).casefold()
    if flag not in UNLOCKED:
        raise IllegalAction(f"An effect unlocks {' or '.join(UNLOCKED)} (e.g. 'unlock "
                            f"delving'); got '{text}'.")
    return {"do": "unlock", "flag": flag}


def culture_ability(words: Sequence[str]) -> dict[str, Any]:
    """'culture ability Fire Keeping' (or 'culture Fire Keeping'): the society gains the
    culture ability named, as the card or outcome names it (Rulebook: Using the Journal
    > Culture)."""
    if words and words[0].casefold() in ("ability", "ability:"):
        words = words[1:]
    name = " ".join(words).strip(" :")
    if not name:
        raise IllegalAction("Name the culture ability gained (e.g. 'culture ability Fire "
                            "Keeping').")
    return {"do": "culture", "ability": name}


def _boost(text: str, words: Sequence[str]) -> dict[str, Any]:
    """'boost might' (minor, +1) or 'boost might major' (+2) (Rulebook: Mantle > Boost
    Slots)."""
    major = bool(words) and words[-1].casefold() in ("major", "+2", "2")
    named = [w for w in words if w.casefold() not in ("major", "minor", "+2", "+1", "1", "2")]
    abilities = [a.value for a in Ability]
    if len(named) != 1 or named[0].casefold() not in abilities:
        raise IllegalAction(f"Boost one ability: {', '.join(abilities)} "
                            f"(e.g. 'boost might' or 'boost might major'); got '{text}'.")
    return {"do": "boost", "ability": named[0].casefold(), "major": major}
