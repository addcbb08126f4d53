"""The trait and mantle lists of character creation (Rulebook: Character Creation, Steps
2-3), shared by the New Character dialog and the wizard's character pages.

Each list ends with "Type another trait…" / "Type another mantle…": a trait or mantle
the box prints that the campaign does not know is typed there by its name, once, and
is remembered in the owner's pack (``operations.character_cards``); the list then
offers it and it is chosen.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable
from typing import Any

from PySide6 import QtWidgets
from PySide6.QtCore import Qt

TYPE_ANOTHER = "\u2063type-another"
"""The item data of the last entry, "Type another …" (never an id: ids are slugs)."""

WORDS = {"traits": "trait", "mantles": "mantle"}


def fill(combo: QtWidgets.QComboBox, kind: str, entries: Iterable[Any], *,
         leave_out: Collection[str] = (), first: tuple[str, Any] | None = None) -> None:
    """Fill ``combo`` with ``entries`` (id, name, text) but those in ``leave_out``, after
    the optional ``first`` item (label, data), then "Type another …"; keeps the choice."""
    current = combo.currentData()
    combo.blockSignals(True)
    combo.clear()
    if first is not None:
        combo.addItem(*first)
    for entry in entries:
        if str(entry.id) in leave_out:
            continue
        combo.addItem(str(entry.name), str(entry.id))
        if getattr(entry, "text", ""):
            combo.setItemData(combo.count() - 1, entry.text, Qt.ItemDataRole.ToolTipRole)
    combo.addItem(f"Type another {WORDS[kind]}…", TYPE_ANOTHER)
    combo.setItemData(combo.count() - 1, f"A {WORDS[kind]} your box prints that this list "
                      "lacks: type its name once, and the app remembers it.",
                      Qt.ItemDataRole.ToolTipRole)
    index = combo.findData(current)
    combo.setCurrentIndex(index if index >= 0 and current != TYPE_ANOTHER else 0)
    combo.blockSignals(False)


def chosen(combo: QtWidgets.QComboBox) -> str | None:
    """The id chosen in ``combo`` (None for "Type another …" or an empty choice)."""
    data = combo.currentData()
    return None if data in (None, TYPE_ANOTHER) else str(data)


def offer_typing(combo: QtWidgets.QComboBox, kind: str,
                 typed: Callable[[str], str | None]) -> None:
    """When the player picks "Type another …" in ``combo``, ask for the name and hand it
    to ``typed`` (which remembers it and refills the lists, returning the new id, or
    None when it was refused); the new entry is then chosen, else the previous one."""
    previous = {"index": combo.currentIndex()}

    def activated(index: int) -> None:
        if combo.itemData(index) != TYPE_ANOTHER:
            previous["index"] = index
            return
        word = WORDS[kind]
        name, ok = QtWidgets.QInputDialog.getText(
            combo.window(), f"Type Another {word.title()}",
            f"The {word}'s name, as your box prints it (remembered in your own pack):")
        new_id = typed(name) if ok and name.strip() else None
        found = combo.findData(new_id) if new_id is not None else -1
        combo.setCurrentIndex(found if found >= 0 else
                              min(previous["index"], max(0, combo.count() - 2)))
        previous["index"] = combo.currentIndex()

    combo.activated.connect(activated)
