"""Issue 35, items 7 and 8: a Campaign Journal file merged into a campaign edited here
since (``companion import FILE --into CAMPAIGN``), by the Journal's own rule, and the
Journal's tombstones carried back.

The Journal (ShadowfootNZ/stonesaga ``app.js`` at 8aae632) merges union by id: of two
copies of one entry the one with the newer ``updatedAt`` wins, and a deletion is an
entry of its own (``"deleted": true``, with the time of the deletion), so a deletion
beats an older edit and an edit beats an older deletion. Here a deletion made in the
campaign is such a tombstone, an edit made here has the time of the edit, and the
export writes exactly what the campaign holds.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from sqlmodel import select

from companion.operations import Campaign
from companion.operations import files as f
from companion.operations import journal as j
from companion.operations import webjournal as wj
from companion.operations import webjournal_export as wjx
from companion.store import models
from tests.operations.webjournal_compare import compare

FIXTURES = Path(__file__).parents[1] / "fixtures" / "web-journal"
PLAYED = FIXTURES / "v5-8aae632-played.json"
"""A campaign played in the Journal (app.js at 8aae632) and exported by it."""
TABLES = (models.CodeRecord, models.BehemothState, models.ChallengeLogEntry,
          models.LoomingChallenge, models.OmenInvestigation, models.NotePage,
          models.Outpost, models.OutpostStructure, models.CodexEntryRead,
          models.CaveWallIllustration)
"""The tables the Journal's sections live in."""
NEW_TABOO = "Never hunt on a comet night"
NEW_NOTE = "Kim was right: the herd follows the river."


def rows(campaign: Campaign, table: Any) -> list[Any]:
    with campaign.file.read() as session:
        return list(session.exec(select(table).order_by(table.id)).all())


def now_ms() -> int:
    return int(datetime.now(UTC).timestamp() * 1000)


@pytest.fixture
def played(tmp_path: Path) -> Any:
    campaign, _ = wj.import_new(PLAYED, tmp_path / "reed.stonesaga")
    with campaign:
        yield campaign


def edit_here(campaign: Campaign) -> None:
    """The group's evening in the companion after the import: a pigment and the cave
    drawing deleted, the taboo and Kim's note rewritten."""
    culture = j.culture(campaign).lists
    j.remove_culture_entry(campaign, entry_id=culture["pigments"][0].id)
    (drawing,) = rows(campaign, models.CaveWallIllustration)
    j.remove_cave_wall_illustration(campaign, illustration_id=drawing.id or 0)
    j.edit_culture_entry(campaign, entry_id=culture["taboos"][0].id, text=NEW_TABOO)
    with campaign.write("journal.note", "Kim's note rewritten") as session:
        page = session.exec(select(models.NotePage).where(
            models.NotePage.title == "Kim's theories")).one()
        page.text = NEW_NOTE


def journal_file(tmp_path: Path, change: Any, name: str = "later.json") -> Path:
    """The played file as the Journal would export it after ``change(data)``."""
    data = json.loads(PLAYED.read_text())
    change(data)
    out = tmp_path / name
    out.write_text(json.dumps(data))
    return out


def delete_in_journal(entry: dict[str, Any], when: int) -> None:
    """What the Journal's deleteJournalEntry does: the entry stays, marked deleted,
    with the time of the deletion."""
    entry.update(deleted=True, updatedAt=when)


def sections(campaign: Campaign) -> dict[str, list[str]]:
    """Every row of the Journal's sections, less row numbers and list positions."""
    out = {}
    for table in TABLES:
        dumps = [r.model_dump(exclude={"id", "position", "outpost_id"}) for r in
                 rows(campaign, table)]
        out[table.__name__] = sorted(json.dumps(d, sort_keys=True, default=str)
                                     for d in dumps)
    return out


def assert_export_agrees(campaign: Campaign, tmp_path: Path) -> dict[str, Any]:
    """Export, read the export back into a new campaign: every section is the
    campaign's, and the Journal's ids (tombstones included) are the export's."""
    out = tmp_path / f"agree-{len(list(tmp_path.iterdir()))}.json"
    wjx.export_web_journal(campaign, out)
    again, _ = wj.import_new(out, out.with_suffix(".stonesaga"))
    with again:
        assert sections(again) == sections(campaign)
        assert {k: [e.text for e in v] for k, v in j.culture(again).lists.items()} == {
            k: [e.text for e in v] for k, v in j.culture(campaign).lists.items()}
        back = wjx.export_document(again)
    first = json.loads(out.read_text())
    result = compare(first, back, live_only=False)
    assert (result.different, result.missing) == ([], [])
    return first


def live(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [e for e in entries if not e.get("deleted")]


# --- item 7: what was deleted or edited here stays so ------------------------------------


def test_issue35_7_deleted_here_is_not_brought_back_by_the_journals_older_file(
        played: Campaign, tmp_path: Path) -> None:
    edit_here(played)
    wj.import_into(played, PLAYED)
    assert [e.text for e in j.culture(played).lists["pigments"]] == []
    assert rows(played, models.CaveWallIllustration) == []
    back = assert_export_agrees(played, tmp_path)
    original = json.loads(PLAYED.read_text())
    (pigment,) = back["culture"]["pigments"]
    assert pigment["deleted"] is True
    assert pigment["updatedAt"] > original["culture"]["pigments"][0]["updatedAt"]
    (drawing,) = back["caveWall"]
    assert (drawing["id"], drawing["deleted"]) == (original["caveWall"][0]["id"], True)


def test_issue35_7_an_edit_here_survives_the_import_and_goes_out_newer(
        played: Campaign, tmp_path: Path) -> None:
    edit_here(played)
    plan = wj.preview(played, PLAYED)
    newer = {i.label: i.newer for i in plan.conflicts()}
    assert newer["Taboos: Never hunt on the night of the comet"] == "ours"
    assert newer["Kim's theories"] == "ours"
    wj.import_into(played, PLAYED)
    assert [e.text for e in j.culture(played).lists["taboos"]] == [NEW_TABOO]
    (note,) = [n for n in j.note_pages(played) if n.title == "Kim's theories"]
    assert note.text == NEW_NOTE
    back = assert_export_agrees(played, tmp_path)
    original = json.loads(PLAYED.read_text())
    (taboo,) = back["culture"]["taboos"]
    assert taboo["text"] == NEW_TABOO
    assert taboo["updatedAt"] > original["culture"]["taboos"][0]["updatedAt"]
    (page,) = [p for p in back["notePages"] if p.get("title") == "Kim's theories"]
    assert page["body"] == NEW_NOTE
    assert page["updatedAt"] > next(p["updatedAt"] for p in original["notePages"]
                                    if p.get("title") == "Kim's theories")


def test_issue35_7_the_journals_newer_side_wins_by_default(played: Campaign,
                                                           tmp_path: Path) -> None:
    """After our edits the group went on in the Journal: it deleted a behemoth, rewrote
    the taboo and the note we had rewritten, and painted the drawing we had deleted
    again. Newer wins, entry by entry, with no choice to make."""
    edit_here(played)
    later = now_ms() + 60_000

    def journal_went_on(data: dict[str, Any]) -> None:
        delete_in_journal(data["behemoths"][1], later)
        data["culture"]["taboos"][0].update(text="Never eat the heron", updatedAt=later)
        page = next(p for p in data["notePages"] if p.get("title") == "Kim's theories")
        page.update(body="Kim was wrong.", updatedAt=later)
        data["caveWall"][0].update(name="Hunter, again", updatedAt=later)
    src = journal_file(tmp_path, journal_went_on)
    plan = wj.preview(played, src)
    assert {i.label: i.newer for i in plan.conflicts()} == {
        "Glass Heron (deleted in the web journal)": "theirs",
        "Taboos: Never eat the heron": "theirs",
        "Kim's theories": "theirs",
        "Hunter, again": "theirs",  # deleted here, painted again there since
        "Pigments: Red ochre": "ours"}  # deleted here since the Journal's copy
    wj.apply(played, plan)
    assert [b.name for b in rows(played, models.BehemothState)] == ["Mossback"]
    assert [e.text for e in j.culture(played).lists["taboos"]] == ["Never eat the heron"]
    assert [n.text for n in j.note_pages(played) if n.title == "Kim's theories"] == [
        "Kim was wrong."]
    assert [d.title for d in rows(played, models.CaveWallIllustration)] == ["Hunter, again"]
    assert [e.text for e in j.culture(played).lists["pigments"]] == []  # ours is newer
    back = assert_export_agrees(played, tmp_path)
    heron = next(b for b in back["behemoths"] if b["id"] == json.loads(
        src.read_text())["behemoths"][1]["id"])
    assert (heron["deleted"], heron["updatedAt"], heron["name"]) == (True, later,
                                                                      "Glass Heron")


def test_issue35_7_an_older_deletion_in_the_journal_loses_to_an_edit_here(
        played: Campaign, tmp_path: Path) -> None:
    edit_here(played)
    original = json.loads(PLAYED.read_text())
    earlier = original["culture"]["taboos"][0]["updatedAt"] + 1

    def deleted_before_our_edit(data: dict[str, Any]) -> None:
        delete_in_journal(data["culture"]["taboos"][0], earlier)
    wj.import_into(played, journal_file(tmp_path, deleted_before_our_edit))
    assert [e.text for e in j.culture(played).lists["taboos"]] == [NEW_TABOO]
    back = assert_export_agrees(played, tmp_path)
    (taboo,) = back["culture"]["taboos"]
    assert taboo.get("deleted") is None and taboo["updatedAt"] > earlier


def test_issue35_7_keeping_ours_or_taking_the_files_side_still_chosen_per_section(
        played: Campaign, tmp_path: Path) -> None:
    edit_here(played)
    later = now_ms() + 60_000

    def journal_went_on(data: dict[str, Any]) -> None:
        data["culture"]["taboos"][0].update(text="Never eat the heron", updatedAt=later)
    src = journal_file(tmp_path, journal_went_on)
    wj.apply(played, wj.preview(played, src), {"culture": "add"})  # ours, though older
    assert [e.text for e in j.culture(played).lists["taboos"]] == [NEW_TABOO]
    assert [e.text for e in j.culture(played).lists["pigments"]] == []
    assert_export_agrees(played, tmp_path)
    wj.apply(played, wj.preview(played, PLAYED), {"culture": "theirs", "drawings": "theirs"})
    assert [e.text for e in j.culture(played).lists["pigments"]] == ["Red ochre"]
    assert [d.title for d in rows(played, models.CaveWallIllustration)] == ["Hunter"]
    assert_export_agrees(played, tmp_path)


def test_issue35_7_the_campaign_and_its_export_agree_after_every_import(
        played: Campaign, tmp_path: Path) -> None:
    edit_here(played)
    for choice in ("newer", "add", "theirs"):
        wj.apply(played, wj.preview(played, PLAYED),
                 dict.fromkeys(wj.SECTIONS, choice) | {"materials": "add"})
        assert_export_agrees(played, tmp_path)


def test_issue35_7_the_merge_is_one_step_undo_gives_the_export_back(
        played: Campaign, tmp_path: Path) -> None:
    edit_here(played)
    later = now_ms() + 60_000

    def journal_went_on(data: dict[str, Any]) -> None:
        delete_in_journal(data["behemoths"][1], later)
        data["caveWall"][0].update(name="Hunter, again", updatedAt=later)
    src = journal_file(tmp_path, journal_went_on)
    before = wjx.export_document(played)
    wj.import_into(played, src)
    assert wjx.export_document(played) != before
    f.undo(played)
    after = wjx.export_document(played)
    for key in ("exportedAt", "lastUpdated"):
        before.pop(key), after.pop(key)
    assert after == before


def test_issue35_7_the_report_says_what_the_merge_did(played: Campaign, tmp_path: Path
                                                      ) -> None:
    edit_here(played)
    later = now_ms() + 60_000

    def journal_went_on(data: dict[str, Any]) -> None:
        delete_in_journal(data["behemoths"][1], later)
        data["culture"]["knowledgeCards"][0].update(name="Fire lore", updatedAt=later)
    report = wj.import_into(played, journal_file(tmp_path, journal_went_on))
    outcomes = dict(report.outcomes)
    assert outcomes["Pigments: Red ochre"] == "kept here (deleted here)"
    assert outcomes["Taboos: Never hunt on the night of the comet"] == \
        "kept here (newer here)"
    assert outcomes["Glass Heron (deleted in the web journal)"] == "deleted (as in the Journal)"
    assert outcomes["Knowledge cards: KN4 Fire lore"] == "taken from the Journal (newer there)"
    text = "\n".join(report.lines())
    assert "kept here (deleted here): Pigments: Red ochre" in text


# --- item 8: the Journal's tombstones go back -------------------------------------------


def tombstones(document: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Every deleted entry of a Journal document by section and id (or key)."""
    out: dict[str, dict[str, Any]] = {}
    for key, value in document.items():
        if key == "culture":
            for kind, entries in (value or {}).items():
                if isinstance(entries, list):
                    out.update({f"culture.{kind}/{e.get('id')}": e for e in entries
                                if isinstance(e, dict) and e.get("deleted")})
        elif isinstance(value, list):
            out.update({f"{key}/{e.get('id') or e.get('name')}": e for e in value
                        if isinstance(e, dict) and e.get("deleted")})
        elif isinstance(value, dict):
            out.update({f"{key}/{k}": e for k, e in value.items()
                        if isinstance(e, dict) and e.get("deleted")})
    return out


def deleted_in_six_tabs(data: dict[str, Any]) -> None:
    """The group deleted more in the Journal: an entry of each list in six tabs."""
    when = int(datetime.fromisoformat(data["exportedAt"]).timestamp() * 1000) + 5000
    for entries in (data["behemoths"], data["challengeRecord"], data["investigations"],
                    data["codexEntries"], data["culture"]["knowledgeCards"],
                    data["culture"]["mantlePowers"], data["notePages"]):
        delete_in_journal(next(e for e in entries if not e.get("deleted")), when)


def test_issue35_8_every_tombstone_of_the_journal_goes_back_whole(tmp_path: Path) -> None:
    src = journal_file(tmp_path, deleted_in_six_tabs, "deleted.json")
    original = tombstones(json.loads(src.read_text()))
    assert len(original) == 12
    campaign, _ = wj.import_new(src, tmp_path / "x.stonesaga")
    with campaign:
        back = tombstones(wjx.export_document(campaign))
    assert back == original  # every field of each (85 here)


def test_issue35_8_tombstones_merged_into_a_campaign_go_back_and_are_undone(
        played: Campaign, tmp_path: Path) -> None:
    src = journal_file(tmp_path, deleted_in_six_tabs, "deleted.json")
    wj.import_into(played, src)
    original = tombstones(json.loads(src.read_text()))
    back = wjx.export_document(played)
    assert tombstones(back) == original
    ids = {k.split("/")[0] for k in original}
    assert ids >= {"behemoths", "challengeRecord", "investigations", "codexEntries",
                   "culture.knowledgeCards", "culture.mantlePowers", "notePages"}
    assert_export_agrees(played, tmp_path)


def test_issue35_8_the_journal_shows_our_export_s_recently_deleted(tmp_path: Path) -> None:
    """The Journal's "Recently deleted" list names each deleted entry by its name,
    title, omen, text or entry number (app.js ``jeLabelOf``): those fields go back."""
    src = journal_file(tmp_path, deleted_in_six_tabs, "deleted.json")
    campaign, report = wj.import_new(src, tmp_path / "x.stonesaga")
    with campaign:
        back = wjx.export_document(campaign)
    assert any("12 entries the web journal had deleted" in n for n in report.not_imported)
    assert len(tombstones(back)) == 12
    for entry in tombstones(back).values():
        assert any(entry.get(k) for k in ("name", "title", "omen", "text", "entry", "mat1"))


def test_issue35_8_a_deleted_custom_material_goes_back_too(tmp_path: Path) -> None:
    """The Journal's Materials tab lists its deleted custom materials (by name): one
    deleted there goes back, unless a material of that name is made again."""
    def deleted_material(data: dict[str, Any]) -> None:
        data["customMaterials"].append({"name": "Ash Clay", "cat": "mineral",
                                        "processed": None, "image": None, "marks": None,
                                        "notes": None, "updatedAt": 1783105290000,
                                        "deleted": True})
    src = journal_file(tmp_path, deleted_material, "materials.json")
    campaign, _ = wj.import_new(src, tmp_path / "x.stonesaga")
    with campaign:
        back = wjx.export_document(campaign)["customMaterials"]
    assert [m["name"] for m in back] == ["Glowing Moss", "Ash Clay"]
    assert back[1] == json.loads(src.read_text())["customMaterials"][1]


def test_issue35_7_a_deleted_rows_number_given_to_a_new_row_is_a_new_entry(
        played: Campaign, tmp_path: Path) -> None:
    """SQLite gives the number of the last row deleted to the next new row: the Journal's
    note deleted here stays a tombstone, the new note is an entry of its own."""
    original = json.loads(PLAYED.read_text())
    kim = next(p for p in original["notePages"] if p.get("title") == "Kim's theories")
    with played.write("journal.note", "Kim's note torn out") as session:
        (page,) = session.exec(select(models.NotePage).where(
            models.NotePage.title == "Kim's theories")).all()
        number = page.id
        session.delete(page)
    with played.write("journal.note", "A new note") as session:
        page = models.NotePage(title="Rain", text="It rained for three days.")
        session.add(page)
        session.flush()
        assert page.id == number
    back = assert_export_agrees(played, tmp_path)
    pages = {p["id"]: p for p in back["notePages"]}
    assert pages[kim["id"]]["deleted"] is True
    assert pages[kim["id"]]["title"] == "Kim's theories"  # its Recently deleted label
    (rain,) = [p for p in pages.values() if p.get("title") == "Rain"]
    assert rain["id"] != kim["id"] and not rain.get("deleted")
    wj.import_into(played, PLAYED)  # the Journal's older copy does not bring Kim's back
    assert [n.title for n in j.note_pages(played)] == ["Rain"]


def test_issue35_7_made_here_sent_to_the_journal_then_deleted_here_stays_deleted(
        played: Campaign, tmp_path: Path) -> None:
    """A pigment made here went to the Journal with an export; deleted here since, the
    next export carries its tombstone, and the Journal's file does not bring it back."""
    j.add_culture_entry(played, category="pigments", text="Charcoal")
    sent = tmp_path / "sent.json"
    wjx.export_web_journal(played, sent)  # the Journal merges it: it has Charcoal now
    charcoal = next(p for p in json.loads(sent.read_text())["culture"]["pigments"]
                    if p["name"] == "Charcoal")
    page = next(e for e in j.culture(played).lists["pigments"] if e.text == "Charcoal")
    j.remove_culture_entry(played, entry_id=page.id)
    wj.import_into(played, sent)
    assert [e.text for e in j.culture(played).lists["pigments"]] == ["Red ochre"]
    back = assert_export_agrees(played, tmp_path)
    (tomb,) = [p for p in back["culture"]["pigments"] if p["id"] == charcoal["id"]]
    assert (tomb["deleted"], tomb["name"]) == (True, "Charcoal")
    assert tomb["updatedAt"] > charcoal["updatedAt"]


def test_issue35_7_two_note_pages_of_one_title_each_read_back_as_themselves(
        played: Campaign, tmp_path: Path) -> None:
    """Two pages called "Kim's theories" (the Journal's, and one the group's other
    machine imported from another Journal): our export, read back, finds each page its
    own, and neither is taken for a new one."""
    with played.write("journal.note", "a second page of Kim's theories") as session:
        session.add(models.NotePage(title="Kim's theories", text="Another Journal's.",
                                    epoch=1))
    out = tmp_path / "ours.json"
    wjx.export_web_journal(played, out)
    plan = wj.preview(played, out)
    assert [f"{i.section}: {i.label} ({i.state})" for i in plan.items
            if i.state != "already there" and i.section != "materials"] == []


def test_issue35_7_a_behemoth_set_up_in_the_valley_reads_back_with_its_lair(
        tmp_path: Path) -> None:
    """Rulebook: Behemoths > Behemoth Setup: its lair is a hex of the valley. The export
    writes that hex as the Journal's lair hex, and reading the export back finds the
    behemoth already there (it took our lair for "—" beside the file's hex)."""
    from companion import operations
    from companion.operations import behemoth as bh

    campaign = operations.create_demo_campaign(tmp_path / "demo.stonesaga")
    with campaign:
        bh.set_up_behemoth(campaign, behemoth="rimeback")
        out = tmp_path / "ours.json"
        wjx.export_web_journal(campaign, out)
        (entry,) = json.loads(out.read_text())["behemoths"]
        assert entry["lairHex"]
        plan = wj.preview(campaign, out)
        assert [f"{i.section}: {i.label} ({i.state}: {i.detail})" for i in plan.items
                if i.state != "already there" and i.section != "materials"] == []
