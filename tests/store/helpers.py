"""Code run in child processes by the store tests (``python -m tests.store.helpers ...``).

Each action prints a line when something is acknowledged (an event id once its
transaction returned, or a word once a whole file operation returned), so the crash
soak knows what a kill must not lose.
"""

from __future__ import annotations

import sqlite3
import sys
from datetime import timedelta
from pathlib import Path

from companion.store import (
    BackupPolicy,
    CampaignFile,
    export_campaign,
    import_campaign,
    list_backups,
    migrations,
    restore_backup,
)
from companion.store.models import NotePage, Society

SOAK_VERSION = migrations.SCHEMA_VERSION + 1
"""A schema version one past this program's: the soak's simulated migration makes it."""


def hold(path: Path) -> None:
    """Open the campaign, say so, and keep it open until stdin closes."""
    cf = CampaignFile.open(path)
    print("ready", flush=True)
    sys.stdin.read()
    cf.close()


def _one_operation(cf: CampaignFile) -> None:
    """Two rows in one operation: a page and a point of activity (never half of it)."""
    with cf.transaction("crash-test", "one more page") as session:
        session.add(NotePage(title="crash", text="x" * 200))
        society = session.get(Society, 1)
        assert society is not None
        society.activity += 1
    assert cf.last_event is not None
    print(cf.last_event.id, flush=True)


def write_forever(path: Path) -> None:
    """Run small two-row operations forever, printing each committed event id."""
    cf = CampaignFile.open(path)
    while True:
        _one_operation(cf)


def write_and_close(path: Path) -> None:
    """A short session: operations with an automatic backup after each, then close
    (the closing checkpoint and backup); prints each event id, then 'closed'."""
    cf = CampaignFile.open(path, policy=BackupPolicy(interval=timedelta(0), recent=3,
                                                     daily=1, weekly=1))
    for _ in range(12):
        _one_operation(cf)
        cf.maybe_backup()
    cf.close()
    print("closed", flush=True)


def export(path: Path, out: Path) -> None:
    """Export the (closed) campaign to ``out``."""
    export_campaign(path, out)
    print("exported", flush=True)


def import_(src: Path, dest: Path) -> None:
    """Import ``src`` as the new campaign ``dest``."""
    import_campaign(src, dest).close()
    print("imported", flush=True)


def restore(path: Path) -> None:
    """Restore the oldest backup of ``path`` over it."""
    restore_backup(path, list_backups(path)[-1])
    print("restored", flush=True)


def soak_step(conn: sqlite3.Connection) -> None:
    """A simulated migration step: a new table filled from an old one, and a data move."""
    conn.execute("CREATE TABLE soak_moved (id INTEGER PRIMARY KEY, text TEXT NOT NULL)")
    conn.execute("INSERT INTO soak_moved SELECT id, text FROM journal_event")
    conn.execute("UPDATE note_page SET text = text || ' (moved)'")


def pretend_next_version() -> None:
    """Make this process's store believe one more schema version exists (with soak_step),
    whose declared schema has the table the step makes."""
    from companion.store import declared_schema

    migrations.STEPS[migrations.SCHEMA_VERSION] = soak_step
    migrations.SCHEMA_VERSION = SOAK_VERSION
    declared_schema.TABLES["soak_moved"] = ("id", "text")
    declared_schema.ADDED_IN[SOAK_VERSION] = declared_schema.Added(
        tables=frozenset({"soak_moved"}))


def migrate(path: Path) -> None:
    """Open a file of this schema with a program that knows one more: backup, then upgrade."""
    pretend_next_version()
    CampaignFile.open(path).close()
    print("migrated", flush=True)


ACTIONS = {
    "hold": hold, "write": write_forever, "session": write_and_close, "export": export,
    "import": import_, "restore": restore, "migrate": migrate,
}

if __name__ == "__main__":
    ACTIONS[sys.argv[1]](*(Path(arg) for arg in sys.argv[2:]))  # type: ignore[operator]
