"""Shared base model and small types for pack schemas."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Any, ClassVar

from pydantic import BaseModel, ConfigDict, Field, GetCoreSchemaHandler
from pydantic_core import core_schema


class PackModel(BaseModel):
    """Base for every pack schema: unknown fields are errors, values are immutable.

    Validators are built when a model first validates (``defer_build``): opening a
    campaign whose packs are unchanged rebuilds their entries from the validated cache
    (``companion.content.cache``) and never needs them.
    """

    model_config = ConfigDict(extra="forbid", frozen=True, str_strip_whitespace=True,
                              defer_build=True)


class Ability(StrEnum):
    """The four character abilities (Rulebook: Character Creation, step 1)."""

    MIGHT = "might"
    DEXTERITY = "dexterity"
    AWARENESS = "awareness"
    CONVICTION = "conviction"


class Omen(StrEnum):
    """The five omens (Rulebook: Omen)."""

    CLOUD = "cloud"
    COMET = "comet"
    MOON = "moon"
    STARS = "stars"
    SUN = "sun"


class Slot(StrEnum):
    """Item slots on a mantle (Rulebook: Mantle > Item Slots)."""

    HAND = "hand"
    BODY = "body"
    GEAR = "gear"


class HealthToken(StrEnum):
    """Tokens that fill a health track (Rulebook: Mantle > Health Track)."""

    MINOR_INJURY = "minor_injury"
    MAJOR_INJURY = "major_injury"
    MINOR_DISEASE = "minor_disease"
    MAJOR_DISEASE = "major_disease"


# --- IDs and references -------------------------------------------------------------

#: A component ID as printed on the component ("A01", "FO13", "BH2") or a slug
#: ("stone-knife"). Case matters: "FO13" and "fo13" are two IDs.
ComponentId = Annotated[str, Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9_.-]*$", max_length=64)]


class Ref(str):
    """An ID that must name an entry of another kind of component.

    Subclasses set ``kind`` to the name of the collection the ID must be found in
    (a ``Content`` attribute such as ``"materials"``); the loader checks every
    ``Ref`` in a pack after merging, so a reference may point into the extended pack.
    A ``Ref`` is a ``str``: code can use it wherever an ID is expected.
    """

    kind: ClassVar[str] = ""

    @classmethod
    def __get_pydantic_core_schema__(
        cls, source: Any, handler: GetCoreSchemaHandler
    ) -> core_schema.CoreSchema:
        return core_schema.no_info_after_validator_function(
            cls, core_schema.str_schema(min_length=1, strip_whitespace=True)
        )


class MaterialRef(Ref):
    """ID of a material token."""

    kind = "materials"


class ResourceRef(Ref):
    """ID of a resource token: a material, a food or water."""

    kind = "resources"


class FeatureRef(Ref):
    """ID of a terrain feature."""

    kind = "features"


class RegionRef(Ref):
    """ID of a region."""

    kind = "regions"


class OverlayRef(Ref):
    """ID of an overlay."""

    kind = "overlays"


class IconRef(Ref):
    """ID of a technology or processing icon."""

    kind = "icons"


class ItemRef(Ref):
    """ID of an item card."""

    kind = "items"


class TraitRef(Ref):
    """ID of a trait."""

    kind = "traits"


class MantleRef(Ref):
    """ID of a mantle."""

    kind = "mantles"


class GoalRef(Ref):
    """ID of a goal card."""

    kind = "goals"


class BehemothRef(Ref):
    """ID of a behemoth."""

    kind = "behemoths"


class ForageObjectRef(Ref):
    """ID of a forage object (tree, predator, animal path ...)."""

    kind = "forage_objects"


class ForageBonusRef(Ref):
    """ID of a forage bonus object (feather, bone ...)."""

    kind = "forage_bonuses"


class OutcomeRef(Ref):
    """A Codex outcome number (three digits, "000"-"999"; an unquoted 104 is "104")."""

    kind = "codex_outcomes"

    @classmethod
    def __get_pydantic_core_schema__(
        cls, source: Any, handler: GetCoreSchemaHandler
    ) -> core_schema.CoreSchema:
        def from_number(value: Any) -> Any:
            if type(value) is int and 0 <= value <= 999:
                return f"{value:03d}"
            return value

        return core_schema.no_info_before_validator_function(
            from_number,
            core_schema.no_info_after_validator_function(
                cls, core_schema.str_schema(pattern=r"^[0-9]{3}$")
            ),
        )


class ComponentRef(Ref):
    """The ID of any component that has one (a card, a hex tile, an overlay ...)."""

    kind = "*"


# --- small vocabularies ------------------------------------------------------------


class PipColour(StrEnum):
    """Pip colours on material edges, in the Codex's order (Rulebook: Crafting Entries
    lists Red, Blue, Yellow, Purple, Silver; the box's tokens also show grey, green and
    orange pips, which the community's files place before silver). Which colours a pack
    uses, and their order, is the list ``crafting.pip_colours`` of its rules file.
    A name is read without regard to case, and "gray" is grey."""

    RED = "red"
    BLUE = "blue"
    YELLOW = "yellow"
    PURPLE = "purple"
    GREY = "grey"
    GREEN = "green"
    ORANGE = "orange"
    SILVER = "silver"

    @classmethod
    def _missing_(cls, value: object) -> PipColour | None:
        if isinstance(value, str):
            name = value.strip().lower()
            name = "grey" if name == "gray" else name
            for colour in cls:
                if colour.value == name:
                    return colour
        return None

    @property
    def letter(self) -> str:
        """The colour's letter(s) in a written code, as the community writes codes:
        R, B, Y, P, G (grey), Gn (green), O, S ("Gn2301")."""
        return "Gn" if self is PipColour.GREEN else self.value[0].upper()


class PipShape(StrEnum):
    """Pip shapes. Two edges join when their colours match and, where both edges record
    a shape, their shapes match too (the community's transcription records none)."""

    DIAMOND = "diamond"
    CIRCLE = "circle"
    TRIANGLE = "triangle"
    SQUARE = "square"


class Edge(StrEnum):
    """The four edges of a square material token."""

    TOP = "top"
    RIGHT = "right"
    BOTTOM = "bottom"
    LEFT = "left"


class FeatureAction(StrEnum):
    """Actions a terrain feature offers (Rulebook: Terrain; Actions)."""

    FORAGE = "forage"
    FISH = "fish"
    MINE = "mine"
    DELVE = "delve"
    GATHER_WATER = "gather_water"
    PREPARE_SHELTER = "prepare_shelter"


class ForageDeck(StrEnum):
    """The two forage decks (Rulebook: Foraging)."""

    FOREST = "forest"
    PLAINS = "plains"


class WaterLine(StrEnum):
    """The three fishing lines (Rulebook: Fishing, step 2)."""

    RED = "red"
    WHITE = "white"
    BLACK = "black"
