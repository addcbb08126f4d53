"""What an operation reports back, and how it refuses."""

from __future__ import annotations

from dataclasses import dataclass


class Refused(Exception):
    """An operation was refused; nothing changed. The message says why, in game words."""


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

    def __getattribute__(self, name: str) -> object:
        # An undo can touch anything: "everything" answers yes to every flag.
        value = object.__getattribute__(self, name)
        if value is False and name != "everything" and object.__getattribute__(self, "everything"):
            return True
        return value
