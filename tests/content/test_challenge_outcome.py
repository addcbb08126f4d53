"""The challenge card's End Challenge outcome (Rulebook: Continuing Play; Using the
Journal, "record the entry number for the outcome to the challenge that you resolved";
issue 27 item 7): a schema field, filled in by every sample card with an entry the
sample Codex has."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from companion.content import load_content
from companion.content.schema.cards import Challenge

CARD = {"id": "C9", "name": "A Card", "priority": 1, "starting_omen": "sun",
        "vital_goals": ["G-first-hearth"], "events": [{"threshold": 3, "type": "event",
                                                       "text": "Rain."}], "text": "Text."}


def test_continuing_play_the_outcome_reads_as_three_digits() -> None:
    assert Challenge.model_validate({**CARD, "outcome": 7}).outcome == "007"
    assert Challenge.model_validate({**CARD, "outcome": "301"}).outcome == "301"
    assert Challenge.model_validate(CARD).outcome is None  # a card may name none
    with pytest.raises(ValidationError):
        Challenge.model_validate({**CARD, "outcome": "1044"})


def test_continuing_play_every_sample_card_names_an_outcome_of_the_codex() -> None:
    content = load_content("sample")
    for card in content.challenges.values():
        assert card.outcome is not None, card.id
        entry = content.codex.outcome(card.outcome)
        assert entry is not None, card.id
        assert f"(entry {card.outcome})" in entry.text
