"""The card decks an activity carries in its saved state (Rulebook: Fishing, Foraging,
Delving; Behemoths > Reaction Deck): a card by id, the deck as JSON text and back.

A procedure keeps its deck's JSON text beside the cards, so a resumed activity needs no
content; validating the cards again is the slow part of a resume, and the cards are
immutable, so equal texts share them.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from functools import lru_cache
from typing import Any, Protocol, TypeVar, cast

from companion.content.schema.base import PackModel
from companion.rules.errors import IllegalAction
from companion.rules.resources import BagToken


class Card(Protocol):
    """A card with an id."""

    @property
    def id(self) -> str: ...


C = TypeVar("C", bound=Card)
M = TypeVar("M", bound=PackModel)


def card_of(deck: Iterable[C], card_id: str, refusal: str) -> C:
    """The card ``card_id`` of ``deck``; IllegalAction(``refusal``) if it has none."""
    for card in deck:
        if str(card.id) == card_id:
            return card
    raise IllegalAction(refusal)


def deck_text(cards: Iterable[PackModel]) -> str:
    """The cards as JSON text (what a procedure saves)."""
    return json.dumps([card.model_dump(mode="json") for card in cards])


def deck_from_json(model: type[M], text: str) -> tuple[M, ...]:
    """The cards of :func:`deck_text`'s text; equal texts share the same cards."""
    return cast(tuple[M, ...], _validated(model, text))


@lru_cache(maxsize=48)
def _validated(model: type[PackModel], text: str) -> tuple[PackModel, ...]:
    return tuple(model.model_validate(card) for card in json.loads(text))


def deck_state(text: str, cards: Iterable[PackModel]) -> list[Any]:
    """The deck as JSON-safe data for a saved state: from its text when it has one."""
    return json.loads(text) if text else [card.model_dump(mode="json") for card in cards]


def resource_tokens(wanted: Iterable[str], tokens: Mapping[str, BagToken]) -> dict[str, BagToken]:
    """The tokens of the resources an activity can yield, from the pack's catalogue;
    IllegalAction if the catalogue lacks one."""
    names = sorted(set(wanted))
    missing = [name for name in names if name not in tokens]
    if missing:
        raise IllegalAction(f"no resource token is known for {', '.join(missing)}")
    return {name: tokens[name] for name in names}
