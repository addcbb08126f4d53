"""Row images: recording what a transaction changed, and putting it back (undo/redo).

A transaction's session carries a :class:`ChangeRecorder`. Before each flush it reads,
straight from the database, the rows about to be updated or deleted (so the *before*
image is exact even for attributes the caller never loaded); after each flush it takes
the *after* image of every row inserted or updated. Several flushes in one transaction
merge into one net change per row.

Images are JSON-ready dicts keyed by column name: datetimes as ISO text, bytes as base64.
Inserted and deleted rows have whole images; updated rows only the changed columns.
"""

from __future__ import annotations

import base64
import copy
import functools
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, DateTime, LargeBinary, Table, TypeDecorator, select
from sqlalchemy.orm import ORMExecuteState, Session, UOWTransaction

from companion.store.errors import CampaignFileError, UndoConflict
from companion.store.table_base import table_of

Image = dict[str, Any]
Change = dict[str, Any]
"""``{"table": name, "id": row id, "before": Image | None, "after": Image | None}``."""

@functools.cache
def game_tables() -> dict[str, Table]:
    """The tables whose changes the journal records, by name (every one: the tables
    declared when first used are declared now)."""
    from companion.store.later_tables import GAME_TABLES

    return {table_of(model).name: table_of(model) for model in GAME_TABLES}


def python_type(column_type: Any) -> type | None:
    """``datetime`` or ``bytes`` for a column whose image encodes its values (ISO text,
    base64), None for one whose values are JSON as they are."""
    # sqlmodel wraps datetimes in a TypeDecorator; look at the type underneath.
    base = column_type.impl_instance if isinstance(column_type, TypeDecorator) else column_type
    if isinstance(base, DateTime):
        return datetime
    if isinstance(base, LargeBinary):
        return bytes
    return None


def encode_value(column_type: Any, value: Any) -> Any:
    """A column value as JSON-ready data."""
    if value is None:
        return None
    kind = python_type(column_type)
    if kind is datetime:
        return value.isoformat() if isinstance(value, datetime) else str(value)
    if kind is bytes:
        return base64.b64encode(bytes(value)).decode("ascii")
    # JSON columns hand out live objects: copy so later mutation cannot alter history.
    return copy.deepcopy(value)


def decode_value(column_type: Any, value: Any) -> Any:
    """The inverse of :func:`encode_value`."""
    if value is None:
        return None
    kind = python_type(column_type)
    if kind is datetime:
        return datetime.fromisoformat(value)
    if kind is bytes:
        return base64.b64decode(value.encode("ascii"), validate=True)
    return value


def encode_row(table: Table, row: Any) -> Image:
    """A mapping (or object with column attributes) as an image."""
    get = row.__getitem__ if hasattr(row, "keys") else lambda k: getattr(row, k)
    return {c.name: encode_value(c.type, get(c.name)) for c in table.columns}


def decode_row(table: Table, image: Image) -> dict[str, Any]:
    """An image back as column values ready for an INSERT/UPDATE."""
    return {c.name: decode_value(c.type, image[c.name]) for c in table.columns if c.name in image}


def read_image(conn: Connection, table: Table, row_id: int) -> Image | None:
    """The row as stored now, or None if absent."""
    row = conn.execute(select(table).where(table.c.id == row_id)).mappings().first()
    return None if row is None else encode_row(table, row)


def _tracked_table(obj: object) -> Table | None:
    table = getattr(type(obj), "__table__", None)
    return table if isinstance(table, Table) and table.name in game_tables() else None


class ChangeRecorder:
    """Collects the net before/after image of every game row a session writes."""

    def __init__(self) -> None:
        self._changes: dict[tuple[str, int], Change] = {}

    def before_flush(self, session: Session) -> None:
        """Read the stored image of rows about to be updated or deleted."""
        conn = session.connection()
        for obj in [*session.dirty, *session.deleted]:
            table = _tracked_table(obj)
            row_id = getattr(obj, "id", None)
            if table is None or row_id is None or (table.name, row_id) in self._changes:
                continue
            if obj in session.dirty and not session.is_modified(obj):
                continue
            before = read_image(conn, table, row_id)
            self._changes[(table.name, row_id)] = {
                "table": table.name, "id": row_id, "before": before, "after": before,
            }

    def after_flush(self, session: Session) -> None:
        """Take the after image of rows inserted or updated, note rows deleted."""
        for obj in [*session.new, *session.dirty, *session.deleted]:
            table = _tracked_table(obj)
            row_id = getattr(obj, "id", None)
            if table is None or row_id is None:
                continue
            if obj not in session.new and (table.name, row_id) not in self._changes:
                # Dirty but not modified (an attribute set to the value it held, as
                # ``save_chance`` does when no die was rolled): nothing was written. It
                # must not be taken for an inserted row, whose undo would delete it.
                continue
            change = self._changes.setdefault(
                (table.name, row_id),
                {"table": table.name, "id": row_id, "before": None, "after": None},
            )
            change["after"] = None if obj in session.deleted else encode_row(table, obj)

    def changes(self) -> list[Change]:
        """The net changes, in the order rows were first touched (no-ops dropped).

        An update keeps only the columns that changed (plus ``id``): history stays small,
        and so does the file that every open checks.
        """
        result = []
        for change in self._changes.values():
            before, after = change["before"], change["after"]
            if before == after:
                continue
            if before is not None and after is not None:
                keys = ["id", *(k for k in after if k != "id" and before.get(k) != after[k])]
                before = {k: before.get(k) for k in keys}
                after = {k: after[k] for k in keys}
            result.append({**change, "before": before, "after": after})
        return result


# --- session hooks (registered on the store's Session class in campaign_file) ---------------


def on_before_flush(session: Session, _ctx: UOWTransaction, _instances: object) -> None:
    """Refuse writes in read sessions; let the recorder read before images."""
    if session.info.get("read_only"):
        raise CampaignFileError("this session is for reading; write inside cf.transaction()")
    recorder = session.info.get("recorder")
    if isinstance(recorder, ChangeRecorder):
        recorder.before_flush(session)


def on_after_flush(session: Session, _ctx: UOWTransaction) -> None:
    """Let the recorder take after images."""
    recorder = session.info.get("recorder")
    if isinstance(recorder, ChangeRecorder):
        recorder.after_flush(session)


def on_before_commit(session: Session) -> None:
    """Refuse a commit from inside ``transaction()``: it would skip the journal event."""
    if isinstance(session.info.get("recorder"), ChangeRecorder):
        raise CampaignFileError(
            "do not commit inside cf.transaction(); it commits (with its journal event) "
            "when the block ends"
        )


def on_orm_execute(state: ORMExecuteState) -> None:
    """Refuse bulk INSERT/UPDATE/DELETE statements: they bypass the journal."""
    if state.session.info.get("recorder") is not None and (
        state.is_insert or state.is_update or state.is_delete
    ):
        raise CampaignFileError(
            "bulk INSERT/UPDATE/DELETE statements cannot be undone; "
            "add, change or delete rows through the session instead"
        )


# --- applying images --------------------------------------------------------------------------


def apply_changes(conn: Connection, changes: list[Change], *, undo: bool) -> None:
    """Put rows back to their before images (undo) or forward to their after images (redo).

    Each row must currently hold the image the history expects; otherwise something
    wrote outside the journal and :class:`UndoConflict` is raised (the caller rolls back).
    Foreign keys are deferred to the commit, so the order within one event cannot trip them.
    """
    conn.exec_driver_sql("PRAGMA defer_foreign_keys = ON")
    ordered = list(reversed(changes)) if undo else list(changes)
    for change in ordered:
        table = game_tables()[change["table"]]
        expected, target = (
            (change["after"], change["before"]) if undo else (change["before"], change["after"])
        )
        current = read_image(conn, table, change["id"])
        if current is not None and expected is not None:
            current = {k: current.get(k) for k in expected}  # updates hold changed columns
        if current != expected:
            raise UndoConflict(
                f"{change['table']} row {change['id']} was changed outside the journal, "
                "so this step cannot be undone or redone safely; nothing was changed."
            )
        where = table.c.id == change["id"]
        if target is None:
            conn.execute(table.delete().where(where))
        elif current is None:
            conn.execute(table.insert().values(decode_row(table, target)))
        else:
            conn.execute(table.update().where(where).values(decode_row(table, target)))
