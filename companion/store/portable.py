"""Export a whole campaign to one portable JSON file, and import it back.

The format is documented in ``docs/campaign-file.md``. In short::

    {"format": "stonesaga-companion-campaign", "format_version": 1,
     "schema_version": 1,
     "tables": {"<table>": {"columns": [...], "rows": [[...], ...]}, ...}}

Rows are ordered by id; values are encoded as in the journal's row images (datetimes as
ISO text, bytes as base64, JSON columns as JSON). The file is written deterministically
(sorted keys, fixed indentation), so export -> import -> export gives identical bytes.
"""

from __future__ import annotations

import functools
import json
import os
import shutil
import sqlite3
from pathlib import Path
from typing import Annotated, Any

from pydantic import TypeAdapter, ValidationError
from sqlalchemy import Connection, Table, create_engine, select
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.pool import StaticPool
from sqlmodel import SQLModel

from companion.store import backups as bk
from companion.store import migrations
from companion.store.campaign_file import CampaignFile
from companion.store.durable import clean_stale_temps, fsync_dir, fsync_file, temp_beside
from companion.store.errors import BadExportFile, CampaignFileExists, NotARegularFile
from companion.store.history import decode_row, encode_row, game_tables
from companion.store.inspection import inspect_file, translate_error
from companion.store.integrity import open_readonly
from companion.store.later_tables import ALL_TABLES
from companion.store.lock import lock_holder
from companion.store.opening import build_new, write_engine
from companion.store.table_base import table_of

FORMAT_NAME = "stonesaga-companion-campaign"
FORMAT_VERSION = 1

EXPORT_TABLES: dict[str, Table] = {
    table_of(model).name: table_of(model)
    for model in ALL_TABLES
}
MODELS: dict[str, type[SQLModel]] = {table_of(model).name: model for model in ALL_TABLES}

MAX_DEPTH = 64
"""Deepest nesting of lists and maps an import may hold (the game's own is 4 or 5)."""
INT64 = (-(1 << 63), (1 << 63) - 1)
"""SQLite's integers are 64-bit."""


def _engine_for(conn: sqlite3.Connection) -> Any:
    return create_engine("sqlite://", creator=lambda: conn, poolclass=StaticPool)


def _dump_tables(connection: Connection) -> dict[str, Any]:
    tables: dict[str, Any] = {}
    for name in sorted(EXPORT_TABLES):
        table = EXPORT_TABLES[name]
        columns = [c.name for c in table.columns]
        rows = connection.execute(select(table).order_by(table.c.id)).mappings()
        tables[name] = {
            "columns": columns,
            "rows": [[image[c] for c in columns] for image in map(
                lambda r: encode_row(table, r), rows)],
        }
    return tables


def export_campaign(source: CampaignFile | Path, out: Path) -> None:
    """Write the whole campaign (every table, history included) to the JSON file ``out``.

    ``source`` is an open CampaignFile or the path of a closed campaign (read without
    taking the lock). ``out`` is written under a temporary name and renamed, so a failed
    export never leaves half a file.
    """
    if isinstance(source, CampaignFile):
        with source.read() as session:
            tables = _dump_tables(session.connection())
    else:
        path = Path(source)
        # When the app has it open it may write meanwhile: read as SQLite's readers do
        # (readers need no lock). Otherwise read it leaving no side files behind.
        shared = lock_holder(path) is not None
        version = inspect_file(path, shared=shared)
        if version != migrations.SCHEMA_VERSION:
            raise BadExportFile(path, f"open it once to upgrade schema version {version} first")
        with open_readonly(path, shared=shared) as conn, \
                _engine_for(conn).connect() as connection:
            tables = _dump_tables(connection)
    document = {
        "format": FORMAT_NAME,
        "format_version": FORMAT_VERSION,
        "schema_version": migrations.SCHEMA_VERSION,
        "tables": tables,
    }
    text = json.dumps(document, sort_keys=True, indent=1, ensure_ascii=False) + "\n"
    out = Path(out).absolute()
    if out.is_symlink():  # export through a link: the link stays a link
        out = out.resolve()
    if out.exists() and not out.is_file():
        # The rename below would put a plain file where a device, pipe or folder is.
        raise NotARegularFile(out)
    clean_stale_temps(out.parent)
    tmp = temp_beside(out, "export")
    try:
        tmp.write_text(text, encoding="utf-8")
        fsync_file(tmp)
        os.replace(tmp, out)
        fsync_dir(out.parent)
    except OSError as exc:
        raise translate_error(exc, out) or exc from exc
    finally:
        tmp.unlink(missing_ok=True)


def _load_document(src: Path) -> dict[str, Any]:
    try:
        # utf-8-sig: a byte order mark (some editors write one) is not an error.
        document = json.loads(Path(src).read_text(encoding="utf-8-sig"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise BadExportFile(src, f"it is not a readable JSON file ({exc})") from None
    except RecursionError:
        raise BadExportFile(src, "it is nested too deeply to be a campaign") from None
    except ValueError as exc:  # an integer of more than 4,300 digits
        raise BadExportFile(src, f"it holds a value no campaign has ({exc})") from None
    if not isinstance(document, dict) or document.get("format") != FORMAT_NAME:
        from companion.store.webjournal import what_it_holds

        raise BadExportFile(src, f"it holds {what_it_holds(document)}; expected a "
                            f"Stonesaga Companion export (\"format\": \"{FORMAT_NAME}\") "
                            "or a Stonesaga Campaign Journal file")
    # type() is: JSON's true is Python's True, which equals 1.
    if type(document.get("format_version")) is not int \
            or document.get("format_version") != FORMAT_VERSION:
        raise BadExportFile(
            src, f"format version {document.get('format_version')!r} is unknown "
            f"(this program reads version {FORMAT_VERSION})")
    schema = document.get("schema_version")
    if type(schema) is not int or not 1 <= schema <= migrations.SCHEMA_VERSION:
        raise BadExportFile(
            src, f"schema version {schema!r} is unknown "
            f"(this program knows up to {migrations.SCHEMA_VERSION}); update the companion")
    tables = document.get("tables")
    if not isinstance(tables, dict):
        raise BadExportFile(src, "its 'tables' section is missing")
    for version in range(schema, migrations.SCHEMA_VERSION):
        tables = migrations.EXPORT_UPGRADES[version](tables)
    return tables


def check_plain(value: Any, depth: int = 0) -> None:
    """Refuse (ValueError) what JSON can hold but a campaign cannot: nesting deeper
    than :data:`MAX_DEPTH`, integers beyond 64 bits, text that is not valid Unicode
    (lone surrogates)."""
    if depth > MAX_DEPTH:
        raise ValueError(f"lists or maps nested more than {MAX_DEPTH} deep")
    if isinstance(value, bool) or value is None or isinstance(value, float):
        return
    if isinstance(value, int):
        if not INT64[0] <= value <= INT64[1]:
            raise ValueError("a whole number too large for a campaign (over 64 bits)")
    elif isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            raise ValueError("text that is not valid Unicode (a lone surrogate)") from None
    elif isinstance(value, list):
        for item in value:
            check_plain(item, depth + 1)
    elif isinstance(value, dict):
        for key, item in value.items():
            check_plain(key, depth + 1)
            check_plain(item, depth + 1)


def _validated(name: str, row: dict[str, Any]) -> dict[str, Any]:
    """One decoded row checked against its model's types; the values to insert."""
    model = MODELS[name]
    checked = model.model_validate(row)
    return {column: getattr(checked, column) for column in row}


@functools.cache
def _column_type(name: str, column: str) -> TypeAdapter[Any]:
    """The type (and constraints) of one column of table ``name``, as its model says."""
    field = MODELS[name].model_fields[column]
    kind: Any = field.annotation
    if field.metadata:
        kind = Annotated[kind, *field.metadata]
    return TypeAdapter(kind)


def _validated_columns(name: str, image: dict[str, Any]) -> None:
    """An update's image holds only ``id`` and the columns it changed: each present
    column is checked against its type; the absent ones are not missing."""
    for column, value in image.items():
        if column in MODELS[name].model_fields:
            try:
                _column_type(name, column).validate_python(value)
            except ValidationError as exc:
                first = exc.errors(include_url=False)[0]
                raise ValueError(
                    f"a change to {name!r}, column {column!r}: {first['msg']}") from None


def _check_changes(changes: Any) -> None:
    """A journal event's before/after images must name real tables, columns and types,
    or undoing it later would fail. An inserted or deleted row's image is a whole row;
    an updated row's images hold only the columns that changed (docs/campaign-file.md,
    "Transactions and the journal"), so only those are checked."""
    if not isinstance(changes, list):
        raise ValueError("its changes are not a list")
    for change in changes:
        if not isinstance(change, dict) or change.get("table") not in game_tables():
            raise ValueError(f"a change names no known table ({change!r:.60})")
        if type(change.get("id")) is not int:
            raise ValueError("a change has no row id")
        table = game_tables()[change["table"]]
        known = {c.name for c in table.columns}
        for side in ("before", "after"):
            image = change.get(side)
            if image is None:
                continue
            if not isinstance(image, dict) or not set(image) <= known:
                raise ValueError(f"a change to {table.name!r} names unknown columns")
            if change.get("before") is not None and change.get("after") is not None:
                _validated_columns(table.name, decode_row(table, image))
            else:
                _validated(table.name, decode_row(table, image))


def _rows_of(src: Path, name: str, section: Any) -> list[dict[str, Any]]:
    table = EXPORT_TABLES.get(name)
    if table is None:
        raise BadExportFile(src, f"it has an unknown table {name!r}")
    if not isinstance(section, dict):
        raise BadExportFile(src, f"table {name!r} is malformed")
    columns, rows = section.get("columns"), section.get("rows")
    known = {c.name for c in table.columns}
    if not isinstance(columns, list) or not all(isinstance(c, str) for c in columns) \
            or not set(columns) <= known or "id" not in columns:
        raise BadExportFile(src, f"table {name!r} has unknown or missing columns")
    if len(set(columns)) != len(columns):
        raise BadExportFile(src, f"table {name!r} names a column twice")
    if not isinstance(rows, list) or any(
        not isinstance(r, list) or len(r) != len(columns) for r in rows
    ):
        raise BadExportFile(src, f"table {name!r} has malformed rows")
    decoded = []
    for number, row in enumerate(rows, start=1):
        try:
            check_plain(row)
            values = _validated(name, decode_row(table, dict(zip(columns, row, strict=True))))
            if name == "journal_event" and "changes" in values:
                _check_changes(values["changes"])
        except ValidationError as exc:
            first = exc.errors(include_url=False)[0]
            where = ".".join(str(part) for part in first["loc"])
            raise BadExportFile(
                src, f"table {name!r} row {number}: {where}: {first['msg']}") from None
        except (ValueError, TypeError, AttributeError, OverflowError) as exc:
            raise BadExportFile(src, f"table {name!r} row {number}: {exc}") from None
        decoded.append(values)
    return decoded


def import_campaign(src: Path, dest: Path) -> CampaignFile:
    """Create campaign ``dest`` from export file ``src``, and open it.

    Refuses malformed or unknown-version files (:class:`BadExportFile`) and an existing
    ``dest`` (:class:`CampaignFileExists`); a refused import creates nothing.
    """
    src, dest = Path(src), Path(dest).absolute()
    if dest.exists():
        raise CampaignFileExists(dest)
    tables = _load_document(src)
    decoded = {name: _rows_of(src, name, section) for name, section in tables.items()}
    for singleton in ("campaign", "society"):  # every campaign has both rows
        if not any(row.get("id") == 1 for row in decoded.get(singleton, [])):
            raise BadExportFile(src, f"it has no {singleton} row")
    clean_stale_temps(dest.parent)

    def fill(conn: sqlite3.Connection) -> None:
        try:
            with write_engine(conn).begin() as connection:
                # Tables go in name order, children before parents: check at commit.
                connection.exec_driver_sql("PRAGMA defer_foreign_keys = ON")
                for name, rows in decoded.items():
                    if rows:
                        connection.execute(EXPORT_TABLES[name].insert(), rows)
                broken = connection.exec_driver_sql("PRAGMA foreign_key_check").fetchall()
                if broken:
                    raise BadExportFile(src, f"{len(broken)} row(s) point at missing rows")
        except SQLAlchemyError as exc:
            failure = translate_error(exc, dest)
            if failure is not None:
                raise failure from exc
            raise BadExportFile(src, f"its rows do not fit the tables ({exc.args[0]})") from None

    build_new(dest, fill)
    try:
        return CampaignFile.open(dest)
    except BaseException:
        discard_new_campaign(dest)
        raise


def discard_new_campaign(dest: Path) -> None:
    """Remove a campaign created moments ago (and its backups) when its import failed
    after all: a failed import leaves nothing behind."""
    for leftover in (dest, *(dest.with_name(dest.name + s) for s in ("-wal", "-shm"))):
        leftover.unlink(missing_ok=True)
    shutil.rmtree(bk.backups_dir(dest), ignore_errors=True)

