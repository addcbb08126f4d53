"""Activity events and unrest thresholds, applied whatever raised the dial (Rulebook:
Tracks > Activity Events; Unrest; readings D7, D10).

Every operation writes the game through :func:`companion.operations.state.save_game`,
which calls :func:`settle_society` with the game before and after: so the dial, a card's
effect, an exploration's outcome and the end of the Night all fire the Immediate and
Societal events they reach, with their effects, and put "Quelling the Embers" in play at
unrest 6+, in the same transaction. The end of the Night resolves the events the Night
fired there (general, outpost, ongoing): ``operations.society.resolve_night_events``,
one of the Night's end hooks.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlmodel import Session, select

from companion.content import Content
from companion.content.schema import effects as fx
from companion.rules import activity_events
from companion.rules import society as society_rules
from companion.rules.effects import token_catalogue
from companion.rules.game import Game
from companion.rules.ids import EventId
from companion.store import models

NOTES_KEY = "society_notes"
"""``session.info`` key: sentences :meth:`Campaign.write` adds to the journal entry."""


def challenge_events(content: Content, challenge_id: str | None
                     ) -> list[society_rules.ActivityEvent]:
    """The challenge's activity events, as the rules see them (D7).

    Event ids are ``<challenge>#<n>`` in the card's order, so the file can record which
    single events fired.
    """
    card = content.challenges.get(challenge_id) if challenge_id else None
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


def _card_event(content: Content, event_id: str) -> Any:
    challenge, _, number = str(event_id).partition("#")
    card = content.challenges.get(challenge)
    if card is None or not number.isdigit() or not 1 <= int(number) <= len(card.events):
        return None
    return card.events[int(number) - 1]


def event_text(content: Content, event_id: str) -> str:
    """"Activity 10: The elders argue." for an event id."""
    event = _card_event(content, event_id)
    return f"Activity {event.threshold}: {event.text}" if event is not None else str(event_id)


def event_effects(content: Content, event_id: str) -> tuple[fx.Effect, ...]:
    """The mechanical steps printed on an activity event."""
    event = _card_event(content, event_id)
    return tuple(getattr(event, "effects", ()) or ()) if event is not None else ()


def _current_challenge(session: Session) -> str | None:
    row = session.get(models.Society, 1)
    return row.current_challenge_id if row else None


def settle_society(session: Session, content: Content, before: Game, after: Game) -> Game:
    """Fire what the new activity reaches and place what the new unrest puts in play.

    Called by ``save_game`` for every write; a no-op unless activity or unrest rose.
    Sentences for the journal go to ``session.info[NOTES_KEY]``.
    """
    rose = (after.society.activity > before.society.activity
            or after.society.unrest > before.society.unrest)
    if not rose:
        return after
    challenge = _current_challenge(session)
    events = challenge_events(content, challenge)
    settled = activity_events.settle(
        content.rules, before, after, events,
        {e.id: event_effects(content, e.id) for e in events}, resources(content),
        {e.id: event_text(content, e.id) for e in events})
    notes = list(settled.notes)
    if settled.goals and challenge:
        put_goals_in_play(session, list(settled.goals))
        notes += [f"Epoch goal in play: {_goal_name(content, g)}" for g in settled.goals]
    if notes:
        session.info.setdefault(NOTES_KEY, []).extend(notes)
    return settled.game


def resources(content: Content) -> dict[str, Any]:
    """Resource id -> the bag token gained for it (the content's materials and foods)."""
    return token_catalogue(content.materials.values(), content.foods.values())


def _goal_name(content: Content, goal: str) -> str:
    card = content.goals.get(goal)
    return card.name if card else goal


def put_goals_in_play(session: Session, goals: Sequence[str]) -> None:
    """Epoch goals enter play beside the challenge (D10); a completed one stays done."""
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
