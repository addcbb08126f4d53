"""Crafting codes (Rulebook: Processing & Crafting > Crafting Items; Using the Codex >
Crafting Entries), on the sample pack's materials. Codes are read by hand from
content/sample/materials.yaml (rotations are quarter turns clockwise)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.content import Content
from companion.content.schema.base import Edge, PipColour
from companion.content.schema.world import CraftingEntry
from companion.rules.crafting import (
    CraftingCode,
    DiscoveryKind,
    Lookup,
    MaterialFace,
    Orientation,
    all_codes,
    combine,
    craft,
    explore,
)
from companion.rules.errors import IllegalAction


def face(content: Content, material: str, processed: bool = False) -> MaterialFace:
    return MaterialFace.of(content.materials[material], processed=processed)


def codex(content: Content) -> Lookup:
    """The sample Codex as a lookup (the operations layer may pass the society's records)."""
    return lambda code: content.crafting.lookup(code.colour, code.digits).entry


# --- codes as text --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "colour", "digits", "short"),
    [
        ("R1410", PipColour.RED, "1410", "R1410"),
        ("r1410", PipColour.RED, "1410", "R1410"),
        ("Red 1410", PipColour.RED, "1410", "R1410"),
        ("blue-1020", PipColour.BLUE, "1020", "B1020"),
        ("Y4101", PipColour.YELLOW, "4101", "Y4101"),
        ("P1140", PipColour.PURPLE, "1140", "P1140"),
        (" S2400 ", PipColour.SILVER, "2400", "S2400"),
    ],
)
def test_crafting_entries_code_parse_and_str(
    text: str, colour: PipColour, digits: str, short: str
) -> None:
    code = CraftingCode.parse(text)
    assert (code.colour, code.digits, str(code)) == (colour, digits, short)
    assert CraftingCode.parse(str(code)) == code
    assert CraftingCode.parse(code.label) == code


@pytest.mark.parametrize(
    "text", ["R0141", "X1234", "R141", "Red 14100", "1410", "Teal 1410", "Gx1410"])
def test_crafting_entries_code_parse_refuses(text: str) -> None:
    with pytest.raises(IllegalAction):
        CraftingCode.parse(text)


def test_crafting_entries_codex_order() -> None:
    codes = [CraftingCode.parse(t) for t in ["S1111", "B2000", "R4000", "R1000", "Y1000"]]
    assert [str(c) for c in sorted(codes, key=lambda c: c.sort_key)] == [
        "R1000",
        "R4000",
        "B2000",
        "Y1000",
        "S1111",
    ]


# --- turning a token ------------------------------------------------------------------


def test_crafting_items_rotation_turns_clockwise(content: Content) -> None:
    # Flint unprocessed: top yellow square 2, right blue circle 4, bottom bare,
    # left red diamond 1. A quarter turn clockwise brings the top to the right.
    flint = face(content, "flint")
    shown = [(flint.edge(Edge.LEFT, r), flint.edge(Edge.RIGHT, r)) for r in range(4)]
    text = [
        (f"{a.colour} {a.count}" if a else None, f"{b.colour} {b.count}" if b else None)
        for a, b in shown
    ]
    assert text == [
        ("red 1", "blue 4"),
        (None, "yellow 2"),
        ("blue 4", "red 1"),
        ("yellow 2", None),
    ]
    with pytest.raises(IllegalAction):
        flint.edge(Edge.LEFT, 4)


# --- combining two tokens -------------------------------------------------------------


def test_crafting_items_red_1410_rulebook_example(content: Content) -> None:
    # A large and a small token: flint's left red diamond 1 and right blue circle 4,
    # sinew's left blue circle 1 and right red triangle 0 (the null pip, last).
    flint, sinew = face(content, "flint"), face(content, "sinew")
    assert flint.large and not sinew.large
    assert str(combine(flint, 0, sinew, 0)) == "R1410"
    # Blue circle is the only colour and shape both show, so it is the only way.
    assert [(str(o), str(c)) for o, c in all_codes(flint, sinew)] == [
        ("flint turned 0° beside sinew turned 0°", "R1410")
    ]
    assert set(all_codes(sinew, flint)) == set(all_codes(flint, sinew))


def test_crafting_items_reed_and_shell_both_orders(content: Content) -> None:
    # Reed: right red diamond 1, left yellow square 4. Shell: right red diamond 0,
    # left blue circle 1, top and bottom bare. Only red diamond is shared.
    reed, shell = face(content, "reed"), face(content, "shell")
    assert [
        (o.left.material, o.left_rotation, o.right_rotation, str(c))
        for o, c in all_codes(reed, shell)
    ] == [
        ("reed", 0, 2, "Y4101"),  # reed | shell turned over: 4 1 | 0 1
        ("shell", 0, 2, "B1014"),  # shell | reed turned over: 1 0 | 1 4
    ]


def test_crafting_items_bare_outer_edge_reads_zero(content: Content) -> None:
    # Processed bone: right purple circle 4, left silver circle 2. Clay turned 270°:
    # its top (purple circle 0) shows left, its bare bottom shows right.
    bone, clay = face(content, "bone", processed=True), face(content, "clay")
    assert str(combine(bone, 0, clay, 3)) == "S2400"


@pytest.mark.parametrize(
    ("left", "lr", "right", "rr", "message"),
    [
        ("flint", 1, "sinew", 0, "touching edges show yellow square 2 and blue circle 1"),
        ("flint", 0, "reed", 0, "touching edges show blue circle 4 and yellow square 4"),
        ("shell", 1, "reed", 0, "touching edges show a bare edge"),  # shell's bare top
        ("sinew", 2, "flint", 2, "null pip cannot begin"),  # red triangle 0 first
        ("flint", 1, "reed", 0, "begins the code with a bare edge"),
    ],
)
def test_crafting_items_refused_pairs(
    content: Content, left: str, lr: int, right: str, rr: int, message: str
) -> None:
    with pytest.raises(IllegalAction, match=message):
        combine(face(content, left), lr, face(content, right), rr)


def test_crafting_items_same_material_twice_counts_each_orientation_once(content: Content) -> None:
    pitch = face(content, "pitch")
    orientations = [o for o, _ in all_codes(pitch, pitch)]
    assert len(orientations) == len(set(orientations))


FACES = st.tuples(
    st.sampled_from(["flint", "sinew", "bone", "reed", "shell", "clay", "pitch", "gourd"]),
    st.booleans(),
)


@settings(max_examples=80, deadline=None)
@given(a=FACES, b=FACES, lr=st.integers(0, 3), rr=st.integers(0, 3))
def test_crafting_items_combine_reads_the_four_rows(
    content: Content, a: tuple[str, bool], b: tuple[str, bool], lr: int, rr: int
) -> None:
    left, right = face(content, *a), face(content, *b)
    try:
        code = combine(left, lr, right, rr)
    except IllegalAction:
        assert all(o != Orientation(left, lr, right, rr) for o, _ in all_codes(left, right))
        return
    rows = [
        left.edge(Edge.LEFT, lr),
        left.edge(Edge.RIGHT, lr),
        right.edge(Edge.LEFT, rr),
        right.edge(Edge.RIGHT, rr),
    ]
    assert code.digits == "".join(str(p.count if p else 0) for p in rows)
    assert rows[0] is not None and code.colour == rows[0].colour
    assert (Orientation(left, lr, right, rr), code) in all_codes(left, right)


def test_crafting_entries_every_sample_entry_is_reachable(content: Content) -> None:
    faces = [
        MaterialFace.of(m, processed=p) for m in content.materials.values() for p in (False, True)
    ]
    found = explore(faces * 2, codex(content))  # two of each: Grey 5656 is slate with slate
    known = {str(d.code): d.kind for d in found if d.kind is not DiscoveryKind.UNTRIED}
    assert len(known) == len(content.crafting) > 0


# --- the explorer and the craft -------------------------------------------------------


def test_crafting_explorer_classifies_codes(content: Content) -> None:
    bag = [face(content, m) for m in ("flint", "sinew", "reed", "shell")]
    found = {str(d.code): d for d in explore(bag, codex(content))}
    assert found["R1410"].kind is DiscoveryKind.ITEM and found["R1410"].item == "stone-knife"
    # flint beside sinew and flint beside shell both read Red 1410
    assert {o.right.material for o in found["R1410"].orientations} == {"sinew", "shell"}
    assert found["Y4101"].kind is DiscoveryKind.ITEM and found["Y4101"].item == "bone-needle"
    assert found["B1014"].kind is DiscoveryKind.UNTRIED and found["B1014"].item is None
    codes = [CraftingCode.parse(c) for c in found]
    assert codes == sorted(codes, key=lambda c: c.sort_key)


def test_crafting_explorer_dead_end(content: Content) -> None:
    bag = [face(content, "starmetal", processed=True), face(content, "clay", processed=True)]
    found = {str(d.code): d for d in explore(bag, codex(content))}
    assert found["R2224"].kind is DiscoveryKind.DEAD_END


def test_crafting_explorer_with_the_societys_records(content: Content) -> None:
    # The explorer classifies by whatever it is given: here, what the society has tried.
    tried = {"R1410": CraftingEntry(colour=PipColour.RED, code="1410", dead_end=True)}
    bag = [face(content, "flint"), face(content, "sinew")]
    found = explore(bag, lambda code: tried.get(str(code)))
    assert [(str(d.code), d.kind) for d in found] == [("R1410", DiscoveryKind.DEAD_END)]


def test_crafting_items_craft_an_item_consumes_both(content: Content) -> None:
    laid = Orientation(face(content, "flint"), 0, face(content, "sinew"), 0)
    out = craft("Ash", laid, codex(content)(laid.code()))
    assert out.items == ("stone-knife",)
    assert out.extra["result"] == "item" and out.extra["code"] == "R1410"
    assert out.extra["consumed"] == [
        {"material": "flint", "processed": False},
        {"material": "sinew", "processed": False},
    ]


def test_crafting_items_dead_end_consumes_by_default(content: Content) -> None:
    laid = Orientation(face(content, "starmetal", True), 0, face(content, "clay", True), 1)
    entry = codex(content)(laid.code())
    assert str(laid.code()) == "R2224" and entry is not None and entry.dead_end
    out = craft("Ash", laid, entry)
    assert out.items == () and out.extra["result"] == "dead_end"
    assert len(out.extra["consumed"]) == 2
    assert craft("Ash", laid, entry, consume_on_dead_end=False).extra["consumed"] == []


def test_crafting_items_unknown_code_crafts_and_consumes_nothing(content: Content) -> None:
    laid = Orientation(face(content, "shell"), 0, face(content, "reed"), 2)
    assert str(laid.code()) == "B1014"
    out = craft("Ash", laid, codex(content)(laid.code()))
    assert (out.items, out.extra["result"], out.extra["consumed"]) == ((), "unknown", [])


def test_crafting_entries_a_dead_end_says_what_happens_to_the_materials(
        content: Content) -> None:
    """Orange 3621 (processed moss turned 270° beside processed slate turned 270°:
    orange 3 | green 6 touches green 2 | grey 1) is a dead end whose entry returns the
    materials, whatever the rules file's default for dead ends."""
    laid = Orientation(face(content, "moss", True), 3, face(content, "slate", True), 3)
    entry = codex(content)(laid.code())
    assert str(laid.code()) == "O3621" and entry is not None
    assert entry.dead_end_materials == "returned"
    for default in (True, False):
        out = craft("Ash", laid, entry, consume_on_dead_end=default)
        assert (out.extra["result"], out.extra["consumed"]) == ("dead_end", [])
        assert "go back to the inventory" in out.log[-1]
    used_up = entry.model_copy(update={"dead_end_materials": "used up"})
    assert len(craft("Ash", laid, used_up, consume_on_dead_end=False).extra["consumed"]) == 2
    with pytest.raises(ValueError, match="only a dead end"):
        CraftingEntry(colour="red", code="1410", item_name="Knife", dead_end_materials="returned")


def test_crafting_items_a_code_without_an_entry_follows_the_rules_file(
        content: Content) -> None:
    laid = Orientation(face(content, "shell"), 0, face(content, "reed"), 2)
    assert craft("Ash", laid, None).extra["consumed"] == []
    assert len(craft("Ash", laid, None, consume_on_no_entry=True).extra["consumed"]) == 2


def test_crafting_items_an_imported_entry_names_its_item_card(content: Content) -> None:
    laid = Orientation(face(content, "flint"), 0, face(content, "sinew"), 0)
    entry = CraftingEntry(colour="red", code="1410", item_name="Stone Knife",
                          item_cards=("IT29",), verified=False)
    out = craft("Ash", laid, entry)
    assert out.extra["item_cards"] == ["IT29"] and "Stone Knife (item card IT29)" in out.log[1]


def test_crafting_items_craft_refuses_a_wrong_entry_or_orientation(content: Content) -> None:
    laid = Orientation(face(content, "flint"), 0, face(content, "sinew"), 0)
    other = CraftingEntry(colour=PipColour.BLUE, code="1020", dead_end=True)
    with pytest.raises(IllegalAction, match="not Red 1410"):
        craft("Ash", laid, other)
    with pytest.raises(IllegalAction):
        craft("Ash", Orientation(face(content, "flint"), 1, face(content, "sinew"), 0), None)


def test_crafting_items_imported_entry_without_card(content: Content) -> None:
    laid = Orientation(face(content, "flint"), 0, face(content, "sinew"), 0)
    entry = CraftingEntry(
        colour=PipColour.RED, code="1410", item_name="Flint Knife", verified=False
    )
    out = craft("Ash", laid, entry)
    assert out.items == () and out.extra["item_name"] == "Flint Knife"
