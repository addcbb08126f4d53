"""The valley's hex grid: axial coordinates, the six edges, distance and pixel layout.

Rulebook: Valley > Hexes ("each hex has an ID at the bottom edge"); Populating a Terrain
Tray (every tile is placed "with its ID number facing the same direction", so a tile is
never rotated and each of its edges always faces the same way).

Layout: **flat-top** hexes. A hex whose ID sits on its bottom edge has a flat edge at the
bottom, so the grid is flat-top: ``q`` counts columns to the east and ``r`` counts down a
column. In screen terms (``y`` grows downward, as in Qt)::

          edge 0 (N)
         ___________
   5 NW /           \\ 1 NE
       /             \\
       \\             /
   4 SW \\___________/ 2 SE
          edge 3 (S): the ID edge

Edges are numbered clockwise from the top; :data:`DIRECTIONS` ``[k]`` is the step to the
neighbour across edge ``k``, and the neighbour sees the same border as edge ``(k + 3) % 6``.

>>> Axial(0, 0).neighbour(1)
Axial(q=1, r=-1)
>>> Axial(0, 0).distance(Axial(2, -1))
2
>>> Axial(0, 0).edge_towards(Axial(0, 1))
3
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

EDGE_COUNT = 6
"""A hex has six edges, numbered 0 (top) to 5 clockwise."""

EDGE_NAMES = ("N", "NE", "SE", "S", "SW", "NW")
"""Compass name of each edge in the flat-top layout (``y`` downward)."""

ID_EDGE = 3
"""The edge the tile's printed ID faces: the bottom edge (Rulebook: Valley > Hexes)."""


@dataclass(frozen=True, order=True)
class Axial:
    """A hex position in axial coordinates (``q`` column, ``r`` row; ``s = -q - r``).

    Ordered (by ``q`` then ``r``) so lists of positions sort deterministically.
    """

    q: int
    """Column: grows to the east (right)."""
    r: int
    """Axial row: grows to the south (down) within a column."""

    @property
    def s(self) -> int:
        """The third cube coordinate, ``-q - r``."""
        return -self.q - self.r

    def __add__(self, other: Axial) -> Axial:
        return Axial(self.q + other.q, self.r + other.r)

    def __sub__(self, other: Axial) -> Axial:
        return Axial(self.q - other.q, self.r - other.r)

    def __str__(self) -> str:
        return f"({self.q}, {self.r})"

    def neighbour(self, edge: int) -> Axial:
        """The hex across ``edge`` (0-5, see :data:`EDGE_NAMES`)."""
        return self + DIRECTIONS[edge % EDGE_COUNT]

    def neighbours(self) -> tuple[Axial, ...]:
        """The six neighbours, in edge order 0-5."""
        return tuple(self + d for d in DIRECTIONS)

    def distance(self, other: Axial) -> int:
        """Number of steps between two hexes (0 for the same hex)."""
        d = self - other
        return max(abs(d.q), abs(d.r), abs(d.s))

    def is_adjacent(self, other: Axial) -> bool:
        """True if the two hexes share an edge."""
        return self.distance(other) == 1

    def edge_towards(self, other: Axial) -> int | None:
        """The edge of this hex shared with ``other``, or None if they are not adjacent."""
        try:
            return DIRECTIONS.index(other - self)
        except ValueError:
            return None


DIRECTIONS: tuple[Axial, ...] = (
    Axial(0, -1),  # 0 N
    Axial(1, -1),  # 1 NE
    Axial(1, 0),  # 2 SE
    Axial(0, 1),  # 3 S
    Axial(-1, 1),  # 4 SW
    Axial(-1, 0),  # 5 NW
)
"""Step to the neighbour across each edge 0-5 (flat-top, ``y`` downward)."""


def opposite(edge: int) -> int:
    """The edge a neighbour sees for the border this hex calls ``edge``.

    >>> opposite(0), opposite(4)
    (3, 1)
    """
    return (edge + 3) % EDGE_COUNT


SQRT3 = math.sqrt(3.0)


def pixel_centre(hex: Axial, size: float = 1.0) -> tuple[float, float]:
    """Centre of ``hex`` in pixels for flat-top hexes of circumradius ``size``.

    ``x`` grows right and ``y`` grows down (Qt's convention); ``Axial(0, 0)`` is at the
    origin. Neighbours' centres are ``size * sqrt(3)`` apart.

    >>> pixel_centre(Axial(0, 1))
    (0.0, 1.7320508075688772)
    """
    x = size * 1.5 * hex.q
    y = size * SQRT3 * (hex.r + hex.q / 2)
    return (x, y)


def hex_corners(hex: Axial, size: float = 1.0) -> tuple[tuple[float, float], ...]:
    """The six corners of ``hex`` in pixels; edge ``k`` runs from corner ``k`` to ``k + 1``.

    Corner 0 is the top-left corner, so edge 0 (the top) joins corners 0 and 1.
    """
    cx, cy = pixel_centre(hex, size)
    corners = []
    for k in range(EDGE_COUNT):
        angle = math.radians(240 + 60 * k)
        corners.append((cx + size * math.cos(angle), cy + size * math.sin(angle)))
    return tuple(corners)


def pixel_bounds(
    hexes: Iterable[Axial], size: float = 1.0
) -> tuple[float, float, float, float] | None:
    """``(left, top, right, bottom)`` of the hexes' outlines in pixels (None if none)."""
    xs: list[float] = []
    ys: list[float] = []
    for hex in hexes:
        cx, cy = pixel_centre(hex, size)
        xs += (cx - size, cx + size)
        ys += (cy - size * SQRT3 / 2, cy + size * SQRT3 / 2)
    if not xs:
        return None
    return (min(xs), min(ys), max(xs), max(ys))


def to_offset(hex: Axial) -> tuple[int, int]:
    """``(column, row)`` in "even-q" offset coordinates: odd columns sit half a hex lower.

    This is how the hexes read as a printed grid (the journal's Valley Map).

    >>> to_offset(Axial(1, 0)), to_offset(Axial(2, -1))
    ((1, 0), (2, 0))
    """
    return (hex.q, hex.r + (hex.q - (hex.q & 1)) // 2)


def from_offset(column: int, row: int) -> Axial:
    """Inverse of :func:`to_offset`. Public as the reference the geometry tests check
    :func:`to_offset` against (offset coordinates round-trip); the app only writes offsets.

    >>> from_offset(*to_offset(Axial(-3, 5)))
    Axial(q=-3, r=5)
    """
    return Axial(column, row - (column - (column & 1)) // 2)


def ring(centre: Axial, radius: int) -> Iterator[Axial]:
    """The hexes at exactly ``radius`` steps from ``centre`` (just ``centre`` for 0)."""
    if radius == 0:
        yield centre
        return
    hex = centre + Axial(DIRECTIONS[4].q * radius, DIRECTIONS[4].r * radius)
    for edge in range(EDGE_COUNT):
        for _ in range(radius):
            yield hex
            hex = hex.neighbour(edge)
