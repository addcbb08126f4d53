"""Issue 38 with the web Campaign Journal (issue 35 items 7-8): two machines that import
Journal files while apart end with one campaign whose Journal export is its own, each
entry under its one id, with its one home.

Found by the long shared-campaign harness (seed 7000): an entry's home row travelled by
its number, so a recipe imported on Bryn's laptop pointed, on Ana's, at the row Ana's
own import had made under that number; and the same Journal imported on both made each
of its entries twice.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

from companion.operations import sharing, webjournal, webjournal_export
from companion.operations.webjournal_plan import SECTIONS
from tests.sharing.conftest import Table

FIXTURES = Path(__file__).parents[1] / "operations" / "fixtures"
PLAYED = Path(__file__).parents[1] / "fixtures" / "web-journal"
"""Files the Journal's own code wrote."""
JOURNAL = FIXTURES / "web-journal-v3.json"


def links(campaign: Any) -> list[tuple[str, str, str, int | None]]:
    conn = sqlite3.connect(campaign.path)
    try:
        return list(conn.execute("SELECT section, web_id, row_table, row_id FROM "
                                 "web_journal_link ORDER BY section, web_id"))
    finally:
        conn.close()


def journal_reads_back_as_is(campaign: Any, tmp_path: Path) -> list[str]:
    """What our own Journal export would change if imported into the campaign (nothing,
    when each entry has one home and points at it)."""
    out = tmp_path / f"journal-{campaign.path.stem}-{len(links(campaign))}.json"
    out.write_text(json.dumps(webjournal_export.export_document(campaign)), encoding="utf-8")
    plan = webjournal.preview(campaign, out)
    return [f"{i.section}: {i.label} ({i.state})" for i in plan.items
            if i.state != "already there" and i.section != "materials"]


def homes(campaign: Any) -> list[tuple[str, str, str, int | None]]:
    return [link for link in links(campaign) if link[2]]


def test_issue38_journals_imported_apart_keep_each_entry_at_its_own_home(
        table: Table, tmp_path: Path) -> None:
    """Ana and Bryn each import a different Journal's note pages while apart: both make
    note page 1 there. Merged, each entry points at its own page (it pointed at the
    page the other machine's import made under the same number)."""
    ana, bryn = table.machines["ana"], table.machines["bryn"]
    only_notes = {key: ("newer" if key == "notes" else "skip") for key in SECTIONS}
    webjournal.import_into(ana, PLAYED / "v3-5649f17-played.json", only_notes)
    webjournal.import_into(bryn, PLAYED / "v5-8aae632-played.json", only_notes)
    assert [row for *_, row in homes(ana)] == [row for *_, row in homes(bryn)] == [1]
    table.settle_all_in_step()
    assert table.export("ana") == table.export("bryn")
    for campaign in (ana, bryn):
        assert sharing.conflicts(campaign) == []
        found = homes(campaign)
        assert len(found) == 2
        assert len({(t, r) for _, _, t, r in found}) == 2, found  # a page each
        assert journal_reads_back_as_is(campaign, tmp_path) == []


def test_issue38_the_same_journal_imported_on_both_machines_is_one_conflict(
        table: Table, tmp_path: Path) -> None:
    ana, bryn = table.machines["ana"], table.machines["bryn"]
    webjournal.import_into(ana, JOURNAL)
    webjournal.import_into(bryn, JOURNAL)
    table.settle_all_in_step()
    assert table.export("ana") == table.export("bryn")
    found = sharing.conflicts(ana)
    assert len(found) == 1 and "web journal" in found[0].words
    for campaign in (ana, bryn):
        entries = [(s, w) for s, w, t, _ in links(campaign)]
        assert len(set(entries)) == len(entries)  # each entry once, not twice
        assert journal_reads_back_as_is(campaign, tmp_path) == []
    sharing.settle(bryn, found[0].number, "theirs")
    table.settle_all_in_step()
    assert table.export("ana") == table.export("bryn")
    assert sharing.conflicts(ana) == []
    entries = [(s, w) for s, w, t, _ in links(ana)]
    assert len(set(entries)) == len(entries)
