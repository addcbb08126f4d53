"""The tableau: its cards' rows and objects, what is within reach, which drawn card may
join it (Rulebook: Foraging, steps 1, 2 and 4; List of Objects).

The readings on reach are set out in :mod:`companion.rules.foraging`.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass

from companion.content.schema.cards import Encounter, ForageCard, ForageObject
from companion.rules.errors import IllegalAction

__all__ = ["ROWS", "Spot", "SpotKey", "TableauCard", "TableauSpot", "front_row_predator",
           "legal_expansion_choices", "spots", "within_reach"]

ROWS: tuple[str, ...] = ("front", "middle", "back")
"""A forage card's rows, nearest first (Rulebook: Foraging, step 1)."""

SpotKey = str
"""One object of the tableau: ``"<card id>/<row>/<n>"``, e.g. ``"FF01/middle/2"`` (n from 1)."""


@dataclass(frozen=True)
class Spot:
    """One object on a card of the tableau."""

    key: SpotKey
    """Its key: card id, row and position in the row."""
    card: str
    """The card it is printed on."""
    row: int
    """0 front, 1 middle, 2 back."""
    object: str
    """The forage object's id (tree, predator, animal-path ...)."""
    bonus: tuple[str, ...]
    """The bonus objects drawn on it."""


def spots(cards: Iterable[ForageCard]) -> list[Spot]:
    """Every object of ``cards``, card by card, front row first."""
    out: list[Spot] = []
    for card in cards:
        for row, name in enumerate(ROWS):
            for i, spot in enumerate(getattr(card.rows, name)):
                key = f"{card.id}/{name}/{i + 1}"
                out.append(Spot(key, card.id, row, str(spot.object), tuple(map(str, spot.bonus))))
    return out


def _is_path(spot: Spot, objects: Mapping[str, ForageObject]) -> bool:
    obj = objects.get(spot.object)
    return obj is not None and obj.animal_path


def within_reach(
    tableau: Sequence[ForageCard],
    chosen: Collection[SpotKey],
    objects: Mapping[str, ForageObject],
) -> set[SpotKey]:
    """The objects of ``tableau`` within reach, given the objects ``chosen`` so far.

    Rulebook: Foraging, step 4: "An object is within reach if it appears in a front row,
    or if there are chosen objects of the same type or animal paths in each row before
    it on any card in your tableau." Rows line up across cards, so an animal path on one
    card and one on another chain into the back rows.

    >>> from companion.content.schema.cards import ForageCard, ForageObject
    >>> objects = {o: ForageObject(id=o, name=o, decks=["forest"], animal_path=o == "path")
    ...            for o in ("tree", "path")}
    >>> a = ForageCard(id="A", deck="forest", rows={"front": ["tree"], "middle": ["tree"],
    ...                                             "back": ["tree"]})
    >>> sorted(within_reach([a], [], objects))
    ['A/front/1']
    >>> sorted(within_reach([a], ["A/front/1"], objects))
    ['A/front/1', 'A/middle/1']
    """
    every = spots(tableau)
    by_key = {s.key: s for s in every}
    unknown = [k for k in chosen if k not in by_key]
    if unknown:
        raise IllegalAction(f"{', '.join(unknown)} is not an object of the tableau")
    chosen_spots = [by_key[k] for k in chosen]
    paths = {s.row for s in every if _is_path(s, objects)}
    reach: set[SpotKey] = set()
    for spot in every:
        openers = paths | {c.row for c in chosen_spots if c.object == spot.object}
        if all(row in openers for row in range(spot.row)):
            reach.add(spot.key)
    return reach


def predator_rows(card: ForageCard, objects: Mapping[str, ForageObject]) -> list[int]:
    """The rows of the card's predators."""
    return [
        s.row
        for s in spots([card])
        if (o := objects.get(s.object)) is not None and o.encounter is Encounter.PREDATOR
    ]


def legal_expansion_choices(
    tableau: Sequence[ForageCard],
    a: ForageCard,
    b: ForageCard | None,
    objects: Mapping[str, ForageObject],
) -> tuple[str, ...]:
    """The cards the character may add to the tableau out of the two drawn (step 2).

    Rulebook: Foraging, step 2: "If there is a predator in your tableau already, you must
    choose another card with a predator, if able. If choosing between two cards with
    predators, you must choose a card with a predator in the same row as the closest
    predator in your tableau or closer, if able." ``b`` is None when only one card was
    left to draw.
    """
    drawn = [a] if b is None else [a, b]
    everyone = tuple(c.id for c in drawn)
    in_tableau = [row for card in tableau for row in predator_rows(card, objects)]
    if not in_tableau or len(drawn) == 1:
        return everyone
    with_predator = [c for c in drawn if predator_rows(c, objects)]
    if len(with_predator) == 1:
        return (with_predator[0].id,)
    if not with_predator:
        return everyone
    closest = min(in_tableau)
    as_close = [c for c in drawn if min(predator_rows(c, objects)) <= closest]
    if len(as_close) == 1:
        return (as_close[0].id,)
    return everyone


def front_row_predator(tableau: Sequence[ForageCard], objects: Mapping[str, ForageObject]) -> bool:
    """Whether a predator is in a front row of the tableau (step 2: forces the encounter)."""
    return any(0 in predator_rows(card, objects) for card in tableau)


@dataclass(frozen=True)
class TableauSpot:
    """One object as the dialog draws it."""

    key: SpotKey
    object: str
    """The forage object's id."""
    name: str
    """The forage object's name."""
    bonus: tuple[str, ...]
    """Names of the bonus objects drawn on it."""
    within_reach: bool
    """Within reach now (given the objects chosen so far)."""
    chosen: bool
    """Chosen for the harvest."""


@dataclass(frozen=True)
class TableauCard:
    """One card of the tableau as the dialog draws it: its rows, nearest first."""

    card: str
    rows: tuple[tuple[TableauSpot, ...], tuple[TableauSpot, ...], tuple[TableauSpot, ...]]
