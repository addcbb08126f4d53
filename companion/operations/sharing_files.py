"""A shared campaign's snapshots: written for machines that join later, and joined from.

A snapshot (``companion.store.mailbox``) holds the campaign as an export
(``companion.store.export_campaign``), where the shared history began, every operation of
it with what it did, and the rows' shared identities: a machine that joins from it holds
exactly what the machine that wrote it held, and goes on from there with the operations
of every machine's folder.
"""

from __future__ import annotations

import json
import shutil
import uuid
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from sqlalchemy import select, text

from companion.operations.changes import Refused
from companion.operations.core import Campaign
from companion.operations.files import open_campaign
from companion.operations.sync_merge import op_key
from companion.paths import campaign_file_name, campaigns_dir
from companion.store import (
    CampaignFile,
    CampaignFileError,
    backups_dir,
    export_campaign,
    import_campaign,
    mailbox,
)
from companion.store.durable import temp_beside
from companion.store.migrations import SCHEMA_VERSION
from companion.store.replay import SYNC_OPS
from companion.store.sync_log import STATE, campaign_uid, known_clock, machine_dir, read_state


def write_snapshot(campaign: Campaign) -> Path:
    """Write this machine's snapshot of the campaign to the folder (replacing its older
    one); raises OSError when the folder cannot be written."""
    with campaign.file.read() as session:
        conn = session.connection()
        state = read_state(conn)
        assert state is not None
        uid = campaign_uid(conn)
        folder = machine_dir(conn, state)
        seq = known_clock(conn).get(state["machine"], 0)
        ops = [{"op": _json(r["op"]), "event_id": r["event_id"], "state": r["state"],
                "clash": _json(r["clash"]), "rewind": _json(r["rewind"])}
               for r in conn.execute(select(SYNC_OPS).order_by(SYNC_OPS.c.id)).mappings()]
        rows = [[t, r, k] for t, r, k in conn.execute(
            text("SELECT tbl, row_id, key FROM sync_row ORDER BY id"))]
    folder.mkdir(parents=True, exist_ok=True)
    tmp = temp_beside(folder / "export.json", "export")
    try:
        export_campaign(campaign.file, tmp)
        document = json.loads(tmp.read_text(encoding="utf-8"))
    finally:
        tmp.unlink(missing_ok=True)
    body = {"export": document, "base_event": state["base_event"], "ops": ops, "rows": rows}
    path = mailbox.write_snapshot(folder, campaign=uid, machine=state["machine"],
                                  name=state["machine_name"], schema=SCHEMA_VERSION, seq=seq,
                                  body=body)
    for older in folder.glob("snapshot-*.json"):
        if older.name < path.name and mailbox.SNAPSHOT_NAME.match(older.name):
            older.unlink(missing_ok=True)
    with campaign.file.replay_session() as session:
        session.connection().execute(STATE.update().values(snapshot_seq=seq))
    return path


def _json(value: Any) -> Any:
    return json.loads(value) if isinstance(value, str) else value


def find_campaign(folder: Path) -> Path:
    """The campaign's own folder in the shared ``folder`` (or ``folder`` itself)."""
    if not folder.is_dir():
        raise Refused(f"{folder} is not a folder, or it cannot be reached now.")
    if mailbox.MACHINE_ID.match(folder.name):
        return folder
    try:
        found = [p for p in sorted(folder.iterdir())
                 if p.is_dir() and mailbox.MACHINE_ID.match(p.name)]
    except OSError as exc:
        raise Refused(f"{folder} cannot be read ({exc.strerror or exc}).") from None
    if not found:
        raise Refused(f"{folder} holds no shared campaign; share one there first "
                      "(File ▸ Share Campaign…, or companion share).")
    if len(found) > 1:
        raise Refused(f"{folder} holds {len(found)} shared campaigns; choose one of these "
                      f"folders: " + ", ".join(str(p) for p in found))
    return found[0]


def best_snapshot(root: Path) -> tuple[mailbox.Snapshot | None, list[str]]:
    """The snapshot that holds the most operations (checked), and the refusals met."""
    refused: list[str] = []
    best: mailbox.Snapshot | None = None
    for machine in mailbox.list_machines(root):
        files = mailbox.list_machine(root / machine, machine)
        for _seq, path in reversed(files.snapshots):
            try:
                snap = mailbox.read_snapshot(path, campaign=root.name, machine=machine,
                                             schema=SCHEMA_VERSION)
            except mailbox.NewerVersion as exc:
                refused.append(f"{exc}.")
                continue
            except mailbox.MailboxRefused as exc:
                refused.append(str(exc))
                continue
            size = len(snap.body["ops"])
            if best is None or (size, machine) > (len(best.body["ops"]), best.machine):
                best = snap
            break
    return best, refused


def join_campaign(folder: Path, dest: Path | None, name: str,
                  extra_content: Sequence[Path]) -> Campaign:
    """A new campaign file from the shared folder's best snapshot, open (not yet synced)."""
    root = find_campaign(Path(folder).absolute())
    try:
        snapshot, refused = best_snapshot(root)
    except OSError as exc:
        raise Refused(f"{root} cannot be read ({exc.strerror or exc}).") from None
    if snapshot is None:
        why = " ".join(refused) or "no machine has written its snapshot there yet."
        raise Refused(f"Nothing to join in {root}: {why}")
    document = snapshot.body["export"]
    _check_uid(document, root.name, snapshot)
    if dest is None:
        dest = campaigns_dir() / campaign_file_name(_society(document) or "Shared campaign")
    dest = Path(dest).absolute()
    if root.parent in dest.parents:
        raise Refused("The campaign file itself must never lie in the shared folder (sync "
                      "tools tear up a database while it is open); choose a file outside "
                      "it, or leave out --file to make it in the data folder.")
    if dest.exists():
        raise Refused(f"{dest} already exists; the companion never overwrites a campaign. "
                      "Choose another file with --file.")
    dest.parent.mkdir(parents=True, exist_ok=True)
    tmp = temp_beside(dest, "join")
    try:
        tmp.write_text(json.dumps(document), encoding="utf-8")
        try:
            cf = import_campaign(tmp, dest)
        except CampaignFileError as exc:
            raise Refused(f"The snapshot {snapshot.path.name} from {snapshot.machine_name} "
                          f"was refused: {exc}") from None
    finally:
        tmp.unlink(missing_ok=True)
    try:
        _fill(cf, snapshot, root.parent, name)
    except BaseException:
        cf.close(backup=False)
        from companion.store.portable import discard_new_campaign

        discard_new_campaign(dest)
        raise
    cf.close(backup=False)
    # The import's opening backup holds the campaign before this machine's part in it
    # was written: restored, it would be a campaign that is not shared. The join is one
    # step; the first open below backs up the joined file.
    shutil.rmtree(backups_dir(dest), ignore_errors=True)
    return open_campaign(dest, extra_content=extra_content)


def _check_uid(document: dict[str, Any], uid: str, snapshot: mailbox.Snapshot) -> None:
    table = document.get("tables", {}).get("campaign", {}) if isinstance(document, dict) else {}
    columns, rows = table.get("columns", []), table.get("rows", [])
    if not isinstance(columns, list) or "uid" not in columns or not isinstance(rows, list) \
            or not rows or not isinstance(rows[0], list) \
            or rows[0][columns.index("uid")] != uid:
        raise Refused(str(mailbox.MailboxRefused(snapshot.path, snapshot.machine_name,
                                                 "it holds another campaign")))


def _society(document: dict[str, Any]) -> str:
    table = document["tables"].get("campaign", {})
    columns, rows = table.get("columns", []), table.get("rows", [])
    if "society_name" in columns and rows:
        value = rows[0][columns.index("society_name")]
        return value if isinstance(value, str) else ""
    return ""


def _fill(cf: CampaignFile, snapshot: mailbox.Snapshot, folder: Path, name: str) -> None:
    """This machine's part in the shared campaign, from the snapshot's history."""
    body = snapshot.body
    entries = body["ops"]
    keys = [op_key(e["op"]) for e in entries]
    if keys != sorted(keys) or len(set(keys)) != len(keys):
        raise Refused(str(mailbox.MailboxRefused(snapshot.path, snapshot.machine_name,
                                                 "its history is out of order")))
    with cf.replay_session() as session:
        conn = session.connection()
        top = int(conn.execute(text("SELECT coalesce(max(id), 0) FROM journal_event"))
                  .scalar() or 0)
        if body["base_event"] > top or any(e["event_id"] > top for e in entries):
            raise Refused(str(mailbox.MailboxRefused(
                snapshot.path, snapshot.machine_name, "its history names events it lacks")))
        for position, entry in enumerate(entries, start=1):
            op = entry["op"]
            conn.execute(SYNC_OPS.insert().values(
                id=position, machine=op["machine"], seq=op["seq"], lamport=op["lamport"],
                event_id=entry["event_id"], state=entry["state"], clash=entry["clash"],
                rewind=entry["rewind"], op=op))
        for table, row_id, key in body["rows"]:
            conn.execute(text("INSERT OR REPLACE INTO sync_row (tbl, row_id, key) "
                              "VALUES (:t, :r, :k)"), {"t": table, "r": row_id, "k": key})
        conn.execute(STATE.insert().values(
            id=1, machine=uuid.uuid4().hex, machine_name=name, folder=str(folder),
            base_event=body["base_event"], registered_event=top, published_seq=0,
            snapshot_seq=0, offline_since=None,
            machines={snapshot.machine: {"name": snapshot.machine_name,
                                         "schema": snapshot.schema}},
            refused=[], decisions=[]))
        decisions = [f"{loser}={e['op']['machine']}:{e['op']['seq']}"
                     for e in entries if e["op"]["kind"] == "sync.settle"
                     and isinstance(e["op"]["payload"].get("drop"), list)
                     for loser in e["op"]["payload"]["drop"] if isinstance(loser, str)]
        dropped = {e["op"]["machine"] + ":" + str(e["op"]["seq"]) for e in entries
                   if e["state"] == "dropped"}
        conn.execute(STATE.update().values(
            decisions=sorted(d for d in decisions if d.split("=", 1)[0] in dropped)))
