"""A shared campaign's own operations: taken into the log, and published to the folder.

Every journal event this machine writes after the shared history began is one of its
operations: :func:`register` gives it its number (``seq``), its place in the order
(``lamport``: one more than any operation known) and what it knew of (``clock``: each
machine's newest operation known), and its changes with the rows' shared identities
(:func:`companion.store.replay.wire_changes`). :func:`publish` writes those not yet in the
folder as one segment of this machine's folder (``companion.store.mailbox``).

:meth:`CampaignFile.transaction`, ``undo``, ``redo``, ``save_point`` and ``undo_to`` call
:func:`after_commit` once they have committed, when the campaign is shared: the one
write path publishes every operation, whichever front made it, a few seconds' worth at a
time (:func:`publish_pending`; closing the file publishes what waits). A folder that
cannot be reached never stops play: the operations wait in the file, and the next
publish writes them.
"""

from __future__ import annotations

import json
import logging
import os
import time
import uuid
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sqlalchemy import Connection, func, select

from companion.store import mailbox
from companion.store.history import encode_value
from companion.store.migrations import SCHEMA_VERSION
from companion.store.replay import JOURNAL, SYNC_OPS, Ids, wire_changes
from companion.store.shown_tables import Campaign, JournalEvent
from companion.store.sync_tables import SyncState
from companion.store.table_base import table_of

if TYPE_CHECKING:
    from companion.store.campaign_file import CampaignFile

log = logging.getLogger("companion.store")

STATE = table_of(SyncState)
SEGMENT_OPS = 500
"""The most operations one segment holds."""
COMPACT_AT = 40
"""This many segments of its own in the folder, and a machine writes them again as few."""
PRUNE_KEEP = 500
"""Operations of its own a machine keeps as segments past those every machine has
taken in (one that has not synced for a while reads those few files); older ones a
machine behind takes from the snapshot instead (:func:`prune`)."""
PUBLISH_EVERY = 2.0
"""Seconds: after a publish, operations committed within this wait and go together."""


def is_shared(conn: Connection) -> bool:
    """Whether the campaign is shared (it has a ``sync_state`` row)."""
    return conn.execute(select(STATE.c.id)).first() is not None


def read_state(conn: Connection) -> dict[str, Any] | None:
    """The ``sync_state`` row as a mapping (None: not shared)."""
    row = conn.execute(select(STATE)).mappings().first()
    return None if row is None else dict(row)


def campaign_uid(conn: Connection) -> str:
    """The campaign's identity (schema 4)."""
    table = table_of(Campaign)
    return str(conn.execute(select(table.c.uid).where(table.c.id == 1)).scalar() or "")


def known_clock(conn: Connection) -> dict[str, int]:
    """Each machine's newest operation known here."""
    return {str(m): int(s) for m, s in conn.execute(
        select(SYNC_OPS.c.machine, func.max(SYNC_OPS.c.seq)).group_by(SYNC_OPS.c.machine))}


def _redo_before(conn: Connection, event_id: int) -> list[int]:
    """The events that could be redone just before event ``event_id`` was written: those
    undone since the newest operation before it, and not redone since."""
    redone: set[int] = set()
    stack: list[int] = []
    rows = conn.execute(select(JOURNAL.c.kind, JOURNAL.c.undoes_id, JOURNAL.c.redoes_id)
                        .where(JOURNAL.c.id < event_id).order_by(JOURNAL.c.id.desc()))
    for kind, undoes, redoes in rows:
        if kind == "redo" and redoes is not None:
            redone.add(int(redoes))
        elif kind == "undo" and undoes is not None:
            if int(undoes) not in redone:
                stack.append(int(undoes))
            redone.discard(int(undoes))
        elif kind != "save_point":
            break
    return sorted(stack)


def own_files(conn: Connection, state: dict[str, Any]) -> mailbox.MachineFiles | None:
    """This machine's files in the folder, by name (None: the folder is not reachable)."""
    folder = machine_dir(conn, state)
    try:
        return mailbox.list_machine(folder, state["machine"]) if folder.is_dir() \
            else mailbox.MachineFiles(state["machine"])
    except OSError:
        return None


def _mark_file(machine: str) -> Path:
    from companion.paths import user_data_dir

    return user_data_dir() / "sharing" / f"{machine}.seq"


def numbered_so_far(machine: str) -> int:
    """The highest operation number machine ``machine`` has given on this computer, kept
    outside the campaign file (so a backup restored, or an old copy, cannot forget it)."""
    try:
        return int(_mark_file(machine).read_text(encoding="ascii").strip() or 0)
    except (OSError, ValueError):
        return 0


def note_numbered(machine: str, seq: int) -> None:
    """Remember that ``machine`` gave operation number ``seq`` (see :func:`numbered_so_far`)."""
    path = _mark_file(machine)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{uuid.uuid4().hex[:8]}.tmp")
        tmp.write_text(str(seq), encoding="ascii")
        os.replace(tmp, path)
    except OSError as exc:  # the folder's own files still guard it when reachable
        log.warning("the sharing mark %s was not written: %s", path, exc)


def new_identity_if_rolled_back(conn: Connection, state: dict[str, Any]) -> dict[str, Any]:
    """A file that forgot operations it had numbered (a backup restored, an old copy
    opened) must never number new ones as those: it becomes a machine of its own (same
    name), and the next sync takes the forgotten ones back in from the folder. It knows
    from this computer's mark (:func:`numbered_so_far`) or from its files in the folder."""
    known = known_clock(conn).get(state["machine"], 0)
    highest = numbered_so_far(state["machine"])
    files = own_files(conn, state)
    if files is not None and files.segments:
        highest = max(highest, *(last for _first, last, _path in files.segments))
    if files is not None and files.snapshots:  # its segments may be pruned
        highest = max(highest, *(seq for seq, _path in files.snapshots))
    if highest <= known:
        return state
    # Its operations up to ``known`` are the old identity's, the same as the folder's or
    # not yet there: it still writes those (``publish``), under the old name.
    machines = dict(state["machines"])
    machines[state["machine"]] = {"name": state["machine_name"], "schema": SCHEMA_VERSION,
                                  "earlier_self": state["published_seq"]}
    conn.execute(STATE.update().values(machine=uuid.uuid4().hex, published_seq=0,
                                       snapshot_seq=0, machines=machines))
    log.warning("this campaign file is older than what it published; it goes on as a "
                "machine of its own, and takes its newer operations back from the folder")
    found = read_state(conn)
    assert found is not None
    return found


def register(conn: Connection) -> int:
    """Take this machine's journal events not yet in the log into it, as operations;
    returns how many. Call inside a write transaction of a shared campaign."""
    state = read_state(conn)
    assert state is not None
    events = conn.execute(select(JOURNAL).where(JOURNAL.c.id > state["registered_event"])
                          .order_by(JOURNAL.c.id)).mappings().all()
    if not events:
        return 0
    state = new_identity_if_rolled_back(conn, state)
    machine = state["machine"]
    ids = Ids(conn, state["base_event"])
    clock = known_clock(conn)
    lamport = int(conn.execute(select(func.max(SYNC_OPS.c.lamport))).scalar() or 0)
    position = int(conn.execute(select(func.max(SYNC_OPS.c.id))).scalar() or 0)
    for event in events:
        seq = clock.get(machine, 0) + 1
        lamport += 1
        position += 1
        op = wire_op(ids, event, machine, seq, lamport, clock)
        rewind: dict[str, Any] = {}
        if event["kind"] == "redo":
            rewind = {"redoable": True}  # a redo here always takes a redoable event
        elif event["kind"] not in ("undo", "save_point"):
            rewind = {"redo": _redo_before(conn, event["id"])}
        conn.execute(SYNC_OPS.insert().values(
            id=position, machine=machine, seq=seq, lamport=lamport, event_id=event["id"],
            state="applied", clash=[], rewind=rewind, op=op))
        clock[machine] = seq
    conn.execute(STATE.update().values(registered_event=events[-1]["id"]))
    note_numbered(machine, clock[machine])
    return len(events)


def wire_op(ids: Ids, event: Any, machine: str, seq: int, lamport: int,
            clock: dict[str, int]) -> dict[str, Any]:
    """Journal event ``event`` as it travels (``companion.store.mailbox``)."""
    kind = str(event["kind"])
    changes = event["changes"]
    if isinstance(changes, str):
        changes = json.loads(changes)
    target_id = event["undoes_id"] if kind == "undo" else event["redoes_id"]
    payload = event["payload"]
    if isinstance(payload, str):
        payload = json.loads(payload)
    time_column = table_of(JournalEvent).c.time
    return {
        "machine": machine, "seq": seq, "lamport": lamport,
        "clock": {m: s for m, s in sorted(clock.items()) if s > 0},
        "kind": kind, "text": str(event["text"]), "author": event["author"],
        "time": encode_value(time_column.type, event["time"]),
        "payload": {} if kind in ("undo", "redo") else dict(payload or {}),
        "target": ids.event_ref(int(target_id)) if target_id is not None else None,
        "changes": [] if kind in ("undo", "redo", "save_point")
        else wire_changes(ids, list(changes or []), machine, seq),
    }


def machine_dir(conn: Connection, state: dict[str, Any]) -> Path:
    """This machine's folder in the shared folder."""
    return mailbox.campaign_folder(Path(state["folder"]), campaign_uid(conn)) / str(
        state["machine"])


def own_ops(conn: Connection, machine: str, first: int, last: int) -> list[dict[str, Any]]:
    """This machine's operations ``first``..``last`` as they travel."""
    return [dict(op) if not isinstance(op, str) else json.loads(op) for (op,) in conn.execute(
        select(SYNC_OPS.c.op).where(SYNC_OPS.c.machine == machine, SYNC_OPS.c.seq >= first,
                                    SYNC_OPS.c.seq <= last).order_by(SYNC_OPS.c.seq))]


def write_ops(conn: Connection, state: dict[str, Any], first: int, last: int) -> None:
    """Write this machine's operations ``first``..``last`` to its folder (segments of at
    most :data:`SEGMENT_OPS`). Raises OSError when the folder cannot be written."""
    folder = machine_dir(conn, state)
    for start in range(first, last + 1, SEGMENT_OPS):
        ops = own_ops(conn, state["machine"], start, min(last, start + SEGMENT_OPS - 1))
        if ops:
            mailbox.write_segment(folder, campaign=campaign_uid(conn), machine=state["machine"],
                                  name=state["machine_name"], schema=SCHEMA_VERSION, ops=ops)


def publish(conn: Connection, now: datetime) -> int:
    """Write this machine's operations not yet in the folder; returns how many. A folder
    that cannot be reached is noted (``offline_since``), and they wait."""
    state = read_state(conn)
    assert state is not None
    last = known_clock(conn).get(state["machine"], 0)
    earlier = _earlier_selves(conn, state)
    if last <= state["published_seq"] and not earlier:
        return 0
    if not Path(state["folder"]).is_dir():
        _offline(conn, state, now)
        return 0
    try:
        for machine, (first, end) in earlier.items():
            write_ops(conn, {**state, "machine": machine}, first, end)
        if last > state["published_seq"]:
            write_ops(conn, state, state["published_seq"] + 1, last)
            compact(conn, state, last)
    except OSError:
        _offline(conn, state, now)
        return 0
    machines = {m: ({k: v for k, v in info.items() if k != "earlier_self"}
                    if m in earlier else info) for m, info in state["machines"].items()}
    conn.execute(STATE.update().values(published_seq=last, offline_since=None,
                                       machines=machines))
    return last - int(state["published_seq"])


def _earlier_selves(conn: Connection, state: dict[str, Any]) -> dict[str, tuple[int, int]]:
    """The identities this file had before it was rolled back, with the range of their
    operations it holds that the folder may lack (written again: the same operations)."""
    known = known_clock(conn)
    found: dict[str, tuple[int, int]] = {}
    for machine, info in state["machines"].items():
        published = info.get("earlier_self") if isinstance(info, dict) else None
        if isinstance(published, int) and known.get(machine, 0) > published:
            found[machine] = (published + 1, known[machine])
    return found


def compact(conn: Connection, state: dict[str, Any], last: int) -> None:
    """Once this machine's folder holds more than :data:`COMPACT_AT` segments, write its
    operations again as segments of :data:`SEGMENT_OPS` and remove the small ones they
    cover (a reader that meets a file gone skips it; one read twice applies once)."""
    files = own_files(conn, state)
    if files is None:
        return
    plain = [(f, t, p) for f, t, p in files.segments if mailbox.SEGMENT_NAME.match(p.name)]
    if len(plain) <= COMPACT_AT:
        return
    # From the oldest segment still there: what was pruned is never written back.
    oldest = min(first for first, _t, _p in plain)
    chunks = [(max(a, oldest), min(a + SEGMENT_OPS - 1, last))
              for a in range(1, last + 1, SEGMENT_OPS) if a + SEGMENT_OPS > oldest]
    names = {p.name for _f, _t, p in plain}
    for first, end in chunks:
        if mailbox.segment_name(first, end) not in names:
            write_ops(conn, state, first, end)
    for first, end, path in plain:
        if (first, end) not in chunks and any(a <= first and end <= b for a, b in chunks):
            path.unlink(missing_ok=True)


def own_snapshot(files: mailbox.MachineFiles) -> int | None:
    """The operation this machine's snapshot in the folder was written after (its plain
    name; a sync engine's copy of it does not count), or None when it has none there."""
    plain = [seq for seq, path in files.snapshots if mailbox.SNAPSHOT_NAME.match(path.name)]
    return max(plain) if plain else None


def taken_by_all(conn: Connection, state: dict[str, Any]) -> int:
    """This machine's newest operation every other machine known here had taken in when
    it last played (what its newest operation knew of; 0 for one that never played)."""
    me = state["machine"]
    others = set(state["machines"]) | set(known_clock(conn))
    others.discard(me)
    taken = known_clock(conn).get(me, 0)
    for machine in others:
        newest = conn.execute(select(SYNC_OPS.c.op).where(SYNC_OPS.c.machine == machine)
                              .order_by(SYNC_OPS.c.seq.desc()).limit(1)).scalar()
        if isinstance(newest, str):
            newest = json.loads(newest)
        knew = newest["clock"].get(me, 0) if isinstance(newest, dict) else 0
        taken = min(taken, int(knew))
    return taken


def prune(conn: Connection, state: dict[str, Any]) -> int:
    """Remove this machine's own segments (and the sync engine's copies of them) that no
    machine can need any more; returns how many files went.

    A segment may go once this machine's snapshot in the folder holds its operations
    (every snapshot holds every operation its machine knew of, and is only ever
    replaced whole by a newer one), and every other machine has taken them in, or is
    more than :data:`PRUNE_KEEP` operations behind: such a machine, one that joins later,
    or one whose file was rolled back takes them from the snapshot
    (``sync_merge.read_folder``). A snapshot that arrives cut short is refused and read
    again once whole; the operations wait meanwhile, none is lost. Only this machine's
    own folder is touched: one writer per file.
    """
    files = own_files(conn, state)
    snapshot = own_snapshot(files) if files is not None else None
    if files is None or snapshot is None:
        return 0
    floor = min(snapshot, max(taken_by_all(conn, state), snapshot - PRUNE_KEEP))
    removed = 0
    for _first, last, path in files.segments:
        if last <= floor:
            path.unlink(missing_ok=True)
            removed += 1
    for seq, path in files.snapshots:
        if seq < snapshot:  # a copy of an older snapshot of its own
            path.unlink(missing_ok=True)
            removed += 1
    return removed


def _offline(conn: Connection, state: dict[str, Any], now: datetime) -> None:
    if state["offline_since"] is None:
        conn.execute(STATE.update().values(offline_since=now))


def after_commit(cf: CampaignFile) -> None:
    """A shared campaign's write hook: what was just committed is published now, unless
    a publish ran less than ``publish_every`` seconds ago; then it waits, with everything
    committed until the next publish (the window's idle publish a moment later, the next
    sync, or closing: :func:`publish_pending`), and goes as one segment.

    Waiting loses nothing: the operation is in the campaign file (its journal event, not
    yet registered), and any later publish, sync or the window's opening registers and
    publishes every event since the last one registered, a crash in between included.
    Writing a segment (flushed, renamed into place) and registering in a transaction of
    its own after every operation made shared play cost over three times unshared play.
    """
    if time.monotonic() < cf.publish_due:
        cf.unpublished = True
        return
    publish_pending(cf)


def publish_pending(cf: CampaignFile) -> int:
    """Register and publish what was committed and not yet published; returns how many
    operations were written to the folder. Never fails: a folder that cannot be written
    leaves them waiting in the file (``offline_since``), and the next publish writes them.
    """
    from companion.store.errors import CampaignFileError

    every = PUBLISH_EVERY if cf.publish_every is None else cf.publish_every
    cf.publish_due = time.monotonic() + every
    try:
        with cf.replay_session() as session:
            conn = session.connection()
            register(conn)
            written = publish(conn, datetime.now(UTC))
    except (CampaignFileError, OSError) as exc:
        log.warning("the shared folder was not written: %s", exc)
        return 0
    cf.unpublished = False
    return written
