"""Applying card effects to the campaign: from a procedure's outcome, or typed at the
table for a card the app does not resolve itself ("Ash gains 2 wood").

Effects use the content pack's vocabulary (``companion.content.schema.effects``):
gain, lose, gain_item, suffer, energy, lore, activity, unrest, boost, place, unlock,
culture, read, test. A test needs a die: it is refused here; resolve it at the table,
then apply its success or failure effects. Unlocking Delving and gaining a culture
ability fall on the society (:func:`society_step`), whoever the card was read for.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from pydantic import ValidationError

from companion.operations import society_events
from companion.operations.changes import Changes, Refused
from companion.operations.core import Campaign
from companion.operations.state import load_game, save_game
from companion.rules import health, inventory
from companion.rules import society as society_rules
from companion.rules.character import Character
from companion.rules.effects import Tally, effects_from_data
from companion.rules.game import Game
from companion.rules.ids import HexId, ItemId
from companion.rules.procedure import Outcome
from companion.rules.valley import place_lore


def tokens(campaign: Campaign) -> dict[str, Any]:
    """Resource id -> the bag token gained for it."""
    return society_events.resources(campaign.content)


def _receive_items(campaign: Campaign, character: Character, items: Sequence[str]
                   ) -> Character:
    from companion.operations.facts import item_facts

    facts = item_facts(campaign)
    for item in items:
        if ItemId(item) in facts:
            # Exceeding Item Limits (D11): the item is held; if a slot is now over its
            # limit the player chooses which item goes and to whom before acting again.
            character = inventory.hold_item(character, facts[ItemId(item)])
    return character


def excess_notes(campaign: Campaign, game: Game, name: str) -> list[str]:
    """What the journal says when ``name`` now holds more items than the mantle's slots."""
    from companion.rules.day import excess_refusal

    return [excess_refusal(campaign.content.rules, game, name, slot) + "."
            for slot, _, _ in inventory.over_limit(campaign.content.rules,
                                                   game.character(name))]


def apply_outcome(campaign: Campaign, game: Game, actor: str, outcome: Outcome
                  ) -> tuple[Game, list[str]]:
    """An outcome's gains, injuries, energy, items and lore on ``actor``; its pending
    effects (``extra["pending_effects"]``) too. Returns the game and notes for the
    journal (what the table must still do)."""
    character = game.character(actor)
    character = inventory.gain_tokens(character, outcome.gained)
    for token in outcome.suffered:
        character = health.suffer(character, token)
    if outcome.energy > 0:
        character = health.gain_energy(character, outcome.energy)
    elif outcome.energy < 0:
        character = replace(character, energy=max(0, character.energy + outcome.energy))
    character = _receive_items(campaign, character, outcome.items)
    game = game.with_characters(character)
    notes = excess_notes(campaign, game, character.name) if outcome.items else []
    if outcome.lore > 0:
        game = replace(game, society=society_rules.gain_lore(game.society, outcome.lore))
    elif outcome.lore < 0:
        # Rulebook: Spending Lore: an effect costing more lore than the group has is refused.
        game = replace(game, society=society_rules.spend_lore(
            campaign.content.rules, game.society, -outcome.lore))
    pending = outcome.extra.get("pending_effects", []) if outcome.extra else []
    if pending:
        game, more = apply_pending(campaign, game, actor, effects_from_data(pending))
        notes += more
    return game, notes


def write_mark(character: Character, mark: str) -> Character:
    """``character`` with ``mark`` written on its card (once: a mark is there or not)."""
    from companion.rules.ids import Mark

    if Mark(mark) in character.marks:
        return character
    return replace(character, marks=(*character.marks, Mark(mark)))


def apply_pending(campaign: Campaign, game: Game, actor: str, effects: Sequence[Any]
                  ) -> tuple[Game, list[str]]:
    """The effects a procedure's tally leaves to this layer."""
    notes: list[str] = []
    for effect in effects:
        kind = effect.do
        character = game.character(actor)
        if kind == "lose":
            character = _lose(character, effect.resource, effect.amount)
            game = game.with_characters(character)
        elif kind == "activity":
            if effect.amount >= 0:
                game = replace(game, society=society_rules.increase_activity(
                    game.society, effect.amount))
            else:  # an effect that lowers activity ("reduce activity by 1"), never below 0
                game = replace(game, society=replace(
                    game.society, activity=max(0, game.society.activity + effect.amount)))
        elif kind == "unrest":
            game = replace(game, society=society_rules.increase_unrest(game.society,
                                                                       effect.amount))
        elif kind == "boost" and effect.ability is not None:
            game = game.with_characters(health.add_boost(character, effect.ability,
                                                         2 if effect.major else 1))
        elif kind == "place" and character.hex:
            game = replace(game, tokens=_place(game, HexId(character.hex), effect.token,
                                               effect.amount))
        elif kind == "mark":
            # Rulebook: Fillable Cards: a mark written on the character card.
            game = game.with_characters(write_mark(character, effect.mark))
        elif kind in SOCIETY_STEPS and (stepped := society_step(game, effect)) is not None:
            if stepped[0] == game:  # nothing changed: the journal says why
                notes.append(f"{stepped[1][0].upper()}{stepped[1][1:]}.")
            game = stepped[0]
        elif kind == "read":
            notes.append(f"Read Codex outcome {effect.outcome}.")
        else:
            # A boost of the player's choice, a spend of lore below zero, other flags:
            # the table decides; the journal says what is left to do.
            notes.append(f"For the table: {effect.text or kind}.")
    return game, notes


SOCIETY_STEPS = frozenset({"unlock", "culture"})
"""Steps :func:`society_step` applies to the society whoever the card was read for."""


def society_step(game: Game, effect: Any) -> tuple[Game, str] | None:
    """Unlock Delving (D4) or gain a culture ability (Journal > Culture): the game
    after it and its words, or None for a flag the app does not know (the table
    decides what it opens)."""
    if effect.do == "unlock" and effect.flag == "delving":
        if game.society.delving_unlocked:
            return game, "Delving was already open"
        return replace(game, society=society_rules.unlock_delving(game.society)), \
            "Delving is open"
    if effect.do == "culture":
        society, said = society_rules.gain_culture_ability(game.society, effect.ability)
        return replace(game, society=society), said
    return None


def apply_society_effects(campaign: Campaign, game: Game, effects: Sequence[Any]
                          ) -> tuple[Game, str]:
    """Effects that fall on the whole society, such as a goal's reward (lore, unrest,
    activity); any other effect is left to the table and said so. Returns the game and
    the effects in game words."""
    from companion.rules.effects import describe_effect

    said: list[str] = []
    for effect in effects:
        kind = effect.do
        if kind == "lore" and effect.amount >= 0:
            game = replace(game, society=society_rules.gain_lore(game.society, effect.amount))
        elif kind == "lore":
            game = replace(game, society=society_rules.spend_lore(
                campaign.content.rules, game.society, -effect.amount))
        elif kind == "unrest":
            game = replace(game, society=society_rules.increase_unrest(game.society,
                                                                       effect.amount))
        elif kind == "activity" and effect.amount >= 0:
            game = replace(game, society=society_rules.increase_activity(game.society,
                                                                         effect.amount))
        elif kind == "activity":
            game = replace(game, society=replace(
                game.society, activity=max(0, game.society.activity + effect.amount)))
        elif kind in SOCIETY_STEPS and (stepped := society_step(game, effect)) is not None:
            game, words = stepped
            said.append(words)
            continue
        else:
            said.append(f"for the table: {describe_effect(effect)}")
            continue
        said.append(describe_effect(effect))
    return game, "; ".join(said)


def _place(game: Game, hex_id: HexId, token: str, amount: int) -> Any:
    from companion.rules.valley import place_fire, place_shelter

    if token == "lore":
        return place_lore(game.tokens, hex_id, amount)
    return (place_fire if token == "fire" else place_shelter)(game.tokens, hex_id)


def _lose(character: Character, resource: str, amount: int) -> Character:
    indices = [i for i, t in enumerate(character.bag) if t.name == resource][:amount]
    if not indices:
        return character
    character, _ = inventory.take_tokens(character, indices)
    return character


def _refuse_new_materials(campaign: Campaign, parsed: Sequence[Any]) -> None:
    """A material the pack does not know yet is named, so its token is entered on the
    spot (issue 36 item 2), not refused as an unknown token."""
    from companion.operations.changes import MissingFromPack, missing_materials_hint

    content = campaign.content
    new = tuple(dict.fromkeys(
        str(e.resource) for e in parsed if e.do in ("gain", "lose")
        and str(e.resource) not in content.materials and str(e.resource) not in content.foods))
    if new:
        raise MissingFromPack(missing_materials_hint(new), materials=new)


def apply_effects(campaign: Campaign, *, name: str, effects: Sequence[Mapping[str, Any]],
                  source: str = "") -> Changes:
    """Apply effects read at the table (e.g. from a card the app does not resolve) to
    the character ``name``, in one undoable operation."""
    data = [dict(e) for e in effects]
    for effect in data:
        if effect.get("do") == "suffer":
            effect["token"] = _health_token(str(effect.get("token", "")))
    try:
        parsed = effects_from_data(data)
    except ValidationError as exc:
        problems = "; ".join(str(e["msg"]) for e in exc.errors()[:3])
        raise Refused(f"These effects are not in the effect vocabulary: {problems}") from exc
    if not parsed:
        raise Refused("Give at least one effect.")
    if any(e.do == "test" for e in parsed):
        raise Refused("A test needs a die: resolve it at the table, then apply its success "
                      "or failure effects.")
    _refuse_new_materials(campaign, parsed)
    with campaign.write("effects", "effects") as session:
        from companion.operations.procedure_row import refuse_during_night

        refuse_during_night(session, "apply the effects")
        before = load_game(session, campaign.content)
        tally = Tally().apply(parsed, tokens(campaign))
        after, notes = apply_outcome(campaign, before, before.character(name).name,
                                     tally.outcome())
        save_game(session, campaign.content, before, after)
        text = _describe(name, parsed, source, notes)
        session.info["journal_text"] = text
    return Changes(summary=text, characters=True, society=True, journal=True, valley=True)


def _describe(name: str, effects: Sequence[Any], source: str, notes: list[str]) -> str:
    from companion.rules.effects import describe_effect

    said = "; ".join(describe_effect(e) for e in effects)
    return f"{name}: {said}" + (f" ({source})" if source else "") + \
        "".join(f" {n}" for n in notes)


def parse_effect(text: str) -> dict[str, Any]:
    """A short effect typed in the CLI, read with the same words as the Apply Effects
    dialog (``companion.rules.effect_words``): 'gain wood 2', 'suffer minor_injury',
    'energy -1', 'lore 2', 'activity 1', 'unrest 1', 'lose fish', 'item bone-knife',
    'place fire', 'place lore 2', 'boost might major', 'mark spiral', 'read 104',
    'unlock delving', 'culture ability Fire Keeping'."""
    from companion.rules import effect_words
    from companion.rules.errors import IllegalAction

    try:
        return effect_words.parse_effect(text)
    except IllegalAction as exc:
        raise Refused(str(exc)) from exc


def _health_token(typed: str) -> str:
    """The health token typed as 'major injury', 'major_injury' or 'Major-Injury'; refused
    in game words otherwise (Rulebook: Mantle > Health Track)."""
    from companion.rules import effect_words
    from companion.rules.errors import IllegalAction

    try:
        return effect_words.health_token(typed)
    except IllegalAction as exc:
        raise Refused(str(exc)) from exc
