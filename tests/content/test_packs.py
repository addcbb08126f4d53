"""Packs that extend other packs; discovery; the crafting-code importer."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.content import (
    ContentError,
    CraftingResultKind,
    discover_packs,
    import_crafting_csv,
    load_content,
    load_pack_dir,
)


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def owner_pack(tmp_path: Path) -> Path:
    pack = tmp_path / "packs" / "mybox"
    write(pack / "pack.yaml", "id: mybox\nname: My box\nversion: '0.1'\nextends: sample\n")
    write(pack / "rules.yaml", "action_costs:\n  fish: 3\nfishing:\n  dice: 5\n")
    write(pack / "items.yaml",
          "items:\n"
          "  - {id: sling, name: Better Sling, slot: hand, harvest_cap_bonus: 2}\n"
          "  - {id: bone-hook, name: Bone Hook, slot: gear, technologies: [water-tech]}\n"
          "crafting:\n"
          "  - {colour: blue, code: 2222, item: bone-hook}\n")
    return pack


def test_extending_pack_adds_replaces_and_overrides_rules(owner_pack: Path) -> None:
    content = load_content("mybox", extra_dirs=[owner_pack.parent])
    assert [p.id for p in content.packs] == ["stonesaga-rules", "sample", "mybox"]
    assert content.items["sling"].name == "Better Sling"          # replaced by id
    assert content.items["bone-hook"].slot == "gear"              # added
    assert "stone-knife" in content.items                         # inherited
    assert content.rules.action_costs.fish == 3                   # rules: key by key
    assert content.rules.action_costs.forage == 2                 # untouched sibling key
    assert content.rules.fishing.dice == 5
    assert content.crafting.lookup("blue", "2222").kind is CraftingResultKind.ITEM
    assert content.pack_counts["mybox"]["items"] == 2


def test_extending_pack_errors_point_into_its_own_files(owner_pack: Path) -> None:
    write(owner_pack / "rules.yaml", "action_costs:\n  fish: lots\n")
    with pytest.raises(ContentError) as caught:
        load_pack_dir(owner_pack)
    assert [str(i) for i in caught.value.issues] == [
        "mybox/rules.yaml:2: action_costs.fish: "
        "Input should be a valid integer, unable to parse string as an integer"
    ]


def test_missing_parent_pack(owner_pack: Path) -> None:
    write(owner_pack / "pack.yaml", "id: mybox\nname: My box\nversion: '1'\nextends: nobox\n")
    with pytest.raises(ContentError, match=r"mybox/pack.yaml:4: extends: no pack with id 'nobox'"):
        load_content("mybox", extra_dirs=[owner_pack])


def test_user_content_folder_is_searched(tmp_path: Path) -> None:
    from companion.paths import user_content_dir

    write(user_content_dir() / "mine" / "pack.yaml",
          "id: mine\nname: Mine\nversion: '1'\nextends: sample\n")
    assert {"sample", "mine"} <= {m.id for m in discover_packs()}
    assert load_content("mine").packs[-1].id == "mine"


CSV_RED = (
    "Code;Flavor Text;Game Text;Item Name\n"
    "1410;A sharp thing.;Provides cut.;Stone Knife\n"
    "1234;;;\n"
    "0123;Zero;Nope;Bad\n"
    "12;short\n"
)


def test_import_community_crafting_csv(tmp_path: Path) -> None:
    red = write(tmp_path / "Crafting - Red.csv", CSV_RED)
    blue = write(tmp_path / "blue.csv", "Code;Flavor Text;Game Text;Item Name\n"
                                        "3120;Flavor;Text;Bead String\n")
    nameless = write(tmp_path / "codes.csv", CSV_RED)
    pack = tmp_path / "user" / "imported"
    report = import_crafting_csv([red, blue, nameless], pack)
    assert report.imported == 3
    assert report.created_manifest
    assert any("0123" in p and "cannot begin with 0" in p for p in report.problems)
    assert any("Crafting - Red.csv:5" in p for p in report.problems)
    assert any("codes.csv" in p and "colour" in p for p in report.problems)

    content = load_content("imported", extra_dirs=[pack])
    knife = content.crafting.lookup("red", "1410")
    assert knife.kind is CraftingResultKind.ITEM
    assert knife.entry is not None and not knife.entry.verified
    assert knife.entry.item_name == "Stone Knife"
    assert content.crafting.lookup("red", "1234").kind is CraftingResultKind.DEAD_END
    assert content.crafting.lookup("blue", "3120").entry is not None
    assert content.crafting.unverified_count == 3


def test_reimport_keeps_confirmed_entries(tmp_path: Path) -> None:
    red = write(tmp_path / "red.csv", CSV_RED)
    pack = tmp_path / "imported"
    import_crafting_csv([red], pack)
    target = pack / "crafting-imported.yaml"
    text = target.read_text(encoding="utf-8")
    target.write_text(text.replace("  verified: false", "  verified: true", 1), encoding="utf-8")
    report = import_crafting_csv([red], pack)
    assert report.kept_verified == 1
    assert report.imported == 1
