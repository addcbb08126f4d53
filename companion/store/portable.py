"""Export a whole campaign to one portable JSON file, and import it back.

The format is documented in ``docs/campaign-file.md``. In short::

    {"format": "stonesaga-companion-campaign", "format_version": 1,
     "schema_version": 1,
     "tables": {"<table>": {"columns": [...], "rows": [[...], ...]}, ...}}

Rows are ordered by id; values are encoded as in the journal's row images (datetimes as
ISO text, bytes as base64, JSON columns as JSON). The file is written deterministically
(sorted keys, one row per line), so export -> import -> export gives identical bytes.

Both ways stream (issue 35 item 6): the export writes one row at a time as SQLite hands
them out, the import reads one row at a time (``portable_json.JsonStream``), checks it
(``portable_rows``) and inserts it in batches, so memory holds a batch of rows whatever
the length of the history. Both report their progress (``report(done, total, text)``).
"""

from __future__ import annotations

import gc
import json
import os
import re
import shutil
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TextIO

from pydantic import ValidationError
from sqlalchemy.dialects.sqlite import pysqlite
from sqlalchemy.engine import Dialect

from companion.store import backups as bk
from companion.store import migrations
from companion.store.campaign_file import CampaignFile
from companion.store.durable import clean_stale_temps, fsync_dir, fsync_file, temp_beside
from companion.store.errors import (
    BadExportFile,
    CampaignFileError,
    CampaignFileExists,
    NotARegularFile,
)
from companion.store.inspection import inspect_file, translate_error
from companion.store.integrity import open_readonly
from companion.store.lock import lock_holder
from companion.store.opening import build_new
from companion.store.portable_json import JsonProblem, JsonStream
from companion.store.portable_rows import (
    EXPORT_TABLES,
    ChangeProblem,
    row_encoder,
    row_reader,
    suspect_chunk,
)

FORMAT_NAME = "stonesaga-companion-campaign"
FORMAT_VERSION = 1

MAX_IMPORT_BYTES = 2 * 2**30
"""The largest file an import reads (2 GiB: some ten million journal events, far more
than decades of play). A larger one is refused before it is read."""
MAX_ROW_CHARS = 256 * 2**20
"""The longest text of one row (or header value) an import reads: a row holding cave
wall images (each up to 20 MiB, a third more as base64) is the largest a campaign makes."""
BATCH_ROWS = 2000
"""Rows read, checked and inserted together."""
BUILD_CACHE_KIB = 32 * 1024
"""SQLite's page cache while an import builds the new file."""

Progress = Callable[[int, int, str], None]
"""``report(done, total, text)``: rows written of all rows, or bytes read of the file."""

_EXPORT_HEAD = re.compile(rb'\A(?:\xef\xbb\xbf)?\s*\{\s*"format"\s*:\s*"'
                          + FORMAT_NAME.encode() + rb'"')
_ROW_JSON = json.JSONEncoder(ensure_ascii=False, sort_keys=True, separators=(", ", ": "))
_DIALECT: Dialect = pysqlite.dialect()
"""SQLite's dialect: its types' conversions are those of every session of the store."""


def _quote(name: str) -> str:
    return str(_DIALECT.identifier_preparer.quote(name))


def _table_words(name: str) -> str:
    return "the history" if name == "journal_event" else name.replace("_", " ")


# --- what a file is ---------------------------------------------------------------------------


def is_export_file(path: Path) -> bool:
    """Whether ``path`` begins as the companion writes its exports (read from its first
    bytes only, however large it is)."""
    try:
        with open(path, "rb") as handle:
            head = handle.read(4096)
    except OSError:
        return False
    return _EXPORT_HEAD.match(head) is not None


def replaced_by_export(out: Path) -> str | None:
    """What exporting to ``out`` would replace and lose, in words; None when nothing
    would be lost: no file there, an empty one, or an earlier export (issue 35 item 5)."""
    out = Path(out).absolute()
    target = out.resolve() if out.is_symlink() else out
    try:
        if not target.is_file() or target.stat().st_size == 0 or is_export_file(target):
            return None
    except OSError:
        return None
    through = f" (the link {out} points to it)" if target != out else ""
    return f"{target}{through} is a file that is not a campaign export"


class ExportWouldReplace(CampaignFileError):
    """An export would replace a file that is not an export (issue 35 item 5)."""

    def __init__(self, what: str) -> None:
        super().__init__(
            f"{what}; exporting would replace what it holds. Nothing was written: choose "
            "another name, or confirm that it may be replaced (the command line's --force).")


def check_import_size(src: Path) -> int:
    """The size of ``src`` in bytes; refuses (:class:`BadExportFile`) a file beyond
    :data:`MAX_IMPORT_BYTES`, or one that cannot be read, before anything reads it."""
    try:
        size = Path(src).stat().st_size
    except OSError as exc:
        raise BadExportFile(src, f"it is not a readable JSON file ({exc.strerror})") from None
    if size > MAX_IMPORT_BYTES:
        raise BadExportFile(
            src, f"it is {size / 2**30:.1f} GiB, and the companion imports files of up to "
            f"{MAX_IMPORT_BYTES // 2**30} GiB (some ten million journal events)")
    return size


# --- export -----------------------------------------------------------------------------------


def _write_tables(conn: sqlite3.Connection, out: TextIO, report: Progress | None) -> None:
    """The export's text, one row at a time as SQLite hands them out."""
    names = sorted(EXPORT_TABLES)
    counts = {n: conn.execute(f"SELECT count(*) FROM {_quote(n)}").fetchone()[0] for n in names}
    total, done = sum(counts.values()), 0
    out.write(f'{{\n "format": {json.dumps(FORMAT_NAME)},\n "format_version": {FORMAT_VERSION},'
              f'\n "schema_version": {migrations.SCHEMA_VERSION},\n "tables": {{\n')
    for number, name in enumerate(names):
        table = EXPORT_TABLES[name]
        columns = [column.name for column in table.columns]
        encode = row_encoder(table, _DIALECT)
        out.write(f'  {json.dumps(name)}: {{\n   "columns": {_ROW_JSON.encode(columns)},\n'
                  '   "rows": [')
        cursor = conn.execute(f"SELECT {', '.join(map(_quote, columns))} FROM {_quote(name)} "
                              "ORDER BY id")
        separator = "\n    "
        while rows := cursor.fetchmany(BATCH_ROWS):
            out.write(separator + ",\n    ".join(_ROW_JSON.encode(encode(r)) for r in rows))
            separator = ",\n    "
            done += len(rows)
            if report is not None:
                report(done, total, f"Writing {_table_words(name)}: {done:,} of {total:,} rows")
        out.write(("\n   ]" if counts[name] else "]") + "\n  }"
                  + (",\n" if number < len(names) - 1 else "\n"))
    out.write(" }\n}\n")


@contextmanager
def _source_connection(source: CampaignFile | Path) -> Iterator[sqlite3.Connection]:
    """The SQLite connection to read the campaign through, in one read transaction."""
    if isinstance(source, CampaignFile):
        with source.read() as session:
            raw = session.connection().connection.driver_connection
            assert isinstance(raw, sqlite3.Connection)
            yield raw
        return
    path = Path(source)
    # When the app has it open it may write meanwhile: read as SQLite's readers do
    # (readers need no lock). Otherwise read it leaving no side files behind.
    shared = lock_holder(path) is not None
    version = inspect_file(path, shared=shared)
    if version != migrations.SCHEMA_VERSION:
        raise BadExportFile(path, f"open it once to upgrade schema version {version} first")
    with open_readonly(path, shared=shared) as conn:
        conn.execute("BEGIN")  # one snapshot for every table
        try:
            yield conn
        finally:
            conn.execute("ROLLBACK")


def export_campaign(source: CampaignFile | Path, out: Path, *, replace: bool = False,
                    report: Progress | None = None) -> None:
    """Write the whole campaign (every table, history included) to the JSON file ``out``.

    ``source`` is an open CampaignFile or the path of a closed campaign (read without
    taking the lock). ``out`` is written under a temporary name and renamed, so a failed
    export never leaves half a file. An existing ``out`` that is not an export is
    refused (:class:`ExportWouldReplace`) unless ``replace``. ``report`` is told the rows
    written so far.
    """
    given = out = Path(out).absolute()
    if out.is_symlink():  # export through a link: the link stays a link
        out = out.resolve()
    if out.exists() and not out.is_file():
        # The rename below would put a plain file where a device, pipe or folder is.
        raise NotARegularFile(out)
    lost = None if replace else replaced_by_export(given)
    if lost is not None:
        raise ExportWouldReplace(lost)
    clean_stale_temps(out.parent)
    tmp = temp_beside(out, "export")
    try:
        with _source_connection(source) as conn, \
                open(tmp, "w", encoding="utf-8", newline="\n", buffering=2**20) as handle:
            _write_tables(conn, handle, report)
        fsync_file(tmp)
        os.replace(tmp, out)
        fsync_dir(out.parent)
    except OSError as exc:
        raise translate_error(exc, out) or exc from exc
    finally:
        tmp.unlink(missing_ok=True)


# --- import -----------------------------------------------------------------------------------


def _refusal(src: Path, why: str) -> BadExportFile:
    return BadExportFile(src, why)


def _check_header(src: Path, header: dict[str, Any], *, at_tables: bool) -> int:
    """The schema version of an export whose header is ``header``; refuses another
    format or an unknown version, as far as the header read before the tables shows."""
    if header.get("format") != FORMAT_NAME:
        from companion.store.webjournal import what_it_holds

        shown = {**header, "tables": {}} if at_tables else header
        raise _refusal(src, f"it holds {what_it_holds(shown)}; expected a Stonesaga "
                       f"Companion export (\"format\": \"{FORMAT_NAME}\", first) or a "
                       "Stonesaga Campaign Journal file")
    # type() is: JSON's true is Python's True, which equals 1.
    version = header.get("format_version")
    if type(version) is not int or version != FORMAT_VERSION:
        raise _refusal(src, f"format version {version!r} is unknown (this program reads "
                       f"version {FORMAT_VERSION}, given before the tables)")
    schema = header.get("schema_version")
    if type(schema) is not int or not 1 <= schema <= migrations.SCHEMA_VERSION:
        raise _refusal(
            src, f"schema version {schema!r} is unknown (this program knows up to "
            f"{migrations.SCHEMA_VERSION}, given before the tables); update the companion")
    return schema


def _upgraded(tables: dict[str, Any], schema: int) -> dict[str, Any]:
    """``tables`` (some of an export's, some of their rows) in this program's schema.

    Each ``migrations.EXPORT_UPGRADES`` step adds columns to rows, or tables: it works
    on any batch of rows as on the whole file, so the import hands it one batch at a time.
    """
    for version in range(schema, migrations.SCHEMA_VERSION):
        tables = migrations.EXPORT_UPGRADES[version](tables)
    return tables


class _TableImport:
    """The rows of one table, checked and inserted a batch at a time.

    An older schema's rows are upgraded a batch at a time; the columns the upgrade gives
    the first batch (rather than an empty table's) decide the insert, so an upgrade step
    may look at the rows it upgrades.
    """

    def __init__(self, importer: _Importer, name: str, columns: list[str], *,
                 upgrade: bool = True) -> None:
        self.importer, self.name, self.columns = importer, name, columns
        self.upgrade = upgrade and importer.schema < migrations.SCHEMA_VERSION
        self.upgraded: list[str] = []
        self.read: Callable[[list[Any], str, bool], list[Any]] | None = None
        self.insert = ""
        self.pending: list[tuple[list[Any], str, bool]] = []
        self.number = 0  # rows of this table read so far

    def add(self, row: Any, text: str, flagged: bool) -> None:
        if not isinstance(row, list) or len(row) != len(self.columns):
            raise _refusal(self.importer.src, f"table {self.name!r} has malformed rows")
        self.pending.append((row, text, flagged))
        if len(self.pending) >= BATCH_ROWS:
            self.flush()

    def _batch(self) -> tuple[list[str], list[list[Any]]]:
        """The columns and rows read so far, in this program's schema."""
        rows = [row for row, _, _ in self.pending]
        if not self.upgrade:
            return self.columns, rows
        try:
            section = {"columns": list(self.columns), "rows": rows}
            upgraded = _upgraded({self.name: section}, self.importer.schema)[self.name]
            return list(upgraded["columns"]), list(upgraded["rows"])
        except (TypeError, ValueError, KeyError, IndexError, AttributeError) as exc:
            raise _refusal(self.importer.src, f"table {self.name!r} cannot be upgraded to "
                           f"schema {migrations.SCHEMA_VERSION} ({exc})") from None

    def _prepare(self, columns: list[str]) -> None:
        self.upgraded = columns
        self.read = row_reader(self.name, columns, _DIALECT)
        self.insert = (f"INSERT INTO {_quote(self.name)} ({', '.join(map(_quote, columns))}) "
                       f"VALUES ({', '.join('?' * len(columns))})")

    def flush(self) -> None:
        """Check the rows read so far and insert them."""
        if not self.pending:
            return
        columns, rows = self._batch()
        if self.read is None or columns != self.upgraded:
            self._prepare(columns)
        read = self.read
        assert read is not None
        params: list[list[Any]] = []
        try:
            for row, (_, text, flagged) in zip(rows, self.pending, strict=True):
                params.append(read(row, text, flagged))
        except (ValidationError, ChangeProblem, ValueError, TypeError, AttributeError,
                OverflowError) as exc:
            failed = len(params)  # the row being read
            raise self._refused(exc, self.number + failed + 1, rows[failed]) from None
        if self.name in ("campaign", "society"):  # every campaign has both rows
            at = self.upgraded.index("id")
            if any(values[at] == 1 for values in params):
                self.importer.singletons.add(self.name)
        self.number += len(self.pending)
        self.pending = []
        self.importer.insert(self.insert, params)

    def _refused(self, exc: Exception, number: int, row: list[Any]) -> BadExportFile:
        """Why row ``number`` (``row``) of this table cannot be imported, in words."""
        where = f"table {self.name!r} row {number}"
        if isinstance(exc, ValidationError):  # a row's value: its place is its column
            first = exc.errors(include_url=False)[0]
            at, *inside = first["loc"]
            column = ".".join(str(part) for part in (
                self.upgraded[at] if isinstance(at, int) else at, *inside))
            return _refusal(self.importer.src, f"{where}: {column}: {first['msg']}")
        if isinstance(exc, ChangeProblem):
            return _refusal(self.importer.src, f"{self._event(row)} {exc}")
        return _refusal(self.importer.src, f"{where}: {exc}")

    def _event(self, row: list[Any]) -> str:
        """A journal event in the words the journal shows it: its number and text."""
        shown = dict(zip(self.upgraded, row, strict=True))
        text = str(shown.get("text") or "")
        text = text if len(text) <= 60 else text[:59] + "…"
        return f"the journal's event {shown.get('id')!r} (\"{text}\"):"


class _Importer:
    """One import: the file read as a stream, its rows written to the new file."""

    def __init__(self, src: Path, conn: sqlite3.Connection, size: int,
                 report: Progress | None) -> None:
        self.src, self.conn, self.size, self.report = src, conn, size, report
        self.schema = migrations.SCHEMA_VERSION
        self.singletons: set[str] = set()
        self.columns: dict[str, list[str]] = {}
        self.reading = "the file"

    def progress(self, done: int) -> None:
        if self.report is not None:
            self.report(done, self.size, f"Reading {self.reading}: {done / 2**20:,.0f} of "
                        f"{self.size / 2**20:,.0f} MiB")

    def insert(self, sql: str, params: list[list[Any]]) -> None:
        try:
            self.conn.executemany(sql, params)
        except sqlite3.IntegrityError as exc:
            raise _refusal(self.src, f"its rows do not fit the tables ({exc})") from None

    def run(self, stream: JsonStream) -> None:
        if not stream.at_map():
            from companion.store.webjournal import what_it_holds

            document = stream.value()
            raise _refusal(self.src, f"it holds {what_it_holds(document)}; expected a "
                           f"Stonesaga Companion export (\"format\": \"{FORMAT_NAME}\") "
                           "or a Stonesaga Campaign Journal file")
        header: dict[str, Any] = {}
        tables_read = False
        for key in stream.members():
            if key in header or (key == "tables" and tables_read):
                raise _refusal(self.src, f"it gives {key!r} twice")
            if key == "tables":
                self.schema = _check_header(self.src, header, at_tables=True)
                self.tables(stream)
                tables_read = True
            else:
                header[key] = stream.value()
        stream.end()
        if not tables_read:
            _check_header(self.src, header, at_tables=False)
            raise _refusal(self.src, "its 'tables' section is missing")
        self.tables_from_upgrades()
        for singleton in ("campaign", "society"):  # every campaign has both rows
            if singleton not in self.singletons:
                raise _refusal(self.src, f"it has no {singleton} row")
        broken = self.conn.execute("PRAGMA foreign_key_check").fetchall()
        if broken:
            raise _refusal(self.src, f"{len(broken)} row(s) point at missing rows")

    def tables(self, stream: JsonStream) -> None:
        if not stream.at_map():
            stream.value()
            raise _refusal(self.src, "its 'tables' section is missing")
        for name in stream.members():
            if name not in EXPORT_TABLES:
                raise _refusal(self.src, f"it has an unknown table {name!r}")
            if name in self.columns:
                raise _refusal(self.src, f"it gives table {name!r} twice")
            self.reading = _table_words(name)
            self.table(stream, name)

    def table(self, stream: JsonStream, name: str) -> None:
        if not stream.at_map():
            stream.value()
            raise _refusal(self.src, f"table {name!r} is malformed")
        importing: _TableImport | None = None
        for key in stream.members():
            if key == "columns" and name not in self.columns:
                self.columns[name] = self.checked_columns(name, stream.value())
            elif key == "rows" and importing is None:
                if name not in self.columns:
                    raise _refusal(self.src, f"table {name!r} gives its rows before its "
                                   "columns")
                importing = _TableImport(self, name, self.columns[name])
                self.rows(stream, importing)
            elif key in ("columns", "rows"):
                raise _refusal(self.src, f"table {name!r} gives its {key} twice")
            else:
                stream.value()  # something else: not part of the format, left out
        if name not in self.columns:
            raise _refusal(self.src, f"table {name!r} has unknown or missing columns")
        if importing is None:
            raise _refusal(self.src, f"table {name!r} has malformed rows")

    def checked_columns(self, name: str, columns: Any) -> list[str]:
        known = {c.name for c in EXPORT_TABLES[name].columns}
        if not isinstance(columns, list) or not all(isinstance(c, str) for c in columns) \
                or not set(columns) <= known or "id" not in columns:
            raise _refusal(self.src, f"table {name!r} has unknown or missing columns")
        if len(set(columns)) != len(columns):
            raise _refusal(self.src, f"table {name!r} names a column twice")
        return columns

    def rows(self, stream: JsonStream, importing: _TableImport) -> None:
        if not stream.at_list():
            stream.value()
            raise _refusal(self.src, f"table {importing.name!r} has malformed rows")
        for row, text, flagged in stream.values_of_list():
            importing.add(row, text, flagged)
        importing.flush()

    def tables_from_upgrades(self) -> None:
        """Rows of the tables an older schema's export lacks, as its upgrades give them."""
        if self.schema == migrations.SCHEMA_VERSION:
            return
        given = {name: {"columns": list(columns), "rows": []}
                 for name, columns in self.columns.items()}
        try:
            upgraded = _upgraded(given, self.schema)
        except (TypeError, ValueError, KeyError, IndexError, AttributeError) as exc:
            raise _refusal(self.src, f"it cannot be upgraded to schema "
                           f"{migrations.SCHEMA_VERSION} ({exc})") from None
        for name, section in upgraded.items():
            if name in self.columns or name not in EXPORT_TABLES or not section["rows"]:
                continue
            importing = _TableImport(self, name, list(section["columns"]), upgrade=False)
            for row in section["rows"]:
                importing.add(row, json.dumps(row), True)
            importing.flush()


@contextmanager
def _no_cycle_collection() -> Iterator[None]:
    """Python's cycle collector off while rows stream through: each batch makes a few
    thousand short-lived lists and maps, which set it off again and again to walk every
    long-lived object of the program (a sixth of an import's time); rows make no cycles,
    and reference counting frees them as before."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()


def _fill_from(src: Path, size: int, report: Progress | None) -> Callable[[sqlite3.Connection],
                                                                            None]:
    """The ``fill`` of a new campaign: every row of the export, in one transaction."""

    def fill(conn: sqlite3.Connection) -> None:
        with _no_cycle_collection():
            fill_rows(conn)

    def fill_rows(conn: sqlite3.Connection) -> None:
        importer = _Importer(src, conn, size, report)
        # A file nobody else sees yet, removed whole if anything fails: no waiting for the
        # disk at the commit (the file is flushed once, before it is linked into place),
        # and room in memory for the pages the history's indexes touch.
        conn.execute("PRAGMA synchronous = OFF")
        conn.execute(f"PRAGMA cache_size = -{BUILD_CACHE_KIB}")
        conn.execute("BEGIN IMMEDIATE")
        try:
            # Tables go in name order, children before parents: check at commit.
            conn.execute("PRAGMA defer_foreign_keys = ON")
            with open(src, "rb") as handle:
                importer.run(JsonStream(handle, max_value=MAX_ROW_CHARS,
                                        progress=importer.progress, suspect=suspect_chunk))
            conn.execute("COMMIT")
        except BaseException as exc:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            if isinstance(exc, JsonProblem):
                raise _refusal(src, str(exc)) from None
            if isinstance(exc, OSError):  # reading the export (SQLite's own are not these)
                raise _refusal(src, f"it could not be read ({exc.strerror or exc})") from None
            raise

    return fill


def import_campaign(src: Path, dest: Path, *, report: Progress | None = None) -> CampaignFile:
    """Create campaign ``dest`` from export file ``src``, and open it.

    Refuses malformed or unknown-version files and files beyond
    :data:`MAX_IMPORT_BYTES` (:class:`BadExportFile`), and an existing ``dest``
    (:class:`CampaignFileExists`); a refused import creates nothing. ``report`` is told
    the bytes of ``src`` read so far.
    """
    src, dest = Path(src), Path(dest).absolute()
    if dest.exists():
        raise CampaignFileExists(dest)
    size = check_import_size(src)
    clean_stale_temps(dest.parent)
    try:
        build_new(dest, _fill_from(src, size, report))
    except sqlite3.Error as exc:  # what the store does not translate (build_new does)
        raise BadExportFile(src, f"its rows do not fit the tables ({exc})") from None
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
