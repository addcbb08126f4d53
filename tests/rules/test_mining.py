"""Mining (Rulebook: Activities > Mining, steps 1-5; readings D2, D14), on the sample
pack's features. Odds are worked out by hand (draws without replacement)."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from fractions import Fraction as F

import pytest

from companion.content import Content
from companion.content.schema.base import HealthToken, Omen
from companion.content.schema.cards import ContestResult
from companion.content.schema.effects import Effect
from companion.rules.errors import IllegalAction
from companion.rules.fishing import token_catalogue
from companion.rules.mining import (
    DRAW,
    STOP,
    MiningChip,
    MiningProcedure,
    chip_distribution,
    chips_for,
)
from companion.rules.procedure import Choice, Decider
from companion.rules.resources import BagToken

D14 = {
    "cave": {"sunstone": 2, "cloudstone": 1, "clay": 1, "riverstone": 1},
    "chasm": {"sunstone": 2, "cloudstone": 1, "riverstone": 2},
    "dried-flats": {"sunstone": 1, "riverstone": 1, "clay": 3},
    "moraine": {"sunstone": 2, "cloudstone": 2, "riverstone": 1},
    "mountain": {"sunstone": 2, "cloudstone": 3},
}


def start(
    content: Content,
    feature: str,
    chips: Sequence[MiningChip] | None = None,
    omens: Sequence[Omen] = (Omen.SUN,),
) -> MiningProcedure:
    return MiningProcedure.start(
        "Ash",
        feature,
        chips if chips is not None else chips_for(content.features[feature]),
        omens,
        token_catalogue(content.materials.values(), content.foods.values()),
        content.rules.mining.max_draws,
    )


def play(proc: MiningProcedure, choices: Sequence[Choice]) -> MiningProcedure:
    for choice in choices:
        proc = proc.apply(choice)
        assert MiningProcedure.from_state(json.loads(json.dumps(proc.to_state()))) == proc
    return proc


def effects(*data: dict[str, object]) -> tuple[Effect, ...]:
    return ContestResult.model_validate({"success": list(data)}).success


# --- Step 1: the chips (D14) ----------------------------------------------------------


@pytest.mark.parametrize("feature", sorted(D14))
def test_mining_step1_chips_per_feature(content: Content, feature: str) -> None:
    chips = chips_for(content.features[feature])
    assert Counter(c.material for c in chips) == D14[feature]
    assert len(chips) == 5


# Rulebook: Mining, step 4: each chip has an omen with an effect, and a match effect.
@pytest.mark.parametrize(
    ("material", "omen", "effect", "match_effect"),
    [
        ("sunstone", Omen.SUN, "activity", "gain"),
        ("cloudstone", Omen.CLOUD, "energy", "lore"),
        ("riverstone", Omen.COMET, "suffer", "boost"),
        ("clay", Omen.MOON, "unrest", "gain"),
    ],
)
def test_mining_step4_chips_carry_their_materials_omen_and_effects(
    content: Content, material: str, omen: Omen, effect: str, match_effect: str
) -> None:
    chips = chips_for(content.features["cave"], content.materials)
    chip = next(c for c in chips if c.material == material)
    assert chip.omen is omen
    assert [e.do for e in chip.effects] == [effect]
    assert [e.do for e in chip.match_effects] == [match_effect]


def test_mining_step4_pack_chip_resolves_its_match_effect_on_a_matching_omen(
    content: Content,
) -> None:
    chips = chips_for(content.features["mountain"], content.materials)
    index = next(i for i, c in enumerate(chips) if c.material == "sunstone")
    matched = start(content, "mountain", chips, omens=(Omen.SUN,)).apply(str(index))
    assert [t.name for t in matched.tally.gained] == ["sunstone", "sunstone"]
    plain = start(content, "mountain", chips, omens=(Omen.MOON,)).apply(str(index))
    assert [t.name for t in plain.tally.gained] == ["sunstone"]
    assert [p["do"] for p in plain.tally.pending] == ["activity"]


def test_mining_step1_no_chips_where_there_is_no_mining(content: Content) -> None:
    with pytest.raises(IllegalAction, match="no mining"):
        chips_for(content.features["lake"])


def test_mining_step5_at_most_two_draws(content: Content) -> None:
    assert content.rules.mining.max_draws == 2


# --- the odds -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("feature", "draws", "expected"),
    [
        (
            "cave",
            1,
            {
                ("sunstone",): F(2, 5),
                ("cloudstone",): F(1, 5),
                ("clay",): F(1, 5),
                ("riverstone",): F(1, 5),
            },
        ),
        (
            "cave",
            2,
            {
                ("sunstone", "sunstone"): F(1, 10),
                ("cloudstone", "sunstone"): F(1, 5),
                ("clay", "sunstone"): F(1, 5),
                ("riverstone", "sunstone"): F(1, 5),
                ("clay", "cloudstone"): F(1, 10),
                ("cloudstone", "riverstone"): F(1, 10),
                ("clay", "riverstone"): F(1, 10),
            },
        ),
        (
            "mountain",
            2,
            {
                ("sunstone", "sunstone"): F(1, 10),
                ("cloudstone", "cloudstone"): F(3, 10),
                ("cloudstone", "sunstone"): F(3, 5),
            },
        ),
        (
            "dried-flats",
            2,
            {
                ("clay", "clay"): F(3, 10),
                ("clay", "riverstone"): F(3, 10),
                ("clay", "sunstone"): F(3, 10),
                ("riverstone", "sunstone"): F(1, 10),
            },
        ),
        (
            "chasm",
            2,
            {
                ("sunstone", "sunstone"): F(1, 10),
                ("riverstone", "riverstone"): F(1, 10),
                ("riverstone", "sunstone"): F(2, 5),
                ("cloudstone", "sunstone"): F(1, 5),
                ("cloudstone", "riverstone"): F(1, 5),
            },
        ),
        (
            "moraine",
            1,
            {("sunstone",): F(2, 5), ("cloudstone",): F(2, 5), ("riverstone",): F(1, 5)},
        ),
    ],
)
def test_mining_chip_distribution(
    content: Content, feature: str, draws: int, expected: dict[tuple[str, ...], F]
) -> None:
    chips = [c.material for c in chips_for(content.features[feature])]
    assert chip_distribution(chips, draws) == expected


@pytest.mark.parametrize("feature", sorted(D14))
@pytest.mark.parametrize("draws", range(7))
def test_mining_chip_distribution_sums_to_one(content: Content, feature: str, draws: int) -> None:
    chips = [c.material for c in chips_for(content.features[feature])]
    odds = chip_distribution(chips, draws)
    assert sum(odds.values()) == 1
    assert all(len(k) == min(draws, 5) for k in odds)


@pytest.mark.parametrize("feature", sorted(D14))
def test_mining_chip_distribution_matches_every_draw_of_the_procedure(
    content: Content, feature: str
) -> None:
    # Walk every chip choice (always pulling again): each path is equally likely.
    counts: Counter[tuple[str, ...]] = Counter()
    frontier = [start(content, feature)]
    while frontier:
        proc = frontier.pop()
        if proc.is_finished():
            counts[tuple(sorted(c.material for c in proc.drawn))] += 1
            continue
        step = proc.step()
        frontier.extend(
            proc.apply(DRAW if step.decider is Decider.PLAYER else o)
            for o in (step.options if step.decider is Decider.CHIP else [DRAW])
        )
    total = sum(counts.values())
    assert total == 5 * 4
    chips = [c.material for c in chips_for(content.features[feature])]
    assert {k: F(v, total) for k, v in counts.items()} == chip_distribution(chips, 2)


# --- Steps 4 and 5: pulling chips -------------------------------------------------------


def test_mining_step4_draws_without_replacement(content: Content) -> None:
    proc = start(content, "cave")
    step = proc.step()
    assert step.decider is Decider.CHIP and step.options == ("0", "1", "2", "3", "4")
    assert [step.labels[o] for o in step.options] == [
        "sunstone",
        "sunstone",
        "cloudstone",
        "clay",
        "riverstone",
    ]
    proc = play(proc, ["3"])  # clay
    assert [c.material for c in proc.bag] == ["sunstone", "sunstone", "cloudstone", "riverstone"]
    assert proc.outcome().gained == (BagToken.material("clay", large=True),)
    assert proc.step().options == (DRAW, STOP)
    proc = play(proc, [DRAW])
    assert proc.step().options == ("0", "1", "2", "3")
    proc = play(proc, ["0"])
    assert proc.is_finished()
    assert proc.outcome().gained == (
        BagToken.material("clay", large=True),
        BagToken.material("sunstone"),
    )
    assert proc.outcome().extra["drawn"] == ["clay", "sunstone"]


def test_mining_step5_stop_after_one_chip(content: Content) -> None:
    proc = play(start(content, "mountain"), ["4", STOP])
    assert proc.is_finished()
    assert proc.outcome().gained == (BagToken.material("cloudstone"),)
    with pytest.raises(IllegalAction):
        proc.apply("0")


def test_mining_step5_an_empty_bag_ends_mining(content: Content) -> None:
    proc = play(start(content, "cave", chips=[MiningChip("clay")]), ["0"])
    assert proc.is_finished() and len(proc.drawn) == 1


SUN_CHIP = MiningChip(
    "sunstone",
    Omen.SUN,
    effects=effects({"do": "energy", "amount": -1}),
    match_effects=effects(
        {"do": "lore", "amount": 1},
        {"do": "suffer", "token": "minor_injury"},
        {"do": "unrest", "amount": 1},
    ),
)


@pytest.mark.parametrize(
    ("omens", "energy", "lore", "suffered", "pending"),
    [
        ((Omen.SUN,), 0, 1, (HealthToken.MINOR_INJURY,), 1),  # match: match effect only
        ((Omen.MOON, Omen.SUN), 0, 1, (HealthToken.MINOR_INJURY,), 1),
        ((Omen.MOON,), -1, 0, (), 0),  # no match: the omen's effect
        ((), -1, 0, (), 0),
    ],
)
def test_mining_step4_omen_effect_or_match_effect(
    content: Content,
    omens: tuple[Omen, ...],
    energy: int,
    lore: int,
    suffered: tuple[HealthToken, ...],
    pending: int,
) -> None:
    proc = play(
        start(content, "cave", chips=[SUN_CHIP, MiningChip("clay")], omens=omens), ["0", STOP]
    )
    out = proc.outcome()
    assert out.gained == (BagToken.material("sunstone"),)
    assert (out.energy, out.lore, out.suffered) == (energy, lore, suffered)
    assert len(out.extra.get("pending_effects", [])) == pending
    assert "sunstone (sun)" in out.log[0]


def test_mining_chip_without_omen_resolves_nothing_more(content: Content) -> None:
    out = play(start(content, "cave"), ["2", STOP]).outcome()
    assert (out.energy, out.lore, out.suffered, out.extra.get("pending_effects")) == (
        0,
        0,
        (),
        None,
    )


@pytest.mark.parametrize(
    ("prefix", "bad"),
    [([], "5"), ([], "sunstone"), ([], (1,)), ([], DRAW), (["0"], "0"), (["0"], "again")],
)
def test_mining_refuses_illegal_inputs(content: Content, prefix: list[Choice], bad: Choice) -> None:
    proc = play(start(content, "cave"), prefix)
    state = proc.to_state()
    with pytest.raises(IllegalAction):
        proc.apply(bad)
    assert proc.to_state() == state


def test_mining_start_checks_tokens(content: Content) -> None:
    with pytest.raises(IllegalAction, match="sunstone"):
        MiningProcedure.start("Ash", "cave", chips_for(content.features["cave"]), [], {}, 2)
    with pytest.raises(IllegalAction):
        MiningProcedure.start("Ash", "cave", [], [], {}, 2)


def test_mining_describe(content: Content) -> None:
    text = play(start(content, "cave"), ["0", STOP]).describe()
    assert "current omens: sun" in text and "Pulled sunstone" in text
