"""Setting up a game (Rulebook: Set Up): the first terrain tray, choosing and setting up
a challenge; and the demo campaign built with the same operations."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from sqlmodel import Session, col, select

from companion.content.schema.base import Ability
from companion.content.schema.cards import Challenge
from companion.operations.changes import Changes, Refused
from companion.operations.characters import create_character, roll_dice
from companion.operations.core import NIGHT_DECK, Campaign
from companion.operations.files import add_journal_entry, new_campaign
from companion.operations.state import MANTLE_POWER_WINDOW
from companion.operations.valley import save_valley
from companion.rules import challenge as challenge_rules
from companion.rules import exploration
from companion.rules.errors import IllegalAction
from companion.rules.ids import ChallengeId, GoalId, HexId, MantleId
from companion.store import models


def set_up_valley(campaign: Campaign, *, region: str,
                  face_down: Sequence[str] | None = None) -> Changes:
    """Place the first terrain tray (Rulebook: Set Up > Determine Starting Hex).

    The region's starting hex goes in the tray with two more hexes of that region, face
    down: typed from the table (``face_down``) or drawn at random by the app.
    """
    content = campaign.content
    if region not in content.regions:
        raise Refused(f"There is no region '{region}' in the content pack.")
    others = content.rules.valley.tray_slots - 1
    _refuse_untyped_start(campaign, region, face_down, others)
    start = content.starting_hex(region)
    pool = sorted(t.id for t in content.hexes.values() if t.region == region and not t.starting)
    with campaign.write("valley.setup", f"The valley begins in {content.regions[region].name}"
                        ) as session:
        if session.exec(select(models.ValleyTray)).first() is not None:
            raise Refused("The valley already has its first terrain tray.")
        if face_down is None:
            chance, row = campaign.chance(session)
            tiles = [HexId(t) for t in chance.shuffle(pool)[:others]]
            campaign.save_chance(chance, row)
        else:
            tiles = [HexId(t) for t in face_down]
        valley = exploration.first_tray(content, region, tiles)
        save_valley(session, exploration.Valley(), valley)
    # The tiles the app drew stay face down, in the result too (Valley > Hexes).
    shown = (start.id, *tiles) if face_down is not None else (start.id,)
    return Changes(summary=f"First tray: starting hex {start.id} and {others} face-down hexes",
                   valley=True, journal=True, detail=shown)


def _refuse_untyped_start(campaign: Campaign, region: str, face_down: Sequence[str] | None,
                          others: int) -> None:
    """My own box: the starting tile is typed before the first tray (its id, name and
    features), and the face-down tiles are the ones the table placed: their ids."""
    content = campaign.content
    name = content.regions[region].name
    if not any(t.region == region and t.starting for t in content.hexes.values()):
        raise Refused(f"Type the starting tile of {name} first: the id printed on it, its "
                      "name and the terrain feature in each section.")
    if exploration.typed_tile_count(content, region) is not None and not face_down:
        raise Refused(f"Type the ids printed on the {others} tiles you placed face down "
                      f"beside the starting tile (the table draws them from the bag).")


def eligible_challenges(campaign: Campaign) -> list[str]:
    """The challenges the group may choose now (Rulebook: Set Up > Select Challenge)."""
    with campaign.file.read() as session:
        looming, games = _looming(campaign, session)
    return list(challenge_rules.eligible_challenges(looming, games))


def unknown_looming(campaign: Campaign) -> list[str]:
    """Looming challenges the outcome named that the content has no card for (typed at
    End Challenge from the Codex): each is started by entering its card."""
    with campaign.file.read() as session:
        rows = session.exec(select(models.LoomingChallenge)).all()
    return [i for i in dict.fromkeys(r.challenge_id for r in rows)
            if i not in campaign.content.challenges]


def _looming(campaign: Campaign, session: Session, typed: Challenge | None = None
             ) -> tuple[list[challenge_rules.LoomingChallenge], int]:
    """The looming challenges the app knows, with their priority, and the number of the
    game being set up. ``typed``: a challenge card typed from the box, counted as known
    (it looms if the last outcome named it, or before the society's first game)."""
    content = campaign.content
    society = session.get(models.Society, 1) or models.Society()
    rows = session.exec(select(models.LoomingChallenge)).all()
    played = session.exec(select(models.ChallengeLogEntry)).first() is not None
    # Before the first game every challenge of the pack looms (the Quickplay Guide's
    # first challenge is the one with priority closest to 1).
    ids = [r.challenge_id for r in rows] if (rows or played) else list(content.challenges)
    known = dict(content.challenges)
    if typed is not None:
        known[typed.id] = typed
        if not (rows or played):
            ids.append(typed.id)
    looming = [challenge_rules.LoomingChallenge(ChallengeId(i), known[i].priority)
               for i in dict.fromkeys(ids) if i in known]
    return looming, society.games_this_epoch + 1


def check_typed_choice(campaign: Campaign, session: Session, card: Challenge) -> None:
    """Refuse a challenge typed from its card that the priority rule does not allow now
    (Rulebook: Set Up > Select Challenge), before anything is written."""
    looming, games = _looming(campaign, session, card)
    try:
        challenge_rules.choose_challenge(looming, games, ChallengeId(card.id))
    except IllegalAction as exc:
        named = ", ".join(r.challenge_id for r in session.exec(
            select(models.LoomingChallenge)).all())
        raise Refused(f"{card.name} ({card.id}) cannot be started now: {exc}"
                      + (f". The looming challenges are {named}" if named else
                         ". No challenge looms: End Challenge's outcome names them")
                      + ".") from exc


def start_challenge(campaign: Campaign, *, challenge: str,
                    placements: Mapping[str, str] | None = None,
                    mantles: Mapping[str, str] | None = None,
                    mantle_powers: Mapping[str, str] | None = None) -> Changes:
    """Choose and set up a challenge (Rulebook: Set Up > Select Challenge, Set Up
    Challenge, Set Up Vital and Epoch Goals; Determine Starting Hex and Place Characters;
    Retaining Supplies).

    Vital goals go into play, set-aside goals stay sealed, epoch goals set aside earlier
    in the epoch (and Quelling the Embers at unrest 6+, D10) come back into play; the
    Night deck is shuffled and activity starts at 0. Characters carried over from the last
    challenge begin ready (full energy, less 1 at unrest 6+; no injuries or diseases) in
    the starting hex or the hex of an outpost (``placements``: name -> hex; the starting
    hex by default), and take up the supplies they retained (once).

    Each player chooses a mantle (``mantles``: name -> mantle id or name; a character
    not named continues with the mantle used previously; Mantle > Mantle Board); boosts
    end with the last challenge. At the start of any challenge after the first, after
    the mantles, each player may slot an unlocked power of the mantle
    (``mantle_powers``: name -> power id or name; Continuing Play > Mantle Power), now or
    with ``legends.choose_mantle_power`` until the first Day is under way.
    """
    content = campaign.content
    card = content.challenges.get(challenge)
    if card is None:
        raise Refused(f"There is no challenge '{challenge}' in the content pack: if it is "
                      "a card the app does not know yet, enter it from the card "
                      "(Start Challenge > a challenge card the app doesn't know yet; "
                      "'challenge start --enter-card').")
    allowed = campaign.starting_hexes()
    with campaign.write("challenge.start", f"The challenge '{card.name}' begins") as session:
        notes = set_up_challenge(campaign, session, card, allowed, placements=placements,
                                 mantles=mantles, mantle_powers=mantle_powers)
        if notes:
            session.info["journal_text"] = f"The challenge '{card.name}' begins. " + \
                " ".join(notes)
    return Changes(summary=" ".join([f"The challenge '{card.name}' begins.", *notes]),
                   society=True, challenge=True, journal=True, characters=True)


def refuse_start(campaign: Campaign, session: Session) -> None:
    """Refused while a procedure is under way or a challenge is being played (checked
    before anything is written, e.g. a challenge card typed from the box)."""
    from companion.operations.procedure_row import refuse_during_procedure

    refuse_during_procedure(session, "A new challenge")
    society = session.get(models.Society, 1)
    if society is not None and society.current_challenge_id:
        current = campaign.content.challenges.get(society.current_challenge_id)
        raise Refused(f"The challenge '{current.name if current else '?'}' is still being "
                      "played; end it first.")


def set_up_challenge(campaign: Campaign, session: Session, card: Challenge,
                     allowed: Sequence[str], *,
                     placements: Mapping[str, str] | None = None,
                     mantles: Mapping[str, str] | None = None,
                     mantle_powers: Mapping[str, str] | None = None) -> list[str]:
    """Set up the challenge ``card`` in ``session`` (the body of :func:`start_challenge`,
    shared with a card typed from the box); returns the notes for the journal."""
    content = campaign.content
    refuse_start(campaign, session)
    campaign_row = session.get(models.Campaign, 1) or models.Campaign()
    society = session.get(models.Society, 1)
    assert society is not None
    looming, games = _looming(campaign, session)
    challenge_rules.choose_challenge(looming, games, ChallengeId(card.id))
    set_aside = [g.goal_id for g in session.exec(select(models.GoalState).where(
        models.GoalState.state == "set_aside")).all()]
    table = challenge_rules.set_up_challenge(
        content.rules,
        challenge_rules.ChallengeFacts(
            id=ChallengeId(card.id),
            vital_goals=tuple(GoalId(g) for g in card.vital_goals),
            set_aside_goals=tuple(GoalId(g) for g in card.set_aside_goals)),
        [GoalId(g) for g in (*set_aside, *card.epoch_goals)], society.unrest)
    _place_goals(session, table, campaign_row.epoch)
    for row in session.exec(select(models.LoomingChallenge).where(
            models.LoomingChallenge.challenge_id == card.id)).all():
        session.delete(row)
    society.current_challenge_id = card.id
    society.games_this_epoch += 1
    society.activity = 0
    society.triggered_events = []
    # The Challenge Log names the characters who play it (those made later join it).
    playing = [c.name for c in session.exec(select(models.Character)).all()
               if c.status == "active"]
    session.add(models.ChallengeLogEntry(epoch=campaign_row.epoch, challenge_id=card.id,
                                         characters=playing))
    _shuffle_night_deck(campaign, session)
    notes = _apply_setup(card, campaign_row)
    later = len(session.exec(select(models.ChallengeLogEntry)).all()) > 1
    notes += _ready_characters(campaign, session, allowed, placements or {},
                               society.unrest, _mantle_ids(campaign, mantles or {}))
    notes += _slot_powers(campaign, session, mantle_powers or {}, later)
    settings = dict(campaign_row.settings or {})
    settings.pop(MANTLE_POWER_WINDOW, None)
    if later:
        settings[MANTLE_POWER_WINDOW] = card.id
    campaign_row.settings = settings
    return notes


def _mantle_ids(campaign: Campaign, typed: Mapping[str, str]) -> dict[str, MantleId]:
    """Mantles typed by id or name, in any case."""
    mantles = campaign.content.mantles
    out = {}
    for name, text in typed.items():
        found = next((m.id for m in mantles.values()
                      if text.strip().casefold() in (m.id.casefold(), m.name.casefold())), None)
        if found is None:
            raise Refused(f"There is no mantle '{text}': choose "
                          f"{', '.join(m.name for m in mantles.values())}.")
        out[name] = MantleId(found)
    return out


def _slot_powers(campaign: Campaign, session: Session, typed: Mapping[str, str],
                 later: bool) -> list[str]:
    """Mantle powers chosen with the mantles (Continuing Play > Mantle Power)."""
    from companion.operations.state import mantle_power_id, slot_power

    if not typed:
        return []
    if not later:
        raise Refused("This is the society's first challenge: mantle powers are chosen "
                      "at the start of the challenges after it.")
    return [slot_power(campaign.content, session, name,
                       mantle_power_id(campaign.content, power))
            for name, power in typed.items()]


def _ready_characters(campaign: Campaign, session: Session, allowed: Sequence[str],
                      placements: Mapping[str, str], unrest: int,
                      mantles: Mapping[str, MantleId]) -> list[str]:
    """The characters carried over begin ready, placed, with their retained supplies,
    each in the mantle chosen."""
    from dataclasses import replace

    from companion.operations.challenge import claim_in_session
    from companion.operations.state import load_game, save_game

    content = campaign.content
    before = load_game(session, content)
    names = {c.name for c in before.characters}
    unknown = [n for n in placements if n not in names]
    if unknown:
        raise Refused(f"There is no character {', '.join(unknown)} to place.")
    if not before.characters:
        return []
    start = next(iter(allowed), None)
    ready = []
    for character in before.characters:
        hex_ = placements.get(character.name, start)
        character = challenge_rules.ready_for_next_challenge(content.rules, character, unrest)
        if hex_ is not None:
            if hex_ not in allowed:
                raise Refused(f"{character.name} begins in the starting hex or a hex with an "
                              f"outpost ({', '.join(allowed)}); {hex_} is neither.")
            character = replace(character, hex=HexId(hex_))
        ready.append(character)
    try:
        ready = list(challenge_rules.choose_mantles(
            ready, mantles, [MantleId(m) for m in content.mantles]))
    except IllegalAction as exc:
        raise Refused(_mantle_words(campaign, str(exc))) from exc
    save_game(session, content, before, replace(before, characters=tuple(ready)))
    notes = [f"{c.name} begins in {c.hex} with {c.energy} energy"
             + (f" in the {_mantle_name(campaign, c.mantle)} mantle" if c.mantle else "")
             + "." for c in ready if c.hex]
    for character in ready:
        notes += claim_in_session(campaign, session, character.name)
    return notes


def _mantle_name(campaign: Campaign, mantle: str | None) -> str:
    card = campaign.content.mantles.get(mantle or "")
    return card.name if card is not None else str(mantle)


def _mantle_words(campaign: Campaign, text: str) -> str:
    """A refusal with the mantles' card names."""
    for mantle in campaign.content.mantles.values():
        text = text.replace(f"mantle {mantle.id}", f"{mantle.name} mantle")
    return text[0].upper() + text[1:] + "."


def _apply_setup(card: object, campaign_row: models.Campaign) -> list[str]:
    """The challenge card's back: apply what the effect vocabulary makes mechanical
    (unlocking Delving); everything else is read aloud from its text."""
    notes = []
    for effect in getattr(card, "setup", ()):
        if getattr(effect, "do", "") == "unlock" and getattr(effect, "flag", "") == "delving":
            campaign_row.delving_unlocked = True
        if getattr(effect, "text", ""):
            notes.append(f"{effect.text}.")
    return notes


def _place_goals(session: Session, table: challenge_rules.ChallengeTable, epoch: int) -> None:
    # GoalState.state: 'vital' and 'epoch' goals are in play, 'sealed' goals sit unread
    # above the challenge, 'set_aside' epoch goals wait for the next game of the epoch.
    existing = {g.goal_id: g for g in session.exec(select(models.GoalState)).all()}
    wanted = [(g, "vital") for g in table.vital_goals] + \
        [(g, "sealed") for g in table.set_aside_goals] + [(g, "epoch") for g in table.epoch_goals]
    for goal, state in wanted:
        row = existing.get(goal)
        if row is None:
            session.add(models.GoalState(goal_id=goal, state=state, epoch=epoch))
        elif row.state != "completed":
            row.state = state


def _shuffle_night_deck(campaign: Campaign, session: Session) -> None:
    chance, rng = campaign.chance(session)
    order = chance.shuffle(sorted(campaign.content.night_cards))
    campaign.save_chance(chance, rng)
    deck = session.exec(select(models.DeckState).where(models.DeckState.deck == NIGHT_DECK)
                        ).first()
    if deck is None:
        session.add(models.DeckState(deck=NIGHT_DECK, draw_pile=order, discard=[]))
    else:
        deck.draw_pile, deck.discard = order, []


# --- the demo campaign ------------------------------------------------------------------

DEMO_CHARACTERS = (
    ("Ash", "Player 1", "intrepid", (Ability.MIGHT, Ability.DEXTERITY, Ability.AWARENESS,
                                     Ability.CONVICTION)),
    ("Bryn", "Player 2", "wise", (Ability.AWARENESS, Ability.CONVICTION, Ability.DEXTERITY,
                                  Ability.MIGHT)),
)


def create_demo_campaign(path: Path, *, extra_content: Sequence[Path] = (),
                         seed: int = 2026) -> Campaign:
    """A small campaign from the sample pack, made with the ordinary operations: the
    first tray, the first challenge, two characters with app-rolled dice."""
    campaign = new_campaign(Path(path), society_name="The Ember Folk", players=2,
                            characters=2, seed=seed, extra_content=extra_content)
    try:
        content = campaign.content
        region = next(iter(content.regions))
        start = set_up_valley(campaign, region=region).detail[0]  # type: ignore[index]
        start_challenge(campaign, challenge=eligible_challenges(campaign)[0])
        mantles = list(content.mantles)
        for number, (name, player, trait, order) in enumerate(DEMO_CHARACTERS):
            rolled = roll_dice(campaign, count=content.rules.character_creation.dice_rolled,
                               purpose=f"{name}'s abilities").detail
            assert isinstance(rolled, tuple)
            removed = rolled.index(min(rolled))
            kept = sorted(rolled[:removed] + rolled[removed + 1:], reverse=True)
            traits = [trait]
            if sum(kept) <= content.rules.character_creation.second_trait_max_sum:
                # Step 2: low abilities call for a second trait.
                traits.append(next(t for t in content.traits if t != trait))
            create_character(campaign, name=name, player=player, rolled=rolled,
                             removed=removed, assignment=dict(zip(order, kept, strict=True)),
                             traits=traits, mantle=mantles[number % len(mantles)],
                             hex_tile=start)
        add_journal_entry(campaign, text="The Ember Folk set out into the thawing valley.",
                          author="Player 1")
    except (Refused, IllegalAction):
        campaign.close()
        raise
    return campaign


def mantle_powers_offered(campaign: Campaign) -> bool:
    """The next challenge is not the society's first: its players may choose mantle
    powers after the mantles (Continuing Play > Mantle Power)."""
    with campaign.file.read() as session:
        return session.exec(select(models.ChallengeLogEntry)).first() is not None


def challenge_in_play(campaign: Campaign) -> str | None:
    """The id of the challenge being played, if any."""
    with campaign.file.read() as session:
        society = session.get(models.Society, 1)
        return society.current_challenge_id if society else None


def goals(campaign: Campaign) -> list[tuple[str, str]]:
    """(goal id, state) of every goal the society has met, in order."""
    with campaign.file.read() as session:
        return [(g.goal_id, g.state) for g in session.exec(
            select(models.GoalState).order_by(col(models.GoalState.id))).all()]
