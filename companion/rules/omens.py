"""Omens: the current omen and investigating one (Rulebook: Omens; Using the Journal).

The lookup of the omen entry in the Codex is the operations layer's; the rules say
whether an investigation is allowed and record it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from companion.content.schema.base import Omen
from companion.rules.errors import IllegalAction
from companion.rules.game import Game, Phase
from companion.rules.ids import ComponentId


def codex_omen_key(omen: Omen, component: str) -> str:
    """The Codex omen entry of ``omen`` spotted on ``component``: ``"<Omen> <component>"``
    (Rulebook: Using the Journal; Using the Secret).

    >>> codex_omen_key(Omen.MOON, "R07")
    'Moon R07'
    """
    return f"{omen.value.capitalize()} {component}"


def current_omens(
    night_discard: Sequence[Sequence[Omen]], starting_omens: Sequence[Omen]
) -> frozenset[Omen]:
    """The omens of the topmost Night discard card, else the challenge's starting omen.

    ``night_discard`` lists the omens of each discarded Night card, bottom to top.

    >>> sorted(current_omens([], [Omen.MOON]))
    [<Omen.MOON: 'moon'>]
    >>> sorted(current_omens([[Omen.SUN], [Omen.CLOUD, Omen.STARS]], [Omen.MOON]))
    [<Omen.CLOUD: 'cloud'>, <Omen.STARS: 'stars'>]
    """
    if night_discard:
        return frozenset(night_discard[-1])
    return frozenset(starting_omens)


@dataclass(frozen=True)
class Investigation:
    """An omen investigated; the Journal records the omen and the component id."""

    character: str
    """Who investigated."""
    omen: Omen
    """The omen spotted."""
    component: ComponentId
    """The component it was spotted on (looked up in the Codex as ``Omen component``)."""

    def __str__(self) -> str:
        return codex_omen_key(self.omen, self.component)


def investigate(
    game: Game, name: str, omen: Omen, component: str, current: frozenset[Omen]
) -> tuple[Game, Investigation]:
    """Investigate ``omen`` spotted on ``component`` during the character's turn.

    Allowed only if it matches a current omen, and at most once per character turn (a
    turn lasts until the character's next action). Rulebook: Omens > Investigating Omens.
    """
    if game.day.phase is not Phase.DAY:
        raise IllegalAction("omens are investigated during a character's turn, in the Day")
    character = game.character(name)
    if character.name in game.day.investigated:
        raise IllegalAction(f"{character.name} has already investigated an omen this turn")
    if omen not in current:
        shown = ", ".join(sorted(o.value for o in current)) or "none"
        raise IllegalAction(f"{omen.value} is not a current omen (current: {shown})")
    component = component.strip()
    if not component:
        raise IllegalAction("an investigation needs the component's ID")
    day = replace(game.day, investigated=game.day.investigated | {character.name})
    return replace(game, day=day), Investigation(character.name, omen, ComponentId(component))
