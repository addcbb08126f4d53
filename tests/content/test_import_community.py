"""The community crafting files (``Code;Flavor Text;Game Text;Item Name``, one file per
pip colour, the colour in the file name) as the community writes them (Rulebook: Using
the Codex > Crafting Entries): every variation the importer must read, through the
importer and ``companion content import-crafting``. The rows are our own invention in
the community's shape."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from companion.cli import main
from companion.content import CraftingResultKind, import_crafting_csv, load_content
from companion.content.importer import colour_of_file
from companion.content.schema.base import PipColour

HEADER = "Code;Flavor Text;Game Text;Item Name\n"


def write(path: Path, text: str, encoding: str = "utf-8") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text.encode(encoding))
    return path


def written(pack: Path) -> list[dict[str, object]]:
    data = yaml.safe_load((pack / "crafting-imported.yaml").read_text(encoding="utf-8"))
    return list(data["crafting"])


def by_code(pack: Path) -> dict[tuple[str, str], dict[str, object]]:
    return {(str(r["colour"]), str(r["code"])): r for r in written(pack)}


def test_item_name_none_is_a_dead_end_that_returns_the_materials(tmp_path: Path) -> None:
    red = write(tmp_path / "Crafting - Red.csv", HEADER +
                "2113;The cords slip.;Nothing happens. Return the materials to your "
                "inventory.;None\n"
                "2114;It falls apart.;Nothing is made.;none\n"
                "2115;It shatters.;Discard both materials.;None\n")
    pack = tmp_path / "pack"
    report = import_crafting_csv([red], pack)
    entries = by_code(pack)
    assert entries[("red", "2113")]["dead_end"] is True
    assert entries[("red", "2113")]["dead_end_materials"] == "returned"
    assert entries[("red", "2114")]["dead_end_materials"] == "returned"  # the default
    assert entries[("red", "2115")]["dead_end_materials"] == "used up"  # its text says so
    assert "item_name" not in entries[("red", "2113")]
    assert [r.why for r in report.rows][:2] == ["dead end, materials returned"] * 2
    content = load_content("pack", extra_dirs=[pack])
    found = content.crafting.lookup("red", "2113")
    assert found.kind is CraftingResultKind.DEAD_END
    assert found.entry is not None and not found.entry.uses_up_materials(True)


def test_unquoted_semicolons_join_into_the_game_text(tmp_path: Path) -> None:
    blue = write(tmp_path / "blue.csv", HEADER +
                 "3120;Bright.;Gain 1 water; then search the Item Card deck for IT29; "
                 "shuffle it.;Bead String\n"
                 '3121;Quoted.;"Provides cut; and more";Flake Blade\n')
    pack = tmp_path / "pack"
    report = import_crafting_csv([blue], pack)
    assert report.problems == []
    entries = by_code(pack)
    assert entries[("blue", "3120")]["text"] == (
        "Gain 1 water; then search the Item Card deck for IT29; shuffle it.")
    assert entries[("blue", "3120")]["item_name"] == "Bead String"
    assert entries[("blue", "3120")]["flavor"] == "Bright."
    assert entries[("blue", "3121")]["text"] == "Provides cut; and more"


def test_item_card_ids_in_the_game_text_are_recorded(tmp_path: Path) -> None:
    yellow = write(tmp_path / "yellow.csv", HEADER +
                   "1111;Warm.;Search the Item Card deck for it29 and gain it.;Sun Charm\n"
                   "1112;Cold.;Gain IT3, or IT40 if you have IT3.;Frost Charm\n"
                   "1113;Plain.;No card named.;Plain Charm\n")
    pack = tmp_path / "pack"
    report = import_crafting_csv([yellow], pack)
    entries = by_code(pack)
    assert entries[("yellow", "1111")]["item_cards"] == ["IT29"]
    assert entries[("yellow", "1112")]["item_cards"] == ["IT3", "IT40"]
    assert "item_cards" not in entries[("yellow", "1113")]
    assert report.rows[0].why == "Sun Charm (IT29)"
    content = load_content("pack", extra_dirs=[pack])
    entry = content.crafting.lookup("yellow", "1111").entry
    assert entry is not None and entry.item_cards == ("IT29",)


@pytest.mark.parametrize(("name", "colour"), [
    ("Crafting - Grey.csv", PipColour.GREY), ("gray codes.csv", PipColour.GREY),
    ("Crafting - Green.csv", PipColour.GREEN), ("orange.csv", PipColour.ORANGE),
    ("SilverCodes.csv", PipColour.SILVER), ("Purple.txt", PipColour.PURPLE)])
def test_grey_green_and_orange_files_import(tmp_path: Path, name: str,
                                            colour: PipColour) -> None:
    assert colour_of_file(Path(name)) is colour
    path = write(tmp_path / name, HEADER + "5656;Heavy.;Gain 1 lore.;Slate Weight\n")
    pack = tmp_path / "pack"
    report = import_crafting_csv([path], pack)
    assert (report.imported, report.problems) == (1, [])
    content = load_content("pack", extra_dirs=[pack])
    assert content.crafting.lookup(colour, "5656").kind is CraftingResultKind.ITEM


def test_a_file_naming_no_single_colour_is_refused(tmp_path: Path) -> None:
    both = write(tmp_path / "red and blue.csv", HEADER + "1111;;;Thing\n")
    report = import_crafting_csv([both], tmp_path / "pack")
    assert report.imported == 0
    assert report.problems == [
        "red and blue.csv: the file name names no single pip colour "
        "(red, blue, yellow, purple, grey, green, orange, silver)"]
    assert not (tmp_path / "pack").exists()  # nothing read, nothing written


@pytest.mark.parametrize("header", ["code;flavor text;game text;item name",
                                    "CODE;FLAVOR TEXT;GAME TEXT;ITEM NAME",
                                    " Code ; Flavor Text;Game Text ;Item Name"])
def test_the_header_is_matched_without_regard_to_case(tmp_path: Path, header: str) -> None:
    red = write(tmp_path / "red.csv", f"{header}\n1410;Sharp.;Provides cut.;Stone Knife\n")
    report = import_crafting_csv([red], tmp_path / "pack")
    assert (report.imported, report.problems) == (1, [])


def test_a_wrong_header_is_reported_and_a_missing_one_tolerated(tmp_path: Path) -> None:
    wrong = write(tmp_path / "red.csv", "Number;Words\n1410;Sharp.;Cut.;Stone Knife\n")
    report = import_crafting_csv([wrong], tmp_path / "pack")
    assert report.problems == ["red.csv:1: the header is not "
                               "Code;Flavor Text;Game Text;Item Name"]
    bare = write(tmp_path / "blue.csv", "1410;Sharp.;Cut.;Stone Knife\n")
    report = import_crafting_csv([bare], tmp_path / "pack")
    assert (report.imported, report.problems) == (1, [])


def test_a_repeated_row_is_reported_once_and_the_count_is_the_count_written(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    row = "1410;Sharp.;Provides cut.;Stone Knife\n"
    red = write(tmp_path / "Red.csv", HEADER + row + "1231;Bright.;Light.;Torch\n" + row + row)
    again = write(tmp_path / "more red.csv", HEADER + row)
    pack = tmp_path / "pack"
    assert main(["content", "import-crafting", str(red), str(again), "--pack",
                 str(pack)]) == 0
    out = capsys.readouterr().out
    assert len(written(pack)) == 2
    assert "imported 2 crafting entries (unverified)" in out
    assert "2 new, 0 updated; skipped 3 repeated" in out
    repeats = [line for line in out.splitlines() if "repeats" in line]
    assert repeats == ["  skipped   R1410   repeats Red.csv:2 (3 time(s): Red.csv:4, "
                       "Red.csv:5, more red.csv:2); written once  [Red.csv:4]"]


def test_a_repeated_code_with_another_entry_keeps_the_first(tmp_path: Path) -> None:
    red = write(tmp_path / "red.csv", HEADER + "1410;Sharp.;Cut.;Stone Knife\n"
                                               "1410;Blunt.;Nothing.;Stone Club\n")
    report = import_crafting_csv([red], tmp_path / "pack")
    assert report.imported == 1
    assert by_code(tmp_path / "pack")[("red", "1410")]["item_name"] == "Stone Knife"
    assert report.problems == ["red.csv:3: R1410 differs from red.csv:2; kept red.csv:2"]


def test_the_report_lists_imported_updated_skipped_and_why(tmp_path: Path) -> None:
    pack = tmp_path / "pack"
    red = write(tmp_path / "red.csv", HEADER + "1410;Sharp.;Cut.;Stone Knife\n"
                                               "1231;Bright.;Light.;Torch\n"
                                               "4012;Round.;Holds water.;Clay Pot\n")
    import_crafting_csv([red], pack)
    target = pack / "crafting-imported.yaml"
    # the group confirms the torch at the table
    text = target.read_text(encoding="utf-8")
    text = text.replace("item_name: Torch\n  text: Light.\n  flavor: Bright.\n  verified: false",
                        "item_name: Torch\n  text: Light.\n  flavor: Bright.\n  verified: true")
    target.write_text(text, encoding="utf-8")
    red = write(tmp_path / "red.csv", HEADER + "1410;Sharp.;Cut; and scrape.;Stone Knife\n"
                                               "1231;Bright.;Light.;Torch\n"
                                               "4012;Round.;Holds water.;Clay Pot\n"
                                               "0123;Zero.;Nope.;Bad\n"
                                               "12;short\n"
                                               "2222;New.;Fresh.;Bone Hook\n")
    report = import_crafting_csv([red], pack)
    done = [(r.action, r.code, r.why) for r in report.rows]
    assert done == [
        ("updated", "R1410", "Stone Knife"),
        ("skipped", "R1231", "already confirmed at the table; kept"),
        ("unchanged", "R4012", "Clay Pot"),
        ("skipped", "0123", "a crafting code cannot begin with 0 (the null pip)"),
        ("skipped", "12", "only 2 field(s)"),
        ("new", "R2222", "Bone Hook"),
    ]
    assert (report.imported, report.new, report.updated, report.kept_verified) == (3, 1, 1, 1)
    assert len(report.problems) == 2
    assert by_code(pack)[("red", "1231")]["verified"] is True


def test_a_spreadsheet_file_in_the_windows_code_page_imports(tmp_path: Path) -> None:
    orange = write(tmp_path / "orange.csv", HEADER + "5650;Café smoke.;Return the "
                   "materials.;None\n", encoding="cp1252")
    report = import_crafting_csv([orange], tmp_path / "pack")
    assert report.problems == []
    assert by_code(tmp_path / "pack")[("orange", "5650")]["flavor"] == "Café smoke."


def test_import_crafting_json_report(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    green = write(tmp_path / "Crafting - Green.csv", HEADER +
                  "2301;Green.;Search the Item Card deck for IT7.;Moss Pad\n"
                  "2302;;Nothing.;None\n")
    pack = tmp_path / "pack"
    assert main(["content", "import-crafting", str(green), "--pack", str(pack),
                 "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["imported"], data["new"], data["problems"]) == (2, 2, [])
    assert [(r["code"], r["action"], r["why"]) for r in data["rows"]] == [
        ("Gn2301", "new", "Moss Pad (IT7)"), ("Gn2302", "new", "dead end, materials returned")]
    assert main(["content", "check", str(pack)]) == 0


def test_an_imported_entry_linked_to_its_item_card_loads_and_is_kept(tmp_path: Path) -> None:
    red = write(tmp_path / "red.csv", HEADER + "1410;Sharp.;Provides cut.;Stone Knife\n")
    pack = tmp_path / "pack"
    import_crafting_csv([red], pack)
    target = pack / "crafting-imported.yaml"
    # the group links the entry to the item card, as the file's banner says
    target.write_text(target.read_text(encoding="utf-8").replace(
        "  item_name: Stone Knife\n", "  item_name: Stone Knife\n  item: stone-knife\n"),
        encoding="utf-8")
    content = load_content("pack", extra_dirs=[pack])
    found = content.crafting.lookup("red", "1410")
    assert found.item is not None and found.item.id == "stone-knife"
    report = import_crafting_csv([red], pack)
    assert [(r.action, r.why) for r in report.rows] == [
        ("skipped", "linked to its item card; kept")]
    assert by_code(pack)[("red", "1410")]["item"] == "stone-knife"


def test_a_pack_folder_that_cannot_be_written_is_reported(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    red = write(tmp_path / "red.csv", HEADER + "1410;Sharp.;Cut.;Stone Knife\n")
    blocker = write(tmp_path / "blocker", "a file, not a folder")
    assert main(["content", "import-crafting", str(red), "--pack",
                 str(blocker / "pack")]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert "cannot write the pack" in err and "nothing imported" in err
