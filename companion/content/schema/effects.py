"""The small, typed vocabulary of card effects a rules engine can apply.

A card's ``effects`` is a list of steps, each a mapping whose ``do`` key names the step::

    effects:
      - {do: gain, resource: wood, amount: 2}
      - {do: suffer, token: minor_injury}
      - {do: test, ability: might, difficulty: 8,
         success: [{do: lore, amount: 1}], failure: [{do: energy, amount: -1}]}
      - {do: read, outcome: "104"}

Every step may carry ``text`` for the human; a card also has free ``text`` for whatever
the vocabulary cannot express (the engine then shows the text and lets the table decide).
Amounts are signed where a step can go both ways (energy, lore, activity, unrest).
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from companion.content.schema.base import (
    Ability,
    HealthToken,
    ItemRef,
    OutcomeRef,
    PackModel,
    ResourceRef,
)


class _Step(PackModel):
    text: str = ""


class Gain(_Step):
    """Gain ``amount`` tokens of a resource (a material, a food or water)."""

    do: Literal["gain"]
    resource: ResourceRef
    amount: int = Field(default=1, ge=1)


class Lose(_Step):
    """Lose ``amount`` tokens of a resource, if the character has them."""

    do: Literal["lose"]
    resource: ResourceRef
    amount: int = Field(default=1, ge=1)


class GainItem(_Step):
    """Gain an item card (from the item deck)."""

    do: Literal["gain_item"]
    item: ItemRef


class Suffer(_Step):
    """Suffer ``amount`` injury or disease tokens (Rulebook: Mantle > Health Track)."""

    do: Literal["suffer"]
    token: HealthToken
    amount: int = Field(default=1, ge=1)


class Energy(_Step):
    """Gain (positive) or lose (negative) energy."""

    do: Literal["energy"]
    amount: int


class Lore(_Step):
    """Gain (positive) or spend (negative) lore (Rulebook: Tracks > Lore)."""

    do: Literal["lore"]
    amount: int


class Activity(_Step):
    """Increase (or decrease) the activity dial (Rulebook: Tracks > Activity)."""

    do: Literal["activity"]
    amount: int


class Unrest(_Step):
    """Increase (or decrease) the unrest dial (Rulebook: Tracks > Unrest)."""

    do: Literal["unrest"]
    amount: int


class Boost(_Step):
    """Place a minor (or major) boost token on an ability."""

    do: Literal["boost"]
    ability: Ability | None = Field(default=None, description="None: the player's choice")
    major: bool = False


class Place(_Step):
    """Place a token in the character's hex: lore, fire or shelter."""

    do: Literal["place"]
    token: Literal["lore", "fire", "shelter"]
    amount: int = Field(default=1, ge=1)


class Mark(_Step):
    """Write a mark on the character card (Rulebook: Fillable Cards; a Legend card keeps
    the marks of the character it was, Using Legend Cards)."""

    do: Literal["mark"]
    mark: str = Field(min_length=1)


class Unlock(_Step):
    """Set a campaign flag, e.g. ``delving`` (reading D4: Delving is locked until then)."""

    do: Literal["unlock"]
    flag: str = Field(min_length=1)


class Culture(_Step):
    """The society gains a culture ability, written on the Culture page (Rulebook: Using
    the Journal > Culture: "Culture abilities added by game events")."""

    do: Literal["culture"]
    ability: str = Field(min_length=1)


class Read(_Step):
    """Read a Codex outcome ("read entry 104")."""

    do: Literal["read"]
    outcome: OutcomeRef


class Test(_Step):
    """Test an ability: roll 1d6 + ability; ``difficulty`` or more succeeds
    (Rulebook: Basic Concepts > Tests)."""

    do: Literal["test"]
    ability: Ability
    difficulty: int = Field(ge=1)
    success: tuple[Effect, ...] = ()
    failure: tuple[Effect, ...] = ()


#: One effect step; the ``do`` key selects the kind.
Effect = Annotated[
    Gain | Lose | GainItem | Suffer | Energy | Lore | Activity | Unrest | Boost | Place
    | Mark | Unlock | Culture | Read | Test,
    Field(discriminator="do"),
]

Test.model_rebuild()
