"""Write the committed fixtures of tests/store/fixtures/ (run by hand, from the repo root).

    .venv/bin/python -m tests.store.make_fixtures

``campaign-v<SCHEMA_VERSION>.stonesaga`` is a small campaign in the *current* schema; once
written it is frozen: when the schema moves on, keep it and add the next version's file,
so every upgrade step stays tested on a real old file. Existing files are never replaced.
"""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime
from pathlib import Path

from companion.store import SCHEMA_VERSION, CampaignFile
from companion.store.models import (
    CaveWallIllustration,
    ChallengeLogEntry,
    Character,
    Legend,
    Outpost,
    OutpostStructure,
    OwnCard,
    Society,
    ValleyHex,
    ValleyTray,
)

FIXTURES = Path(__file__).parent / "fixtures"


def fixed_clock() -> datetime:
    return datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)


def make_campaign(path: Path) -> None:
    """A campaign touching most tables, with some history (including an undone step)."""
    cf = CampaignFile.create(path, clock=fixed_clock, backups=False)
    with cf.transaction("setup", "The Reed People begin") as s:
        tray = ValleyTray(tray_number=1, region="river", placement={"q": 0, "r": 0})
        s.add(tray)
        s.flush()
        assert tray.id is not None
        hex_ = ValleyHex(tray_id=tray.id, slot="A", tile_id="T101", explored=True)
        s.add(hex_)
        s.flush()
        s.add(Character(name="Ash", player="Kim", might=2, traits=["Brave"], hex_id=hex_.id,
                        health=["wound", "blank"], boosts={"might": [1]}))
        outpost = Outpost(name="Riverwatch", category="camp", hex_id=hex_.id, materials=["reed"])
        s.add(outpost)
        s.flush()
        assert outpost.id is not None
        s.add(OutpostStructure(outpost_id=outpost.id, structure_id="S7"))
        s.add(ChallengeLogEntry(challenge_id="C1", characters=["Ash"], outcome_entry="12"))
        s.add(Legend(name="Old Birch", abilities={"might": 3}, marks=["spiral"]))
        s.add(CaveWallIllustration(title="The flood", marks=["wave"], image=b"\x89PNG..."))
        # Schema 3: a card of the owner's pack the campaign carries.
        s.add(OwnCard(pack_id="sample-mine", kind="discovery_cards", card_id="DX01",
                      data={"id": "DX01", "name": "Bones", "text": "Old bones."},
                      digest="0123456789abcdef", pack_version="1.0.1"))
    with cf.transaction("night", "Unrest rises") as s:
        society = s.get(Society, 1)
        assert society is not None
        society.unrest = 2
    cf.add_note("Kim thinks the behemoth lairs in the marsh.")
    cf.undo()
    cf.close(backup=False)
    # Fold the write-ahead log in, so the fixture is one self-contained file.
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.execute("PRAGMA journal_mode = WAL")
    conn.close()


def main() -> None:
    target = FIXTURES / f"campaign-v{SCHEMA_VERSION}.stonesaga"
    if target.exists():
        print(f"{target} exists; fixtures are frozen once written")
        return
    make_campaign(target)
    print(f"wrote {target}")


if __name__ == "__main__":
    main()
