"""``companion import FILE`` (a web Campaign Journal file: report, ``--json``, ``--into``
with a preview and section choices) and ``companion export --web-journal``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from companion import operations
from companion.operations import webjournal as wj
from tests.cli.helpers import run

FIXTURES = Path(__file__).parents[1] / "operations" / "fixtures"
V3 = FIXTURES / "web-journal-v3.json"
V2 = FIXTURES / "web-journal-v2.json"



def test_import_prints_the_report(capsys: Any, tmp_path: Path) -> None:
    code, out, _ = run(capsys, "import", str(V3), str(tmp_path / "reed.stonesaga"))
    assert code == 0
    assert "into The Reed People" in out
    assert "Behemoths: 1 added -> the Behemoths section" in out
    assert "kept as a note page" not in out  # every section has its home
    assert "not imported: the web journal's own Google Drive sync settings" in out


def test_import_json_report(capsys: Any, tmp_path: Path) -> None:
    code, out, _ = run(capsys, "import", str(V3), str(tmp_path / "reed.stonesaga"), "--json")
    assert code == 0
    report = json.loads(out)["import"]
    sections = {s["section"]: s for s in report["sections"]}
    assert sections["codes"]["added"] == 8
    assert sections["looming"]["home"] == "the looming challenges"
    assert report["kept_as_notes"] == []
    assert report["shape"] == "version 3"
    assert report["materials_file"].endswith("sample-mine-materials.yaml")
    assert report["materials_waiting"] == []


def test_import_the_early_version_2_file(capsys: Any, tmp_path: Path) -> None:
    """"Stone Saga Crafting Journal", the item card in itemNum (the first v2 files)."""
    early = V3.parent / "web-journal-v2-early.json"
    code, out, _ = run(capsys, "import", str(early), str(tmp_path / "early.stonesaga"),
                       "--json")
    assert code == 0, out
    assert json.loads(out)["import"]["shape"] == "version 2"


def test_import_into_with_preview_then_choices_and_undo(capsys: Any, tmp_path: Path) -> None:
    path = tmp_path / "old.stonesaga"
    assert run(capsys, "import", str(V2), str(path))[0] == 0
    code, out, _ = run(capsys, "import", str(V3), "--into", str(path), "--preview", "--json")
    assert code == 0
    preview = json.loads(out)["preview"]
    codes = next(s for s in preview["sections"] if s["section"] == "codes")
    assert (codes["added"], codes["conflicts"], codes["already_there"]) == (6, 1, 1)
    # The v2 file had no tribe name: the campaign took the file's name, the v3 file differs.
    assert [c["label"] for c in preview["conflicts"]] == ["Y1111 Rope",
                                                          "Tribe name: The Reed People"]
    with operations.open_campaign(path) as campaign:  # a preview changes nothing
        assert len(wj.preview(campaign, V3).conflicts()) == 2

    code, out, _ = run(capsys, "import", str(V3), "--into", str(path),
                       "--section", "codes=theirs", "--section", "notes=skip")
    assert code == 0, out
    assert "Crafting codes: 6 added, 1 differing (1 taken from the Journal), 1 already " \
        "there" in out
    assert "taken from the Journal (your choice): Y1111 Rope" in out
    assert "Note pages: left out" in out
    with operations.open_campaign(path) as campaign:
        from companion.operations import journal as j

        titles = [n.title for n in j.note_pages(campaign)]
        assert "Kim's theories" not in titles
        codes_now = dict((c, n) for c, _, n in j.crafting_codes(campaign))
        assert codes_now["B2131"] == "Rope"
    code, out, _ = run(capsys, "undo", str(path))
    assert code == 0 and "Imported the web journal" in out
    with operations.open_campaign(path) as campaign:
        assert "B2131" not in {c for c, _, _ in j.crafting_codes(campaign)}


def test_import_refusals_name_the_field(capsys: Any, tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    data = json.loads(V3.read_text())
    data["loomingChallenges"][0]["order"] = "first"
    bad.write_text(json.dumps(data))
    code, out, err = run(capsys, "import", str(bad), str(tmp_path / "new.stonesaga"))
    assert code == 1 and out == ""
    assert "loomingChallenges[0].order: expected a whole number" in err
    assert "Traceback" not in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.json"]
    code, _, err = run(capsys, "import", str(V3), "--into", str(tmp_path / "x.stonesaga"),
                       "--section", "codes=maybe")
    assert code == 1 and "is not a section choice" in err


def test_export_web_journal(capsys: Any, tmp_path: Path) -> None:
    path = tmp_path / "reed.stonesaga"
    run(capsys, "import", str(V3), str(path))
    out_file = tmp_path / "back.json"
    code, out, _ = run(capsys, "export", str(path), "--web-journal", str(out_file), "--json")
    assert code == 0
    result = json.loads(out)
    assert result["web_journal"]["recipes"] == 3
    document = json.loads(out_file.read_text(encoding="utf-8"))
    assert document["version"] == 5 and document["culture"]["tribeName"] == "The Reed People"
    code, _, err = run(capsys, "export", str(path))
    assert code == 1 and "Name the export file" in err


def test_import_without_a_file_name_goes_to_the_campaigns_folder(capsys: Any) -> None:
    from companion import paths

    code, out, _ = run(capsys, "import", str(V2), "--json")
    assert code == 0
    assert json.loads(out)["import"]["campaign"] == "web-journal-v2"
    assert (paths.campaigns_dir() / "web-journal-v2.stonesaga").is_file()
    code, _, err = run(capsys, "import", str(V2))
    assert code == 1 and "already exists" in err


def test_imported_custom_materials_are_my_cards_and_explored(capsys: Any, tmp_path: Path
                                                             ) -> None:
    """Issue 18 item 1: after ``import --json`` the web journal's Glowing Moss (left
    Green 2, right Yellow 1) is a material of the user's own pack: ``content my-cards``
    lists it and the explorer's "any materials" mode pairs it with itself."""
    path = tmp_path / "reed.stonesaga"
    code, out, _ = run(capsys, "import", str(V3), str(path), "--json")
    assert code == 0
    report = json.loads(out)["import"]
    assert (report["materials_added"], report["materials_already_there"],
            report["materials_waiting"]) == (["Glowing Moss"], [], [])
    assert report["materials_pack"] == "My cards (Sample pack)"
    code, out, _ = run(capsys, "content", "my-cards", "--json")
    (pack,) = json.loads(out)["packs"]
    assert pack["id"] == "sample-mine"
    assert pack["cards"] == [{"kind": "materials", "id": "glowing-moss",
                              "name": "Glowing Moss", "where": "sample-mine/materials.yaml:2"}]
    # Rulebook: Processing & Crafting > Crafting Items: A's right edge meets B's left;
    # moss turned 180° (left Yellow 1, right Green 2) beside moss (Green 2, Yellow 1)
    # reads Yellow 1-2-2-1.
    code, out, _ = run(capsys, "codes", str(path), "--material", "Glowing Moss",
                       "--with", "glowing moss", "--json")
    assert code == 0
    found = {c["code"]: c["known"] for c in json.loads(out)["codes"]}
    assert found == {"Y1221": "untried", "Gn2112": "untried"}
    # Undo takes the import back but says the material stays in My Cards.
    code, out, _ = run(capsys, "undo", str(path))
    assert code == 0 and "leaves them in My Cards" in out
    code, out, _ = run(capsys, "content", "my-cards", "--json")
    assert [c["id"] for c in json.loads(out)["packs"][0]["cards"]] == ["glowing-moss"]


def test_imported_worded_demeanor_and_mantle_powers_in_search_and_markdown(
        capsys: Any, tmp_path: Path) -> None:
    """Using the Journal: the web journal's demeanor in words shows in the Behemoths
    table, its mantle powers on the Culture page in the group's words; search finds
    them there."""
    path = tmp_path / "reed.stonesaga"
    assert run(capsys, "import", str(V3), str(path))[0] == 0
    code, out, _ = run(capsys, "search", str(path), "hexes ahead", "--section", "culture",
                       "--json")
    (hit,) = json.loads(out)["hits"]
    assert (hit["title"], hit["text"]) == (
        "Mantle powers (the group's words)", "Far Sight — Look two hexes ahead before moving.")
    md = tmp_path / "j.md"
    assert run(capsys, "journal-export", str(path), "--md", str(md))[0] == 0
    text = md.read_text(encoding="utf-8")
    assert "| Mossback | — | VV02 | Restless | — |" in text
    assert "Far Sight — Look two hexes ahead before moving." in text
