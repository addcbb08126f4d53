"""Issue 35 item 10: an own-box card or a Codex outcome that unlocks Delving (Rulebook:
Delving; reading D4) or gives a culture ability (Rulebook: Using the Journal > Culture)
is applied from every door: the effect words (``effect``), a line recorded at the table,
a Codex outcome typed from the book, and the Culture page's own Add. Each is one
undoable operation; a refusal changes nothing."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlmodel import select

from companion import operations
from companion.operations import Campaign, Refused, codex_outcomes, recorded
from companion.operations.effects import apply_effects, parse_effect
from companion.store import models


@pytest.fixture
def fresh(tmp_path: Path) -> Iterator[Campaign]:
    """A society before any challenge (Delving still locked, D4), Ash in the valley."""
    campaign = operations.new_campaign(tmp_path / "c.stonesaga", society_name="Folk",
                                       players=1, characters=1, solo="hardcore", seed=3)
    region = next(iter(campaign.content.regions))
    start = operations.set_up_valley(campaign, region=region).detail[0]
    operations.create_character(campaign, name="Ash", player="Player 1",
                                rolled=(6, 5, 4, 3, 2), removed=4,
                                assignment={"might": 6, "dexterity": 5, "awareness": 4,
                                            "conviction": 3},
                                traits=["intrepid"], mantle=next(iter(campaign.content.mantles)),
                                hex_tile=start)
    yield campaign
    campaign.close()


def society(campaign: Campaign) -> tuple[bool, list[str]]:
    """(Delving unlocked, the Culture page's abilities)."""
    with campaign.file.read() as session:
        row = session.get(models.Campaign, 1)
        abilities = [a.name for a in session.exec(select(models.CultureAbility)).all()]
    assert row is not None
    return row.delving_unlocked, abilities


def by_effect(campaign: Campaign, line: str) -> Any:
    return apply_effects(campaign, name="Ash", effects=[parse_effect(p) for p in
                                                         line.split(", ")])


def by_record(campaign: Campaign, line: str) -> Any:
    return recorded.record_what_happened(campaign, line=line, card="X91")


def by_codex(campaign: Campaign, line: str) -> Any:
    return codex_outcomes.resolve_outcome(campaign, number="997", line=line)


DOORS: list[tuple[str, Callable[[Campaign, str], Any]]] = [
    ("effect", by_effect), ("record", by_record), ("codex outcome --effects", by_codex)]


@pytest.mark.parametrize(("door", "apply"), DOORS, ids=[d[0] for d in DOORS])
@pytest.mark.parametrize(("line", "after"), [
    ("unlock delving", (True, [])),
    ("culture ability Fire Keeping", (False, ["Fire Keeping"])),
    ("culture ability Fire Keeping, unlock delving", (True, ["Fire Keeping"])),
])
def test_delving_and_culture_a_card_s_effect_from_every_door(
        fresh: Campaign, door: str, apply: Callable[[Campaign, str], Any], line: str,
        after: tuple[bool, list[str]]) -> None:
    before = society(fresh)
    assert before == (False, [])
    changes = apply(fresh, line)
    assert society(fresh) == after
    assert "culture ability Fire Keeping" in changes.summary or "culture" not in line
    operations.undo(fresh)  # one undoable operation
    assert society(fresh) == before


@pytest.mark.parametrize(("door", "apply"), DOORS, ids=[d[0] for d in DOORS])
def test_culture_an_ability_the_society_has_is_not_written_twice(
        fresh: Campaign, door: str, apply: Callable[[Campaign, str], Any]) -> None:
    operations.add_culture_ability(fresh, name="Fire Keeping")
    changes = apply(fresh, "culture ability fire keeping")
    assert society(fresh) == (False, ["Fire Keeping"])
    assert "The society already has the culture ability Fire Keeping." in changes.summary


def test_culture_a_card_s_ability_keeps_a_character_s_name_inside_it(
        fresh: Campaign) -> None:
    name = fresh.characters()[0].name
    recorded.record_what_happened(fresh, line=f"gain a culture ability Hearth of {name}")
    assert society(fresh) == (False, [f"Hearth of {name}"])


@pytest.mark.parametrize(("name", "said"), [
    ("", "Name the culture ability, as the card or the Codex gives it (e.g. Fire Keeping)."),
    ("   ", "Name the culture ability, as the card or the Codex gives it (e.g. Fire "
           "Keeping)."),
    ("smoke SIGNALS", "The society already has the culture ability Smoke Signals."),
])
def test_culture_the_page_s_add_refused_in_words(fresh: Campaign, name: str,
                                                 said: str) -> None:
    operations.add_culture_ability(fresh, name="Smoke Signals")
    events = fresh.status().journal_events
    with pytest.raises(Refused) as refused:
        operations.add_culture_ability(fresh, name=name)
    assert str(refused.value) == said
    assert society(fresh) == (False, ["Smoke Signals"])
    assert fresh.status().journal_events == events


def test_culture_the_page_s_add_is_journalled_and_undone(fresh: Campaign) -> None:
    changes = operations.add_culture_ability(fresh, name="  Star   Reading ")
    assert changes.summary == "Culture ability gained: Star Reading"
    assert fresh.journal()[0].text == "Culture ability gained: Star Reading"
    assert "Star Reading" in fresh.status().culture
    operations.undo(fresh)
    assert society(fresh) == (False, [])
    operations.redo(fresh)
    assert society(fresh) == (False, ["Star Reading"])


@pytest.mark.parametrize(("line", "said"), [
    ("unlock the gate", "An effect unlocks delving"),
    ("culture ability", "Name the culture ability gained"),
])
@pytest.mark.parametrize(("door", "apply"), DOORS[1:], ids=[d[0] for d in DOORS[1:]])
def test_delving_and_culture_a_line_that_does_not_read_changes_nothing(
        fresh: Campaign, door: str, apply: Callable[[Campaign, str], Any], line: str,
        said: str) -> None:
    events = fresh.status().journal_events
    with pytest.raises(Refused, match=said):
        apply(fresh, line)
    assert society(fresh) == (False, [])
    assert fresh.status().journal_events == events


def test_codex_an_outcome_granting_a_culture_ability_is_remembered_and_applied(
        fresh: Campaign) -> None:
    """Typed once from the book, the outcome is known next time (issue 25 part 4)."""
    by_codex(fresh, "culture ability Star Reading")
    entry = codex_outcomes.outcome_entry(fresh, "997")
    assert entry.known and entry.effects == ("gain the culture ability Star Reading",)
    assert not entry.needs and not entry.needs_character
    operations.undo(fresh)
    assert society(fresh) == (False, [])
