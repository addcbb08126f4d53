"""Resource tokens in a character's bag (Rulebook: Component Glossary > Tokens).

Materials have an unprocessed and a processed side (always gained unprocessed);
perishable food is fresh then fermented, then discarded; tough food is unprocessed
(uneatable) then processed; water has one side.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class TokenKind(StrEnum):
    """What a bag token is."""

    MATERIAL = "material"
    PERISHABLE_FOOD = "perishable_food"
    TOUGH_FOOD = "tough_food"
    WATER = "water"


class Side(StrEnum):
    """The face a token shows."""

    UNPROCESSED = "unprocessed"
    PROCESSED = "processed"
    FRESH = "fresh"
    FERMENTED = "fermented"
    PLAIN = "plain"
    """Water: a token with a single face."""


@dataclass(frozen=True)
class BagToken:
    """One token in a bag or a storage container."""

    kind: TokenKind
    """Material, perishable food, tough food or water."""
    name: str
    """The material or food id from the pack (``"fiber"``, ``"fish"``), ``"water"`` for water."""
    side: Side
    """The face it shows."""
    large: bool = False
    """A large material token (covers more bag cells, Rulebook: Processing & Crafting)."""

    def __post_init__(self) -> None:
        # Accept the plain strings a store row holds; compare by identity afterwards.
        object.__setattr__(self, "kind", TokenKind(self.kind))
        object.__setattr__(self, "side", Side(self.side))

    @classmethod
    def material(cls, name: str, *, large: bool = False) -> BagToken:
        """A material token as it is gained: unprocessed."""
        return cls(TokenKind.MATERIAL, name, Side.UNPROCESSED, large)

    @classmethod
    def perishable(cls, name: str) -> BagToken:
        """Perishable food as it is gained: fresh."""
        return cls(TokenKind.PERISHABLE_FOOD, name, Side.FRESH)

    @classmethod
    def tough(cls, name: str) -> BagToken:
        """Tough food as it is gained: unprocessed."""
        return cls(TokenKind.TOUGH_FOOD, name, Side.UNPROCESSED)

    @classmethod
    def water(cls) -> BagToken:
        """A water token."""
        return cls(TokenKind.WATER, "water", Side.PLAIN)

    @property
    def edible(self) -> bool:
        """Food that can be eaten now (tough food only once processed)."""
        if self.kind is TokenKind.PERISHABLE_FOOD:
            return True
        return self.kind is TokenKind.TOUGH_FOOD and self.side is Side.PROCESSED

    def __str__(self) -> str:
        return self.name if self.kind is TokenKind.WATER else f"{self.side} {self.name}"
