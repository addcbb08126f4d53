"""A forage card's form offers only the objects of its deck (issue 27 item 18: a forest
card offered Grain Bush; Rulebook: Foraging > List of Objects).

Contract: :class:`DeckScope` is the lookup a :class:`~companion.ui.card_form.CardForm`
gives its editors (component kind -> {id: name}); for ``forage_objects`` it answers with
the objects of the deck chosen in the form (``content_lookup``'s ``forage_objects:<deck>``)
once :meth:`watch` follows the form's Deck field, and refills the object fields already
shown whenever the deck changes.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from PySide6.QtWidgets import QWidget

OBJECTS = "forage_objects"


class DeckScope:
    """The form's lookup, scoped to the forage deck chosen."""

    def __init__(self, lookup: Callable[[str], Mapping[str, str]]) -> None:
        self.lookup = lookup
        self.deck: str | None = None

    def __call__(self, kind: str) -> Mapping[str, str]:
        if kind == OBJECTS and self.deck:
            return self.lookup(f"{OBJECTS}:{self.deck}") or self.lookup(kind)
        return self.lookup(kind)

    def watch(self, editor: Any, kind: str) -> None:
        """Follow the Deck field of ``editor`` (a forage card's form) from now on."""
        deck = getattr(editor, "editors", {}).get("deck")
        if kind != "forage_cards" or deck is None or not hasattr(deck, "combo"):
            return
        deck.combo.currentIndexChanged.connect(lambda _=0: self.changed(editor, deck))
        self.changed(editor, deck)

    def changed(self, editor: QWidget, deck: Any) -> None:
        value = deck.value()
        self.deck = value if isinstance(value, str) and value else None
        for ref in editor.findChildren(QWidget):
            if getattr(ref, "kind", "") == OBJECTS and hasattr(ref, "set_known"):
                ref.set_known(self(OBJECTS))
