"""The card form opened for one kind of card, saved through the main window.

- :func:`enter_card_form` opens the form (:class:`companion.ui.card_form.CardForm`) for a
  kind and saves through the main window (the card field, the My cards window, the
  behemoth panel and the records of "Just record what happened" use it);
- :func:`content_lookup` gives forms the content's ids and names (never the sealed Codex).

Kept apart from :mod:`companion.ui.card_field` so that the record dialog
(:mod:`companion.ui.table_record`), which the card field opens, can open the form
without importing the field back.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog, QWidget

if TYPE_CHECKING:
    from companion.content import Content
    from companion.ui.host import Host

SEALED = ("codex_outcomes", "codex_omen_entries", "crafting")
"""Kinds a form never offers to pick from (the Codex is read only when reached)."""


def content_lookup(content: Content | None) -> Any:
    """Component kind -> {id: name} for a form's references (sealed kinds: nothing)."""
    def names(kind: str) -> dict[str, str]:
        if content is None or kind in SEALED:
            return {}
        if kind.startswith("forage_objects:"):  # the objects of one forage deck
            deck = kind.split(":", 1)[1]
            return {str(key): str(o.name) for key, o in content.forage_objects.items()
                    if deck in {str(getattr(d, "value", d)) for d in o.decks}}
        kinds = {"resources": ("materials", "foods"),
                 "*": ("hexes", "overlays", "items", "night_cards", "discovery_cards",
                       "delving_cards", "forage_cards", "fishing_cards", "structures",
                       "behemoths", "goals", "challenges")}.get(kind, (kind,))
        found: dict[str, str] = {}
        for each in kinds:
            for key, card in (getattr(content, each, {}) or {}).items():
                found[str(key)] = str(getattr(card, "name", "") or key)
        return found

    return names


def _first_free_id(kind: str, typed: str, model: Any) -> dict[str, Any]:
    """What a form for a card typed as ``typed`` starts with: its id, or its name when
    what was typed cannot be an id (it has spaces)."""
    import re

    text = typed.strip()
    if not text:
        return {}
    if re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_.-]*", text) or "name" not in model.model_fields:
        return {"id": text}
    return {"name": text}


def enter_card_form(window: Host, kind: str, *, typed: str = "",
                    initial: Mapping[str, Any] | None = None,
                    replace_id: str | None = None, parent: QWidget | None = None,
                    on_saved: Callable[[str], object] | None = None,
                    deck: str = "") -> QDialog | None:
    """Open the form for a card of ``kind`` (window-modal, returned at once); saving puts
    the card into the campaign's own pack and plays on with it, then calls
    ``on_saved(card id)``. ``deck``: the deck being drawn from, the form's Deck to start
    with (a plains card while foraging the plains; issue 36 item 9). None if no
    campaign is open."""
    from companion.content.schema.pack import KIND_MODELS
    from companion.content.user_pack import kind_word
    from companion.operations import cards
    from companion.ui.card_form import CardForm
    from companion.ui.dialog_operation import run_in_dialog

    campaign = window.campaign
    if campaign is None:
        return None

    def save(data: dict[str, Any]) -> str | None:
        changes = run_in_dialog(window, lambda campaign: cards.enter_card(
            campaign, kind=kind, data=data, replace_id=replace_id),
            again=lambda: form.try_save())  # a material token entered on the spot
        if isinstance(changes, str):
            return changes  # the refusal, said in the form
        if on_saved is not None:
            on_saved(str(changes.detail))
        return None

    start = dict(initial) if initial else _first_free_id(kind, typed, KIND_MODELS[kind])
    if deck and "deck" in KIND_MODELS[kind].model_fields:
        start.setdefault("deck", deck)
    title = f"Edit the {kind_word(kind)} {replace_id}" if replace_id else ""
    form = CardForm(kind, parent=parent or window, lookup=content_lookup(campaign.content),
                    initial=start, save=save, title=title)
    form.setObjectName("cardForm")
    form.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    form.open()
    return form
