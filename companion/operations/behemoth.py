"""The behemoth in play: set-up, what the table sees of it, learning its habits and
secret, its activation at the end of the Night and the encounters it causes.

Rulebook: Behemoths (Behemoth Setup; Behemoth Overview; Behemoth Activation); readings
D16, D18, D20. The rules are :mod:`companion.rules.behemoth` and
:mod:`companion.rules.behemoth_procedures`; this module persists them.

Rows: one ``behemoth_state`` row per behemoth set up. ``hex_id`` / ``lair_hex_id`` are
``valley_hex`` ids; the lair's section is the ``overlay`` row of kind ``lair``;
``target`` holds the target token (``{"hex": id}``, ``{"character": name}`` or ``{}``)
and, only when the Reaction deck was shuffled back and its order is not fixed,
``"reaction_ordered": false``; ``habits_learned`` holds the outcome read when the
habits were learned (empty: not learned). A behemoth is *in play* while its row has a hex.

Procedures: ``"behemoth_activation"`` (begun by :func:`start_activation`, or by the
end-of-Night hook in the Night's last transaction) and ``"behemoth_encounter"``. One
procedure runs at a time, so the activation's finish begins the first encounter and
saves the characters still to meet in that encounter's extra state (``pending``); each
encounter's finish begins the next.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

from sqlmodel import Session, select

from companion.content.schema.base import Omen
from companion.content.schema.cards import Behemoth, InstinctCard
from companion.content.schema.effects import Effect, Gain, Lore
from companion.operations.changes import Changes, Refused
from companion.operations.core import Campaign
from companion.operations.effects import tokens
from companion.operations.procedure_row import PROCEDURE_ROW, Kind, begin, procedure_row
from companion.operations.state import HexIndex, load_game, save_game
from companion.operations.valley import load_valley, save_valley
from companion.rules import behemoth as rules
from companion.rules import society as society_rules
from companion.rules.behemoth import BehemothState, Target
from companion.rules.behemoth_procedures import ActivationProcedure, EncounterProcedure
from companion.rules.character import Character
from companion.rules.effects import Tally, describe_effect
from companion.rules.errors import IllegalAction
from companion.rules.exploration import Valley
from companion.rules.game import Game
from companion.rules.ids import CharacterName, HexId
from companion.rules.night import BehemothAtNight
from companion.rules.procedure import Procedure
from companion.store import models

ACTIVATION = "behemoth_activation"
ENCOUNTER = "behemoth_encounter"


# --- rows <-> the rules' BehemothState ------------------------------------------------------


def behemoth_rows(session: Session) -> list[models.BehemothState]:
    return list(session.exec(select(models.BehemothState)).all())


def _row_in_play(session: Session) -> models.BehemothState | None:
    for row in behemoth_rows(session):
        if row.hex_id is not None:
            return row
    return None


def _lair_section(session: Session, row: models.BehemothState) -> str:
    for overlay in session.exec(select(models.Overlay).where(
            models.Overlay.hex_id == row.lair_hex_id)).all():
        if overlay.kind == "lair" and overlay.section in ("a", "b", "c"):
            return str(overlay.section)
    return "a"


def state_from_row(session: Session, row: models.BehemothState) -> BehemothState:
    """The rules' view of a behemoth row."""
    hexes = HexIndex.read(session)
    target = dict(row.target or {})
    ordered = bool(target.pop("reaction_ordered", True))
    return BehemothState.from_data({
        "behemoth": row.behemoth_id,
        "hex": hexes.tile_of[row.hex_id] if row.hex_id is not None else "",
        "lair": {"hex": hexes.tile_of.get(row.lair_hex_id or -1, ""),
                 "section": _lair_section(session, row)},
        "instinct": row.instinct_card or "",
        "secret": row.secret_card or "",
        "secret_learned": row.secret_learned,
        "habits_learned": bool(row.habits_learned),
        "target": target or None,
        "boosts": dict(row.boosts or {}),
        "reaction_deck": list(row.reaction_deck or []),
        "reaction_ordered": ordered,
    })


def _set(row: Any, name: str, value: Any) -> None:
    # Only changed columns are written: the store journals every column it sees change.
    if getattr(row, name) != value:
        setattr(row, name, value)


def save_state(session: Session, campaign: Campaign, state: BehemothState,
               row: models.BehemothState | None = None) -> models.BehemothState:
    """Write ``state`` into its row (a new row if ``row`` is None)."""
    hexes = HexIndex.read(session)
    behemoth = campaign.content.behemoths.get(state.behemoth)
    if row is None:
        row = models.BehemothState(behemoth_id=state.behemoth)
        session.add(row)
    target: dict[str, Any] = dict(state.target.to_data()) if state.target else {}
    if not state.reaction_ordered:
        target["reaction_ordered"] = False
    _set(row, "name", behemoth.name if behemoth else state.behemoth)
    _set(row, "hex_id", hexes.row_of[str(state.hex)])
    _set(row, "lair_hex_id", hexes.row_of[str(state.lair[0])])
    _set(row, "target", target)
    _set(row, "instinct_card", state.instinct)
    _set(row, "secret_card", state.secret)
    _set(row, "secret_learned", state.secret_learned)
    learned = [str(behemoth.habits)] if state.habits_learned and behemoth else (
        ["habits"] if state.habits_learned else [])
    _set(row, "habits_learned", learned)
    _set(row, "boosts", {a.value: list(f) for a, f in state.boosts.items()})
    _set(row, "reaction_deck", list(state.reaction_deck))
    return row


def _in_play(campaign: Campaign, session: Session
             ) -> tuple[models.BehemothState, BehemothState, Behemoth]:
    row = _row_in_play(session)
    if row is None:
        raise Refused("No behemoth is in play; set one up first.")
    behemoth = campaign.content.behemoths.get(row.behemoth_id)
    if behemoth is None:
        raise Refused(f"The behemoth '{row.behemoth_id}' is not in the content pack.")
    return row, state_from_row(session, row), behemoth


def _instinct(campaign: Campaign, state: BehemothState) -> InstinctCard:
    card = campaign.content.instinct_cards.get(state.instinct)
    if card is None:
        raise Refused(f"The Instinct card '{state.instinct}' is not in the content pack.")
    return card


def _characters(game: Game) -> dict[CharacterName, HexId | None]:
    return {CharacterName(c.name): c.hex for c in game.characters}


# --- set up ----------------------------------------------------------------------------------


def set_up_behemoth(campaign: Campaign, *, behemoth: str, instinct: str | None = None,
                    secret: str | None = None, lair_hex: str | None = None,
                    lair_section: str = "a") -> Changes:
    """Put a behemoth into play (Rulebook: Behemoths > Behemoth Setup).

    Each card and the lair's hex is typed (what the table dealt or picked at random) or,
    left out, drawn by the app from the campaign's seeded generator; the Reaction deck is
    shuffled by the app when the app deals, and left unordered when the table dealt
    (the table draws what it draws). Refused for a behemoth already set up, or a lair hex
    that is not explored or has an overlay.
    """
    content = campaign.content
    board = content.behemoths.get(behemoth)
    if board is None:
        known = ", ".join(sorted(content.behemoths)) or "none"
        raise Refused(f"There is no behemoth '{behemoth}' in the content pack (known: {known}).")
    with campaign.write("behemoth.setup", f"{board.name} is set up") as session:
        earlier = None
        for row in behemoth_rows(session):
            if row.behemoth_id == behemoth and row.hex_id is not None:
                raise Refused(f"{board.name} has been set up already.")
            if row.behemoth_id == behemoth:
                earlier = row  # back in the box since an earlier challenge: set up again
        valley = load_valley(session)
        chance, rng = campaign.chance(session)
        drew: list[str] = []

        def deal(kind: str, typed: str | None, cards: Mapping[str, Any]) -> str:
            options = rules.deal_options(board, cards.values())
            if not options:
                raise IllegalAction(f"{board.name} has no {kind} cards in the content pack")
            if typed is None:
                from companion.operations.box import deck_is_whole, not_whole_refusal

                if not deck_is_whole(content, f"{kind.lower()}_cards"):
                    raise not_whole_refusal(f"{kind.lower()}_cards")  # issue 36 item 4
                drawn = chance.choice(options)
                drew.append(f"{kind} card drawn by the app")
                return drawn
            from companion.operations.typed_cards import resolve_card_id

            typed = resolve_card_id(content, f"{kind.lower()}_cards", typed)  # id or name
            if typed not in options:
                raise IllegalAction(f"{typed} is not one of {board.name}'s {kind} cards "
                                    f"({', '.join(options)})")
            return typed

        instinct_id = deal("Instinct", instinct, content.instinct_cards)
        secret_id = deal("Secret", secret, content.secret_cards)
        legal = rules.legal_lair_hexes(valley)
        if lair_hex is None:
            if not legal:
                raise IllegalAction("the lair goes in an explored hex with no overlays; "
                                    "there is none")
            lair_hex = chance.choice(legal)
            drew.append("lair hex drawn by the app")
        reactions = sorted((c for c in content.reaction_cards.values()
                            if str(c.behemoth) == behemoth), key=lambda c: str(c.id))
        app_deals = instinct is None and secret is None
        if app_deals:
            reactions = chance.shuffle(reactions)
        if lair_section not in ("a", "b", "c"):
            raise IllegalAction(f"a section is a, b or c; not {lair_section!r}")
        state, after = rules.set_up_behemoth(
            board, valley, instinct=content.instinct_cards[instinct_id],
            secret=content.secret_cards[secret_id], reactions=reactions,
            lair_hex=HexId(lair_hex), lair_section=lair_section,  # type: ignore[arg-type]
            shuffled=app_deals)
        if not valley.is_explored(HexId(lair_hex)):  # pragma: no cover (rules refuse first)
            raise IllegalAction(f"hex {lair_hex} is not explored")
        if drew:
            campaign.save_chance(chance, rng)
        save_valley(session, valley, after)
        session.flush()
        if instinct_id in content.instinct_cards and _target_is_lair(
                content.instinct_cards[instinct_id]):
            state = rules.set_target(state, rules.lair_target(state))
        if earlier is not None:
            # What the society learned of it stays learned (Journal > Behemoths).
            state = replace(state, habits_learned=bool(earlier.habits_learned),
                            secret_learned=earlier.secret_learned)
        save_state(session, campaign, state, earlier)
        card = content.instinct_cards[instinct_id]
        text = (f"{board.name} is set up: Instinct card {instinct_id} ({card.name}), a Secret "
                f"card face down, its lair in {lair_hex}" + (f" ({'; '.join(drew)})"
                                                            if drew else ""))
        session.info["journal_text"] = text
    return Changes(summary=text, valley=True, journal=True, behemoth=True)


def _target_is_lair(card: InstinctCard) -> bool:
    return "lair" in card.target.lower()


def set_target(campaign: Campaign, *, target: str | None) -> Changes:
    """Place the target token as the Instinct card instructs (Rulebook: Target Token):
    on a hex (its tile id), on a character (their name), or ``None`` to remove it."""
    with campaign.write("behemoth.target", "target token") as session:
        row, state, board = _in_play(campaign, session)
        game = load_game(session, campaign.content)
        valley = load_valley(session)
        token: Target | None
        if target is None or target == "":
            token = None
        elif any(c.name == target for c in game.characters):
            token = Target(character=CharacterName(target))
        elif target in valley and valley.tile_at(HexId(target)) is not None:
            token = Target(hex=HexId(target))
        else:
            raise Refused(f"Place the target token on a character or a hex of the valley; "
                          f"'{target}' is neither.")
        save_state(session, campaign, rules.set_target(state, token), row)
        text = (f"{board.name}'s target token is now on {token}" if token else
                f"{board.name}'s target token is removed")
        session.info["journal_text"] = text
    return Changes(summary=text, journal=True, behemoth=True)


# --- what the table sees ----------------------------------------------------------------------


@dataclass(frozen=True)
class BehemothView:
    """The behemoth in play as the GUI and the CLI show it (hidden cards stay hidden)."""

    behemoth: str
    name: str
    text: str
    abilities: Mapping[str, int]
    movement: Mapping[str, int]
    """Its movement value per feature (its board)."""
    hex: str
    lair: tuple[str, str]
    """(hex, section)."""
    target: str | None
    """The target token in words ("hex E05", "Ash"), None if not placed."""
    target_hex: str | None
    """The hex the target marks now."""
    instinct: str
    instinct_name: str
    instinct_target: str
    instinct_movement: str
    instinct_encounter: str
    instinct_text: str
    habits_learned: bool
    habits: str | None
    """The outcome to read for its habits (only once learned)."""
    secret_learned: bool
    secret: Mapping[str, str] | None
    """The Secret card (id, name, omen, text), only once learned."""
    boosts: Mapping[str, tuple[int, ...]]
    reaction_deck: int
    """Cards in the Reaction deck."""
    reaction_ordered: bool
    characters: Mapping[str, str | None]
    """Each character's hex."""
    end_hexes: Mapping[str, Fraction]
    """Exact probability of each hex where its next activation ends (sums to 1)."""
    reach: Mapping[str, Fraction]
    """Per character, the probability it enters their hex or ends there."""
    encounter: Mapping[str, Fraction]
    """Per character, the probability it encounters them (by its Instinct card)."""
    learn_habits_refusal: str | None
    """Why no character can learn its habits now (None: one can)."""
    learn_secret_refusal: str | None
    procedure: str | None = None
    """The behemoth procedure in progress ('behemoth_activation' ...), if any."""
    pending_encounters: tuple[str, ...] = field(default_factory=tuple)
    """Characters still to encounter it after the encounter in progress."""

    def to_data(self) -> dict[str, Any]:
        """JSON-safe (probabilities as "p/q" strings and floats)."""
        def odds(values: Mapping[str, Fraction]) -> dict[str, Any]:
            return {k: {"fraction": str(v), "probability": float(v)} for k, v in values.items()}

        data = {k: getattr(self, k) for k in self.__dataclass_fields__}
        data["end_hexes"] = odds(self.end_hexes)
        data["reach"] = odds(self.reach)
        data["encounter"] = odds(self.encounter)
        data["lair"] = list(self.lair)
        data["abilities"] = dict(self.abilities)
        data["movement"] = dict(self.movement)
        data["boosts"] = {k: list(v) for k, v in self.boosts.items()}
        data["characters"] = dict(self.characters)
        data["secret"] = None if self.secret is None else dict(self.secret)
        data["pending_encounters"] = list(self.pending_encounters)
        return data


def _movement_text(card: InstinctCard) -> str:
    if card.movement is None:
        return "does not move"
    roll = card.movement
    mod = f" {roll.modifier:+d}" if roll.modifier else ""
    return f"{roll.dice}d6{mod} movement points" if roll.dice else \
        f"{max(0, roll.modifier)} movement points"


def _preview(campaign: Campaign, state: BehemothState, board: Behemoth, card: InstinctCard,
             valley: Valley, characters: Mapping[CharacterName, HexId | None]
             ) -> tuple[dict[str, Fraction], dict[str, Fraction], dict[str, Fraction]]:
    movement = rules.movement_board(board, valley, campaign.content)
    target = rules.target_hex(state, characters)
    ends = rules.end_hex_distribution(state, movement, card.movement, target)
    reach = rules.reach_probability(state, movement, card.movement, target, characters)
    try:
        rule = rules.encounter_rule_from_text(card.encounter)
        met = rules.reach_probability(state, movement, card.movement, target, characters,
                                      rule=rule)
    except IllegalAction:
        met = {}
    order = sorted(ends.items(), key=lambda kv: (-kv[1], kv[0]))
    return ({str(k): v for k, v in order}, {str(k): v for k, v in reach.items()},
            {str(k): v for k, v in met.items()})


def night_only(name: str, what: rules.Knowledge) -> str:
    """Habits and secret are learned only at the end of a Night (Rulebook: Behemoths >
    Habits; Learning the Secret; D18): the Night offers it to the characters near."""
    verb = "are" if what == "habits" else "is"
    return (f"{name}'s {what} {verb} learned only at the end of a Night, by a character in "
            "its hex or next to it: the Night offers it then")


def _learn_refusal(campaign: Campaign, state: BehemothState, valley: Valley, game: Game,
                   what: rules.Knowledge) -> tuple[str | None, Character | None]:
    """(None, the first character who could learn at the end of a Night) or (the
    reason, None)."""
    reasons = []
    for character in game.characters:
        reason = rules.learn_refusal(campaign.content.rules, state, valley, what,
                                     character.hex, game.society.lore, who=character.name)
        if reason is None:
            return None, character
        reasons.append(reason)
    return (reasons[0] if reasons else "there is no character in play"), None


def behemoth_view(campaign: Campaign) -> BehemothView | None:
    """The behemoth in play (None if none), with the odds of its next activation."""
    with campaign.file.read() as session:
        row = _row_in_play(session)
        if row is None:
            return None
        board = campaign.content.behemoths[row.behemoth_id]
        state = state_from_row(session, row)
        card = _instinct(campaign, state)
        valley = load_valley(session)
        game = load_game(session, campaign.content)
        proc = session.exec(select(models.ProcedureState).where(
            models.ProcedureState.kind == PROCEDURE_ROW)).first()
        saved = proc.state if proc is not None else {}
    characters = _characters(game)
    ends, reach, met = _preview(campaign, state, board, card, valley, characters)
    secret = campaign.content.secret_cards.get(state.secret) if state.secret_learned else None
    # Outside the Night's end nobody learns: the reason says why, else when it can be.
    habits_refusal, _ = _learn_refusal(campaign, state, valley, game, "habits")
    secret_refusal, _ = _learn_refusal(campaign, state, valley, game, "secret")
    habits_refusal = habits_refusal or night_only(board.name, "habits")
    secret_refusal = secret_refusal or night_only(board.name, "secret")
    kind = saved.get("kind")
    target = rules.target_hex(state, characters)
    return BehemothView(
        behemoth=state.behemoth, name=board.name, text=board.text,
        abilities={a.value: v for a, v in board.abilities.items()},
        movement={str(f): v for f, v in board.movement.items()},
        hex=str(state.hex), lair=(str(state.lair[0]), state.lair[1]),
        target=None if state.target is None else str(state.target),
        target_hex=None if target is None else str(target),
        instinct=state.instinct, instinct_name=card.name, instinct_target=card.target,
        instinct_movement=_movement_text(card), instinct_encounter=card.encounter,
        instinct_text=card.text,
        habits_learned=state.habits_learned,
        habits=str(board.habits) if state.habits_learned else None,
        secret_learned=state.secret_learned,
        secret=None if secret is None else {"id": str(secret.id), "name": secret.name,
                                            "omen": secret.omen.value, "text": secret.text},
        boosts={a.value: tuple(f) for a, f in state.boosts.items()},
        reaction_deck=len(state.reaction_deck), reaction_ordered=state.reaction_ordered,
        characters={str(k): (None if v is None else str(v)) for k, v in characters.items()},
        end_hexes=ends, reach=reach, encounter=met,
        learn_habits_refusal=habits_refusal, learn_secret_refusal=secret_refusal,
        procedure=kind if kind in (ACTIVATION, ENCOUNTER) else None,
        pending_encounters=tuple(saved.get("pending", ())) if kind == ENCOUNTER else (),
    )


def behemoth_overlay_data(campaign: Campaign) -> dict[str, Any] | None:
    """What the map view draws (None: no behemoth in play): ``hex``, ``lair`` (hex,
    section), ``target`` (the hex the token marks, or None), ``target_token`` (the token
    in words), ``end_odds`` ({hex: float} for its next activation) and ``reach``
    ({character: float})."""
    view = behemoth_view(campaign)
    if view is None:
        return None
    return {
        "behemoth": view.behemoth, "name": view.name, "hex": view.hex,
        "lair": view.lair, "target": view.target_hex, "target_token": view.target,
        "end_odds": {h: float(p) for h, p in view.end_hexes.items()},
        "reach": {c: float(p) for c, p in view.reach.items()},
    }


@dataclass(frozen=True)
class SetUpOptions:
    """What the Set Up dialog offers: the behemoths not yet set up, their cards (ids
    only for the face-down Secret cards) and the hexes the lair may go in."""

    behemoths: Mapping[str, str]
    """Id -> name."""
    instincts: Mapping[str, tuple[tuple[str, str], ...]]
    """Behemoth id -> (card id, card name) of its Instinct cards."""
    secrets: Mapping[str, tuple[str, ...]]
    """Behemoth id -> its Secret card ids."""
    lair_hexes: tuple[str, ...]
    """Explored hexes with no overlays (Behemoth Setup > Place Lair)."""


def set_up_options(campaign: Campaign) -> SetUpOptions:
    """The choices :func:`set_up_behemoth` accepts now."""
    content = campaign.content
    with campaign.file.read() as session:
        done = {row.behemoth_id for row in behemoth_rows(session)}
        legal = rules.legal_lair_hexes(load_valley(session))
    boards = {b: board for b, board in content.behemoths.items() if b not in done}
    return SetUpOptions(
        behemoths={b: board.name for b, board in boards.items()},
        instincts={b: tuple((c, content.instinct_cards[c].name) for c in rules.deal_options(
            board, content.instinct_cards.values())) for b, board in boards.items()},
        secrets={b: tuple(rules.deal_options(board, content.secret_cards.values()))
                 for b, board in boards.items()},
        lair_hexes=tuple(str(h) for h in legal),
    )


# --- habits and secret (D18) ------------------------------------------------------------------


def _learn(campaign: Campaign, what: rules.Knowledge, name: str | None) -> Changes:
    """Asked outside the Night: refused, saying why and when (Rulebook: Behemoths >
    Habits; Learning the Secret; D18: only at the end of a Night, from the behemoth's hex
    or one next to it, which the Night itself offers; never during the Day)."""
    with campaign.file.read() as session:
        _, state, board = _in_play(campaign, session)
        busy = procedure_row(session)
        valley = load_valley(session)
        game = load_game(session, campaign.content)
    if busy is not None and busy.state.get("kind") == "night":
        raise Refused("The Night offers this at its end; answer it there.")
    if name is None:
        reason, _ = _learn_refusal(campaign, state, valley, game, what)
    else:
        who = game.character(name)
        reason = rules.learn_refusal(campaign.content.rules, state, valley, what, who.hex,
                                     game.society.lore, who=who.name)
    reason = reason or night_only(board.name, what)
    raise Refused(reason[0].upper() + reason[1:] + ".")


def learn_habits(campaign: Campaign, *, name: str | None = None) -> Changes:
    """Learn the behemoth's habits (Rulebook: Behemoths > Habits; D18): only at the end of
    a Night, by a character in its hex or next to it; the Night offers it then, so asked
    at any other time this is refused with the reason (lore, distance, or when)."""
    return _learn(campaign, "habits", name)


def learn_secret(campaign: Campaign, *, name: str | None = None) -> Changes:
    """Learn the behemoth's secret (Rulebook: Learning the Secret; D18): as
    :func:`learn_habits`, only at the end of a Night."""
    return _learn(campaign, "secret", name)


def behemoth_at_night(campaign: Campaign, session: Session) -> BehemothAtNight | None:
    """The behemoth in play as the Night sees it (its hex, the hexes next to it, what is
    known), for the Night's habits/secret offers; None if none is in play."""
    row = _row_in_play(session)
    if row is None:
        return None
    state = state_from_row(session, row)
    valley = load_valley(session)
    here = valley.locate(state.hex)
    adjacent = frozenset(HexId(t) for n in here.neighbours()
                         if (t := valley.tiles.get(n)) is not None)
    board = campaign.content.behemoths.get(state.behemoth)
    return BehemothAtNight(hex=state.hex, adjacent=adjacent,
                           habits_known=state.habits_learned,
                           secret_known=state.secret_learned,
                           habits_outcome=str(board.habits) if board else "")


# --- the activation -----------------------------------------------------------------------------


def _build_activation(campaign: Campaign, session: Session
                      ) -> tuple[ActivationProcedure, models.BehemothState, BehemothState]:
    row, state, board = _in_play(campaign, session)
    card = _instinct(campaign, state)
    if state.target is None and _target_is_lair(card):
        state = rules.set_target(state, rules.lair_target(state))
        save_state(session, campaign, state, row)
    game = load_game(session, campaign.content)
    procedure = ActivationProcedure.start(state, board, card, load_valley(session),
                                          campaign.content, _characters(game))
    return procedure, row, state


def _begin_activation(campaign: Campaign, session: Session) -> str:
    """Begin the activation inside an open write; finish it at once if nothing is asked."""
    procedure, _row, _state = _build_activation(campaign, session)
    if procedure.is_finished():
        return _finish_activation(campaign, session, procedure, {})
    begin(session, ACTIVATION, procedure)
    return f"{procedure.name} activates: {procedure.step().prompt}."


def start_activation(campaign: Campaign) -> Changes:
    """The behemoth activates (Rulebook: Behemoth Activation): its movement roll and any
    random tie-break are steps of the ``behemoth_activation`` procedure; the encounters it
    causes follow as ``behemoth_encounter`` procedures. Normally begun at the end of the
    Night; this starts it by hand (a Night played without the app, a card saying so)."""
    with campaign.write("behemoth.activate", "the behemoth activates") as session:
        text = _begin_activation(campaign, session)
        session.info["journal_text"] = text
    return Changes(summary=text, procedure=True, characters=True, society=True,
                   journal=True, behemoth=True)


def _restore_activation(campaign: Campaign, session: Session, saved: dict[str, Any]
                        ) -> Procedure:
    return ActivationProcedure.from_state(saved["procedure"])


def _finish_activation(campaign: Campaign, session: Session, procedure: Procedure,
                       saved: dict[str, Any]) -> str:
    assert isinstance(procedure, ActivationProcedure)
    result = procedure.result()
    row = _row_in_play(session)
    save_state(session, campaign, result.behemoth, row)
    session.flush()
    text = " ".join(procedure.log())
    if result.encountered:
        first, *rest = result.encountered
        text += " " + _begin_encounter(campaign, session, str(first), [str(n) for n in rest])
    return text


# --- encounters ----------------------------------------------------------------------------------


def _build_encounter(campaign: Campaign, session: Session, name: str) -> EncounterProcedure:
    _row, state, board = _in_play(campaign, session)
    game = load_game(session, campaign.content)
    character = game.character(name)
    secret = campaign.content.secret_cards.get(state.secret) if state.secret_learned else None
    omens = [Omen(o) for o in campaign.current_omens(session)]
    from companion.operations.state import read_legends

    return EncounterProcedure.start(campaign.content.rules, state, board,
                                    campaign.content.reaction_cards.values(), character,
                                    omens, secret, legends=read_legends(session))


def _begin_encounter(campaign: Campaign, session: Session, name: str,
                     pending: Sequence[str]) -> str:
    procedure = _build_encounter(campaign, session, name)
    begin(session, ENCOUNTER, procedure, actor=name, pending=list(pending))
    later = f" (then {', '.join(pending)})" if pending else ""
    return f"{name} encounters {procedure.name}{later}."


def start_encounter(campaign: Campaign, *, name: str) -> Changes:
    """``name`` encounters the behemoth (Rulebook: Reaction Deck; Contests, D16): a card
    effect or the table says so outside an activation."""
    with campaign.write("behemoth.encounter", f"{name} encounters the behemoth") as session:
        text = _begin_encounter(campaign, session, name, [])
        session.info["journal_text"] = text
    return Changes(summary=text, procedure=True, journal=True, behemoth=True)


def _restore_encounter(campaign: Campaign, session: Session, saved: dict[str, Any]
                       ) -> Procedure:
    return EncounterProcedure.from_state(saved["procedure"], campaign.content.rules)


def apply_effects(campaign: Campaign, game: Game, name: str, effects: Sequence[Effect]
                  ) -> tuple[Game, list[str]]:
    """Apply the effects the companion can to ``name`` and the society (through
    :mod:`companion.operations.effects`); returns the game and the sentences for the
    journal (what the table must still resolve)."""
    from companion.operations.effects import apply_outcome

    notes: list[str] = []
    kept: list[Effect] = []
    for effect in effects:
        if isinstance(effect, Lore) and effect.amount < 0:
            # Spending lore: an effect costing more than the society has is not activated.
            try:
                society = society_rules.spend_lore(campaign.content.rules, game.society,
                                                   -effect.amount)
                game = replace(game, society=society)
            except IllegalAction as exc:
                notes.append(f"Not applied: {exc}.")
        elif isinstance(effect, Gain) and str(effect.resource) not in tokens(
                campaign):
            notes.append(f"For the table: {describe_effect(effect)}.")
        else:
            kept.append(effect)
    outcome = Tally().apply(kept, tokens(campaign)).outcome()
    game, more = apply_outcome(campaign, game, name, outcome)
    return game, [*notes, *more]


def _finish_encounter(campaign: Campaign, session: Session, procedure: Procedure,
                      saved: dict[str, Any]) -> str:
    assert isinstance(procedure, EncounterProcedure)
    result = procedure.result()
    name = str(procedure.character.name)
    before = load_game(session, campaign.content)
    game = before.with_characters(
        replace(result.character, hex=before.character(name).hex))
    game, notes = apply_effects(campaign, game, name, result.effects)
    save_game(session, campaign.content, before, game)
    if result.contest is not None and result.contest.test.legend_used is not None:
        from companion.operations.state import release_legend

        release_legend(session, int(result.contest.test.legend_used))
    row = _row_in_play(session)
    if row is not None:
        save_state(session, campaign, result.behemoth, row)
    if result.codex is not None:
        notes.append(f"Read Codex {result.codex} if the secret applies ({result.codex.when}).")
    session.flush()
    text = " ".join([*procedure.log(), *notes])
    pending = [str(n) for n in saved.get("pending", [])]
    if pending:
        first, *rest = pending
        text += " " + _begin_encounter(campaign, session, first, rest)
    return text


# --- the end of the Night ----------------------------------------------------------------------


def night_end(campaign: Campaign, session: Session, result: Any) -> str | None:
    """Record what the Night learned, and begin the activation (Rulebook: Behemoth
    Activation: "At the end of each Night Phase, if the behemoth is in play, it
    activates")."""
    row = _row_in_play(session)
    if row is None:
        return None
    state = state_from_row(session, row)
    learned = tuple(getattr(result, "learned", ()))
    if learned:
        state = replace(state, habits_learned=state.habits_learned or "habits" in learned,
                        secret_learned=state.secret_learned or "secret" in learned)
        save_state(session, campaign, state, row)
        session.flush()
    try:
        return _begin_activation(campaign, session)
    except (Refused, IllegalAction) as exc:
        # The Night still ends: the table activates it by hand (start_activation).
        return f"The behemoth could not activate: {exc}"


KINDS = {ACTIVATION: Kind(_restore_activation, _finish_activation),
         ENCOUNTER: Kind(_restore_encounter, _finish_encounter)}
"""The behemoth's kinds of procedure, as the procedure registry rebuilds them."""

__all__ = [
    "BehemothView",
    "behemoth_overlay_data",
    "behemoth_view",
    "learn_habits",
    "learn_secret",
    "SetUpOptions",
    "set_target",
    "set_up_behemoth",
    "set_up_options",
    "start_activation",
    "start_encounter",
]
