"""The crafting explorer and what a dead end does (Rulebook: Processing & Crafting >
Crafting Items; Using the Codex > Crafting Entries), through the operations and the
CLI, on the sample pack's slate and moss (grey, green and orange pips without a shape).

Hand-read from content/sample/materials.yaml: slate unprocessed is top orange 5, right
grey 6, bottom bare, left grey 5. Two slates unturned: grey 5 | grey 6 touches grey 5 |
grey 6 -> Grey 5656 (the sample Codex: grinding stone). The right-hand slate turned
180° shows grey 6 on its left and grey 5 on its right -> Grey 5665 (no entry).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from companion import operations
from companion.cli import main
from companion.operations import Campaign, Refused
from companion.operations.crafting import (
    craft,
    crafting_explorer,
    explore_materials,
    held_materials,
)
from companion.operations.effects import apply_effects, parse_effect
from companion.rules.crafting import DiscoveryKind


def gain(campaign: Campaign, *materials: str) -> None:
    apply_effects(campaign, name="Ash",
                  effects=[parse_effect(f"gain {m}") for m in materials])


def codes(campaign: Campaign) -> dict[str, DiscoveryKind]:
    return {str(d.code): d.kind for d in crafting_explorer(campaign, ["Ash"])}


def test_a_material_pairs_with_itself_only_where_two_tokens_are_held(demo: Campaign) -> None:
    gain(demo, "slate")
    assert "G5656" not in codes(demo)  # one slate cannot lie beside itself
    gain(demo, "slate")
    assert codes(demo)["G5656"] is DiscoveryKind.UNTRIED
    assert "G6565" in codes(demo)


def test_two_slates_craft_grey_5656(demo: Campaign) -> None:
    gain(demo, "slate", "slate")
    slates = [h.index for h in held_materials(demo, ["Ash"]) if h.face.material == "slate"]
    changes = craft(demo, name="Ash", left=slates[0], left_rotation=0, right=slates[1],
                    right_rotation=0)
    assert "Grey 5656" in changes.summary and "Ash crafts Grinding Stone" in changes.summary
    assert not [h for h in held_materials(demo, ["Ash"]) if h.face.material == "slate"]
    assert codes(demo).get("G5656") in (None, DiscoveryKind.ITEM)


def test_a_code_without_an_entry_gives_the_materials_back(demo: Campaign) -> None:
    """The rules file's consume_on_no_entry (false in the sample pack)."""
    assert demo.content.rules.crafting.consume_on_no_entry is False
    gain(demo, "slate", "slate")
    slates = [h.index for h in held_materials(demo, ["Ash"]) if h.face.material == "slate"]
    changes = craft(demo, name="Ash", left=slates[0], left_rotation=0, right=slates[1],
                    right_rotation=2)
    assert "Grey 5665" in changes.summary
    assert "go back to the inventory" in changes.summary
    assert len([h for h in held_materials(demo, ["Ash"]) if h.face.material == "slate"]) == 2


def test_the_explorer_works_over_materials_nobody_holds(demo: Campaign) -> None:
    assert not any(h.face.material in ("slate", "moss") for h in held_materials(demo))
    found = {str(d.code): d for d in explore_materials(demo, "Slate", "slate")}
    assert "G5656" in found and "Gn2156" in found  # both sides of each token
    assert "O5650" not in found  # D23: orange 5 | orange 6 puts orange in the second row
    assert found["G5656"].kind is DiscoveryKind.UNTRIED  # the society has not tried it
    with_moss = {str(d.code) for d in explore_materials(demo, "slate", "Moss")}
    assert {"G5616", "Gn6156"} <= with_moss and "G5612" not in with_moss  # slate with slate
    everything = {str(d.code) for d in explore_materials(demo, "slate")}
    assert with_moss | set(found) <= everything
    # the Codex's order: grey before green before orange
    order = [d.code.colour.value for d in explore_materials(demo, "slate", "moss")]
    assert order == sorted(order, key=["grey", "green", "orange"].index)


def test_the_explorer_refuses_a_material_it_does_not_know(demo: Campaign) -> None:
    with pytest.raises(Refused, match="No material called 'granite'"):
        explore_materials(demo, "granite")


def test_codes_command_over_any_materials(tmp_path: Path, capsys: Any) -> None:
    path = str(tmp_path / "c.stonesaga")
    operations.create_demo_campaign(Path(path)).close()
    assert main(["codes", path, "--material", "slate", "--with", "slate", "--json"]) == 0
    rows = {r["code"]: r for r in json.loads(capsys.readouterr().out)["codes"]}
    assert rows["G5656"]["known"] == "untried"
    assert "slate turned 0° beside slate turned 0°" in rows["G5656"]["ways"]
    assert main(["codes", path, "--material", "granite"]) == 1
    assert "No material called 'granite'" in capsys.readouterr().err
    assert main(["codes", path, "--with", "moss"]) == 1
    assert "--with needs --material" in capsys.readouterr().err


def test_the_codex_reads_community_codes_and_says_what_a_dead_end_does(
        demo: Campaign) -> None:
    """Using the Codex > Crafting Entries: "Gn6116" and "Orange 3621" are looked up like
    any code; the dead end says the materials come back."""
    from companion.operations import codex

    sling = codex.look_up(demo, request="Gn6116").detail
    assert sling.title == "Green 6116: Sling"  # type: ignore[union-attr]
    dead = codex.look_up(demo, request="Orange 3621").detail
    assert dead.title == "Orange 3621: nothing"  # type: ignore[union-attr]
    assert dead.text.endswith("(The materials are returned.)")  # type: ignore[union-attr]
    assert codex.parse_request("g5656").key == "G5656"


def test_crafting_entries_a_tried_code_with_no_entry_is_never_untried(
        demo: Campaign, tmp_path: Path, capsys: Any) -> None:
    # Rulebook: Using the Codex > Crafting Entries. Slate beside slate turned 180° reads
    # Grey 5665, which has no entry in the sample Codex: once crafted, the explorer knows
    # it was tried (no entry), in the operation and in `companion codes`.
    gain(demo, "slate", "slate")
    assert codes(demo)["G5665"] is DiscoveryKind.UNTRIED
    slates = [h.index for h in held_materials(demo, ["Ash"]) if h.face.material == "slate"]
    craft(demo, name="Ash", left=slates[0], left_rotation=0, right=slates[1],
          right_rotation=2)
    assert codes(demo)["G5665"] is DiscoveryKind.NO_ENTRY
    assert codes(demo)["G5656"] is DiscoveryKind.UNTRIED  # only the code that was tried
    found = {str(d.code): d.kind for d in explore_materials(demo, "slate", "slate")}
    assert found["G5665"] is DiscoveryKind.NO_ENTRY
    from companion.operations.crafting import pair_codes

    known = {str(code): words for _, code, words in pair_codes(demo, "slate", "slate")}
    assert known["G5665"] == "tried: no entry in the Codex"
    path = str(demo.path)
    demo.close()
    assert main(["codes", path, "Ash", "--json"]) == 0
    rows = {r["code"]: r for r in json.loads(capsys.readouterr().out)["codes"]}
    assert rows["G5665"]["known"] == "no_entry" and rows["G5656"]["known"] == "untried"
    assert main(["codes", path, "Ash"]) == 0
    lines = {line.split()[0]: line for line in capsys.readouterr().out.splitlines()}
    assert "tried: no entry in the Codex" in lines["G5665"]
    assert "untried" not in lines["G5665"]
    assert "Slate turned 0° beside Slate turned" in lines["G5665"]  # names, not ids
