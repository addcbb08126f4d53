"""Issue 35 item 10: "Unlock delving" (Rulebook: Delving; reading D4) and "gain a culture
ability" (Rulebook: Using the Journal > Culture: "Culture abilities added by game events")
are words of the one effect vocabulary: typed (``effect``, a recorded line, a Codex
outcome), printed on a card (``{do: culture}``), and applied to the society by every
engine that resolves effects (activity events, the Night)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from companion.content.schema import effects as fx
from companion.rules.activity_events import apply_event
from companion.rules.effect_line import completions, describe_line, parse_effect_line
from companion.rules.effect_words import EFFECT_WORDS, parse_effect
from companion.rules.effects import describe_effect, effects_from_data
from companion.rules.errors import IllegalAction
from companion.rules.game import Game
from companion.rules.ids import CultureAbilityId
from companion.rules.night import NightStage
from companion.rules.society import (
    Society,
    add_culture_ability,
    gain_culture_ability,
    held_culture_ability,
)
from tests.rules.test_night import CARDS, FACTS, card, night_game, play, start, two, until


@pytest.mark.parametrize(("typed", "effect"), [
    ("unlock delving", {"do": "unlock", "flag": "delving"}),
    ("Unlock Delving", {"do": "unlock", "flag": "delving"}),
    ("culture ability Fire Keeping", {"do": "culture", "ability": "Fire Keeping"}),
    ("culture Fire Keeping", {"do": "culture", "ability": "Fire Keeping"}),
    ("CULTURE ability: Star Reading", {"do": "culture", "ability": "Star Reading"}),
])
def test_effect_words_unlock_and_culture_read(typed: str, effect: dict[str, Any]) -> None:
    assert parse_effect(typed) == effect
    assert effects_from_data([effect])  # in the content schema's vocabulary


@pytest.mark.parametrize(("typed", "said"), [
    ("unlock", "An effect unlocks delving (e.g. 'unlock delving'); got 'unlock'."),
    ("unlock the gate", "An effect unlocks delving (e.g. 'unlock delving'); got 'unlock "
                        "the gate'."),
    ("culture", "Name the culture ability gained (e.g. 'culture ability Fire Keeping')."),
    ("culture ability", "Name the culture ability gained (e.g. 'culture ability Fire "
                        "Keeping')."),
])
def test_effect_words_unlock_and_culture_refused_in_words(typed: str, said: str) -> None:
    with pytest.raises(IllegalAction) as refused:
        parse_effect(typed)
    assert str(refused.value) == said


def test_effect_words_the_dialog_and_the_terminal_list_both() -> None:
    words = {w.do: w for w in EFFECT_WORDS}
    for do in ("unlock", "culture"):
        assert parse_effect(words[do].example)["do"] == do


@pytest.mark.parametrize(("line", "effects"), [
    ("unlock delving", [(None, {"do": "unlock", "flag": "delving"})]),
    ("gain a culture ability Hearth of Ash, lore +1",
     [(None, {"do": "culture", "ability": "Hearth of Ash"}), (None, {"do": "lore",
                                                                     "amount": 1})]),
    ("Ash gains culture ability Smoke Signals",
     [(None, {"do": "culture", "ability": "Smoke Signals"})]),
    ("gain 2 meat Ash, unlock delving",
     [("Ash", {"do": "gain", "resource": "meat", "amount": 2}),
      (None, {"do": "unlock", "flag": "delving"})]),
])
def test_effect_line_the_society_s_steps_name_no_one(
        line: str, effects: list[tuple[str | None, dict[str, Any]]]) -> None:
    """A culture ability's name keeps a character's name inside it ("Hearth of Ash")."""
    found = parse_effect_line(line, characters=["Ash", "Bryn"], resources={"meat": "meat"})
    assert [(e.who, dict(e.effect)) for e in found] == effects


def test_effect_line_completion_offers_both() -> None:
    offered = completions(characters=["Ash"])
    assert "unlock delving" in offered and "culture ability" in offered


def test_effect_words_described_for_the_journal() -> None:
    [culture] = effects_from_data([{"do": "culture", "ability": "Fire Keeping"}])
    assert describe_effect(culture) == "gain the culture ability Fire Keeping"
    found = parse_effect_line("culture ability Fire Keeping, unlock delving")
    assert describe_line(found) == "gain the culture ability Fire Keeping; unlock delving"


def test_culture_one_ability_is_written_once_in_any_case() -> None:
    society = add_culture_ability(Society(), CultureAbilityId("Fire Keeping"))
    assert held_culture_ability(society, "fire  KEEPING") == "Fire Keeping"
    again, said = gain_culture_ability(society, "fire keeping")
    assert again == society
    assert said == "the society already has the culture ability Fire Keeping"
    with pytest.raises(IllegalAction, match="already has the culture ability Fire Keeping"):
        add_culture_ability(society, CultureAbilityId("FIRE KEEPING"))
    more, said = gain_culture_ability(society, " Star   Reading ")
    assert more.culture_abilities == ("Fire Keeping", "Star Reading")
    assert said == "culture ability: Star Reading"


def test_activity_events_a_culture_ability_is_the_society_s() -> None:
    game = Game((two("Ash"),))
    step = fx.Culture(do="culture", ability="Smoke Signals")
    after, notes = apply_event(game, (step,), {})
    assert after.society.culture_abilities == ("Smoke Signals",)
    assert after.characters == game.characters
    assert notes == ["culture ability: Smoke Signals"]


def test_night_cards_a_culture_ability_on_a_night_card() -> None:
    gift = card("N-gift", "solo", 0, ["sun"],
                effects=[{"do": "culture", "ability": "Star Reading"},
                         {"do": "unlock", "flag": "delving"}])
    facts = replace(FACTS, cards={**CARDS, "N-gift": gift})
    night = play(until(start(night_game(two("Ash")), ["N-gift"], facts=facts),
                       NightStage.NIGHT_CARDS), "N-gift")
    night = until(night, NightStage.DONE)
    society = night.result().game.society
    assert society.culture_abilities == ("Star Reading",)
    assert society.delving_unlocked
    assert "Culture ability: Star Reading." in night.describe()
