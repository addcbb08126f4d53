"""The challenge lifecycle through the operations (Rulebook: Continuing Play; Using the
Journal; Characters > Age; Basic Concepts > Tests)."""

from __future__ import annotations

import pytest
from sqlmodel import select

from companion import operations
from companion.operations import Campaign, Refused
from companion.operations import challenge as lifecycle
from companion.operations.effects import apply_effects, parse_effect
from companion.operations.setup import goals
from companion.store import models


def test_continuing_play_end_of_challenge(demo: Campaign) -> None:
    operations.increase_activity(demo, amount=3)
    apply_effects(demo, name="Ash", effects=[{"do": "place", "token": "fire"},
                                             parse_effect("gain flint 2")])
    lifecycle.complete_goal(demo, goal="G-first-hearth")
    lifecycle.end_challenge(demo, outcome="120", looming=["C2"],
                            retained={"Ash": ([], [0])})
    status = demo.status()
    assert status.challenge_id is None and status.activity == 0
    with demo.file.read() as session:
        (entry,) = session.exec(select(models.ChallengeLogEntry)).all()
        fires = session.exec(select(models.HexToken)).all()
        kept = session.exec(select(models.RetainedSupply)).all()
    assert (entry.outcome_entry, entry.finished, entry.characters) == ("120", True,
                                                                       ["Ash", "Bryn"])
    assert fires == []  # fire, shelter and lore leave the valley
    assert [k.materials for k in kept] == [["flint"]]
    states = dict(goals(demo))
    assert states["G-first-hearth"] == "completed"
    assert all(state in ("completed", "set_aside") for state in states.values())
    assert operations.eligible_challenges(demo) == ["C2"]


def test_end_of_challenge_needs_an_outcome_entry(demo: Campaign) -> None:
    with pytest.raises(Refused, match="entry number"):
        lifecycle.end_challenge(demo, outcome=" ")
    assert demo.status().challenge_id == "C1"


def test_retaining_more_than_five_materials_is_refused(demo: Campaign) -> None:
    apply_effects(demo, name="Ash", effects=[parse_effect("gain flint 6")])
    with pytest.raises(Refused, match="at most 5 material tokens"):
        lifecycle.end_challenge(demo, outcome="120", retained={"Ash": ([], [0, 1, 2, 3, 4, 5])})


def test_a_new_epoch_only_between_challenges(demo: Campaign) -> None:
    with pytest.raises(Refused, match="during a challenge"):
        lifecycle.new_epoch(demo)
    lifecycle.end_challenge(demo, outcome="120", looming=["C2"])
    lifecycle.new_epoch(demo)
    status = demo.status()
    assert (status.epoch, status.games_this_epoch) == (2, 0)


def test_age_young_to_old_to_legend(demo: Campaign) -> None:
    lifecycle.age_character(demo, name="Bryn")
    assert next(c.age for c in demo.characters() if c.name == "Bryn") == "old"
    lifecycle.age_character(demo, name="Bryn")
    assert [c.name for c in demo.characters()] == ["Ash"]
    assert demo.status().legends == 1


def test_tests_typed_die_plus_ability_against_difficulty(demo: Campaign) -> None:
    might = next(c.might for c in demo.characters() if c.name == "Ash")
    changes = lifecycle.ability_test(demo, name="Ash", ability="might", difficulty=8, die=2)
    assert f"2 + {might} = {2 + might} vs 8" in changes.summary
    assert ("succeeds" in changes.summary) == (2 + might >= 8)


def test_degrade_a_major_injury_to_minor(demo: Campaign) -> None:
    apply_effects(demo, name="Ash", effects=[parse_effect("suffer major_injury")])
    lifecycle.degrade_token(demo, name="Ash", index=0)
    assert next(c.health for c in demo.characters() if c.name == "Ash") == ("minor_injury",)
    with pytest.raises(Refused, match="no health token 3"):
        lifecycle.degrade_token(demo, name="Ash", index=2)
