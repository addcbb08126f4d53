"""``companion backup list`` names each backup by its game moment and its time to the
second; ``backup restore`` warns first when the backup lands mid-Night (issue 27 item 12,
Rulebook: Game Structure > Rounds)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from companion import operations
from companion.operations.procedures import start_night
from tests.cli.helpers import run


def day_then_night(tmp_path: Path) -> operations.Campaign:
    """The demo campaign backed up during its first Day, then again once Night fell."""
    demo = operations.create_demo_campaign(tmp_path / "d.stonesaga")
    demo.file.backup()
    operations.pass_turn(demo, name="Ash")
    operations.pass_turn(demo, name="Bryn")
    start_night(demo)
    demo.file.backup()
    return demo


def test_rulebook_rounds_backup_list_and_a_mid_night_restore(tmp_path: Path,
                                                             capsys: Any) -> None:
    demo = day_then_night(tmp_path)
    demo.close()
    code, out, _ = run(capsys, "backup", "list", str(demo.path))
    assert code == 0
    first = out.splitlines()[0]
    assert re.match(r"\s+1  \d{4}-\d\d-\d\d \d\d:\d\d:\d\d  The Long Thaw · Night · "
                    r"last: Night falls  \(by hand, \d+ KiB\)$", first), first
    code, out, _ = run(capsys, "backup", "list", str(demo.path), "--json")
    rows = json.loads(out)["backups"]
    assert (rows[0]["challenge"], rows[0]["phase"], rows[0]["mid_night"]) == (
        "The Long Thaw", "Night", True)
    assert rows[1]["phase"] == "Day" and rows[1]["mid_night"] is False
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00", rows[0]["taken"])
    code, out, err = run(capsys, "backup", "restore", str(demo.path), "1")
    assert code == 0
    assert err.startswith("warning: This backup was taken in the middle of a Night")
    rows = json.loads(run(capsys, "backup", "list", str(demo.path), "--json")[1])["backups"]
    day = next(r for r in rows if r["phase"] == "Day")  # the safety copy is a Night one now
    code, out, err = run(capsys, "backup", "restore", str(demo.path), str(day["number"]))
    assert code == 0 and err == "" and "The Long Thaw · Day" in out
