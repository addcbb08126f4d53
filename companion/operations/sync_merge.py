"""The merge of a shared campaign: the other machines' operations read from the folder,
put in the campaign's one order, and replayed.

**The order.** Every operation carries ``lamport`` (one more than any operation its
machine knew of), so sorting by ``(lamport, machine, seq)`` puts every operation after
all those it knew of (causality, never wall clocks) and ties the rest by machine id.
Every machine that holds the same operations holds them in the same order.

**The merge.** Operations that arrive and belong before some already replayed here
(play on two machines at once) are put in their place: the replayed ones after that place
are taken back with the journal's before images (:meth:`Replayer.rewind`), and all are
replayed in order (:class:`companion.store.replay.Replayer`). An operation whose rows
were changed differently since the two sides last agreed waits, as a conflict.

**Settled conflicts.** A settle is an operation (kind ``sync.settle``) whose payload names
the operations the group did not keep (``drop``). Those are replayed as undone history
from their place on; undoing the settle (Edit ▸ Undo) puts the conflict back. The order
and the settled conflicts depend only on the operations held, so two machines holding
the same operations hold the same campaign, byte for byte.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, select, text

from companion.store import mailbox
from companion.store.migrations import SCHEMA_VERSION
from companion.store.replay import JOURNAL, SYNC_OPS, Replayer, Rule, op_ref
from companion.store.sync_log import STATE, known_clock, own_snapshot, write_ops

SETTLE = "sync.settle"
"""The journal kind of a settled conflict."""


def op_key(op: dict[str, Any]) -> tuple[int, str, int]:
    """An operation's place in the campaign's one order."""
    return (op["lamport"], op["machine"], op["seq"])


@dataclass
class Intake:
    """What one look at the folder found."""

    reachable: bool = True
    ready: list[dict[str, Any]] = field(default_factory=list)
    """Operations new here whose every earlier operation is known: to merge."""
    waiting: int = 0
    """Operations read that wait for earlier ones (a file not arrived yet)."""
    refused: list[str] = field(default_factory=list)
    newer: dict[str, str] = field(default_factory=dict)
    """Machine id -> "Bryn's laptop uses a newer version; update to keep in step"."""
    names: dict[str, str] = field(default_factory=dict)
    schemas: dict[str, int] = field(default_factory=dict)
    own_missing: list[tuple[int, int]] = field(default_factory=list)
    """Ranges of this machine's published operations no longer in the folder."""


# --- reading the folder -------------------------------------------------------------------


def read_folder(conn: Connection, state: dict[str, Any], uid: str) -> Intake:
    """Every machine's new operations, checked; nothing in the file changes."""
    intake = Intake()
    try:
        root = mailbox.campaign_folder(Path(state["folder"]), uid)
        machines = mailbox.list_machines(root) if root.is_dir() else None
    except OSError:
        machines = None
    if machines is None:
        intake.reachable = False
        return intake
    known = known_clock(conn)
    pending: dict[tuple[str, int], dict[str, Any]] = {}
    listed: dict[str, mailbox.MachineFiles] = {}
    for machine in machines:
        try:
            files = listed[machine] = mailbox.list_machine(root / machine, machine)
        except OSError:
            continue
        if machine == state["machine"]:
            intake.own_missing = _missing(files, state["published_seq"])
            intake.names.setdefault(machine, state["machine_name"])
            # Operations of this machine the file forgot (it was rolled back: a backup
            # restored) are taken back in like any other machine's.
        known_name = state["machines"].get(machine, {}).get("name")
        if isinstance(known_name, str):
            intake.names.setdefault(machine, known_name)
        _read_machine(conn, uid, machine, files, known.get(machine, 0), pending, intake)
    catch_up_from_snapshots(uid, listed, known, pending, intake)
    _order_ready(conn, known, pending, intake)
    return intake


def _missing(files: mailbox.MachineFiles, published: int) -> list[tuple[int, int]]:
    """The ranges of 1..published that no segment file of this machine covers, nor its
    snapshot (which holds every operation up to its own; ``sync_log.prune``)."""
    covered = sorted((first, last) for first, last, _ in files.segments)
    snapshot = own_snapshot(files)
    if snapshot:
        covered = sorted([*covered, (1, snapshot)])
    missing, seq = [], 1
    for first, last in covered:
        if first > seq:
            missing.append((seq, min(first - 1, published)))
        seq = max(seq, last + 1)
    if seq <= published:
        missing.append((seq, published))
    return [(a, b) for a, b in missing if a <= b]


def _read_machine(conn: Connection, uid: str, machine: str, files: mailbox.MachineFiles,
                  known: int, pending: dict[tuple[str, int], dict[str, Any]],
                  intake: Intake) -> None:
    for _first, last, path in files.segments:
        if last <= known:
            continue  # every operation of it is here already (a copy, or read before)
        try:
            segment = mailbox.read_segment(path, campaign=uid, machine=machine,
                                           schema=SCHEMA_VERSION,
                                           name=intake.names.get(machine))
        except mailbox.NewerVersion as newer:
            intake.newer[machine] = str(newer)
            intake.names.setdefault(machine, newer.machine)
            intake.schemas[machine] = newer.schema
            return
        except mailbox.Vanished:
            continue  # replaced by its writer (a larger segment) while being read
        except mailbox.MailboxRefused as refused:
            intake.refused.append(str(refused))
            continue
        intake.names[machine] = segment.machine_name
        intake.schemas[machine] = segment.schema
        for op in segment.ops:
            if op["seq"] <= known:
                continue
            held = pending.setdefault((machine, op["seq"]), op)
            if held is not op and mailbox.digest(held) != mailbox.digest(op):
                intake.refused.append(str(mailbox.MailboxRefused(
                    path, segment.machine_name,
                    f"its operation {op['seq']} differs from another file's operation "
                    f"of that number (the machine's files were rolled back)")))


def catch_up_from_snapshots(uid: str, listed: dict[str, mailbox.MachineFiles],
                            known: dict[str, int],
                            pending: dict[tuple[str, int], dict[str, Any]],
                            intake: Intake) -> None:
    """Operations whose segments their machine pruned (``sync_log.prune``), taken from
    its snapshot: a machine back after weeks offline, one that joined from an older
    snapshot, or one whose file was rolled back. A machine's snapshot holds every
    operation of its own up to the one it names (a machine prunes no further), so it
    is read only when its operations after the newest here lie in no segment of the
    folder. A snapshot cut
    short or refused is said, and read again at the next look."""
    for machine, files in sorted(listed.items()):
        need = known.get(machine, 0) + 1
        if (machine, need) in pending or machine in intake.newer:
            continue
        snapshot = own_snapshot(files)
        if snapshot is None or snapshot < need or any(
                first <= need <= last for first, last, _path in files.segments):
            continue  # nothing pruned that is needed, or its segment is on its way
        path = next(p for seq, p in files.snapshots if seq == snapshot
                    and mailbox.SNAPSHOT_NAME.match(p.name))
        try:
            found = mailbox.read_snapshot(path, campaign=uid, machine=machine,
                                          schema=SCHEMA_VERSION)
        except mailbox.NewerVersion as newer:
            intake.newer[machine] = str(newer)
            continue
        except mailbox.Vanished:
            continue  # replaced by a newer one: the next look reads that
        except mailbox.MailboxRefused as refused:
            intake.refused.append(str(refused))
            continue
        intake.names.setdefault(machine, found.machine_name)
        intake.schemas.setdefault(machine, found.schema)
        # Only the machine's own operations, as from its segments: another machine's
        # are taken from that machine's files alone (one writer vouches for each).
        for entry in found.body["ops"]:
            op = entry["op"]
            if op["machine"] != machine or op["seq"] < need:
                continue
            held = pending.setdefault((machine, op["seq"]), op)
            if held is not op and mailbox.digest(held) != mailbox.digest(op):
                intake.refused.append(str(mailbox.MailboxRefused(
                    path, found.machine_name,
                    f"its operation {op['seq']} differs from another file's operation of "
                    "that number (the machine's files were rolled back)")))


def _order_ready(conn: Connection, known: dict[str, int],
                 pending: dict[tuple[str, int], dict[str, Any]], intake: Intake) -> None:
    """Take the pending operations whose every earlier operation is known, in turn."""
    have = dict(known)
    lamports: dict[tuple[str, int], int] = {}

    def lamport_of(machine: str, seq: int) -> int | None:
        if (machine, seq) in lamports:
            return lamports[(machine, seq)]
        found = conn.execute(select(SYNC_OPS.c.lamport).where(
            SYNC_OPS.c.machine == machine, SYNC_OPS.c.seq == seq)).first()
        return None if found is None else int(found[0])

    progress = True
    while progress:
        progress = False
        for (machine, seq), op in sorted(pending.items()):
            if seq != have.get(machine, 0) + 1:
                continue
            if any(have.get(m, 0) < s for m, s in op["clock"].items()):
                continue
            earlier = [lamport_of(m, s) for m, s in op["clock"].items()]
            if any(e is None or e >= op["lamport"] for e in earlier):
                intake.refused.append(
                    f"An operation of {intake.names.get(machine, machine[:8])} (number "
                    f"{seq}) was refused: it claims a place before operations it knew of. "
                    "Nothing was taken from it; the campaign is unchanged.")
                pending.pop((machine, seq))
                progress = True
                break
            intake.ready.append(op)
            lamports[(machine, seq)] = op["lamport"]
            have[machine] = seq
            pending.pop((machine, seq))
            progress = True
            break
    intake.waiting = len(pending)


def republish(conn: Connection, state: dict[str, Any], missing: list[tuple[int, int]]) -> None:
    """Write again this machine's operations whose files left the folder (deleted, or
    the folder rolled back), so machines that join later still find them."""
    for first, last in missing:
        write_ops(conn, state, first, last)


# --- settled conflicts --------------------------------------------------------------------


def decisions(conn: Connection, new_ops: list[dict[str, Any]]) -> dict[str, str]:
    """``{dropped operation: the settle that dropped it}`` for every settle in effect (one
    that its last undo or redo, in the order, left done)."""
    settles: dict[str, dict[str, Any]] = {}
    for (value,) in conn.execute(text(
            "SELECT op FROM sync_op WHERE json_extract(op, '$.kind') = :k"), {"k": SETTLE}):
        op = json.loads(value) if isinstance(value, str) else value
        settles[op_ref(op["machine"], op["seq"])] = op
    for op in new_ops:
        if op["kind"] == SETTLE:
            settles[op_ref(op["machine"], op["seq"])] = op
    if not settles:
        return {}
    steps: list[dict[str, Any]] = []
    for (value,) in conn.execute(text(
            "SELECT op FROM sync_op WHERE json_extract(op, '$.kind') IN ('undo', 'redo') "
            "AND json_extract(op, '$.target') IN (SELECT value FROM json_each(:refs))"),
            {"refs": json.dumps(sorted(settles))}):
        steps.append(json.loads(value) if isinstance(value, str) else value)
    steps += [op for op in new_ops if op["kind"] in ("undo", "redo") and op["target"] in settles]
    in_effect = dict.fromkeys(settles, True)
    for step in sorted(steps, key=op_key):
        in_effect[step["target"]] = step["kind"] == "redo"
    dropped: dict[str, str] = {}
    for ref in sorted(settles, key=lambda r: op_key(settles[r])):
        drop = settles[ref]["payload"].get("drop")
        if in_effect[ref] and isinstance(drop, list):
            for loser in drop:
                if isinstance(loser, str):
                    dropped.setdefault(loser, ref)
    return dropped


# --- the merge ------------------------------------------------------------------------------


def one_saved_state_of_each_kind(conn: Connection, changes: list[dict[str, Any]]
                                 ) -> list[tuple[str, int]]:
    """One procedure at a time, one Day, one Discovery due (``procedure_row``: each kind of
    ``procedure_state`` is read as the one row of its kind): two machines that each began
    the Night while apart cannot both have begun it."""
    if not any(c["table"] == "procedure_state" for c in changes):
        return []
    return [("procedure_state", int(row_id)) for (row_id,) in conn.execute(text(
        "SELECT id FROM procedure_state WHERE kind IN (SELECT kind FROM procedure_state "
        "GROUP BY kind HAVING count(*) > 1)"))]


def one_home_per_journal_entry(conn: Connection, changes: list[dict[str, Any]]
                               ) -> list[tuple[str, int]]:
    """An entry of the web Journal (its section and id) has one home here: an import merges
    into the entry it finds by id, so play on one machine never gives an entry two. Two
    machines that each imported the same Journal while apart did (a recipe, a note made
    twice): the later import waits as a conflict, and the group keeps one side."""
    if not any(c["table"] == "web_journal_link" for c in changes):
        return []
    return [("web_journal_link", int(row_id)) for (row_id,) in conn.execute(text(
        "SELECT id FROM web_journal_link WHERE (section, web_id) IN (SELECT section, web_id "
        "FROM web_journal_link GROUP BY section, web_id HAVING count(*) > 1)"))]


RULES: tuple[Rule, ...] = (one_saved_state_of_each_kind, one_home_per_journal_entry)
"""The rules an operation must keep on the merged campaign besides the schema's (the
game's own, which need the content, are ``sync_rules.merged_state_rules``)."""



@dataclass
class Merged:
    """What a merge did: the other machines' operations applied (by machine id), the
    conflicts it found, and whether the campaign changed."""

    applied: Counter[str] = field(default_factory=Counter)
    conflicts: int = 0
    changed: bool = False


def merge(conn: Connection, state: dict[str, Any], new_ops: list[dict[str, Any]],
          rules: Sequence[Rule] = RULES) -> Merged:
    """Put ``new_ops`` (ready, new here) and the settled conflicts into the campaign, in
    one write transaction; every operation after the first place that changed is taken
    back and replayed. Each replayed operation must keep ``rules`` on the merged
    campaign (the schema's are always kept), else it waits as a conflict."""
    result = Merged()
    dropped = decisions(conn, new_ops)
    honoured = dict(entry.split("=", 1) for entry in state["decisions"])
    changed_refs = {r for r in set(dropped) | set(honoured) if dropped.get(r) != honoured.get(r)}
    if not new_ops and not changed_refs:
        return result
    start = _first_place(conn, new_ops, changed_refs)
    replayer = Replayer(conn, state["base_event"], rules)
    suffix = conn.execute(select(SYNC_OPS).where(SYNC_OPS.c.id >= start)
                          .order_by(SYNC_OPS.c.id.desc())).mappings().all()
    replay: list[dict[str, Any]] = []
    for row in suffix:
        replay.append(row["op"] if not isinstance(row["op"], str) else json.loads(row["op"]))
        replayer.rewind(row)
    new_refs = {op_ref(op["machine"], op["seq"]) for op in new_ops}
    for position, op in enumerate(sorted(replay + new_ops, key=op_key), start=start):
        ref = op_ref(op["machine"], op["seq"])
        outcome = replayer.apply(op, dropped_by=dropped.get(ref))
        conn.execute(SYNC_OPS.insert().values(
            id=position, machine=op["machine"], seq=op["seq"], lamport=op["lamport"],
            event_id=outcome.event_id, state=outcome.state, clash=outcome.clash,
            rewind=outcome.rewind, op=op))
        if ref in new_refs and outcome.state == "applied":
            result.applied[op["machine"]] += 1
        if outcome.state == "waiting":
            result.conflicts += 1
    top = conn.execute(select(JOURNAL.c.id).order_by(JOURNAL.c.id.desc()).limit(1)).scalar()
    conn.execute(STATE.update().values(
        registered_event=int(top or 0),
        decisions=[f"{k}={v}" for k, v in sorted(dropped.items())]))
    result.changed = True
    return result


def _first_place(conn: Connection, new_ops: list[dict[str, Any]], changed: set[str]) -> int:
    """The first place in the order the merge changes (1 + the last one it keeps)."""
    places: list[int] = []
    if new_ops:
        lamport, machine, seq = min(op_key(op) for op in new_ops)
        found = conn.execute(text(
            "SELECT min(id) FROM sync_op WHERE lamport > :l OR (lamport = :l AND "
            "(machine > :m OR (machine = :m AND seq > :s)))"),
            {"l": lamport, "m": machine, "s": seq}).scalar()
        places.append(int(found) if found is not None else _end(conn))
    for ref in changed:
        who, number = ref.rsplit(":", 1)
        if who == "b":
            continue
        found = conn.execute(select(SYNC_OPS.c.id).where(
            SYNC_OPS.c.machine == who, SYNC_OPS.c.seq == int(number))).scalar()
        if found is not None:
            places.append(int(found))
    return min(places) if places else _end(conn)


def _end(conn: Connection) -> int:
    top = conn.execute(select(SYNC_OPS.c.id).order_by(SYNC_OPS.c.id.desc()).limit(1)).scalar()
    return int(top or 0) + 1
