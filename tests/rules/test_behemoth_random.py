"""Random play over the behemoth's procedures (the checks of test_random_play.py).

For many seeds the activation and the encounter are set up at random from the sample
pack and played to their end, chance drawn from a seeded :class:`Chance`. At every step:
the procedure survives a JSON round trip of ``to_state``; an unfinished procedure asks
for something; illegal inputs are refused with IllegalAction and change nothing. The same
seed replays the same end, and typing the same inputs (as at the table) does too.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

import pytest

from companion.content import Content, load_content
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
from companion.rules.errors import IllegalAction
from companion.rules.exploration import SECTIONS, Tray, Valley
from companion.rules.geometry import Axial
from companion.rules.ids import CharacterName, HexId
from companion.rules.procedure import Choice, Decider, Procedure, Step, draw_for, run_to_end
from tests.rules.factories import load_rules, make

SEEDS = range(120)
LIMIT = 200


@dataclass(frozen=True)
class Engine:
    """A procedure engine under random play."""

    name: str
    start: Callable[[Content, Chance], Procedure]
    from_state: Callable[[Mapping[str, Any]], Procedure]
    check_end: Callable[[Procedure], None] = lambda proc: None


@pytest.fixture(scope="session")
def content() -> Content:
    return load_content("sample")


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


ENGINES = [
    Engine(
        "behemoth_activation", start_activation, ActivationProcedure.from_state, check_activation
    ),
    Engine(
        "behemoth_encounter",
        start_encounter,
        lambda state: EncounterProcedure.from_state(state, load_rules()),
        check_encounter,
    ),
]


# --- the invariants (as in test_random_play.py) ----------------------------------------------


def illegal_inputs(step: Step) -> list[Choice]:
    if step.decider is Decider.DICE:
        return ["1", (), (1,) * (step.count + 1), (7,) * step.count, (0,) * step.count]
    return ["\x00not-an-option", "", (1,), tuple(range(len(step.options)))]


def check_step(engine: Engine, proc: Procedure) -> None:
    state = proc.to_state()
    assert state["kind"] == proc.kind == engine.name
    again = engine.from_state(json.loads(json.dumps(state)))
    assert again == proc and again.to_state() == state
    assert proc.describe()
    if proc.is_finished():
        with pytest.raises(IllegalAction):
            proc.apply("\x00not-an-option")
        return
    step = proc.step()
    if step.decider is Decider.DICE:
        assert step.count > 0
    else:
        assert step.options, step.prompt
        assert len(set(step.options)) == len(step.options)
        assert set(step.labels) <= set(step.options)
    for bad in illegal_inputs(step):
        with pytest.raises(IllegalAction):
            proc.apply(bad)
    assert proc == again and proc.to_state() == state  # a refusal changed nothing


def random_play(engine: Engine, content: Content, seed: int) -> tuple[Procedure, list[Choice]]:
    chance = Chance(seed)
    proc = engine.start(content, chance)
    choices: list[Choice] = []
    for _ in range(LIMIT):
        check_step(engine, proc)
        if proc.is_finished():
            engine.check_end(proc)
            return proc, choices
        step = proc.step()
        if step.decider is Decider.PLAYER:
            choice: Choice = chance.choice(list(step.options))
        else:
            choice = draw_for(step, chance)
        choices.append(choice)
        proc = proc.apply(choice)
    raise AssertionError(f"{engine.name} did not finish within {LIMIT} steps")


@pytest.mark.parametrize("engine", ENGINES, ids=lambda e: e.name)
def test_random_play(engine: Engine, content: Content) -> None:
    for seed in SEEDS:
        try:
            end, _ = random_play(engine, content, seed)
            chance = Chance(seed)
            replay = run_to_end(engine.start(content, chance), chance)
            assert replay == end and replay.outcome() == end.outcome()
        except AssertionError as exc:
            raise AssertionError(f"{engine.name}, seed {seed}: {exc}") from exc


@pytest.mark.parametrize("engine", ENGINES, ids=lambda e: e.name)
def test_random_play_replays_the_table(engine: Engine, content: Content) -> None:
    """Typing in the same dice and cards (as at the table) reaches the same end."""
    for seed in range(20):
        end, choices = random_play(engine, content, seed)
        proc = engine.start(content, Chance(seed))
        for choice in choices:
            proc = proc.apply(choice)
        assert proc == end


@pytest.mark.parametrize("engine", ENGINES, ids=lambda e: e.name)
def test_random_play_visits_every_decider_kind(engine: Engine, content: Content) -> None:
    seen: Counter[Decider] = Counter()
    for seed in SEEDS:
        chance = Chance(seed)
        proc = engine.start(content, chance)
        while not proc.is_finished():
            step = proc.step()
            seen[step.decider] += 1
            proc = proc.apply(draw_for(step, chance))
    expected = {
        "behemoth_activation": {Decider.DICE, Decider.CHIP},
        "behemoth_encounter": {Decider.CARD, Decider.DICE},
    }[engine.name]
    assert set(seen) == expected
