"""Orange pips (Rulebook: Processing & Crafting > Crafting Items, reading D23 in
content/rules/rules.yaml): a pip of a colour the rules file lists in
``crafting.lead_only_colours`` may only begin a code; in the second, third or fourth
row it makes the laying illegal. Expected codes are read by hand from the edges written
in each case (edges are top, right, bottom, left; rotations are quarter turns clockwise,
so turned 3 the top edge is on the left and the bottom edge on the right)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.content import Content
from companion.content.schema.base import PipColour
from companion.content.schema.rules import Crafting
from companion.content.schema.world import Pip
from companion.rules.crafting import MaterialFace, all_codes, combine
from companion.rules.errors import IllegalAction

ORANGE = (PipColour.ORANGE,)
FIXTURES = Path(__file__).parent.parent / "fixtures" / "web-journal"


def token(name: str, top: str | None = None, right: str | None = None,
          bottom: str | None = None, left: str | None = None) -> MaterialFace:
    edges = tuple(None if e is None else Pip.model_validate(e)
                  for e in (top, right, bottom, left))
    return MaterialFace(name, False, (edges[0], edges[1], edges[2], edges[3]))


def journal_token(name: str, marks: list[str | None] | None) -> MaterialFace:
    """A web Journal material: its marks are [left, right, top, bottom] ("Blue 2")."""
    left, right, top, bottom = (m.lower() if m else None for m in (marks or [None] * 4))
    return token(name, top=top, right=right, bottom=bottom, left=left)


@pytest.mark.parametrize(
    ("left", "right", "without_rule", "with_rule"),
    [
        # orange begins the code: legal either way
        (token("a", right="blue 2", left="orange 1"), token("b", left="blue 3"),
         "O1230", "O1230"),
        # orange touching orange: rows 2 and 3
        (token("a", right="orange 2", left="blue 1"),
         token("b", right="red 4", left="orange 3"), "B1234", None),
        # orange as the last row (the right token's right edge)
        (token("a", right="red 2", left="blue 1"),
         token("b", right="orange 4", left="red 3"), "B1234", None),
        # orange begins and ends the code: row 4 still forbids it
        (token("a", right="red 2", left="orange 1"),
         token("b", right="orange 4", left="red 3"), "O1234", None),
        # orange on top edges is not read
        (token("a", top="orange 9", right="red 2", left="blue 1"),
         token("b", top="orange 5", right="yellow 4", left="red 3"), "B1234", "B1234"),
        # other colours are untouched
        (token("a", right="grey 2", left="green 1"),
         token("b", right="silver 4", left="grey 3"), "Gn1234", "Gn1234"),
    ],
)
def test_crafting_items_orange_pip_only_begins_a_code(
    left: MaterialFace, right: MaterialFace, without_rule: str, with_rule: str | None
) -> None:
    assert str(combine(left, 0, right, 0)) == without_rule
    if with_rule is None:
        with pytest.raises(IllegalAction, match="orange pips can only begin a code"):
            combine(left, 0, right, 0, lead_only=ORANGE)
    else:
        assert str(combine(left, 0, right, 0, lead_only=ORANGE)) == with_rule


def test_crafting_items_orange_self_pair_the_journals_example() -> None:
    """The Journal's worked example (its docs/CHANGELOG.md item 11): a token with
    orange 1 on one side and blue 2 on the other, top and bottom bare, laid beside
    another of itself. Unrestricted: O1221 (orange | blue touching blue | orange) and
    B2112 (blue | orange touching orange | blue); under D23 both put orange in a later
    row, so nothing is legal."""
    shard = token("shard", right="blue 2", left="orange 1")
    assert {str(c) for _, c in all_codes(shard, shard)} == {"O1221", "B2112"}
    assert all_codes(shard, shard, ORANGE) == []


def test_crafting_items_orange_material_leads_but_does_not_follow() -> None:
    """The orange token leads a blue-left partner: orange 1 | blue 2 touching blue 2 |
    red 3, O1223. The partner leads it only turned 2 (red 3 | blue 2) beside the shard
    turned 2 (blue 2 | orange 1): R3221, orange in row 4, so D23 forbids it."""
    shard = token("shard", right="blue 2", left="orange 1")
    partner = token("partner", right="red 3", left="blue 2")
    unrestricted = {str(c) for _, c in all_codes(shard, partner)}
    assert unrestricted == {"O1223", "R3221"}
    assert {str(c) for _, c in all_codes(shard, partner, ORANGE)} == {"O1223"}


def test_crafting_items_sample_pack_follows_d23(content: Content) -> None:
    """The sample pack lists orange as lead-only; processed moss (orange 3 on top, green 6 at the
    bottom) turned 3 leads processed slate turned 3 (green 2 | grey 1): O3621. Processed
    slate has orange on both its left and right edges, so it begins an orange code only
    with orange in row 2: never legal."""
    assert content.rules.crafting.lead_only_colours == ORANGE
    moss = MaterialFace.of(content.materials["moss"], processed=True)
    slate = MaterialFace.of(content.materials["slate"], processed=True)
    assert str(combine(moss, 3, slate, 3, lead_only=ORANGE)) == "O3621"
    plain = MaterialFace.of(content.materials["slate"])
    with pytest.raises(IllegalAction, match="row 2"):
        combine(slate, 0, plain, 3, lead_only=ORANGE)  # orange 5 | orange 6: O5650 before


def test_rules_file_without_lead_only_colours_restricts_no_colour() -> None:
    """A rules file that does not list ``lead_only_colours`` keeps the rulebook's plain
    reading: any colour may stand in any row."""
    assert Crafting(consume_on_dead_end=True, consume_on_no_entry=False).lead_only_colours \
        == ()


def test_crafting_items_orange_over_the_journals_own_materials() -> None:
    """The materials the Journal itself wrote into the v5 fixture (its custom material)
    carry no orange pip, so D23 changes none of their codes; an orange custom material
    (as the Journal's CHANGELOG describes: orange on one side, the other axis bare)
    makes codes only by leading."""
    data = json.loads((FIXTURES / "v5-8aae632-played.json").read_text(encoding="utf-8"))
    faces = [journal_token(m["name"], m.get("marks")) for m in data["customMaterials"]]
    faces.append(journal_token("Bone", ["Blue 2", "Yellow 2", "Yellow 3", "Red 2"]))
    for a in faces:
        for b in faces:
            assert all_codes(a, b) == all_codes(a, b, ORANGE)
    trophy = journal_token("Shimmering Moss", ["Orange 1", "Yellow 5", None, None])
    bone = faces[-1]
    # The trophy (orange 1 | yellow 5) leads Bone turned 2 (yellow 2 | blue 2): O1522, or
    # turned 3 (yellow 3 | red 2): O1532. Bone leading needs the trophy turned 2 (yellow
    # 5 | orange 1), orange in row 4: Bone unturned (blue 2 | yellow 2) would read B2251
    # and turned 1 (red 2 | yellow 3) R2351, both forbidden by D23.
    assert {str(c) for _, c in all_codes(trophy, bone, ORANGE)} == {"O1522", "O1532"}
    assert {str(c) for _, c in all_codes(trophy, bone)} == {"O1522", "O1532", "B2251", "R2351"}
