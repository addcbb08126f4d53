"""Cards as the table types them at a card (or chip) step, or outside a procedure.

- :func:`resolve_typed` turns what was typed at a card or chip step (an id or a name,
  in any case) into the step's option; :func:`resolve_card_id` does the same for a kind
  of card outside a procedure (a Discovery card). The procedure runner and the
  Discovery draw call them, so every engine accepts names without knowing it.
- A card the campaign's content lacks is refused as an :class:`UnknownCard`, naming the
  ways on (enter it, or record what it did).
- :func:`take_typed` gives a card of the content that the procedure in progress did not
  have when it began (entered since) to that procedure: the table drew it, so it is in
  the deck (:func:`teach`). Mining is the exception: a chip is pulled out of the bag
  Step 1 filled, never added to it, so a chip the bag does not hold now is refused
  (:func:`not_in_bag`; Rulebook: Mining > Step 4, D14).

Entering a card into the campaign's own pack is ``operations.cards``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from companion.content import Content
from companion.content import user_pack as packs
from companion.operations.changes import Refused
from companion.operations.core import Campaign
from companion.operations.effects import tokens
from companion.operations.night_cards import night_facts
from companion.rules.procedure import Choice, Decider, Procedure, Step

#: The kind of card each procedure's card (or chip) steps draw.
PROCEDURE_CARD_KINDS: dict[str, str] = {
    "fishing": "fishing_cards",
    "foraging": "forage_cards",
    "delving": "delving_cards",
    "night": "night_cards",
    "behemoth_encounter": "reaction_cards",
    "mining": "materials",
}


def card_kind(procedure_kind: str, step: Step | None) -> str | None:
    """The kind of card ``step`` of a ``procedure_kind`` draws (None: no card is drawn
    there, e.g. a die roll, a player's choice, or a tie broken at random)."""
    if step is None or step.decider not in (Decider.CARD, Decider.CHIP):
        return None
    return PROCEDURE_CARD_KINDS.get(procedure_kind)


def _fold(text: str) -> str:
    return " ".join(text.split()).casefold()


def card_names(content: Content, kind: str) -> dict[str, str]:
    """Card id -> name (the id itself where a card has no name) for ``kind``."""
    table: Mapping[str, Any] = getattr(content, kind, {}) or {}
    return {key: str(getattr(card, "name", "") or key) for key, card in table.items()}


def resolve_card_id(content: Content, kind: str, typed: str) -> str:
    """The id of the card of ``kind`` typed as ``typed``, the one reading every card
    field uses (the Day panel's, the Valley map's Discovery panel, a procedure's step,
    ``--card``/``--choice``): its id or its name in any case, a card field's drop-down
    text "DI07 Hot Spring", or a part of one name that no other card's name holds ("hot
    spr"); ``typed`` itself when nothing (or more than one card) matches, so the
    refusal names it."""
    text = typed.strip()
    table: Mapping[str, Any] = getattr(content, kind, {}) or {}
    if text in table:
        return text
    wanted = _fold(text)
    names = card_names(content, kind)
    for key, name in names.items():
        if wanted in (_fold(key), _fold(name), _fold(f"{key} {name}")):
            return key
    if len(wanted) >= 3:  # what the field's completion offers for a typed fragment
        found = [key for key, name in names.items() if name != key and wanted in _fold(name)]
        if len(found) == 1:
            return found[0]
    return text


def resolve_typed(campaign: Campaign, procedure_kind: str, procedure: Procedure, step: Step,
                  choice: Choice) -> Choice:
    """What was typed at a card or chip step, as the step's option: the option itself,
    its label, or the card's id or name, without regard to case."""
    if not isinstance(choice, str) or choice in step.options or \
            step.decider not in (Decider.CARD, Decider.CHIP):
        return choice
    wanted = _fold(choice)
    for option in step.options:
        if _fold(option) == wanted or _fold(step.labels.get(option, "")) == wanted:
            return option
    kind = card_kind(procedure_kind, step)
    if kind is None:
        return choice
    if procedure_kind == "mining":
        # Chips are told apart by their material: "clay", "Clay" or the material's name.
        material = resolve_card_id(campaign.content, "materials", choice)
        bag = getattr(procedure, "bag", ())
        for option in step.options:
            if option.isdigit() and int(option) < len(bag) and \
                    bag[int(option)].material == material:
                return option
        return choice
    return resolve_card_id(campaign.content, kind, choice)


def is_known(campaign: Campaign, kind: str, typed: str) -> bool:
    """Whether ``typed`` names a card of ``kind`` in the campaign's content."""
    card = resolve_card_id(campaign.content, kind, typed)
    return card in (getattr(campaign.content, kind, {}) or {})


# --- a card the campaign does not know ------------------------------------------------------


class UnknownCard(Refused):
    """A card typed at a card step that the campaign's content lacks (issue 27 item
    10): the message names the packs and the two ways on, "Enter this card…" and
    "Just record what happened"; the CLI adds its flags (:attr:`cli_hint`)."""

    def __init__(self, message: str, *, kind: str, typed: str) -> None:
        super().__init__(message)
        self.kind = kind
        self.typed = typed

    cli_hint = ("In the terminal: --enter-card FILE (the card as YAML), or "
                "--record \"gain 2 meat Ash, lore +1\" (what it did; --card ID names it).")


def pack_names(content: Content) -> str:
    """The campaign's packs that hold cards, in players' words: "Sample pack, your own
    pack" (the rules pack every campaign extends holds none, so it is not named)."""
    from companion.operations.box import RULES_PACK

    return ", ".join("your own pack" if p.id.endswith(packs.OWN_SUFFIX) else p.name
                     for p in content.packs if p.id != RULES_PACK)


def unknown_card(campaign: Campaign, kind: str, typed: str, *, deck: str = "") -> UnknownCard:
    """The refusal of ``typed``, a card of ``kind`` the campaign's content lacks."""
    word = packs.kind_word(kind)
    if deck:
        word = f"{deck} {word}"
    return UnknownCard(
        f"{typed.strip()} is not a {word} of this campaign ({pack_names(campaign.content)}). "
        "If the table drew it: \"Enter this card…\" types it in as printed (it joins your "
        "own pack), or \"Just record what happened\" applies what it did in one line "
        "(e.g. gain 2 meat Ash, lore +1).", kind=kind, typed=typed.strip())


def refuse_unknown(campaign: Campaign, saved: Mapping[str, Any], procedure: Procedure,
                   step: Step, choice: Choice) -> None:
    """Raise :class:`UnknownCard` when ``choice``, typed at a card or chip step, names
    no card of the campaign's content (a known card the step does not allow is left
    to the rules' refusal)."""
    from companion.rules.night import is_table_card

    kind = card_kind(str(saved.get("kind", "")), step)
    if kind is None or not isinstance(choice, str) or choice in step.options or \
            is_table_card(choice) or step.decider is Decider.CHIP:
        return
    if not is_known(campaign, kind, choice):
        raise unknown_card(campaign, kind, choice,
                           deck=str(getattr(procedure, "deck_name", "") or ""))


# --- giving the card to the procedure in progress ----------------------------------------------


def _tokens(campaign: Campaign, current: Mapping[str, Any]) -> dict[str, Any]:
    return {**tokens(campaign), **current}


def _deck_card(campaign: Campaign, procedure: Any, card: Any,
               saved: Mapping[str, Any]) -> Any:
    """Fishing and delving: the card joins the deck the procedure draws from."""
    return replace(procedure, deck=(*procedure.deck, card), deck_json="",
                   tokens=_tokens(campaign, procedure.tokens))


def _foraging(campaign: Campaign, procedure: Any, card: Any,
              saved: Mapping[str, Any]) -> Any:
    if card.deck != procedure.deck_name:
        return None
    content = campaign.content
    objects = {**procedure.objects}
    bonuses = {**procedure.bonuses}
    for row in (card.rows.front, card.rows.middle, card.rows.back):
        for spot in row:
            objects.setdefault(str(spot.object), content.forage_objects[spot.object])
            for bonus in spot.bonus:
                bonuses.setdefault(str(bonus), content.forage_bonuses[bonus])
    return replace(procedure, deck=(*procedure.deck, card), objects=objects, bonuses=bonuses,
                   deck_json="", tokens=_tokens(campaign, procedure.tokens))


def _chip_of(card: Any) -> Any:
    """The chip a material's card prints (its omen and effects; none if it has no chip
    face yet)."""
    from companion.rules.mining import MiningChip

    face = card.chip
    return MiningChip(card.id) if face is None else MiningChip(
        card.id, face.omen, face.effects, face.match_effects)


def _mining(campaign: Campaign, procedure: Any, card: Any,
            saved: Mapping[str, Any]) -> Any:
    """Mining: a material entered (or edited) since the bag was filled gives the chips
    of it still in the bag its face. The bag never gains a chip: Step 1 filled it with
    the feature's chips, and each pull takes one out (Rulebook: Mining > Step 4; D14)."""
    if not knows("mining", procedure, str(card.id)):
        return None
    chip = _chip_of(card)
    bag = tuple(chip if c.material == chip.material else c for c in procedure.bag)
    return replace(procedure, bag=bag, tokens=_tokens(campaign, procedure.tokens))


def not_in_bag(campaign: Campaign, procedure: Any, typed: str) -> Refused:
    """The refusal of a chip typed at Step 4 that the bag does not hold now, naming what
    it holds: "The bag holds no sunstone now: riverstone, clay, clay, clay"."""
    text = " ".join(typed.split())
    inside = ", ".join(chip.material for chip in procedure.bag)
    if text.isdigit():
        count = len(procedure.bag)
        return Refused(f"The bag holds {count} chip{'' if count == 1 else 's'} now, "
                       f"not {text}: {inside}.")
    # A chip's label is "sunstone (sun)": its material, then its omen.
    bare = text.split(" (", 1)[0] if text.endswith(")") else text
    material = resolve_card_id(campaign.content, "materials", bare)
    wanted = material if material in campaign.content.materials else text
    return Refused(f"The bag holds no {wanted} now: {inside}.")


def _encounter(campaign: Campaign, procedure: Any, card: Any,
               saved: Mapping[str, Any]) -> Any:
    if card.behemoth != procedure.behemoth.behemoth:
        return None
    # The card joins the bottom of the Reaction deck; a card typed at a draw may be
    # any card still in the deck, so the table draws it at once.
    deck = (*procedure.behemoth.reaction_deck, str(card.id))
    return replace(procedure, cards=(*procedure.cards, card),
                   behemoth=replace(procedure.behemoth, reaction_deck=deck))


def _night(campaign: Campaign, procedure: Any, card: Any, saved: Mapping[str, Any]) -> Any:
    from companion.rules.ids import NightCardId
    from companion.rules.night import NightProcedure

    table = procedure.table
    if card.id in (*table.draw_pile, *table.discard):  # edited: the facts carry it
        return NightProcedure(night_facts(campaign, saved.get("challenge")), table,
                              procedure.choices)
    # The card joins the pile it can be drawn from now: the deck, or, once the deck
    # has run out, the discard pile the next draw shuffles.
    if table.draw_pile:
        table = replace(table, draw_pile=(*table.draw_pile, NightCardId(card.id)))
    else:
        table = replace(table, discard=(*table.discard, NightCardId(card.id)))
    return NightProcedure(night_facts(campaign, saved.get("challenge")), table,
                          procedure.choices)


_TEACHERS: dict[str, Callable[[Campaign, Any, Any, Mapping[str, Any]], Any]] = {
    "fishing": _deck_card,
    "foraging": _foraging,
    "delving": _deck_card,
    "mining": _mining,
    "behemoth_encounter": _encounter,
    "night": _night,
}


def knows(procedure_kind: str, procedure: Any, card_id: str) -> bool:
    """Whether the procedure in progress has ``card_id`` among the cards it can draw."""
    if procedure_kind == "mining":
        return any(chip.material == card_id for chip in procedure.bag)
    if procedure_kind == "night":
        return card_id in (*procedure.table.draw_pile, *procedure.table.discard)
    if procedure_kind == "behemoth_encounter":
        return card_id in procedure.behemoth.reaction_deck
    return any(str(c.id) == card_id for c in getattr(procedure, "deck", ()))


def teach(campaign: Campaign, saved: Mapping[str, Any], procedure: Any, kind: str,
           card_id: str) -> Any:
    """The procedure with the card ``card_id`` of ``kind`` (from the content) among
    those it can draw, or None if it draws no such card."""
    procedure_kind = str(saved.get("kind", ""))
    teach = _TEACHERS.get(procedure_kind)
    card = (getattr(campaign.content, kind, {}) or {}).get(card_id)
    if teach is None or card is None or PROCEDURE_CARD_KINDS.get(procedure_kind) != kind:
        return None
    if procedure_kind != "mining" and knows(procedure_kind, procedure, card_id):
        return _replace_card(procedure, card)
    return teach(campaign, procedure, card, saved)


def take_typed(campaign: Campaign, saved: Mapping[str, Any], procedure: Procedure,
               step: Step, choice: Choice) -> tuple[Procedure, Step, Choice]:
    """A card typed at a card or chip step, by id or name, as the step's option.

    A card of the campaign's content that the procedure did not have when it began
    (entered since, e.g. with ``content add-card``) joins what it can draw first: the
    table drew it, so it is in the deck. A mining chip the bag does not hold now is
    refused in words (:func:`not_in_bag`); picking a chip by its number is the step's
    own option."""
    procedure_kind = str(saved.get("kind", ""))
    resolved = resolve_typed(campaign, procedure_kind, procedure, step, choice)
    if procedure_kind == "mining" and step.decider is Decider.CHIP and \
            isinstance(resolved, str) and resolved not in step.options:
        # A chip is pulled out of the bag, never added to it (Mining > Step 4; D14).
        raise not_in_bag(campaign, procedure, resolved)
    kind = card_kind(procedure_kind, step)
    if kind is None or not isinstance(resolved, str) or resolved in step.options:
        return procedure, step, resolved
    card_id = resolve_card_id(campaign.content, kind, resolved)
    if card_id not in (getattr(campaign.content, kind, {}) or {}) or \
            knows(procedure_kind, procedure, card_id):
        return procedure, step, resolved
    taught = teach(campaign, saved, procedure, kind, card_id)
    if taught is None:
        return procedure, step, resolved
    step = taught.step()
    return taught, step, resolve_typed(campaign, procedure_kind, taught, step, card_id)


def _replace_card(procedure: Any, card: Any) -> Any:
    """An edited card replaces its old version in the procedure's deck."""
    for name in ("deck", "cards"):
        cards = getattr(procedure, name, None)
        if cards:
            swapped = tuple(card if c.id == card.id else c for c in cards)
            extra = {"deck_json": ""} if hasattr(procedure, "deck_json") else {}
            return replace(procedure, **{name: swapped}, **extra)
    return procedure
