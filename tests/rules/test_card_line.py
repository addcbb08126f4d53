"""A card's effects in one typed line (issue 36 item 5): the effect words of "Just
record what happened" and the test a card prints (Rulebook: Basic Concepts > Tests).
Every Night, Discovery and delving card of the sample reads back from its line, so any
card the rulebook describes can be typed in one line."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import TypeAdapter

from companion.content import load_content
from companion.content.schema.effects import Effect
from companion.rules.card_line import (
    card_line_of,
    card_line_words,
    describe_card_line,
    parse_card_line,
)
from companion.rules.errors import IllegalAction

EFFECTS = TypeAdapter(tuple[Effect, ...])


@pytest.mark.parametrize(("line", "effects"), [
    ("gain 2 meat, lore +1", [{"do": "gain", "resource": "meat", "amount": 2},
                              {"do": "lore", "amount": 1}]),
    ("energy -1, test awareness 7 success: lore +1 failure: unrest +1",
     [{"do": "energy", "amount": -1},
      {"do": "test", "ability": "awareness", "difficulty": 7,
       "success": [{"do": "lore", "amount": 1}], "failure": [{"do": "unrest", "amount": 1}]}]),
    ("test aware 7+, failure: minor injury, lose 1 fish",
     [{"do": "test", "ability": "awareness", "difficulty": 7,
       "failure": [{"do": "suffer", "token": "minor_injury"},
                   {"do": "lose", "resource": "fish", "amount": 1}]}]),
    ("lose 1 meat (if you have any)",
     [{"do": "lose", "resource": "meat", "amount": 1, "text": "if you have any"}]),
    ("", []),
])
def test_tests_a_card_s_line_reads_into_the_pack_s_effects(
        line: str, effects: list[dict[str, Any]]) -> None:
    assert parse_card_line(line) == effects


@pytest.mark.parametrize(("line", "said"), [
    ("test luck 6", "'luck' is not an ability"),
    ("test might six", "Could not read the test"),
    ("test might 6 lore +1", "say what a success and a failure do"),
    ("test might 6 success: lore +1 success: lore +2", "says 'success:' twice"),
    ("test might 6 success: test dexterity 5", "A test inside a test"),
    ("fly to the moon", "Unknown effect 'fly'"),
])
def test_tests_a_line_that_does_not_read_is_refused_in_game_words(line: str, said: str) -> None:
    with pytest.raises(IllegalAction, match=said):
        parse_card_line(line)


@pytest.mark.parametrize("kind", ["night_cards", "discovery_cards", "delving_cards"])
def test_every_sample_card_reads_back_from_its_one_line(kind: str) -> None:
    content = load_content("sample")
    for card_id, card in getattr(content, kind).items():
        data = [e.model_dump(mode="json", exclude_defaults=True) for e in card.effects]
        line = card_line_of(data)
        assert line is not None, card_id
        assert EFFECTS.validate_python(parse_card_line(line)) == card.effects, (card_id, line)


def test_what_one_line_cannot_say_is_left_to_step_by_step() -> None:
    assert card_line_of([{"do": "boost"}]) is None  # the player's choice of ability
    assert card_line_of([{"do": "unlock", "flag": "delving"}]) is None
    assert card_line_of([{"do": "test", "ability": "might", "difficulty": 6},
                         {"do": "lore", "amount": 1}]) is None  # a test not last


def test_the_line_offers_tests_and_says_what_it_will_apply() -> None:
    words = card_line_words(resources=["meat"], items=["sling"])
    assert "test awareness " in words and "failure: " in words and "gain 1 meat" in words
    assert describe_card_line(parse_card_line("test might 6 failure: minor injury")) == (
        "test might (6+) — success: nothing happens — failure: suffer 1 minor injury")
