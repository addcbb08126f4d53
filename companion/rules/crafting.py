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
tokens (they become the item). What a dead end does with them comes from its entry
(the community's dead ends return them); an entry that does not say follows the rules
file (``consume_on_dead_end``, D20, the least favourable reading). A code the pack has
no entry for crafts nothing, and the rules file says whether the tokens are used up
(``consume_on_no_entry``). The energy cost is the Craft action's, not this module's.

Pips may record no shape (the community's transcription of the box's tokens has
none): two edges then join on colour alone. Counts run 0-9. A bare edge reads 0 and,
having no colour to match, can only be the last row (the right token's right edge).

Reading D23: a pip of a colour the rules file lists as ``lead_only_colours`` (the sample
pack: orange) may only be the leftmost row, the colour of the code; laid in the second,
third or fourth row it makes the laying illegal. The rulebook (Crafting Items) is silent
on orange; the web Journal records it as a game rule revealed in play. Callers pass the
list as ``lead_only``; without it no colour is restricted.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Collection, Container, Iterable, Mapping, Sequence
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

COLOUR_LETTERS: dict[PipColour, str] = {colour: colour.letter for colour in PipColour}
"""The colour's letter(s) in a code, as the community writes codes ("Y1111", "Gn2301"):
G is grey, Gn green. In the default order of the Codex's sections."""

_COLOUR_ORDER = {colour: i for i, colour in enumerate(COLOUR_LETTERS)}
_BY_LETTER = {letter.upper(): colour for colour, letter in COLOUR_LETTERS.items()}
_CODE_TEXT = re.compile(r"^\s*([A-Za-z]+)[\s:-]*([0-9]{4})\s*$")


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
        """``"R1410"``, ``"r1410"``, ``"Red 1410"``, ``"red-1410"``, ``"Gn2301"`` (green)
        or ``"G1111"`` (grey) as a code.

        >>> CraftingCode.parse("S2400").label
        'Silver 2400'
        >>> str(CraftingCode.parse("Green 2301")), CraftingCode.parse("gn2301").label
        ('Gn2301', 'Green 2301')
        """
        match = _CODE_TEXT.match(text)
        if not match:
            raise IllegalAction(
                f"a crafting code is a colour and four digits, e.g. R1410; not {text!r}"
            )
        word, digits = match[1], match[2]
        colour = _BY_LETTER.get(word.upper())
        if colour is None:
            try:
                colour = PipColour(word.lower())
            except ValueError:
                raise IllegalAction(
                    f"{word!r} is not a pip colour ("
                    + ", ".join(f"{letter} {c.value}" for c, letter in COLOUR_LETTERS.items())
                    + ")"
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
        """The Codex's default order: by colour section, then ascending."""
        return (_COLOUR_ORDER[self.colour], self.digits)

    def sort_key_in(self, colours: Sequence[PipColour]) -> tuple[int, str]:
        """The order of a pack whose rules list its ``colours`` (``pip_colours``)."""
        order = colours.index(self.colour) if self.colour in colours else len(colours)
        return (order, self.digits)


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
    return "a bare edge" if pip is None else str(pip)


def combine(
    left: MaterialFace, left_rotation: int, right: MaterialFace, right_rotation: int,
    *, lead_only: Collection[PipColour] = (),
) -> CraftingCode:
    """The code read from ``left`` beside ``right``, each turned as given.

    Refused (IllegalAction) when the touching edges do not carry pips of the same colour
    (and shape, where both record one), or when the leftmost row is the null pip or a
    bare edge. A bare edge reads 0 and so can only be last (the right token's right).
    A pip whose colour is in ``lead_only`` (D23: the rules file's ``lead_only_colours``)
    may only be the leftmost row: in any other row it is refused too.
    """
    outer_left = left.edge(Edge.LEFT, left_rotation)
    inner_left = left.edge(Edge.RIGHT, left_rotation)
    inner_right = right.edge(Edge.LEFT, right_rotation)
    outer_right = right.edge(Edge.RIGHT, right_rotation)
    if inner_left is None or inner_right is None or not inner_left.joins(inner_right):
        raise IllegalAction(
            f"{left} and {right} do not combine this way: the touching edges show "
            f"{_pip_text(inner_left)} and {_pip_text(inner_right)}"
        )
    if outer_left is None or outer_left.count == 0:
        raise IllegalAction(
            f"{left} laid this way begins the code with {_pip_text(outer_left)}; "
            "the null pip cannot begin a code"
        )
    for row, pip in ((2, inner_left), (3, inner_right), (4, outer_right)):
        if pip is not None and pip.colour in lead_only:
            raise IllegalAction(
                f"{left} and {right} do not combine this way: {_pip_text(pip)} would be "
                f"row {row} of the code, and {pip.colour.value} pips can only begin a code"
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

    def code(self, lead_only: Collection[PipColour] = ()) -> CraftingCode:
        """The code this orientation reads (IllegalAction if it is not a legal one);
        ``lead_only``: the colours that may only begin a code (D23)."""
        return combine(self.left, self.left_rotation, self.right, self.right_rotation,
                       lead_only=lead_only)

    def __str__(self) -> str:
        return self.described({})

    def described(self, names: Mapping[str, str]) -> str:
        """How to lay it, with the materials' names where ``names`` (id -> name) has
        them: "processed Slate turned 90° beside Moss turned 0°"."""
        def face(f: MaterialFace) -> str:
            name = names.get(f.material, f.material)
            return f"processed {name}" if f.processed else name

        return (
            f"{face(self.left)} turned {90 * self.left_rotation}° beside "
            f"{face(self.right)} turned {90 * self.right_rotation}°"
        )


def all_codes(
    a: MaterialFace, b: MaterialFace, lead_only: Collection[PipColour] = ()
) -> list[tuple[Orientation, CraftingCode]]:
    """Every legal orientation of ``a`` and ``b`` (both orders, 4 x 4 rotations) and its
    code, in a stable order (``a`` on the left first). ``lead_only``: the colours that
    may only begin a code (D23)."""
    orders = [(a, b)] if a == b else [(a, b), (b, a)]
    found = []
    for left, right in orders:
        for lr in ROTATIONS:
            for rr in ROTATIONS:
                orientation = Orientation(left, lr, right, rr)
                try:
                    found.append((orientation, orientation.code(lead_only)))
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
    NO_ENTRY = "no_entry"
    """Tried, and the Codex has no entry for it (Rulebook: Using the Codex > Crafting
    Entries): nothing to gain by trying it again with this Codex."""


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


def pairs_at_hand(materials: Sequence[MaterialFace]) -> list[tuple[MaterialFace, MaterialFace]]:
    """The pairs of tokens that can be laid from ``materials`` (the tokens at hand, one
    entry per token): each two different faces once, and a face with itself where two
    such tokens are held.

    >>> a, b = (MaterialFace(m, False, (None, None, None, None)) for m in "ab")
    >>> [(x.material, y.material) for x, y in pairs_at_hand([a, b, a])]
    [('a', 'a'), ('a', 'b')]
    """
    held = Counter(materials)
    faces = list(held)
    return [
        (a, b)
        for i, a in enumerate(faces)
        for b in faces[i:]
        if a != b or held[a] >= 2
    ]


def explore(materials: Sequence[MaterialFace], lookup: Lookup,
            lead_only: Collection[PipColour] = ()) -> list[Discovery]:
    """Every code any two of ``materials`` can make, classified by ``lookup``, in the
    Codex's order (the crafting explorer). ``materials`` are the tokens at hand, one
    entry per token: a material is paired with itself only where two tokens are held."""
    return explore_pairs(pairs_at_hand(materials), lookup, lead_only=lead_only)


def explore_pairs(
    pairs: Iterable[tuple[MaterialFace, MaterialFace]],
    lookup: Lookup,
    colours: Sequence[PipColour] = tuple(COLOUR_LETTERS),
    no_entry: Container[str] = frozenset(),
    lead_only: Collection[PipColour] = (),
) -> list[Discovery]:
    """Every code the given pairs of faces make (each pair in both orders, every
    rotation), classified by ``lookup``, in the Codex's order of ``colours``. A pair
    may be a face with itself (two tokens of one material). A code ``lookup`` does not
    know but that is in ``no_entry`` ("R1441") was tried and the Codex had no entry."""
    by_code: dict[CraftingCode, list[Orientation]] = {}
    for a, b in pairs:
        for orientation, code in all_codes(a, b, lead_only):
            places = by_code.setdefault(code, [])
            if orientation not in places:
                places.append(orientation)
    discoveries = []
    for code in sorted(by_code, key=lambda c: c.sort_key_in(colours)):
        entry = lookup(code)
        if entry is None:
            tried = str(code) in no_entry
            kind = DiscoveryKind.NO_ENTRY if tried else DiscoveryKind.UNTRIED
            item = None
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
    consume_on_no_entry: bool = False,
    item_names: Mapping[str, str] | None = None,
    material_names: Mapping[str, str] | None = None,
    lead_only: Collection[PipColour] = (),
) -> Outcome:
    """Craft: lay two tokens as ``orientation`` and read the Codex ``entry`` for its code.

    ``item_names`` (item id -> its card's name) words the log: "Kara crafts Stone Knife";
    ``material_names`` (material id -> name) likewise: "Kara lays Flint turned 0° …".

    ``entry`` is the Codex's entry for ``orientation.code()`` (None: the pack has none).
    What a dead end does with the tokens comes from its entry
    (``CraftingEntry.dead_end_materials``), else ``consume_on_dead_end``; a code without
    an entry uses them up only when ``consume_on_no_entry`` (both from the rules file).
    The outcome's ``items`` names the item gained (the operations layer fits it into a
    slot with :func:`companion.rules.inventory.receive_item`); ``extra`` holds ``code``,
    ``result`` ("item", "dead_end" or "unknown"), ``consumed`` (the two tokens used up:
    ``{"material", "processed"}``) and, for an imported entry without an item card,
    ``item_name`` (and ``item_cards``, the card ids its text names).
    """
    code = orientation.code(lead_only)
    if entry is not None and (PipColour(entry.colour), entry.code) != (code.colour, code.digits):
        raise IllegalAction(f"the Codex entry {entry.colour} {entry.code} is not {code.label}")
    tokens = [
        {"material": face.material, "processed": face.processed}
        for face in (orientation.left, orientation.right)
    ]
    laid = f"{character} lays {orientation.described(material_names or {})}: {code.label}."
    if entry is None:
        consumed = tokens if consume_on_no_entry else []
        spent = " Both materials are used up." if consumed else \
            " The materials go back to the inventory."
        return Outcome(
            log=(laid, f"The Codex has no entry for it: nothing is crafted.{spent}"),
            extra={"code": str(code), "result": "unknown", "consumed": consumed},
        )
    if entry.dead_end:
        consumed = tokens if entry.uses_up_materials(consume_on_dead_end) else []
        text = entry.text or "A dead end."
        spent = " Both materials are used up." if consumed else \
            " The materials go back to the inventory."
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
        if entry.item_cards:
            extra["item_cards"] = list(entry.item_cards)
            made += f" (item card {', '.join(entry.item_cards)})"
    lines = [laid, f"{character} crafts {(item_names or {}).get(made, made)}."]
    if entry.text:
        lines.append(entry.text)
    return Outcome(items=items, log=tuple(lines), extra=extra)
