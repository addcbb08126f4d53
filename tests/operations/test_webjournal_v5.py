"""Issue 28: the Campaign Journal's versions 2, 3 and 5, with files written by the
Journal's own code (tests/fixtures/web-journal/README.md says which commits and how).

Every section has a home in the campaign; our export goes back field for field under
the Journal's ids and ``updatedAt``; the Journal's merge rule (union by id, newer
``updatedAt`` wins) applied to our export adds no entry twice.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from sqlmodel import select

from companion.operations import Campaign
from companion.operations import journal as j
from companion.operations import webjournal as wj
from companion.operations import webjournal_export as wjx
from companion.store import models
from tests.operations.webjournal_compare import compare, live_ids

FIXTURES = Path(__file__).parents[1] / "fixtures" / "web-journal"
PLAYED = FIXTURES / "v5-8aae632-played.json"
"""A campaign played in the Journal (app.js at 8aae632), exported by it."""
REEXPORTED = FIXTURES / "v5-8aae632-reexported.json"
"""Our export of PLAYED, imported (Replace) by that Journal and exported again by it."""
VERSIONS = {
    "v2 (c2610be)": (FIXTURES / "v2-c2610be-played.json",
                     FIXTURES / "v2-c2610be-reexported.json"),
    "v3 (5649f17)": (FIXTURES / "v3-5649f17-played.json",
                     FIXTURES / "v3-5649f17-reexported.json"),
    "v5 (8aae632)": (PLAYED, REEXPORTED),
}
"""Per Journal version: a campaign played in it and exported by its own code, and the
version 5 Journal's re-export of our export of that file."""
ALL_FILES = [f for pair in VERSIONS.values() for f in pair]


def rows(campaign: Campaign, table: Any) -> list[Any]:
    with campaign.file.read() as session:
        return list(session.exec(select(table).order_by(table.id)).all())


@pytest.fixture
def played(tmp_path: Path) -> Any:
    campaign, report = wj.import_new(PLAYED, tmp_path / "reed.stonesaga")
    with campaign:
        yield campaign, report


def test_using_the_journal_outposts_and_the_structures_built_in_them(played: Any) -> None:
    campaign, _ = played
    (outpost,) = j.outposts(campaign)
    assert (outpost.name, outpost.overlay_id) == ("First Camp", "OP1")
    assert [s.structure_id for s in rows(campaign, models.OutpostStructure)] == ["ST2", "ST07"]
    assert rows(campaign, models.Outpost)[0].notes == "By the river"


def test_mantle_powers_with_their_mantle_on_the_culture_page(played: Any) -> None:
    campaign, _ = played
    assert [e.text for e in j.culture(campaign).lists["mantle_powers"]] == [
        "Mantle of the Seeker: MA1 Far Sight — Look two hexes ahead before moving.",
        "Steady Hands"]


def test_using_the_codex_entries_read_are_numbers_and_notes_only(played: Any) -> None:
    campaign, _ = played
    assert [(c.entry, c.title, c.source_category, c.source_id, c.notes)
            for c in rows(campaign, models.CodexEntryRead)] == [
        ("117", "", "Behemoth card", "BH3", "Read after the first sighting."),
        ("42", "The frozen lake", "Investigation card", "IV3", "")]


def test_the_cave_wall_drawing_keeps_its_strokes(played: Any) -> None:
    campaign, _ = played
    (drawing,) = rows(campaign, models.CaveWallIllustration)
    original = json.loads(PLAYED.read_text())["caveWall"][0]
    assert (drawing.title, drawing.strokes) == ("Hunter", original["strokes"])


def test_behemoths_lair_overlay_and_zone_demeanor_dial_and_secrets_as_cards(
        played: Any) -> None:
    campaign, _ = played
    mossback, heron = rows(campaign, models.BehemothState)
    assert (mossback.lair_hex, mossback.lair_overlay, mossback.lair_zone, mossback.demeanor) \
        == ("VV02", "OG03", "B", 7)
    assert mossback.secrets == [
        {"card_id": "BT1", "name": "Soft Belly", "description": "Strikes to the belly wound "
         "twice"}, {"card_id": "", "name": "Hates fire", "description": ""}]
    assert (heron.behemoth_id, heron.demeanor) == ("BH05", 4)


def test_challenge_status_and_goals_completed_are_fields(played: Any) -> None:
    """Using the Journal > Challenge Log: "resolved" is played to its end; a current
    challenge the Journal has no epoch for yet is one of the epoch the campaign is in
    (here 2, the latest of the record), not epoch 1."""
    campaign, _ = played
    log = rows(campaign, models.ChallengeLogEntry)
    assert [(c.name, c.epoch, c.finished, c.goals_completed) for c in log] == [
        ("The Long Thaw", 1, True, "G105 Gather Water"),
        ("Frost in the Fur", 2, True, ""),
        ("The Deep Cold", 2, False, "")]
    assert "Goals completed" not in log[0].notes


def test_a_dead_end_and_a_community_report_coexist_for_one_code(played: Any) -> None:
    campaign, _ = played
    records = {r.code: r for r in rows(campaign, models.CodeRecord)}
    for code in ("B2232", "R1241"):
        assert records[code].status == "null"
        assert records[code].data["unverified"]["dead_end"] is True
    assert records["B1241"].status == "provisional"
    assert records["B4411"].data["revealed"] is True
    back = wjx.export_document(campaign)
    assert {"Blue 2232", "Red 1241"} <= set(back["nullCodes"]) & set(back["provisionalCodes"])


def test_tombstones_are_not_imported_and_deleted_here_goes_back_as_one(played: Any) -> None:
    campaign, report = played
    assert "5 entries the web journal had deleted (kept as deleted: they go back to the " \
        "Journal with the export)" in report.not_imported
    assert "Broken Net" not in {r.name for r in rows(campaign, models.CodeRecord)}
    page = j.culture(campaign).lists["pigments"][0]
    j.remove_culture_entry(campaign, entry_id=page.id)
    back = wjx.export_document(campaign)
    original = json.loads(PLAYED.read_text())["culture"]["pigments"][0]
    (tomb,) = back["culture"]["pigments"]
    assert (tomb["id"], tomb["deleted"]) == (original["id"], True)
    assert tomb["updatedAt"] > original["updatedAt"]


@pytest.mark.parametrize("fixture", ALL_FILES, ids=[f.stem for f in ALL_FILES])
def test_round_trip_every_field_equal_and_every_id_kept(fixture: Path, tmp_path: Path
                                                        ) -> None:
    original = json.loads(fixture.read_text())
    campaign, _ = wj.import_new(fixture, tmp_path / "x.stonesaga")
    with campaign:
        back = wjx.export_document(campaign)
    result = compare(original, back)
    assert (result.different, result.missing) == ([], [])
    assert result.equal >= 30
    assert {k: v for k, v in live_ids(back).items() if v} == {
        k: v for k, v in live_ids(original).items() if v}
    # A file without a tribe name goes back without one (the campaign took the file's).
    assert back["culture"]["tribeName"] == (original.get("culture") or {}).get(
        "tribeName", "")


@pytest.mark.parametrize("version", list(VERSIONS))
def test_our_export_then_the_journal_then_our_import_changes_nothing(
        version: str, tmp_path: Path) -> None:
    """The re-exported file is the Journal's own export of our export of the played
    file: importing it gives the same campaign as importing the played one."""
    played_file, reexported = VERSIONS[version]
    first, _ = wj.import_new(played_file, tmp_path / "a.stonesaga")
    second, _ = wj.import_new(reexported, tmp_path / "b.stonesaga")
    with first, second:
        for table in (models.CodeRecord, models.BehemothState, models.ChallengeLogEntry,
                      models.LoomingChallenge, models.OmenInvestigation, models.NotePage,
                      models.Outpost, models.OutpostStructure, models.CodexEntryRead,
                      models.CaveWallIllustration):
            def dump(c: Campaign, t: Any = table) -> list[dict[str, Any]]:
                return [r.model_dump(exclude={"id"}) for r in rows(c, t)]
            assert dump(second) == dump(first), table.__name__
        a, b = wjx.export_document(first), wjx.export_document(second)
    result = compare(a, b)
    assert (result.different, result.missing) == ([], [])


def test_importing_the_journals_copy_of_our_export_adds_nothing(played: Any) -> None:
    campaign, _ = played
    plan = wj.preview(campaign, REEXPORTED)
    assert [i.label for i in plan.items if i.state == "added"] == []
    assert plan.conflicts() == []


# --- the Journal's merge: union by id, newer updatedAt wins ---------------------------


def _merge_by_id(local: list[Any], incoming: list[Any]) -> list[Any]:
    merged = {e["id"]: e for e in local}
    for e in incoming:
        cur = merged.get(e["id"])
        if cur is None or (e.get("updatedAt") or 0) > (cur.get("updatedAt") or 0):
            merged[e["id"]] = e
    return list(merged.values())


def _merge_by_key(local: dict[str, Any], incoming: dict[str, Any]) -> dict[str, Any]:
    out = dict(local)
    for k, v in incoming.items():
        if k not in out or (v.get("updatedAt") or 0) > (out[k].get("updatedAt") or 0):
            out[k] = v
    return out


def journal_merge(local: dict[str, Any], incoming: dict[str, Any]) -> dict[str, Any]:
    """The Journal's Merge (app.js ``doImport('merge')``), every section."""
    out = dict(local)
    for key in ("recipes", "behemoths", "challengeRecord", "loomingChallenges",
                "investigations", "notePages", "caveWall", "codexEntries"):
        out[key] = _merge_by_id(local.get(key) or [], incoming.get(key) or [])
    for key in ("nullCodes", "provisionalCodes"):
        out[key] = _merge_by_key(local.get(key) or {}, incoming.get(key) or {})
    culture = dict(local.get("culture") or {})
    for key, value in incoming["culture"].items():
        if isinstance(value, list):
            culture[key] = _merge_by_id(culture.get(key) or [], value)
    out["culture"] = culture
    return out


def _live_count(document: dict[str, Any]) -> int:
    return sum(len(ids) for ids in live_ids(document).values())


@pytest.mark.parametrize("version", list(VERSIONS))
def test_the_journals_merge_of_our_export_adds_no_entry_twice(version: str, tmp_path: Path
                                                              ) -> None:
    played_file = VERSIONS[version][0]
    group = json.loads(played_file.read_text())
    campaign, _ = wj.import_new(played_file, tmp_path / "x.stonesaga")
    with campaign:
        ours = wjx.export_document(campaign)
    if isinstance(group, list):
        group = {"recipes": group}
    group.setdefault("culture", {"tribeName": "", "updatedAt": None})
    merged = journal_merge(group, ours)
    assert _live_count(merged) == _live_count(group)
    result = compare(group, merged)
    assert (result.different, result.missing) == ([], [])


def test_an_edit_and_an_entry_made_here_merge_as_one_entry_each(played: Any) -> None:
    """Edited here: the export's updatedAt is newer, so the Journal takes ours. Made
    here: a new entry with an id from its row, the same at the next export."""
    campaign, _ = played
    group = json.loads(PLAYED.read_text())
    taboo = j.culture(campaign).lists["taboos"][0]
    j.edit_culture_entry(campaign, entry_id=taboo.id, text="Never hunt on a comet night")
    j.add_culture_entry(campaign, category="pigments", text="Charcoal")
    ours = wjx.export_document(campaign)
    merged = journal_merge(group, ours)
    assert [t["text"] for t in merged["culture"]["taboos"]] == ["Never hunt on a comet night"]
    assert sorted(p["name"] for p in merged["culture"]["pigments"]) == ["Charcoal",
                                                                       "Red ochre"]
    again = journal_merge(merged, wjx.export_document(campaign))  # a second sync
    assert _live_count(again) == _live_count(merged) == 31


def test_the_journal_shows_the_lair_overlay_and_zone_and_goals_completed(played: Any
                                                                         ) -> None:
    """Using the Journal: the Behemoths table's Lair column gives the overlay tile and
    zone; the Challenge Log's notes the goals completed (the journal's Markdown, which
    the CLI's journal-export writes, and the Journal book show the same lines)."""
    from companion.operations.export import journal_markdown

    campaign, _ = played
    (mossback, _heron) = j.behemoths(campaign)
    assert mossback.lair_shown == "VV02, overlay OG03 zone B"
    thaw = next(line for line in j.challenge_log(campaign) if line.challenge_name ==
                "The Long Thaw")
    assert thaw.notes_shown == "Ash carried the last stone. Goals completed: G105 Gather Water"
    text = journal_markdown(campaign)
    assert "VV02, overlay OG03 zone B" in text and "Goals completed: G105 Gather Water" in text


def test_tombstones_an_entry_the_journal_deleted_since_is_a_difference_to_choose(
        played: Any, tmp_path: Path) -> None:
    """The group deleted a note page in the Journal after our import: importing the
    Journal's file again offers the deletion; taking the file's side deletes it here."""
    campaign, _ = played
    data = json.loads(PLAYED.read_text())
    page = next(p for p in data["notePages"] if not p.get("deleted"))
    page.update(deleted=True, updatedAt=page["updatedAt"] + 1000)
    src = tmp_path / "later.json"
    src.write_text(json.dumps(data))
    plan = wj.preview(campaign, src)
    (conflict,) = plan.conflicts()
    assert conflict.label == "Kim's theories (deleted in the web journal)"
    wj.apply(campaign, plan, {"notes": "add"})
    assert "Kim's theories" in {n.title for n in j.note_pages(campaign)}
    wj.apply(campaign, wj.preview(campaign, src), {"notes": "theirs"})
    assert "Kim's theories" not in {n.title for n in j.note_pages(campaign)}
    back = wjx.export_document(campaign)
    (tomb,) = [p for p in back["notePages"] if p["id"] == page["id"]]
    assert tomb["deleted"] is True
