"""Odds benchmark (run by hand: ``.venv/bin/python bench/odds.py``).

For each advisor of :mod:`companion.rules.odds` (and ``odds_fishing``, ``odds_foraging``)
on its largest realistic case (the sample pack's decks), times the exact computation
(median of repeats, each from cold: no cache shared between repeats) side by side with a
Monte Carlo estimate of equal accuracy, in the same run, and prints both times and the
ratio. The Monte Carlo draws enough samples that the standard error of any probability it
estimates is at most TOLERANCE (0.5 percentage points: n = 0.25 / TOLERANCE**2 = 10,000
samples per probability), using the same engine functions. Goal: each exact advisor
under 50 ms.
"""

from __future__ import annotations

import gc
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from itertools import product
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.content import load_content  # noqa: E402
from companion.content.schema.base import Ability, Omen, WaterLine  # noqa: E402
from companion.content.schema.cards import FishingCard, MovementRoll, StrikeLocation  # noqa: E402
from companion.rules.behemoth import (  # noqa: E402
    BehemothState,
    MovementBoard,
    move,
    shortest_paths,
)
from companion.rules.character import Age, Character  # noqa: E402
from companion.rules.checks import contest_outcome  # noqa: E402
from companion.rules.fishing import Allocation, resolve_strike  # noqa: E402
from companion.rules.foraging import front_row_predator, legal_expansion_choices  # noqa: E402
from companion.rules.geometry import Axial  # noqa: E402
from companion.rules.ids import CharacterName, HexId, LegendId, PlayerName, Trait  # noqa: E402
from companion.rules.legends import Legend  # noqa: E402
from companion.rules.mining import chips_for  # noqa: E402
from companion.rules.odds import (  # noqa: E402
    NightHex,
    behemoth_odds,
    contest_odds,
    mining_odds,
    night_activity_odds,
    night_card_resolvable,
)
from companion.rules.odds_fishing import fishing_chances, rank_allocations  # noqa: E402
from companion.rules.odds_foraging import keep_odds  # noqa: E402

TOLERANCE = 0.005
"""Standard error of each Monte Carlo probability: 0.5 percentage points."""
SAMPLES = round(0.25 / TOLERANCE**2)
"""Samples per probability for that standard error in the worst case (p = 1/2)."""
REPEATS = 7

CONTENT = load_content("sample")
RULES = CONTENT.rules
RNG = random.Random(2026)


def timed(fn: Callable[[], Any], repeats: int = REPEATS) -> tuple[float, float]:
    """Median wall time and median CPU time of ``fn`` in milliseconds (garbage collector
    paused). The CPU time is what the process itself spent: on a busy machine the wall
    time also counts the time other processes held the cores."""
    walls, cpus = [], []
    for _ in range(repeats):
        gc.collect()
        gc.disable()
        start, cpu = time.perf_counter(), time.process_time()
        fn()
        walls.append((time.perf_counter() - start) * 1000)
        cpus.append((time.process_time() - cpu) * 1000)
        gc.enable()
    return statistics.median(walls), statistics.median(cpus)


# --- cases ----------------------------------------------------------------------------

ASH = Character(
    CharacterName("Ash"),
    PlayerName("p"),
    Age.YOUNG,
    {Ability.MIGHT: 4, Ability.DEXTERITY: 3, Ability.AWARENESS: 5, Ability.CONVICTION: 2},
    (Trait("wise"),),
    3,
    4,
    4,
    boosts={Ability.MIGHT: (2, 1)},
    legends=(LegendId("L1"), LegendId("L2")),
)
LEGENDS = [
    Legend(LegendId("L1"), "Bran", {a: 6 for a in Ability}, (Trait("brave"),)),
    Legend(LegendId("L2"), "Wren", {a: 5 for a in Ability}, (Trait("strong"),)),
]
TRAITS = {Trait("brave"): 2, Trait("strong"): 1, Trait("wise"): -1}


def exact_contest() -> None:
    contest_odds(RULES, ASH, Ability.MIGHT, 9, (2, 1), trait_modifiers=TRAITS, legends=LEGENDS)


def mc_contest() -> None:
    # each of the 3 ways (alone, two legends) x 3 outcomes: SAMPLES dice per way
    for value, modifier in ((4, -1), (6, 2), (5, 1)):
        for _ in range(SAMPLES):
            total = RNG.randint(1, 6) + value + 3 + modifier
            contest_outcome(RULES, total, 12)


FISH: list[FishingCard] = list(CONTENT.fishing_cards.values())
STOCK, WATER_CARD = FISH[0], FISH[1]  # FI02's water: sizes 2,1,2,1,2 (the most allocations)
WATER: tuple[StrikeLocation, ...] = WATER_CARD.water
OUTCOMES = FISH[2:]
ROLL = (6, 5, 3, 1)


def exact_fishing_before() -> None:
    fishing_chances(STOCK, WATER, OUTCOMES, dice=RULES.fishing.dice)


def _best_strikes(outcome: FishingCard, allocation: Allocation) -> int:
    """Targets won with the best lines (through the engine), as the table would play."""
    used = [i for i, d in enumerate(allocation) if d]
    best = 0
    for lines in product(*(WATER[i].lines for i in used)):
        won: set[WaterLine] = set()
        for j, line in enumerate(lines):
            strike = resolve_strike(
                STOCK.targets[line], outcome.modifiers[line], allocation[used[j]], collected=False
            )
            if strike.success:
                won.add(line)
        best = max(best, len(won))
    return best


def mc_fishing_before() -> None:
    # the player allocates with the after-roll advisor (cached per roll), then strikes
    chosen: dict[tuple[int, ...], Allocation] = {}
    for _ in range(SAMPLES):
        roll = tuple(sorted((RNG.randint(1, 6) for _ in range(4)), reverse=True))
        if roll not in chosen:
            chosen[roll] = rank_allocations(STOCK, WATER, roll, OUTCOMES)[0].allocation
        _best_strikes(RNG.choice(OUTCOMES), chosen[roll])


def exact_fishing_after() -> None:
    rank_allocations(STOCK, WATER, ROLL, OUTCOMES)


def mc_fishing_after() -> None:
    from companion.rules.fishing import legal_allocations

    cache: dict[tuple[Allocation, str], int] = {}
    for allocation in legal_allocations(WATER, ROLL):
        for _ in range(SAMPLES):
            outcome = RNG.choice(OUTCOMES)
            key = (allocation, outcome.id)
            if key not in cache:
                cache[key] = _best_strikes(outcome, allocation)


MOUNTAIN_BAG = chips_for(CONTENT.features["cave"], CONTENT.materials)


def exact_mining() -> None:
    mining_odds(MOUNTAIN_BAG, [Omen.SUN, Omen.MOON], RULES.mining.max_draws)


def mc_mining() -> None:
    omens = {Omen.SUN, Omen.MOON}
    for draws in (1, 2):
        for _ in range(SAMPLES):
            taken = RNG.sample(MOUNTAIN_BAG, draws)
            sum(c.omen in omens for c in taken)


FOREST = CONTENT.forage_deck("forest")


def _forage_case() -> tuple[list[Any], list[Any]]:
    objects = CONTENT.forage_objects
    quiet = [c for c in FOREST if not front_row_predator([c], objects)]
    return quiet[:2], [c for c in FOREST if c not in quiet[:2]][:2]


TABLEAU, DRAWN = _forage_case()


def exact_foraging() -> None:
    keep_odds(
        TABLEAU,
        DRAWN,
        FOREST,
        CONTENT.forage_objects,
        CONTENT.forage_bonuses,
        RULES.foraging.harvest_cap,
        rules=RULES.foraging,
        character=ASH,
    )


def mc_foraging() -> None:
    objects = CONTENT.forage_objects
    for card in DRAWN:
        kept = [*TABLEAU, card]
        remaining = [c for c in FOREST if c not in kept]
        for _ in range(SAMPLES):
            a, b = RNG.sample(remaining, 2)
            legal = legal_expansion_choices(kept, a, b, objects)
            all(front_row_predator([*kept, c], objects) for c in (a, b) if c.id in legal)


def _board() -> tuple[MovementBoard, HexId, HexId]:
    rng = random.Random(5)
    cells = {
        (q, r): rng.randint(1, 5) for q in range(-4, 5) for r in range(-4, 5) if abs(q + r) <= 4
    }
    board = MovementBoard.of(cells)
    return board, HexId(str(Axial(-4, 0))), HexId(str(Axial(4, -2)))


BOARD, START, GOAL = _board()
STATE = BehemothState(
    behemoth="rimeback",
    hex=START,
    lair=(START, "a"),
    instinct="RBI1",
    secret="RBS1",
    reaction_deck=(),
)
BEHEMOTH_ROLL = MovementRoll(dice=2, modifier=1)
WHO = {
    CharacterName(n): HexId(str(Axial(q, r)))
    for n, q, r in (("Ash", -2, 0), ("Bo", 0, 0), ("Cy", 2, -1), ("Di", 4, -2))
}


def exact_behemoth() -> None:
    behemoth_odds(STATE, BOARD, BEHEMOTH_ROLL, GOAL, WHO)


def mc_behemoth() -> None:
    start = BOARD.locate(START)
    paths = shortest_paths(BOARD, start, BOARD.locate(GOAL))
    for _ in range(SAMPLES):
        points = max(0, RNG.randint(1, 6) + RNG.randint(1, 6) + 1)
        move(BOARD, start, RNG.choice(paths), points)


NIGHT = list(CONTENT.night_cards.values())
PILE, DISCARD = NIGHT[:18], NIGHT[18:]
HEXES = [
    NightHex(HexId("H1"), frozenset({"forest", "river"}), frozenset({"wise"})),
    NightHex(HexId("H2"), frozenset({"wetlands"}), frozenset({"brave"})),
    NightHex(HexId("H3"), frozenset({"cave"}), frozenset()),
    NightHex(HexId("H4"), frozenset({"lake"}), frozenset({"wise"})),
]


def exact_night() -> None:
    night_activity_odds(RULES, PILE, DISCARD, HEXES, unrest=7, activity=5)


def mc_night() -> None:
    ok = {
        (c.id, h.hex): night_card_resolvable(c, h, unrest=7, activity=5)
        for c in NIGHT
        for h in HEXES
    }
    limit = len(NIGHT)
    for _ in range(SAMPLES):
        order, used = PILE[:], DISCARD[:]
        RNG.shuffle(order)
        for h in HEXES:
            misses = 0
            while True:
                if not order:
                    if not used:
                        break
                    order, used = used, []
                    RNG.shuffle(order)
                c = order.pop()
                used.append(c)
                if ok[(c.id, h.hex)]:
                    break
                misses += 1
                if misses > limit:
                    break


CASES: list[tuple[str, str, Callable[[], None], Callable[[], None]]] = [
    ("contest", "Might 4 +3 boosts vs 9+3, 2 legends", exact_contest, mc_contest),
    (
        "fishing before",
        "4 dice, water 2-1-2-1-2, 10 outcomes",
        exact_fishing_before,
        mc_fishing_before,
    ),
    ("fishing after", "6-5-3-1 on 2-1-2-1-2, 10 outcomes", exact_fishing_after, mc_fishing_after),
    ("mining", "cave bag (5 chips), 1 vs 2 pulls", exact_mining, mc_mining),
    ("foraging keep", "forest, tableau 2, 2 drawn, 10 left", exact_foraging, mc_foraging),
    ("behemoth", "61-hex board, 2d6+1, 4 characters", exact_behemoth, mc_behemoth),
    ("night", "22-card deck, 4 hexes, unrest 7", exact_night, mc_night),
]


def main() -> None:
    print(
        f"Monte Carlo: {SAMPLES} samples per probability (standard error <= "
        f"{TOLERANCE * 100:.1f} pp); exact: median of {REPEATS} cold runs"
    )
    print(
        f"load average: {', '.join(f'{x:.1f}' for x in os.getloadavg())} on {os.cpu_count()} cores"
    )
    print(
        f"{'advisor':<16} {'case':<38} {'exact ms':>9} {'(cpu)':>7} {'MC ms':>9} "
        f"{'(cpu)':>8} {'MC/exact':>9}"
    )
    for name, case, exact, mc in CASES:
        e, e_cpu = timed(exact)
        m, m_cpu = timed(mc, repeats=3)
        print(f"{name:<16} {case:<38} {e:9.1f} {e_cpu:7.1f} {m:9.1f} {m_cpu:8.1f} {m / e:9.1f}")


if __name__ == "__main__":
    main()
