"""The tables of a shared campaign (schema 5): who this machine is, and the operations log.

A campaign shared through a folder (``companion.operations.sharing``) keeps, beside its
game tables, what the merge needs and nothing the game needs:

- ``sync_state`` (one row, id 1, written when the campaign is shared or joined): this
  machine's identity and name, the folder, where the shared history begins, how far
  this machine has published, and what the last look at the folder found;
- ``sync_op``: every operation of the shared history, in the campaign's one order
  (``id`` is the position), each as it travels (``op``) and what it did here;
- ``sync_row``: the identity, the same on every machine, of each row an operation made
  (``key``), beside its number in this file (``row_id``).

They hold this machine's own bookkeeping (its name, its folder), so they are not part of
an export (:data:`SYNC_TABLES` is apart from ``ALL_TABLES``) and undo never sees them.
A campaign never shared has them empty.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import Index
from sqlmodel import Field, SQLModel

from companion.store.table_base import StoreTable, json_column


class SyncState(StoreTable, table=True):
    """This machine's part in a shared campaign (one row, id 1)."""

    __tablename__ = "sync_state"
    machine: str
    """This machine's identity: a random UUID as 32 hex digits, made when it shared or
    joined, never changed."""
    machine_name: str = ""
    """The name the others see ("Bryn's laptop"); the player may change it."""
    folder: str = ""
    """The shared folder (the one the group's sync tool keeps in step)."""
    base_event: int = 0
    """The newest journal event when the shared history began: every machine holds the
    same events up to it; the operations come after."""
    registered_event: int = 0
    """The newest journal event already taken into ``sync_op``."""
    published_seq: int = 0
    """This machine's newest operation written to the folder."""
    snapshot_seq: int = 0
    """This machine's newest operation in its newest snapshot in the folder."""
    offline_since: datetime | None = None
    """Since when the folder could not be reached (None: reached at the last look)."""
    machines: dict[str, Any] = Field(default_factory=dict, sa_column=json_column())
    """What the folder says of each other machine: ``{id: {"name", "schema"}}``."""
    refused: list[str] = Field(default_factory=list, sa_column=json_column())
    """The files the last look refused, each in game words."""
    decisions: list[str] = Field(default_factory=list, sa_column=json_column())
    """The settled conflicts the campaign's order honours now (``settle op:dropped op``)."""


class SyncOp(StoreTable, table=True):
    """One operation of the shared history; ``id`` is its place in the campaign's order."""

    __tablename__ = "sync_op"
    __table_args__ = (Index("ix_sync_op_machine_seq", "machine", "seq", unique=True),)
    machine: str
    seq: int
    lamport: int
    """One more than the greatest of every operation it knew of: the order's first key."""
    event_id: int
    """The journal event it made here."""
    state: str = "applied"
    """``applied`` (in effect as made), ``waiting`` (it clashed with what was in effect:
    a conflict to settle), ``dropped`` (a conflict settled for the other side: kept as
    undone history) or ``void`` (an undo or redo of what was already so)."""
    clash: list[str] = Field(default_factory=list, sa_column=json_column())
    """The operations in effect it clashed with (``machine:seq`` or ``b:event``)."""
    rewind: dict[str, Any] = Field(default_factory=dict, sa_column=json_column())
    """What taking it back needs besides its row images (``redo``: the journal events
    that could be redone before it; ``redoable``: its target's mark before a redo); for
    an operation the game's rules refused on the merged campaign, also ``refused``: why,
    in words (its conflict says it)."""
    op: dict[str, Any] = Field(default_factory=dict, sa_column=json_column())
    """The operation as it travels (``companion.store.mailbox``)."""


class SyncRow(StoreTable, table=True):
    """The identity of a row an operation made, the same on every machine."""

    __tablename__ = "sync_row"
    __table_args__ = (Index("ix_sync_row_table_row", "tbl", "row_id"),)
    tbl: str
    row_id: int
    key: str = Field(unique=True)
    """``machine:seq:n``: the n-th row the operation ``machine:seq`` made in ``tbl``."""


SYNC_TABLES: tuple[type[SQLModel], ...] = (SyncState, SyncOp, SyncRow)
"""The shared campaign's tables: in every file, never exported, never journalled."""
