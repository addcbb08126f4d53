"""The box's material tokens as the community transcribes them (Rulebook: Processing &
Crafting > Crafting Items): pip counts of 5 and 6, grey, green and orange pips, no pip
shape, bare edges. Such tokens load as a pack and read the same codes as the community
crafting explorer's rule, which is re-stated here independently as the oracle:

- a token's marks are [left, right, top, bottom]; turning it a quarter turn clockwise
  brings the bottom edge to the left and the top edge to the right, so its four
  (left, right) pairs are (L, R), (B, T), (R, L), (T, B), those with a bare left edge
  left out;
- A (left) beside B (right) combine when A's right edge and B's left edge carry pips of
  one colour; the code's colour is A's left edge's; its digits are A.left, A.right,
  B.left, B.right; a bare edge (the null pip) reads 0 and can only come last.

The fixture ``tests/fixtures/community/materials.json`` has the community file's shape
with invented values.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.cli import main
from companion.content import load_pack_dir
from companion.content.schema.base import Edge, PipColour
from companion.content.schema.world import MaterialSide
from companion.rules.crafting import (
    EDGE_ORDER,
    CraftingCode,
    MaterialFace,
    all_codes,
    pairs_at_hand,
)

FIXTURE = Path(__file__).parents[1] / "fixtures" / "community" / "materials.json"
COLOURS = ["Blue", "Red", "Yellow", "Purple", "Grey", "Green", "Orange", "Silver"]
Marks = dict[str, str | None] | None


def community_marks() -> dict[str, Marks]:
    data: dict[str, Any] = json.loads(FIXTURE.read_text(encoding="utf-8"))
    return {name: entry["marks"] for name, entry in data.items() if name != "_readme"}


def community_rule(marks_a: Marks, marks_b: Marks) -> set[tuple[str, str]]:
    """The community explorer's codes for A on the left of B: {(Colour, digits)}."""

    def orientations(marks: Marks) -> list[tuple[str, int, str | None, int]]:
        if not marks:
            return []
        parsed = {edge: (text.split(" ")[0], int(text.split(" ")[1])) if text else None
                  for edge, text in marks.items()}
        turns = [("left", "right"), ("bottom", "top"), ("right", "left"), ("top", "bottom")]
        found = []
        for outer, inner in turns:
            left, right = parsed[outer], parsed[inner]
            if left is None:
                continue
            found.append((left[0], left[1], right[0] if right else None,
                          right[1] if right else 0))
        return found

    codes = set()
    for a_colour, a_left, a_inner, a_right in orientations(marks_a):
        for b_inner, b_left, _b_outer, b_right in orientations(marks_b):
            if a_inner is None or b_inner is None or a_inner != b_inner:
                continue
            codes.add((a_colour, f"{a_left}{a_right}{b_left}{b_right}"))
    return codes


def face(name: str, marks: Marks) -> MaterialFace:
    """Our face for a community side: the marks read as our pips (no shape)."""
    side = MaterialSide.from_marks(marks)
    a, b, c, d = (side.pip(edge) for edge in EDGE_ORDER)
    return MaterialFace(name, False, (a, b, c, d))


def our_codes_with_a_left(a: MaterialFace, b: MaterialFace) -> set[tuple[str, str]]:
    return {(code.colour.value.title(), code.digits) for orientation, code in all_codes(a, b)
            if orientation.left == a}


def test_community_token_data_shape_loads_as_a_pack(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    """Pip counts 5 and 6, grey/green/orange, no shape, 'plant', bare sides: all load."""
    data = json.loads(FIXTURE.read_text(encoding="utf-8"))
    materials = []
    for name, entry in data.items():
        if name == "_readme" or entry["base"] is not None:
            continue
        processed = data[entry["processed"]]["marks"]
        materials.append({
            "id": name.lower(), "name": name, "category": entry["cat"], "size": "small",
            "unprocessed": {"edges": entry["marks"] or {}},
            "processed": {"edges": processed or {}},
        })
    pack = tmp_path / "box"
    pack.mkdir()
    (pack / "pack.yaml").write_text("id: box\nname: The box's tokens\nversion: '1'\n"
                                    "extends: sample\n", encoding="utf-8")
    (pack / "materials.yaml").write_text(yaml.safe_dump({"materials": materials}),
                                         encoding="utf-8")
    assert main(["content", "check", str(pack)]) == 0, capsys.readouterr()
    content = load_pack_dir(pack)
    quartz = content.materials["quartz"]
    assert quartz.category.value == "mineral"
    assert content.materials["lichen"].category.value == "vegetable"  # "plant"
    pip = quartz.unprocessed.pip("left")  # type: ignore[arg-type]
    assert pip is not None and (pip.colour, pip.count, pip.shape) == (PipColour.GREY, 5, None)
    assert quartz.unprocessed.pip("bottom") is None  # type: ignore[arg-type]
    assert all(p is None for p in content.materials["lichen"].unprocessed.edges.values())


MARKS = community_marks()
PAIRS = [(a, b) for a in MARKS for b in MARKS]


@pytest.mark.parametrize(("a", "b"), PAIRS, ids=[f"{a}|{b}" for a, b in PAIRS])
def test_codes_match_the_community_explorer(a: str, b: str) -> None:
    """Rulebook: Crafting Items: every ordered pair (a material with itself too) reads
    exactly the codes the community's rule reads."""
    assert our_codes_with_a_left(face(a, MARKS[a]), face(b, MARKS[b])) == \
        community_rule(MARKS[a], MARKS[b])


def test_community_fixture_reads_fives_sixes_and_new_colours() -> None:
    """Read by hand from the fixture (Rulebook: Crafting Items)."""
    split = face("Quartz (split)", MARKS["Quartz (split)"])  # L Red 6, R Grey 6
    quartz = face("Quartz", MARKS["Quartz"])  # L Grey 5, R Red 6, T Yellow 5
    lichen = face("Lichen (dried)", MARKS["Lichen (dried)"])  # L Green 1, R Red 5, T Grey 6
    # split unturned beside quartz unturned: Grey 6 touches Grey 5 -> Red 6656
    assert "R6656" in {str(c) for _, c in all_codes(split, quartz)}
    # lichen turned 270° shows Grey 6 on its left and its bare bottom on its right: the
    # bare edge reads 0, last
    assert "R6660" in {str(c) for _, c in all_codes(split, lichen)}
    # two lichens: (Green 1, Red 5) beside (Red 5, Green 1), and the other way round;
    # the turn with a bare left edge never leads
    assert {str(c) for _, c in all_codes(lichen, lichen)} == {"Gn1551", "R5115"}


def test_community_code_notation_parses_and_prints() -> None:
    assert str(CraftingCode.parse("Yellow 1111")) == "Y1111"
    assert CraftingCode.parse("Gn2301") == CraftingCode(PipColour.GREEN, "2301")
    assert CraftingCode.parse("G2301").colour is PipColour.GREY
    assert CraftingCode.parse("Gray 2301").colour is PipColour.GREY
    assert CraftingCode.parse("o5650").label == "Orange 5650"
    assert [str(CraftingCode.parse(f"{c} 1234")) for c in COLOURS] == [
        "B1234", "R1234", "Y1234", "P1234", "G1234", "Gn1234", "O1234", "S1234"]


def test_a_material_pairs_with_itself_only_when_two_are_held() -> None:
    quartz = face("Quartz", MARKS["Quartz"])
    split = face("Quartz (split)", MARKS["Quartz (split)"])
    assert pairs_at_hand([quartz, split]) == [(quartz, split)]
    assert pairs_at_hand([quartz, split, quartz]) == [(quartz, quartz), (quartz, split)]


mark = st.one_of(st.none(), st.tuples(st.sampled_from(COLOURS), st.integers(1, 9)).map(
    lambda p: f"{p[0]} {p[1]}"))
marks = st.fixed_dictionaries({"left": mark, "right": mark, "top": mark, "bottom": mark})


@settings(max_examples=150, deadline=None)
@given(marks, marks)
def test_any_community_tokens_read_as_the_community_reads_them(a: Marks, b: Marks) -> None:
    """Invariant: for any two tokens in the community's shape, our reading of A on the
    left of B is the community explorer's."""
    assert our_codes_with_a_left(face("a", a), face("b", b)) == community_rule(a, b)


def test_marks_in_the_web_apps_list_order_read_the_same() -> None:
    """The web app keeps marks as [left, right, top, bottom] internally."""
    as_list = MaterialSide.from_marks(["Grey 5", "Red 6", "Yellow 5", None])
    assert as_list == MaterialSide.from_marks(MARKS["Quartz"])
    assert as_list.pip(Edge.BOTTOM) is None and str(as_list.pip(Edge.TOP)) == "yellow 5"
    assert MaterialSide.from_marks(None) == MaterialSide.from_marks(MARKS["Lichen"])
