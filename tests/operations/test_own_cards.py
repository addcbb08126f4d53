"""The owner's cards travel with the campaign (issue 24; DESIGN.md > The owner's box: the
cards a campaign uses travel inside its file, its exports and its backups).

Each test moves the campaign to another data folder by pointing ``COMPANION_HOME``
elsewhere, as another laptop (or a restored export) would be.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest
from sqlmodel import select

from companion import operations, paths
from companion.content import user_pack
from companion.operations import Campaign, Refused, cards, own_cards
from companion.operations import procedures as run
from companion.rules.procedure import Decider
from companion.store import list_backups, models


def copy_of(campaign: Campaign, kind: str, card_id: str, **changes: Any) -> dict[str, Any]:
    data = getattr(campaign.content, kind)[card_id].model_dump(mode="json")
    data.update(changes)
    return data


def first(campaign: Campaign, kind: str) -> str:
    return next(iter(getattr(campaign.content, kind)))


def carried_rows(campaign: Campaign) -> list[tuple[str, str, str, str]]:
    with campaign.file.read() as session:
        return sorted((r.pack_id, r.kind, r.card_id, str(r.data.get("name", "")))
                      for r in session.exec(select(models.OwnCard)).all())


def another_laptop(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, name: str) -> Path:
    """An empty data folder, as on another computer."""
    home = tmp_path / name
    monkeypatch.setenv("COMPANION_HOME", str(home))
    return home


def played(tmp_path: Path) -> Path:
    """A demo campaign that entered a Discovery card and a fishing card (the fishing
    card at the table, mid-procedure, and drawn)."""
    path = tmp_path / "played.stonesaga"
    with operations.create_demo_campaign(path) as campaign:
        cards.enter_card(campaign, kind="discovery_cards", data=copy_of(
            campaign, "discovery_cards", first(campaign, "discovery_cards"), id="DX01",
            name="Bones"))
        run.start_fishing(campaign, name="Ash", feature="river")
        cards.enter_card(campaign, kind="fishing_cards", data=copy_of(
            campaign, "fishing_cards", "FI01", id="FX90"))
        while (step := run.in_progress(campaign).step).decider is not Decider.CARD:
            run.advance(campaign, choice=step.options[0] if step.options else None)
        run.advance(campaign, choice="fx90")  # typed at the table, in any case
    return path


def test_entered_cards_are_carried_in_the_file_in_the_same_operation(
        tmp_path: Path) -> None:
    with operations.create_demo_campaign(tmp_path / "c.stonesaga") as campaign:
        before = campaign.file.last_event_id()
        cards.enter_card(campaign, kind="discovery_cards", data=copy_of(
            campaign, "discovery_cards", first(campaign, "discovery_cards"), id="DX01",
            name="Bones"))
        assert campaign.file.last_event_id() == before + 1  # one journal event
        assert carried_rows(campaign) == [("sample-mine", "discovery_cards", "DX01",
                                           "Bones")]
        (event,) = campaign.file.journal(limit=1)
        assert {c["table"] for c in event.changes} >= {"own_card", "campaign"}


def test_undo_of_entering_a_card_removes_it_from_the_file(tmp_path: Path) -> None:
    with operations.create_demo_campaign(tmp_path / "c.stonesaga") as campaign:
        cards.enter_card(campaign, kind="discovery_cards", data=copy_of(
            campaign, "discovery_cards", first(campaign, "discovery_cards"), id="DX01",
            name="Bones"))
        operations.undo(campaign)
        assert carried_rows(campaign) == []
        operations.redo(campaign)
        assert carried_rows(campaign) == [("sample-mine", "discovery_cards", "DX01",
                                           "Bones")]


def test_opened_with_an_empty_data_folder_it_plays_with_every_card_it_used(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = played(tmp_path)
    another_laptop(monkeypatch, tmp_path, "laptop")
    assert user_pack.find_user_pack("sample-mine") is None
    with operations.open_campaign(path) as campaign:
        assert campaign.content_problem is None
        assert campaign.content.discovery_cards["DX01"].name == "Bones"
        assert cards.is_known(campaign, "fishing_cards", "fx90")
        report = own_cards.carried_report(campaign)
        assert {c.card_id for c in report.missing} == {"DX01", "FX90"}
        assert "companion content adopt" in report.lines()[0]
        # It plays on with them: the fishing begun at home, which drew FX90, resumes here
        # and plays to its end.
        view = run.in_progress(campaign)
        assert view is not None and any("FX90" in str(line) for line in view.log)
        for _ in range(40):
            view = run.in_progress(campaign)
            if view is None or view.step is None:
                break
            player = view.step.decider is Decider.PLAYER
            run.advance(campaign, choice=view.step.options[0] if player else None)
        assert view is None or view.step is None
        # Nothing was written into this computer's data folder by opening it.
        assert user_pack.find_user_pack("sample-mine") is None


def test_an_export_imported_into_another_data_folder_keeps_them(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Cards entered outside a procedure: an export of a campaign whose characters
    # changed does not import until the importer reads partial journal images (issue 24,
    # item 2, another branch).
    path = tmp_path / "entered.stonesaga"
    with operations.create_demo_campaign(path) as campaign:
        for kind, card_id, changes in (("discovery_cards", "DX01", {"name": "Bones"}),
                                       ("fishing_cards", "FX90", {})):
            cards.enter_card(campaign, kind=kind, data=copy_of(
                campaign, kind, first(campaign, kind), id=card_id, **changes))
    with operations.open_campaign(path) as campaign:
        operations.export_campaign(campaign, tmp_path / "played.json")
        rows = carried_rows(campaign)
    another_laptop(monkeypatch, tmp_path, "laptop")
    with operations.import_campaign(tmp_path / "played.json",
                                    tmp_path / "laptop.stonesaga") as imported:
        assert carried_rows(imported) == rows
        assert {"DX01"} <= set(imported.content.discovery_cards)
        assert {"FX90"} <= set(imported.content.fishing_cards)
        imported.file.backup("manual")
    # A backup carries them too.
    backup = list_backups(tmp_path / "laptop.stonesaga")[-1].path
    conn = sqlite3.connect(backup)
    try:
        assert sorted(r[0] for r in conn.execute("SELECT card_id FROM own_card")) == [
            "DX01", "FX90"]
    finally:
        conn.close()


def test_adopting_adds_the_carried_cards_to_this_computers_pack(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = played(tmp_path)
    another_laptop(monkeypatch, tmp_path, "laptop")
    with operations.open_campaign(path) as campaign:
        changes = own_cards.adopt_cards(campaign)
        assert "FX90" in changes.summary and "Bones" in changes.summary
        assert campaign.cards_missing == ()
        with pytest.raises(Refused, match="already has every card"):
            own_cards.adopt_cards(campaign)
        operations.undo(campaign)  # the pack's files are the user's: they stay
    own = user_pack.find_user_pack("sample-mine")
    assert own is not None and own.manifest.extends == "sample"
    assert {e.id for e in user_pack.entries(own.folder)} == {"DX01", "FX90"}
    with operations.open_campaign(path) as again:
        assert again.cards_missing == () and again.cards_edited == ()


def bones_edited_elsewhere(tmp_path: Path) -> tuple[Path, dict[str, Any]]:
    """A demo campaign that entered DX01 (Bones), closed; then another campaign on this
    computer renamed it Old Bones in the own pack. The path, and the edited card."""
    path = tmp_path / "c.stonesaga"
    with operations.create_demo_campaign(path) as campaign:
        cards.enter_card(campaign, kind="discovery_cards", data=copy_of(
            campaign, "discovery_cards", first(campaign, "discovery_cards"), id="DX01",
            name="Bones"))
        edited = copy_of(campaign, "discovery_cards", "DX01", name="Old Bones")
    own = paths.user_content_dir() / "sample-mine"
    user_pack.add_card(own, "discovery_cards", edited, replace="DX01")  # another campaign
    return path, edited


def test_a_card_edited_elsewhere_keeps_the_version_the_campaign_played_with(
        tmp_path: Path) -> None:
    path, edited = bones_edited_elsewhere(tmp_path)
    with operations.open_campaign(path) as campaign:
        assert campaign.content.discovery_cards["DX01"].name == "Bones"
        report = own_cards.carried_report(campaign)
        assert [c.card_id for c in report.edited] == ["DX01"] and report.missing == ()
        (line,) = report.lines()
        assert "keeps the version it played with" in line and "DX01 (Bones)" in line
        # Editing it with the campaign open (My Cards) takes this computer's version.
        cards.enter_card(campaign, kind="discovery_cards", data=edited, replace_id="DX01")
        assert campaign.content.discovery_cards["DX01"].name == "Old Bones"
        assert carried_rows(campaign)[0][3] == "Old Bones"
        assert campaign.cards_edited == ()


def test_adopt_with_edited_writes_the_campaigns_version_over_the_pack(
        tmp_path: Path) -> None:
    path, edited = bones_edited_elsewhere(tmp_path)
    with operations.open_campaign(path) as campaign:
        with pytest.raises(Refused, match="--edited"):
            own_cards.adopt_cards(campaign)
        own_cards.adopt_cards(campaign, edited=True)
        assert campaign.cards_edited == ()
    own = paths.user_content_dir() / "sample-mine"
    (entry,) = [e for e in user_pack.entries(own) if e.id == "DX01"]
    assert entry.name == "Bones"


def test_a_campaign_from_before_schema_3_carries_its_cards_when_opened(
        tmp_path: Path) -> None:
    """A version 2 campaign that used the owner's cards: the migration makes the table,
    and the open that migrates it copies the cards in from the data folder."""
    path = tmp_path / "old.stonesaga"
    with operations.create_demo_campaign(path) as campaign:
        data = copy_of(campaign, "discovery_cards", first(campaign, "discovery_cards"),
                       id="DX07", name="Antler")
    own = user_pack.create_pack("sample-mine", "My cards (Sample)", extends="sample")
    user_pack.add_card(own.folder, "discovery_cards", data)
    conn = sqlite3.connect(path)
    conn.execute("""UPDATE campaign SET content_packs = '[{"id": "sample", "version": "1.0.0"},
                    {"id": "sample-mine", "version": "1.0.1"}]'""")
    # Back to version 2: without every part of schema 3 (this one, and the web journal's).
    from companion.store import migrations

    conn.execute("DROP TABLE own_card")
    for table, _, _ in migrations._V3_WEB_TABLES:
        conn.execute(f"DROP TABLE {table}")
    for table, column, _, _ in migrations._V3_WEB_COLUMNS:
        conn.execute(f"ALTER TABLE {table} DROP COLUMN {column}")
    conn.execute("DROP TABLE log_mark")  # and without schema 4's (issue 35)
    conn.execute("ALTER TABLE campaign DROP COLUMN uid")
    for table in ("sync_state", "sync_op", "sync_row"):  # and schema 5's (issue 38)
        conn.execute(f"DROP TABLE {table}")
    conn.execute("PRAGMA user_version = 2")
    conn.commit()
    conn.close()
    with operations.open_campaign(path) as campaign:
        assert [b.reason for b in list_backups(path)].count("migration") == 1
        # The migration's open copied the card in, as one undoable operation.
        assert carried_rows(campaign) == [("sample-mine", "discovery_cards", "DX07",
                                           "Antler")]
        (event,) = campaign.file.journal(limit=1)
        assert event.kind == "content.carry" and "1 card of your own pack" in event.text
        assert not own_cards.needs_carrying(campaign)
        with pytest.raises(Refused, match="already carries"):
            own_cards.carry_now(campaign)
        operations.undo(campaign)
        assert carried_rows(campaign) == [] and own_cards.needs_carrying(campaign)
        assert "1 card" in own_cards.carry_now(campaign).summary
        assert len(carried_rows(campaign)) == 1


def test_a_card_removed_in_my_cards_with_the_campaign_open_is_no_longer_carried(
        tmp_path: Path) -> None:
    with operations.create_demo_campaign(tmp_path / "c.stonesaga") as campaign:
        cards.enter_card(campaign, kind="discovery_cards", data=copy_of(
            campaign, "discovery_cards", first(campaign, "discovery_cards"), id="DX01",
            name="Bones"))
        own = user_pack.find_user_pack("sample-mine")
        assert own is not None
        user_pack.delete_card(own.folder, "discovery_cards", "DX01")
        cards.reload_content(campaign)
        assert carried_rows(campaign) == []
        assert "DX01" not in campaign.content.discovery_cards


def test_web_journal_custom_materials_travel_with_the_campaign(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from companion.operations import webjournal as wj

    source = Path(__file__).parent / "fixtures" / "web-journal-v3.json"
    campaign, _report = wj.import_new(source, tmp_path / "reed.stonesaga")
    with campaign:
        assert ("sample-mine", "materials", "glowing-moss", "Glowing Moss") in \
            carried_rows(campaign)
    another_laptop(monkeypatch, tmp_path, "laptop")
    with operations.open_campaign(tmp_path / "reed.stonesaga") as again:
        assert again.content.materials["glowing-moss"].name == "Glowing Moss"


def test_rows_no_pack_could_hold_are_left_out_and_write_nothing_outside_the_cache(
        tmp_path: Path) -> None:
    """An imported or hand-made file may hold any text in ``own_card``: a kind or pack
    id that would name a path is never played (nor written anywhere)."""
    path = tmp_path / "c.stonesaga"
    with operations.create_demo_campaign(path) as campaign:
        cards.enter_card(campaign, kind="discovery_cards", data=copy_of(
            campaign, "discovery_cards", first(campaign, "discovery_cards"), id="DX01",
            name="Bones"))
    conn = sqlite3.connect(path)
    for pack_id, kind in (("../../escape", "discovery_cards"), ("sample-mine", "../../x"),
                          ("sample-mine", "discovery_cards")):
        conn.execute("INSERT INTO own_card (pack_id, kind, card_id, data, digest, "
                     "pack_version) VALUES (?, ?, 'DX66', ?, 'x', '1')",
                     (pack_id, kind, '{"id": "DX66", "name": [1]}'))
    conn.commit()
    conn.close()
    with operations.open_campaign(path) as campaign:
        assert "DX01" in campaign.content.discovery_cards  # the sound card still plays
    assert not list(tmp_path.glob("**/escape*")) and not list(tmp_path.glob("**/x.yaml"))
