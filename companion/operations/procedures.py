"""Running a procedure (an activity, the Night) one step at a time, persisted.

One procedure is in progress at a time; it lives in the ``procedure_state`` row of kind
``"procedure"`` and is saved after every step, each step its own journalled operation:
closing the app mid-Night resumes at the same step, and Undo goes back one step.

Every step is answered either by the table (a typed choice, dice, or card id) or by the
app (``choice=None`` on a chance step draws from the campaign's seeded generator).
When the procedure finishes, its result is written in the same transaction as its last
step.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from sqlmodel import Session, select

from companion.content.schema.base import Omen
from companion.operations.changes import Changes, Refused
from companion.operations.core import NIGHT_DECK, Campaign
from companion.operations.effects import tokens
from companion.operations.facts import hex_features
from companion.operations.night_cards import night_facts, night_shelters
from companion.operations.procedure_row import Kind, begin, procedure_row
from companion.operations.state import load_game, record_legend, save_game
from companion.operations.typed_cards import card_kind, refuse_unknown, take_typed
from companion.rules import day as day_rules
from companion.rules.character import Character
from companion.rules.errors import IllegalAction
from companion.rules.fishing import FishingProcedure
from companion.rules.game import Game
from companion.rules.ids import FeatureId, HexId, NightCardId
from companion.rules.mining import MiningProcedure, chips_for
from companion.rules.night import NightProcedure, NightTable
from companion.rules.outposts import FeatureAction
from companion.rules.procedure import Choice, Decider, Procedure, Step, draw_for
from companion.store import models


@dataclass(frozen=True)
class ProcedureView:
    """What the GUI and the CLI show of the procedure in progress."""

    kind: str
    """'fishing', 'mining', 'night' ..."""
    actor: str | None
    """The character doing the activity (None for the Night)."""
    step: Step | None
    """What is asked now (None once finished)."""
    description: str
    """The state so far, in game words."""
    log: tuple[str, ...]
    """The steps taken so far."""


@dataclass(frozen=True)
class FinishedProcedure:
    """The ``detail`` of the step that finished a procedure: what the dialog shows once
    the procedure's row is gone (its board as it ended, every step, the result)."""

    kind: str
    actor: str | None
    procedure: Procedure
    """The finished rules object (read-only)."""
    log: tuple[str, ...]
    """Every step taken, the last one included."""
    summary: str
    """The whole result, as journalled."""


# --- kinds of procedure -------------------------------------------------------------------


def _restore_fishing(campaign: Campaign, session: Session, saved: dict[str, Any]) -> Procedure:
    return FishingProcedure.from_state(saved["procedure"])


def _restore_mining(campaign: Campaign, session: Session, saved: dict[str, Any]) -> Procedure:
    return MiningProcedure.from_state(saved["procedure"])


def _restore_night(campaign: Campaign, session: Session, saved: dict[str, Any]) -> Procedure:
    from companion.rules.night_codec import decode

    try:  # the table at nightfall decides the cards in play, so a replay is exact
        game = decode(NightTable, saved["procedure"]["table"]).game
    except (KeyError, TypeError, ValueError):
        game = None
    return NightProcedure.from_state(saved["procedure"],
                                     night_facts(campaign, saved.get("challenge"), game,
                                                 session))


def _finish_activity(campaign: Campaign, session: Session, procedure: Procedure,
                     saved: dict[str, Any]) -> str:
    from companion.operations.effects import apply_outcome

    before = load_game(session, campaign.content)
    outcome = procedure.outcome()
    after, notes = apply_outcome(campaign, before, saved["actor"], outcome)
    save_game(session, campaign.content, before, after)
    # The whole outcome: its last lines alone lost "success, gain 1 fish" (issue 20).
    return f"{saved['actor']} finished {procedure.kind}: " + " ".join(
        dict.fromkeys([*outcome.log, *notes]))  # each line once, in order


def _finish_night(campaign: Campaign, session: Session, procedure: Procedure,
                  saved: dict[str, Any]) -> str:
    assert isinstance(procedure, NightProcedure)
    result = procedure.result()
    before = load_game(session, campaign.content)
    # Perished characters leave the game as legends; save_game writes the survivors.
    # Only those still in play: a character who left play while the Night went on (a
    # legend now) has no row to write back.
    in_play = {c.name for c in before.characters}
    survivors = tuple(c for c in result.game.characters if c.name in in_play)
    save_game(session, campaign.content, before, replace(result.game, characters=survivors))
    for legend in result.perished:
        record_legend(session, legend)
    for used in result.legends_used:  # Using Legend Cards: back to the unassigned legends
        card = session.get(models.Legend, int(used))
        if card is not None:
            card.assigned_to_id = None
    draw_pile = list(result.draw_pile)
    if result.reshuffled:
        chance, row = campaign.chance(session)
        draw_pile = chance.shuffle(draw_pile)
        campaign.save_chance(chance, row)
    deck = session.exec(select(models.DeckState).where(models.DeckState.deck == NIGHT_DECK)
                        ).first()
    if deck is None:
        session.add(models.DeckState(deck=NIGHT_DECK, draw_pile=[str(c) for c in draw_pile],
                                     discard=list(result.discard)))
    else:
        deck.draw_pile, deck.discard = [str(c) for c in draw_pile], list(result.discard)
    # Rulebook: Character Death: the journal keeps who perished, not only the last lines.
    perished = [f"{legend.name} perished and becomes a legend." for legend in result.perished]
    notes = [f"Read Codex outcome {n}." for n in result.read]
    notes += [f"{who} gained the item {item}." for who, item in result.items_gained]
    for hook in night_end_hooks():
        note = hook(campaign, session, result)
        if note:
            notes.append(note)
    tail = [line for line in result.log[-4:] if "is incapacitated, perishes" not in line]
    # Each thing once, in the order it happened: a line already in the tail is not said
    # again in other words (issue 27 item 22).
    said = " ".join(tail)
    notes = [n for n in notes if not (n.startswith("Read Codex outcome ") and
                                      f"Read outcome {n.split()[-1]}" in said)
             and not any(f"{who} gains the item {item}." in said and n.startswith(who)
                         and str(item) in n for who, item in result.items_gained)]
    return "The Night ends. " + " ".join(dict.fromkeys([*tail, *perished, *notes]))


KINDS: dict[str, Kind] = {
    "fishing": Kind(_restore_fishing, _finish_activity),
    "mining": Kind(_restore_mining, _finish_activity),
    "night": Kind(_restore_night, _finish_night),
}
"""The kinds of procedure this module rebuilds itself; :func:`kinds` adds those of the
chapters (foraging and delving, the behemoth's activation and encounter)."""

NightEndHook = Callable[[Campaign, Session, Any], str | None]


def kinds() -> dict[str, Kind]:
    """Every kind of procedure, by its name: the registry reads the chapters' kinds (so
    no chapter imports the registry). Imported when first needed: ``companion.operations``
    does not import every module up front."""
    from companion.operations import activities, behemoth

    return {**KINDS, **activities.KINDS, **behemoth.KINDS}


def night_end_hooks() -> tuple[NightEndHook, ...]:
    """Called at the end of the Night with its ``NightResult``, in the same transaction,
    in the rulebook's order (Night Phase Ends): the events the Night fired resolve, then
    the behemoth activates. Each may return a sentence for the journal."""
    from companion.operations.behemoth import night_end
    from companion.operations.society import resolve_night_events

    return (resolve_night_events, night_end)


def load(campaign: Campaign, session: Session) -> tuple[models.ProcedureState, Procedure]:
    """The row of the procedure in progress and the procedure rebuilt from it (Refused
    when there is none, or it cannot be resumed)."""
    row = procedure_row(session)
    if row is None:
        raise Refused("No procedure is in progress.")
    saved = row.state
    kind = kinds().get(saved.get("kind", ""))
    if kind is None:
        raise Refused(f"The procedure in progress ('{saved.get('kind')}') is not known to this "
                      "version of the companion.")
    try:
        return row, kind.restore(campaign, session, saved)
    except (IllegalAction, KeyError, ValueError, TypeError) as exc:
        raise Refused(f"The saved {saved.get('kind')} could not be resumed: {exc}") from exc


def current(campaign: Campaign) -> Procedure | None:
    """The procedure object in progress, read-only (for dialogs that draw its state)."""
    with campaign.file.read() as session:
        if procedure_row(session) is None:
            return None
        _, procedure = load(campaign, session)
    return procedure


def in_progress(campaign: Campaign) -> ProcedureView | None:
    """The procedure in progress, if any."""
    with campaign.file.read() as session:
        if procedure_row(session) is None:
            return None
        row, procedure = load(campaign, session)
        saved = row.state
    finished = procedure.is_finished()
    return ProcedureView(kind=saved["kind"], actor=saved.get("actor"),
                         step=None if finished else procedure.step(),
                         description=procedure.describe(), log=tuple(saved.get("log", [])))


def _finish_now(campaign: Campaign, session: Session) -> FinishedProcedure:
    """End the procedure in progress, which has nothing left to ask: its row goes and
    its result is written (the same finish a last step makes)."""
    row, procedure = load(campaign, session)
    saved = dict(row.state)
    session.delete(row)
    session.flush()
    text = kinds()[saved["kind"]].finish(campaign, session, procedure, saved)
    return FinishedProcedure(kind=saved["kind"], actor=saved.get("actor"),
                             procedure=procedure, log=tuple(saved.get("log", [])),
                             summary=text)


def _choice_text(step: Step, choice: Choice) -> str:
    if isinstance(choice, tuple):
        return " ".join(map(str, choice))
    return step.labels.get(choice, choice)


def _refuse_empty_deck(campaign: Campaign, *, saved_kind: str, step: Any) -> None:
    """A deck the campaign's pack holds no card of yet (my own box), or holds only in
    part (the cards typed so far), cannot be drawn by the app: the table draws and types
    it (Refused in game words, nothing changes)."""
    from companion.operations.box import deck_is_whole, empty_deck_refusal, not_whole_refusal

    if step.decider in (Decider.CARD, Decider.CHIP) and not step.options:
        kind = card_kind(saved_kind, step)
        if kind is not None:
            raise empty_deck_refusal(kind)
    if step.decider is Decider.CARD:
        kind = card_kind(saved_kind, step)
        if kind is not None and not deck_is_whole(campaign.content, kind):
            raise not_whole_refusal(kind)


def advance(campaign: Campaign, *, choice: Choice | None = None) -> Changes:
    """Answer the current step: ``choice`` typed at the table, or ``None`` on a chance
    step to let the app roll or draw. The result is written when the procedure ends."""
    with campaign.write("procedure.step", "procedure step") as session:
        row, procedure = load(campaign, session)
        if procedure.is_finished():
            # Nothing left to ask (a procedure saved finished, as a Night that began
            # with nothing to ask was): it ends now, or the game could never go on.
            done = _finish_now(campaign, session)
            session.info["journal_text"] = done.summary
            return Changes(summary=done.summary, procedure=True, characters=True,
                           society=True, journal=True, valley=True, detail=done)
        step = procedure.step()
        if isinstance(choice, str):  # a card typed by id or by name, in any case

            procedure, step, choice = take_typed(campaign, row.state, procedure, step, choice)
            refuse_unknown(campaign, row.state, procedure, step, choice)
        if choice is None:
            if step.decider is Decider.PLAYER:
                raise Refused(f"{step.prompt}: the players decide this step.")
            _refuse_empty_deck(campaign, saved_kind=str(row.state.get("kind", "")), step=step)
            chance, rng = campaign.chance(session)
            choice = draw_for(step, chance)
            campaign.save_chance(chance, rng)
        text, finished = take_step(campaign, session, row, procedure.apply(choice),
                                    f"{step.prompt.rstrip('.')}: {_choice_text(step, choice)}")
        session.info["journal_text"] = text
        kind = str(row.state.get("kind", "")) if finished is None else finished.kind
    # A finish may move a character or explore a hex (delving's exit): the board too.
    return Changes(summary=text, procedure=True, characters=True, society=True,
                   journal=True, valley=kind == "night" or finished is not None,
                   detail=finished)


def take_step(campaign: Campaign, session: Session, row: models.ProcedureState,
               procedure: Procedure, line: str) -> tuple[str, FinishedProcedure | None]:
    """Save ``procedure`` (the state after a step, logged as ``line``); once it is
    finished, its row goes and its kind's finish writes the result (the Night's end
    hooks run there). Returns the journal's text and the finished procedure, if any."""
    saved = dict(row.state)
    saved["log"] = [*saved.get("log", []), line]
    saved["procedure"] = procedure.to_state()
    text = f"{saved['kind'].replace('_', ' ').capitalize()}: {line}"
    if not procedure.is_finished():
        row.state = saved
        return text, None
    # The row goes first, so a finish (the Night's end) may begin the next procedure
    # (the behemoth's activation) in the same transaction.
    session.delete(row)
    session.flush()
    text = kinds()[saved["kind"]].finish(campaign, session, procedure, saved)
    return text, FinishedProcedure(kind=saved["kind"], actor=saved.get("actor"),
                                   procedure=procedure, log=tuple(saved["log"]),
                                   summary=text)


# --- starting procedures ---------------------------------------------------------------------


def _start_activity(campaign: Campaign, name: str, feature: str, action: FeatureAction,
                    build: Callable[[Session, Character], Procedure]) -> Changes:
    words = {FeatureAction.FISH: "fishing", FeatureAction.MINE: "mining"}[action]
    from companion.operations.activities import begin_activity, refuse_missing

    with campaign.write(f"{words}.start", words) as session:
        game, actor = begin_activity(campaign, session, name, feature, action)
        refuse_missing(campaign, action.value, feature)  # my own box: a deck it lacks
        character = game.character(name)
        procedure = build(session, actor)
        begin(session, words, procedure, actor=character.name, feature=feature)
        spent = character.energy - actor.energy
        session.info["journal_text"] = (f"{character.name} began {words} at the {feature} "
                                        f"({spent} energy)")
    return Changes(summary=f"{character.name} began {words} at the {feature}",
                   procedure=True, characters=True, journal=True)


def start_fishing(campaign: Campaign, *, name: str, feature: str) -> Changes:
    """Fish at a lake, river or wetlands (Rulebook: Fishing; D3, D15)."""
    content = campaign.content

    def build(session: Session, character: Character) -> Procedure:
        terrain = content.features[feature]
        if terrain.fishing is None:
            raise IllegalAction(f"no one fishes at a {feature}")
        return FishingProcedure.start(character.name, feature, terrain.fishing,
                                      content.fishing_cards.values(), tokens(campaign),
                                      content.rules.fishing.dice)

    return _start_activity(campaign, name, feature, FeatureAction.FISH, build)


def start_mining(campaign: Campaign, *, name: str, feature: str) -> Changes:
    """Mine at a cave, chasm, dried flats, moraine or mountain (Rulebook: Mining; D2, D14)."""
    content = campaign.content

    def build(session: Session, character: Character) -> Procedure:
        omens = tuple(Omen(o) for o in campaign.current_omens(session))
        return MiningProcedure.start(character.name, feature,
                                     chips_for(content.features[feature], content.materials),
                                     omens, tokens(campaign), content.rules.mining.max_draws)

    return _start_activity(campaign, name, feature, FeatureAction.MINE, build)


def start_night(campaign: Campaign) -> Changes:
    """End the Day and begin the Night (Rulebook: Game Structure > Night Phase).

    Refused until every character has passed. From here Day actions are refused until
    the Night ends; each step is saved, so the Night survives closing the app.
    """
    with campaign.write("night.start", "Night falls") as session:
        game = load_game(session, campaign.content)
        if not game.characters:  # a Night with no one in it would begin finished
            raise Refused("No character is in play, so there is no Day to end: each player "
                          "makes a new character first ('character create'; Rulebook: "
                          "Character Death).")
        if not day_rules.all_passed(game):
            waiting = [c.name for c in game.characters if c.name not in game.day.passed]
            raise Refused(f"The Day goes on until {', '.join(waiting)} "
                          f"{'passes' if len(waiting) == 1 else 'pass'}.")
        society = session.get(models.Society, 1)
        challenge = society.current_challenge_id if society else None
        table = _night_table(campaign, session, game, challenge)
        procedure = NightProcedure.start(night_facts(campaign, challenge, game, session),
                                         table)
        if procedure.is_finished():
            # Nothing to ask (no character can rest, eat or draw): the Night ends at
            # once, rather than leave a Night no step can answer.
            begin(session, "night", procedure, challenge=challenge)
            session.flush()
            ended = _finish_now(campaign, session).summary
            session.info["journal_text"] = f"Night falls. {ended}"
            return Changes(summary=f"Night falls. {ended}", procedure=True,
                           characters=True, society=True, journal=True, valley=True)
        begin(session, "night", procedure, challenge=challenge)
    return Changes(summary="Night falls", procedure=True, journal=True)


def _night_table(campaign: Campaign, session: Session, game: Game, challenge: str | None
                 ) -> NightTable:
    from companion.operations.behemoth import behemoth_at_night

    content = campaign.content
    deck = session.exec(select(models.DeckState).where(models.DeckState.deck == NIGHT_DECK)
                        ).first()
    hexes = {c.hex for c in game.characters if c.hex}
    features = {HexId(h): frozenset(FeatureId(f) for f in hex_features(campaign, game, h))
                for h in hexes}
    settings = session.get(models.Campaign, 1)
    card = content.challenges.get(challenge) if challenge else None
    return NightTable(
        game=game,
        draw_pile=tuple(NightCardId(c) for c in (deck.draw_pile if deck else
                                                 sorted(content.night_cards))),
        discard=tuple(NightCardId(c) for c in (deck.discard if deck else [])),
        hex_features=features,
        hardcore=bool(settings and settings.solo_variant == "hardcore"),
        starting_omens=(card.starting_omen,) if card else (),
        behemoth=behemoth_at_night(campaign, session),
        structure_shelter_hexes=night_shelters(content, game),
    )
