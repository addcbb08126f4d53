"""The whole-campaign checks: every promise of the campaign file, row for row.

After a campaign has been played (tests/invariants/player.py):

1. ``PRAGMA integrity_check`` is ``ok`` and ``foreign_key_check`` finds nothing;
2. export → import → export gives the same bytes, and the imported file holds the same
   rows, history included;
3. undo to the first event (Edit ▸ Undo one by one, or ``companion undo --to`` the save
   point made right after ``campaign new``) gives the new campaign's game rows exactly;
4. redo to the end (Edit ▸ Redo, or ``companion redo``) gives the end's game rows exactly;
5. restoring a backup gives exactly the backup's rows, and the backup is the file as it
   was when it was taken (the state the player saw at the backup's last journal event).

Game tables are compared exactly. The history tables (``journal_event``, ``save_point``)
are compared exactly where a promise keeps them (export/import, restore); undo and redo
add their own journal events ("Undid: …"), so there only the game tables can be equal.
"""

from __future__ import annotations

from companion import operations
from tests.invariants.player import (
    Player,
    connect,
    diff,
    game_rows,
    look,
    restore_and_check,
    rows,
)


def integrity(p: Player) -> None:
    conn = connect(p.path)
    try:
        ok = conn.execute("PRAGMA integrity_check").fetchall()
        keys = conn.execute("PRAGMA foreign_key_check").fetchall()
    finally:
        conn.close()
    if ok != [("ok",)] or keys:
        raise p.fail(f"integrity_check {ok}, foreign_key_check {keys[:5]}")
    p.counts["integrity checks ok"] += 1


def export_import_export(p: Player) -> None:
    first, second = p.folder / "first.json", p.folder / "second.json"
    copy = p.folder / f"imported-{p.seed}.stonesaga"
    for out in (first, second, copy):
        out.unlink(missing_ok=True)
    before = rows(p.path)
    for argv in (("export", p.path, first), ("import", first, copy),
                 ("export", copy, second)):
        code, _, err = p.cli(*argv, op=f"check: {argv[0]}")
        if code != 0:
            raise p.fail(f"companion {argv[0]} of the played campaign refused: {err}")
    if first.read_bytes() != second.read_bytes():
        raise p.fail("export -> import -> export is not identical")
    imported = rows(copy)
    if imported != before:
        raise p.fail(f"the imported campaign's rows differ:\n{diff(before, imported)}")
    p.counts["export-import-export round trips identical"] += 1


def _redo_all(p: Player, by_menu: bool) -> None:
    """Edit ▸ Redo, or companion redo, until there is nothing to redo."""
    if by_menu:
        with p.opened() as campaign:
            while True:
                try:
                    operations.redo(campaign)
                except operations.Refused as refusal:
                    if "nothing to redo" not in str(refusal):
                        raise p.fail(f"redo stopped: {refusal}") from refusal
                    break
    else:
        while True:
            code, _, err = p.cli("redo", p.path, op="check: redo")
            if code != 0:
                if "nothing to redo" not in err:
                    raise p.fail(f"redo stopped: {err}")
                break
    p.table = look(p.path)


def undo_all_redo_all(p: Player) -> None:
    # Play may have ended on an undo: what is still redoable is redone first, so the
    # end is the furthest point the history reaches.
    _redo_all(p, by_menu=p.seed % 2 == 0)
    end = game_rows(p.table)
    # A restore may have gone back to before the save point "start" was made.
    points = [r[1] for r in p.table.get("save_point", [])]
    by_menu = p.seed % 2 == 0 or "start" not in points
    if by_menu:  # Edit ▸ Undo, one operation at a time, until there is nothing to undo
        with p.opened() as campaign:
            steps = 0
            while True:
                try:
                    operations.undo(campaign)
                    steps += 1
                except operations.Refused as refusal:
                    if "nothing to undo" not in str(refusal):
                        raise p.fail(f"undo stopped after {steps} steps: {refusal}"
                                     ) from refusal
                    break
    else:  # companion undo --to the save point made right after campaign new
        code, _, err = p.cli("undo", p.path, "--to", "start", op="check: undo --to start")
        if code != 0:
            raise p.fail(f"undo to the start refused: {err}")
    p.table = look(p.path)
    if game_rows(p.table) != p.start_rows:
        raise p.fail("undo to the first event does not give the new campaign's rows:\n"
                     f"{diff(p.start_rows, game_rows(p.table))}")
    _redo_all(p, by_menu)  # redo to the end
    if game_rows(p.table) != end:
        raise p.fail(f"redo to the end does not give the end's rows:\n"
                     f"{diff(end, game_rows(p.table))}")
    p.counts["undo to start + redo to end round trips exact"] += 1


def restore_one(p: Player) -> None:
    listed = p.js("backup", "list", p.path)
    backups = listed["backups"] if listed else []
    if not backups:
        raise p.fail("a played campaign has no backup")
    restore_and_check(p, p.pick(backups), op="check: backup restore")


def check_campaign(p: Player) -> None:
    """Every promise, in an order that leaves each check its own starting point."""
    integrity(p)
    export_import_export(p)
    undo_all_redo_all(p)
    integrity(p)
    restore_one(p)
    integrity(p)
