"""Society operations (Rulebook: Tracks): unrest, activity and its events, lore, culture
abilities and mantle powers. Thresholds and events are applied automatically (D7, D10)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from sqlmodel import Session

from companion.operations import society_events
from companion.operations.changes import Changes, Refused
from companion.operations.core import Campaign
from companion.operations.state import load_game, save_game
from companion.rules import activity_events
from companion.rules import society as society_rules
from companion.rules.errors import IllegalAction
from companion.rules.game import Game
from companion.rules.ids import CultureAbilityId, MantlePowerId
from companion.rules.society import Society


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


def _turn(campaign: Campaign, kind: str, turn: Callable[[Society], Society],
          words: Callable[[Society], str]) -> Changes:
    """Turn one of the society's dials or tracks (``turn``), journalled as ``words`` of the
    society after it."""
    def change(game: Game, session: Session) -> tuple[Game, str]:
        game = replace(game, society=turn(game.society))
        return game, words(game.society)

    return _society_operation(campaign, kind, change)


def _because(reason: str, colon: bool = False) -> str:
    return "" if not reason else f": {reason}" if colon else f" ({reason})"


def increase_activity(campaign: Campaign, *, amount: int, reason: str = "") -> Changes:
    """Turn the activity dial up (an effect or card); events reached fire (D7)."""
    return _turn(campaign, "society.activity",
                 lambda society: society_rules.increase_activity(society, amount),
                 lambda society: f"Activity +{amount} to {society.activity}" + _because(reason))


def change_unrest(campaign: Campaign, *, amount: int, reason: str = "") -> Changes:
    """Turn the unrest dial (persistent). Thresholds are cumulative (D10); reaching 6+
    puts the epoch goal 'Quelling the Embers' into play."""
    if amount == 0:
        raise Refused("Change unrest by at least 1.")
    return _turn(campaign, "society.unrest",
                 lambda society: society_rules.increase_unrest(society, amount),
                 lambda society: f"Unrest {amount:+d} to {society.unrest}" + _because(reason))


def gain_lore(campaign: Campaign, *, amount: int, reason: str = "") -> Changes:
    """Mark lore boxes on the Culture page (Rulebook: Tracks > Lore)."""
    return _turn(campaign, "society.lore",
                 lambda society: society_rules.gain_lore(society, amount),
                 lambda society: f"Gained {amount} lore ({society.lore})"
                 + _because(reason, colon=True))


def spend_lore(campaign: Campaign, *, amount: int, reason: str = "") -> Changes:
    """Erase lore boxes; refused when the society has too little."""
    return _turn(campaign, "society.lore",
                 lambda society: society_rules.spend_lore(campaign.content.rules, society,
                                                          amount),
                 lambda society: f"Spent {amount} lore ({society.lore} left)"
                 + _because(reason, colon=True))


def add_culture_ability(campaign: Campaign, *, name: str) -> Changes:
    """Write a culture ability a game event gave the society on the Culture page
    (Rulebook: Using the Journal > Culture); refused, in words, without a name or when
    the page already has it (in any case)."""
    ability = CultureAbilityId(" ".join(name.split()))
    if not ability:
        raise Refused("Name the culture ability, as the card or the Codex gives it "
                      "(e.g. Fire Keeping).")

    def change(game: Game, session: Session) -> tuple[Game, str]:
        if (held := society_rules.held_culture_ability(game.society, ability)) is not None:
            raise Refused(f"The society already has the culture ability {held}.")
        society = society_rules.add_culture_ability(game.society, ability)
        return replace(game, society=society), f"Culture ability gained: {ability}"

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
        return game, "Delving is open" + _because(reason, colon=True)

    return _society_operation(campaign, "society.unlock", change)


def resolve_night_events(campaign: Any, session: Session, result: Any) -> str | None:
    """Night Phase Ends: resolve the single events the Night fired and the ongoing event
    whose range holds the activity (Rulebook: Activity Events > Ongoing Events; D7)."""
    content = campaign.content
    fired = [*result.events_fired, *([result.ongoing_event] if result.ongoing_event else [])]
    if not fired:
        return None
    before = load_game(session, content)
    game = before
    said: list[str] = []
    for event_id in fired:
        game, notes = activity_events.apply_event(
            game, society_events.event_effects(content, event_id),
            society_events.resources(content))
        said.append(society_events.event_text(content, event_id).rstrip(".")
                    + (f" ({'; '.join(notes)})" if notes else ""))
    if game != before:
        save_game(session, content, before, replace(game))
    return " ".join(f"Event: {s}." for s in said)
