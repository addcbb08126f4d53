"""The valley's hex grid (Rulebook: Valley > Hexes): axial coordinates, edges, layout."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.rules.geometry import (
    DIRECTIONS,
    EDGE_NAMES,
    ID_EDGE,
    Axial,
    from_offset,
    hex_corners,
    opposite,
    pixel_bounds,
    pixel_centre,
    ring,
    to_offset,
)

coords = st.integers(min_value=-50, max_value=50)
axials = st.builds(Axial, coords, coords)
FAST = settings(max_examples=200, deadline=None)


@pytest.mark.parametrize(
    ("edge", "name", "neighbour"),
    [
        (0, "N", Axial(0, -1)),
        (1, "NE", Axial(1, -1)),
        (2, "SE", Axial(1, 0)),
        (3, "S", Axial(0, 1)),
        (4, "SW", Axial(-1, 1)),
        (5, "NW", Axial(-1, 0)),
    ],
)
def test_hexes_edges_are_numbered_clockwise_from_the_top(
    edge: int, name: str, neighbour: Axial
) -> None:
    assert EDGE_NAMES[edge] == name
    assert Axial(0, 0).neighbour(edge) == neighbour
    assert Axial(0, 0).edge_towards(neighbour) == edge
    assert neighbour.edge_towards(Axial(0, 0)) == opposite(edge)


def test_hexes_id_at_the_bottom_edge_means_flat_top() -> None:
    assert EDGE_NAMES[ID_EDGE] == "S"
    # the bottom edge is horizontal: its two corners share a y
    (_, y1), (_, y2) = hex_corners(Axial(0, 0))[ID_EDGE], hex_corners(Axial(0, 0))[ID_EDGE + 1]
    assert y1 == pytest.approx(y2)
    assert y1 > 0  # below the centre (y grows downward)


@pytest.mark.parametrize(
    ("a", "b", "distance"),
    [
        (Axial(0, 0), Axial(0, 0), 0),
        (Axial(0, 0), Axial(1, -1), 1),
        (Axial(0, 0), Axial(2, -1), 2),
        (Axial(0, 0), Axial(3, 0), 3),
        (Axial(-2, 1), Axial(1, 1), 3),
        (Axial(0, 0), Axial(2, 2), 4),
    ],
)
def test_distance_hand_computed(a: Axial, b: Axial, distance: int) -> None:
    assert a.distance(b) == distance


def test_edge_towards_a_hex_that_is_not_adjacent_is_none() -> None:
    assert Axial(0, 0).edge_towards(Axial(2, 0)) is None
    assert Axial(0, 0).edge_towards(Axial(0, 0)) is None


def test_pixel_centres_flat_top() -> None:
    assert pixel_centre(Axial(0, 0)) == (0.0, 0.0)
    assert pixel_centre(Axial(0, 1), 10) == pytest.approx((0.0, 10 * math.sqrt(3)))
    assert pixel_centre(Axial(1, 0), 10) == pytest.approx((15.0, 5 * math.sqrt(3)))
    assert pixel_centre(Axial(1, -1), 10) == pytest.approx((15.0, -5 * math.sqrt(3)))


def test_pixel_bounds() -> None:
    assert pixel_bounds([]) is None
    left, top, right, bottom = pixel_bounds([Axial(0, 0), Axial(1, 0)], 2) or (0, 0, 0, 0)
    assert (left, right) == pytest.approx((-2.0, 5.0))
    assert (top, bottom) == pytest.approx((-math.sqrt(3), 2 * math.sqrt(3)))


@pytest.mark.parametrize(
    ("hex", "offset"),
    [
        (Axial(0, 0), (0, 0)),
        (Axial(1, 0), (1, 0)),
        (Axial(1, -1), (1, -1)),
        (Axial(2, -1), (2, 0)),
        (Axial(-1, 0), (-1, -1)),
        (Axial(-1, 1), (-1, 0)),
    ],
)
def test_offset_grid_odd_columns_sit_lower(hex: Axial, offset: tuple[int, int]) -> None:
    assert to_offset(hex) == offset
    assert from_offset(*offset) == hex


def test_ring() -> None:
    assert list(ring(Axial(3, 3), 0)) == [Axial(3, 3)]
    assert sorted(ring(Axial(0, 0), 1)) == sorted(DIRECTIONS)
    two = list(ring(Axial(1, -1), 2))
    assert len(two) == len(set(two)) == 12
    assert all(h.distance(Axial(1, -1)) == 2 for h in two)


# --- properties ---------------------------------------------------------------------------


@FAST
@given(axials, axials)
def test_distance_is_symmetric(a: Axial, b: Axial) -> None:
    assert a.distance(b) == b.distance(a)
    assert (a.distance(b) == 0) == (a == b)


@FAST
@given(axials, axials, axials)
def test_distance_triangle_inequality(a: Axial, b: Axial, c: Axial) -> None:
    assert a.distance(c) <= a.distance(b) + b.distance(c)


@FAST
@given(axials)
def test_neighbours_are_at_distance_one(a: Axial) -> None:
    neighbours = a.neighbours()
    assert len(set(neighbours)) == 6
    for edge, n in enumerate(neighbours):
        assert a.distance(n) == 1
        assert a.is_adjacent(n)
        assert n.neighbour(opposite(edge)) == a
        centre, other = pixel_centre(a, 3), pixel_centre(n, 3)
        assert math.dist(centre, other) == pytest.approx(3 * math.sqrt(3))


@FAST
@given(axials)
def test_offset_round_trip(a: Axial) -> None:
    assert from_offset(*to_offset(a)) == a
