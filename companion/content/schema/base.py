"""Shared base model and small types for pack schemas."""

from __future__ import annotations

from enum import StrEnum

from pydantic import BaseModel, ConfigDict


class PackModel(BaseModel):
    """Base for every pack schema: unknown fields are errors, values are immutable."""

    model_config = ConfigDict(extra="forbid", frozen=True, str_strip_whitespace=True)


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
