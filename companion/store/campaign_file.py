"""The campaign file: one SQLite file, one writer, every change journalled.

Open it with :meth:`CampaignFile.open` (or make one with :meth:`CampaignFile.create`),
write through :meth:`CampaignFile.transaction`, read through :meth:`CampaignFile.read`.
"""

from __future__ import annotations

import contextlib
import errno
import logging
import sqlite3
import threading
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from types import TracebackType
from typing import Any, Literal

from sqlalchemy import Engine, create_engine, event, select, update
from sqlalchemy.pool import StaticPool
from sqlmodel import Session, col

from companion.store import backups as bk
from companion.store import migrations
from companion.store.backup_identity import Identity, read_identity_of
from companion.store.errors import (
    CampaignClosed,
    CampaignDamaged,
    CampaignFileError,
    CampaignFileExists,
    CampaignMoved,
    CampaignNotFound,
    CampaignUnreadable,
    DiskFull,
    ReadOnly,
)
from companion.store.history import (
    ChangeRecorder,
    on_after_flush,
    on_before_commit,
    on_before_flush,
    on_orm_execute,
)
from companion.store.inspection import inspect_file, is_damage, translate_error
from companion.store.integrity import open_readonly, pragma_int, quick_check, wal_pending
from companion.store.lock import WriterLock
from companion.store.models import (
    Campaign,
    JournalEvent,
    ProcedureState,
    Society,
    table_of,
    utcnow,
)
from companion.store.opening import (
    build_new,
    build_then_link,
    connect,
    file_identity,
    link_new,
    take_writer_lock,
    writable,
    write_engine,
)
from companion.store.undo import BASELINE_KINDS, META_KINDS, Clock, UndoHistory

__all__ = [
    "BACKGROUND_CHECK_DELAY", "BASELINE_KINDS", "META_KINDS", "CampaignFile", "CampaignSession",
    "Clock", "LockWhen", "Verify", "backup_warning", "build_new", "connect", "inspect_file",
    "link_new", "translate_error", "write_engine",
]

BACKGROUND_CHECK_DELAY = 1.0
"""Seconds the background integrity check waits at most, so the first reads go first;
the GUI starts it sooner, once the campaign is on screen (:meth:`CampaignFile.start_check`),
and a write, a backup or closing starts it at once."""

LockWhen = Literal["open", "first-write"]

log = logging.getLogger("companion.store")


class CampaignSession(Session):
    """The sessions the store hands out; journalling hooks are registered on this class."""


event.listen(CampaignSession, "before_flush", on_before_flush)
event.listen(CampaignSession, "after_flush", on_after_flush)
event.listen(CampaignSession, "do_orm_execute", on_orm_execute)
event.listen(CampaignSession, "before_commit", on_before_commit)


Verify = Literal["now", "background"]


def backup_warning(path: Path, reason: str, exc: BaseException) -> str:
    """The warning for a backup that could not be taken, saying what to fix."""
    folder = bk.backups_dir(path)
    text = str(exc).lower()
    os_errno = exc.errno if isinstance(exc, OSError) else None
    if folder.exists() and not folder.is_dir():
        why = f"{folder} is a file, not a folder; move or rename it so backups can be kept"
    elif isinstance(exc, DiskFull) or os_errno == errno.ENOSPC or "full" in text:
        why = f"the disk holding {folder} is full; free some space"
    elif isinstance(exc, ReadOnly | PermissionError) or "unable to open" in text \
            or "readonly" in text or "read-only" in text:
        why = f"{folder} cannot be written; make that folder writable"
    else:
        why = str(exc)
    moment = {"open": "opening", "close": "closing", "interval": "periodic"}.get(reason, reason)
    return (f"The {moment} backup of {path.name} could not be taken: {why}. The campaign "
            "itself is saved; it gets no new backups until this is fixed.")


class CampaignFile(UndoHistory):
    """An open campaign file and its writer lock (held from opening, or from the first
    write when opened with ``lock="first-write"``) until :meth:`close`."""

    def __init__(
        self,
        path: Path,
        lock: WriterLock,
        *,
        policy: bk.BackupPolicy,
        clock: Clock,
        backups: bool,
    ) -> None:
        self.path = path
        self.policy = policy
        self._clock = clock
        self._backups_on = backups
        self._lock = lock
        self.warnings: list[str] = []
        self.migrated_from: int | None = None
        """The schema version this open upgraded the file from (None: no migration)."""
        """Problems that did not stop the work but need the player (a backup not taken)."""
        self._read_only_file = not writable(path)
        self._raw: sqlite3.Connection | None = connect(path, read_only=self._read_only_file)
        raw = self._raw
        # The file's identity: a write checks it is still the file at ``path``.
        self._identity = file_identity(path)
        self._engine: Engine = create_engine(
            "sqlite://", creator=lambda: raw, poolclass=StaticPool
        )
        self._begin_sql = "BEGIN"
        event.listen(self._engine, "begin", self._on_begin)
        # Every commit leaves its mark, by which a write-ahead log proves it is this file's
        # own (companion.store.log_proof); the event runs just before the COMMIT.
        event.listen(self._engine, "commit", lambda _: migrations.stamp_log_mark(raw))
        self._in_transaction = False
        # Set once quick_check has passed (at once unless verifying in the background);
        # every write and every backup waits for it, so neither touches a damaged file.
        self._verified = threading.Event()
        self._damage: CampaignFileError | None = None
        """Why the check failed: damage, or the disk (full, unreadable) stopped it."""
        self._verifier: threading.Thread | None = None
        self._check_now = threading.Event()  # ends the background check's wait
        # The full integrity_check after opening (quick_check misses broken indexes, as a
        # stranger's log replayed onto the file leaves): set when it ended, done or not.
        # Every backup waits for it, so a damaged file's copy never rotates good ones out.
        self._full_checked = threading.Event()
        self._full_thread: threading.Thread | None = None
        self._full_conn: sqlite3.Connection | None = None
        self._full_guard = threading.Lock()
        self._closing = False
        self._full_before_write = False
        """A log was pending at a shared open: the first write waits for the full check."""
        self._owner: Identity | None = None
        self._newest: bk.BackupInfo | None = None
        self._newest_known = False
        self.last_event: JournalEvent | None = None
        self.read_cache: dict[object, object] = {}
        """What readers keep between writes (issue 37: the views of one click read the
        game once): every read session is given it as ``session.info["read_cache"]``;
        every write session empties it."""
        """The journal event written by the latest transaction, undo or redo."""
        self._shared: bool | None = None
        self.publish_every: float | None = None
        """Seconds a shared campaign's operations wait to be published together (None:
        ``sync_log.PUBLISH_EVERY``; the CLI: for ever, so once per command, at close)."""
        self.publish_due = 0.0
        """When (``time.monotonic``) the next operation is published as it commits."""
        self.unpublished = False
        """Operations committed here wait to be published (``sync_log.publish_pending``)."""

    # --- opening and closing -----------------------------------------------------------

    @classmethod
    def create(
        cls,
        path: Path,
        *,
        policy: bk.BackupPolicy | None = None,
        clock: Clock | None = None,
        backups: bool = True,
    ) -> CampaignFile:
        """Create a new campaign file at ``path`` with the current schema, and open it.

        Raises :class:`CampaignFileExists` rather than overwrite anything. The keyword
        arguments are those of :meth:`open`.
        """
        path = Path(path).absolute()
        build_new(path)
        return cls.open(path, policy=policy, clock=clock, backups=backups)

    @classmethod
    def open(
        cls,
        path: Path,
        *,
        policy: bk.BackupPolicy | None = None,
        clock: Clock | None = None,
        backups: bool = True,
        verify: Verify = "now",
        lock: LockWhen = "open",
    ) -> CampaignFile:
        """Open an existing campaign for reading and writing.

        Takes the writer lock (:class:`CampaignLocked`), checks the file
        (:class:`NotACampaign`, :class:`CampaignDamaged`, :class:`CampaignTooNew`; a refused
        file is left byte-for-byte unchanged), backs it up, and migrates an older schema
        (after that backup). ``clock`` returns aware UTC now (tests inject one);
        ``backups=False`` turns every automatic backup off (scratch files only).

        ``lock="first-write"`` (the command line) opens without the writer lock, so a
        command that only reads works while the app has the campaign open (SQLite's
        write-ahead log lets readers beside the writer); the lock, and the opening
        backup, are taken by the first write, which is refused if another copy holds
        it. A file that needs migrating takes the lock at once.

        ``verify="background"`` (for the GUI) runs the full ``PRAGMA integrity_check``,
        whose cost grows with the file, in a thread after opening instead of
        ``quick_check`` before: reads start at once; the first write, backup or close
        waits for the check, and if it failed they raise :class:`CampaignDamaged` (see
        :meth:`wait_verified`). Header, identity, version and schema are still checked
        before this returns; a file needing migration is always checked first.
        ``verify="now"`` runs ``quick_check`` before returning (the full check when a log
        is pending), then the full check in a thread: every backup waits for it, and once
        it has found damage every write is refused too.

        A backup that cannot be taken (full disk, a file in the way of the backups
        folder, an unwritable folder) does not stop the campaign: it is reported in
        :attr:`warnings` (and logged on ``companion.store``).
        """
        path = Path(path).absolute()
        if not path.is_file():
            raise CampaignNotFound(path)
        writer = WriterLock(path)
        try:
            if lock == "open" and writable(path):
                take_writer_lock(writer)
            # Shared reading (SQLite's locks, side files) only when a writer may be at
            # work; nobody writes a file without write permission.
            shared = not writer.held and writable(path)
            pending = wal_pending(path)
            version = inspect_file(path, deep=verify == "now", shared=shared)
            if version < migrations.SCHEMA_VERSION:
                if not writer.held:
                    take_writer_lock(writer)  # upgrading is writing
                if verify != "now":
                    inspect_file(path)
                    verify = "now"
            cf = cls(path, writer, policy=policy or bk.BackupPolicy(), clock=clock or utcnow,
                     backups=backups)
            if verify == "now" and pending:
                if shared and not writer.held:
                    cf._full_before_write = True  # the log may be another writer's
                else:
                    cf._full_checked.set()  # inspect_file ran the full check
        except sqlite3.Error as exc:
            writer.release()
            if is_damage(exc):
                raise CampaignDamaged(path, str(exc), len(bk.list_backups(path))) from None
            raise translate_error(exc, path) or CampaignUnreadable(path, str(exc)) from exc
        except BaseException:
            writer.release()
            raise
        try:
            cf._start(version, verify)
        except BaseException:
            cf.close(backup=False)
            raise
        return cf

    def _start(self, version: int, verify: Verify) -> None:
        if verify == "now" and not self._full_checked.is_set():
            self._full_thread = threading.Thread(
                target=self._full_check, name=f"check {self.path.name}", daemon=True)
            self._full_thread.start()
        if verify == "background":
            self._verifier = threading.Thread(
                target=self._verify_and_back_up, name=f"verify {self.path.name}", daemon=True
            )
            self._verifier.start()
            return
        self._verified.set()
        if version < migrations.SCHEMA_VERSION:
            # Data safety: a copy of the old file before any step touches it. Unlike the
            # other backups this one must succeed: no copy, no migration.
            self._backup("migration", force=True)
            migrations.upgrade(self._conn(), version)
            self.migrated_from = version
            self._owner = None  # the migration to schema 4 gave it its uid
        elif self._lock.held:
            self._backup_or_warn("open")

    def _verify_and_back_up(self) -> None:
        """The background half of open(): the full integrity_check, then the automatic backup.

        It waits until :meth:`start_check` (the window is idle) or at most
        :data:`BACKGROUND_CHECK_DELAY`, so that the reads which show the campaign do not
        compete with it; any write waits for the check anyway, and starts it.
        """
        self._check_now.wait(BACKGROUND_CHECK_DELAY)
        try:
            with open_readonly(self.path, shared=True) as conn:
                try:
                    problems = quick_check(conn, full=True)
                except sqlite3.DatabaseError as exc:
                    if not is_damage(exc):
                        raise  # the disk, not the file: said as such below
                    problems = [str(exc)]
                if problems:
                    self._damage = CampaignDamaged(
                        self.path, problems[0], len(bk.list_backups(self.path)))
                self._verified.set()
                self._full_checked.set()
                if not problems and self._lock.held:
                    self._backup_or_warn("open", source=conn)
        except BaseException as exc:  # never die silently: every write will say why
            if not self._verified.is_set():
                self._damage = translate_error(exc, self.path) or CampaignDamaged(
                    self.path, str(exc), 0)
            self._verified.set()
            self._full_checked.set()

    def _full_check(self) -> None:
        """After a "now" open (quick_check passed): the full integrity_check, in a thread.

        Damage it finds stops every later write and backup (:meth:`wait_verified`); closing
        interrupts it when no backup needs it. A disk that stops it is only a warning.
        """
        try:
            with open_readonly(self.path, shared=True) as conn:
                with self._full_guard:
                    if self._closing:
                        return
                    self._full_conn = conn
                try:
                    problems = quick_check(conn, full=True)
                except sqlite3.DatabaseError as exc:
                    if getattr(exc, "sqlite_errorname", "") == "SQLITE_INTERRUPT" \
                            or "interrupted" in str(exc):
                        return  # closed before it ended: nothing was learnt
                    if not is_damage(exc):
                        raise
                    problems = [str(exc)]
                finally:
                    with self._full_guard:
                        self._full_conn = None
                if problems:
                    self._damage = CampaignDamaged(
                        self.path, problems[0], len(bk.list_backups(self.path)))
        except (sqlite3.Error, OSError) as exc:
            self._warn(f"The full check of {self.path.name} could not run: "
                       f"{translate_error(exc, self.path) or exc}")
        finally:
            self._full_checked.set()

    def _wait_full_check(self) -> None:
        """Wait for the full integrity check; raise :class:`CampaignDamaged` if it failed."""
        self._check_now.set()
        self._full_checked.wait()
        if self._damage is not None:
            raise self._damage

    def _stop_full_check(self) -> None:
        with self._full_guard:
            self._closing = True
            if self._full_conn is not None:
                with contextlib.suppress(sqlite3.Error):
                    self._full_conn.interrupt()
        if self._full_thread is not None and threading.current_thread() is not self._full_thread:
            self._full_thread.join()

    def start_check(self) -> None:
        """Let a background integrity check (and the open backup after it) begin now."""
        self._check_now.set()

    def wait_verified(self) -> None:
        """Wait for the integrity check; raise :class:`CampaignDamaged` if it failed (or
        :class:`DiskFull` / :class:`CampaignUnreadable` when the disk stopped it)."""
        self._check_now.set()
        self._verified.wait()
        if self._damage is not None:
            raise self._damage

    def _join_verifier(self) -> None:
        # Backups wait for the background one to finish: one writer of the folder at a time.
        if self._verifier is not None and threading.current_thread() is not self._verifier:
            self._check_now.set()
            self._verifier.join()

    def close(self, *, backup: bool = True) -> None:
        """Back up unsaved-to-backup changes, close the database and release the lock.

        A closing backup that cannot be taken is a warning (:attr:`warnings`): the
        campaign itself is already safely committed, and the lock is released anyway.
        """
        if self._raw is None:
            return
        try:
            self._join_verifier()
            if self.unpublished and self._damage is None and self._lock.held:
                from companion.store.sync_log import publish_pending

                publish_pending(self)  # what waited goes to the shared folder now
            if backup and self._damage is None and self._lock.held:
                with contextlib.suppress(CampaignDamaged):  # found now: no copy of it
                    self._backup_or_warn("close")
            self._stop_full_check()
            self._engine.dispose()
            self._raw.close()
        finally:
            self._raw = None
            self._lock.release()

    def __enter__(self) -> CampaignFile:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    @property
    def closed(self) -> bool:
        """Whether :meth:`close` has been called."""
        return self._raw is None

    @property
    def holds_lock(self) -> bool:
        """Whether this copy holds the writer lock (it may write without asking)."""
        return self._lock.held

    def _conn(self) -> sqlite3.Connection:
        if self._raw is None:
            raise CampaignClosed(f"{self.path} has been closed; open it again to use it")
        return self._raw

    def _on_begin(self, connection: Any) -> None:
        connection.exec_driver_sql(self._begin_sql)

    def _warn(self, text: str) -> None:
        if text not in self.warnings:
            self.warnings.append(text)
            log.warning(text)

    def _check_identity(self) -> None:
        """Refuse to write when the file at ``path`` is no longer the one open here."""
        if file_identity(self.path) != self._identity:
            raise CampaignMoved(self.path)

    def _before_write(self) -> None:
        """What every write needs first: a sound file, still in place, and the lock."""
        self.wait_verified()
        self._check_identity()
        if self._lock.held:
            return
        if self._read_only_file or not writable(self.path):
            raise ReadOnly(self.path)
        take_writer_lock(self._lock)
        if self._full_before_write:
            # A log was pending when this reader opened (another writer's, or a
            # stranger's): now that no other writer can be at work, the full check decides.
            self._wait_full_check()
        self._backup_or_warn("open")

    # --- sessions ------------------------------------------------------------------------

    @contextlib.contextmanager
    def _session(self, *, write: bool) -> Iterator[CampaignSession]:
        self._conn()
        if self._in_transaction:
            raise CampaignFileError("transactions do not nest; finish the open one first")
        if write:
            self._before_write()
        self._in_transaction = True
        # IMMEDIATE takes the write lock up front, so a write never fails half-way on
        # a lock upgrade.
        self._begin_sql = "BEGIN IMMEDIATE" if write else "BEGIN"
        session = CampaignSession(self._engine, expire_on_commit=False, autoflush=write)
        session.info["read_only"] = not write
        if write:
            self.read_cache.clear()
        else:
            session.info["read_cache"] = self.read_cache
        try:
            yield session
        except BaseException as exc:
            session.rollback()
            translated = translate_error(exc, self.path)
            if translated is not None:
                raise translated from exc
            raise
        finally:
            session.close()
            self._in_transaction = False
            if write:
                self.read_cache.clear()

    @contextlib.contextmanager
    def read(self) -> Iterator[Session]:
        """A session for queries, in one read transaction; flushing a change is refused."""
        # Closing (not rolling back) ends the read transaction without expiring the
        # objects read, so callers keep usable detached rows.
        with self._session(write=False) as session:
            yield session

    @contextlib.contextmanager
    def transaction(
        self,
        kind: str,
        text: str,
        *,
        payload: dict[str, Any] | None = None,
        author: str | None = None,
    ) -> Iterator[Session]:
        """One operation: a session whose changes are committed with one journal event.

        Add, change and delete rows in the yielded session. On normal exit the store
        records the before/after image of every row written, adds
        ``JournalEvent(kind, text, payload, changes)``, clears the redo stack and commits,
        all in one SQLite transaction; the event is then in :attr:`last_event`. Any
        exception rolls everything back (the file is unchanged) and propagates; SQLite's
        disk-full and read-only failures come out as :class:`DiskFull` / :class:`ReadOnly`.
        Bulk ``update()``/``delete()`` statements are refused: they would escape the journal.
        The caller may set ``session.info["journal_text"]`` inside the block when the
        sentence depends on what the operation found (the energy a move cost ...).
        """
        if kind in META_KINDS:
            raise CampaignFileError(f"journal kind {kind!r} is reserved for the store")
        with self._session(write=True) as session:
            recorder = ChangeRecorder()
            session.info["recorder"] = recorder
            yield session
            session.flush()
            session.info["recorder"] = None
            self._clear_redo(session)
            text = str(session.info.pop("journal_text", text))
            journal_event = JournalEvent(
                time=self._clock(), kind=kind, text=text, author=author,
                payload=payload or {}, changes=recorder.changes(),
            )
            session.add(journal_event)
            session.commit()
        self.last_event = journal_event
        self._after_commit()

    @contextlib.contextmanager
    def replay_session(self) -> Iterator[Session]:
        """A write transaction that journals nothing by itself: the shared campaign's merge
        (:mod:`companion.store.replay`) writes the journal events of the operations it
        replays, exactly as :meth:`transaction`, :meth:`undo` and :meth:`redo` wrote them
        where they were made. It commits when the block ends; anything raised rolls all
        of it back (the file is unchanged)."""
        with self._session(write=True) as session:
            yield session
            session.commit()

    @property
    def shared(self) -> bool:
        """Whether the campaign is shared through a folder (``companion.store.sync_log``):
        read once, then kept (sharing or joining sets it)."""
        if self._shared is None:
            from companion.store.sync_log import is_shared

            with self.read() as session:
                self._shared = is_shared(session.connection())
        return self._shared

    @shared.setter
    def shared(self, value: bool) -> None:
        self._shared = value

    def _after_commit(self) -> None:
        # A shared campaign publishes its operations once committed (a few seconds'
        # worth together: ``sync_log.after_commit``).
        if self.shared:
            from companion.store.sync_log import after_commit

            after_commit(self)

    def add_note(self, text: str, *, author: str | None = None) -> JournalEvent:
        """Write a free-text journal entry (undoable like any operation)."""
        with self.transaction("note", text, author=author):
            pass
        assert self.last_event is not None
        return self.last_event

    @staticmethod
    def _clear_redo(session: Session) -> None:
        # Core statement on the connection: the bulk-update guard is for callers.
        session.connection().execute(
            update(table_of(JournalEvent))
            .where(col(JournalEvent.redoable) == 1)
            .values(redoable=False)
        )

    # --- backups ----------------------------------------------------------------------------

    def backup(self, reason: str = "manual") -> bk.BackupInfo:
        """Take a backup now (whatever changed) and rotate the old ones."""
        info = self._backup(reason, force=True)
        assert info is not None
        return info

    def save_copy(self, dest: Path) -> Path:
        """Write a complete, consistent copy of the campaign to ``dest`` (a new file).

        Uses SQLite's online backup API; refuses to overwrite (:class:`CampaignFileExists`).
        The copy is a campaign file in its own right (no lock, no backups of its own yet).
        """
        dest = Path(dest).absolute()
        if dest.exists():
            raise CampaignFileExists(dest)
        self.wait_verified()

        def build(tmp: Path) -> None:
            target = sqlite3.connect(tmp)
            try:
                self._conn().backup(target)
            finally:
                target.close()

        build_then_link(dest, "copy", build)
        return dest

    def maybe_backup(self, now: datetime | None = None) -> bk.BackupInfo | None:
        """Back up if something changed and ``policy.interval`` passed since the last one.

        The GUI calls this from a timer; cheap when there is nothing to do.
        """
        now = now or self._clock()
        newest = self._newest_backup()
        if newest is not None and now - newest.time < self.policy.interval:
            return None
        if not self._lock.held:
            return None  # a reader: backups are the writer's job
        return self._backup_or_warn("interval", now=now)

    def _backup(
        self,
        reason: str,
        *,
        force: bool,
        now: datetime | None = None,
        source: sqlite3.Connection | None = None,
    ) -> bk.BackupInfo | None:
        if not self._backups_on or self._in_transaction:
            return None
        if source is None:
            self._join_verifier()
            self.wait_verified()  # never copy a damaged file over the good backups
            source = self._conn()
        row = source.execute("SELECT coalesce(max(id), 0) FROM journal_event").fetchone()
        event_id = int(row[0])
        now = now or self._clock()
        if not force:
            size = pragma_int(source, "page_count") * pragma_int(source, "page_size")
            if not bk.backup_due(self.policy, reason, now, size, event_id,
                                 self._newest_backup()):
                return None
        # The full check first: a damaged file's copy must never push good ones out.
        self._wait_full_check()
        try:
            info = bk.take_backup(source, self.path, reason, now, event_id)
        except (sqlite3.Error, OSError) as exc:
            raise translate_error(exc, bk.backups_dir(self.path)) or exc from exc
        self._newest, self._newest_known = info, True
        bk.rotate(self.path, self.policy, now, self._owner_identity())
        return info

    def _backup_or_warn(
        self, reason: str, *, now: datetime | None = None,
        source: sqlite3.Connection | None = None,
    ) -> bk.BackupInfo | None:
        """An automatic backup; one that cannot be taken becomes a warning, not a failure.

        The campaign's own data is safe either way; the player is told what to fix.
        """
        try:
            return self._backup(reason, force=False, now=now, source=source)
        except CampaignDamaged:
            raise
        except (CampaignFileError, OSError, sqlite3.Error) as exc:
            self._warn(backup_warning(self.path, reason, exc))
            return None

    def _owner_identity(self) -> Identity:
        """This campaign's identity (uid, first event), by which its backups prove they
        are its own; read once (it never changes but by the migration to schema 4)."""
        if self._owner is None:
            self._owner = read_identity_of(self._conn())
        return self._owner

    def _newest_backup(self) -> bk.BackupInfo | None:
        # The newest backup (ours, or one left by an earlier run), listed once.
        if not self._newest_known:
            found = bk.list_backups(self.path, self._owner_identity())
            self._newest, self._newest_known = (found[0] if found else None), True
        return self._newest

    # --- conveniences for status displays ---------------------------------------------------

    def campaign(self) -> Campaign:
        """The campaign row (detached copy)."""
        with self.read() as session:
            row = session.get(Campaign, 1)
            if row is None:
                raise CampaignDamaged(self.path, "the campaign row is missing", 0)
            return row

    def holds_saved_state(self) -> bool:
        """Whether any procedure state is saved (a procedure mid-way, a discovery due ...):
        when none is, no procedure is in progress, and nothing need load one to say so."""
        with self.read() as session:
            return session.scalars(select(col(ProcedureState.id)).limit(1)).first() is not None

    def society(self) -> Society:
        """The society row (detached copy)."""
        with self.read() as session:
            row = session.get(Society, 1)
            if row is None:
                raise CampaignDamaged(self.path, "the society row is missing", 0)
            return row
