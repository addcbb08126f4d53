"""Rulebook: Omens > Current Omen, Investigating Omens."""

from __future__ import annotations

import pytest

from companion.content.schema.base import Omen
from companion.content.schema.rules import RulesConstants
from companion.rules.day import explore, pass_turn
from companion.rules.errors import IllegalAction
from companion.rules.game import Game
from companion.rules.ids import HexId
from companion.rules.omens import current_omens, investigate
from tests.rules.factories import make


@pytest.mark.parametrize(
    ("discard", "starting", "current"),
    [
        ((), (Omen.MOON,), {Omen.MOON}),
        (((Omen.SUN,),), (Omen.MOON,), {Omen.SUN}),
        (((Omen.SUN,), (Omen.COMET, Omen.STARS)), (Omen.MOON,), {Omen.COMET, Omen.STARS}),
    ],
)
def test_current_omen_top_of_night_discard_else_starting_omen(
    discard: tuple[tuple[Omen, ...], ...], starting: tuple[Omen, ...], current: set[Omen]
) -> None:
    assert current_omens(discard, starting) == current


def test_investigating_omens_must_match_current() -> None:
    g = Game((make("Ash"), make("Bryn")))
    with pytest.raises(IllegalAction, match="sun is not a current omen"):
        investigate(g, "Ash", Omen.SUN, "A01", frozenset({Omen.MOON}))
    g2, found = investigate(g, "Ash", Omen.MOON, "A01", frozenset({Omen.MOON}))
    assert str(found) == "Moon A01"


def test_investigating_omens_one_per_character_turn(rules: RulesConstants) -> None:
    current = frozenset({Omen.MOON})
    g = Game((make("Ash"), make("Bryn")))
    g, _ = investigate(g, "Ash", Omen.MOON, "A01", current)
    with pytest.raises(IllegalAction, match="already investigated an omen this turn"):
        investigate(g, "Ash", Omen.MOON, "F013", current)
    g, _ = investigate(g, "Bryn", Omen.MOON, "F013", current)  # Bryn's own turn
    g = explore(rules, g, "Ash", HexId("H2"))
    g = pass_turn(g, "Bryn")
    g = explore(rules, g, "Ash", HexId("H3"))  # a new turn for Ash
    g, _ = investigate(g, "Ash", Omen.MOON, "F013", current)
