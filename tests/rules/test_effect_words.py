"""One vocabulary of effect words for the CLI and the Apply Effects dialog (issue 26:
place fire, shelter or lore tokens, give a boost, write a mark)."""

from __future__ import annotations

from typing import Any

import pytest

from companion.rules.effect_words import EFFECT_WORDS, parse_effect
from companion.rules.effects import effects_from_data
from companion.rules.errors import IllegalAction


@pytest.mark.parametrize(("typed", "data"), [
    ("place fire", {"do": "place", "token": "fire"}),
    ("place shelter", {"do": "place", "token": "shelter"}),
    ("place lore 2", {"do": "place", "token": "lore", "amount": 2}),
    ("boost might", {"do": "boost", "ability": "might", "major": False}),
    ("boost Dexterity major", {"do": "boost", "ability": "dexterity", "major": True}),
    ("mark broken spear", {"do": "mark", "mark": "broken spear"}),
    ("gain wood 2", {"do": "gain", "resource": "wood", "amount": 2}),
    ("suffer major injury 2", {"do": "suffer", "token": "major_injury", "amount": 2}),
    ("energy -1", {"do": "energy", "amount": -1}),
    ("item stone-knife", {"do": "gain_item", "item": "stone-knife"}),
    ("read 104", {"do": "read", "outcome": "104"}),
])
def test_effect_words_typed_effects_read_as_the_vocabulary(typed: str,
                                                           data: dict[str, Any]) -> None:
    assert parse_effect(typed) == data
    assert effects_from_data([data])


@pytest.mark.parametrize(("typed", "refusal"), [
    ("place bonfire", "Place lore, fire or shelter"),
    ("boost", "Boost one ability"),
    ("boost courage", "Boost one ability: might, dexterity"),
    ("mark", "Say which mark"),
    ("dance", "Unknown effect 'dance'"),
    ("place lore 0", "at least 1"),
])
def test_effect_words_refusals_in_game_words(typed: str, refusal: str) -> None:
    with pytest.raises(IllegalAction, match=refusal):
        parse_effect(typed)


def test_effect_words_every_example_is_in_the_vocabulary() -> None:
    for word in EFFECT_WORDS:
        data = parse_effect(word.example)
        assert data["do"] == word.do
        assert effects_from_data([data])[0].do == word.do
