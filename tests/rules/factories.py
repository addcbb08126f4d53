"""Helpers for the rules tests: the sample pack's constants, small characters, and the
procedure engines played at random."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import yaml

from companion.content import Content
from companion.content.schema.base import Ability
from companion.content.schema.rules import RulesConstants
from companion.rules.chance import Chance
from companion.rules.character import Age, Character, TrackRules
from companion.rules.ids import CharacterName, HexId, PlayerName, Trait
from companion.rules.procedure import Procedure

RULES_YAML = Path(__file__).resolve().parents[2] / "content" / "rules" / "rules.yaml"


@cache
def load_rules() -> RulesConstants:
    """The sample pack's rules constants (tests may do I/O; the rules layer may not)."""
    return RulesConstants.model_validate(yaml.safe_load(RULES_YAML.read_text(encoding="utf-8")))


ABILITIES = {Ability.MIGHT: 4, Ability.DEXTERITY: 3, Ability.AWARENESS: 5, Ability.CONVICTION: 2}
HARDCORE = TrackRules(True, True, True)


def make(name: str = "Ash", **changes: Any) -> Character:
    """A young character with 3 health, 4/4 energy, in hex H1 (override any field)."""
    fields: dict[str, Any] = dict(
        name=CharacterName(name),
        player=PlayerName(f"player-{name}"),
        age=Age.YOUNG,
        abilities=dict(ABILITIES),
        traits=(Trait("wise"),),
        health_max=3,
        energy_max=4,
        energy=4,
        hex=HexId("H1"),
    )
    fields.update(changes)
    return Character(**fields)


@dataclass(frozen=True)
class Engine:
    """A procedure engine under random play."""

    name: str
    start: Callable[[Content, Chance], Procedure]
    from_state: Callable[[Mapping[str, Any]], Procedure]
    check_end: Callable[[Procedure], None] = lambda proc: None
