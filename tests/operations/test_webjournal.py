"""The web app "Stonesaga Campaign Journal": every field of its files finds its home,
imports merge with a preview, and our export goes back (issue 18).

The fixtures in ``fixtures/`` are written the way the web app's export code writes its
files (ShadowfootNZ/stonesaga ``app.js``: version 3 at commit 5649f17, the later version 2
at 851aed5, the early version 2 at c2610be): version 3 (journal sections, ``"app":
"Stonesaga Crafting Journal"``, epochs and "prepare by" as the form's text, the demeanor
in words, secrets as text), both version 2 variants (custom materials and the Drive link;
the early one, "Stone Saga Crafting Journal", with only recipes and null codes and the
item card in ``itemNum``) and the bare recipe array its oldest files were.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlmodel import select

from companion import operations
from companion.content.schema.base import Edge, PipColour
from companion.content.user_pack import entries, find_user_pack
from companion.operations import Campaign, Refused
from companion.operations import journal as j
from companion.operations import webjournal as wj
from companion.operations import webjournal_export as wjx
from companion.operations.crafting import _known, _record_lookup, explore_materials
from companion.operations.export import journal_markdown
from companion.operations.setup import eligible_challenges
from companion.rules.crafting import CraftingCode
from companion.store import models
from companion.store.webjournal import WebCode
from tests.operations.webjournal_compare import compare

FIXTURES = Path(__file__).parent / "fixtures"
V3 = FIXTURES / "web-journal-v3.json"
V2 = FIXTURES / "web-journal-v2.json"
V2_EARLY = FIXTURES / "web-journal-v2-early.json"
BARE = FIXTURES / "web-journal-bare.json"


def rows(campaign: Campaign, table: Any) -> list[Any]:
    with campaign.file.read() as session:
        return list(session.exec(select(table).order_by(table.id)).all())


def codes(campaign: Campaign) -> dict[str, models.CodeRecord]:
    return {r.code: r for r in rows(campaign, models.CodeRecord)}


@pytest.fixture
def v3(tmp_path: Path) -> Any:
    campaign, report = wj.import_new(V3, tmp_path / "reed.stonesaga")
    yield campaign, report
    campaign.close()


# --- every field's home ----------------------------------------------------------------


def test_v3_crafting_codes_are_codes_with_materials_pairs_and_notes(v3: Any) -> None:
    campaign, _ = v3
    found = codes(campaign)
    rope = found["Y1111"]
    assert (rope.status, rope.name) == ("recipe", "Rope")
    assert rope.data["item_id"] == "IT29"
    assert rope.data["notes"] == "Two lengths if the fibre was woven at the river."
    assert rope.data["materials"] == [
        {"left": "Fiber (woven)", "left_category": "plant", "right": "Guts (cured)",
         "right_category": "animal"},
        {"left": "Silk", "left_category": "rare", "right": "Fiber (woven)",
         "right_category": "plant", "inferred": True}]
    assert found["B2131"].name == "Rope" and found["R1421"].name == "Fishing Spear"
    # Grey is kept as this program writes it ("G3301"), or in the web app's own words
    # ("Grey 3301") while the colour is unknown to the crafting rules.
    grey = wj.code_text(WebCode("Grey", "3301"))
    assert grey in ("G3301", "Grey 3301")
    assert found[grey].name == "Grey Cloak"
    # Null codes are dead ends, with the materials that gave nothing.
    assert found["R2224"].status == "null"
    assert found["R2224"].data["materials"] == [{"left": "Clay (fired)", "right": "Wood"}]
    assert found["P6413"].status == "null"
    # Provisional codes (keyed by code) are unverified entries with their source.
    needle = found["B1111"]
    assert (needle.status, needle.name) == ("provisional", "Bone Needle")
    assert needle.data == {"card_id": "IT12", "flavor": "A fine point.",
                           "game_text": "Gain the Bone Needle item card (IT12).",
                           "source": "crafting-blue.txt"}
    assert found["Y4444"].status == "provisional" and found["Y4444"].data["dead_end"]
    assert found["Y4444"].data["revealed"] and "revealed" not in needle.data
    assert len(found) == 8


def test_rulebook_crafting_the_explorer_knows_every_imported_code(v3: Any) -> None:
    campaign, _ = v3
    with campaign.file.read() as session:
        lookup = _record_lookup(_known(session))
    rope = lookup(CraftingCode.parse("Y1111"))
    assert rope is not None and rope.item_name == "Rope"
    assert lookup(CraftingCode.parse("R1421")).item_name == "Fishing Spear"  # type: ignore[union-attr]
    dead = lookup(CraftingCode.parse("R2224"))
    assert dead is not None and dead.dead_end
    # Unverified codes stay untried until the group crafts them.
    assert lookup(CraftingCode.parse("B1111")) is None


def test_v3_culture_goes_to_the_society_and_the_culture_page(v3: Any) -> None:
    campaign, _ = v3
    assert campaign.title == "The Reed People"
    assert campaign.status().epoch == 2  # the latest epoch of the challenge record
    page = j.culture(campaign)
    assert [e.text for e in page.lists["structures"]] == ["Fire Pit — Built in the "
                                                          "first winter"]
    assert [e.text for e in page.lists["knowledge"]] == ["KN04 Stars for Wayfinding"]
    assert [e.text for e in page.lists["taboos"]] == ["Never hunt on the night of the comet"]
    assert [e.text for e in page.lists["pigments"]] == ["Red ochre"]
    assert [e.text for e in page.lists["mantle_powers"]] == [
        "Far Sight — Look two hexes ahead before moving."]
    assert page.abilities == ()  # none of them is a culture ability the rules would read


def test_v3_behemoths_keep_lair_demeanor_and_secrets(v3: Any) -> None:
    campaign, _ = v3
    (beast,) = rows(campaign, models.BehemothState)
    # Version 3's demeanor is words ("Restless"), not the dial: it opens the notes.
    assert (beast.behemoth_id, beast.name, beast.lair_hex, beast.demeanor, beast.note) == (
        "", "Mossback", "VV02", None, "Demeanor: Restless\nSleeps through the day.")
    assert beast.secrets == [
        {"card_id": "", "name": "Soft Belly: strikes to the belly wound twice",
         "description": ""},
        {"card_id": "", "name": "Hates fire", "description": ""}]
    (line,) = j.behemoths(campaign)
    assert line.secrets == ("Soft Belly: strikes to the belly wound twice", "Hates fire")
    assert j.search(campaign, "Restless")[0].section == "behemoths"
    # The journal's Demeanor column shows the words; the notes go on without that line.
    assert (line.demeanor_shown, line.note) == ("Restless", "Sleeps through the day.")
    assert "| Mossback | — | VV02 | Restless |" in journal_markdown(campaign)


def test_the_web_journals_mantle_powers_are_listed_in_the_groups_words(v3: Any) -> None:
    """Using the Journal > Culture: the web journal's mantle powers have no pack card
    (a mantle power row needs the pack's id): the Culture page lists them as the
    group's own words, one line each (with their mantle), and search finds them."""
    campaign, _ = v3
    page = j.culture(campaign)
    (line,) = page.lists["mantle_powers"]
    assert line.text == "Far Sight — Look two hexes ahead before moving."
    assert rows(campaign, models.MantlePower) == []  # no pack id invented
    (hit,) = j.search(campaign, "hexes ahead", sections=["culture"])
    assert (hit.title, hit.text) == (j.CULTURE_LISTS["mantle_powers"], line.text)
    assert j.search(campaign, "Restless", sections=["culture"]) == []


def test_using_the_journal_challenge_record_by_epoch_fled_is_not_finished(v3: Any) -> None:
    campaign, _ = v3
    log = rows(campaign, models.ChallengeLogEntry)
    assert [(r.epoch, r.challenge_id, r.name, r.outcome_entry, r.finished) for r in log] == [
        (1, "C1", "The Long Thaw", "Won", True),
        (2, "CH08", "Frost in the Fur", "Fled", False)]
    assert log[1].notes == "The river rose; we ran for the ridge."


def test_select_challenge_looming_challenges_in_their_order(v3: Any) -> None:
    campaign, _ = v3
    looming = sorted(rows(campaign, models.LoomingChallenge), key=lambda r: r.position)
    assert [(r.challenge_id, r.name, r.prepare_by, r.note) for r in looming] == [
        ("C2", "Frost in the Fur", 2, ""), ("C3", "Voices on the Ridge", 3, "Need two rope.")]
    # The pack knows the cards: the next challenge can be chosen (and started) from them.
    assert set(eligible_challenges(campaign)) <= {"C2", "C3"}
    assert eligible_challenges(campaign)


def test_v3_investigations_notes_and_leftovers(v3: Any) -> None:
    campaign, report = v3
    (omen,) = rows(campaign, models.OmenInvestigation)
    assert (omen.omen_id, omen.component_id, omen.note) == (
        "Comet over the lake", "IV03", "Entry 42: the lake freezes early.")
    notes = {n.title: n.text for n in j.note_pages(campaign)}
    assert notes["Kim's theories"].startswith("The behemoth lairs in the marsh")
    # Mantle powers are the Culture page's (the group's words), not a kept note.
    assert not any(title.startswith("From the web journal") for title in notes)
    assert report.kept_as_notes == ()
    assert report.not_imported == ("the web journal's own Google Drive sync settings",)


def test_note_pages_are_searchable_and_in_the_markdown(v3: Any) -> None:
    campaign, _ = v3
    hits = j.search(campaign, "willow roots")
    assert [(h.section, h.title) for h in hits] == [("notes", "Kim's theories")]
    assert j.search(campaign, "VV02")[0].section == "behemoths"
    assert j.search(campaign, "ran for the ridge")[0].section == "challenges"
    text = journal_markdown(campaign)
    assert "## Note pages" in text and "under the willow roots" in text
    assert "VV02" in text and "Soft Belly" in text


def test_custom_materials_become_materials_of_the_users_own_pack(v3: Any) -> None:
    """Issue 18: custom materials are materials of the user's own pack (``sample-mine``,
    extending the campaign's pack): in the content, in My Cards, in the explorer."""
    campaign, report = v3
    own = find_user_pack("sample-mine")
    assert own is not None and own.manifest.extends == "sample"
    (entry,) = [e for e in entries(own.folder) if e.kind == "materials"]
    assert (entry.id, entry.name, entry.where) == (
        "glowing-moss", "Glowing Moss", "sample-mine/materials.yaml:2")
    moss = campaign.content.materials["glowing-moss"]
    left = moss.unprocessed.pip(Edge.LEFT)
    assert left is not None and (left.colour, left.count, left.shape) == (
        PipColour.GREEN, 2, None)
    assert (moss.category.value, str(moss.size)) == ("vegetable", "small")
    assert moss.unprocessed.pip(Edge.TOP) is None
    # The campaign records the pack versions it now plays with.
    with campaign.file.read() as session:
        row = session.get(models.Campaign, 1)
        assert row is not None
        assert [p["id"] for p in row.content_packs] == ["stonesaga-rules", "sample",
                                                      "sample-mine"]
    # The report says what was added, and that undo leaves it in My Cards.
    assert (report.materials_added, report.materials_already, report.materials_waiting) == (
        ("Glowing Moss",), (), ())
    assert report.materials_pack == own.manifest.name
    assert any("Glowing Moss" in line and wj.MATERIALS_STAY in line
               for line in report.lines())
    # Only what the pack has no field for stays in the side file.
    data = yaml.safe_load(Path(report.materials_file).read_text(encoding="utf-8"))
    assert data["web_journal"] == [{
        "name": "Glowing Moss", "material": "glowing-moss",
        "processed": "Glowing Moss (dried)", "image": None,
        "notes": "From the cave at HX07."}]
    # The export puts the web entry back together from the pack.
    (back,) = wjx.export_document(campaign)["customMaterials"]
    assert back == json.loads(V3.read_text())["customMaterials"][0]
    # Rulebook: Crafting Items: the explorer's "any materials" mode knows it, and so
    # does a campaign opened again.
    assert explore_materials(campaign, "Glowing Moss")
    campaign.close()
    with operations.open_campaign(campaign.path) as again:
        assert "glowing-moss" in again.content.materials


def test_custom_materials_stay_in_my_cards_when_the_import_is_undone(tmp_path: Path
                                                                     ) -> None:
    campaign, _ = wj.import_new(V2_EARLY, tmp_path / "x.stonesaga")
    with campaign:
        changes = wj.apply(campaign, wj.preview(campaign, V3))
        assert changes.summary.endswith(wj.MATERIALS_STAY)
        assert campaign.undo_label() == changes.summary  # the journal says so too
        operations.undo(campaign)
        assert "glowing-moss" in campaign.content.materials
        own = find_user_pack("sample-mine")
        assert own is not None
        assert [e.id for e in entries(own.folder)] == ["glowing-moss"]
        # Importing again finds it there: nothing is written twice.
        plan = wj.preview(campaign, V3)
        assert [i.state for i in plan.items if i.section == "materials"] == ["already there"]


def test_a_custom_material_the_pack_already_has_is_not_written(tmp_path: Path) -> None:
    data = json.loads(V3.read_text())
    data["customMaterials"].append({"name": "Clay", "cat": "mineral", "processed": None,
                                    "image": None, "marks": ["Red 1", None, None, None],
                                    "notes": None})
    src = tmp_path / "clay.json"
    src.write_text(json.dumps(data))
    campaign, _ = wj.import_new(V2_EARLY, tmp_path / "x.stonesaga")
    with campaign:
        sample_clay = campaign.content.materials["clay"]
        plan = wj.preview(campaign, src)
        assert {i.label: i.state for i in plan.items if i.section == "materials"} == {
            "Glowing Moss": "added", "Clay": "already there"}
        report = wj.import_into(campaign, src)
        assert report.materials_added == ("Glowing Moss",)
        assert campaign.content.materials["clay"] == sample_clay


def test_custom_materials_two_sides_of_one_token_and_one_without_a_category(
        tmp_path: Path) -> None:
    """The web app keeps a token's processed form as its own material: it becomes the
    processed side. A material without a category waits, and the report says why."""
    data = json.loads(V3.read_text())
    data["customMaterials"] += [
        {"name": "Glowing Moss (dried)", "cat": "plant", "processed": None, "image": None,
         "marks": [None, "Orange 3", "Blue 6", None], "notes": None},
        {"name": "Strange Shard", "cat": "unknown", "processed": None, "image": None,
         "marks": ["Silver 1", None, None, None], "notes": None}]
    src = tmp_path / "mats.json"
    src.write_text(json.dumps(data))
    campaign, report = wj.import_new(src, tmp_path / "x.stonesaga")
    with campaign:
        moss = campaign.content.materials["glowing-moss"]
        right = moss.processed.pip(Edge.RIGHT)
        assert right is not None and (right.colour, right.count) == (PipColour.ORANGE, 3)
        assert "strange-shard" not in campaign.content.materials
        side_file = yaml.safe_load(Path(report.materials_file).read_text(encoding="utf-8"))
        assert [m["name"] for m in side_file["web_journal"]] == [
            "Glowing Moss", "Glowing Moss (dried)", "Strange Shard"]
        assert side_file["web_journal"][1] == {"name": "Glowing Moss (dried)",
                                               "side_of": "glowing-moss", "image": None,
                                               "notes": None, "processed": None}
        (waiting,) = report.materials_waiting
        assert waiting.startswith("Strange Shard: its category is 'unknown'")
        assert f"  custom material {waiting}" in report.lines()
        assert report.materials_added == ("Glowing Moss",)
        back = wjx.export_document(campaign)["customMaterials"]
        assert back == data["customMaterials"]


def test_the_report_counts_every_section(v3: Any) -> None:
    _, report = v3
    counts = {s.key: (s.added, s.conflicts, s.already) for s in report.sections}
    assert counts == {"codes": (8, 0, 0), "culture": (6, 0, 0), "behemoths": (1, 0, 0),
                      "challenges": (2, 0, 0), "looming": (2, 0, 0),
                      "investigations": (1, 0, 0), "notes": (1, 0, 0), "outposts": (0, 0, 0),
                      "codex": (0, 0, 0), "drawings": (0, 0, 0),
                      "materials": (1, 0, 0), "kept": (0, 0, 0)}
    assert report.to_dict()["shape"] == "version 3"


@pytest.mark.parametrize("fixture, expected", [
    (V2, {"Y1111": ("recipe", "Rope"), "R2224": ("null", "")}),
    (V2_EARLY, {"R1421": ("recipe", "Fishing Spear"), "R5100": ("recipe", "Torch"),
                "B2212": ("null", "")}),
    (BARE, {"Y1111": ("recipe", "Rope"), "R1231": ("recipe", "Bone Knife"),
            "B2212": ("recipe", "Bone Knife")}),
])
def test_version_2_variants_and_the_bare_array(fixture: Path, expected: dict[str, Any],
                                               tmp_path: Path) -> None:
    campaign, report = wj.import_new(fixture, tmp_path / "x.stonesaga")
    with campaign:
        assert {k: (r.status, r.name) for k, r in codes(campaign).items()} == expected
        assert report.kept_as_notes == ()
        item_cards = {k: r.data.get("item_id") for k, r in codes(campaign).items()
                      if r.status == "recipe"}
        # Rulebook: Crafting Items: the explorer knows every imported code.
        with campaign.file.read() as session:
            lookup = _record_lookup(_known(session))
        for key, (status, name) in expected.items():
            known = lookup(CraftingCode.parse(key))
            assert known is not None, key
            assert (known.dead_end, known.item_name or "") == (status == "null", name)
        if fixture == V2:
            assert [m["name"] for m in wj.read_custom_materials("sample")] == ["Glowing Moss"]
    if fixture == V2_EARLY:  # the item card is "itemNum"; the generated "id" is not kept
        assert item_cards == {"R1421": "IT05", "R5100": None}
        with operations.open_campaign(tmp_path / "x.stonesaga") as again:
            assert codes(again)["R1421"].data["notes"] == "First find!"
    if fixture == BARE:
        assert item_cards == {"Y1111": "IT29", "R1231": "IT01", "B2212": "IT01"}


def test_the_newer_app_name_is_read_too(tmp_path: Path) -> None:
    data = json.loads(V2.read_text())
    data["app"] = "Stonesaga Campaign Journal"
    src = tmp_path / "new-name.json"
    src.write_text(json.dumps(data))
    campaign, _ = wj.import_new(src, tmp_path / "x.stonesaga")
    with campaign:
        assert "Y1111" in codes(campaign)


# --- bad input: refused with the field's path, nothing created -------------------------


def _v3_with(change: Any) -> str:
    data = json.loads(V3.read_text())
    change(data)
    return json.dumps(data)


BAD = {
    "not json": ("{{{", "not valid JSON"),
    "truncated": (V3.read_text()[:400], "truncated"),
    "neither format": (json.dumps({"hello": 1}), "it holds a JSON object with the keys "
                       "hello; expected a Stonesaga Campaign Journal file"),
    "a number": (json.dumps(7), "it holds only a JSON number \\(7\\); expected a Stonesaga "
                 "Campaign Journal file"),
    "unknown version": (_v3_with(lambda d: d.update(version=9)), "version: web journal "
                        "version 9 is unknown"),
    "digits a number": (_v3_with(lambda d: d["recipes"][1]["codes"][0].update(digits=1421)),
                        r"recipes\[1\]\.codes\[0\]\.digits: expected text"),
    "bad colour": (_v3_with(lambda d: d["recipes"][0]["codes"][1].update(color="Pink")),
                   r"recipes\[0\]\.codes\[1\]: 'Pink' is not a pip colour"),
    "codes not a list": (_v3_with(lambda d: d["recipes"][0].update(codes="Y1111")),
                         r"recipes\[0\]\.codes: expected a list"),
    "demeanor dial": (_v3_with(lambda d: d["behemoths"][0].update(demeanor=12)),
                      r"behemoths\[0\]\.demeanor: a demeanor dial is 1 to 9"),
    "demeanor object": (_v3_with(lambda d: d["behemoths"][0].update(demeanor={})),
                        r"behemoths\[0\]\.demeanor: expected a whole number"),
    "item card a number": (_v3_with(lambda d: d["recipes"][0].update(itemNum=29)),
                           r"recipes\[0\]\.itemNum: expected text"),
    "epoch object": (_v3_with(lambda d: d["challengeRecord"][1].update(epoch={})),
                     r"challengeRecord\[1\]\.epoch"),
    "bad null key": (_v3_with(lambda d: d["nullCodes"].update({"Blue": {}})),
                     r"nullCodes\['Blue'\]"),
    "taboo a number": (_v3_with(lambda d: d["culture"]["taboos"][0].update(text=3)),
                       r"culture\.taboos\[0\]\.text: expected text"),
    "wrong app": (_v3_with(lambda d: d.update(app="Other Journal")), "app:"),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_bad_files_are_refused_with_the_field_and_create_nothing(case: str,
                                                                 tmp_path: Path) -> None:
    text, message = BAD[case]
    folder = tmp_path / "in"
    folder.mkdir()
    src = folder / "journal.json"
    src.write_text(text, encoding="utf-8")
    with pytest.raises(Refused, match=message):
        wj.import_new(src, folder / "new.stonesaga")
    assert sorted(p.name for p in folder.iterdir()) == ["journal.json"]
    assert not (tmp_path / "in" / "new.stonesaga.backups").exists()


def test_a_failure_while_writing_leaves_no_file_and_no_backups(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*_a: Any, **_k: Any) -> Any:
        raise Refused("the disk went away")

    monkeypatch.setattr(wj, "apply", broken)
    with pytest.raises(Refused, match="disk went away"):
        wj.import_new(V3, tmp_path / "new.stonesaga")
    assert sorted(p.name for p in tmp_path.iterdir()) == []


# --- into an existing campaign ----------------------------------------------------------


def test_preview_shows_added_conflicts_and_already_there(tmp_path: Path) -> None:
    campaign, _ = wj.import_new(V2, tmp_path / "x.stonesaga")
    with campaign:
        plan = wj.preview(campaign, V3)
        by_label = {i.label: i.state for i in plan.items}
        assert by_label["R2224 (dead end)"] == "already there"
        assert by_label["Y1111 Rope"] == "conflict"  # the v3 file knows the alternative pair
        assert by_label["R1421 Fishing Spear"] == "added"
        assert by_label["Glowing Moss"] == "already there"
        summary = {s.key: (s.added, s.conflicts, s.already) for s in plan.summary()}
        assert summary["codes"] == (6, 1, 1)
        assert summary["behemoths"] == (1, 0, 0)


def test_conflicting_behemoth_ours_kept_or_theirs_taken(tmp_path: Path) -> None:
    campaign, _ = wj.import_new(V3, tmp_path / "x.stonesaga")
    with campaign:
        with campaign.write("test", "The group placates Mossback") as session:
            beast = session.exec(select(models.BehemothState)).one()
            beast.lair_hex = "VV05"
        plan = wj.preview(campaign, V3)
        (conflict,) = plan.conflicts()
        assert conflict.section == "behemoths"
        assert conflict.detail == "lair hex: ours VV05, the file VV02"
        wj.apply(campaign, plan, {"behemoths": "add"})
        assert rows(campaign, models.BehemothState)[0].lair_hex == "VV05"
        wj.apply(campaign, wj.preview(campaign, V3), {"behemoths": "theirs"})
        assert [b.lair_hex for b in rows(campaign, models.BehemothState)] == ["VV02"]


def test_importing_the_same_file_twice_adds_nothing(v3: Any) -> None:
    campaign, _ = v3
    before = {t.__name__: len(rows(campaign, t)) for t in models.GAME_TABLES}
    plan = wj.preview(campaign, V3)
    assert {i.state for i in plan.items} == {"already there"}
    report = wj.import_into(campaign, V3)
    assert all(s.added == 0 for s in report.sections)
    assert {t.__name__: len(rows(campaign, t)) for t in models.GAME_TABLES} == before


def test_per_section_choice_and_one_undo(tmp_path: Path) -> None:
    campaign, _ = wj.import_new(V2_EARLY, tmp_path / "x.stonesaga")
    with campaign:
        before = {t.__name__: len(rows(campaign, t)) for t in models.GAME_TABLES}
        changes = wj.apply(campaign, wj.preview(campaign, V3), {"notes": "skip",
                                                                 "behemoths": "skip"})
        assert [n.title for n in j.note_pages(campaign)] == []  # "Kim's theories" left out
        assert rows(campaign, models.BehemothState) == []
        assert len(rows(campaign, models.ChallengeLogEntry)) == 2
        assert campaign.undo_label() == changes.summary
        assert changes.summary.endswith(wj.MATERIALS_STAY)
        operations.undo(campaign)
        assert {t.__name__: len(rows(campaign, t)) for t in models.GAME_TABLES} == before


def test_unknown_choices_are_refused(v3: Any) -> None:
    campaign, _ = v3
    with pytest.raises(Refused, match="Unknown import choice"):
        wj.apply(campaign, wj.preview(campaign, V2), {"codes": "maybe"})


# --- export, and the round trip ------------------------------------------------------------

#: Bookkeeping of the web app (sync ids, timestamps, the Drive link)
#: is not part of the campaign; everything else must come back.
_BOOKKEEPING = {"id", "updatedAt", "addedAt"}


def _web_fields(document: dict[str, Any]) -> dict[str, Any]:
    def clean(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: clean(v) for k, v in value.items()
                    if k not in _BOOKKEEPING and v not in (None, "", [], False)}
        if isinstance(value, list):
            return [clean(v) for v in value]
        return value

    doc = clean({k: v for k, v in document.items()
                 if k not in ("exportedAt", "lastUpdated", "driveFileId")})
    for looming in doc.get("loomingChallenges", []):
        looming.pop("order", None)
    doc["loomingChallenges"] = sorted(doc.get("loomingChallenges", []),
                                      key=lambda e: e.get("prepareBy", ""))
    return doc


def test_export_writes_every_field_the_web_app_has(v3: Any, tmp_path: Path) -> None:
    campaign, _ = v3
    out = tmp_path / "back.json"
    counts = wjx.export_web_journal(campaign, out)
    document = json.loads(out.read_text(encoding="utf-8"))
    assert document["app"] == "Stonesaga Crafting Journal" and document["version"] == 5
    # The mantle powers go back to their place, not to the note pages.
    assert counts["recipes"] == 3 and counts["note pages"] == 1
    assert set(document) >= {"exportedAt", "lastUpdated", "driveFileId"}
    result = compare(json.loads(V3.read_text(encoding="utf-8")), document)
    assert (result.different, result.missing) == ([], [])
    assert [e["order"] for e in document["loomingChallenges"]] == [0, 1]


def test_round_trip_ours_to_web_to_ours_keeps_every_field(v3: Any, tmp_path: Path) -> None:
    campaign, _ = v3
    out = tmp_path / "back.json"
    wjx.export_web_journal(campaign, out)
    again, _ = wj.import_new(out, tmp_path / "again.stonesaga")
    with again:
        for table in (models.CodeRecord, models.BehemothState, models.ChallengeLogEntry,
                      models.LoomingChallenge, models.OmenInvestigation, models.NotePage):
            def dump(c: Campaign, t: Any = table) -> list[dict[str, Any]]:
                return [r.model_dump(exclude={"id", "epoch"} if t in (
                    models.LoomingChallenge, models.OmenInvestigation) else {"id"})
                    for r in rows(c, t)]
            assert dump(again) == dump(campaign), table.__name__
        assert again.title == campaign.title


def test_newer_files_fields_have_homes_and_deleted_entries_are_skipped(
        tmp_path: Path) -> None:
    data = json.loads(V3.read_text())
    data["version"] = 5
    # Later versions: card IDs on structures and behemoths, the demeanor dial, secrets
    # as cards, the lair overlay and zone, mantles, the cave wall.
    data["behemoths"][0].update(lairOverlay="OG03", lairZone="B", cardId="BH03", demeanor=6,
                                secrets=[{"cardId": "BT01", "name": "Soft Belly",
                                          "description": "Strikes twice."}, "Hates fire"])
    data["culture"]["structures"][0]["cardId"] = "ST02"
    data["culture"]["mantlePowers"] = [{"id": "x1", "mantle": "Seeker", "name": "Far Sight"}]
    data["notePages"].append({"id": "x2", "title": "Old", "body": "gone", "deleted": True})
    data["caveWall"] = [{"id": "w1", "name": "The flood",
                         "strokes": [{"c": 1, "w": 14, "pts": [10, 20, 30, 40]}]}]
    src = tmp_path / "v5.json"
    src.write_text(json.dumps(data))
    campaign, report = wj.import_new(src, tmp_path / "x.stonesaga")
    with campaign:
        (beast,) = rows(campaign, models.BehemothState)
        assert (beast.behemoth_id, beast.demeanor, beast.note, beast.lair_overlay,
                beast.lair_zone) == ("BH03", 6, "Sleeps through the day.", "OG03", "B")
        assert beast.secrets == [{"card_id": "BT01", "name": "Soft Belly",
                                  "description": "Strikes twice."},
                                 {"card_id": "", "name": "Hates fire", "description": ""}]
        page = j.culture(campaign)
        assert [e.text for e in page.lists["structures"]] == [
            "ST02 Fire Pit — Built in the first winter"]
        assert [e.text for e in page.lists["mantle_powers"]] == [
            "Mantle of the Seeker: Far Sight"]
        (drawing,) = rows(campaign, models.CaveWallIllustration)
        assert (drawing.title, drawing.strokes) == ("The flood", data["caveWall"][0]["strokes"])
        back = wjx.export_document(campaign)
        assert back["behemoths"][0]["secrets"] == data["behemoths"][0]["secrets"]
        assert back["caveWall"][0]["id"] == "w1"
        assert report.kept_as_notes == ()
        assert "1 entries the web journal had deleted (kept as deleted: they go back to the " \
        "Journal with the export)" in report.not_imported
        assert "Old" not in {n.title for n in j.note_pages(campaign)}
    result = compare(data, back)
    assert (result.different, result.missing) == ([], [])


def test_a_code_on_two_recipes_and_a_recipe_without_codes_are_kept_as_notes(
        tmp_path: Path) -> None:
    src = tmp_path / "clash.json"
    src.write_text(json.dumps([
        {"id": "IT29", "name": "Rope", "codes": [{"color": "Yellow", "digits": "1111"}]},
        {"id": "IT30", "name": "Cord", "codes": [{"color": "Yellow", "digits": "1111"}]},
        {"id": "IT31", "name": "Net", "codes": [], "notes": "Found by accident"},
    ]))
    campaign, report = wj.import_new(src, tmp_path / "x.stonesaga")
    with campaign:
        assert {k: r.name for k, r in codes(campaign).items()} == {"Y1111": "Rope"}
        notes = {n.title: n.text for n in j.note_pages(campaign)}
        assert "IT30" in notes["From the web journal: Y1111 Cord (the file also has Y1111: "
                               "crafts Rope)"]
        assert "Found by accident" in notes["From the web journal: Recipe Net (no code)"]
        assert len(report.kept_as_notes) == 2


# --- the round trip as an invariant --------------------------------------------------------

_words_st = st.text(alphabet="abcdefghij klmnop", min_size=1, max_size=12).map(str.strip) \
    .filter(bool)
_colours = st.sampled_from(("Red", "Blue", "Yellow", "Purple", "Silver", "Grey"))
_digits = st.from_regex(r"[1-6][0-6]{3}", fullmatch=True)


@st.composite
def web_documents(draw: Any) -> dict[str, Any]:
    """Version 3 files as the web app writes them (codes and keys kept unique: a file
    with one code on two recipes is a conflict, tested above)."""
    keys = draw(st.lists(st.tuples(_colours, _digits), min_size=1, max_size=6,
                         unique=True))
    split = draw(st.integers(0, len(keys)))
    recipes = [{"id": f"IT{n}", "name": draw(_words_st),
                "codes": [{"color": c, "digits": d}],
                "mat1Name": draw(_words_st), "mat1Cat": "plant",
                "mat2Name": draw(_words_st), "mat2Cat": "animal",
                "notes": draw(st.one_of(st.just(""), _words_st))}
               for n, (c, d) in enumerate(keys[:split])]
    null_codes = {f"{c} {d}": {"mat1": draw(_words_st), "mat2": draw(_words_st)}
                  for c, d in keys[split:]}
    names = draw(st.lists(_words_st, min_size=4, max_size=4, unique=True))
    return {
        "app": "Stonesaga Crafting Journal", "version": 3, "recipes": recipes,
        "nullCodes": null_codes, "customMaterials": [],
        "culture": {"tribeName": draw(_words_st),
                    "structures": [{"name": names[0], "notes": draw(_words_st)}],
                    "mantlePowers": draw(st.lists(st.builds(
                        lambda n, d: {"name": n, "description": d}, _words_st, _words_st),
                        max_size=2)),
                    "knowledgeCards": [{"cardId": "KN01", "name": names[1]}],
                    "taboos": [{"text": names[2]}], "pigments": [{"name": names[3]}]},
        "behemoths": [{"name": f"{draw(_words_st)} {n}",
                       "lairHex": draw(st.sampled_from(("", "VV02", "SP11"))),
                       "demeanor": draw(st.sampled_from(("", "Restless", "Aggressive"))),
                       "secrets": draw(st.lists(_words_st, max_size=2)),
                       "notes": draw(st.one_of(st.just(""), _words_st))}
                      for n in range(draw(st.integers(0, 2)))],
        "challengeRecord": [{"epoch": str(n + 1), "name": draw(_words_st), "cardId": f"CH{n}",
                             "outcome": draw(st.sampled_from(("", "Won", "Lost", "Fled"))),
                             "notes": draw(_words_st)} for n in range(draw(st.integers(0, 3)))],
        "loomingChallenges": [{"name": draw(_words_st), "cardId": f"CH9{n}",
                               "prepareBy": draw(st.sampled_from((str(n + 2), "",
                                                                  "before the thaw"))),
                               "notes": draw(st.one_of(st.just(""), _words_st)), "order": n}
                              for n in range(draw(st.integers(0, 3)))],
        "investigations": [{"omen": draw(_words_st), "cardId": f"IV{n}",
                            "notes": draw(_words_st)} for n in range(draw(st.integers(0, 2)))],
        "notePages": [{"title": t, "body": draw(_words_st)}
                      for t in draw(st.lists(_words_st, max_size=3, unique=True))],
        "provisionalCodes": {},
    }


@settings(max_examples=15, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(document=web_documents())
def test_round_trip_invariant_web_to_ours_to_web(document: dict[str, Any],
                                                 tmp_path: Path) -> None:
    with tempfile.TemporaryDirectory(dir=tmp_path) as folder:
        src = Path(folder) / "journal.json"
        src.write_text(json.dumps(document), encoding="utf-8")
        campaign, report = wj.import_new(src, Path(folder) / "x.stonesaga")
        with campaign:
            assert report.kept_as_notes == ()
            back = wjx.export_document(campaign)
        result = compare(document, back)
        assert (result.different, result.missing) == ([], [])


def test_a_structure_edited_on_the_web_is_a_difference_not_a_second_line(v3: Any,
                                                                         tmp_path: Path) -> None:
    campaign, _ = v3
    data = json.loads(V3.read_text())
    data["culture"]["structures"][0]["notes"] = "Rebuilt after the flood"
    src = tmp_path / "edited.json"
    src.write_text(json.dumps(data))
    plan = wj.preview(campaign, src)
    (conflict,) = plan.conflicts()
    assert conflict.detail == ("ours: Fire Pit — Built in the first winter; the file: "
                               "Fire Pit — Rebuilt after the flood")
    wj.apply(campaign, plan, {"culture": "theirs"})
    assert [e.text for e in j.culture(campaign).lists["structures"]] == [
        "Fire Pit — Rebuilt after the flood"]


def test_export_is_what_the_web_apps_version_3_importer_reads(v3: Any) -> None:
    """The web app's version 3 importer (app.js at 5649f17) takes ``recipes`` (a list),
    ``nullCodes`` and ``provisionalCodes`` (maps by code), ``customMaterials`` (named),
    ``culture`` with all five lists (it renders each one) and journal lists whose
    entries have an ``id`` (it merges by id); it shows each secret as text, groups the
    record by epoch and orders the looming challenges by ``order``."""
    campaign, _ = v3
    document = wjx.export_document(campaign)
    assert isinstance(document["recipes"], list) and document["recipes"]
    assert all(isinstance(r["codes"], list) and r["id"] and r["name"]
               for r in document["recipes"])
    assert isinstance(document["nullCodes"], dict)
    assert isinstance(document["provisionalCodes"], dict)
    assert all(m["name"] for m in document["customMaterials"])
    culture = document["culture"]
    assert set(culture) >= {"tribeName", "structures", "mantlePowers", "knowledgeCards",
                            "taboos", "pigments"}
    assert culture["mantlePowers"][0]["name"] == "Far Sight"
    for key in ("behemoths", "challengeRecord", "loomingChallenges", "investigations",
                "notePages"):
        assert all(e["id"] for e in document[key]), key
    for kind in ("structures", "mantlePowers", "knowledgeCards", "taboos", "pigments"):
        assert all(e["id"] for e in culture[kind]), kind
    assert all(isinstance(s, str) for b in document["behemoths"] for s in b["secrets"])
    assert [c["epoch"] for c in document["challengeRecord"]] == ["1", "2"]
    assert [(e["order"], e["prepareBy"]) for e in document["loomingChallenges"]] == [
        (0, "2"), (1, "3")]


def test_custom_materials_kept_in_the_first_form_of_the_file_are_not_lost(
        tmp_path: Path) -> None:
    file = wj.materials_file("sample")
    file.parent.mkdir(parents=True, exist_ok=True)
    file.write_text(yaml.safe_dump({"pack": "sample-mine", "materials": [
        {"name": "Old Reed", "category": "plant",
         "marks": {"left": "Blue 1", "right": None, "top": None, "bottom": None}}]}),
        encoding="utf-8")
    campaign, _ = wj.import_new(V3, tmp_path / "x.stonesaga")
    with campaign:
        data = yaml.safe_load(file.read_text(encoding="utf-8"))
        assert [m["name"] for m in data["web_journal"]] == ["Old Reed", "Glowing Moss"]
        assert [m["material"] for m in data["web_journal"]] == ["old-reed", "glowing-moss"]
        assert {"old-reed", "glowing-moss"} <= set(campaign.content.materials)


def test_the_later_version_3_cave_wall_is_drawn_and_goes_back(tmp_path: Path) -> None:
    """The later version 3 (app.js at af5a7b3) adds ``caveWall`` (named drawings as pen
    strokes) and ``updatedAt`` on recipes: each drawing is a picture of the Primal Cave
    Wall, drawn from its strokes, and goes back under its own id."""
    data = json.loads(V3.read_text())
    data["recipes"][0]["updatedAt"] = 1751485201000
    data["caveWall"] = [{"id": "mc0cave01abcd", "name": "Hunter",
                         "strokes": [{"c": 2, "w": 14, "pts": [10, 20, 30, 40]}],
                         "addedAt": 1751485217000, "updatedAt": 1751485217000}]
    src = tmp_path / "later.json"
    src.write_text(json.dumps(data))
    campaign, report = wj.import_new(src, tmp_path / "x.stonesaga")
    with campaign:
        assert report.kept_as_notes == ()
        (line,) = j.cave_wall(campaign)
        assert line.title == "Hunter"
        back = wjx.export_document(campaign)
    assert back["caveWall"] == data["caveWall"]
    assert back["recipes"][0]["updatedAt"] == 1751485201000
