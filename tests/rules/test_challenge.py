"""Rulebook: Set Up (Select Challenge, Set Up Challenge, Set Up Vital and Epoch Goals,
Determine Starting Hex and Place Characters); Continuing Play (Retaining Supplies, Looming
Challenges & Epoch Goals); readings D10, D13."""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.content.schema.base import HealthToken, Slot
from companion.content.schema.rules import RulesConstants
from companion.rules.challenge import (
    ChallengeFacts,
    LogEntry,
    LoomingChallenge,
    Saga,
    choose_challenge,
    claim_retained,
    complete_goal,
    eligible_challenges,
    end_challenge,
    new_epoch,
    ready_for_next_challenge,
    retain_supplies,
    set_up_challenge,
)
from companion.rules.errors import IllegalAction
from companion.rules.game import Game
from companion.rules.ids import (
    ChallengeId,
    EventId,
    GoalId,
    HexId,
    ItemId,
    PlayerName,
)
from companion.rules.inventory import ItemFacts
from companion.rules.resources import BagToken
from companion.rules.society import Society
from companion.rules.valley import HexTokens
from tests.rules.factories import make


def looming(*pairs: tuple[str, int]) -> tuple[LoomingChallenge, ...]:
    return tuple(LoomingChallenge(ChallengeId(c), p) for c, p in pairs)


@pytest.mark.parametrize(
    ("challenges", "games", "eligible"),
    [
        ((("a", 3), ("b", 2)), 1, ("a", "b")),  # all priorities > 1: any
        ((("a", 3), ("b", 2)), 2, ("b",)),  # b's 2 is not > 2: closest to 1
        ((("a", 3), ("b", 2)), 3, ("b",)),
        ((("a", 1), ("b", 1), ("c", 2)), 1, ("a", "b")),  # tie: the group chooses
        ((("a", 2), ("b", 2)), 1, ("a", "b")),
        ((), 1, ()),
    ],
)
def test_select_challenge_priority_rule(
    challenges: tuple[tuple[str, int], ...], games: int, eligible: tuple[str, ...]
) -> None:
    assert eligible_challenges(looming(*challenges), games) == eligible


def test_select_challenge_choice_checked() -> None:
    with pytest.raises(IllegalAction, match="choose b"):
        choose_challenge(looming(("a", 3), ("b", 2)), 2, ChallengeId("a"))


CHALLENGE = ChallengeFacts(
    ChallengeId("long-winter"),
    vital_goals=(GoalId("feed"),),
    set_aside_goals=(GoalId("secret"),),
    events=(),
)


@pytest.mark.parametrize(
    ("set_aside", "unrest", "epoch"),
    [
        ((), 0, ()),
        ((GoalId("old"),), 5, ("old",)),
        ((GoalId("old"),), 6, ("old", "quelling-the-embers")),
        ((GoalId("quelling-the-embers"),), 11, ("quelling-the-embers",)),  # not twice
    ],
)
def test_set_up_vital_epoch_and_set_aside_goals_d10(
    rules: RulesConstants, set_aside: tuple[GoalId, ...], unrest: int, epoch: tuple[str, ...]
) -> None:
    table = set_up_challenge(rules, CHALLENGE, set_aside, unrest)
    assert (table.vital_goals, table.set_aside_goals, table.epoch_goals) == (
        ("feed",),
        ("secret",),
        epoch,
    )
    done = complete_goal(table, GoalId("feed"))
    assert done.completed == ("feed",)
    with pytest.raises(IllegalAction):
        complete_goal(done, GoalId("feed"))


START, OUT = HexId("S"), HexId("O")


def test_place_characters_ready_full_energy_no_injuries(rules: RulesConstants) -> None:
    tired = make(energy=1, health=(HealthToken.MAJOR_INJURY,))
    ash = ready_for_next_challenge(rules, tired, unrest=0)
    assert (ash.energy, ash.health) == (4, ())


def test_place_characters_unrest_6_one_fewer_energy_d10(rules: RulesConstants) -> None:
    ash = ready_for_next_challenge(rules, make(), unrest=6)
    assert ash.energy == 3


KNIFE = ItemFacts(ItemId("knife"), Slot.GEAR)
ITEMS = {
    ItemId(f"i{n}"): ItemFacts(ItemId(f"i{n}"), Slot.GEAR if n < 3 else Slot.BODY) for n in range(6)
}
MATS = tuple(BagToken.material(f"m{n}") for n in range(6))
RICH = make(items=tuple((i.id, i.slot) for i in ITEMS.values()), bag=(*MATS, BagToken.water()))


def test_retaining_supplies_up_to_5_items_and_5_materials_d13(rules: RulesConstants) -> None:
    kept = retain_supplies(rules, RICH, [ItemId(f"i{n}") for n in range(5)], [0, 1, 2, 3, 4])
    assert (len(kept.items), len(kept.materials)) == (5, 5)
    with pytest.raises(IllegalAction, match="at most 5 items; got 6"):
        retain_supplies(rules, RICH, list(ITEMS), [])
    with pytest.raises(IllegalAction, match="at most 5 material tokens; got 6"):
        retain_supplies(rules, RICH, [], [0, 1, 2, 3, 4, 5])
    with pytest.raises(IllegalAction, match="only material tokens"):
        retain_supplies(rules, RICH, [], [6])
    with pytest.raises(IllegalAction, match="has no item knife"):
        retain_supplies(rules, RICH, [KNIFE.id], [])


def test_retaining_supplies_keep_or_bequeath_to_successor(rules: RulesConstants) -> None:
    kept = retain_supplies(rules, RICH, [ItemId("i0"), ItemId("i3")], [0])
    same = claim_retained(rules, kept, make(), ITEMS)
    assert (len(same.items), same.bag) == (2, (MATS[0],))
    heir = claim_retained(rules, kept, make("Wren", player=PlayerName("player-Ash")), ITEMS)
    assert heir.bag == (MATS[0],)
    with pytest.raises(IllegalAction, match="go to player-Ash's characters"):
        claim_retained(rules, kept, make("Bryn"), ITEMS)


def test_end_of_challenge_resets_and_sets_aside(rules: RulesConstants) -> None:
    table = complete_goal(
        set_up_challenge(rules, CHALLENGE, (GoalId("old"), GoalId("done")), 6), GoalId("done")
    )
    # Opened by operations.setup.start_challenge (its Challenge Log entry).
    saga = Saga(games_in_epoch=1, log=(LogEntry(1, ChallengeId("long-winter"), ("Ash", "Bryn")),))
    assert saga.in_challenge
    game = Game(
        (make(),),
        society=Society(
            unrest=7, activity=9, lore=3, triggered_events=frozenset({EventId("storm")})
        ),
        tokens=HexTokens(shelters=frozenset({START}), fires=frozenset({START}), lore={OUT: 1}),
    )
    kept = retain_supplies(rules, RICH, [ItemId("i0")], [])
    next_up = looming(("thaw", 2))
    saga, game = end_challenge(
        saga, game, outcome="123", looming=next_up, table=table, retained=[kept]
    )
    assert saga.log[-1].outcome == "123" and not saga.in_challenge
    assert saga.log[-1].characters == ("Ash", "Bryn")
    assert saga.looming == next_up
    assert saga.set_aside_epoch_goals == ("old", "quelling-the-embers")
    assert saga.retained == (kept,)
    assert (game.society.unrest, game.society.activity, game.society.lore) == (7, 0, 3)
    assert game.society.triggered_events == frozenset()
    assert game.tokens == HexTokens()


def test_continuing_play_next_challenge_by_priority_then_new_epoch() -> None:
    waiting = looming(("a", 3), ("b", 2))
    with pytest.raises(IllegalAction, match="cannot be chosen now"):
        choose_challenge(waiting, 2, ChallengeId("a"))  # game 2 of the epoch: b first
    choose_challenge(waiting, 2, ChallengeId("b"))
    saga = Saga(games_in_epoch=2, log=(LogEntry(1, ChallengeId("b"), ("Ash",)),))
    with pytest.raises(IllegalAction, match="during a challenge"):
        new_epoch(saga)
    saga = replace(
        saga, log=(replace(saga.log[-1], outcome="7"),), set_aside_epoch_goals=(GoalId("old"),)
    )
    saga = new_epoch(saga)
    assert (saga.epoch, saga.games_in_epoch, saga.set_aside_epoch_goals) == (2, 0, ())



# --- Mantle > Mantle Board: a mantle at the start of each challenge ----------------------


@pytest.mark.parametrize(("chosen", "want", "refusal"), [
    # Ash and Bryn swap mantles: each mantle still worn once.
    ({"Ash": "pathfinder", "Bryn": "hearthkeeper"}, ("pathfinder", "hearthkeeper"), None),
    # Ash takes a free mantle; Bryn keeps the one used previously.
    ({"Ash": "loreweaver"}, ("loreweaver", "pathfinder"), None),
    # Nobody chooses: both continue with the mantle used previously.
    ({}, ("hearthkeeper", "pathfinder"), None),
    # Ash takes Bryn's mantle while Bryn keeps it: one mantle, two characters.
    ({"Ash": "pathfinder"}, None, "Ash and Bryn both chose the mantle pathfinder"),
    ({"Ash": "cloak"}, None, "there is no mantle cloak"),
    ({"Cai": "loreweaver"}, None, "there is no character Cai"),
])
def test_mantle_board_each_player_chooses_a_mantle_at_the_start_of_each_challenge(
        chosen: dict[str, str], want: tuple[str, str] | None, refusal: str | None) -> None:
    """Rulebook: Mantle > Mantle Board; Determine Starting Hex ("You may select a new
    mantle"); Choose Mantle ("only one character each game")."""
    from companion.rules.challenge import choose_mantles
    from companion.rules.ids import MantleId

    mantles = [MantleId(m) for m in ("hearthkeeper", "pathfinder", "loreweaver")]
    pair = (make("Ash", mantle="hearthkeeper"), make("Bryn", mantle="pathfinder"))
    typed = {k: MantleId(v) for k, v in chosen.items()}
    if refusal is not None:
        with pytest.raises(IllegalAction, match=refusal):
            choose_mantles(pair, typed, mantles)
        return
    assert tuple(c.mantle for c in choose_mantles(pair, typed, mantles)) == want


def test_determine_starting_hex_boosts_and_mantle_power_end_with_the_challenge(
        rules: RulesConstants) -> None:
    """Rulebook: Mantle > Boost Slots; Continuing Play > Mantle Power: a minor boost (1)
    and a major boost (2) on might, and a slotted power, are all gone: boosts {} and no
    power; energy back to 4 of 4 (unrest 0, D10)."""
    from companion.content.schema.base import Ability
    from companion.rules.challenge import ready_for_next_challenge
    from companion.rules.ids import MantlePowerId

    ash = make(boosts={Ability.MIGHT: (1, 2)}, mantle_power=MantlePowerId("p"), energy=1)
    ready = ready_for_next_challenge(rules, ash, 0)
    assert (ready.boosts, ready.mantle_power, ready.energy) == ({}, None, 4)
