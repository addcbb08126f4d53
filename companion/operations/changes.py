"""What an operation reports back, and how it refuses."""

from __future__ import annotations

from dataclasses import dataclass


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
