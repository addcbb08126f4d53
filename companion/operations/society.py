"""Society operations (Rulebook: Tracks): unrest, activity and its events, lore, culture
abilities and mantle powers. Thresholds and events are applied automatically (D7, D10)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from sqlmodel import Session

from companion.operations import society_events
from companion.operations.changes import Changes, Refused
from companion.operations.core import Campaign
from companion.operations.state import load_game, save_game
from companion.rules import society as society_rules
from companion.rules.errors import IllegalAction
from companion.rules.game import Game
from companion.rules.ids import CultureAbilityId, MantlePowerId


def challenge_events(campaign: Campaign, challenge_id: str | None
                     ) -> list[society_rules.ActivityEvent]:
    """The current challenge's activity events, as the rules see them (D7)."""
    return society_events.challenge_events(campaign.content, challenge_id)


def event_text(campaign: Campaign, event_id: str) -> str:
    """The text of an activity event by its id."""
    return society_events.event_text(campaign.content, event_id)


def event_effects(campaign: Campaign, event_id: str) -> tuple[Any, ...]:
    """The mechanical steps printed on an activity event."""
    return society_events.event_effects(campaign.content, event_id)


def _society_operation(campaign: Campaign, kind: str, change: object) -> Changes:
    with campaign.write(kind, kind) as session:
        before = load_game(session, campaign.content)
        after, text = change(before, session)  # type: ignore[operator]
        save_game(session, campaign.content, before, after)
        # The events and goals the new value reached (society_events.settle_society).
        notes = session.info.pop(society_events.NOTES_KEY, [])
        text = ". ".join(n.rstrip(".") for n in [text, *notes])
        session.info["journal_text"] = text
    return Changes(summary=text, society=True, journal=True, challenge=True,
                   characters=bool(notes), valley=bool(notes))


def increase_activity(campaign: Campaign, *, amount: int, reason: str = "") -> Changes:
    """Turn the activity dial up (an effect or card); events reached fire (D7)."""
    def change(game: Game, session: Session) -> tuple[Game, str]:
        game = replace(game, society=society_rules.increase_activity(game.society, amount))
        return game, f"Activity +{amount} to {game.society.activity}" + (
            f" ({reason})" if reason else "")

    return _society_operation(campaign, "society.activity", change)


def change_unrest(campaign: Campaign, *, amount: int, reason: str = "") -> Changes:
    """Turn the unrest dial (persistent). Thresholds are cumulative (D10); reaching 6+
    puts the epoch goal 'Quelling the Embers' into play."""
    if amount == 0:
        raise Refused("Change unrest by at least 1.")

    def change(game: Game, session: Session) -> tuple[Game, str]:
        game = replace(game, society=society_rules.increase_unrest(game.society, amount))
        return game, f"Unrest {amount:+d} to {game.society.unrest}" + (
            f" ({reason})" if reason else "")

    return _society_operation(campaign, "society.unrest", change)


def gain_lore(campaign: Campaign, *, amount: int, reason: str = "") -> Changes:
    """Mark lore boxes on the Culture page (Rulebook: Tracks > Lore)."""
    def change(game: Game, session: Session) -> tuple[Game, str]:
        game = replace(game, society=society_rules.gain_lore(game.society, amount))
        return game, f"Gained {amount} lore ({game.society.lore})" + (
            f": {reason}" if reason else "")

    return _society_operation(campaign, "society.lore", change)


def spend_lore(campaign: Campaign, *, amount: int, reason: str = "") -> Changes:
    """Erase lore boxes; refused when the society has too little."""
    def change(game: Game, session: Session) -> tuple[Game, str]:
        game = replace(game, society=society_rules.spend_lore(campaign.content.rules,
                                                              game.society, amount))
        return game, f"Spent {amount} lore ({game.society.lore} left)" + (
            f": {reason}" if reason else "")

    return _society_operation(campaign, "society.lore", change)


def add_culture_ability(campaign: Campaign, *, name: str) -> Changes:
    """Record a culture ability a game event gave the society (Journal > Culture)."""
    if not name.strip():
        raise Refused("A culture ability needs a name.")

    def change(game: Game, session: Session) -> tuple[Game, str]:
        ability = CultureAbilityId(name.strip())
        game = replace(game, society=society_rules.add_culture_ability(game.society, ability))
        return game, f"Culture ability: {ability}"

    return _society_operation(campaign, "society.culture", change)


def unlock_mantle_power(campaign: Campaign, *, power: str) -> Changes:
    """The society unlocks a mantle power (Continuing Play > Mantle Power)."""
    card = campaign.content.mantle_powers.get(power)
    if card is None:
        raise Refused(f"There is no mantle power '{power}' in the content pack.")

    def change(game: Game, session: Session) -> tuple[Game, str]:
        if MantlePowerId(power) in game.society.mantle_powers:
            raise IllegalAction(f"the society has already unlocked {card.name}")
        game = replace(game, society=society_rules.unlock_mantle_power(
            game.society, MantlePowerId(power)))
        mantle = campaign.content.mantles.get(card.mantle)
        return game, f"Mantle power unlocked: {card.name} ({mantle.name if mantle else ''})"

    return _society_operation(campaign, "society.mantle_power", change)


def unlock_delving(campaign: Campaign, *, reason: str = "") -> Changes:
    """A game effect grants access to Delving (Rulebook: Delving; D4)."""
    def change(game: Game, session: Session) -> tuple[Game, str]:
        if game.society.delving_unlocked:
            raise IllegalAction("Delving is already open to the society")
        game = replace(game, society=replace(game.society, delving_unlocked=True))
        return game, "Delving is open" + (f": {reason}" if reason else "")

    return _society_operation(campaign, "society.unlock", change)
