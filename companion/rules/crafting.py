"""Crafting codes (Rulebook: Processing & Crafting > Crafting Items; Using the Codex >
Crafting Entries).

Two material tokens are laid side by side, horizontally, each turned any of four ways.
The touching edges (the left token's right edge and the right token's left edge) must
carry pips of the same colour and shape. Reading left to right "the number of icons in
each vertical row" gives four digits: the left token's left edge, its right edge, the
right token's left edge, the right token's right edge (a bare edge reads 0). The colour
is the leftmost row's. The null pip (0) cannot begin a code, nor can a bare edge.

The rulebook's example, a large and a small token giving Red 1410, is the sample pack's
flint beside sinew, both unprocessed and unturned:

>>> from companion.content.schema.base import Edge, PipColour
>>> from companion.content.schema.world import Pip
>>> def face(name, **edges):
...     pips = {e: Pip.model_validate(edges[e.value]) if e.value in edges else None
...             for e in Edge}
...     return MaterialFace(name, False, tuple(pips[e] for e in EDGE_ORDER))
>>> flint = face("flint", top="yellow square 2", right="blue circle 4", left="red diamond 1")
>>> sinew = face("sinew", top="purple triangle 3", right="red triangle 0",
...              bottom="silver square 2", left="blue circle 1")
>>> str(combine(flint, 0, sinew, 0))
'R1410'
>>> CraftingCode.parse("Red 1410") == CraftingCode(PipColour.RED, "1410")
True

Readings: orientation is free (4 rotations each, either token on the left) but a token
is never flipped (its other side is its other state). A successful craft consumes both
tokens (they become the item); a Codex dead end consumes them too unless the caller
says otherwise (``consume_on_dead_end``; D20, the least favourable reading, since the
rulebook does not say); a code the pack does not know crafts nothing and consumes
nothing. The energy cost is the Craft action's, not this module's.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from companion.content.schema.base import Edge, PipColour
from companion.content.schema.world import CraftingEntry, Material, Pip
from companion.rules.errors import IllegalAction
from companion.rules.procedure import Outcome

EDGE_ORDER: tuple[Edge, Edge, Edge, Edge] = (Edge.TOP, Edge.RIGHT, Edge.BOTTOM, Edge.LEFT)
"""The edges clockwise from the top: the order of :attr:`MaterialFace.edges`."""

ROTATIONS: tuple[int, ...] = (0, 1, 2, 3)
"""Quarter turns clockwise a token can be laid at."""

COLOUR_LETTERS: dict[PipColour, str] = {
    PipColour.RED: "R",
    PipColour.BLUE: "B",
    PipColour.YELLOW: "Y",
    PipColour.PURPLE: "P",
    PipColour.SILVER: "S",
}
"""The one-letter colour of a code, in the Codex's order (Red, Blue, Yellow, Purple,
Silver)."""

_COLOUR_ORDER = {colour: i for i, colour in enumerate(COLOUR_LETTERS)}
_BY_LETTER = {letter: colour for colour, letter in COLOUR_LETTERS.items()}
_CODE_TEXT = re.compile(r"^\s*([A-Za-z]+)[\s-]*([0-9]{4})\s*$")


@dataclass(frozen=True)
class CraftingCode:
    """A crafting code: a colour and four digits ("R1410", read "Red 1410")."""

    colour: PipColour
    """The colour of the leftmost row of pips: the Codex section."""
    digits: str
    """Four digits, the pip counts left to right; never beginning with 0."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "colour", PipColour(self.colour))
        if len(self.digits) != 4 or not self.digits.isdigit():
            raise IllegalAction(f"a crafting code has four digits, not {self.digits!r}")
        if self.digits[0] == "0":
            raise IllegalAction(f"the null pip cannot begin a code ({self.digits})")

    @classmethod
    def parse(cls, text: str) -> CraftingCode:
        """``"R1410"``, ``"r1410"``, ``"Red 1410"`` or ``"red-1410"`` as a code.

        >>> CraftingCode.parse("S2400").label
        'Silver 2400'
        """
        match = _CODE_TEXT.match(text)
        if not match:
            raise IllegalAction(
                f"a crafting code is a colour and four digits, e.g. R1410; not {text!r}"
            )
        word, digits = match[1], match[2]
        colour = _BY_LETTER.get(word.upper()) if len(word) == 1 else None
        if colour is None:
            try:
                colour = PipColour(word.lower())
            except ValueError:
                raise IllegalAction(
                    f"{word!r} is not a pip colour "
                    "(R, B, Y, P, S or red, blue, yellow, purple, silver)"
                ) from None
        return cls(colour, digits)

    def __str__(self) -> str:
        return f"{COLOUR_LETTERS[self.colour]}{self.digits}"

    @property
    def label(self) -> str:
        """The code as the Codex reads it: "Red 1410"."""
        return f"{self.colour.value.capitalize()} {self.digits}"

    @property
    def sort_key(self) -> tuple[int, str]:
        """The Codex's order: by colour section, then ascending."""
        return (_COLOUR_ORDER[self.colour], self.digits)


@dataclass(frozen=True)
class MaterialFace:
    """The side of a material token that is up: its four edges' pips."""

    material: str
    """The material id."""
    processed: bool
    """Which side is up."""
    edges: tuple[Pip | None, Pip | None, Pip | None, Pip | None]
    """The pips on the top, right, bottom and left edges, unturned (None: bare edge)."""
    large: bool = False
    """A large token (large and small tokens combine alike)."""

    @classmethod
    def of(cls, material: Material, *, processed: bool = False) -> MaterialFace:
        """The face of a pack material showing (unprocessed by default)."""
        side = material.processed if processed else material.unprocessed
        pips = tuple(side.pip(edge) for edge in EDGE_ORDER)
        return cls(
            material.id, processed, (pips[0], pips[1], pips[2], pips[3]), material.size == "large"
        )

    def edge(self, edge: Edge, rotation: int = 0) -> Pip | None:
        """The pip showing on ``edge`` once the token is turned ``rotation`` quarter turns
        clockwise (the edge that was ``rotation`` places counterclockwise of it)."""
        if rotation not in ROTATIONS:
            raise IllegalAction(f"a token is turned 0 to 3 quarter turns, not {rotation}")
        return self.edges[(EDGE_ORDER.index(edge) - rotation) % 4]

    def __str__(self) -> str:
        return f"processed {self.material}" if self.processed else self.material


def _pip_text(pip: Pip | None) -> str:
    return "a bare edge" if pip is None else f"{pip.colour.value} {pip.shape.value} {pip.count}"


def combine(
    left: MaterialFace, left_rotation: int, right: MaterialFace, right_rotation: int
) -> CraftingCode:
    """The code read from ``left`` beside ``right``, each turned as given.

    Refused (IllegalAction) when the touching edges do not carry pips of the same colour
    and shape, or when the leftmost row is the null pip or a bare edge.
    """
    outer_left = left.edge(Edge.LEFT, left_rotation)
    inner_left = left.edge(Edge.RIGHT, left_rotation)
    inner_right = right.edge(Edge.LEFT, right_rotation)
    outer_right = right.edge(Edge.RIGHT, right_rotation)
    if (
        inner_left is None
        or inner_right is None
        or (inner_left.colour, inner_left.shape) != (inner_right.colour, inner_right.shape)
    ):
        raise IllegalAction(
            f"{left} and {right} do not combine this way: the touching edges show "
            f"{_pip_text(inner_left)} and {_pip_text(inner_right)}"
        )
    if outer_left is None or outer_left.count == 0:
        raise IllegalAction(
            f"{left} laid this way begins the code with {_pip_text(outer_left)}; "
            "the null pip cannot begin a code"
        )
    digits = "".join(
        str(pip.count if pip is not None else 0)
        for pip in (outer_left, inner_left, inner_right, outer_right)
    )
    return CraftingCode(outer_left.colour, digits)


@dataclass(frozen=True)
class Orientation:
    """Two tokens laid side by side: which is on the left and how each is turned."""

    left: MaterialFace
    left_rotation: int
    right: MaterialFace
    right_rotation: int

    def code(self) -> CraftingCode:
        """The code this orientation reads (IllegalAction if it is not a legal one)."""
        return combine(self.left, self.left_rotation, self.right, self.right_rotation)

    def __str__(self) -> str:
        return (
            f"{self.left} turned {90 * self.left_rotation}° beside "
            f"{self.right} turned {90 * self.right_rotation}°"
        )


def all_codes(a: MaterialFace, b: MaterialFace) -> list[tuple[Orientation, CraftingCode]]:
    """Every legal orientation of ``a`` and ``b`` (both orders, 4 x 4 rotations) and its
    code, in a stable order (``a`` on the left first)."""
    orders = [(a, b)] if a == b else [(a, b), (b, a)]
    found = []
    for left, right in orders:
        for lr in ROTATIONS:
            for rr in ROTATIONS:
                orientation = Orientation(left, lr, right, rr)
                try:
                    found.append((orientation, orientation.code()))
                except IllegalAction:
                    continue
    return found


class DiscoveryKind(StrEnum):
    """What is known of a reachable code."""

    ITEM = "item"
    """A known recipe: the code makes an item."""
    DEAD_END = "dead_end"
    """A known dead end."""
    UNTRIED = "untried"
    """Nothing is known of it yet."""


@dataclass(frozen=True)
class Discovery:
    """A code the given materials can make, what is known of it, and how to lay it."""

    code: CraftingCode
    kind: DiscoveryKind
    item: str | None
    """The item id (or, for an imported entry without its card, the item's name)."""
    orientations: tuple[Orientation, ...]
    """Every way the materials read this code."""


Lookup = Callable[[CraftingCode], CraftingEntry | None]
"""What is known of a code: the entry (a recipe or a dead end), or None when untried.
The operations layer passes the society's code records, or the Codex
(``content.crafting.lookup(code.colour, code.digits).entry``) where spoilers are fine."""


def explore(materials: Sequence[MaterialFace], lookup: Lookup) -> list[Discovery]:
    """Every code any two of ``materials`` can make, classified by ``lookup``, in the
    Codex's order (the crafting explorer). ``materials`` are the tokens at hand; a
    material listed once is not paired with itself."""
    by_code: dict[CraftingCode, list[Orientation]] = {}
    for i, a in enumerate(materials):
        for b in materials[i + 1 :]:
            for orientation, code in all_codes(a, b):
                places = by_code.setdefault(code, [])
                if orientation not in places:
                    places.append(orientation)
    discoveries = []
    for code in sorted(by_code, key=lambda c: c.sort_key):
        entry = lookup(code)
        if entry is None:
            kind, item = DiscoveryKind.UNTRIED, None
        elif entry.dead_end:
            kind, item = DiscoveryKind.DEAD_END, None
        else:
            kind, item = DiscoveryKind.ITEM, str(entry.item) if entry.item else entry.item_name
        discoveries.append(Discovery(code, kind, item, tuple(by_code[code])))
    return discoveries


def craft(
    character: str,
    orientation: Orientation,
    entry: CraftingEntry | None,
    *,
    consume_on_dead_end: bool = True,
    item_names: Mapping[str, str] | None = None,
) -> Outcome:
    """Craft: lay two tokens as ``orientation`` and read the Codex ``entry`` for its code.

    ``item_names`` (item id -> its card's name) words the log: "Kara crafts Stone Knife".

    ``entry`` is the Codex's entry for ``orientation.code()`` (None: the pack has none).
    The outcome's ``items`` names the item gained (the operations layer fits it into a
    slot with :func:`companion.rules.inventory.receive_item`); ``extra`` holds ``code``,
    ``result`` ("item", "dead_end" or "unknown"), ``consumed`` (the two tokens used up:
    ``{"material", "processed"}``) and, for an imported entry without an item card,
    ``item_name``.
    """
    code = orientation.code()
    if entry is not None and (PipColour(entry.colour), entry.code) != (code.colour, code.digits):
        raise IllegalAction(f"the Codex entry {entry.colour} {entry.code} is not {code.label}")
    tokens = [
        {"material": face.material, "processed": face.processed}
        for face in (orientation.left, orientation.right)
    ]
    laid = f"{character} lays {orientation}: {code.label}."
    if entry is None:
        return Outcome(
            log=(laid, "The Codex has no entry for it: nothing is crafted."),
            extra={"code": str(code), "result": "unknown", "consumed": []},
        )
    if entry.dead_end:
        consumed = tokens if consume_on_dead_end else []
        text = entry.text or "A dead end."
        spent = " Both materials are used up." if consumed else ""
        return Outcome(
            log=(laid, f"{text}{spent}"),
            extra={"code": str(code), "result": "dead_end", "consumed": consumed},
        )
    extra: dict[str, object] = {"code": str(code), "result": "item", "consumed": tokens}
    if entry.item is not None:
        made = str(entry.item)
        items: tuple[str, ...] = (made,)
    else:
        made = entry.item_name
        items = ()
        extra["item_name"] = entry.item_name
    lines = [laid, f"{character} crafts {(item_names or {}).get(made, made)}."]
    if entry.text:
        lines.append(entry.text)
    return Outcome(items=items, log=tuple(lines), extra=extra)
