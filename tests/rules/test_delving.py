"""Delving (Rulebook: Delving, steps 1-4, Depth, Exit; readings D4, D17).

Decks are stacked here so every expectation can be worked out by hand; the depth costs
and the exit table come from the sample pack's rules.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import pytest

from companion.content import Content
from companion.content.schema.base import HealthToken
from companion.content.schema.cards import DelvingCard
from companion.rules.character import Character
from companion.rules.delving import (
    LEFT,
    RETRACE,
    RIGHT,
    DelvingProcedure,
    ExitHex,
    Phase,
    card_cost,
    eligible_cards,
    exit_hexes,
    exit_scope,
    legal_exits,
)
from companion.rules.effects import token_catalogue
from companion.rules.errors import IllegalAction
from companion.rules.exploration import Tray, Valley
from companion.rules.geometry import Axial
from companion.rules.ids import HexId
from companion.rules.procedure import Choice, Decider
from tests.rules.factories import make


def dv(
    card_id: str,
    icon: str,
    *,
    depth: int | None = None,
    paths: tuple[str, str] | None = None,
    exit: bool = False,
    effects: Sequence[dict[str, Any]] = (),
) -> DelvingCard:
    data: dict[str, Any] = {"id": card_id, "icon": icon, "effects": list(effects), "exit": exit}
    if depth is not None:
        data["min_depth"] = depth
    if paths is not None:
        data["paths"] = {"left": paths[0], "right": paths[1]}
    return DelvingCard.model_validate(data)


def valley() -> Valley:
    """Three trays around E04 (a cave, where the character enters, at (0, 0)):

    - adjacent: E03 (cave, explored), E01 (no cave), T05 (chasm, face down but read),
      T01 (cave, explored, another region);
    - further: E05 (cave, face down, same region), E02 (no cave), T04 (no cave), and one
      face-down hex nobody has read.
    """
    tiles = {
        Axial(0, 0): "E04", Axial(1, -1): "E03", Axial(1, 0): "E01",
        Axial(2, 0): "E05", Axial(3, -1): "E02", Axial(3, 0): None,
        Axial(0, 1): "T05", Axial(-1, 1): "T01", Axial(-1, 2): "T04",
    }  # fmt: skip
    return Valley(
        trays=(
            Tray(0, "emberfen", Axial(0, 0)),
            Tray(1, "emberfen", Axial(2, 0)),
            Tray(2, "thornspire", Axial(0, 1), "west"),
        ),
        tiles={cell: HexId(t) if t else None for cell, t in tiles.items()},
        explored=frozenset({Axial(0, 0), Axial(1, -1), Axial(1, 0), Axial(-1, 1)}),
    )


def start(
    content: Content, deck: Sequence[DelvingCard], character: Character | None = None, **rules: int
) -> DelvingProcedure:
    delving = content.rules.delving.model_copy(update=rules)
    return DelvingProcedure.start(
        character or make("Ash"),
        deck,
        delving,
        "E04",
        exit_hexes(valley(), content, HexId("E04")),
        token_catalogue(content.materials.values(), content.foods.values()),
    )


def play(proc: DelvingProcedure, choices: Sequence[Choice]) -> DelvingProcedure:
    for choice in choices:
        proc = proc.apply(choice)
        assert DelvingProcedure.from_state(json.loads(json.dumps(proc.to_state()))) == proc
    return proc


# --- Steps 1 and 3: requirements and directions ----------------------------------------

S1 = dv("S1", "spiral", paths=("fang", "drip"), effects=[{"do": "gain", "resource": "cloudstone"}])
F1 = dv("F1", "fang", paths=("fang", "drip"), effects=[{"do": "lore", "amount": 1}])
F3 = dv("F3", "fang", depth=3, paths=("drip", "drip"))
D1 = dv(
    "D1",
    "drip",
    paths=("spiral", "fang"),
    effects=[
        {
            "do": "test",
            "ability": "dexterity",
            "difficulty": 7,
            "success": [{"do": "gain", "resource": "clay"}],
            "failure": [{"do": "suffer", "token": "minor_injury"}],
        },
    ],
)
D2 = dv("D2", "drip", paths=("fang", "fang"))
DECK = [F3, S1, F1, D1, D2]


def test_delving_step1_first_card_has_no_requirement(content: Content) -> None:
    proc = start(content, DECK)
    step = proc.step()
    assert step.decider is Decider.CARD
    assert step.options == ("S1", "F1", "D1", "D2")  # F3 needs depth 3
    with pytest.raises(IllegalAction):
        proc.apply("F3")


@pytest.mark.parametrize(
    ("depth", "icon", "path", "expected"),
    [
        (0, None, [], ("S1", "F1", "D1", "D2")),
        (1, "fang", ["S1"], ("F1",)),  # F3: "Depth 3+" not met
        (2, "fang", ["S1", "D2"], ("F1",)),
        (3, "fang", ["S1", "D2", "F1"], ("F3",)),  # F1 is on the path
        (3, "drip", ["S1", "F1", "F3"], ("D1", "D2")),
        (1, "spiral", ["S1"], ()),
    ],
)
def test_delving_step3_icon_and_depth_requirement(
    depth: int, icon: str | None, path: list[str], expected: tuple[str, ...]
) -> None:
    assert eligible_cards(DECK, depth, icon, path) == expected


def test_delving_step2_continue_by_the_printed_directions(content: Content) -> None:
    proc = play(start(content, DECK), ["S1"])
    assert proc.phase is Phase.CHOOSE and proc.depth == 1
    step = proc.step()
    assert step.options == (LEFT, RIGHT, RETRACE)
    assert "fang" in step.labels[LEFT] and "drip" in step.labels[RIGHT]
    proc = play(proc, [LEFT])
    assert proc.step().options == ("F1",)


def test_delving_a_direction_with_no_card_is_not_offered(content: Content) -> None:
    proc = play(start(content, DECK), ["S1", LEFT, "F1"])
    assert proc.depth == 2
    assert proc.step().options == (RIGHT, RETRACE)  # fang: F3 needs depth 3


def test_delving_step2_effects_and_tests_as_dice(content: Content) -> None:
    proc = play(start(content, DECK), ["S1"])
    assert [t.name for t in proc.outcome().gained] == ["cloudstone"]
    proc = play(proc, [RIGHT, "D1"])
    assert proc.phase is Phase.TEST and proc.step().decider is Decider.DICE
    # Ash: Dexterity 3. 4 + 3 = 7: success, gain 1 clay.
    won = play(proc, [(4,)])
    assert [t.name for t in won.outcome().gained] == ["cloudstone", "clay"]
    assert won.phase is Phase.CHOOSE
    lost = play(proc, [(3,)])
    assert lost.outcome().suffered == (HealthToken.MINOR_INJURY,)


def test_delving_step4_retrace_ends_where_they_entered(content: Content) -> None:
    proc = play(start(content, DECK), ["F1", RETRACE])
    assert proc.is_finished()
    assert proc.outcome().lore == 1
    assert proc.outcome().extra["exit_hex"] == "E04"
    assert proc.outcome().extra["path"] == ["F1"]


def test_delving_a_card_without_paths_ends_the_delve(content: Content) -> None:
    proc = play(start(content, [dv("Z", "drip")]), ["Z"])
    assert proc.is_finished() and proc.outcome().extra["exit_hex"] == "E04"


def test_delving_refuses_a_deck_without_a_first_card(content: Content) -> None:
    with pytest.raises(IllegalAction, match="without a requirement"):
        start(content, [F3])


# --- Depth -------------------------------------------------------------------------------

CHAIN = [dv(f"C{i}", "spiral", paths=("spiral", "spiral")) for i in range(1, 13)]


@pytest.mark.parametrize(("depth", "cost"), [(0, 0), (1, 0), (6, 0), (7, 1), (8, 1), (12, 1)])
def test_delving_depth_cost_from_depth_7(content: Content, depth: int, cost: int) -> None:
    assert card_cost(content.rules.delving, depth) == cost


@pytest.mark.parametrize(("energy", "cards", "spent"), [(2, 9, 2), (0, 7, 0), (1, 8, 1)])
def test_delving_runs_out_of_energy(content: Content, energy: int, cards: int, spent: int) -> None:
    # Cards 1-7 are free (depth 0-6 before each); the 8th and later cost 1 each (D17).
    proc = start(content, CHAIN, character=make("Ash", energy=energy))
    choices: list[Choice] = []
    for i in range(cards):
        choices.append(f"C{i + 1}")
        if i + 1 < cards:
            choices.append(LEFT)
    proc = play(proc, choices)
    assert proc.is_finished(), proc.describe()
    assert proc.depth == cards
    assert proc.outcome().energy == -spent
    assert proc.outcome().extra["exit_hex"] == "E04"  # returned to the hex where they entered
    assert "No energy" in proc.outcome().log[-1]


def test_delving_costly_card_labels_its_cost(content: Content) -> None:
    proc = play(start(content, CHAIN), [x for i in range(7) for x in (f"C{i + 1}", LEFT)][:-1])
    assert proc.depth == 7 and "costs 1 energy" in proc.step().labels[LEFT]


# --- Exit --------------------------------------------------------------------------------


def test_delving_exit_candidates(content: Content) -> None:
    assert exit_hexes(valley(), content, HexId("E04")) == (
        ExitHex("E03", adjacent=True, same_region=True, explored=True),
        ExitHex("E05", adjacent=False, same_region=True, explored=False,
                where="the unexplored hex south-east of E01"),
        ExitHex("T01", adjacent=True, same_region=False, explored=True),
        ExitHex("T05", adjacent=True, same_region=False, explored=False,
                where="the unexplored hex south of E04"),
    )
    # Valley > Hexes: a face-down hex is shown by where it lies, never its tile.
    assert [e.shown for e in exit_hexes(valley(), content, HexId("E04"))][1] == \
        "the unexplored hex south-east of E01"


@pytest.mark.parametrize(
    ("depth", "scope", "expected"),
    [
        (1, "adjacent", ("E04", "E03", "T01", "T05")),
        (2, "adjacent", ("E04", "E03", "T01", "T05")),
        (3, "region", ("E04", "E03", "E05")),
        (4, "region", ("E04", "E03", "E05")),
        (5, "anywhere", ("E04", "E03", "E05", "T01", "T05")),
        (9, "anywhere", ("E04", "E03", "E05", "T01", "T05")),
    ],
)
def test_delving_exit_by_depth(
    content: Content, depth: int, scope: str, expected: tuple[str, ...]
) -> None:
    rules = content.rules.delving
    assert exit_scope(rules, depth) == scope
    exits = exit_hexes(valley(), content, HexId("E04"))
    assert legal_exits(rules, depth, exits, "E04") == expected


@pytest.mark.parametrize(
    ("before", "choice", "explore"),
    [(0, "T05", True), (0, "T01", False), (0, "E04", False), (2, "E05", True)],
)
def test_delving_exit_card_places_the_character(
    content: Content, before: int, choice: str, explore: bool
) -> None:
    out = dv("X", "spiral", exit=True, effects=[{"do": "lore", "amount": 1}])
    proc = start(content, [*CHAIN[:before], out])
    for i in range(before):
        proc = play(proc, [f"C{i + 1}", LEFT])
    proc = play(proc, ["X"])
    assert proc.phase is Phase.EXIT and proc.depth == before + 1
    assert choice in proc.step().options
    proc = play(proc, [choice])
    extra = proc.outcome().extra
    assert proc.is_finished() and extra["exit_hex"] == choice and extra["explore"] is explore
    assert proc.outcome().lore == 1


def test_delving_exit_out_of_scope_is_refused(content: Content) -> None:
    proc = play(start(content, [dv("X", "spiral", exit=True)]), ["X"])
    assert "E05" not in proc.step().options  # depth 1: adjacent hexes only
    with pytest.raises(IllegalAction):
        proc.apply("E05")


# --- the sample deck ---------------------------------------------------------------------


def test_delving_sample_deck_starts_without_requirement(content: Content) -> None:
    proc = start(content, list(content.delving_cards.values()))
    first = proc.step().options
    assert first and all(content.delving_cards[c].min_depth is None for c in first)



def test_delving_prompt_names_the_depth_of_the_card_to_draw(content: Content) -> None:
    # Rulebook: Delving: the next card drawn lies one depth deeper than the path's end
    # (the prompt said the path's depth while the board said "Next, depth 2").
    proc = play(start(content, DECK), ["S1", LEFT])
    assert proc.depth == 1
    assert proc.step().prompt == "Step 3: draw the next card showing fang (depth 2)"
