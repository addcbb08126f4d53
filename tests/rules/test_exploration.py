"""The valley (Rulebook: Valley; Set Up > Determine Starting Hex; Actions > Explore, Move;
Behemoths > Lair): trays, placement legality, regions, crossings and movement costs.

Positions used below (a first tray facing east at the origin)::

    O = (0, 0)   the tray's origin, the starting hex
    P = (1, -1)  O's NE neighbour (across O's edge 1, P's edge 4)
    Q = (1, 0)   O's SE neighbour (across O's edge 2, Q's edge 5); P is Q's N neighbour
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from types import MappingProxyType
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.content import Content, load_content
from companion.content.schema.rules import RulesConstants
from companion.content.schema.world import Feature, HexTile, Overlay
from companion.rules.errors import IllegalAction
from companion.rules.exploration import (
    DEFAULT_SECTIONS,
    TRIANGLE,
    Place,
    Placement,
    SectionLayout,
    Terrain,
    Tray,
    Valley,
    bounds,
    check_tray_placement,
    entry_hexes,
    first_tray,
    journal_grid,
    legal_tray_placements,
    move_cost,
    new_tray_regions,
    place_lair,
    place_overlay,
    place_tray,
    region_bag,
    reveal,
)
from companion.rules.exploration.explore import tray_placements, unused_tiles
from companion.rules.exploration.move import crossing_blockers
from companion.rules.geometry import Axial
from companion.rules.ids import HexId

O, P, Q = Axial(0, 0), Axial(1, -1), Axial(1, 0)  # noqa: E741
E = HexId


@cache
def sample() -> Content:
    return load_content("sample")


@dataclass(frozen=True)
class Catalogue:
    """A hand-made terrain: the sample pack's features and overlays, our own tiles."""

    hexes: Mapping[str, HexTile]
    features: Mapping[str, Feature] = field(default_factory=lambda: sample().features)
    overlays: Mapping[str, Overlay] = field(default_factory=lambda: sample().overlays)


def tile(id: str, a: str | None, b: str | None, c: str | None, **extra: Any) -> HexTile:
    data = {"id": id, "region": "r", "sections": {"a": a, "b": b, "c": c}, **extra}
    if a is b is c is None:
        data["sections"] = {"a": "plains", "b": None, "c": None}
    return HexTile.model_validate(data)


def three(o: HexTile, p: HexTile, q: HexTile) -> tuple[Catalogue, Valley]:
    """One explored east tray O, P, Q holding three hand-made tiles."""
    terrain = Catalogue(MappingProxyType({t.id: t for t in (o, p, q)}))
    valley = Valley(
        trays=(Tray(0, "r", O, "east"),),
        tiles={O: E(o.id), P: E(p.id), Q: E(q.id)},
        explored=frozenset({O, P, Q}),
    )
    return terrain, valley


def _obstructed(valley: Valley, terrain: Terrain, a: Place, b: Place, **kw: Any) -> bool:
    """Every path from ``a`` to adjacent ``b`` crosses a terrain feature (Rulebook:
    Actions > Move; Open Terrain Features): what move_cost charges the extra energy for."""
    return bool(crossing_blockers(valley, terrain, a, b, **kw))


def with_valley_limits(rules: RulesConstants, **limits: int) -> RulesConstants:
    return rules.model_copy(update={"valley": rules.valley.model_copy(update=limits)})


# --- Set Up > Determine Starting Hex and Place Characters ---------------------------------


def test_set_up_first_tray_starting_hex_face_up_and_two_random_face_down() -> None:
    valley = first_tray(sample(), "emberfen", [E("E04"), E("E07")])
    assert valley.trays == (Tray(0, "emberfen", O, "east"),)
    assert dict(valley.tiles) == {O: "E01", P: "E04", Q: "E07"}
    assert valley.explored == {O}
    assert valley.locate(E("E01")) == O


def test_set_up_first_tray_random_hexes_may_be_read_later() -> None:
    valley = first_tray(sample(), "thornspire", orientation="west", start_slot=1)
    cells = TRIANGLE.cells(O, "west")
    assert [valley.tiles[c] for c in cells] == [None, "T01", None]
    assert valley.explored == {cells[1]}


@pytest.mark.parametrize(
    ("others", "message"),
    [
        ([E("T02"), None], "T02 is from thornspire, not emberfen"),
        ([E("E01"), None], "E01 is a starting hex"),
        ([E("E03"), E("E03")], "the same hex cannot be drawn twice"),
        ([E("E03")], "the first tray holds the starting hex and 2 random hexes; got 1"),
        ([E("ZZ9"), None], "there is no hex ZZ9"),
    ],
)
def test_set_up_first_tray_refusals(others: list[HexId | None], message: str) -> None:
    with pytest.raises(IllegalAction, match=message):
        first_tray(sample(), "emberfen", others)


def test_set_up_first_tray_refuses_a_region_without_tiles() -> None:
    with pytest.raises(IllegalAction, match="0 starting hexes"):
        first_tray(sample(), "nowhere")


# --- Actions > Explore: placing a new tray ------------------------------------------------


@pytest.fixture
def start() -> Valley:
    return first_tray(sample(), "emberfen", [E("E04"), E("E07")])


@pytest.mark.parametrize(
    ("origin", "orientation", "touching"),
    [
        # cells (0,-1) (-1,-1) (-1,0): (0,-1) meets O and P, (-1,0) meets O
        (Axial(0, -1), "west", 3),
        # cells (-1,-1) (0,-2) (0,-1): (0,-1) meets O and P
        (Axial(-1, -1), "east", 2),
        # cells (0,1) (-1,1) (-1,2): (0,1) meets O and Q, (-1,1) meets O
        (Axial(0, 1), "west", 3),
        # cells (1,1) (0,1) (0,2): (1,1) meets Q, (0,1) meets O and Q
        (Axial(1, 1), "west", 3),
    ],
)
def test_explore_new_tray_touching_two_edges_including_current_hex_is_accepted(
    start: Valley, origin: Axial, orientation: str, touching: int, rules: RulesConstants
) -> None:
    placement = Placement(origin, orientation, "emberfen")
    check_tray_placement(rules, start, sample(), E("E01"), placement)
    assert placement in legal_tray_placements(rules, start, sample(), E("E01"))
    assert touching >= 2


@pytest.mark.parametrize(
    ("origin", "orientation", "message"),
    [
        # cells (-2,0) (-1,-1) (-1,0): only (-1,0) meets the tray, at O
        (Axial(-2, 0), "east", "it touches 1, 1 on Ash's hex"),
        # cells (2,-1) (3,-2) (3,-1): (2,-1) meets P and Q, none at O
        (Axial(2, -1), "east", "it touches 2, 0 on Ash's hex"),
        # far away
        (Axial(5, 5), "east", "it touches 0, 0 on Ash's hex"),
    ],
)
def test_explore_new_tray_must_touch_two_edges_including_current_hex(
    start: Valley, origin: Axial, orientation: str, message: str, rules: RulesConstants
) -> None:
    placement = Placement(origin, orientation, "emberfen")
    with pytest.raises(IllegalAction) as refused:
        check_tray_placement(rules, start, sample(), E("E01"), placement, who="Ash")
    assert str(refused.value) == (
        "the new tray must touch two edges of the tray Ash stands in, one of them on "
        f"Ash's hex; {message}"
    )
    assert placement not in legal_tray_placements(rules, start, sample(), E("E01"))


def test_explore_new_tray_may_not_overlap_a_tray(start: Valley, rules: RulesConstants) -> None:
    # cells (1,0) (0,0) (0,1): Q and O are taken
    placement = Placement(Axial(1, 0), "west", "emberfen")
    # Rulebook: Valley > Hexes: a face-down hex is named by where it lies, not its tile.
    with pytest.raises(IllegalAction, match="would cover E01, the unexplored hex "
                                            "south-east of E01, already in the valley"):
        check_tray_placement(rules, start, sample(), E("E01"), placement)


def test_explore_new_tray_from_a_hex_inside_the_tray_counts_only_that_hex(
    start: Valley, rules: RulesConstants
) -> None:
    # From P (E04): cells (0,-1) (-1,-1) (-1,0) meet P once and O twice: accepted.
    placement = Placement(Axial(0, -1), "west", "emberfen")
    check_tray_placement(rules, start, sample(), P, placement)
    # From Q (E07) the same tray does not touch Q: refused.
    with pytest.raises(IllegalAction, match="it touches 3, 0 on"):
        check_tray_placement(rules, start, sample(), Q, placement)


def test_explore_every_legal_placement_from_the_starting_hex(
    start: Valley, rules: RulesConstants
) -> None:
    # O's four free edges are N, S, SW and NW; hand-listed trays through them that touch
    # the first tray twice (E: origin + NE + SE; W: origin + NW + SW).
    expected = [
        (Axial(-2, 1), "east"),  # (-2,1) (-1,0) (-1,1): meets O twice
        (Axial(-1, -1), "east"),  # (-1,-1) (0,-2) (0,-1)
        (Axial(-1, 2), "east"),  # (-1,2) (0,1) (0,2)
        (Axial(0, -1), "west"),
        (Axial(0, 1), "west"),
        (Axial(1, -2), "west"),  # (1,-2) (0,-2) (0,-1): (0,-1) meets O and P
        (Axial(1, 1), "west"),
    ]
    found = legal_tray_placements(rules, start, sample(), E("E01"))
    assert [(p.origin, p.orientation) for p in found] == expected
    assert {p.region for p in found} == {"emberfen"}
    assert entry_hexes(start, found[0], E("E01")) == [Axial(-1, 0), Axial(-1, 1)]


def test_explore_new_tray_tiles_come_from_the_regions_bag(
    start: Valley, rules: RulesConstants
) -> None:
    placement = Placement(Axial(0, -1), "west", "emberfen")
    bag = region_bag(start, sample(), "emberfen")
    assert bag == ["E02", "E03", "E05", "E06", "E08", "E09", "E10"]
    valley = place_tray(rules, start, sample(), O, placement, [E("E02"), None, E("E10")])
    assert valley.trays[1] == Tray(1, "emberfen", Axial(0, -1), "west")
    assert [valley.tiles[c] for c in placement.cells()] == ["E02", None, "E10"]
    assert valley.explored == start.explored
    refusals: list[tuple[list[HexId | None], str]] = [
        ([E("E04"), None, None], "E04 is already in the valley"),
        ([E("T03"), None, None], "T03 is from thornspire"),
        ([None, None], "filled with 3 hexes; got 2"),
    ]
    for drawn, message in refusals:
        with pytest.raises(IllegalAction, match=message):
            place_tray(rules, start, sample(), O, placement, drawn)


def test_explore_reveal_flips_the_hex(start: Valley) -> None:
    valley = reveal(sample(), start, P)
    assert valley.explored == {O, P}
    with pytest.raises(IllegalAction, match="already explored"):
        reveal(sample(), valley, P)
    with pytest.raises(IllegalAction, match="is E07, not E09"):
        reveal(sample(), valley, Q, E("E09"))
    unread = first_tray(sample(), "emberfen")
    with pytest.raises(IllegalAction, match="say which hex was flipped"):
        reveal(sample(), unread, P)
    assert reveal(sample(), unread, P, E("E09")).tiles[P] == "E09"


# --- regions: Valley > Regions; Actions > Explore -----------------------------------------


def grow(
    rules: RulesConstants, valley: Valley, terrain: Any, character: Axial, region: str
) -> Valley:
    """Place the first legal tray of ``region`` from ``character``, tiles unread."""
    options = [
        p for p in legal_tray_placements(rules, valley, terrain, character) if p.region == region
    ]
    assert options, f"no {region} tray from {character}"
    return place_tray(rules, valley, terrain, character, options[0])


def test_regions_next_region_only_after_three_trays_of_the_first(rules: RulesConstants) -> None:
    valley = first_tray(sample(), "emberfen")
    assert new_tray_regions(rules, valley, sample(), O) == ["emberfen"]
    with pytest.raises(IllegalAction, match="emberfen has 1 of its 3 trays"):
        check_tray_placement(
            rules, valley, sample(), O, Placement(Axial(0, -1), "west", "thornspire")
        )
    valley = grow(rules, valley, sample(), O, "emberfen")
    assert new_tray_regions(rules, valley, sample(), O) == ["emberfen"]
    valley = grow(rules, valley, sample(), O, "emberfen")
    # 9 tiles placed, 1 unused: no more emberfen trays; thornspire may begin
    assert unused_tiles(valley, sample(), "emberfen") == 1
    assert new_tray_regions(rules, valley, sample(), O) == ["thornspire"]
    with pytest.raises(IllegalAction, match="emberfen has 1 unused tiles; a new tray needs"):
        check_tray_placement(
            rules, valley, sample(), O, replace_region(legal_geometry(valley, O)[0], "emberfen")
        )


def test_regions_new_region_pool_excludes_the_alternate_starting_hex(
    rules: RulesConstants,
) -> None:
    valley = first_tray(sample(), "emberfen")
    valley = grow(rules, valley, sample(), O, "emberfen")
    valley = grow(rules, valley, sample(), O, "emberfen")
    assert unused_tiles(valley, sample(), "thornspire") == 9
    assert "T01" not in region_bag(valley, sample(), "thornspire")
    placement = next(
        p for p in legal_tray_placements(rules, valley, sample(), O) if p.region == "thornspire"
    )
    with pytest.raises(IllegalAction, match="T01 is a starting hex"):
        place_tray(rules, valley, sample(), O, placement, [E("T01"), None, None])
    valley = place_tray(rules, valley, sample(), O, placement, [E("T02"), None, None])
    assert valley.trays[-1].region == "thornspire"
    # from the thornspire tray, new trays are thornspire
    entry = entry_hexes(valley, placement, O)[0]
    assert new_tray_regions(rules, valley, sample(), entry) == ["thornspire"]
    # from an emberfen tray: emberfen is spent and thornspire is not this tray's region
    ember = next(
        c
        for c in valley.cells()
        if valley.region_of(c) == "emberfen" and tray_placements(valley, c)
    )
    assert new_tray_regions(rules, valley, sample(), ember) == []
    assert legal_tray_placements(rules, valley, sample(), ember) == []
    with pytest.raises(IllegalAction, match="belongs to the region of the tray"):
        check_tray_placement(
            rules,
            valley,
            sample(),
            ember,
            replace_region(legal_geometry(valley, ember)[0], "thornspire"),
        )


def legal_geometry(valley: Valley, at: Axial) -> list[Placement]:
    found = tray_placements(valley, at)
    assert found
    return found


def replace_region(placement: Placement, region: str) -> Placement:
    return Placement(placement.origin, placement.orientation, region)


def big_region(count: int) -> Catalogue:
    tiles = [tile("S", "plains", None, None, starting=True)]
    tiles += [tile(f"X{i:02}", "forest", None, None) for i in range(count - 1)]
    return Catalogue(MappingProxyType({t.id: t for t in tiles}))


def test_regions_at_most_nine_tiles_per_region(rules: RulesConstants) -> None:
    terrain = big_region(13)  # 12 tiles in the pool: never short of unused tiles
    valley = first_tray(terrain, "r")
    valley = grow(rules, valley, terrain, O, "r")
    valley = grow(rules, valley, terrain, O, "r")
    assert unused_tiles(valley, terrain, "r") == 12 - 8
    assert new_tray_regions(rules, valley, terrain, O) == []
    with pytest.raises(IllegalAction, match="r has 9 tiles placed; a region holds at most 9"):
        check_tray_placement(
            rules, valley, terrain, O, replace_region(legal_geometry(valley, O)[0], "r")
        )


@pytest.mark.parametrize(("tiles", "trays_allowed"), [(10, 3), (8, 2), (6, 2), (5, 1)])
def test_regions_a_tray_needs_three_unused_tiles(
    rules: RulesConstants, tiles: int, trays_allowed: int
) -> None:
    # a region of N tiles: the first tray uses the start and 2 more; each new tray needs
    # 3 unused (10 -> 7 -> 4 -> 1; 8 -> 5 -> 2; 6 -> 3 -> 0; 5 -> 2)
    terrain = big_region(tiles)
    valley = first_tray(terrain, "r")
    while new_tray_regions(rules, valley, terrain, O):
        valley = grow(rules, valley, terrain, O, "r")
    assert len(valley.trays) == trays_allowed


def test_regions_limits_come_from_the_rules(rules: RulesConstants) -> None:
    terrain = big_region(13)
    strict = with_valley_limits(rules, max_tiles_per_region=6)
    valley = grow(strict, first_tray(terrain, "r"), terrain, O, "r")
    assert new_tray_regions(strict, valley, terrain, O) == []
    assert new_tray_regions(rules, valley, terrain, O) == ["r"]


# --- Actions > Move: obstructed paths; Open Terrain; Overlays; Behemoths > Lair -----------


@pytest.mark.parametrize(
    ("o", "p", "overlays", "lair", "obstructed"),
    [
        # the O/P border is O's edge 1 (section A) and P's edge 4 (section C)
        (("plains", None, None), (None, None, None), {}, None, False),
        (("forest", None, None), (None, None, None), {}, None, True),
        ((None, None, None), ("plains", None, "river"), {}, None, True),
        (("forest", None, None), (None, None, "river"), {}, None, True),
        (("plains", None, None), (None, None, "dried-flats"), {}, None, False),
        # a feature in a section away from the border does not obstruct
        ((None, "mountain", "cave"), ("lake", "chasm", None), {}, None, False),
        # an overlay hides the feature it covers
        (("forest", None, None), (None, None, None), {("O", "a"): "OP1"}, None, False),
        (("forest", None, None), (None, None, "lake"), {("O", "a"): "OP1"}, None, True),
        (
            ("forest", None, None),
            (None, None, "lake"),
            {("O", "a"): "OP1", ("P", "c"): "OP2"},
            None,
            False,
        ),
        # ... but a lair counts as a feature, even over open terrain or an empty section
        (("plains", None, None), (None, None, None), {("O", "a"): "rimeback-lair"}, None, True),
        (("plains", None, None), (None, None, None), {("P", "c"): "OP3"}, ("P", "c"), True),
        # a lair in another section does not
        (("plains", None, None), (None, None, None), {("O", "b"): "rimeback-lair"}, None, False),
    ],
)
def test_move_obstructed_path_crosses_a_feature_on_one_or_both_sides(
    o: tuple[str | None, ...],
    p: tuple[str | None, ...],
    overlays: dict[tuple[str, str], str],
    lair: tuple[str, str] | None,
    obstructed: bool,
) -> None:
    terrain, valley = three(tile("O", *o), tile("P", *p), tile("Q", "plains", None, None))
    valley = Valley(
        trays=valley.trays,
        tiles=valley.tiles,
        explored=valley.explored,
        overlays=overlays,  # type: ignore[arg-type]
        lair=lair,  # type: ignore[arg-type]
    )
    assert _obstructed(valley, terrain, O, P) is obstructed
    assert _obstructed(valley, terrain, P, O) is obstructed


def test_move_each_border_touches_the_sections_of_its_edges() -> None:
    # O/Q: O's edge 2 (B), Q's edge 5 (C); P/Q: P's edge 3 (B), Q's edge 0 (A)
    terrain, valley = three(
        tile("O", None, "forest", None),
        tile("P", "plains", None, None),
        tile("Q", "river", None, None),
    )
    assert crossing_blockers(valley, terrain, O, Q) == ["forest in section B of O"]
    assert crossing_blockers(valley, terrain, P, Q) == ["river in section A of Q"]
    assert crossing_blockers(valley, terrain, O, P) == []


def test_move_all_paths_when_a_border_touches_two_sections() -> None:
    # a layout where edge 1 lies in sections A and B: a path through either may be clear
    layout = SectionLayout(
        {"a": frozenset({0, 1}), "b": frozenset({1, 2, 3}), "c": frozenset({4, 5})}
    )
    terrain, valley = three(
        tile("O", "forest", None, None),
        tile("P", "plains", None, None),
        tile("Q", "plains", None, None),
    )
    assert not _obstructed(valley, terrain, O, P, layout=layout)
    assert _obstructed(valley, terrain, O, P, layout=DEFAULT_SECTIONS)
    terrain, valley = three(
        tile("O", "forest", "river", None),
        tile("P", "plains", None, None),
        tile("Q", "plains", None, None),
    )
    assert _obstructed(valley, terrain, O, P, layout=layout)


def test_section_layout_must_cover_every_edge() -> None:
    with pytest.raises(ValueError, match="every edge"):
        SectionLayout({"a": frozenset({0}), "b": frozenset({1}), "c": frozenset({2})})


@pytest.mark.parametrize(
    ("o", "explored", "energy", "obstructed", "explores", "reason"),
    [
        (("plains", None, None), True, 1, False, False, "Move to P: 1 energy"),
        (
            ("forest", None, None),
            True,
            2,
            True,
            False,
            "Move to P on an obstructed path (forest in section A of O): 2 energy",
        ),
        (("forest", None, None), False, 2, False, True,
         "Explore the unexplored hex north of Q: 2 energy"),
        (("plains", None, None), False, 2, False, True,
         "Explore the unexplored hex north of Q: 2 energy"),
    ],
)
def test_move_and_explore_costs(
    rules: RulesConstants,
    o: tuple[str | None, ...],
    explored: bool,
    energy: int,
    obstructed: bool,
    explores: bool,
    reason: str,
) -> None:
    terrain, valley = three(
        tile("O", *o), tile("P", None, "lake", None), tile("Q", "plains", None, None)
    )
    if not explored:
        valley = Valley(trays=valley.trays, tiles=valley.tiles, explored=frozenset({O, Q}))
    cost = move_cost(rules, valley, terrain, E("O"), P)
    assert (cost.energy, cost.obstructed, cost.explores, cost.reason) == (
        energy,
        obstructed,
        explores,
        reason,
    )


def test_move_costs_come_from_the_rules(rules: RulesConstants) -> None:
    terrain, valley = three(
        tile("O", "forest", None, None),
        tile("P", "plains", None, None),
        tile("Q", "plains", None, None),
    )
    dear = rules.model_copy(
        update={
            "action_costs": rules.action_costs.model_copy(
                update={"move": 3, "move_obstructed_extra": 4}
            )
        }
    )
    assert move_cost(dear, valley, terrain, O, P).energy == 7
    assert move_cost(dear, valley, terrain, Q, P).energy == 3


@pytest.mark.parametrize(
    ("a", "b", "message"),
    [
        (O, Axial(2, 0), "there is no hex at \\(2, 0\\) in the valley"),
        (O, O, "Ash is already in O"),
        (E("O"), E("nope"), "hex nope is not in the valley"),
    ],
)
def test_move_refusals(rules: RulesConstants, a: Any, b: Any, message: str) -> None:
    terrain, valley = three(
        tile("O", "plains", None, None),
        tile("P", "plains", None, None),
        tile("Q", "plains", None, None),
    )
    with pytest.raises(IllegalAction, match=message):
        move_cost(rules, valley, terrain, a, b, who="Ash")


def test_move_only_to_an_adjacent_hex(rules: RulesConstants, start: Valley) -> None:
    valley = grow(rules, start, sample(), O, "emberfen")
    far = max(valley.cells(), key=lambda c: c.distance(O))
    with pytest.raises(IllegalAction, match="is not next to E01; Ash moves one hex at a time"):
        move_cost(rules, valley, sample(), O, far, who="Ash")


def test_crossing_into_a_face_down_unread_hex_is_unknown(rules: RulesConstants) -> None:
    valley = first_tray(sample(), "emberfen")
    with pytest.raises(IllegalAction, match="face down"):
        _obstructed(valley, sample(), O, P)
    assert move_cost(rules, valley, sample(), O, P).explores


# --- overlays -----------------------------------------------------------------------------


def test_overlays_and_the_lair(start: Valley) -> None:
    valley = place_overlay(start, O, "b", "OP1")
    assert valley.overlays == {("E01", "b"): "OP1"}
    with pytest.raises(IllegalAction, match="already covered"):
        place_overlay(valley, E("E01"), "b", "OP2")
    with pytest.raises(IllegalAction, match="is unexplored"):
        place_overlay(valley, P, "a", "OP2")
    with pytest.raises(IllegalAction, match="a hex with no overlays; E01 has one"):
        place_lair(valley, O, "a", "rimeback-lair")
    valley = place_lair(start, O, "c", "rimeback-lair")
    assert valley.lair == ("E01", "c")
    with pytest.raises(IllegalAction, match="already in E01"):
        place_lair(valley, O, "a", "rimeback-lair")


# --- the journal's Valley Map -------------------------------------------------------------


def test_journal_valley_map_grid(start: Valley, rules: RulesConstants) -> None:
    assert journal_grid(Valley()) == [] and bounds(Valley()) is None
    assert journal_grid(start) == [[None, "E04"], ["E01", "E07"]]
    valley = place_tray(
        rules,
        start,
        sample(),
        O,
        Placement(Axial(0, -1), "west", "emberfen"),
        [E("E02"), E("E03"), None],
    )
    # cells (0,-1)=E02, (-1,-1)=E03 at offset (-1,-2), (-1,0)=None at offset (-1,-1);
    # the grid starts at the even column -2
    box = bounds(valley)
    assert box is not None and (box.first_column, box.first_row) == (-2, -2)
    assert journal_grid(valley) == [
        [None, "E03", None, None],
        [None, None, "E02", "E04"],
        [None, None, "E01", "E07"],
    ]


def test_valley_refuses_inconsistent_state() -> None:
    with pytest.raises(ValueError, match="exactly its trays' slots"):
        Valley(trays=(Tray(0, "r", O),), tiles={O: E("A")})
    with pytest.raises(ValueError, match="explored hex is face up"):
        Valley(
            trays=(Tray(0, "r", O),), tiles={O: E("A"), P: None, Q: None}, explored=frozenset({P})
        )
    with pytest.raises(ValueError, match="overlap"):
        Valley(
            trays=(Tray(0, "r", O), Tray(1, "r", Axial(1, 0), "west")),
            tiles={c: None for c in (O, P, Q, Axial(0, 1))},
        )


# --- properties ---------------------------------------------------------------------------


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 20), st.integers(0, 40)), min_size=1, max_size=6))
def test_every_offered_placement_is_legal_and_every_legal_one_is_offered(
    steps: list[tuple[int, int]],
) -> None:
    rules = sample().rules
    terrain = sample()
    valley = first_tray(terrain, "emberfen")
    for who, pick in steps:
        character = valley.cells()[who % len(valley.cells())]
        offered = legal_tray_placements(rules, valley, terrain, character)
        taken = set(valley.tiles)
        for placement in offered:
            check_tray_placement(rules, valley, terrain, character, placement)
            assert not taken & set(placement.cells())
        # completeness: every tray near the character the checker accepts is offered
        accepted = []
        for dq in range(-3, 4):
            for dr in range(-3, 4):
                for orientation in TRIANGLE.orientations:
                    for region in ("emberfen", "thornspire"):
                        p = Placement(character + Axial(dq, dr), orientation, region)
                        try:
                            check_tray_placement(rules, valley, terrain, character, p)
                        except IllegalAction:
                            continue
                        accepted.append(p)
        assert sorted(accepted, key=lambda p: (p.region, p)) == sorted(
            offered, key=lambda p: (p.region, p)
        )
        if offered:
            valley = place_tray(rules, valley, terrain, character, offered[pick % len(offered)])
    assert len(valley.tiles) == 3 * len(valley.trays)


@st.composite
def grown_valleys(draw: st.DrawFn) -> Valley:
    """A valley grown by legal moves from a first tray: trays, reads, flips, overlays."""
    terrain, rules = sample(), sample().rules
    valley = first_tray(terrain, "emberfen", [E("E02"), None])
    for _ in range(draw(st.integers(0, 5))):
        character = draw(st.sampled_from(valley.cells()))
        offered = legal_tray_placements(rules, valley, terrain, character)
        if not offered:
            continue
        placement = draw(st.sampled_from(offered))
        bag = region_bag(valley, terrain, placement.region)
        picks = draw(st.lists(st.sampled_from(bag), min_size=3, max_size=3, unique=True))
        reads = [t if draw(st.booleans()) else None for t in picks]
        valley = place_tray(rules, valley, terrain, character, placement, reads)
    for cell in valley.cells():
        if cell not in valley.explored and draw(st.booleans()):
            known = valley.tiles[cell]
            if known is None:
                bag = region_bag(valley, terrain, valley.region_of(cell))
                known = draw(st.sampled_from(bag))
            valley = reveal(terrain, valley, cell, known)
    for cell in sorted(valley.explored):
        for section in ("a", "b", "c"):
            overlay = draw(st.sampled_from([None, None, None, "OP1", "rimeback-lair"]))
            if overlay is not None:
                valley = place_overlay(valley, cell, section, overlay)
    return valley


@settings(max_examples=40, deadline=None)
@given(grown_valleys())
def test_crossings_are_symmetric_and_costs_consistent(valley: Valley) -> None:
    rules, terrain = sample().rules, sample()
    for a in sorted(valley.explored):
        for b in a.neighbours():
            if b not in valley:
                continue
            cost = move_cost(rules, valley, terrain, a, b)
            assert cost.explores is (b not in valley.explored)
            if cost.explores:
                assert cost.energy == rules.action_costs.explore and not cost.obstructed
                continue
            obstructed = _obstructed(valley, terrain, a, b)
            assert obstructed is _obstructed(valley, terrain, b, a)
            assert cost.obstructed is obstructed
            extra = rules.action_costs.move_obstructed_extra if obstructed else 0
            assert cost.energy == rules.action_costs.move + extra
