"""The state of a game in progress that the Day actions change.

:class:`Game` bundles the characters, the society's tracks, the hex tokens, the outposts
and storage containers, and the bookkeeping of the current Day (action order, passing).
Every action in :mod:`companion.rules.day` takes a ``Game`` and returns a new one.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import StrEnum

from companion.rules.character import Character
from companion.rules.errors import IllegalAction
from companion.rules.ids import CharacterName, ContainerId, OutpostId
from companion.rules.inventory import Container
from companion.rules.outposts import Outpost
from companion.rules.society import Society
from companion.rules.valley import HexTokens


class Phase(StrEnum):
    """The two phases of a round (Rulebook: Game Structure > Rounds)."""

    DAY = "day"
    NIGHT = "night"


@dataclass(frozen=True)
class Day:
    """Bookkeeping of the current round's Day phase."""

    phase: Phase = Phase.DAY
    """Day or Night."""
    last_actor: CharacterName | None = None
    """Who took the last Day action (no one takes two in a row, Rulebook: Action Order)."""
    passed: frozenset[CharacterName] = frozenset()
    """Characters who have passed this Day."""
    acted: frozenset[CharacterName] = frozenset()
    """Characters who took an action this Day (hardcore solo first-action discount)."""
    investigated: frozenset[CharacterName] = frozenset()
    """Characters who investigated an omen during their current turn."""


@dataclass(frozen=True)
class Game:
    """A game (one challenge) in progress."""

    characters: tuple[Character, ...]
    """The characters in play, in seating order."""
    society: Society = Society()
    """Unrest, activity, lore, culture."""
    day: Day = Day()
    """The current round's bookkeeping."""
    tokens: HexTokens = field(default_factory=HexTokens)
    """Shelter, fire and lore tokens on hexes."""
    outposts: tuple[Outpost, ...] = ()
    """Outposts and ruins in the valley."""
    containers: tuple[Container, ...] = ()
    """Storage containers in the valley."""

    def character(self, name: str) -> Character:
        """The character named ``name``."""
        for character in self.characters:
            if character.name == name:
                return character
        raise IllegalAction(f"there is no character named {name} in this game")

    def with_characters(self, *changed: Character) -> Game:
        """The game with these characters replaced (matched by name)."""
        by_name = {c.name: c for c in changed}
        return replace(self, characters=tuple(by_name.get(c.name, c) for c in self.characters))

    def outpost(self, outpost: OutpostId) -> Outpost:
        """The outpost with that id."""
        for candidate in self.outposts:
            if candidate.id == outpost:
                return candidate
        raise IllegalAction(f"there is no outpost {outpost}")

    def with_outpost(self, outpost: Outpost) -> Game:
        """The game with this outpost added or replaced."""
        others = tuple(o for o in self.outposts if o.id != outpost.id)
        if len(others) == len(self.outposts):
            return replace(self, outposts=(*self.outposts, outpost))
        return replace(
            self, outposts=tuple(outpost if o.id == outpost.id else o for o in self.outposts)
        )

    def container(self, container: ContainerId) -> Container:
        """The storage container with that id."""
        for candidate in self.containers:
            if candidate.id == container:
                return candidate
        raise IllegalAction(f"there is no storage container {container}")

    def with_container(self, container: Container) -> Game:
        """The game with this container replaced."""
        return replace(
            self,
            containers=tuple(container if c.id == container.id else c for c in self.containers),
        )
