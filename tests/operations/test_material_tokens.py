"""Material tokens entered in a minute, and the web Campaign Journal's custom materials
(Rulebook: Tokens > Material Tokens; Processing & Crafting > Crafting Items; issue 25
part 6)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion import operations
from companion.content import user_pack
from companion.content.schema.base import Edge, PipColour
from companion.operations import Campaign, Refused
from companion.operations import webjournal as wj
from companion.operations import webjournal_export as wjx
from companion.operations.crafting import explore_materials
from companion.operations.material_tokens import (
    add_material,
    edges_of,
    material_from_typed,
    parse_edge,
    pip_colours,
)

COMMUNITY = Path(__file__).resolve().parents[1] / "fixtures" / "web-journal"


def test_crafting_items_two_tokens_entered_are_explored_at_once(demo: Campaign) -> None:
    """Crafting Items: the codes two tokens make, as soon as both are entered."""
    moss = add_material(demo, name="Glowing Moss", unprocessed=edges_of(
        ["left=blue 2", "top=yellow 1", "right=red 3"]),
        processed=edges_of(["left=red 1", "bottom=grey 0"]))
    assert moss.detail == "glowing-moss"
    assert "glowing-moss (Glowing Moss) into My cards" in moss.summary
    add_material(demo, name="Ember Shard", category="mineral", size="large",
                 unprocessed={"left": ("red", 4), "right": ("blue", 2)})
    token = demo.content.materials["glowing-moss"]
    assert str(token.unprocessed.pip(Edge.TOP)) == "yellow 1"
    assert token.processed.pip(Edge.BOTTOM).count == 0  # the null pip
    assert demo.content.materials["ember-shard"].size == "large"
    found = explore_materials(demo, "Glowing Moss", "Ember Shard")
    assert found and {str(d.kind) for d in found} == {"untried"}
    # In the owner's own pack, carried in the campaign file; undo keeps the pack's card.
    pack = user_pack.find_user_pack("sample-mine")
    assert pack is not None
    assert ("materials", "ember-shard") in user_pack.pack_cards(pack.folder)
    operations.undo(demo)
    assert "ember-shard" in demo.content.materials


def test_crafting_items_eight_colours_from_the_rules_file(demo: Campaign) -> None:
    assert pip_colours(demo.content) == tuple(c.value for c in PipColour)
    assert len(pip_colours(demo.content)) == 8


@pytest.mark.parametrize(("typed", "message"), [
    ({"unprocessed": {"left": ("pink", 2)}}, "pink is not a pip colour of the rules file"),
    ({"unprocessed": {"left": ("red", 10)}}, "0 to 9 pips, not 10"),
    ({"unprocessed": {"middle": ("red", 1)}}, "edges are top, right, bottom, left"),
    ({"category": "wooden"}, "animal, mineral, vegetable (plant) or rare"),
    ({"size": "huge"}, "small or large"),
    ({"name": "  "}, "needs its name"),
    ({"name": "Flint"}, "knows the material Flint already"),
])
def test_material_tokens_refused_in_the_tokens_words(demo: Campaign, typed: dict,  # type: ignore[type-arg]
                                                      message: str) -> None:
    events = len(demo.journal(100))
    with pytest.raises(Refused, match=message.replace("(", r"\(").replace(")", r"\)")):
        add_material(demo, **{"name": "Salt Crust", **typed})
    assert len(demo.journal(100)) == events


def test_material_tokens_edges_typed() -> None:
    assert parse_edge("Left=Blue 2") == ("left", ("blue", 2))
    assert parse_edge("top=bare") == ("top", None)
    with pytest.raises(Refused, match="EDGE=COLOUR COUNT"):
        parse_edge("blue 2")
    with pytest.raises(Refused, match="given twice"):
        edges_of(["left=red 1", "left=blue 1"])


def test_material_tokens_gray_is_grey(demo: Campaign) -> None:
    data = material_from_typed(demo.content, name="Ash Stone",
                               unprocessed={"top": ("Gray", 6)})
    assert data["unprocessed"]["edges"] == {"top": {"colour": "grey", "count": 6}}


@pytest.mark.parametrize("name", ["v3-5649f17-played.json", "v5-8aae632-played.json",
                                  "v5-8aae632-reexported.json"])
def test_using_the_journal_community_custom_materials_import_into_the_pack(
        tmp_path: Path, name: str) -> None:
    """Files written by the web Journal's own code (tests/fixtures/web-journal): its
    custom material becomes a material of the own pack, marks [left, right, top,
    bottom] on the unprocessed side, explored at once, and the export gives it back."""
    source = COMMUNITY / name
    campaign, report = wj.import_new(source, tmp_path / "x.stonesaga")
    with campaign:
        assert report.materials_added == ("Glowing Moss",)
        moss = campaign.content.materials["glowing-moss"]
        assert str(moss.unprocessed.pip(Edge.LEFT)) == "blue 2"
        top = moss.unprocessed.pip(Edge.TOP)
        assert (str(top) if top else None) == ("yellow 1" if name.startswith("v5") else None)
        assert moss.category.value == "vegetable"
        assert explore_materials(campaign, "Glowing Moss", "Flint")
        add_material(campaign, name="Salt Crust", unprocessed={
            "left": ("red", 1), "right": ("blue", 4), "top": ("yellow", 2)})
        assert explore_materials(campaign, "Glowing Moss", "Salt Crust")
        back = wjx.export_document(campaign)["customMaterials"]
        assert back[0] == json.loads(source.read_text())["customMaterials"][0]
