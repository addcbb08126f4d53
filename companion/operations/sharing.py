"""One campaign on several machines: share it through a folder, join it, keep in step.

The working campaign file stays in each machine's data folder. The shared folder, kept in
step by the group's sync tool, is a mailbox (``companion.store.mailbox``): each machine
writes its own operations there, and reads the others'. The API the GUI and the CLI use:

- :func:`share(campaign, folder, machine_name=None) <share>` — File ▸ Share Campaign…,
  ``companion share``: the campaign gets this machine's identity and a snapshot in the
  folder, and from now on publishes every operation (the store's write hook);
- :func:`join(folder, dest=None, machine_name=None) <join>` — File ▸ Join a Shared
  Campaign…, ``companion join``: a new campaign file made from the folder's newest
  snapshot, then every operation after it;
- :func:`sync(campaign) <sync>` -> :class:`SyncReport` — on open, on a watcher's signal,
  on a slow poll, ``companion sync``: publishes this machine's operations, merges the
  others', and says so in words for the status bar;
- :func:`conflicts(campaign) <conflicts>` -> list of :class:`Conflict`, both sides in game
  words; :func:`settle(campaign, conflict, side) <settle>` keeps ``"here"`` or
  ``"theirs"``;
- :func:`publish_now(campaign) <publish_now>`: the operations that wait (a few seconds'
  worth are published together) written now;
- :func:`sharing_status(campaign) <sharing_status>` (no folder read: cheap) and
  :func:`set_machine_name`.

Another machine's operations are never merged while a procedure (an activity, the Night)
is in progress here: :func:`sync` defers them and says why.
"""

from __future__ import annotations

import contextlib
import platform
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, select, text
from sqlalchemy.exc import SQLAlchemyError

from companion.operations.changes import Refused
from companion.operations.core import Campaign
from companion.operations.procedure_row import procedure_in_progress
from companion.operations.sharing_files import join_campaign, write_snapshot
from companion.operations.sync_merge import RULES, SETTLE, merge, read_folder, republish
from companion.operations.sync_rules import merged_state_rules
from companion.store import CampaignFileError
from companion.store.replay import SYNC_OPS, op_ref
from companion.store.sync_log import (
    STATE,
    campaign_uid,
    own_files,
    own_snapshot,
    prune,
    publish,
    publish_pending,
    read_state,
    register,
)

SNAPSHOT_EVERY = 200
"""A machine writes a new snapshot (replacing its old one whole) after this many
operations of its own; then its segments the snapshot holds can be pruned."""


@dataclass(frozen=True)
class SyncReport:
    """What one :func:`sync` did and found, for the status bar and ``companion sync``."""

    applied: dict[str, int]
    """Other machines' operations applied now, by machine name."""
    published: int
    """This machine's operations written to the folder now."""
    conflicts: int
    """Conflicts waiting to be settled (all of them, not only new ones)."""
    offline_since: datetime | None
    """Since when the folder could not be reached (aware UTC); None: reached now."""
    newer: tuple[str, ...]
    """"Bryn's laptop uses a newer version; update to keep in step", one per machine."""
    refused: tuple[str, ...]
    """Files of the folder refused, each naming the file and the machine."""
    deferred: str | None
    """Why the other machines' operations wait (a procedure in progress), or that they
    were merged during one (``during_procedure="merge"``); None otherwise."""
    waiting: int
    """Operations read that wait for earlier ones still on their way."""
    changed: bool
    """Whether the campaign changed (the views refresh)."""
    words: str
    """The status bar's words: "1 conflict to settle", "Offline since 14:02",
    "3 changes from Bryn's laptop applied", "Up to date"."""


@dataclass(frozen=True)
class Side:
    """One side of a conflict: an operation, who made it, what it did."""

    ref: str
    machine: str
    """The machine's name ("Here" for this machine)."""
    text: str


@dataclass(frozen=True)
class Conflict:
    """Two machines changed the same thing differently; the group picks a side."""

    number: int
    """1, 2, ... in the campaign's order (``settle`` takes it)."""
    waiting: Side
    """The operation that waits (not in effect)."""
    in_effect: tuple[Side, ...]
    """What is in effect instead (empty: what it changed is gone here)."""
    here: str
    """This machine's side in words."""
    theirs: str
    """The other side in words."""
    words: str
    """Both sides: "On Bryn's laptop: Moss foraged… Here: Moss fished…"."""
    refused: str | None = None
    """Why the rules refuse the waiting operation on the campaign as merged here (a
    conflict with the rules rather than with another operation); None for a clash."""


@dataclass(frozen=True)
class ShareStatus:
    """A shared campaign's sharing, read from the file alone."""

    folder: Path
    """The shared folder."""
    campaign_folder: Path
    """The campaign's own folder in it (what a file watcher watches)."""
    machine: str
    machine_name: str
    offline_since: datetime | None
    conflicts: int
    words: str


# --- sharing and joining ------------------------------------------------------------------


def default_machine_name() -> str:
    """The computer's own name, as the others will see this machine until renamed."""
    return (platform.node() or "This computer").strip()[:60] or "This computer"


def _name(value: str | None) -> str:
    name = (value or default_machine_name()).strip()
    if not name or len(name) > 60 or any(ord(c) < 32 for c in name):
        raise Refused("A machine's name is a short line of text, such as \"Bryn's laptop\".")
    return name


def share(campaign: Campaign, folder: Path, *, machine_name: str | None = None) -> ShareStatus:
    """Share ``campaign`` through ``folder`` (one the group's sync tool keeps in step).

    The campaign file stays where it is; the folder gets the campaign's own sub-folder
    with this machine's snapshot. Refused when it is shared already, when a procedure is
    in progress, or when the campaign file lies inside the folder (sync tools tear up a
    database while it is open).
    """
    folder = Path(folder).absolute()
    if not folder.is_dir():
        raise Refused(f"{folder} is not a folder; choose the folder your sync tool shares.")
    if campaign.file.shared:
        raise Refused("This campaign is shared already.")
    if folder == campaign.path.parent or folder in campaign.path.parents:
        raise Refused("The campaign file itself must never lie in the shared folder (sync "
                      "tools tear up a database while it is open); choose another folder, "
                      "or keep the campaign in the data folder.")
    name = _name(machine_name)
    if (folder / campaign.file.campaign().uid).exists():
        raise Refused(f"This campaign is shared in {folder} already (from another file of "
                      "it); join it from there instead (File ▸ Join a Shared Campaign…, or "
                      "companion join).")
    if procedure_in_progress_here(campaign):
        raise Refused("Finish the procedure in progress first; then share the campaign.")
    with campaign.file.replay_session() as session:
        conn = session.connection()
        top = conn.execute(text("SELECT coalesce(max(id), 0) FROM journal_event")).scalar()
        conn.execute(STATE.insert().values(
            id=1, machine=uuid.uuid4().hex, machine_name=name, folder=str(folder),
            base_event=int(top or 0), registered_event=int(top or 0), published_seq=0,
            snapshot_seq=0, offline_since=None, machines={}, refused=[], decisions=[]))
    campaign.file.shared = True
    try:
        write_snapshot(campaign)
    except OSError as exc:
        raise Refused(f"The shared folder {folder} could not be written ({exc.strerror or exc})"
                      "; the campaign is shared, and will write there once it can.") from exc
    return sharing_status(campaign)  # type: ignore[return-value]


SYNC_MARKERS = (".stfolder", ".dropbox", ".dropbox.cache", ".sync", ".nextcloudsync.log",
                ".owncloudsync.log", "desktop.ini")
"""Files a sync tool keeps at the top of the folders it syncs."""
SYNC_FOLDER_NAMES = ("dropbox", "onedrive", "google drive", "my drive", "nextcloud",
                     "owncloud", "icloud drive", "sync", "mobile documents",
                     "com~apple~clouddocs")
"""Folders sync tools make under their own names (iCloud Drive's is "Mobile Documents/
com~apple~CloudDocs" on a Mac)."""
SYNC_JOURNALS = (".sync_*.db", "._sync_*.db")
"""The journal Nextcloud's and ownCloud's clients keep at the top of a synced folder."""


def synced_folder_warning(path: Path) -> str | None:
    """Words warning that the campaign file ``path`` lies inside a folder a sync tool
    keeps in step (so the tool may tear it up while it is open), or None."""
    for folder in Path(path).absolute().parents:
        marked = any((folder / marker).exists() for marker in SYNC_MARKERS[:-1]) or \
            any(next(folder.glob(journal), None) is not None for journal in SYNC_JOURNALS)
        named = folder.name.lower() in SYNC_FOLDER_NAMES or \
            folder.name.lower().startswith(("onedrive -", "dropbox ("))
        if marked or named:
            return (f"{Path(path).name} lies in {folder}, a folder a sync tool keeps in "
                    "step: it may tear up the campaign while it is open. Keep the campaign "
                    "in the data folder and share it instead (File ▸ Share Campaign…).")
    return None


def join(folder: Path, dest: Path | None = None, *, machine_name: str | None = None,
         extra_content: Sequence[Path] = ()) -> Campaign:
    """Make this machine's campaign file from the shared ``folder`` and open it.

    ``folder`` is the shared folder (holding one campaign) or the campaign's own folder
    in it. ``dest`` is the new file (default: the data folder, named after the campaign).
    The newest valid snapshot is taken; every operation after it follows.
    """
    campaign = join_campaign(Path(folder), dest, _name(machine_name), extra_content)
    with contextlib.suppress(Refused):  # joined; the next sync says what is wrong
        sync(campaign)
    return campaign


def set_machine_name(campaign: Campaign, name: str) -> None:
    """Change the name the other machines see for this one (sent with the next file)."""
    name = _name(name)
    _shared_state(campaign)
    with campaign.file.replay_session() as session:
        session.connection().execute(STATE.update().values(machine_name=name))


# --- keeping in step ----------------------------------------------------------------------


def procedure_in_progress_here(campaign: Campaign) -> str | None:
    """The kind of procedure in progress here ("night", "foraging" ...), if any."""
    with campaign.file.read() as session:
        return procedure_in_progress(session)


def _shared_state(campaign: Campaign) -> dict[str, Any]:
    with campaign.file.read() as session:
        state = read_state(session.connection())
    if state is None:
        raise Refused("This campaign is not shared; share it first (File ▸ Share Campaign…, "
                      "or companion share CAMPAIGN FOLDER).")
    return state


def sync(campaign: Campaign, *, now: datetime | None = None,
         during_procedure: str = "wait") -> SyncReport:
    """Publish this machine's operations, and merge the other machines' from the folder.

    Never stops play: an unreachable folder is "Offline since 14:02"; a bad file is
    refused (named in :attr:`SyncReport.refused`) with nothing taken from it; a newer
    version's files wait. While a procedure is in progress here the others' operations
    wait (``during_procedure="wait"``, the watcher's and the poll's way, said in
    :attr:`SyncReport.deferred`), or are merged all the same and said so
    (``"merge"``: the player asked, ``companion sync``; the procedure goes on from the
    merged state, as after reopening).
    """
    if during_procedure not in ("wait", "merge"):
        raise ValueError(f"during_procedure is 'wait' or 'merge', not {during_procedure!r}")
    _shared_state(campaign)
    now = now or datetime.now(UTC)
    deferred = None
    kind = procedure_in_progress_here(campaign)
    if kind is not None and during_procedure == "wait":
        deferred = (f"The other machines' changes wait until the {kind.replace('_', ' ')} in "
                    "progress here is over.")
    elif kind is not None:
        deferred = None
        merged_during = (f"The other machines' changes were merged while the "
                         f"{kind.replace('_', ' ')} is in progress here.")
    try:
        with campaign.file.replay_session() as session:
            conn = session.connection()
            register(conn)
            state = read_state(conn)
            assert state is not None
            uid = campaign_uid(conn)
            intake = read_folder(conn, state, uid)
            merged = merge(conn, state, [] if deferred else intake.ready,
                           (*RULES, *merged_state_rules(campaign.content)))
            _note(conn, state, intake, now)
            published = publish(conn, now) if intake.reachable else 0
            if intake.reachable and intake.own_missing:
                with contextlib.suppress(OSError):
                    republish(conn, read_state(conn) or state, intake.own_missing)
            after = read_state(conn) or state
        campaign.file.unpublished = False  # registered and published (or waiting offline)
    except CampaignFileError as exc:
        raise Refused(f"The other machines' changes could not be merged: {exc}") from exc
    except (SQLAlchemyError, LookupError, ValueError, TypeError) as exc:
        # Never a traceback from the folder's operations: nothing was merged.
        raise Refused("The other machines' changes could not be merged "
                      f"({type(exc).__name__}); the campaign is unchanged.") from exc
    if intake.reachable:
        keep_folder_small(campaign, after)
    if merged.changed:
        _take_carried_cards(campaign)
    names = {m: str(v.get("name", m[:8])) for m, v in after["machines"].items()}
    names[after["machine"]] = after["machine_name"]
    applied: dict[str, int] = {}
    for machine, count in sorted(merged.applied.items()):
        name = names.get(machine, machine[:8])
        applied[name] = applied.get(name, 0) + count
    waiting = count_conflicts(campaign)
    offline = after["offline_since"]
    if offline is not None and offline.tzinfo is None:
        offline = offline.replace(tzinfo=UTC)
    pending = 0 if not deferred else len(intake.ready)
    if kind is not None and not deferred and merged.changed:
        deferred = merged_during
    return SyncReport(
        applied=applied, published=published, conflicts=waiting, offline_since=offline,
        newer=tuple(sorted(set(intake.newer.values()))), refused=tuple(intake.refused),
        deferred=deferred, waiting=intake.waiting + pending, changed=merged.changed,
        words=status_words(applied, waiting, offline, deferred, pending))


def keep_folder_small(campaign: Campaign, state: dict[str, Any]) -> None:
    """This machine's snapshot written again when due (:data:`SNAPSHOT_EVERY` operations
    of its own since the last, or it is gone from the folder), and its segments that no
    machine can need any more removed (``sync_log.prune``): the folder stays about one
    snapshot per machine, however long the campaign. A folder that cannot be written
    now is tried again at the next sync."""
    with campaign.file.read() as session:
        files = own_files(session.connection(), state)
    if files is None:
        return
    with contextlib.suppress(OSError):
        if state["published_seq"] - state["snapshot_seq"] >= SNAPSHOT_EVERY \
                or own_snapshot(files) is None:
            write_snapshot(campaign)
        with campaign.file.read() as session:
            conn = session.connection()
            prune(conn, read_state(conn) or state)


def publish_now(campaign: Campaign) -> int:
    """Write this machine's operations that wait to the shared folder now (the window's
    idle publish, a few seconds after play; closing the campaign does the same); returns
    how many were written. Does nothing on a campaign not shared."""
    if not campaign.file.shared:
        return 0
    return publish_pending(campaign.file)


def _take_carried_cards(campaign: Campaign) -> None:
    """Play with the owner's cards another machine's operations carried in (the content
    is built again, as opening builds it; nothing is written)."""
    from companion.operations.campaign_packs import campaign_content
    from companion.operations.carried import carried

    with campaign.file.read() as session:
        cards = carried(session)
    if {k: c.digest for k, c in cards.items()} == \
            {k: c.digest for k, c in campaign.own_cards.items() if k in cards}:
        return
    with campaign.file.read() as session:
        from companion.store import models

        row = session.get(models.Campaign, 1)
        packs = [p["id"] for p in row.content_packs] if row else []
    built = campaign_content(packs or ["sample"], campaign.extra_content, cards)
    if built.problem is None:
        built.apply(campaign)


def _note(conn: Connection, state: dict[str, Any], intake: Any, now: datetime) -> None:
    """Remember what the folder said: names and versions of the others, refusals, since
    when it could not be reached, and how far this machine's own operations are there."""
    machines = dict(state["machines"])
    for machine, name in intake.names.items():
        if machine != state["machine"]:
            machines[machine] = {**machines.get(machine, {}), "name": name,
                                 "schema": intake.schemas.get(machine, 0)}
    offline = None if intake.reachable else (state["offline_since"] or now)
    own = int(conn.execute(text("SELECT coalesce(max(seq), 0) FROM sync_op WHERE machine = :m"),
                           {"m": state["machine"]}).scalar() or 0)
    published = max(state["published_seq"], min(own, max(
        (op["seq"] for op in intake.ready if op["machine"] == state["machine"]), default=0)))
    values = {"machines": machines, "refused": list(intake.refused),
              "offline_since": offline, "published_seq": published}
    if any(state[key] != value for key, value in values.items()):  # a quiet poll writes nothing
        conn.execute(STATE.update().values(**values))


def status_words(applied: dict[str, int], conflicts: int, offline: datetime | None,
                 deferred: str | None = None, pending: int = 0) -> str:
    """The status bar's words, the most pressing first."""
    if conflicts:
        return f"{conflicts} conflict{'s' if conflicts != 1 else ''} to settle"
    if offline is not None:
        return f"Offline since {offline.astimezone().strftime('%H:%M')}"
    if deferred and pending:
        return f"{pending} change{'s' if pending != 1 else ''} from the others wait"
    if applied:
        return "; ".join(f"{n} change{'s' if n != 1 else ''} from {name} applied"
                         for name, n in applied.items())
    return "Up to date"


def sharing_status(campaign: Campaign) -> ShareStatus | None:
    """The campaign's sharing as the file knows it (None: not shared). No folder read."""
    if not campaign.file.shared:
        return None
    with campaign.file.read() as session:
        state = read_state(session.connection())
    if state is None:
        return None
    offline = state["offline_since"]
    if offline is not None and offline.tzinfo is None:
        offline = offline.replace(tzinfo=UTC)
    waiting = count_conflicts(campaign)
    with campaign.file.read() as session:
        uid = campaign_uid(session.connection())
    return ShareStatus(folder=Path(state["folder"]),
                       campaign_folder=Path(state["folder"]) / uid, machine=state["machine"],
                       machine_name=state["machine_name"], offline_since=offline,
                       conflicts=waiting, words=status_words({}, waiting, offline))


# --- conflicts ------------------------------------------------------------------------------


def count_conflicts(campaign: Campaign) -> int:
    """How many conflicts wait to be settled."""
    with campaign.file.read() as session:
        return int(session.connection().execute(text(
            "SELECT count(*) FROM sync_op WHERE state = 'waiting'")).scalar() or 0)


def conflicts(campaign: Campaign) -> list[Conflict]:
    """The conflicts waiting, both sides in game words."""
    state = _shared_state(campaign)
    me = state["machine"]
    names = {m: str(v.get("name", m[:8])) for m, v in state["machines"].items()}
    names[me] = "Here"
    found: list[Conflict] = []
    with campaign.file.read() as session:
        conn = session.connection()
        rows = conn.execute(select(SYNC_OPS).where(SYNC_OPS.c.state == "waiting")
                            .order_by(SYNC_OPS.c.id)).mappings().all()
        for number, row in enumerate(rows, start=1):
            op = row["op"]
            waiting = Side(op_ref(op["machine"], op["seq"]),
                           names.get(op["machine"], op["machine"][:8]), op["text"])
            in_effect = tuple(_side(conn, ref, names, state["base_event"])
                              for ref in row["clash"])
            refused = (row["rewind"] or {}).get("refused")
            found.append(_conflict(number, waiting, in_effect, mine=op["machine"] == me,
                                   refused=refused if isinstance(refused, str) else None))
    return found


def _side(conn: Connection, ref: str, names: dict[str, str], base: int) -> Side:
    machine, seq = ref.rsplit(":", 1)
    if machine == "b":
        said = conn.execute(text("SELECT text FROM journal_event WHERE id = :i"),
                            {"i": int(seq)}).scalar()
        return Side(ref, "Before sharing", str(said or ""))
    found = conn.execute(select(SYNC_OPS.c.op).where(
        SYNC_OPS.c.machine == machine, SYNC_OPS.c.seq == int(seq))).scalar()
    return Side(ref, names.get(machine, machine[:8]), str(found["text"]) if found else "")


def _conflict(number: int, waiting: Side, in_effect: tuple[Side, ...], *, mine: bool,
              refused: str | None = None) -> Conflict:
    effect = "; ".join(s.text for s in in_effect) or (
        refused[:1].upper() + refused[1:] if refused else "that was taken away")
    effect_words = " ".join(f"{s.machine}: {s.text}." if s.machine == "Here"
                            else f"On {s.machine}: {s.text}." for s in in_effect) \
        or (f"Here: the rules refuse it: {refused}." if refused else f"Here: {effect}.")
    wait_words = (f"Here: {waiting.text}." if waiting.machine == "Here"
                  else f"On {waiting.machine}: {waiting.text}.")
    here, theirs = (waiting.text, effect) if mine else (effect, waiting.text)
    return Conflict(number=number, waiting=waiting, in_effect=in_effect, here=here,
                    theirs=theirs, words=f"{wait_words} {effect_words}", refused=refused)


def settle(campaign: Campaign, conflict: Conflict | int, side: str, *,
           during_procedure: str = "wait") -> SyncReport:
    """Settle a conflict: keep ``"here"`` (this machine's side) or ``"theirs"``.

    The side not kept stays in the history as undone operations; undoing the settle
    (Edit ▸ Undo) brings the conflict back. Every machine converges on the choice.
    """
    if side not in ("here", "theirs"):
        raise Refused("Choose a side: here or theirs.")
    waiting = conflicts(campaign)
    number = conflict if isinstance(conflict, int) else conflict.number
    if not 1 <= number <= len(waiting):
        raise Refused(f"There is no conflict number {number} to settle "
                      f"({len(waiting)} waiting).")
    chosen = waiting[number - 1]
    if during_procedure == "wait" and procedure_in_progress_here(campaign):
        raise Refused("Finish the procedure in progress first; then settle the conflict.")
    mine = chosen.waiting.machine == "Here"
    keep_waiting = (side == "here") == mine
    if keep_waiting and chosen.refused and not chosen.in_effect:
        raise Refused(f"That side cannot be kept on the campaign as it stands: "
                      f"{chosen.refused}. Keep the other side, or first settle the "
                      "conflict that holds back what it needs (its operation waits "
                      "too); it is then taken in again by itself.")
    drop = [s.ref for s in chosen.in_effect] if keep_waiting else [chosen.waiting.ref]
    if any(ref.startswith("b:") for ref in drop):
        raise Refused("That side was played before the campaign was shared, so it cannot "
                      "be taken back; keep the other side.")
    kept = chosen.waiting if keep_waiting else (chosen.in_effect[0] if chosen.in_effect
                                                else chosen.waiting)
    words = f"Settled a conflict: kept {kept.machine.replace('Here', 'this machine')}'s side"
    with campaign.write(SETTLE, f"{words} ({kept.text})", conflict=chosen.waiting.ref,
                        drop=drop):
        pass
    return sync(campaign, during_procedure=during_procedure)


def op_state(campaign: Campaign, ref: str) -> str | None:
    """What became of operation ``ref`` here (``applied``, ``waiting``, ``dropped``,
    ``void``), or None when it is not known here."""
    machine, seq = ref.rsplit(":", 1)
    with campaign.file.read() as session:
        found = session.connection().execute(select(SYNC_OPS.c.state).where(
            SYNC_OPS.c.machine == machine, SYNC_OPS.c.seq == int(seq))).scalar()
    return None if found is None else str(found)
