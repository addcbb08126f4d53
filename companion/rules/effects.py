"""What an activity's effects do to the character: shared by the procedure engines.

Fishing, mining, foraging and delving all resolve card effects (the small vocabulary of
:mod:`companion.content.schema.effects`) into bag tokens, health tokens, energy and lore.
:class:`Tally` accumulates them and becomes the procedure's
:class:`~companion.rules.procedure.Outcome`; effects the engine cannot apply itself are
kept as ``pending`` effect data for the operations layer and the table.

>>> from companion.rules.resources import BagToken
>>> tally = Tally().apply(effects_from_data([{"do": "gain", "resource": "wood"}]),
...                       {"wood": BagToken.material("wood")})
>>> [str(t) for t in tally.gained]
['unprocessed wood']
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from companion.content.schema.base import HealthToken
from companion.content.schema.cards import ContestResult
from companion.content.schema.effects import (
    Activity,
    Boost,
    Culture,
    Effect,
    Energy,
    Gain,
    GainItem,
    Lore,
    Lose,
    Mark,
    Place,
    Read,
    Suffer,
    Unlock,
    Unrest,
)
from companion.content.schema.world import Food, FoodKind, Material
from companion.rules.errors import IllegalAction
from companion.rules.procedure import Outcome
from companion.rules.resources import BagToken, Side, TokenKind


def token_catalogue(materials: Iterable[Material], foods: Iterable[Food]) -> dict[str, BagToken]:
    """Resource id -> the bag token gained for it (materials unprocessed, food fresh or
    unprocessed, water plain). Built by the caller from the pack's materials and foods."""
    catalogue: dict[str, BagToken] = {}
    for material in materials:
        catalogue[material.id] = BagToken.material(material.id, large=material.size == "large")
    for food in foods:
        if food.kind is FoodKind.WATER:
            catalogue[food.id] = BagToken(TokenKind.WATER, food.id, Side.PLAIN)
        elif food.kind is FoodKind.TOUGH:
            catalogue[food.id] = BagToken.tough(food.id)
        else:
            catalogue[food.id] = BagToken.perishable(food.id)
    return catalogue


def describe_effect(effect: Effect) -> str:
    """One effect in game words: "gain 2 fish", "suffer 1 minor injury", "lose 1 energy"."""
    if effect.text:
        return effect.text
    if isinstance(effect, Gain):
        return f"gain {effect.amount} {effect.resource}"
    if isinstance(effect, Suffer):
        return f"suffer {effect.amount} {effect.token.value.replace('_', ' ')}"
    if isinstance(effect, Energy):
        verb = "gain" if effect.amount >= 0 else "lose"
        return f"{verb} {abs(effect.amount)} energy"
    if isinstance(effect, Lore):
        if effect.amount >= 0:
            return f"gain {effect.amount} lore"
        return f"spend {-effect.amount} lore"
    if isinstance(effect, GainItem):
        return f"gain the item {effect.item}"
    if isinstance(effect, Lose):
        return f"lose {effect.amount} {effect.resource}"
    if isinstance(effect, Activity | Unrest):
        way = "increase" if effect.amount >= 0 else "decrease"
        return f"{way} {effect.do} by {abs(effect.amount)}"
    if isinstance(effect, Boost):
        ability = effect.ability.value if effect.ability else "an ability of your choice"
        return f"place a {'major' if effect.major else 'minor'} boost on {ability}"
    if isinstance(effect, Place):
        return f"place {effect.amount} {effect.token} in the hex"
    if isinstance(effect, Mark):
        return f"write the mark {effect.mark} on the character card"
    if isinstance(effect, Unlock):
        return f"unlock {effect.flag}"
    if isinstance(effect, Culture):
        return f"gain the culture ability {effect.ability}"
    if isinstance(effect, Read):
        return f"read entry {effect.outcome}"
    return f"test {effect.ability.value} ({effect.difficulty}+)"


def effects_text(effects: Iterable[Effect], *, none: str = "nothing happens") -> str:
    """Effects in game words, joined ("gain 1 fish; suffer 1 minor injury"), or ``none``
    (the stakes of a test; issue 27 item 4)."""
    return "; ".join(describe_effect(e) for e in effects) or none


def referenced_resources(effects: Iterable[Effect]) -> set[str]:
    """The resource ids ``effects`` can gain (to check a catalogue covers them)."""
    return {str(e.resource) for e in effects if isinstance(e, Gain)}


def token_to_state(token: BagToken) -> dict[str, Any]:
    """A bag token as JSON-safe data."""
    return {
        "kind": token.kind.value,
        "name": token.name,
        "side": token.side.value,
        "large": token.large,
    }


def token_from_state(data: Mapping[str, Any]) -> BagToken:
    """The inverse of :func:`token_to_state`."""
    return BagToken(TokenKind(data["kind"]), data["name"], Side(data["side"]), bool(data["large"]))


@dataclass(frozen=True)
class Tally:
    """What an activity has done to the character so far (becomes its :class:`Outcome`).

    Effects the engine cannot apply itself (lose a resource, activity, unrest, boosts,
    placing tokens, unlocking, reading an outcome, a test) are kept as ``pending``
    (JSON-safe effect data) for the operations layer and the table."""

    gained: tuple[BagToken, ...] = ()
    """Tokens gained, in order."""
    suffered: tuple[HealthToken, ...] = ()
    """Injury/disease tokens suffered."""
    energy: int = 0
    """Energy gained (positive) or lost (negative)."""
    lore: int = 0
    """Lore gained by the society."""
    items: tuple[str, ...] = ()
    """Item cards gained."""
    pending: tuple[Mapping[str, Any], ...] = ()
    """Effects left to the operations layer or the table, as effect data."""
    log: tuple[str, ...] = ()
    """What happened, in game words."""

    def note(self, line: str) -> Tally:
        """The tally with one more log line."""
        return replace(self, log=(*self.log, line))

    def apply(self, effects: Iterable[Effect], tokens: Mapping[str, BagToken]) -> Tally:
        """The tally after ``effects``; a gain of a resource missing from ``tokens`` is
        refused (the catalogue is checked when a procedure is built, so this is a bug)."""
        tally = self
        for effect in effects:
            if isinstance(effect, Gain):
                if effect.resource not in tokens:
                    raise IllegalAction(f"no resource token {effect.resource!r} is known")
                token = tokens[effect.resource]
                tally = replace(tally, gained=(*tally.gained, *[token] * effect.amount))
            elif isinstance(effect, Suffer):
                tally = replace(tally, suffered=(*tally.suffered, *[effect.token] * effect.amount))
            elif isinstance(effect, Energy):
                tally = replace(tally, energy=tally.energy + effect.amount)
            elif isinstance(effect, Lore):
                tally = replace(tally, lore=tally.lore + effect.amount)
            elif isinstance(effect, GainItem):
                tally = replace(tally, items=(*tally.items, str(effect.item)))
            else:
                tally = replace(tally, pending=(*tally.pending, effect.model_dump(mode="json")))
        return tally

    def outcome(self, extra: Mapping[str, Any] | None = None) -> Outcome:
        """The tally as a procedure outcome (pending effects in ``extra``)."""
        facts: dict[str, Any] = dict(extra or {})
        if self.pending:
            facts["pending_effects"] = [dict(p) for p in self.pending]
        return Outcome(
            gained=self.gained,
            items=self.items,
            suffered=self.suffered,
            energy=self.energy,
            lore=self.lore,
            log=self.log,
            extra=facts,
        )

    def to_state(self) -> dict[str, Any]:
        """JSON-safe data."""
        return {
            "gained": [token_to_state(t) for t in self.gained],
            "suffered": [t.value for t in self.suffered],
            "energy": self.energy,
            "lore": self.lore,
            "items": list(self.items),
            "pending": [dict(p) for p in self.pending],
            "log": list(self.log),
        }

    @classmethod
    def from_state(cls, data: Mapping[str, Any]) -> Tally:
        """The inverse of :meth:`to_state`."""
        return cls(
            gained=tuple(token_from_state(t) for t in data["gained"]),
            suffered=tuple(HealthToken(t) for t in data["suffered"]),
            energy=int(data["energy"]),
            lore=int(data["lore"]),
            items=tuple(data["items"]),
            pending=tuple(dict(p) for p in data["pending"]),
            log=tuple(data["log"]),
        )


def effects_from_data(data: Sequence[Mapping[str, Any]]) -> tuple[Effect, ...]:
    """Effects rebuilt from their JSON data (``model_dump(mode="json")``)."""
    # The rules layer does not import pydantic: a schema model whose only required
    # content is an effect list validates the data for us.
    return ContestResult.model_validate({"success": list(data)}).success


def effects_to_data(effects: Iterable[Effect]) -> list[dict[str, Any]]:
    """Effects as JSON-safe data (the inverse of :func:`effects_from_data`)."""
    return [e.model_dump(mode="json") for e in effects]
