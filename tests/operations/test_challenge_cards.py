"""Challenge cards typed from the card in hand, and the outcome each card names
(Rulebook: Set Up > Select Challenge, Set Up Challenge; Continuing Play; issue 25 part 5,
issue 27 item 7)."""

from __future__ import annotations

import pytest

from companion import operations
from companion.content import user_pack
from companion.operations import Campaign, Refused
from companion.operations.challenge import end_challenge
from companion.operations.challenge_cards import (
    card_outcome,
    challenge_from_file,
    challenge_from_typed,
    parse_event,
    read_challenge_outcome,
    start_typed_challenge,
)
from companion.operations.setup import goals as goals_of
from companion.operations.setup import unknown_looming

CARD = {"id": "C41", "name": "The Salt Wind", "priority": 2, "starting_omen": "cloud",
        "vital_goals": ["Salt the Meat: Hold 4 meat at the end of a Night.", "First Hearth"],
        "epoch_goals": ["Old Songs: Gain 5 lore."],
        "events": ["5 societal The folk quarrel: unrest 1",
                   "12..18 ongoing Cold nights: energy -1",
                   "19 immediate Winter comes."],
        "outcome": 412}


def typed(campaign: Campaign, **changes: object) -> tuple[dict, list]:  # type: ignore[type-arg]
    return challenge_from_file(campaign.content, {**CARD, **changes})


def test_set_up_events_typed_as_the_card_prints_them() -> None:
    assert parse_event("6 immediate Winter comes: unrest 2, activity 1") == {
        "threshold": 6, "type": "immediate", "text": "Winter comes.",
        "effects": [{"do": "unrest", "amount": 2}, {"do": "activity", "amount": 1}]}
    assert parse_event("16..20 ongoing")["text"] == "Ongoing event."
    with pytest.raises(Refused, match="not an event type"):
        parse_event("6 storm Hail")
    with pytest.raises(Refused, match="threshold, type and text"):
        parse_event("Winter comes")
    with pytest.raises(Refused, match="event at 6"):
        parse_event("6 event Hail: gain")


def test_set_up_goals_known_by_name_are_reused_new_ones_get_an_id(demo: Campaign) -> None:
    card, goals = typed(demo)
    assert card["vital_goals"] == ["G-salt-the-meat", "G-first-hearth"]
    assert [g["id"] for g in goals] == ["G-salt-the-meat", "G-old-songs"]
    assert card["outcome"] == "412" and card["starting_omen"] == "cloud"
    with pytest.raises(Refused, match="not an omen"):
        challenge_from_typed(demo.content, id="C9", name="X", priority=1,
                             starting_omen="rain", vital_goals=["A: b"], events=["3 event"])
    with pytest.raises(Refused, match="at least one vital goal"):
        typed(demo, vital_goals=[])


def test_continuing_play_a_typed_looming_challenge_is_entered_and_started(
        demo: Campaign) -> None:
    """Continuing Play: the outcome names a looming challenge the app does not know; the
    next game the group types its card, and it is saved, carried and started at once."""
    assert card_outcome(demo, "C1") == "301"  # issue 27 item 7: the card names it
    end_challenge(demo, looming=["C41"])  # the card's outcome, not typed
    assert demo.journal(1)[0].text.startswith("The Long Thaw ends: outcome entry 301")
    assert "C41 (a card to enter when it is started)" in demo.journal(1)[0].text
    assert unknown_looming(demo) == ["C41"]
    card, goals = typed(demo)
    changes = start_typed_challenge(demo, card=card, goals=goals)
    assert "Entered the challenge card The Salt Wind (C41) and 2 goal cards" in changes.summary
    status = demo.status()
    assert (status.challenge_id, status.challenge_name) == ("C41", "The Salt Wind")
    assert ("G-salt-the-meat", "vital") in goals_of(demo)
    assert demo.content.challenges["C41"].events[1].until == 18
    pack = user_pack.find_user_pack("sample-mine")
    assert pack is not None
    assert {("challenges", "C41"), ("goals", "G-old-songs")} <= set(
        user_pack.pack_cards(pack.folder))
    assert card_outcome(demo, "C41") == "412"
    # One operation: undo takes the start back (the card stays known, in the pack).
    operations.undo(demo)
    assert demo.status().challenge_id is None
    assert unknown_looming(demo) == []
    operations.start_challenge(demo, challenge="C41")
    assert demo.status().challenge_id == "C41"


def test_set_up_a_typed_challenge_refused_changes_nothing(demo: Campaign) -> None:
    card, goals = typed(demo)
    with pytest.raises(Refused, match="still being played"):
        start_typed_challenge(demo, card=card, goals=goals)
    end_challenge(demo, outcome="301", looming=["C2"])
    events = len(demo.journal(100))
    with pytest.raises(Refused, match=r"cannot be started now.*looming challenges are C2"):
        start_typed_challenge(demo, card=card, goals=goals)
    with pytest.raises(Refused, match="knows the challenge C2 already"):
        start_typed_challenge(demo, card={**card, "id": "C2"}, goals=goals)
    with pytest.raises(Refused, match="priority"):
        start_typed_challenge(demo, card={**card, "priority": -1}, goals=goals)
    assert len(demo.journal(100)) == events
    assert user_pack.find_user_pack("sample-mine") is None


def test_continuing_play_end_challenge_needs_the_outcome_of_an_unknown_card(
        demo: Campaign) -> None:
    end_challenge(demo, looming=["C41"])
    start_typed_challenge(demo, card={**typed(demo)[0], "outcome": None},
                          goals=typed(demo)[1])
    with pytest.raises(Refused, match="type the outcome entry printed on the card"):
        end_challenge(demo)
    with pytest.raises(Refused, match="printed on its card"):
        end_challenge(demo, outcome="412", looming=["C 9!"])
    end_challenge(demo, outcome="412")
    assert demo.status().challenge_id is None


def test_using_the_codex_the_ended_challenges_outcome_is_read(demo: Campaign) -> None:
    end_challenge(demo, looming=["C2"])
    reveal = read_challenge_outcome(demo, number="301").detail
    assert reveal.found and "Frost in the Fur (C2)" in reveal.text


def test_sample_challenges_name_outcomes_the_codex_has(demo: Campaign) -> None:
    """Issue 27 item 7: every sample challenge card names its End Challenge outcome,
    and the sample Codex has that entry."""
    for card in demo.content.challenges.values():
        assert card.outcome is not None, card.id
        assert demo.content.codex.outcome(card.outcome) is not None, card.id


def test_set_up_a_typed_card_refused_after_saving_is_started_when_typed_again(
        demo: Campaign) -> None:
    """The card is saved, then its start refused (a mantle chosen twice): typed again,
    the same card starts, with its goals reused, not saved twice."""
    end_challenge(demo, looming=["C41"])
    card, goals = typed(demo)
    mantle = next(iter(demo.content.mantles))
    with pytest.raises(Refused, match="mantle"):
        start_typed_challenge(demo, card=card, goals=goals,
                              mantles={"Ash": mantle, "Bryn": mantle})
    assert "C41" in demo.content.challenges and demo.status().challenge_id is None
    again, new_goals = typed(demo)
    assert new_goals == [] and again == card
    start_typed_challenge(demo, card=again, goals=new_goals)
    assert demo.status().challenge_id == "C41"
    with pytest.raises(Refused, match="knows the challenge C2 already"):
        start_typed_challenge(demo, card={**card, "id": "C2"}, goals=[])


def test_set_up_the_societys_first_game_from_a_card_typed_from_the_box(
        fresh: Campaign) -> None:
    """Select Challenge: before the first game every challenge looms; a card typed from
    the box joins them, under the priority rule (game 1: the priority closest to 1)."""
    card, goals = challenge_from_typed(fresh.content, id="B01", name="First Frost",
                                       priority=2, starting_omen="moon",
                                       vital_goals=["Stay Warm: Light a fire."],
                                       events=["12 immediate Winter comes."])
    with pytest.raises(Refused, match="choose C1"):
        start_typed_challenge(fresh, card=card, goals=goals)
    start_typed_challenge(fresh, card={**card, "priority": 1}, goals=goals)
    assert fresh.status().challenge_id == "B01"
    assert ("G-stay-warm", "vital") in goals_of(fresh)
