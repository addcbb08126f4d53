"""Behemoths (Rulebook: Behemoths > Behemoth Setup, Movement Values, Contests, Habits,
Learning the Secret, Reaction Deck; Behemoth Activation > Movement, Encounters; D16, D18).

The hand-drawn boards are axial hexes (see :mod:`companion.rules.geometry`); a tile on a
hand-drawn board is named after its position, e.g. ``"(1, 0)"``. Neighbours of the
origin: (0,-1) N, (1,-1) NE, (1,0) SE, (0,1) S, (-1,1) SW, (-1,0) NW.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import cache
from itertools import product
from types import MappingProxyType
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.content import Content, load_content
from companion.content.schema.base import Ability, Omen
from companion.content.schema.cards import Behemoth, MovementRoll, ReactionCard
from companion.content.schema.rules import RulesConstants
from companion.content.schema.world import Feature, HexTile, Overlay
from companion.rules.behemoth import (
    BehemothState,
    EncounterRule,
    MovementBoard,
    Target,
    deal_options,
    default_movement_value,
    encounter_rule_from_text,
    encountered,
    end_hex_distribution,
    hex_movement_value,
    learn,
    learn_refusal,
    legal_lair_hexes,
    movement_board,
    movement_points,
    reach_probability,
    set_up_behemoth,
    shortest_paths,
    shuffle_reactions,
    target_hex,
    walk,
)
from companion.rules.behemoth_procedures import ActivationProcedure, EncounterProcedure
from companion.rules.checks import ContestOutcome
from companion.rules.errors import IllegalAction
from companion.rules.exploration import Tray, Valley, place_overlay
from companion.rules.geometry import Axial
from companion.rules.ids import CharacterName, HexId
from companion.rules.procedure import Decider, Procedure
from tests.rules.factories import make

H = HexId
C = CharacterName


@cache
def sample() -> Content:
    return load_content("sample")


def rimeback() -> Behemoth:
    return sample().behemoths["rimeback"]


def first_cards_set_up(valley: Valley, reactions: list[ReactionCard], lair: str,
                       **options: Any) -> tuple[BehemothState, Valley]:
    """Rimeback set up in ``valley`` with the sample's first instinct and secret cards."""
    content = sample()
    return set_up_behemoth(rimeback(), valley, instinct=content.instinct_cards["RBI1"],
                           secret=content.secret_cards["RBS1"], reactions=reactions,
                           lair_hex=H(lair), **options)


def name(q: int, r: int) -> HexId:
    return HexId(str(Axial(q, r)))


def state_at(q: int, r: int, **changes: Any) -> BehemothState:
    fields: dict[str, Any] = dict(
        behemoth="rimeback",
        hex=name(q, r),
        lair=(name(q, r), "a"),
        instinct="RBI1",
        secret="RBS1",
        reaction_deck=("RB1", "RB3"),
    )
    fields.update(changes)
    return BehemothState(**fields)


def activation(
    board: MovementBoard,
    start: tuple[int, int],
    target: tuple[int, int] | None,
    roll: MovementRoll | None = MovementRoll(dice=1, modifier=0),  # noqa: B008
    characters: Mapping[str, tuple[int, int]] | None = None,
    rule: EncounterRule = EncounterRule.ENTER_OR_END,
) -> ActivationProcedure:
    return ActivationProcedure(
        name="Rimeback",
        behemoth=state_at(*start),
        board=board,
        roll=roll,
        target=None if target is None else name(*target),
        characters=tuple((C(n), name(*h)) for n, h in (characters or {}).items()),
        rule=rule,
    )


def names(path: tuple[Axial, ...]) -> list[str]:
    return [str(c) for c in path]


# --- Behemoth Activation > Movement, step 2: Determine Path -------------------------------

# A strip: the direct way SE-SE through (1, 0) is dear; the detour NE, SE, S is cheap.
STRIP = MovementBoard.of({(0, 0): 1, (1, 0): 5, (2, 0): 1, (1, -1): 1, (2, -1): 1})
# A fork: (1, 1) is reached through (1, 0) or (0, 1).
FORK = {(0, 0): 1, (1, 0): 3, (0, 1): 1, (1, 1): 2}


@pytest.mark.parametrize(
    ("title", "board", "start", "goal", "expected"),
    [
        (
            "fewest hexes entered beats a cheaper longer path",
            STRIP,
            (0, 0),
            (2, 0),
            [["(1, 0)", "(2, 0)"]],
        ),
        (
            "equidistant paths: the lowest total movement value",
            MovementBoard.of(FORK),
            (0, 0),
            (1, 1),
            [["(0, 1)", "(1, 1)"]],
        ),
        (
            "still tied: both paths, equally likely",
            MovementBoard.of({**FORK, (1, 0): 1}),
            (0, 0),
            (1, 1),
            [["(0, 1)", "(1, 1)"], ["(1, 0)", "(1, 1)"]],
        ),
        ("already at its target", STRIP, (0, 0), (0, 0), [[]]),
        (
            "the target is only reached around a gap",
            MovementBoard.of({(0, 0): 1, (1, -1): 2, (2, -1): 2, (2, 0): 1}),
            (0, 0),
            (2, 0),
            [["(1, -1)", "(2, -1)", "(2, 0)"]],
        ),
        (
            "no explored path: it cannot go",
            MovementBoard.of({(0, 0): 1, (2, 0): 1}),
            (0, 0),
            (2, 0),
            [],
        ),
    ],
)
def test_determine_path(
    title: str,
    board: MovementBoard,
    start: tuple[int, int],
    goal: tuple[int, int],
    expected: list[list[str]],
) -> None:
    paths = shortest_paths(board, Axial(*start), Axial(*goal))
    assert [names(p) for p in paths] == expected, title


@pytest.mark.parametrize(
    ("title", "path", "points", "entered", "spent"),
    [
        ("pays each hex's value", [(1, 0), (2, 0)], 6, ["(1, 0)", "(2, 0)"], 6),
        ("stops short for lack of points", [(1, 0), (2, 0)], 5, ["(1, 0)"], 5),
        ("cannot pay the first hex: stays", [(1, 0), (2, 0)], 4, [], 0),
        ("stops at the target with points left", [(1, -1), (2, -1)], 6, ["(1, -1)", "(2, -1)"], 2),
        ("no points", [(1, -1)], 0, [], 0),
    ],
)
def test_spend_movement_points(
    title: str, path: list[tuple[int, int]], points: int, entered: list[str], spent: int
) -> None:
    walked, paid = walk(STRIP, tuple(Axial(*c) for c in path), points)
    assert (names(walked), paid) == (entered, spent), title


@pytest.mark.parametrize(
    ("dice", "modifier", "points"), [((4,), 1, 5), ((1,), -2, 0), ((3, 5), 0, 8), ((), 2, 2)]
)
def test_generate_movement_points(dice: tuple[int, ...], modifier: int, points: int) -> None:
    assert movement_points(MovementRoll(dice=len(dice), modifier=modifier), dice) == points


def test_movement_points_refuse_wrong_dice() -> None:
    with pytest.raises(IllegalAction, match="rolls 1 dice"):
        movement_points(MovementRoll(dice=1), (1, 2))
    with pytest.raises(IllegalAction, match="a die shows 1 to 6"):
        movement_points(MovementRoll(dice=1), (7,))


# --- Movement Values ------------------------------------------------------------------------


def hextile(a: str | None, b: str | None, c: str | None, id: str = "X1") -> HexTile:
    return HexTile.model_validate({"id": id, "region": "r", "sections": {"a": a, "b": b, "c": c}})


@pytest.mark.parametrize(
    ("title", "sections", "value"),
    [
        ("chasm 1, forest 2, river 3: the lowest", ("chasm", "forest", "river"), 1),
        ("without the chasm: forest", ("plains", "forest", "river"), 2),
        ("a single feature", ("wetlands", None, None), 5),
        ("only features off its table: its lowest value (D20)", ("glacier", None, None), 1),
        ("an unlisted feature is ignored", ("glacier", "lake", None), 4),
    ],
)
def test_movement_values(
    title: str, sections: tuple[str | None, str | None, str | None], value: int
) -> None:
    assert hex_movement_value(rimeback(), hextile(*sections)) == value, title


def test_unlisted_value_can_be_chosen() -> None:
    assert hex_movement_value(rimeback(), hextile("glacier", None, None), unlisted=9) == 9
    assert default_movement_value(rimeback()) == min(rimeback().movement.values())


@dataclass(frozen=True)
class Catalogue:
    """A hand-made terrain: the sample pack's features and overlays, our own tiles."""

    hexes: Mapping[str, HexTile]
    features: Mapping[str, Feature] = field(default_factory=lambda: sample().features)
    overlays: Mapping[str, Overlay] = field(default_factory=lambda: sample().overlays)


O, P, Q = Axial(0, 0), Axial(1, -1), Axial(1, 0)  # noqa: E741
R, S, T = Axial(2, -1), Axial(3, -2), Axial(3, -1)


def two_trays(explored: set[Axial] | None = None) -> tuple[Catalogue, Valley]:
    """Two east trays side by side: O P Q, then R S T (Q and R touch P)."""
    tiles = {
        "T1": hextile("forest", None, None, "T1"),
        "T2": hextile("chasm", "lake", None, "T2"),
        "T3": hextile("wetlands", None, None, "T3"),
        "T4": hextile("plains", None, None, "T4"),
        "T5": hextile("river", None, None, "T5"),
        "T6": hextile("cave", None, None, "T6"),
    }
    cells = dict(zip((O, P, Q, R, S, T), map(H, tiles), strict=True))
    valley = Valley(
        trays=(Tray(0, "r", O, "east"), Tray(1, "r", R, "east")),
        tiles=cells,
        explored=frozenset(cells if explored is None else explored),
    )
    return Catalogue(MappingProxyType(tiles)), valley


def test_movement_board_of_a_valley() -> None:
    terrain, valley = two_trays()
    valley = place_overlay(valley, P, "a", "OP2")  # a covered chasm still counts
    board = movement_board(rimeback(), valley, terrain)
    assert dict(board.values) == {O: 2, P: 1, Q: 5, R: 3, S: 3, T: 1}
    assert board.name(P) == "T2"


def test_the_behemoth_moves_only_through_explored_hexes() -> None:
    terrain, valley = two_trays(explored={O, P, Q, T})
    board = movement_board(rimeback(), valley, terrain)
    assert set(board.values) == {O, P, Q, T}
    # T touches only R and S, both face down: no explored path leads there
    assert shortest_paths(board, O, T) == []


# --- Behemoth Setup -------------------------------------------------------------------------


def test_lair_only_in_explored_hexes_with_no_overlay() -> None:
    terrain, valley = two_trays(explored={O, P, Q, R})
    valley = place_overlay(valley, Q, "b", "OP2")
    assert legal_lair_hexes(valley) == ["T1", "T2", "T4"]


def test_set_up_behemoth() -> None:
    content = sample()
    terrain, valley = two_trays(explored={O, P, Q})
    reactions = [content.reaction_cards[c] for c in ("RB3", "RB1", "RB2")]
    state, valley = set_up_behemoth(
        rimeback(),
        valley,
        instinct=content.instinct_cards["RBI2"],
        secret=content.secret_cards["RBS3"],
        reactions=reactions,
        lair_hex=H("T2"),
        lair_section="c",
    )
    assert state.hex == "T2" and state.lair == ("T2", "c")
    assert valley.lair == ("T2", "c") and valley.overlays[(H("T2"), "c")] == "rimeback-lair"
    assert (state.instinct, state.secret) == ("RBI2", "RBS3")
    assert state.reaction_deck == ("RB3", "RB1", "RB2") and state.reaction_ordered
    assert not state.secret_learned and not state.habits_learned
    assert legal_lair_hexes(valley) == []  # one lair
    assert BehemothState.from_data(json.loads(json.dumps(state.to_data()))) == state


@pytest.mark.parametrize(
    ("lair", "message"),
    [("T4", "explored hex with no overlays"), ("T3", "explored hex with no overlays")],
)
def test_set_up_refuses_a_lair_hex(lair: str, message: str) -> None:
    content = sample()
    terrain, valley = two_trays(explored={O, P, Q})
    valley = place_overlay(valley, Q, "a", "OP2")  # T3 has an overlay; T4 is unexplored
    with pytest.raises(IllegalAction, match=message):
        first_cards_set_up(valley, [content.reaction_cards["RB1"]], lair)


def test_deal_options() -> None:
    content = sample()
    assert deal_options(rimeback(), content.instinct_cards.values()) == ["RBI1", "RBI2", "RBI3"]
    assert deal_options(rimeback(), content.secret_cards.values()) == ["RBS1", "RBS2", "RBS3"]


def test_set_up_unshuffled_deck_and_shuffle() -> None:
    content = sample()
    _, valley = two_trays()
    state, _ = first_cards_set_up(
        valley, [content.reaction_cards[c] for c in ("RB2", "RB1")], "T1", shuffled=False)
    assert state.reaction_deck == ("RB1", "RB2") and not state.reaction_ordered
    assert shuffle_reactions(state, ["RB2", "RB1"]).reaction_deck == ("RB2", "RB1")
    with pytest.raises(IllegalAction, match="same cards"):
        shuffle_reactions(state, ["RB1"])


def test_target_token() -> None:
    state = state_at(0, 0, target=Target(character=C("Ash")))
    assert target_hex(state, {C("Ash"): H("E05")}) == "E05"
    assert target_hex(state, {}) is None
    assert target_hex(replace(state, target=Target(hex=H("E02"))), {}) == "E02"
    with pytest.raises(ValueError, match="hex or on a character"):
        Target()


# --- Behemoth Activation: the procedure --------------------------------------------------


def test_activation_rolls_then_moves() -> None:
    proc = activation(STRIP, (0, 0), (2, 0), MovementRoll(dice=1, modifier=1))
    step = proc.step()
    assert step.decider is Decider.DICE and step.count == 1
    proc = proc.apply((5,))
    assert proc.is_finished()
    result = proc.result()
    assert (result.points, result.entered, result.end, result.spent) == (
        6,
        ("(1, 0)", "(2, 0)"),
        "(2, 0)",
        6,
    )
    assert result.behemoth.hex == "(2, 0)"
    assert "It reaches its target." in proc.outcome().log


def test_activation_stops_short() -> None:
    proc = activation(STRIP, (0, 0), (2, 0)).apply((5,))
    assert proc.result().entered == ("(1, 0)",)
    assert any("cannot pay 1 to enter (2, 0)" in line for line in proc.outcome().log)
    assert any("It ends its activation in (1, 0)" in line for line in proc.outcome().log)


def test_activation_random_tie_break_reaches_both_paths() -> None:
    board = MovementBoard.of({**FORK, (1, 0): 1})
    proc = activation(board, (0, 0), (1, 1)).apply((1,))  # 1 point: only the first hex
    step = proc.step()
    assert step.decider is Decider.CHIP and step.options == ("0", "1")
    ends = {proc.apply(option).result().end for option in step.options}
    assert ends == {"(0, 1)", "(1, 0)"}


def test_activation_no_tie_break_when_the_paths_agree() -> None:
    board = MovementBoard.of({**FORK, (1, 0): 1})
    roll = MovementRoll(dice=1, modifier=-1)
    proc = activation(board, (0, 0), (1, 1), roll).apply((1,))  # 0 points: it stays
    assert proc.is_finished() and proc.result().end == "(0, 0)"


@pytest.mark.parametrize(
    ("title", "roll", "target"),
    [
        ("an Instinct card without movement", None, (2, 0)),
        ("no target token", MovementRoll(dice=1), None),
        ("already at its target", MovementRoll(dice=1), (0, 0)),
    ],
)
def test_activation_without_movement_asks_nothing(
    title: str, roll: MovementRoll | None, target: tuple[int, int] | None
) -> None:
    proc = activation(STRIP, (0, 0), target, roll, characters={"Ash": (0, 0)})
    assert proc.is_finished(), title
    assert proc.result().end == "(0, 0)" and proc.result().entered == ()
    assert proc.result().encountered == ("Ash",)  # it ends its activation in Ash's hex
    with pytest.raises(IllegalAction):
        proc.step()


def test_activation_from_the_sample_content() -> None:
    content = sample()
    terrain, valley = two_trays()
    state, valley = first_cards_set_up(valley, list(content.reaction_cards.values()), "T1")
    state = replace(state, target=Target(character=C("Ash")))
    proc = ActivationProcedure.start(
        state, rimeback(), content.instinct_cards["RBI1"], valley, terrain, {C("Ash"): H("T6")}
    )
    assert proc.rule is EncounterRule.ENTER_TARGET and proc.target == "T6"
    # O -> P (chasm 1) -> R (plains 3) -> T (cave 1): 3 hexes, value 5; O -> Q ... is longer
    end = proc.apply((4,))  # 4 + 1 = 5 points
    assert end.result().entered == ("T2", "T4", "T6")
    assert end.result().encountered == ("Ash",)
    again = ActivationProcedure.from_state(json.loads(json.dumps(end.to_state())))
    assert again == end


# --- Encounters (Behemoth Activation > Encounters) --------------------------------------

CHARS = {C("Ash"): H("A"), C("Bo"): H("B"), C("Cy"): H("A"), C("Di"): H("D")}


@pytest.mark.parametrize(
    ("rule", "entered", "end", "met"),
    [
        (EncounterRule.ENTER, ["B", "A"], "A", ["Bo", "Ash", "Cy"]),
        (EncounterRule.ENTER, [], "A", []),
        (EncounterRule.END, ["B", "A"], "A", ["Ash", "Cy"]),
        (EncounterRule.END, ["A", "B"], "B", ["Bo"]),
        (EncounterRule.ENTER_OR_END, [], "D", ["Di"]),
        (EncounterRule.ENTER_TARGET, ["B", "A"], "A", ["Bo"]),  # target B
        (EncounterRule.ENTER_TARGET, ["A"], "A", []),
        (EncounterRule.LAIR, ["D"], "D", ["Di"]),  # lair D
        (EncounterRule.LAIR, ["A"], "A", []),
        (EncounterRule.NONE, ["A"], "A", []),
    ],
)
def test_encountered(rule: EncounterRule, entered: list[str], end: str, met: list[str]) -> None:
    found = encountered(rule, [H(h) for h in entered], H(end), CHARS, target=H("B"), lair=H("D"))
    assert list(found) == met


@pytest.mark.parametrize(
    ("card", "rule"),
    [
        ("RBI1", EncounterRule.ENTER_TARGET),
        ("RBI2", EncounterRule.END),
        ("RBI3", EncounterRule.LAIR),
    ],
)
def test_sample_instinct_encounter_texts(card: str, rule: EncounterRule) -> None:
    assert encounter_rule_from_text(sample().instinct_cards[card].encounter) is rule


def test_unknown_encounter_text_is_refused() -> None:
    with pytest.raises(IllegalAction, match="encounter rule"):
        encounter_rule_from_text("when the moon is full")


def test_activation_encounters_on_entering_and_ending() -> None:
    proc = activation(
        STRIP, (0, 0), (2, 0), characters={"Ash": (1, 0), "Bo": (2, 0), "Cy": (1, -1)}
    )
    assert proc.apply((6,)).result().encountered == ("Ash", "Bo")
    ending = replace(proc, rule=EncounterRule.END)
    assert ending.apply((5,)).result().encountered == ("Ash",)  # stops in (1, 0)


# --- Reaction Deck and Contests (D16) ----------------------------------------------------


def reaction(id: str, ability: Ability | None = Ability.MIGHT, **extra: Any) -> ReactionCard:
    data: dict[str, Any] = {
        "id": id,
        "behemoth": "rimeback",
        "contest": ability,
        "results": {
            "success": [{"do": "lore", "amount": 2}],
            "stalemate": [{"do": "energy", "amount": -1}],
            "defeat": [{"do": "suffer", "token": "major_injury"}],
        },
        "text": f"card {id}",
        **extra,
    }
    return ReactionCard.model_validate(data)


def encounter(
    rules: RulesConstants,
    deck: tuple[str, ...] = ("M1",),
    *,
    omens: tuple[Omen, ...] = (Omen.SUN,),
    boosts: Mapping[Ability, tuple[int, ...]] | None = None,
    char_boosts: Mapping[Ability, tuple[int, ...]] | None = None,
    learned: bool = False,
    ordered: bool = True,
) -> EncounterProcedure:
    cards = [
        reaction("M1"),
        reaction("C1", requires_omens=[Omen.COMET]),
        reaction("S1", Ability.AWARENESS, requires_omens=[Omen.SUN, Omen.MOON]),
        reaction("N1", None, effects=[{"do": "unrest", "amount": 1}]),
    ]
    state = state_at(
        0,
        0,
        reaction_deck=deck,
        boosts=boosts or {},
        secret_learned=learned,
        reaction_ordered=ordered,
    )
    ash = make("Ash", boosts=dict(char_boosts or {}))  # might 4, awareness 5
    return EncounterProcedure.start(
        rules, state, rimeback(), cards, ash, omens, sample().secret_cards["RBS1"]
    )


@pytest.mark.parametrize(
    ("title", "die", "boosts", "char_boosts", "outcome", "left", "char_left"),
    [
        ("4 + 6 = 10 against 12: short by 2", 6, {}, {}, ContestOutcome.STALEMATE, (), ()),
        ("4 + 3 = 7 against 12: short by 5", 3, {}, {}, ContestOutcome.DEFEAT, (), ()),
        ("4 + 4 = 8 against 12: short by 4", 4, {}, {}, ContestOutcome.STALEMATE, (), ()),
        (
            "boosts 2+2: 4 + 5 + 4 = 13 beats 12",
            5,
            {},
            {Ability.MIGHT: (2, 2)},
            ContestOutcome.SUCCESS,
            (),
            (1, 1),
        ),
        (
            "the behemoth's boost 2: 13 against 14, degraded to 1",
            5,
            {Ability.MIGHT: (2,)},
            {Ability.MIGHT: (2, 2)},
            ContestOutcome.STALEMATE,
            (1,),
            (1, 1),
        ),
        (
            "the behemoth's boosts 2+1: 5 against 15, short by 10",
            1,
            {Ability.MIGHT: (2, 1)},
            {},
            ContestOutcome.DEFEAT,
            (1,),
            (),
        ),
    ],
)
def test_contest_outcomes(
    rules: RulesConstants,
    title: str,
    die: int,
    boosts: Mapping[Ability, tuple[int, ...]],
    char_boosts: Mapping[Ability, tuple[int, ...]],
    outcome: ContestOutcome,
    left: tuple[int, ...],
    char_left: tuple[int, ...],
) -> None:
    proc = encounter(rules, boosts=boosts, char_boosts=char_boosts)
    assert proc.step().decider is Decider.CARD and proc.step().options == ("M1",)
    proc = proc.apply("M1")
    assert proc.step().decider is Decider.DICE and proc.step().count == 1
    proc = proc.apply((die,))
    assert proc.is_finished()
    result = proc.result()
    assert result.contest is not None and result.contest.outcome is outcome, title
    assert result.behemoth.boosts.get(Ability.MIGHT, ()) == left
    assert result.character.boosts.get(Ability.MIGHT, ()) == char_left
    expected = {
        ContestOutcome.SUCCESS: "lore",
        ContestOutcome.STALEMATE: "energy",
        ContestOutcome.DEFEAT: "suffer",
    }[outcome]
    assert [e.do for e in result.effects] == [expected]
    assert proc.outcome().extra["effects"][0]["do"] == expected


def test_reaction_cards_needing_another_omen_are_set_aside(rules: RulesConstants) -> None:
    proc = encounter(rules, ("C1", "S1", "M1"))
    proc = proc.apply("C1")
    assert proc.step().decider is Decider.CARD and proc.step().options == ("S1",)
    proc = proc.apply("S1").apply((6,))  # awareness 5 + 6 = 11 against 9
    result = proc.result()
    assert result.reaction == "S1" and result.set_aside == ("C1",)
    assert result.contest is not None and result.contest.outcome is ContestOutcome.SUCCESS
    # every card is shuffled back: the deck is whole and unordered
    assert result.behemoth.reaction_deck == ("C1", "M1", "S1")
    assert not result.behemoth.reaction_ordered
    assert any("set aside" in line for line in proc.outcome().log)


def test_no_reaction_card_can_be_resolved(rules: RulesConstants) -> None:
    proc = encounter(rules, ("C1",)).apply("C1")
    assert proc.is_finished() and proc.result().reaction is None
    assert proc.result().set_aside == ("C1",)


def test_a_card_without_contest(rules: RulesConstants) -> None:
    proc = encounter(rules, ("N1", "M1")).apply("N1")
    assert proc.is_finished()
    assert [e.do for e in proc.result().effects] == ["unrest"]


def test_the_table_may_type_any_card_left(rules: RulesConstants) -> None:
    proc = encounter(rules, ("C1", "M1"), ordered=False)
    assert proc.step().options == ("C1", "M1")
    assert encounter(rules, ("C1", "M1")).apply("M1").drawn == ("M1",)
    with pytest.raises(IllegalAction, match="not in Rimeback's Reaction deck"):
        proc.apply("S1")


@pytest.mark.parametrize("learned", [False, True])
def test_secret_points_to_a_codex_entry(rules: RulesConstants, learned: bool) -> None:
    proc = encounter(rules, learned=learned).apply("M1").apply((6,))
    codex = proc.result().codex
    if learned:
        assert codex is not None and str(codex) == "Sun M1"
        assert proc.outcome().extra["codex"]["omen"] == "sun"
    else:
        assert codex is None


def test_encounter_round_trip(rules: RulesConstants) -> None:
    proc = encounter(rules, ("C1", "M1"), boosts={Ability.MIGHT: (2,)}, learned=True)
    for choice in ("C1", "M1", (3,)):
        again = EncounterProcedure.from_state(json.loads(json.dumps(proc.to_state())), rules)
        assert again == proc
        proc = proc.apply(choice)
    assert EncounterProcedure.from_state(json.loads(json.dumps(proc.to_state())), rules) == proc


# --- Habits, Learning the Secret (D18) -------------------------------------------------------


@pytest.mark.parametrize(
    ("title", "where", "lore", "habits", "secret"),
    [
        ("same hex, lore 7", O, 7, True, True),
        ("adjacent hex, lore 7", P, 7, True, True),
        ("adjacent hex, lore 6", Q, 6, True, False),
        ("lore 3", O, 3, False, False),
        ("two hexes away", R, 20, False, False),
        ("not in the valley", None, 20, False, False),
    ],
)
def test_learning_range_and_cost(
    rules: RulesConstants,
    title: str,
    where: Axial | None,
    lore: int,
    habits: bool,
    secret: bool,
) -> None:
    _, valley = two_trays()
    state = replace(state_at(0, 0), hex=H("T1"))  # the behemoth stands in O
    assert (learn_refusal(rules, state, valley, "habits", where, lore) is None) is habits, title
    assert (learn_refusal(rules, state, valley, "secret", where, lore) is None) is secret, title


def test_learning_spends_lore_and_refuses_in_game_words(rules: RulesConstants) -> None:
    _, valley = two_trays()
    state = replace(state_at(0, 0), hex=H("T1"))
    learned, lore = learn(rules, state, valley, "habits", H("T2"), 9)
    assert learned.habits_learned and lore == 9 - rules.behemoths.habits_lore == 5
    assert learn_refusal(rules, learned, valley, "habits", H("T2"), 9) == (
        "the behemoth's habits are already learned"
    )
    with pytest.raises(IllegalAction, match="the society has 5 lore; learning the behemoth's"):
        learn(rules, learned, valley, "secret", H("T2"), 5)
    with pytest.raises(IllegalAction, match="is 2 hexes away"):
        learn(rules, learned, valley, "secret", H("T4"), 9, who="Ash")
    learned, lore = learn(rules, learned, valley, "secret", H("T1"), 7)
    assert learned.secret_learned and lore == 0


# --- the map preview: exact odds --------------------------------------------------------


def brute_force(proc: ActivationProcedure) -> dict[HexId, Fraction]:
    """Every roll and every tie-break, through the procedure itself."""
    odds: dict[HexId, Fraction] = {}

    def go(p: ActivationProcedure, weight: Fraction) -> None:
        if p.is_finished():
            end = p.result().end
            odds[end] = odds.get(end, Fraction(0)) + weight
            return
        step = p.step()
        if step.decider is Decider.DICE:
            rolls = list(product(range(1, 7), repeat=step.count))
            for dice in rolls:
                go(p.apply(dice), weight / len(rolls))
        else:
            for option in step.options:
                go(p.apply(option), weight / len(step.options))

    go(proc, Fraction(1))
    return odds


BOARDS = [
    (STRIP, (0, 0), (2, 0), MovementRoll(dice=1, modifier=1)),
    (MovementBoard.of({**FORK, (1, 0): 1}), (0, 0), (1, 1), MovementRoll(dice=1, modifier=-2)),
    (
        MovementBoard.of({(q, r): 1 + (q * 3 + r) % 3 for q in range(4) for r in range(-2, 3)}),
        (0, 0),
        (3, -1),
        MovementRoll(dice=2, modifier=0),
    ),
    (STRIP, (0, 0), None, MovementRoll(dice=1)),
    (STRIP, (0, 0), (2, 0), None),
]


@pytest.mark.parametrize(("board", "start", "goal", "roll"), BOARDS)
def test_end_hex_distribution_matches_brute_force(
    board: MovementBoard,
    start: tuple[int, int],
    goal: tuple[int, int] | None,
    roll: MovementRoll | None,
) -> None:
    proc = activation(board, start, goal, roll)
    odds = end_hex_distribution(proc.behemoth, board, roll, proc.target)
    assert sum(odds.values()) == 1
    assert odds == brute_force(proc)


@settings(max_examples=40, deadline=None)
@given(
    values=st.dictionaries(
        st.tuples(st.integers(-2, 2), st.integers(-2, 2)), st.integers(1, 4), min_size=2
    ),
    modifier=st.integers(-2, 3),
    data=st.data(),
)
def test_end_hex_distribution_random_boards(
    values: dict[tuple[int, int], int], modifier: int, data: st.DataObject
) -> None:
    cells = sorted(values)
    start = data.draw(st.sampled_from(cells))
    goal = data.draw(st.sampled_from(cells))
    board = MovementBoard.of(values)
    roll = MovementRoll(dice=1, modifier=modifier)
    proc = activation(board, start, goal, roll)
    odds = end_hex_distribution(proc.behemoth, board, roll, proc.target)
    assert sum(odds.values()) == 1
    assert odds == brute_force(proc)


def test_reach_probability() -> None:
    board = MovementBoard.of({**FORK, (1, 0): 1})
    proc = activation(board, (0, 0), (1, 1), MovementRoll(dice=1, modifier=-1))
    chars = {C("Ash"): name(0, 1), C("Bo"): name(1, 1), C("Cy"): name(0, 0), C("Di"): None}
    odds = reach_probability(proc.behemoth, board, proc.roll, proc.target, chars)
    # points 0 (die 1): stays in (0, 0); 1 (die 2): one of the two first hexes;
    # 2 (die 3): still one of them ((1, 1) costs 2 more); 3..5 (dice 4-6): reaches (1, 1)
    # through one of them.
    assert odds == {
        C("Ash"): Fraction(5, 6) / 2,
        C("Bo"): Fraction(1, 2),
        C("Cy"): Fraction(1, 6),
        C("Di"): Fraction(0),
    }
    by_rule = reach_probability(
        proc.behemoth, board, proc.roll, proc.target, chars, rule=EncounterRule.END
    )
    assert by_rule[C("Ash")] == Fraction(1, 6) and by_rule[C("Bo")] == Fraction(1, 2)


def test_procedures_follow_the_protocol(rules: RulesConstants) -> None:
    assert isinstance(activation(STRIP, (0, 0), (2, 0)), Procedure)
    assert isinstance(encounter(rules), Procedure)
