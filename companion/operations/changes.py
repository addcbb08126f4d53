"""What an operation reports back, and how it refuses."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any


class Refused(Exception):
    """An operation was refused; nothing changed. The message says why, in game words."""


class MissingFromPack(Refused):
    """Refused because what the table typed names material tokens the campaign's pack
    does not know yet (issue 36 item 2): the screens offer to enter each token on the
    spot and then carry on; the terminal says how (``material add``)."""

    def __init__(self, message: str, *, materials: tuple[str, ...]) -> None:
        super().__init__(message)
        self.materials = materials
        """The materials named, as typed (ids or names)."""


def missing_materials_hint(materials: tuple[str, ...]) -> str:
    """How to go on when ``materials`` are not in the pack yet, in the players' words."""
    names = ", ".join(materials)
    return (f"{names}: a material token your pack does not know yet. Enter it as it lies "
            "on the table (Content ▸ Enter a Material Token…; in the terminal: "
            f"companion material add PATH {materials[0]!r} --edge …), then go on.")


EVERY_COLUMN = "*"
"""The column of a row inserted or deleted in :attr:`Written.columns`."""


@dataclass(frozen=True)
class StatusLine:
    """The figures the status bar shows (issue 37: carried in :class:`Written`, so a click
    reads them once, with the operation, not again for the status bar)."""

    omens: tuple[str, ...]
    activity: int
    unrest: int
    epoch: int
    challenge_name: str | None


STATUS_TABLES = frozenset({"society", "campaign", "deck_state"})
"""The tables :class:`StatusLine` is read from."""

STATUS_COLUMNS = frozenset({("society", "activity"), ("society", "unrest"),
                            ("society", "current_challenge_id"), ("campaign", "epoch")})
"""The columns of :data:`STATUS_TABLES` it is read from (any of ``deck_state``: the Night
discard tells the omen; the lore, say, is not in it)."""


@dataclass(frozen=True)
class Written:
    """What an operation wrote, told from its own journal event (issue 37): the views
    refresh only for what they show, the status bar and Undo/Redo need no query."""

    columns: frozenset[tuple[str, str]]
    """(table, column) of every value written; :data:`EVERY_COLUMN` for a row added or
    taken away."""
    labels: tuple[str | None, str | None] | None = None
    """(undo, redo) labels after the operation (an undo or a redo reads them in its own
    transaction); None when the file must be asked."""
    status: StatusLine | None = None
    """The status bar's figures after the operation, when it wrote any of them."""
    rows: frozenset[tuple[str, int]] = frozenset()
    """(table, row id) of every row written: a view showing many rows of a table (the
    map's hexes and characters) reads again only these."""

    @classmethod
    def of_rows(cls, changes: Sequence[Mapping[str, Any]], **told: Any) -> Written:
        """From a journal event's row images (``JournalEvent.changes``)."""
        columns: set[tuple[str, str]] = set()
        rows: set[tuple[str, int]] = set()
        for change in changes:
            table = str(change["table"])
            before, after = change.get("before"), change.get("after")
            if before is None or after is None:
                columns.add((table, EVERY_COLUMN))
            else:
                columns.update((table, str(k)) for k in after if k != "id")
            rows.add((table, int(change["id"])))
        return cls(frozenset(columns), rows=frozenset(rows), **told)

    def ids(self, table: str) -> frozenset[int]:
        """The ids of the rows of ``table`` written."""
        return frozenset(row for name, row in self.rows if name == table)

    def columns_of(self, table: str) -> frozenset[str]:
        """The columns of ``table`` written (:data:`EVERY_COLUMN` for a row added or
        taken away)."""
        return frozenset(column for name, column in self.columns if name == table)

    @property
    def tables(self) -> frozenset[str]:
        """The tables written."""
        return frozenset(table for table, _ in self.columns)

    def touches(self, ignored: Iterable[tuple[str, str]] = ()) -> bool:
        """Whether anything was written beyond ``ignored`` ((table, column) pairs; a
        column of :data:`EVERY_COLUMN` ignores the whole table)."""
        skip = set(ignored)
        return any((table, column) not in skip and (table, EVERY_COLUMN) not in skip
                   for table, column in self.columns)

    @property
    def writes_status(self) -> bool:
        """Whether it wrote any of the status bar's figures (:class:`StatusLine`)."""
        return any(table == "deck_state" or (table, column) in STATUS_COLUMNS
                   or (table in STATUS_TABLES and column == EVERY_COLUMN)
                   for table, column in self.columns)

    def merged(self, later: Written) -> Written:
        """This write followed by ``later`` (an operation of several transactions)."""
        return Written(self.columns | later.columns, later.labels,
                       later.status if later.status is not None else self.status,
                       self.rows | later.rows)


@dataclass(frozen=True)
class Changes:
    """Which parts of the campaign an operation changed; views refresh on their flags."""

    summary: str
    """One sentence for the status bar and the CLI."""
    characters: bool = False
    valley: bool = False
    society: bool = False
    journal: bool = True
    outposts: bool = False
    behemoth: bool = False
    challenge: bool = False
    procedure: bool = False
    everything: bool = False
    """Set by undo/redo and restores: refresh every view."""
    detail: object = None
    """What the operation produced that the caller shows (dice rolled, a tile drawn ...)."""
    written: Written | None = None
    """Exactly what was written, when known (the main window adds it to an operation's
    Changes, ``Campaign.written_since``; undo and redo tell it themselves): views refresh
    only for what they show. None: unknown, the flags alone say."""

    def then(self, later: Changes) -> Changes:
        """This change followed by ``later``, as one (a view that was not on screen
        refreshes once for both, when it is shown)."""
        flags = {name: bool(getattr(self, name)) or bool(getattr(later, name))
                 for name in FLAG_NAMES}
        written = (self.written.merged(later.written)
                   if self.written is not None and later.written is not None else None)
        return Changes(summary=later.summary, detail=later.detail, written=written, **flags)

    def __getattribute__(self, name: str) -> object:
        # An undo can touch anything: "everything" answers yes to every flag.
        value = object.__getattribute__(self, name)
        if value is False and name != "everything" and object.__getattribute__(self, "everything"):
            return True
        return value


FLAG_NAMES = ("characters", "valley", "society", "journal", "outposts", "behemoth", "challenge",
              "procedure", "everything")
"""The flags of :class:`Changes`."""
