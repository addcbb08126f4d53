"""Cards and structures in play during the Night (Rulebook: Night Phase; Building
Structures; Rest: "anything that grants shelter, such as a structure effect"; Unrest 16+).

From the content pack and the game at nightfall this builds what the Night engine
resolves in its order: effects "at the start/end of the Night phase" and those of the
steps between (a structure's or a slotted mantle power's ``night`` timing), and the hexes
whose structures grant shelter at Rest. The engine switches structure benefits off while
unrest is 16+ (D10), at the moment each applies.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from sqlmodel import Session

from companion.content import Content
from companion.operations import society_events
from companion.operations.state import read_legends
from companion.rules.game import Game
from companion.rules.ids import CharacterName, HexId, ItemId
from companion.rules.night import NightFacts, NightItem, TimedEffect
from companion.rules.outposts import OutpostStatus

if TYPE_CHECKING:
    from companion.operations.core import Campaign

SOCIETY_STEPS = frozenset({"lore", "activity", "unrest", "unlock", "culture", "read"})
"""Effect steps that act on the society, not on a character."""


def _active_structures(content: Content, game: Game) -> list[tuple[HexId, str, Any]]:
    found = []
    for outpost in game.outposts:
        if outpost.status is not OutpostStatus.ACTIVE:
            continue
        for structure in outpost.structures:
            card = content.structures.get(structure)
            if card is not None:
                found.append((outpost.hex, outpost.name, card))
    return found


def structure_shelter_hexes(campaign: Any, game: Game) -> frozenset[HexId]:
    """Hexes whose active outpost has a structure granting shelter (unrest below 16)."""
    from companion.rules.society import unrest_effects

    content = campaign.content if hasattr(campaign, "content") else campaign
    if unrest_effects(content.rules, game.society.unrest).structures_disabled:
        return frozenset()
    return _shelters(content, game)


def _shelters(content: Content, game: Game) -> frozenset[HexId]:
    return frozenset(h for h, _, card in _active_structures(content, game) if card.shelter)


def night_shelters(content: Content, game: Game) -> frozenset[HexId]:
    """For the Night's table: every structure shelter (the engine checks unrest 16+)."""
    return _shelters(content, game)


def _timed(source: str, card: Any, stage: str, *, structure: bool,
           characters: Sequence[CharacterName]) -> list[TimedEffect]:
    effects = tuple(card.effects)
    omen = getattr(card, "omen", None)
    if not effects or all(e.do in SOCIETY_STEPS for e in effects):
        return [TimedEffect(source, card.text, effects, None, stage, structure, omen)]
    return [TimedEffect(source, card.text, effects, name, stage, structure, omen)
            for name in characters]


def cards_in_play(content: Content, game: Game) -> list[TimedEffect]:
    """Every Night effect of the structures at active outposts and of the characters'
    slotted mantle powers, in the order the table lays them out (outposts, then
    characters)."""
    timed: list[TimedEffect] = []
    for hex_, outpost, card in _active_structures(content, game):
        if card.night is None:
            continue
        here = [c.name for c in game.characters if c.hex == hex_]
        timed += _timed(f"{card.name} ({outpost})", card, card.night, structure=True,
                        characters=here)
    for character in game.characters:
        power = content.mantle_powers.get(character.mantle_power or "")
        if power is None or power.night is None:
            continue
        timed += _timed(f"{character.name}'s mantle power {power.name}", power, power.night,
                        structure=False, characters=[character.name])
    return timed


def split(timed: Sequence[TimedEffect]) -> tuple[tuple[TimedEffect, ...],
                                                 tuple[TimedEffect, ...],
                                                 tuple[TimedEffect, ...]]:
    """(at the start, at the end, during another step) of the Night."""
    return (tuple(t for t in timed if t.stage == "start"),
            tuple(t for t in timed if t.stage == "end"),
            tuple(t for t in timed if t.stage not in ("start", "end")))


def night_facts(campaign: Campaign, challenge_id: str | None,
                game: Game | None = None, session: Session | None = None) -> NightFacts:
    """The content the Night reads (not saved with it; rebuilt on resume from the table
    at nightfall): the cards, items, events, and the Night effects of the structures and
    mantle powers in play (above)."""
    content = campaign.content
    items = {ItemId(i.id): NightItem(i.id, i.night_actions, i.storage)  # type: ignore[arg-type]
             for i in content.items.values() if i.night_actions or i.storage}
    at_start, at_end, during = split(cards_in_play(content, game)) if game else ((), (), ())
    legends = {}
    if session is not None:
        legends = {card.id: card for card in read_legends(session)}
    events = tuple(society_events.challenge_events(content, challenge_id))
    # Immediate and Societal events fire inside the Night as soon as reached (Set Up; D7).
    steps = {e.id: tuple(society_events.event_effects(content, e.id)) for e in events}
    texts = {e.id: society_events.event_text(content, e.id) for e in events}
    from companion.operations.box import deck_is_whole

    return NightFacts(content.rules, dict(content.night_cards), items,
                      society_events.resources(content),
                      events, at_start=at_start, at_end=at_end, during=during,
                      legends=legends, event_steps=steps, event_texts=texts,
                      deck_whole=deck_is_whole(content, "night_cards"))
