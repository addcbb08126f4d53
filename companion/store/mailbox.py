"""The shared folder's files: a mailbox of operations, never a database.

A campaign shared through a folder that a sync engine keeps in step (Syncthing, Dropbox,
Drive, OneDrive, Nextcloud, a network share, a USB stick) lives there as::

    <folder>/<campaign uid>/<machine id>/ops-00000001-00000004.json     operations 1-4
    <folder>/<campaign uid>/<machine id>/snapshot-00000004.json         the campaign
                                                                        after them

Each machine writes only its own folder (so no sync engine ever sees two writers of one
file), and only whole files: written under a temporary name, flushed, renamed into place.
A segment is ``{"header": {...}, "ops": [...]}``; the header names the format, the
campaign, the machine (id and name), the schema the machine runs, the range of its
operations, and the SHA-256 of the operations as canonical JSON, so a file cut short or
altered is refused, never half-read.

Everything in the folder is untrusted: another machine, or anyone with access to the
folder, wrote it. :func:`read_segment` and :func:`read_snapshot` check every byte before
anything is used: a size limit per file, the JSON's shape, the header's hash, the
campaign, the machine; each change names a table of the schema and its columns, with
values of the column's type. Nothing read can run SQL (values are bound, tables and
columns come from the schema) or name a path outside the folder. A bad file raises
:class:`MailboxRefused`, whose message names the file and the machine in game words.

Sync engines make copies of files they saw changed in two places ("conflicted copies");
:func:`copy_of` recognises Dropbox's, Syncthing's, Nextcloud's, OneDrive's and Google
Drive's. A copy is read like the file it copies (its operations are taken if valid; an
operation already known is never applied twice). Files the system or the engine leaves
(``desktop.ini``, ``.DS_Store``, ``Thumbs.db``, dot-files, temporary files) are ignored.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import re
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from sqlalchemy import JSON, Boolean, DateTime, Float, Integer, LargeBinary, String, Table
from sqlalchemy.types import TypeDecorator

from companion.store.durable import fsync_dir, fsync_file, temp_beside
from companion.store.history import game_tables

OPS_FORMAT = "stonesaga-companion-ops"
SNAPSHOT_FORMAT = "stonesaga-companion-snapshot"
FORMAT_VERSION = 1
"""The envelope's version (the campaign's schema version is in each header)."""

MAX_SEGMENT_BYTES = 16 * 1024 * 1024
"""The largest segment read: far above any evening's play (500 operations take ~1 MB)."""
MAX_SNAPSHOT_BYTES = 1024 * 1024 * 1024
"""The largest snapshot read (a whole campaign with its history)."""
MAX_TEXT = 100_000
MAX_NAME = 200
MAX_DEPTH = 64
MAX_SEQ = 1 << 53

MACHINE_ID = re.compile(r"\A[0-9a-f]{32}\Z")
"""A machine's (and a campaign's) identity: a UUID as 32 lower-case hex digits."""
OP_REF = re.compile(r"\A(?:b:\d{1,18}|[0-9a-f]{32}:\d{1,16})\Z")
"""An operation's name: ``machine:seq``, or ``b:N`` for event N of the shared start."""
ROW_KEY = re.compile(r"\A(?:b:\d{1,19}|[0-9a-f]{32}:\d{1,16}:\d{1,9})\Z")
"""A row's identity: ``machine:seq:n`` (made by an operation) or ``b:id`` (older)."""

SEGMENT_NAME = re.compile(r"\Aops-(\d{8,16})-(\d{8,16})\.json\Z")
SNAPSHOT_NAME = re.compile(r"\Asnapshot-(\d{8,16})\.json\Z")
_STEM = re.compile(r"\A(?P<stem>ops-\d{8,16}-\d{8,16}|snapshot-\d{8,16})(?P<rest>.*)\Z",
                   re.DOTALL)
_COPIES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("Dropbox", re.compile(r"\A \(.*conflicted copy.*\)\.json\Z", re.IGNORECASE)),
    ("Nextcloud", re.compile(r"\A(?: \(conflicted copy [^)]*\)|_conflict-\d{8}-\d{6})\.json\Z",
                             re.IGNORECASE)),
    ("Syncthing", re.compile(r"\A\.sync-conflict-\d{8}-\d{6}-[A-Z0-9]{7}\.json\Z")),
    ("Google Drive", re.compile(r"\A \(\d{1,4}\)\.json\Z")),
    ("OneDrive", re.compile(r"\A-[^\s/\\]{1,63}\.json\Z")),
)
FOREIGN_NAMES = frozenset({"desktop.ini", "thumbs.db", ".ds_store", "icon\r", ".dropbox",
                           ".dropbox.attr", ".stfolder", ".stignore", ".stversions"})
"""Files and folders systems and sync engines put in synced folders: never ours."""


class MailboxRefused(Exception):
    """A file of the shared folder that cannot be used; nothing was taken from it."""

    def __init__(self, path: Path, machine: str, why: str) -> None:
        super().__init__(f"The shared folder's file {path.name} from {machine} was refused: "
                         f"{why}. Nothing was taken from it; the campaign is unchanged.")
        self.path = path
        self.machine = machine
        self.why = why


class Vanished(MailboxRefused):
    """The file left the folder while it was being read (its writer replaced it by a
    larger segment, or the sync engine moved it): nothing to take, nothing wrong."""


class NewerVersion(Exception):
    """A file written by a newer version of the companion (a later schema)."""

    def __init__(self, path: Path, machine: str, schema: int) -> None:
        super().__init__(f"{machine} uses a newer version; update to keep in step")
        self.path = path
        self.machine = machine
        self.schema = schema


@dataclass(frozen=True)
class Segment:
    """A segment read and checked: one machine's operations ``first``..``last``."""

    path: Path
    machine: str
    machine_name: str
    schema: int
    first: int
    last: int
    ops: tuple[dict[str, Any], ...]


@dataclass(frozen=True)
class Snapshot:
    """A snapshot read and checked: the campaign (an export's document), the shared
    history's start, the operations it holds and the rows' identities."""

    path: Path
    machine: str
    machine_name: str
    schema: int
    seq: int
    body: dict[str, Any]


@dataclass
class MachineFiles:
    """What one machine's folder holds, by name only (nothing read yet)."""

    machine: str
    segments: list[tuple[int, int, Path]] = field(default_factory=list)
    """``(first, last, path)``, conflict copies included."""
    snapshots: list[tuple[int, Path]] = field(default_factory=list)


# --- names ----------------------------------------------------------------------------------


def campaign_folder(folder: Path, uid: str) -> Path:
    """The campaign's own folder inside the shared folder."""
    if not MACHINE_ID.match(uid):
        raise ValueError(f"not a campaign identity: {uid!r}")
    return Path(folder) / uid


def segment_name(first: int, last: int) -> str:
    """The file name of a machine's operations ``first``..``last``."""
    return f"ops-{first:08d}-{last:08d}.json"


def snapshot_name(seq: int) -> str:
    """The file name of a machine's snapshot after its operation ``seq``."""
    return f"snapshot-{seq:08d}.json"


def copy_of(name: str) -> tuple[str, str] | None:
    """``(the file it copies, the engine)`` when ``name`` is a sync engine's conflict copy
    of a segment or snapshot (``ops-00000001-00000002 (Bryn's conflicted copy).json``,
    ``….sync-conflict-20261127-140203-ABCDEFG.json``, ``… (1).json``, ``…-KITCHEN-PC.json``);
    None for any other name."""
    found = _STEM.match(name)
    if found is None or not found["rest"] or found["rest"] == ".json":
        return None
    for engine, pattern in _COPIES:
        if pattern.match(found["rest"]):
            return found["stem"] + ".json", engine
    return None


def is_foreign(name: str) -> bool:
    """Whether ``name`` is a system's or sync engine's file (or a temporary one): ignored."""
    return name.startswith(".") or name.lower() in FOREIGN_NAMES or name.endswith(".tmp")


def list_machine(folder: Path, machine: str) -> MachineFiles:
    """The segments and snapshots in one machine's folder (copies included), by name.

    Raises OSError when the folder cannot be read (the caller says "offline").
    """
    files = MachineFiles(machine)
    with os.scandir(folder) as entries:
        for entry in entries:
            name = entry.name
            if is_foreign(name) or not entry.is_file(follow_symlinks=False):
                continue
            original = copy_of(name)
            plain = original[0] if original else name
            if (found := SEGMENT_NAME.match(plain)) is not None:
                files.segments.append((int(found[1]), int(found[2]), Path(entry.path)))
            elif (found := SNAPSHOT_NAME.match(plain)) is not None:
                files.snapshots.append((int(found[1]), Path(entry.path)))
    files.segments.sort(key=lambda s: (s[0], s[1], s[2].name))
    files.snapshots.sort(key=lambda s: (s[0], s[1].name))
    return files


def list_machines(campaign_dir: Path) -> list[str]:
    """The machines with a folder in the campaign's folder (OSError: unreachable)."""
    with os.scandir(campaign_dir) as entries:
        return sorted(e.name for e in entries
                      if MACHINE_ID.match(e.name) and e.is_dir(follow_symlinks=False))


# --- writing ----------------------------------------------------------------------------------


def canonical(value: Any) -> str:
    """The one spelling of a JSON value that its hash is taken of."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def digest(value: Any) -> str:
    """SHA-256 of ``value``'s canonical JSON."""
    return hashlib.sha256(canonical(value).encode("utf-8")).hexdigest()


def _header(fmt: str, campaign: str, machine: str, name: str, schema: int,
            body: Any, **more: Any) -> dict[str, Any]:
    return {"format": fmt, "format_version": FORMAT_VERSION, "campaign": campaign,
            "machine": machine, "machine_name": name, "schema_version": schema,
            "sha256": digest(body), **more}


def write_whole(path: Path, document: dict[str, Any]) -> None:
    """Write ``document`` as ``path``: a temporary name, flushed, renamed into place."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = temp_beside(path, "mailbox")
    try:
        # Keys in the order they were made: a JSON column replayed from it is then
        # written as where it was made (the hash is of the sorted, canonical form).
        tmp.write_text(json.dumps(document, ensure_ascii=False),
                       encoding="utf-8")
        fsync_file(tmp)
        os.replace(tmp, path)
        fsync_dir(path.parent)
    finally:
        tmp.unlink(missing_ok=True)


def write_segment(machine_dir: Path, *, campaign: str, machine: str, name: str, schema: int,
                  ops: list[dict[str, Any]]) -> Path:
    """Write one machine's operations (consecutive, from ``ops[0]["seq"]``) as a segment."""
    first, last = ops[0]["seq"], ops[-1]["seq"]
    path = machine_dir / segment_name(first, last)
    header = _header(OPS_FORMAT, campaign, machine, name, schema, ops, first=first, last=last)
    write_whole(path, {"header": header, "ops": ops})
    return path


def write_snapshot(machine_dir: Path, *, campaign: str, machine: str, name: str, schema: int,
                   seq: int, body: dict[str, Any]) -> Path:
    """Write a snapshot (the campaign after this machine's operation ``seq``)."""
    path = machine_dir / snapshot_name(seq)
    header = _header(SNAPSHOT_FORMAT, campaign, machine, name, schema, body, seq=seq)
    write_whole(path, {"header": header, "body": body})
    return path


# --- reading ----------------------------------------------------------------------------------


def _load(path: Path, limit: int, who: str) -> Any:
    try:
        size = path.stat().st_size
        if size > limit:
            raise MailboxRefused(path, who, f"it is {size:,} bytes, more than the "
                                            f"{limit:,} a file of the folder may be")
        raw = path.read_bytes()
    except FileNotFoundError:
        raise Vanished(path, who, "it left the folder while it was read") from None
    except OSError as exc:
        raise MailboxRefused(path, who, f"it could not be read ({exc.strerror or exc})"
                             ) from None
    if len(raw) > limit:
        raise MailboxRefused(path, who, "it grew past the size limit while being read")
    try:
        return json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise MailboxRefused(path, who, "it is not text") from None
    except RecursionError:
        raise MailboxRefused(path, who, "it is nested too deeply") from None
    except ValueError:
        raise MailboxRefused(path, who, "it is cut short or not a file of the companion "
                                        "(the sync may still be copying it)") from None


def _text(value: Any, limit: int = MAX_NAME) -> bool:
    return isinstance(value, str) and len(value) <= limit and _unicode(value)


def _unicode(value: str) -> bool:
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _count(value: Any, low: int = 0, high: int = MAX_SEQ) -> bool:
    return type(value) is int and low <= value <= high


def _check_header(path: Path, document: Any, fmt: str, campaign: str, machine: str,
                  schema: int, who: str) -> tuple[dict[str, Any], str]:
    """The header checked against the folder it lies in; returns it and the writer's name."""
    if not isinstance(document, dict) or not isinstance(document.get("header"), dict):
        raise MailboxRefused(path, who, "it is not a file of the companion")
    header: dict[str, Any] = document["header"]
    if _text(header.get("machine_name")) and header["machine_name"].strip():
        who = header["machine_name"].strip()
    if header.get("format") != fmt:
        raise MailboxRefused(path, who, "it is not a file of this kind")
    if type(header.get("format_version")) is not int or header["format_version"] != \
            FORMAT_VERSION:
        raise MailboxRefused(path, who, f"its format version {header.get('format_version')!r}"
                                        " is unknown")
    if header.get("campaign") != campaign:
        raise MailboxRefused(path, who, "it belongs to another campaign")
    if header.get("machine") != machine:
        raise MailboxRefused(path, who, "it lies in another machine's folder")
    if not _count(header.get("schema_version"), 1, 1000):
        raise MailboxRefused(path, who, "it names no schema version")
    if header["schema_version"] > schema:
        raise NewerVersion(path, who, header["schema_version"])
    if not _text(header.get("sha256"), 64):
        raise MailboxRefused(path, who, "its header has no checksum")
    return header, who


def read_segment(path: Path, *, campaign: str, machine: str, schema: int,
                 name: str | None = None) -> Segment:
    """Read and check one segment (or a conflict copy of one) of ``machine``'s folder;
    ``name`` is the machine's name as known so far (for a file too broken to say it).

    Raises :class:`MailboxRefused` (in game words, naming the file and the machine) or
    :class:`NewerVersion`; nothing of a refused file is used.
    """
    who = name or f"machine {machine[:8]}"
    document = _load(path, MAX_SEGMENT_BYTES, who)
    header, who = _check_header(path, document, OPS_FORMAT, campaign, machine, schema, who)
    first, last, ops = header.get("first"), header.get("last"), document.get("ops")
    if not isinstance(first, int) or not isinstance(last, int) or not _count(first, 1) \
            or not _count(last, 1) or first > last:
        raise MailboxRefused(path, who, "its range of operations is malformed")
    if not isinstance(ops, list) or len(ops) != last - first + 1:
        raise MailboxRefused(path, who, "it does not hold the operations its header names")
    if digest(ops) != header["sha256"]:
        raise MailboxRefused(path, who, "its checksum does not match (it was cut short or "
                                        "altered)")
    original = copy_of(path.name)
    found = SEGMENT_NAME.match(original[0] if original else path.name)
    if found is None or (int(found[1]), int(found[2])) != (first, last):
        raise MailboxRefused(path, who, "its name does not match its operations")
    for number, op in enumerate(ops, start=first):
        try:
            check_op(op, machine, number)
        except ValueError as exc:
            raise MailboxRefused(path, who, f"operation {number}: {exc}") from None
    return Segment(path, machine, who, header["schema_version"], first, last, tuple(ops))


def read_snapshot(path: Path, *, campaign: str, machine: str, schema: int) -> Snapshot:
    """Read and check a snapshot's envelope (its campaign is checked by the import)."""
    who = f"machine {machine[:8]}"
    document = _load(path, MAX_SNAPSHOT_BYTES, who)
    header, who = _check_header(path, document, SNAPSHOT_FORMAT, campaign, machine, schema,
                                who)
    body = document.get("body")
    if not isinstance(body, dict) or digest(body) != header["sha256"]:
        raise MailboxRefused(path, who, "its checksum does not match (it was cut short or "
                                        "altered)")
    if not _count(header.get("seq"), 0):
        raise MailboxRefused(path, who, "it names no operation")
    try:
        check_snapshot_body(body)
    except ValueError as exc:
        raise MailboxRefused(path, who, str(exc)) from None
    return Snapshot(path, machine, who, header["schema_version"], header["seq"], body)


# --- the shape of an operation ------------------------------------------------------------


def _plain(value: Any, depth: int = 0) -> None:
    if depth > MAX_DEPTH:
        raise ValueError(f"lists or maps nested more than {MAX_DEPTH} deep")
    if value is None or isinstance(value, bool | float):
        return
    if isinstance(value, int):
        if not -(1 << 63) <= value < (1 << 63):
            raise ValueError("a whole number over 64 bits")
    elif isinstance(value, str):
        if len(value) > 10 * MAX_TEXT or not _unicode(value):
            raise ValueError("text that is too long or not valid Unicode")
    elif isinstance(value, list):
        for item in value:
            _plain(item, depth + 1)
    elif isinstance(value, dict):
        for key, item in value.items():
            _plain(key, depth + 1)
            _plain(item, depth + 1)
    else:
        raise ValueError("a value JSON cannot hold")


ROW_POINTERS = {"web_journal_link": ("row_id", "row_table")}
"""Columns that hold another row's id of a table named beside it, not by a foreign key:
``{table: (column, the column naming its table)}``. A web Journal entry's home row
travels by its identity like a foreign key's (two machines each importing a Journal
made their homes under numbers that clash when merged)."""


def references(table: Table, image: dict[str, Any] | None = None) -> dict[str, str]:
    """The columns of ``table`` that hold another row's id: ``{column: its table}``;
    with ``image`` (a row's columns), also a pointer whose table it names."""
    refs = {fk.parent.name: fk.column.table.name for fk in table.foreign_keys}
    pointer = ROW_POINTERS.get(table.name)
    if pointer is not None and image is not None:
        column, names = pointer
        target = image.get(names)
        if isinstance(target, str) and target in game_tables() and image.get(column) \
                is not None:
            refs[column] = target
    return refs


def _base_type(column_type: Any) -> Any:
    return column_type.impl_instance if isinstance(column_type, TypeDecorator) else column_type


def _check_value(table: Table, column: str, value: Any,
                 refs: dict[str, str] | None = None) -> None:
    """``value`` fits ``table.column`` as an image holds it (refs are checked as text)."""
    col = table.c[column]
    if value is None:
        if not col.nullable and not col.primary_key:
            raise ValueError(f"{table.name}.{column} may not be empty")
        return
    if column in (references(table) if refs is None else refs):
        if not isinstance(value, str) or not (ROW_KEY.match(value) or OP_REF.match(value)):
            raise ValueError(f"{table.name}.{column} names no row")
        return
    kind = _base_type(col.type)
    if isinstance(kind, Boolean):
        ok = isinstance(value, bool)
    elif isinstance(kind, Integer):
        ok = type(value) is int and -(1 << 63) <= value < (1 << 63)
    elif isinstance(kind, Float):
        ok = isinstance(value, int | float) and not isinstance(value, bool)
    elif isinstance(kind, DateTime):
        ok = isinstance(value, str) and _iso(value)
    elif isinstance(kind, LargeBinary):
        ok = isinstance(value, str) and _base64(value)
    elif isinstance(kind, String):
        ok = isinstance(value, str) and _unicode(value)
    elif isinstance(kind, JSON):
        _plain(value)
        ok = True
    else:
        ok = False
    if not ok:
        raise ValueError(f"{table.name}.{column} holds a value of the wrong kind")


def _iso(value: str) -> bool:
    try:
        datetime.fromisoformat(value)
    except ValueError:
        return False
    return True


def _base64(value: str) -> bool:
    try:
        base64.b64decode(value.encode("ascii"), validate=True)
    except (ValueError, UnicodeEncodeError):
        return False
    return True


def check_change(change: Any) -> None:
    """One row change of an operation: a table of the schema, a row's identity, images of
    its columns with values of their types (raises ValueError saying what is wrong)."""
    if not isinstance(change, dict) or set(change) != {"table", "key", "id", "before",
                                                       "after"}:
        raise ValueError("a change is malformed")
    table = game_tables().get(change["table"]) if isinstance(change["table"], str) else None
    if table is None:
        raise ValueError(f"a change names no table of the campaign ({change['table']!r:.40})")
    if not isinstance(change["key"], str) or not ROW_KEY.match(change["key"]):
        raise ValueError("a change names no row")
    if not _count(change["id"], 1, (1 << 63) - 1):
        raise ValueError("a change has no row number")
    before, after = change["before"], change["after"]
    if before is None and after is None:
        raise ValueError("a change changes nothing")
    known = {c.name for c in table.columns} - {"id"}
    for image in (before, after):
        if image is None:
            continue
        if not isinstance(image, dict) or not set(image) <= known:
            raise ValueError(f"a change to {table.name} names a column it does not have")
        if (before is None or after is None) and set(image) != known:
            raise ValueError(f"a row of {table.name} is not whole")
        refs = references(table, image)
        pointer = ROW_POINTERS.get(table.name)
        if pointer is not None and image.get(pointer[0]) is not None \
                and pointer[0] not in refs:
            raise ValueError(f"a change to {table.name} points at a row of no table")
        for column, value in image.items():
            _check_value(table, column, value, refs)


OP_KEYS = frozenset({"machine", "seq", "lamport", "clock", "kind", "text", "author", "time",
                     "payload", "target", "changes"})


def check_op(op: Any, machine: str, seq: int) -> None:
    """One operation as it travels (raises ValueError saying what is wrong)."""
    if not isinstance(op, dict) or set(op) != OP_KEYS:
        raise ValueError("it is malformed")
    if op["machine"] != machine or op["seq"] != seq:
        raise ValueError("it does not belong where it lies")
    if not _count(op["lamport"], 1):
        raise ValueError("its place in the order is malformed")
    clock = op["clock"]
    if not isinstance(clock, dict) or len(clock) > 1000 or not all(
            isinstance(k, str) and MACHINE_ID.match(k) and _count(v, 1)
            for k, v in clock.items()):
        raise ValueError("what it knew of is malformed")
    if clock.get(machine, 0) != seq - 1 and not (seq == 1 and machine not in clock):
        raise ValueError("it skips an operation of its own machine")
    if not _text(op["kind"]) or not _text(op["text"], MAX_TEXT):
        raise ValueError("its words are malformed")
    if op["author"] is not None and not _text(op["author"]):
        raise ValueError("its author is malformed")
    if not isinstance(op["time"], str) or not _iso(op["time"]):
        raise ValueError("its time is malformed")
    if not isinstance(op["payload"], dict):
        raise ValueError("its details are malformed")
    _plain(op["payload"])
    if op["target"] is not None and not (isinstance(op["target"], str)
                                         and OP_REF.match(op["target"])):
        raise ValueError("the operation it undoes or redoes is malformed")
    if op["kind"] in ("undo", "redo") and op["target"] is None:
        raise ValueError("it undoes or redoes nothing")
    if not isinstance(op["changes"], list) or len(op["changes"]) > 100_000:
        raise ValueError("its changes are malformed")
    if op["kind"] in ("undo", "redo", "save_point") and op["changes"]:
        raise ValueError("a step through the history carries no changes of its own")
    own = f"{machine}:{seq}:"
    for change in op["changes"]:
        check_change(change)
        if (change["before"] is None) != change["key"].startswith(own):
            raise ValueError("a row it makes is not named as its own")


SNAPSHOT_KEYS = frozenset({"export", "base_event", "ops", "rows"})


def check_snapshot_body(body: dict[str, Any]) -> None:
    """A snapshot's body: the export (checked whole by the import), the shared history's
    start, each operation with what it did, and each row's identity."""
    if set(body) != SNAPSHOT_KEYS or not isinstance(body["export"], dict):
        raise ValueError("it is malformed")
    if not _count(body["base_event"], 0, (1 << 62)):
        raise ValueError("its start of the shared history is malformed")
    ops, rows = body["ops"], body["rows"]
    if not isinstance(ops, list) or not isinstance(rows, list):
        raise ValueError("its history is malformed")
    for entry in ops:
        if not isinstance(entry, dict) or set(entry) != {"op", "event_id", "state",
                                                          "clash", "rewind"}:
            raise ValueError("an operation of its history is malformed")
        op = entry["op"]
        if not isinstance(op, dict) or not isinstance(op.get("machine"), str) \
                or not MACHINE_ID.match(op["machine"]) or not _count(op.get("seq"), 1):
            raise ValueError("an operation of its history is malformed")
        check_op(op, op["machine"], op["seq"])
        rewind = entry["rewind"]
        if not _count(entry["event_id"], 1, 1 << 62) \
                or entry["state"] not in ("applied", "waiting", "dropped", "void") \
                or not isinstance(entry["clash"], list) \
                or not all(isinstance(c, str) and OP_REF.match(c) for c in entry["clash"]) \
                or not isinstance(rewind, dict) \
                or not set(rewind) <= {"redo", "redoable", "refused"} \
                or not isinstance(rewind.get("redoable", False), bool) \
                or not isinstance(rewind.get("refused", ""), str) \
                or len(rewind.get("refused", "")) > MAX_TEXT \
                or not all(_count(e, 1, 1 << 62) for e in rewind.get("redo", [])):
            raise ValueError("an operation of its history is malformed")
    for row in rows:
        if not isinstance(row, list) or len(row) != 3 or row[0] not in game_tables() \
                or not _count(row[1], 1, (1 << 63) - 1) or not isinstance(row[2], str) \
                or not ROW_KEY.match(row[2]):
            raise ValueError("a row's identity is malformed")
