"""Schema versions of the campaign file and the ordered steps between them.

The version is ``PRAGMA user_version``. ``STEPS[n]`` upgrades a file from version ``n``
to ``n + 1``; each step runs in its own transaction (with the version bump), after the
caller has taken a backup copy. To add version 2:

1. change ``models.py`` and set ``SCHEMA_VERSION = 2``;
2. add ``STEPS[1] = _v1_to_v2`` (plain SQL: ``ALTER TABLE``, ``CREATE TABLE``, data moves);
   never import the models in a step, they describe the *newest* schema;
3. add ``EXPORT_UPGRADES[1]`` if the export format's tables changed;
4. run ``tests/store/make_fixtures.py`` to add ``campaign-v2.stonesaga`` (keep v1's).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import Any

from sqlmodel import SQLModel

from companion.store.models import ALL_TABLES, table_of

SCHEMA_VERSION = 1
"""The schema version this program writes."""

APPLICATION_ID = 0x53534743
"""``PRAGMA application_id`` of every campaign file ("SSGC"): tells ours from other SQLite."""

Step = Callable[[sqlite3.Connection], None]

STEPS: dict[int, Step] = {}
"""``STEPS[n]`` upgrades version n to n + 1 (none yet: version 1 is the first)."""

EXPORT_UPGRADES: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {}
"""``EXPORT_UPGRADES[n]`` turns an export's ``tables`` from schema n into n + 1."""


def create_schema(conn: sqlite3.Connection) -> None:
    """Create every table of the current schema and stamp the file as ours."""
    from sqlalchemy import create_engine
    from sqlalchemy.pool import StaticPool

    engine = create_engine("sqlite://", creator=lambda: conn, poolclass=StaticPool)
    tables = [table_of(model) for model in ALL_TABLES]
    with engine.begin() as connection:
        SQLModel.metadata.create_all(connection, tables=tables)
    conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
    conn.commit()


def pending_steps(version: int) -> list[tuple[int, Step]]:
    """The steps that take a file from ``version`` to ``SCHEMA_VERSION``, in order."""
    missing = [v for v in range(version, SCHEMA_VERSION) if v not in STEPS]
    if missing:
        raise RuntimeError(f"no migration step from schema version {missing[0]}")
    return [(v, STEPS[v]) for v in range(version, SCHEMA_VERSION)]


def upgrade(conn: sqlite3.Connection, version: int) -> int:
    """Run every pending step, each in one transaction; returns the new version.

    ``conn`` must be in autocommit mode (``isolation_level=None``) so that the explicit
    BEGIN/COMMIT here are the only transaction boundaries.
    """
    for start, step in pending_steps(version):
        conn.execute("BEGIN IMMEDIATE")
        try:
            step(conn)
            conn.execute(f"PRAGMA user_version = {start + 1}")
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        version = start + 1
    return version
