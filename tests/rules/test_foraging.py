"""Foraging (Rulebook: Foraging, steps 1-5; Animal Encounters; readings D1, D5, D6).

Cards are written out here (rows front, middle, back) so every expectation can be worked
out by hand; objects, bonus objects and numbers come from the sample pack.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.content import Content
from companion.content.schema.base import Ability, HealthToken
from companion.content.schema.cards import ForageCard
from companion.rules.character import Character
from companion.rules.effects import token_catalogue
from companion.rules.errors import IllegalAction
from companion.rules.foraging import (
    DONE,
    FIGHT,
    FLEE,
    HARVEST,
    SEARCH,
    ForagingProcedure,
    Phase,
    encounter_difficulty,
    front_row_predator,
    harvest_cap,
    harvest_yield,
    legal_expansion_choices,
    spots,
    within_reach,
)
from companion.rules.procedure import Choice, Decider
from tests.rules.factories import make


def card(
    card_id: str,
    front: Sequence[str] = (),
    middle: Sequence[str] = (),
    back: Sequence[str] = (),
    deck: str = "forest",
) -> ForageCard:
    rows = {"front": list(front), "middle": list(middle), "back": list(back)}
    return ForageCard.model_validate({"id": card_id, "deck": deck, "rows": rows})


def start(
    content: Content,
    cards: Sequence[ForageCard],
    character: Character | None = None,
    cap: int | None = None,
    deck: str = "forest",
) -> ForagingProcedure:
    return ForagingProcedure.start(
        character or make("Ash"),
        deck,
        cards,
        content.forage_objects,
        content.forage_bonuses,
        content.rules.foraging,
        token_catalogue(content.materials.values(), content.foods.values()),
        cap,
    )


def play(proc: ForagingProcedure, choices: Sequence[Choice]) -> ForagingProcedure:
    for choice in choices:
        proc = proc.apply(choice)
        again = ForagingProcedure.from_state(json.loads(json.dumps(proc.to_state())))
        assert again == proc
    return proc


def names(proc: ForagingProcedure) -> Counter[str]:
    return Counter(t.name for t in proc.outcome().gained)


FILLER = card("Z9")
"""A card with nothing on it: it only makes the tableau two cards long (Step 2)."""


# --- Step 4: within reach ---------------------------------------------------------------

# Cards for the reach table.
A = card("A", front=["tree", "animal-path"], middle=["tree", "nut-bush"], back=["tree", "stream"])
B = card("B", front=["nut-bush"], middle=["animal-path", "root-plant"], back=["nut-bush"])
C = card("C", front=["tree"], middle=["tree"], back=["tree"])
D = card("D", front=["root-plant"], middle=["animal-path"], back=["tree"])


@pytest.mark.parametrize(
    ("tableau", "chosen", "expected"),
    [
        # Front rows are always within reach.
        ([C], [], {"C/front/1"}),
        # Rulebook example: a tree chosen in the front row brings middle-row trees within
        # reach; one chosen in the middle row brings back-row trees within reach.
        ([C], ["C/front/1"], {"C/front/1", "C/middle/1"}),
        ([C], ["C/front/1", "C/middle/1"], {"C/front/1", "C/middle/1", "C/back/1"}),
        # An animal path in a front row opens every middle row, any type, on any card.
        (
            [A, C],
            [],
            {"A/front/1", "A/front/2", "A/middle/1", "A/middle/2", "C/front/1", "C/middle/1"},
        ),
        # Chains across cards: A's front-row path and B's middle-row path open back rows.
        (
            [A, B],
            [],
            {
                "A/front/1",
                "A/front/2",
                "A/middle/1",
                "A/middle/2",
                "A/back/1",
                "A/back/2",
                "B/front/1",
                "B/middle/1",
                "B/middle/2",
                "B/back/1",
            },
        ),
        # A middle-row path alone opens nothing: the front row before it has no opener.
        ([D], [], {"D/front/1"}),
        # A chosen tree in a front row + a path in a middle row: back trees in reach,
        # the back-row tree of D via the chain; the nut bush of B's back row is not.
        (
            [C, D, B],
            ["C/front/1"],
            {"C/front/1", "C/middle/1", "C/back/1", "D/front/1", "D/back/1", "B/front/1"},
        ),
    ],
)
def test_foraging_step4_within_reach(
    content: Content, tableau: list[ForageCard], chosen: list[str], expected: set[str]
) -> None:
    assert within_reach(tableau, chosen, content.forage_objects) == expected


def test_foraging_step4_reach_refuses_unknown_objects(content: Content) -> None:
    with pytest.raises(IllegalAction, match="not an object"):
        within_reach([C], ["C/front/9"], content.forage_objects)


# --- Step 4: the harvest cap -----------------------------------------------------------

TREES = card(
    "T", front=["tree + feather", "tree", "tree + mushroom", "tree + bone"], middle=["tree"]
)


def to_harvest(content: Content, cards: Sequence[ForageCard], **kw: Any) -> ForagingProcedure:
    proc = start(content, [*cards, FILLER], **kw)
    # Step 1 keeps the card, Step 2 adds the filler (the only card left), Step 3 harvests.
    return play(proc, [cards[0].id, FILLER.id, cards[0].id, FILLER.id, FILLER.id, HARVEST])


@pytest.mark.parametrize(("items", "cap"), [((), 3), (("sling",), 4)])
def test_foraging_step4_harvest_cap(content: Content, items: tuple[str, ...], cap: int) -> None:
    assert harvest_cap(content.rules.foraging, [content.items[i] for i in items]) == cap
    proc = to_harvest(content, [TREES], cap=cap)
    for _ in range(cap):
        proc = proc.apply(next(o for o in proc.step().options if o != DONE))
    assert proc.step().options == (DONE,)  # the cap is reached
    proc = proc.apply(DONE)
    assert proc.is_finished()
    assert names(proc)["wood"] == cap


def test_foraging_step4_the_choice_of_objects_decides_the_bonus(content: Content) -> None:
    # Rulebook: "you choose which of those objects you harvest. This can matter for
    # acquiring bonus objects."
    proc = play(to_harvest(content, [TREES]), ["T/front/1", "T/front/3", "T/front/4", DONE])
    assert names(proc) == Counter({"wood": 3, "feather": 1, "mushroom": 1, "bone": 1})
    proc = play(to_harvest(content, [TREES]), ["T/front/2", "T/middle/1", DONE])
    assert names(proc) == Counter({"wood": 2})


def test_foraging_step4_one_type_of_object(content: Content) -> None:
    proc = to_harvest(content, [A])
    proc = proc.apply("A/front/1")  # a tree
    assert {"A/middle/2"} & set(proc.step().options) == set()  # the nut bush is another type
    with pytest.raises(IllegalAction):
        proc.apply("A/middle/2")
    assert "A/middle/1" in proc.step().options


def test_foraging_step4_animal_paths_are_not_harvested(content: Content) -> None:
    proc = to_harvest(content, [A])
    assert "A/front/2" not in proc.step().options


@pytest.mark.parametrize(
    ("chosen", "bonus_only", "expected"),
    [
        (["T/front/1", "T/front/2"], False, ["wood", "wood", "feather"]),
        (["T/front/4"], True, ["bone"]),
    ],
)
def test_foraging_harvest_yield(
    content: Content, chosen: list[str], bonus_only: bool, expected: list[str]
) -> None:
    got = harvest_yield(
        [TREES], chosen, content.forage_objects, content.forage_bonuses, with_objects=not bonus_only
    )
    assert got == expected


# --- Steps 1-3 -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("choices", "phase", "tableau"),
    [
        ([], Phase.DRAW_FIRST, ()),
        (["A", "B"], Phase.KEEP_FIRST, ()),
        (["A", "B", "A"], Phase.DRAW_MORE, ("A",)),  # Step 1 is followed by Step 2
        (["A", "B", "A", "B", "C"], Phase.KEEP_MORE, ("A",)),
        (["A", "B", "A", "B", "C", "C"], Phase.DECIDE, ("A", "C")),  # then Step 3
    ],
)
def test_foraging_steps_1_2_3_in_order_two_cards_before_the_first_harvest(
    content: Content, choices: list[str], phase: Phase, tableau: tuple[str, ...]
) -> None:
    proc = play(start(content, [A, B, C]), choices)
    assert proc.phase is phase and proc.tableau == tableau
    if phase is not Phase.DECIDE:
        assert HARVEST not in proc.step().options
    else:
        assert proc.step().options == (HARVEST, SEARCH)



def test_foraging_step1_draw_two_keep_one_the_other_goes_back(content: Content) -> None:
    proc = start(content, [A, B, C])
    step = proc.step()
    assert step.decider is Decider.CARD and set(step.options) == {"A", "B", "C"}
    proc = play(proc, ["A", "B"])
    assert proc.step().decider is Decider.PLAYER and proc.step().options == ("A", "B")
    proc = play(proc, ["B"])
    # Step 2 follows at once: no harvest from a tableau of one card.
    assert proc.tableau == ("B",) and proc.phase is Phase.DRAW_MORE
    assert set(proc.step().options) == {"A", "C"}  # A was shuffled back in
    assert proc.step().prompt.startswith("Step 2")


def test_foraging_step2_a_short_deck(content: Content) -> None:
    proc = play(start(content, [A, B, C]), ["A", "B", "A", "C", "B", "C"])
    assert proc.tableau == ("A", "C")
    assert proc.step().options == (HARVEST, SEARCH)  # B went back into the deck
    proc = play(proc, [SEARCH, "B"])
    # only B was left: it is drawn alone and offered alone
    assert proc.phase is Phase.KEEP_MORE and proc.step().options == ("B",)
    proc = play(proc, ["B"])
    assert proc.step().options == (HARVEST,)  # nothing left to draw


def test_foraging_refuses_a_bad_deck(content: Content) -> None:
    with pytest.raises(IllegalAction, match="at least 2"):
        start(content, [A])
    with pytest.raises(IllegalAction, match="twice"):
        start(content, [A, A])
    with pytest.raises(IllegalAction, match="forest"):
        start(content, [A, card("P", front=["grain-bush"], deck="plains")])


# --- Step 2: predator constraints ------------------------------------------------------

NONE = card("N", front=["tree"])
PRED_BACK = card("PB", front=["tree"], back=["predator"])
PRED_MID = card("PM", front=["tree"], middle=["predator"])
PRED_MID2 = card("PM2", front=["nut-bush"], middle=["predator"], back=["predator"])
PRED_FRONT = card("PF", front=["predator"])


@pytest.mark.parametrize(
    ("tableau", "a", "b", "legal"),
    [
        # no predator in the tableau: free choice
        ([NONE], PRED_MID, NONE, ("PM", "N")),
        # a predator in the tableau: must take a card with a predator, if able
        ([PRED_BACK], PRED_MID, NONE, ("PM",)),
        ([PRED_BACK], NONE, PRED_MID, ("PM",)),
        ([PRED_BACK], NONE, card("N2", front=["stream"]), ("N", "N2")),
        # between two with predators: one in the same row as the closest or closer
        ([PRED_MID], PRED_BACK, PRED_MID2, ("PM2",)),
        ([PRED_MID], PRED_MID2, PRED_BACK, ("PM2",)),
        ([PRED_MID], PRED_FRONT, PRED_MID2, ("PF", "PM2")),
        ([PRED_BACK], PRED_MID, PRED_MID2, ("PM", "PM2")),
        # neither is as close: the rule cannot be met, free choice between them
        ([PRED_FRONT], PRED_MID, PRED_BACK, ("PM", "PB")),
        # the closest predator of the tableau counts, over the cards
        ([PRED_BACK, PRED_MID], PRED_BACK.model_copy(update={"id": "PB2"}), PRED_MID2, ("PM2",)),
    ],
)
def test_foraging_step2_predator_constraints(
    content: Content,
    tableau: list[ForageCard],
    a: ForageCard,
    b: ForageCard,
    legal: tuple[str, ...],
) -> None:
    assert legal_expansion_choices(tableau, a, b, content.forage_objects) == legal


def test_foraging_step2_only_legal_cards_are_offered(content: Content) -> None:
    proc = play(start(content, [PRED_BACK, NONE, PRED_MID]), ["PB", "N", "PB"])
    proc = play(proc, ["N", "PM"])
    assert proc.step().options == ("PM",)
    with pytest.raises(IllegalAction):
        proc.apply("N")


@pytest.mark.parametrize("first", [True, False])
def test_foraging_step2_front_row_predator_forces_the_encounter(
    content: Content, first: bool
) -> None:
    # reading: "ever" - also the card kept at step 1
    if first:
        proc = play(start(content, [PRED_FRONT, NONE]), ["PF", "N", "PF"])
    else:
        proc = play(start(content, [NONE, PRED_FRONT, TREES]), ["N", "T", "N"])
        proc = play(proc, ["PF", "T", "PF"])
    assert front_row_predator(proc.cards, content.forage_objects)
    assert proc.phase is Phase.PREDATOR and proc.step().options == (FIGHT, FLEE)
    proc = play(proc, [FLEE, (6,)])
    assert proc.is_finished() and not proc.outcome().gained  # no harvest


# --- Animal encounters -----------------------------------------------------------------
# Ash: Might 4, Dexterity 3 (tests/rules/factories.py).

LARGE = card("L", front=["large-prey + riverstone", "large-prey"])
SMALL = card("S", front=["small-prey + feather", "small-prey", "small-prey"], deck="plains")
FILLER_P = card("Z8", deck="plains")
LURK = card("K", front=["animal-path"], middle=["predator + bone"])


@pytest.mark.parametrize(
    ("die", "success", "gained"),
    [
        (4, False, {}),  # 4 + 3 = 7 < 8: "The creature slips past you"
        (5, True, {"meat": 3, "bone": 1, "hide": 1, "tendon": 1, "riverstone": 1}),
    ],
)
def test_foraging_hunt_large_prey(
    content: Content, die: int, success: bool, gained: dict[str, int]
) -> None:
    proc = to_harvest(content, [LARGE])
    proc = proc.apply("L/front/1")
    assert proc.step().options == (DONE,)  # at most one large prey
    proc = play(proc, [DONE])
    assert proc.step().decider is Decider.DICE and "8+" in proc.step().prompt
    proc = play(proc, [(die,)])
    assert proc.is_finished()
    assert proc.tests[0]["success"] is success and proc.tests[0]["difficulty"] == 8
    assert names(proc) == Counter(gained)


@pytest.mark.parametrize(
    ("prey", "need"),
    [(1, 6), (2, 7), (3, 8)],  # D5: 5 + number of prey
)
@pytest.mark.parametrize("hit", [True, False])
def test_foraging_hunt_small_prey(content: Content, prey: int, need: int, hit: bool) -> None:
    assert encounter_difficulty(content.rules.foraging.hunt_small_prey, prey) == need
    die = need - 3 if hit else need - 4  # Dexterity 3
    proc = start(content, [SMALL, FILLER_P], deck="plains")
    proc = play(proc, ["S", "Z8", "S", "Z8", "Z8", HARVEST])
    proc = play(proc, [f"S/front/{i + 1}" for i in range(prey)] + [DONE, (die,)])
    assert proc.tests[0]["difficulty"] == need and proc.tests[0]["success"] is hit
    expected = Counter({"meat": prey, "hide": 1, "bone": 1, "feather": 1}) if hit else Counter()
    assert names(proc) == expected


@pytest.mark.parametrize(
    ("choice", "die", "gained", "suffered"),
    [
        (FIGHT, 6, {"meat": 2, "teeth": 1, "shell": 1, "tendon": 1}, ()),  # 6 + 4 = 10
        (FIGHT, 5, {}, (HealthToken.MAJOR_INJURY,)),  # 9: "Escape with a nasty cut"
        (FLEE, 5, {}, ()),  # 5 + 3 = 8: "Escape!"
        (FLEE, 4, {}, (HealthToken.MAJOR_INJURY,)),
    ],
)
def test_foraging_predator_reached_by_an_animal_path(
    content: Content,
    choice: str,
    die: int,
    gained: dict[str, int],
    suffered: tuple[HealthToken, ...],
) -> None:
    proc = to_harvest(content, [LURK])
    assert "K/middle/1" in proc.step().options  # the path brings it within reach
    proc = play(proc, ["K/middle/1"])
    assert proc.step().options == (DONE,)  # at most one predator
    proc = play(proc, [DONE, choice, (die,)])
    assert proc.is_finished()
    assert names(proc) == Counter(gained)  # the bone on the predator is never harvested
    assert proc.outcome().suffered == suffered


def test_foraging_encounter_uses_boosts_and_traits(content: Content) -> None:
    ash = make("Ash", boosts={Ability.DEXTERITY: (2,)})
    proc = to_harvest(content, [LARGE], character=ash)
    proc = play(proc, ["L/front/2", DONE, (3,)])  # 3 + 3 + 2 boost = 8
    assert proc.tests[0]["total"] == 8 and proc.tests[0]["success"]
    assert proc.character.boosts[Ability.DEXTERITY] == (1,)  # degraded


def test_foraging_nothing_within_reach_harvests_nothing(content: Content) -> None:
    bare = card("E", front=["animal-path"])
    proc = play(start(content, [bare, FILLER]), ["E", "Z9", "E", "Z9", "Z9", HARVEST])
    assert proc.step().options == (DONE,)
    proc = play(proc, [DONE])
    assert proc.is_finished() and not proc.outcome().gained


# --- the dialog's view, and the sample decks -------------------------------------------


def test_foraging_view_shows_rows_and_reach(content: Content) -> None:
    proc = play(to_harvest(content, [C]), ["C/front/1"])
    (view,) = [v for v in proc.view() if v.card == "C"]
    front, middle, back = view.rows
    assert [(s.name, s.within_reach, s.chosen) for s in front] == [("Tree", True, True)]
    assert [(s.within_reach, s.chosen) for s in middle] == [(True, False)]
    assert [s.within_reach for s in back] == [False]


@pytest.mark.parametrize("deck", ["forest", "plains"])
def test_foraging_sample_decks_start(content: Content, deck: str) -> None:
    proc = start(content, content.forage_deck(deck), deck=deck)
    assert len(proc.step().options) == len(content.forage_deck(deck))


def _state_keys(state: Mapping[str, Any]) -> set[str]:
    return set(state)


def test_foraging_state_round_trip_and_refusal(content: Content) -> None:
    proc = play(start(content, [A, B, C]), ["A", "B"])
    state = proc.to_state()
    assert {"kind", "character", "tableau", "drawn", "phase"} <= _state_keys(state)
    with pytest.raises(IllegalAction):
        proc.apply("C")
    assert proc.to_state() == state
    with pytest.raises(IllegalAction, match="not a foraging state"):
        ForagingProcedure.from_state({**state, "kind": "fishing"})


# --- invariants ------------------------------------------------------------------------

OBJECTS = ["tree", "nut-bush", "animal-path", "predator", "stream", "root-plant"]
row_st = st.lists(st.sampled_from(OBJECTS), max_size=3)
card_st = st.tuples(row_st, row_st, row_st)


@settings(max_examples=60, deadline=None)
@given(st.lists(card_st, min_size=1, max_size=3), st.data())
def test_foraging_reach_invariants(
    content: Content, rows: list[tuple[list[str], ...]], data: st.DataObject
) -> None:
    tableau = [card(f"R{i}", *r) for i, r in enumerate(rows)]
    objects = content.forage_objects
    reach = within_reach(tableau, [], objects)
    every = {s.key: s for s in spots(tableau)}
    assert {k for k, s in every.items() if s.row == 0} <= reach  # front rows
    keys = sorted(every)
    chosen = data.draw(st.lists(st.sampled_from(keys), max_size=3, unique=True)) if keys else []
    assert reach <= within_reach(tableau, chosen, objects)  # choosing never loses reach
    a, b = data.draw(st.sampled_from(tableau)), data.draw(st.sampled_from(tableau))
    if a.id != b.id:
        legal = legal_expansion_choices(tableau, a, b, objects)
        assert legal and set(legal) <= {a.id, b.id}
