"""Behemoths: the state of the behemoth in play, its set up, movement values, paths,
learning its habits and secret, and the exact odds of where it ends its activation.

Rulebook: Behemoths > Behemoth Setup; Behemoth Overview (Contests, Movement Values,
Habits, Instinct Card, Secret Card, Reaction Deck, Target Token, Lair); Behemoth
Activation > Movement, Encounters; Basic Concepts > Multiple Possible Outcomes.
The step-by-step activation and encounters are :mod:`companion.rules.behemoth_procedures`.

Readings (each a single function or argument, so a pack could later carry it):

* **Movement value of a hex** (Movement Values: "look at all of the hex's features and
  determine which one has the lowest movement value"): every feature printed in the
  tile's sections counts, *covered by an overlay or not* (an overlay only stops a
  feature counting "when crossing that edge", Valley > Overlays, and the behemoth does
  not cross edges: it pays per hex). A feature missing from the behemoth's movement table
  is ignored; a hex with no listed feature at all is worth the behemoth's **lowest**
  movement value (D20: the least favourable reading, the behemoth moves through it as
  easily as through its favourite terrain, so it reaches its targets sooner). Callers may
  pass ``unlisted`` to choose another value.
* **Where it moves** (Behemoth Activation > Movement does not say): only through
  *explored* hexes. A face-down hex is "shrouded in mist": its features, hence its
  movement value, are unknown, so no path may enter it. A target it cannot reach through
  explored hexes leaves it where it is.
* **Shortest path** (Movement step 2): fewest hexes entered; among those, the lowest total
  movement value (the sum over the hexes entered, the target's included); the paths still
  tied are equally likely (Multiple Possible Outcomes), a chance input.
* **Paying** (steps 3-6): it pays each hex's value before entering; it stops when it
  cannot pay the next hex in full, or on reaching its target. Movement points are
  ``dice`` d6 + ``modifier``, never below 0.
* **Encounters** (Encounters: "as described on the Instinct card"): the card's text is
  free, so :class:`EncounterRule` names the few rules the sample cards use; see
  :func:`encounter_rule_from_text` and :func:`encountered`. Only entering a hex or ending
  the activation makes an encounter (a behemoth that does not move "ends" in its hex).
  "When it enters the target's hex" meets every character in that hex, not only a target
  character (D20); "a character in its lair hex" meets them when it enters or ends its
  activation in its lair hex. Each character is encountered at most once per activation.

>>> board = MovementBoard.of({(0, 0): 1, (1, -1): 2, (1, 0): 1, (2, -1): 1})
>>> [str(board.name(h)) for h in shortest_paths(board, Axial(0, 0), Axial(2, -1))[0]]
['(1, 0)', '(2, -1)']
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from fractions import Fraction
from itertools import product
from types import MappingProxyType
from typing import Any, Literal

from companion.content.schema.base import Ability
from companion.content.schema.cards import (
    Behemoth,
    InstinctCard,
    MovementRoll,
    ReactionCard,
    SecretCard,
)
from companion.content.schema.rules import RulesConstants
from companion.content.schema.world import HexTile
from companion.rules.chance import DIE_SIDES
from companion.rules.errors import IllegalAction
from companion.rules.exploration import SECTIONS, Place, Section, Terrain, Valley, place_lair
from companion.rules.geometry import Axial
from companion.rules.ids import CharacterName, HexId

# --- the behemoth in play ---------------------------------------------------------------


@dataclass(frozen=True)
class Target:
    """Where the target token lies (Rulebook: Behemoths > Target Token): on a hex or on a
    character. Exactly one of the two is set."""

    hex: HexId | None = None
    """The hex the token lies on."""
    character: CharacterName | None = None
    """The character the token lies on (it follows the character's miniature)."""

    def __post_init__(self) -> None:
        if (self.hex is None) == (self.character is None):
            raise ValueError("the target token lies on a hex or on a character")

    def __str__(self) -> str:
        return f"hex {self.hex}" if self.hex is not None else str(self.character)

    def to_data(self) -> dict[str, str]:
        """``{"hex": id}`` or ``{"character": name}``."""
        if self.hex is not None:
            return {"hex": str(self.hex)}
        return {"character": str(self.character)}

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> Target:
        """Inverse of :meth:`to_data`."""
        if "hex" in data:
            return cls(hex=HexId(str(data["hex"])))
        return cls(character=CharacterName(str(data["character"])))


@dataclass(frozen=True)
class BehemothState:
    """The behemoth in play: its board's tokens, its cards and its miniature.

    Rulebook: Behemoths > Behemoth Setup; Behemoth Overview.
    """

    behemoth: str
    """The behemoth's id (its board in the content pack)."""
    hex: HexId
    """The hex its miniature stands in."""
    lair: tuple[HexId, Section]
    """The hex and section its lair overlay covers."""
    instinct: str
    """The Instinct card dealt face up."""
    secret: str
    """The Secret card dealt face down."""
    secret_learned: bool = False
    """The secret was learned (D18); its card may then be read and used."""
    habits_learned: bool = False
    """Its habits were learned (D18)."""
    target: Target | None = None
    """Where its target token lies, if anywhere."""
    boosts: Mapping[Ability, tuple[int, ...]] = field(default_factory=dict)
    """Boost tokens above each ability: 1 (minor) or 2 (major)."""
    reaction_deck: tuple[str, ...] = ()
    """The Reaction deck, top card first."""
    reaction_ordered: bool = True
    """False when the deck was shuffled and its order not fixed: the next card drawn is
    then any of them, equally likely (what a shuffle gives), typed or drawn by the app."""

    def __post_init__(self) -> None:
        boosts = {}
        for ability, faces in sorted(self.boosts.items()):
            for face in faces:
                if face not in (1, 2):
                    raise ValueError(f"a boost token shows 1 or 2; got {face}")
            if faces:
                boosts[Ability(ability)] = tuple(faces)
        object.__setattr__(self, "boosts", MappingProxyType(boosts))
        if len(set(self.reaction_deck)) != len(self.reaction_deck):
            raise ValueError("a Reaction card is in the deck twice")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, BehemothState):
            return NotImplemented
        return self.to_data() == other.to_data()

    def __hash__(self) -> int:
        return hash((self.behemoth, self.hex, self.instinct, self.secret))

    def to_data(self) -> dict[str, Any]:
        """JSON-safe data (str, int, bool, lists, dicts, None)."""
        return {
            "behemoth": self.behemoth,
            "hex": str(self.hex),
            "lair": {"hex": str(self.lair[0]), "section": self.lair[1]},
            "instinct": self.instinct,
            "secret": self.secret,
            "secret_learned": self.secret_learned,
            "habits_learned": self.habits_learned,
            "target": None if self.target is None else self.target.to_data(),
            "boosts": {a.value: list(f) for a, f in self.boosts.items()},
            "reaction_deck": list(self.reaction_deck),
            "reaction_ordered": self.reaction_ordered,
        }

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> BehemothState:
        """Inverse of :meth:`to_data` (ValueError on inconsistent data)."""
        target = data.get("target")
        return cls(
            behemoth=str(data["behemoth"]),
            hex=HexId(str(data["hex"])),
            lair=(HexId(str(data["lair"]["hex"])), _section(data["lair"]["section"])),
            instinct=str(data["instinct"]),
            secret=str(data["secret"]),
            secret_learned=bool(data.get("secret_learned", False)),
            habits_learned=bool(data.get("habits_learned", False)),
            target=None if target is None else Target.from_data(target),
            boosts={Ability(a): tuple(int(x) for x in f) for a, f in dict(data["boosts"]).items()},
            reaction_deck=tuple(str(c) for c in data["reaction_deck"]),
            reaction_ordered=bool(data.get("reaction_ordered", True)),
        )


def _section(value: object) -> Section:
    if value == "a" or value == "b" or value == "c":
        return value
    raise ValueError(f"a section is a, b or c; not {value!r}")


def shuffle_reactions(state: BehemothState, order: Sequence[str]) -> BehemothState:
    """Fix the Reaction deck's order after a shuffle (``order``: top card first, a
    permutation of the deck, as the app's :class:`~companion.rules.chance.Chance` gives)."""
    if sorted(order) != sorted(state.reaction_deck):
        raise IllegalAction(
            "a shuffle keeps the same cards: "
            f"{', '.join(sorted(state.reaction_deck))}; got {', '.join(order)}"
        )
    return replace(state, reaction_deck=tuple(order), reaction_ordered=True)


def set_target(state: BehemothState, target: Target | None) -> BehemothState:
    """Place the target token as the Instinct card instructs (Rulebook: Target Token)."""
    return replace(state, target=target)


def lair_target(state: BehemothState) -> Target:
    """The target "its lair": the hex its lair covers."""
    return Target(hex=state.lair[0])


# --- set up -----------------------------------------------------------------------------


def legal_lair_hexes(valley: Valley) -> list[HexId]:
    """The hexes the lair may be placed in: explored, with no overlays (sorted by id).

    Rulebook: Behemoth Setup > Place Lair ("a randomly selected explored hex with no
    overlays"). The lair is placed once: empty when a lair is already in the valley.
    """
    if valley.lair is not None:
        return []
    covered = {tile for tile, _ in valley.overlays}
    found = []
    for cell in valley.explored:
        tile = valley.tiles[cell]
        if tile is not None and tile not in covered:
            found.append(tile)
    return sorted(found)


def deal_options(behemoth: Behemoth, cards: Iterable[InstinctCard | SecretCard]) -> list[str]:
    """The ids of ``behemoth``'s Instinct (or Secret) cards among ``cards``: what the deal
    may give (Behemoth Setup steps 2-3); the app draws one, the table types it."""
    return sorted(str(c.id) for c in cards if str(c.behemoth) == str(behemoth.id))


def _check_card(kind: str, card_behemoth: str, behemoth: Behemoth, card_id: str) -> None:
    if card_behemoth != behemoth.id:
        raise IllegalAction(
            f"{kind} card {card_id} belongs to {card_behemoth}, not {behemoth.name}"
        )


def set_up_behemoth(
    behemoth: Behemoth,
    valley: Valley,
    *,
    instinct: InstinctCard,
    secret: SecretCard,
    reactions: Sequence[ReactionCard],
    lair_hex: Place,
    lair_section: Section = "a",
    shuffled: bool = True,
) -> tuple[BehemothState, Valley]:
    """Set up a behemoth (Rulebook: Behemoth Setup, steps 2-6).

    The chance is the caller's input: ``instinct`` and ``secret`` are the cards dealt (the
    app draws them at random from the behemoth's cards, the table types them);
    ``reactions`` are the behemoth's whole Reaction deck in its shuffled order, top first
    (``shuffled`` False: its order is not fixed yet, see
    :attr:`BehemothState.reaction_ordered`); ``lair_hex`` is the random hex, one of
    :func:`legal_lair_hexes`, and ``lair_section`` its orientation (any). The miniature
    stands in the lair's hex. Returns the behemoth and the valley with its lair.
    """
    _check_card("Instinct", str(instinct.behemoth), behemoth, str(instinct.id))
    _check_card("Secret", str(secret.behemoth), behemoth, str(secret.id))
    for card in reactions:
        _check_card("Reaction", str(card.behemoth), behemoth, str(card.id))
    if not reactions:
        raise IllegalAction(f"{behemoth.name} has no Reaction deck")
    ids = [str(c.id) for c in reactions]
    if len(set(ids)) != len(ids):
        raise IllegalAction("a Reaction card is in the deck twice")
    if lair_section not in SECTIONS:
        raise IllegalAction(f"a section is a, b or c; not {lair_section!r}")
    cell = valley.locate(lair_hex)
    tile = valley.tiles[cell]
    if tile is None or tile not in legal_lair_hexes(valley):
        where = valley.name(cell)
        raise IllegalAction(
            f"the lair goes in an explored hex with no overlays; {where} is not one "
            f"(legal: {', '.join(legal_lair_hexes(valley)) or 'none'})"
        )
    valley = place_lair(valley, cell, lair_section, str(behemoth.lair))
    state = BehemothState(
        behemoth=str(behemoth.id),
        hex=tile,
        lair=(tile, lair_section),
        instinct=str(instinct.id),
        secret=str(secret.id),
        reaction_deck=tuple(ids) if shuffled else tuple(sorted(ids)),
        reaction_ordered=shuffled,
    )
    return state, valley


# --- movement values ----------------------------------------------------------------------


def default_movement_value(behemoth: Behemoth) -> int:
    """The value of a hex with no feature in the behemoth's table: its lowest (D20)."""
    return min(behemoth.movement.values(), default=1)


def hex_movement_value(behemoth: Behemoth, tile: HexTile, *, unlisted: int | None = None) -> int:
    """The lowest movement value among all the hex's features (Rulebook: Movement Values).

    Every feature in the tile's sections counts, covered by an overlay or not; features
    missing from the behemoth's table are ignored; a hex with none listed is worth
    ``unlisted`` (default: :func:`default_movement_value`, D20).
    """
    values = [
        behemoth.movement[feature]
        for feature in tile.sections.values()
        if feature is not None and feature in behemoth.movement
    ]
    if values:
        return min(values)
    return default_movement_value(behemoth) if unlisted is None else unlisted


@dataclass(frozen=True)
class MovementBoard:
    """The hexes a behemoth may enter and what each costs it: the explored hexes."""

    values: Mapping[Axial, int]
    """Position -> the hex's movement value."""
    tiles: Mapping[Axial, HexId]
    """Position -> the tile lying there (the same keys as ``values``)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "values", MappingProxyType(dict(sorted(self.values.items()))))
        object.__setattr__(self, "tiles", MappingProxyType(dict(sorted(self.tiles.items()))))
        if set(self.values) != set(self.tiles):
            raise ValueError("every hex of a movement board has a value and a tile")
        if len(set(self.tiles.values())) != len(self.tiles):
            raise ValueError("a tile lies in two places")
        for cell, value in self.values.items():
            if value < 0:
                raise ValueError(f"a movement value is 0 or more; {cell} has {value}")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, MovementBoard):
            return NotImplemented
        return dict(self.values) == dict(other.values) and dict(self.tiles) == dict(other.tiles)

    def __hash__(self) -> int:
        return hash(tuple(self.values.items()))

    @classmethod
    def of(cls, values: Mapping[tuple[int, int], int]) -> MovementBoard:
        """A hand-drawn board: ``(q, r) -> value``; each tile is named ``"(q, r)"``."""
        cells = {Axial(q, r): v for (q, r), v in values.items()}
        return cls(cells, {c: HexId(str(c)) for c in cells})

    def locate(self, hex: HexId) -> Axial:
        """The position of tile ``hex`` on the board (refused if the behemoth can't go there)."""
        for cell, tile in self.tiles.items():
            if tile == hex:
                return cell
        raise IllegalAction(f"hex {hex} is not an explored hex the behemoth can move through")

    def name(self, cell: Axial) -> HexId:
        """The tile at ``cell``."""
        return self.tiles[cell]

    def to_data(self) -> list[list[Any]]:
        """``[[q, r, tile, value], ...]``."""
        return [[c.q, c.r, str(self.tiles[c]), v] for c, v in self.values.items()]

    @classmethod
    def from_data(cls, data: Iterable[Sequence[Any]]) -> MovementBoard:
        """Inverse of :meth:`to_data`."""
        values: dict[Axial, int] = {}
        tiles: dict[Axial, HexId] = {}
        for q, r, tile, value in data:
            values[Axial(int(q), int(r))] = int(value)
            tiles[Axial(int(q), int(r))] = HexId(str(tile))
        return cls(values, tiles)


def movement_board(
    behemoth: Behemoth, valley: Valley, terrain: Terrain, *, unlisted: int | None = None
) -> MovementBoard:
    """The behemoth's board: every explored hex and its movement value (module readings)."""
    values: dict[Axial, int] = {}
    tiles: dict[Axial, HexId] = {}
    for cell in sorted(valley.explored):
        tile = valley.tiles[cell]
        assert tile is not None  # an explored hex is face up
        info = terrain.hexes.get(tile)
        if info is None:
            raise IllegalAction(f"there is no hex {tile} in the content")
        values[cell] = hex_movement_value(behemoth, info, unlisted=unlisted)
        tiles[cell] = tile
    return MovementBoard(values, tiles)


# --- paths --------------------------------------------------------------------------------

Path = tuple[Axial, ...]
"""The hexes entered, in order (the start hex excluded; the target last)."""


def _distances(board: MovementBoard, goal: Axial) -> dict[Axial, int]:
    """Fewest hexes entered to reach ``goal`` from each hex of the board."""
    dist = {goal: 0}
    frontier = [goal]
    while frontier:
        nxt = []
        for cell in frontier:
            for n in cell.neighbours():
                if n in board.values and n not in dist:
                    dist[n] = dist[cell] + 1
                    nxt.append(n)
        frontier = nxt
    return dist


def shortest_paths(board: MovementBoard, start: Axial, goal: Axial) -> list[Path]:
    """Every path the behemoth may take from ``start`` to ``goal``: the fewest hexes
    entered, then the lowest total movement value; sorted. ``[()]`` when it is there
    already, ``[]`` when no path of explored hexes leads there.

    Rulebook: Behemoth Activation > Movement, step 2. The paths returned are equally
    likely (Multiple Possible Outcomes).
    """
    if start not in board.values:
        raise IllegalAction(f"the behemoth stands at {start}, not on an explored hex")
    if goal not in board.values:
        return []
    if start == goal:
        return [()]
    dist = _distances(board, goal)
    if start not in dist:
        return []
    # cheapest[c]: lowest total value of the hexes entered from c to the goal on a
    # shortest path (c itself excluded).
    cheapest: dict[Axial, int] = {goal: 0}
    for d in range(1, dist[start] + 1):
        for cell in (c for c, k in dist.items() if k == d):
            cheapest[cell] = min(
                board.values[n] + cheapest[n] for n in cell.neighbours() if dist.get(n) == d - 1
            )
    paths: list[Path] = []

    def extend(cell: Axial, path: Path) -> None:
        if cell == goal:
            paths.append(path)
            return
        for n in cell.neighbours():
            if dist.get(n) == dist[cell] - 1 and board.values[n] + cheapest[n] == cheapest[cell]:
                extend(n, (*path, n))

    extend(start, ())
    return sorted(paths)


def walk(board: MovementBoard, path: Path, points: int) -> tuple[Path, int]:
    """The hexes entered along ``path`` with ``points`` movement points, and the points
    spent: it pays each hex's value to enter it and stops when it cannot pay in full.

    Rulebook: Behemoth Activation > Movement, steps 3-7.
    """
    entered: list[Axial] = []
    spent = 0
    for cell in path:
        cost = board.values[cell]
        if spent + cost > points:
            break
        spent += cost
        entered.append(cell)
    return tuple(entered), spent


def movement_points(roll: MovementRoll, dice: Sequence[int]) -> int:
    """Movement points: the dice plus the modifier, never below 0 (Movement step 1)."""
    if len(dice) != roll.dice:
        raise IllegalAction(f"the Instinct card rolls {roll.dice} dice; got {len(dice)}")
    for value in dice:
        if isinstance(value, bool) or not 1 <= value <= DIE_SIDES:
            raise IllegalAction(f"a die shows 1 to {DIE_SIDES}; got {value}")
    return max(0, sum(dice) + roll.modifier)


def target_hex(
    state: BehemothState, characters: Mapping[CharacterName, HexId | None]
) -> HexId | None:
    """The hex the target token marks now (None: no target, or its character is gone)."""
    if state.target is None:
        return None
    if state.target.hex is not None:
        return state.target.hex
    return characters.get(state.target.character)  # type: ignore[arg-type]


# --- encounters ---------------------------------------------------------------------------


class EncounterRule(StrEnum):
    """When the behemoth's movement makes it encounter characters (the Instinct card's
    ``encounter`` text, Rulebook: Behemoth Activation > Encounters)."""

    ENTER = "enter"
    """Each character in a hex it enters."""
    ENTER_TARGET = "enter_target"
    """The characters in its target's hex, when it enters that hex."""
    END = "end"
    """The characters in the hex where it ends its activation."""
    ENTER_OR_END = "enter_or_end"
    """Each character in a hex it enters or ends its activation in."""
    LAIR = "lair"
    """The characters in its lair hex, when it enters or ends its activation there."""
    NONE = "none"
    """It encounters nobody."""


def encounter_rule_from_text(text: str) -> EncounterRule:
    """Read an Instinct card's ``encounter`` text (the schema keeps it as free text).

    >>> encounter_rule_from_text("when it ends its activation in a hex with characters")
    <EncounterRule.END: 'end'>
    >>> encounter_rule_from_text("when it enters the target's hex")
    <EncounterRule.ENTER_TARGET: 'enter_target'>
    """
    words = text.lower()
    if "lair" in words:
        return EncounterRule.LAIR
    if "target" in words and "enter" in words:
        return EncounterRule.ENTER_TARGET
    enters = "enters" in words or "entering" in words
    ends = "ends" in words or "ending" in words
    if enters and ends:
        return EncounterRule.ENTER_OR_END
    if ends:
        return EncounterRule.END
    if enters:
        return EncounterRule.ENTER
    if "never" in words or "no one" in words or "nobody" in words:
        return EncounterRule.NONE
    raise IllegalAction(f"say which encounter rule the Instinct card follows: {text!r}")


def encountered(
    rule: EncounterRule,
    entered: Sequence[HexId],
    end: HexId,
    characters: Mapping[CharacterName, HexId | None],
    *,
    target: HexId | None = None,
    lair: HexId | None = None,
) -> tuple[CharacterName, ...]:
    """The characters the behemoth encounters, each once, in the order met (hexes in the
    order entered, then the end hex; within a hex, ``characters``' order).

    ``entered`` are the hexes it entered, ``end`` where its activation ends (its start
    hex if it did not move).
    """
    if rule is EncounterRule.NONE:
        return ()
    hexes: list[HexId] = []
    if rule in (EncounterRule.ENTER, EncounterRule.ENTER_OR_END):
        hexes += entered
    if rule is EncounterRule.ENTER_TARGET and target is not None and target in entered:
        hexes.append(target)
    if rule in (EncounterRule.END, EncounterRule.ENTER_OR_END):
        hexes.append(end)
    if rule is EncounterRule.LAIR and lair is not None and (lair in entered or lair == end):
        hexes.append(lair)
    met: list[CharacterName] = []
    for hex in hexes:
        for name, where in characters.items():
            if where == hex and name not in met:
                met.append(name)
    return tuple(met)


# --- a whole movement ---------------------------------------------------------------------


@dataclass(frozen=True)
class Movement:
    """Where the behemoth went during one activation."""

    points: int
    """Movement points generated."""
    path: Path
    """The path chosen (empty: no target, already there, or no path)."""
    entered: Path
    """The hexes it entered, in order (each one's entry effects trigger)."""
    spent: int
    """Movement points spent."""
    end: Axial
    """Where it ends its activation."""


def move(board: MovementBoard, start: Axial, path: Path, points: int) -> Movement:
    """Walk ``path`` from ``start`` with ``points`` (see :func:`walk`)."""
    entered, spent = walk(board, path, points)
    return Movement(points, path, entered, spent, entered[-1] if entered else start)


def tie_matters(board: MovementBoard, paths: Sequence[Path], points: int) -> bool:
    """True if the tied ``paths`` lead the behemoth into different hexes with ``points``
    (only then is the random tie-break asked)."""
    return len({walk(board, p, points)[0] for p in paths}) > 1


# --- the map preview: exact odds ------------------------------------------------------------


def _roll_distribution(roll: MovementRoll | None) -> dict[int, Fraction]:
    """Exact odds of each number of movement points (none: 0 points for sure)."""
    if roll is None:
        return {0: Fraction(1)}
    odds: dict[int, Fraction] = {}
    total = DIE_SIDES**roll.dice
    for dice in product(range(1, DIE_SIDES + 1), repeat=roll.dice):
        points = max(0, sum(dice) + roll.modifier)
        odds[points] = odds.get(points, Fraction(0)) + Fraction(1, total)
    return odds


def _movement_distribution(
    board: MovementBoard, start: HexId, target: HexId | None, roll: MovementRoll | None
) -> dict[Movement, Fraction]:
    """Exact odds of each movement over the roll and the random tie-breaks."""
    here = board.locate(start)
    paths: list[Path] = [()]
    if target is not None and roll is not None:
        found = shortest_paths(board, here, board.locate(target)) if target in _tiles(board) else []
        paths = found or [()]
    odds: dict[Movement, Fraction] = {}
    for points, p in _roll_distribution(roll).items():
        for path in paths:
            m = move(board, here, path, points)
            key = replace(m, path=m.entered)  # paths equal up to where it stops agree
            odds[key] = odds.get(key, Fraction(0)) + p / len(paths)
    return odds


def _tiles(board: MovementBoard) -> set[HexId]:
    return set(board.tiles.values())


def end_hex_distribution(
    state: BehemothState,
    board: MovementBoard,
    roll: MovementRoll | None,
    target: HexId | None,
) -> dict[HexId, Fraction]:
    """Exact probability of each hex where the behemoth ends its activation, over its
    movement roll and the random tie-breaks; the values sum to 1.

    ``board`` is :func:`movement_board`; ``roll`` the Instinct card's movement (None: it
    does not move); ``target`` the target's hex now (:func:`target_hex`).
    """
    odds: dict[HexId, Fraction] = {}
    for m, p in _movement_distribution(board, state.hex, target, roll).items():
        end = board.name(m.end)
        odds[end] = odds.get(end, Fraction(0)) + p
    return odds


def reach_probability(
    state: BehemothState,
    board: MovementBoard,
    roll: MovementRoll | None,
    target: HexId | None,
    characters: Mapping[CharacterName, HexId | None],
    *,
    rule: EncounterRule | None = None,
) -> dict[CharacterName, Fraction]:
    """Per character, the exact probability that the behemoth reaches them this
    activation: enters their hex or ends its activation there (with ``rule``: that it
    encounters them by that rule instead)."""
    odds = {name: Fraction(0) for name in characters}
    for m, p in _movement_distribution(board, state.hex, target, roll).items():
        entered = [board.name(c) for c in m.entered]
        end = board.name(m.end)
        if rule is None:
            met = {n for n, h in characters.items() if h is not None and (h in entered or h == end)}
        else:
            met = set(
                encountered(rule, entered, end, characters, target=target, lair=state.lair[0])
            )
        for name in met:
            odds[name] += p
    return odds


# --- habits and secret (D18) ----------------------------------------------------------------

Knowledge = Literal["habits", "secret"]


def learn_refusal(
    rules: RulesConstants,
    state: BehemothState,
    valley: Valley,
    what: Knowledge,
    character_hex: Place | None,
    lore: int,
    *,
    who: str = "the character",
) -> str | None:
    """Why ``who`` cannot learn the behemoth's habits or secret now (None: they can).

    Rulebook: Behemoths > Habits; Learning the Secret (reading D18): at the end of a Night
    phase, the behemoth in the same or an adjacent hex (``behemoths.learn_range``), for
    ``habits_lore`` / ``secret_lore`` lore. The caller asks at the end of a Night only.
    """
    settings = rules.behemoths
    cost = settings.habits_lore if what == "habits" else settings.secret_lore
    learned = state.habits_learned if what == "habits" else state.secret_learned
    name = f"its {what}"
    if learned:
        return f"the behemoth's {what} {'are' if what == 'habits' else 'is'} already learned"
    if character_hex is None:
        return f"{who} is not in the valley"
    here = valley.locate(character_hex)
    there = valley.locate(state.hex)
    distance = here.distance(there)
    if distance > settings.learn_range:
        near = "in its hex" if settings.learn_range == 0 else "in its hex or next to it"
        return f"{who} must be {near} to learn {name}; the behemoth is {distance} hexes away"
    if lore - cost < rules.lore.minimum:
        return f"the society has {lore} lore; learning the behemoth's {what} costs {cost}"
    return None


def learn(
    rules: RulesConstants,
    state: BehemothState,
    valley: Valley,
    what: Knowledge,
    character_hex: Place | None,
    lore: int,
    *,
    who: str = "the character",
) -> tuple[BehemothState, int]:
    """Learn the habits or the secret: the behemoth with it learned, and the lore left.

    Learning the habits reads the outcome on its board (``Behemoth.habits``); the
    operations layer reads it. Refused with the reason of :func:`learn_refusal`.
    """
    reason = learn_refusal(rules, state, valley, what, character_hex, lore, who=who)
    if reason is not None:
        raise IllegalAction(reason)
    if what == "habits":
        return replace(state, habits_learned=True), lore - rules.behemoths.habits_lore
    return replace(state, secret_learned=True), lore - rules.behemoths.secret_lore
