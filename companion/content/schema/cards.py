"""Decks (fishing, forage, delving, discovery, Night, behemoth), behemoths, challenges,
goals and the Codex."""

from __future__ import annotations

import re
from enum import StrEnum
from typing import Any, Literal

from pydantic import Field, field_validator, model_validator

from companion.content.schema.base import (
    Ability,
    BehemothRef,
    ComponentId,
    ComponentRef,
    FeatureRef,
    ForageBonusRef,
    ForageDeck,
    ForageObjectRef,
    GoalRef,
    Omen,
    OutcomeRef,
    OverlayRef,
    PackModel,
    ResourceRef,
    TraitRef,
    WaterLine,
)
from companion.content.schema.effects import Effect

# --- foraging -----------------------------------------------------------------------


class Encounter(StrEnum):
    """Animal encounters (Rulebook: Foraging > Animal Encounters)."""

    LARGE_PREY = "large_prey"
    SMALL_PREY = "small_prey"
    PREDATOR = "predator"


class ForageObject(PackModel):
    """An object drawn on forage cards (Rulebook: Foraging > List of Objects)."""

    id: ComponentId
    name: str = Field(min_length=1)
    decks: tuple[ForageDeck, ...] = Field(min_length=1, description="decks it appears in")
    yields: ResourceRef | None = Field(default=None, description="1 token per object")
    encounter: Encounter | None = None
    animal_path: bool = Field(default=False, description="brings the next row within reach")


class ForageBonus(PackModel):
    """A bonus object drawn on a forage object (Rulebook: List of Bonus Objects)."""

    id: ComponentId
    name: str = Field(min_length=1)
    yields: ResourceRef


_OBJECT_TEXT = re.compile(r"^\s*([\w.-]+)((?:\s*\+\s*[\w.-]+)*)\s*$")


class ForageSpot(PackModel):
    """One object in a row, with the bonus objects drawn on it. In YAML either a mapping
    or the short form ``"tree + feather"``."""

    object: ForageObjectRef
    bonus: tuple[ForageBonusRef, ...] = ()

    @model_validator(mode="before")
    @classmethod
    def _short_form(cls, data: Any) -> Any:
        if isinstance(data, str):
            match = _OBJECT_TEXT.match(data)
            if not match:
                raise ValueError(f"an object is 'object' or 'object + bonus', not {data!r}")
            bonuses = [b.strip() for b in match[2].split("+") if b.strip()]
            return {"object": match[1], "bonus": bonuses}
        return data


class ForageRows(PackModel):
    """The three rows of a forage card, nearest first."""

    front: tuple[ForageSpot, ...] = ()
    middle: tuple[ForageSpot, ...] = ()
    back: tuple[ForageSpot, ...] = ()


class ForageCard(PackModel):
    """A forage card of the forest or plains deck."""

    id: ComponentId
    deck: ForageDeck
    rows: ForageRows
    text: str = ""


# --- fishing ------------------------------------------------------------------------

_MODIFIER_TEXT = re.compile(r"^\s*([+\-x×])\s*(\d+)\s*(bonus|mishap)?\s*$", re.IGNORECASE)


class FishingTarget(PackModel):
    """A stock target: base difficulty and what it yields."""

    difficulty: int = Field(ge=1)
    contents: tuple[Effect, ...] = Field(min_length=1)


class FishingModifier(PackModel):
    """An outcome's difficulty modifier: +Y, -Y or xY, maybe with Bonus or Mishap.
    In YAML either a mapping or the short form ``"+2 bonus"``, ``"x2"``, ``"-1 mishap"``."""

    op: Literal["+", "-", "x"]
    value: int = Field(ge=0)
    extra: Literal["bonus", "mishap"] | None = None

    @model_validator(mode="before")
    @classmethod
    def _short_form(cls, data: Any) -> Any:
        if isinstance(data, str):
            match = _MODIFIER_TEXT.match(data)
            if not match:
                raise ValueError(f"a modifier is '+Y', '-Y' or 'xY', optionally followed by "
                                 f"'bonus' or 'mishap'; not {data!r}")
            op = "x" if match[1] == "×" else match[1]
            extra = match[3].lower() if match[3] else None
            return {"op": op, "value": int(match[2]), "extra": extra}
        return data

    def apply(self, base: int) -> int:
        """The final difficulty for a base difficulty (Rulebook: Fishing, step 6)."""
        if self.op == "+":
            return base + self.value
        if self.op == "-":
            return base - self.value
        return base * self.value


class StrikeLocation(PackModel):
    """A square on the water: holds 1 or 2 dice; the lines that cross it."""

    size: int = Field(ge=1, le=2, description="dice it holds: 1 or 2")
    lines: tuple[WaterLine, ...] = Field(min_length=1)


class FishingCard(PackModel):
    """A fishing card: its face serves as stock (targets) or outcome (modifiers), its
    back as water (strike locations), depending on where it is drawn (Rulebook: Fishing)."""

    id: ComponentId
    targets: dict[WaterLine, FishingTarget]
    modifiers: dict[WaterLine, FishingModifier]
    water: tuple[StrikeLocation, ...] = Field(min_length=1)

    @field_validator("targets", "modifiers")
    @classmethod
    def _one_per_line(cls, value: dict[WaterLine, Any]) -> dict[WaterLine, Any]:
        if set(value) != set(WaterLine):
            raise ValueError("a fishing card has one for each line: red, white and black")
        return value

    @field_validator("water")
    @classmethod
    def _every_line_crossed(
        cls, water: tuple[StrikeLocation, ...]
    ) -> tuple[StrikeLocation, ...]:
        crossed = {line for loc in water for line in loc.lines}
        if crossed != set(WaterLine):
            raise ValueError("each of the red, white and black lines crosses a strike location")
        return water


# --- delving, discovery, Night --------------------------------------------------------


class DelvePaths(PackModel):
    """The directions under a delving card's effects: the icon each path leads to."""

    left: str = Field(min_length=1)
    right: str = Field(min_length=1)


class DelvingCard(PackModel):
    """A delving card (Rulebook: Delving)."""

    id: ComponentId
    icon: str = Field(min_length=1, description="the icon a chosen path must match")
    min_depth: int | None = Field(default=None, ge=1, description="requirement 'Depth N+'")
    effects: tuple[Effect, ...] = ()
    text: str = ""
    paths: DelvePaths | None = Field(default=None, description="null: the delve ends here")
    exit: bool = Field(default=False, description="the card tells the character to exit")


class DiscoveryCard(PackModel):
    """A discovery card (Rulebook: Valley Decks > Discovery)."""

    id: ComponentId
    name: str = Field(min_length=1)
    text: str = Field(min_length=1)
    effects: tuple[Effect, ...] = ()


class NightType(StrEnum):
    """Who resolves a Night card (Rulebook: Night Phase)."""

    SOLO = "solo"
    CHAMPION = "champion"
    GROUP = "group"


class NightRequirement(PackModel):
    """When a Night card applies; unmet requirements mean the card has no effect."""

    features: tuple[FeatureRef, ...] = Field(default=(), description="any of these in the hex")
    trait: TraitRef | None = None
    min_unrest: int | None = Field(default=None, ge=0)
    min_activity: int | None = Field(default=None, ge=0)


class NightCard(PackModel):
    """A Night card: its type, requirements, effects, the omens at its bottom (the
    current omens once it is drawn) and the activity it adds."""

    id: ComponentId
    name: str = Field(min_length=1)
    type: NightType
    requires: NightRequirement = NightRequirement()
    effects: tuple[Effect, ...] = ()
    text: str = Field(min_length=1)
    omens: tuple[Omen, ...] = Field(min_length=1)
    activity: int = Field(ge=0)


# --- behemoths ----------------------------------------------------------------------


class Behemoth(PackModel):
    """A behemoth board (Rulebook: Behemoths > Behemoth Overview)."""

    id: ComponentId
    name: str = Field(min_length=1)
    abilities: dict[Ability, int]
    movement: dict[FeatureRef, int] = Field(description="movement value per feature")
    habits: OutcomeRef = Field(description="the outcome read when its habits are learned")
    lair: OverlayRef
    text: str = ""

    @field_validator("abilities")
    @classmethod
    def _all_abilities(cls, abilities: dict[Ability, int]) -> dict[Ability, int]:
        if set(abilities) != set(Ability):
            raise ValueError("a behemoth has a value for each ability: "
                             + ", ".join(a.value for a in Ability))
        return abilities


class MovementRoll(PackModel):
    """Movement points: roll ``dice`` d6 and add ``modifier``."""

    dice: int = Field(ge=0)
    modifier: int = 0


class InstinctCard(PackModel):
    """A behemoth's Instinct card: how it activates at the end of each Night."""

    id: ComponentId
    behemoth: BehemothRef
    name: str = Field(min_length=1)
    target: str = Field(min_length=1, description="what the target token goes on")
    movement: MovementRoll | None = None
    encounter: str = Field(min_length=1, description="when it encounters a character")
    text: str = ""


class SecretCard(PackModel):
    """A behemoth's Secret card; it says to read '<omen> <reaction card ID>'."""

    id: ComponentId
    behemoth: BehemothRef
    name: str = Field(min_length=1)
    omen: Omen
    text: str = Field(min_length=1)


class ContestResult(PackModel):
    """Effects of each contest outcome (Rulebook: Behemoths > Contests; D16)."""

    success: tuple[Effect, ...] = ()
    stalemate: tuple[Effect, ...] = ()
    defeat: tuple[Effect, ...] = ()


class ReactionCard(PackModel):
    """A card of a behemoth's Reaction deck."""

    id: ComponentId
    behemoth: BehemothRef
    requires_omens: tuple[Omen, ...] = Field(
        default=(), description="resolvable only when one of these is current; () = always"
    )
    contest: Ability | None = None
    results: ContestResult = ContestResult()
    effects: tuple[Effect, ...] = ()
    text: str = Field(min_length=1)


# --- challenges, goals --------------------------------------------------------------


class EventType(StrEnum):
    """Activity event types (Rulebook: Tracks > Activity Events; reading D7)."""

    EVENT = "event"
    IMMEDIATE = "immediate"
    SOCIETAL = "societal"
    OUTPOST = "outpost"
    ONGOING = "ongoing"


class ActivityEvent(PackModel):
    """An activity event: a single event triggers once at ``threshold`` or more (D7);
    an ongoing one triggers each Night while activity is within ``threshold..until``."""

    threshold: int = Field(ge=0)
    until: int | None = Field(default=None, ge=0, description="ongoing events only")
    type: EventType
    text: str = Field(min_length=1)
    effects: tuple[Effect, ...] = ()

    @model_validator(mode="after")
    def _range_only_for_ongoing(self) -> ActivityEvent:
        if (self.type is EventType.ONGOING) != (self.until is not None):
            raise ValueError("an ongoing event has a range (threshold..until); "
                             "other events only a threshold")
        if self.until is not None and self.until < self.threshold:
            raise ValueError("an ongoing event's 'until' is not below its threshold")
        return self


class Challenge(PackModel):
    """A challenge card (Rulebook: Set Up > Select Challenge)."""

    id: ComponentId
    name: str = Field(min_length=1)
    priority: int = Field(ge=0)
    starting_omen: Omen
    vital_goals: tuple[GoalRef, ...] = Field(min_length=1)
    epoch_goals: tuple[GoalRef, ...] = ()
    set_aside_goals: tuple[GoalRef, ...] = ()
    events: tuple[ActivityEvent, ...] = Field(min_length=1)
    text: str = Field(min_length=1)
    setup: tuple[Effect, ...] = Field(default=(), description="its back side's instructions")
    outcome: str | None = Field(
        default=None, pattern=r"^[0-9]{3}$",
        description="the Codex outcome the card says to read when it is resolved (End "
                    "Challenge records it in the Challenge Log); a number printed on the "
                    "card, so a card typed from the box may name one the app's Codex lacks")

    @model_validator(mode="before")
    @classmethod
    def _outcome_as_text(cls, data: Any) -> Any:
        # An unquoted 104 in YAML is the outcome "104" (as Codex outcomes read).
        if isinstance(data, dict) and type(data.get("outcome")) is int:
            return {**data, "outcome": f"{data['outcome']:03d}"}
        return data


class Goal(PackModel):
    """A goal card. A set-aside goal stays sealed: its text is shown only when it is
    revealed in play (see ``Content.set_aside_goals``)."""

    id: ComponentId
    name: str = Field(min_length=1)
    set_aside: bool = False
    text: str = Field(min_length=1)
    reward: tuple[Effect, ...] = ()


# --- the Codex ----------------------------------------------------------------------


class CodexOutcome(PackModel):
    """A Codex outcome, read by its three-digit number."""

    number: str = Field(pattern=r"^[0-9]{3}$")
    text: str = Field(min_length=1)
    effects: tuple[Effect, ...] = ()

    @model_validator(mode="before")
    @classmethod
    def _number_as_text(cls, data: Any) -> Any:
        if isinstance(data, dict) and type(data.get("number")) is int:
            return {**data, "number": f"{data['number']:03d}"}
        return data


class CodexOmenEntry(PackModel):
    """A Codex omen entry: an omen and the ID of the component it was found on."""

    omen: Omen
    component: ComponentRef
    text: str = Field(min_length=1)
    effects: tuple[Effect, ...] = ()

    @property
    def key(self) -> tuple[Omen, str]:
        """(omen, component ID): the entry's identity."""
        return (self.omen, str(self.component))
