"""Starting and checking the behemoth's procedures for the random-play test
(tests/rules/test_random_play.py runs them with every other engine)."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

from companion.content import Content
from companion.content.schema.base import Ability, Omen
from companion.rules.behemoth import (
    BehemothState,
    EncounterRule,
    Target,
    end_hex_distribution,
    legal_lair_hexes,
    set_up_behemoth,
)
from companion.rules.behemoth_procedures import ActivationProcedure, EncounterProcedure
from companion.rules.chance import Chance
from companion.rules.exploration import SECTIONS, Tray, Valley
from companion.rules.geometry import Axial
from companion.rules.ids import CharacterName, HexId
from companion.rules.procedure import Procedure
from tests.rules.factories import load_rules, make

SEEDS = range(120)
LIMIT = 200


# --- set up at random ---------------------------------------------------------------------

TRAYS = (
    (Axial(-2, 0), "east"),
    (Axial(-1, 1), "west"),
    (Axial(-1, 2), "east"),
    (Axial(1, -2), "west"),
    (Axial(1, -1), "east"),
    (Axial(2, 0), "west"),
)
"""Six trays packed in the hexes within 2 steps of the origin: eighteen hexes (the sample
pack has twenty tiles)."""


def random_valley(content: Content, chance: Chance) -> Valley:
    trays = tuple(Tray(i, "r", o, side) for i, (o, side) in enumerate(TRAYS))
    cells = [c for t in trays for c in t.cells()]
    tiles = chance.shuffle(sorted(content.hexes))[: len(cells)]
    explored = {c for c in cells if chance.choice([True, True, False])} | {cells[0]}
    return Valley(
        trays=trays,
        tiles={c: HexId(t) for c, t in zip(cells, tiles, strict=True)},
        explored=frozenset(explored),
    )


def random_behemoth(
    content: Content, chance: Chance, valley: Valley
) -> tuple[BehemothState, Valley]:
    behemoth = content.behemoths["rimeback"]
    instincts = sorted(c for c in content.instinct_cards if c.startswith("RB"))
    secrets = sorted(content.secret_cards)
    reactions = chance.shuffle(sorted(content.reaction_cards))
    return set_up_behemoth(
        behemoth,
        valley,
        instinct=content.instinct_cards[chance.choice(instincts)],
        secret=content.secret_cards[chance.choice(secrets)],
        reactions=[content.reaction_cards[c] for c in reactions],
        lair_hex=chance.choice(legal_lair_hexes(valley)),
        lair_section=chance.choice(SECTIONS),
        shuffled=chance.choice([True, False]),
    )


CHARACTERS = [CharacterName(n) for n in ("Ash", "Bo", "Cy")]


def start_activation(content: Content, chance: Chance) -> Procedure:
    valley = random_valley(content, chance)
    state, valley = random_behemoth(content, chance, valley)
    explored = sorted(t for c in valley.explored if (t := valley.tiles[c]) is not None)
    hexes = {n: chance.choice(explored) for n in CHARACTERS}
    target = chance.choice(
        [None, Target(character=chance.choice(CHARACTERS)), Target(hex=chance.choice(explored))]
    )
    state = replace(state, hex=chance.choice(explored), target=target)
    instinct = content.instinct_cards[state.instinct]
    rule = chance.choice([None, *EncounterRule])
    behemoth = content.behemoths["rimeback"]
    if chance.choice([True, False]):  # a behemoth at home anywhere: paths tie often
        behemoth = behemoth.model_copy(update={"movement": dict.fromkeys(behemoth.movement, 1)})
    return ActivationProcedure.start(
        state,
        behemoth,
        instinct,
        valley,
        content,
        hexes,
        rule=rule,
    )


def check_activation(proc: Procedure) -> None:
    assert isinstance(proc, ActivationProcedure)
    result = proc.result()
    assert result.spent <= result.points
    assert result.behemoth.hex == result.end
    if result.entered:
        assert result.end == result.entered[-1]
    odds = end_hex_distribution(proc.behemoth, proc.board, proc.roll, proc.target)
    assert sum(odds.values()) == 1 and odds.get(result.end, Fraction(0)) > 0


def start_encounter(content: Content, chance: Chance) -> Procedure:
    valley = random_valley(content, chance)
    state, _ = random_behemoth(content, chance, valley)
    boosts = {a: (chance.choice([1, 2]),) for a in Ability if chance.choice([True, False])}
    state = replace(state, boosts=boosts, secret_learned=chance.choice([True, False]))
    omens = [o for o in Omen if chance.choice([True, False, False])]
    char_boosts = {a: (chance.choice([1, 2]),) for a in Ability if chance.choice([True, False])}
    return EncounterProcedure.start(
        load_rules(),
        state,
        content.behemoths["rimeback"],
        content.reaction_cards.values(),
        make("Ash", boosts=char_boosts),
        omens,
        content.secret_cards[state.secret],
    )


def check_encounter(proc: Procedure) -> None:
    assert isinstance(proc, EncounterProcedure)
    result = proc.result()
    assert sorted(result.behemoth.reaction_deck) == sorted(proc.behemoth.reaction_deck)
    assert not result.behemoth.reaction_ordered
    if result.reaction is not None:
        card = proc.card(result.reaction)
        assert proc.resolvable(card)
        assert (result.contest is not None) == (card.contest is not None)
    assert all(not proc.resolvable(proc.card(c)) for c in result.set_aside)
    assert (result.codex is not None) == (result.reaction is not None and proc.secret is not None)
