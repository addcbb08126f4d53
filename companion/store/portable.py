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

import json
import os
import sqlite3
import uuid
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, Table, create_engine, select
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.pool import StaticPool

from companion.store import migrations
from companion.store.campaign_file import CampaignFile, build_new, inspect_file, write_engine
from companion.store.errors import BadExportFile, CampaignFileExists
from companion.store.history import decode_row, encode_row
from companion.store.integrity import open_readonly
from companion.store.models import ALL_TABLES, table_of

FORMAT_NAME = "stonesaga-companion-campaign"
FORMAT_VERSION = 1

EXPORT_TABLES: dict[str, Table] = {
    table_of(model).name: table_of(model)
    for model in ALL_TABLES
}


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
        version = inspect_file(path)
        if version != migrations.SCHEMA_VERSION:
            raise BadExportFile(path, f"open it once to upgrade schema version {version} first")
        with open_readonly(path) as conn, _engine_for(conn).connect() as connection:
            tables = _dump_tables(connection)
    document = {
        "format": FORMAT_NAME,
        "format_version": FORMAT_VERSION,
        "schema_version": migrations.SCHEMA_VERSION,
        "tables": tables,
    }
    text = json.dumps(document, sort_keys=True, indent=1, ensure_ascii=False) + "\n"
    out = Path(out)
    tmp = out.with_name(f".{out.name}.{uuid.uuid4().hex[:8]}.tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, out)


def _load_document(src: Path) -> dict[str, Any]:
    try:
        document = json.loads(Path(src).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise BadExportFile(src, f"it is not a readable JSON file ({exc})") from None
    if not isinstance(document, dict) or document.get("format") != FORMAT_NAME:
        raise BadExportFile(src, f"it is not a {FORMAT_NAME} export")
    if document.get("format_version") != FORMAT_VERSION:
        raise BadExportFile(
            src, f"format version {document.get('format_version')!r} is unknown "
            f"(this program reads version {FORMAT_VERSION})")
    schema = document.get("schema_version")
    if not isinstance(schema, int) or not 1 <= schema <= migrations.SCHEMA_VERSION:
        raise BadExportFile(
            src, f"schema version {schema!r} is unknown "
            f"(this program knows up to {migrations.SCHEMA_VERSION}); update the companion")
    tables = document.get("tables")
    if not isinstance(tables, dict):
        raise BadExportFile(src, "its 'tables' section is missing")
    for version in range(schema, migrations.SCHEMA_VERSION):
        tables = migrations.EXPORT_UPGRADES[version](tables)
    return tables


def _rows_of(src: Path, name: str, section: Any) -> list[dict[str, Any]]:
    table = EXPORT_TABLES.get(name)
    if table is None:
        raise BadExportFile(src, f"it has an unknown table {name!r}")
    if not isinstance(section, dict):
        raise BadExportFile(src, f"table {name!r} is malformed")
    columns, rows = section.get("columns"), section.get("rows")
    known = {c.name for c in table.columns}
    if not isinstance(columns, list) or not set(columns) <= known or "id" not in columns:
        raise BadExportFile(src, f"table {name!r} has unknown or missing columns")
    if not isinstance(rows, list) or any(
        not isinstance(r, list) or len(r) != len(columns) for r in rows
    ):
        raise BadExportFile(src, f"table {name!r} has malformed rows")
    try:
        return [decode_row(table, dict(zip(columns, row, strict=True))) for row in rows]
    except (ValueError, TypeError, AttributeError) as exc:
        raise BadExportFile(src, f"table {name!r} has a bad value ({exc})") from None


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
            raise BadExportFile(src, f"its rows do not fit the tables ({exc.args[0]})") from None

    build_new(dest, fill)
    return CampaignFile.open(dest)
