"""Society operations (Rulebook: Tracks): unrest, activity and its events, lore, culture
abilities and mantle powers. Thresholds and events are applied automatically (D7, D10)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from sqlmodel import Session, select

from companion.operations.changes import Changes, Refused
from companion.operations.core import Campaign
from companion.operations.state import load_game, save_game
from companion.rules import society as society_rules
from companion.rules.errors import IllegalAction
from companion.rules.game import Game
from companion.rules.ids import CultureAbilityId, EventId, MantlePowerId
from companion.store import models


def challenge_events(campaign: Campaign, challenge_id: str | None
                     ) -> list[society_rules.ActivityEvent]:
    """The current challenge's activity events, as the rules see them (D7).

    Event ids are ``<challenge>#<n>`` in the card's order, so the file can record which
    single events fired.
    """
    card = campaign.content.challenges.get(challenge_id) if challenge_id else None
    if card is None:
        return []
    kinds = {"event": society_rules.EventKind.GENERAL}
    return [
        society_rules.ActivityEvent(
            id=EventId(f"{card.id}#{n}"),
            kind=kinds.get(e.type.value) or society_rules.EventKind(e.type.value),
            threshold=e.threshold, until=e.until)
        for n, e in enumerate(card.events, 1)
    ]


def event_text(campaign: Campaign, event_id: str) -> str:
    """The text of an activity event by its id."""
    challenge, _, number = event_id.partition("#")
    card = campaign.content.challenges.get(challenge)
    if card is None or not number.isdigit() or not 1 <= int(number) <= len(card.events):
        return event_id
    event = card.events[int(number) - 1]
    return f"Activity {event.threshold}: {event.text}"


def _society_operation(campaign: Campaign, kind: str, change: object) -> Changes:
    with campaign.write(kind, kind) as session:
        before = load_game(session, campaign.content)
        after, text = change(before, session)  # type: ignore[operator]
        save_game(session, campaign.content, before, after)
        session.info["journal_text"] = text
    return Changes(summary=text, society=True, journal=True, challenge=True)


def _fire_reached(campaign: Campaign, session: Session, game: Game) -> tuple[Game, list[str]]:
    # D7: immediate and societal events fire as soon as activity reaches them.
    society_row = session.get(models.Society, 1)
    events = challenge_events(campaign, society_row.current_challenge_id if society_row else None)
    due = society_rules.due_events(game.society, events, end_of_night=False)
    if not due:
        return game, []
    return (replace(game, society=society_rules.fire_events(game.society, due)),
            [event_text(campaign, e.id) for e in due])


def increase_activity(campaign: Campaign, *, amount: int, reason: str = "") -> Changes:
    """Turn the activity dial up (an effect or card); events reached fire (D7)."""
    def change(game: Game, session: Session) -> tuple[Game, str]:
        game = replace(game, society=society_rules.increase_activity(game.society, amount))
        game, fired = _fire_reached(campaign, session, game)
        text = f"Activity +{amount} to {game.society.activity}" + (f" ({reason})" if reason
                                                                     else "")
        return game, text + "".join(f". Event: {f}" for f in fired)

    return _society_operation(campaign, "society.activity", change)


def change_unrest(campaign: Campaign, *, amount: int, reason: str = "") -> Changes:
    """Turn the unrest dial (persistent). Thresholds are cumulative (D10); reaching 6+
    puts the epoch goal 'Quelling the Embers' into play."""
    if amount == 0:
        raise Refused("Change unrest by at least 1.")

    def change(game: Game, session: Session) -> tuple[Game, str]:
        rules = campaign.content.rules
        old = society_rules.unrest_effects(rules, game.society.unrest)
        game = replace(game, society=society_rules.increase_unrest(game.society, amount))
        new = society_rules.unrest_effects(rules, game.society.unrest)
        added = [g for g in new.epoch_goals if g not in old.epoch_goals]
        _put_goals_in_play(session, added)
        text = f"Unrest {amount:+d} to {game.society.unrest}" + (f" ({reason})" if reason
                                                                   else "")
        names = [campaign.content.goals[g].name if g in campaign.content.goals else g
                 for g in added]
        return game, text + "".join(f". Epoch goal in play: {n}" for n in names)

    return _society_operation(campaign, "society.unrest", change)


def _put_goals_in_play(session: Session, goals: Sequence[str]) -> None:
    if not goals:
        return
    campaign_row = session.get(models.Campaign, 1)
    epoch = campaign_row.epoch if campaign_row else 1
    existing = {g.goal_id: g for g in session.exec(select(models.GoalState)).all()}
    for goal in goals:
        row = existing.get(goal)
        if row is None:
            session.add(models.GoalState(goal_id=goal, state="epoch", epoch=epoch))
        elif row.state not in ("completed", "epoch"):
            row.state = "epoch"


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
