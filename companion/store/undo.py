"""A campaign file's history: undo and redo, save points, and the journal's pages.

The half of :class:`companion.store.campaign_file.CampaignFile` that walks the journal
events its transactions wrote (:class:`UndoHistory`, a base class of it): the rows an
event changed go back to their before images (undo) or forward again (redo), each in
one transaction journalled as an 'undo' or 'redo' event.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import func, select
from sqlmodel import Session, col

from companion.store.errors import CampaignFileError, UndoConflict
from companion.store.history import apply_changes
from companion.store.models import JournalEvent

if TYPE_CHECKING:
    from companion.store.later_tables import SavePoint

META_KINDS = ("undo", "redo", "save_point")
"""Journal kinds that record history itself; undo skips them."""

BASELINE_KINDS = ("campaign.new",)
"""Journal kinds that found the campaign: the history starts there, undo stops before."""

Clock = Callable[[], datetime]


@dataclass(frozen=True)
class Stepped:
    """One step through the history done (:meth:`UndoHistory.undo_step`, ``redo_step``):
    the operation taken back or done again, and the Undo/Redo labels after it, read in
    the step's own transaction (issue 37: the window's Edit menu reads nothing after)."""

    target: JournalEvent
    """The operation undone (or redone)."""
    labels: tuple[str | None, str | None]
    """(undo, redo): the texts :meth:`UndoHistory.undo_label` and ``redo_label`` give now."""


class UndoHistory:
    """Undo, redo, save points and the journal of an open campaign file.

    :class:`~companion.store.campaign_file.CampaignFile` is the one subclass: it gives the
    sessions (the two methods below), the clock and :attr:`last_event`; this part of it
    lives in a module of its own only to keep the campaign file's module short.
    """

    last_event: JournalEvent | None
    _clock: Clock

    def _session(self, *, write: bool) -> AbstractContextManager[Session]:
        """A session (one transaction when ``write``): CampaignFile's."""
        raise NotImplementedError

    def read(self) -> AbstractContextManager[Session]:
        """A session for queries: CampaignFile's."""
        raise NotImplementedError

    def _after_commit(self) -> None:
        """What follows every committed step (CampaignFile's: a shared campaign publishes)."""

    # --- undo and redo --------------------------------------------------------------------

    @staticmethod
    def _undo_query(what: Any) -> Any:
        """``what`` (the event, or a column of it) of the operation undo takes back."""
        return (
            select(what)
            .where(col(JournalEvent.undone).is_(False),
                   col(JournalEvent.kind).not_in(META_KINDS + BASELINE_KINDS))
            .order_by(col(JournalEvent.id).desc())
            .limit(1)
        )

    @staticmethod
    def _redo_query(what: Any) -> Any:
        """``what`` (the event, or a column of it) of the operation redo does again."""
        # Undo always takes the newest live operation, so the most recently undone one
        # is the oldest still redoable.
        return (
            select(what)
            .where(col(JournalEvent.redoable) == 1)  # matches the partial index
            .order_by(col(JournalEvent.id))
            .limit(1)
        )

    @classmethod
    def _undo_target(cls, session: Session) -> JournalEvent | None:
        target: JournalEvent | None = session.scalars(cls._undo_query(JournalEvent)).first()
        return target

    @classmethod
    def _redo_target(cls, session: Session) -> JournalEvent | None:
        target: JournalEvent | None = session.scalars(cls._redo_query(JournalEvent)).first()
        return target

    def _step(self, session: Session, target: JournalEvent, *, undo: bool,
              save_point: str | None = None) -> JournalEvent:
        """Undo ``target`` (or redo it): its rows go to their before (after) images, it is
        marked undone and redoable (or no longer), and the 'undo' ('redo') event that
        records the step is added; returns that event."""
        try:
            apply_changes(session.connection(), target.changes, undo=undo)
        except UndoConflict as exc:
            raise UndoConflict.at_step(target.text, redo=not undo, save_point=save_point,
                                       detail=str(exc)) from exc
        target.undone = undo
        target.redoable = undo
        kind, verb = ("undo", "Undid") if undo else ("redo", "Redid")
        record = JournalEvent(time=self._clock(), kind=kind, text=f"{verb}: {target.text}",
                              undoes_id=target.id if undo else None,
                              redoes_id=None if undo else target.id,
                              payload={"event_id": target.id})
        session.add(record)
        session.flush()
        return record

    def undo(self) -> JournalEvent | None:
        """Undo the newest operation still in effect; returns it (None if nothing to undo).

        Its rows go back to their before images in one transaction, and an 'undo' event
        ("Undid: ...") is journalled. Works across restarts: the state is in the file.
        """
        stepped = self.undo_step()
        return None if stepped is None else stepped.target

    def redo(self) -> JournalEvent | None:
        """Redo the most recently undone operation (None if a new operation intervened)."""
        stepped = self.redo_step()
        return None if stepped is None else stepped.target

    def undo_step(self) -> Stepped | None:
        """:meth:`undo`, telling the Undo/Redo labels after it too."""
        with self._session(write=True) as session:
            target = self._undo_target(session)
            if target is None:
                return None
            self.last_event = self._step(session, target, undo=True)
            labels = self._labels(session)
            session.commit()
        self._after_commit()
        return Stepped(target, labels)

    def redo_step(self) -> Stepped | None:
        """:meth:`redo`, telling the Undo/Redo labels after it too."""
        with self._session(write=True) as session:
            target = self._redo_target(session)
            if target is None:
                return None
            record = self._step(session, target, undo=False)
            labels = self._labels(session)
            session.commit()
        self.last_event = record
        self._after_commit()
        return Stepped(target, labels)

    def _labels(self, session: Session) -> tuple[str | None, str | None]:
        """(undo, redo) labels as ``session`` sees the history (their texts only: the
        events' row images need not be read)."""
        text = col(JournalEvent.text)
        return (session.scalars(self._undo_query(text)).first(),
                session.scalars(self._redo_query(text)).first())

    def undo_label(self) -> str | None:
        """The text of the operation :meth:`undo` would undo, or None."""
        with self.read() as session:
            label: str | None = session.scalars(
                self._undo_query(col(JournalEvent.text))).first()
            return label

    def redo_label(self) -> str | None:
        """The text of the operation :meth:`redo` would redo, or None."""
        with self.read() as session:
            label: str | None = session.scalars(
                self._redo_query(col(JournalEvent.text))).first()
            return label

    # --- save points ----------------------------------------------------------------------

    def save_point(self, name: str) -> SavePoint:
        """Name the current point in the history (journalled as a 'save_point' event)."""
        from companion.store.later_tables import SavePoint

        with self._session(write=True) as session:
            # One moment for both: a shared campaign's other machines replay it from the
            # journal event alone (companion.store.replay).
            now = self._clock()
            record = JournalEvent(time=now, kind="save_point", text=f"Save point: {name}")
            session.add(record)
            session.flush()
            assert record.id is not None
            point = SavePoint(name=name, event_id=record.id, created=now)
            session.add(point)
            session.commit()
        self.last_event = record
        self._after_commit()
        return point

    def save_points(self) -> list[SavePoint]:
        """Every save point, newest first."""
        from companion.store.later_tables import SavePoint

        with self.read() as session:
            query = select(SavePoint).order_by(col(SavePoint.id).desc())
            return list(session.scalars(query).all())

    def undo_to(self, point: SavePoint | str) -> list[JournalEvent]:
        """Undo, in one transaction, every operation still in effect made after ``point``.

        ``point`` is a SavePoint or the name of one (the newest of that name). Returns the
        operations undone, newest first. Each is journalled as an 'undo' event and can be
        redone one by one.
        """
        from companion.store.later_tables import SavePoint

        with self._session(write=True) as session:
            if isinstance(point, str):
                query = select(SavePoint).where(col(SavePoint.name) == point)
                found = session.scalars(query.order_by(col(SavePoint.id).desc())).first()
                if found is None:
                    raise CampaignFileError(f"there is no save point named {point!r}")
                point = found
            undone: list[JournalEvent] = []
            while (target := self._undo_target(session)) is not None:
                assert target.id is not None
                if target.id < point.event_id:
                    break
                self.last_event = self._step(session, target, undo=True, save_point=point.name)
                undone.append(target)
            session.commit()
        self._after_commit()
        return undone

    # --- the journal ------------------------------------------------------------------------

    def journal(
        self,
        limit: int = 50,
        before_id: int | None = None,
        kinds: list[str] | tuple[str, ...] | None = None,
    ) -> list[JournalEvent]:
        """Journal events newest first: up to ``limit`` older than ``before_id``, of ``kinds``.

        Pages through any length of history cheaply (it walks the id index).
        """
        query = select(JournalEvent).order_by(col(JournalEvent.id).desc()).limit(limit)
        if before_id is not None:
            query = query.where(col(JournalEvent.id) < before_id)
        if kinds is not None:
            query = query.where(col(JournalEvent.kind).in_(list(kinds)))
        with self.read() as session:
            return list(session.scalars(query).all())

    def event_count(self) -> int:
        """How many journal events the file holds (undo/redo records included).

        Events are never deleted (undo marks them, it does not remove them), so the
        newest id is the count: one index lookup instead of a scan of years of history.
        """
        return self.last_event_id()

    def last_event_id(self) -> int:
        """The newest journal event's id (0 for none)."""
        with self.read() as session:
            return int(session.scalar(select(func.max(JournalEvent.id))) or 0)
