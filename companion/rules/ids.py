"""Identifiers used by the rules layer; each is a ``NewType`` over ``str``.

They name pack components (items, materials, features ...) or campaign objects
(characters are named by their unique name, Rulebook: Characters > Name).
"""

from __future__ import annotations

from typing import NewType

CharacterName = NewType("CharacterName", str)
PlayerName = NewType("PlayerName", str)
HexId = NewType("HexId", str)
ItemId = NewType("ItemId", str)
MaterialId = NewType("MaterialId", str)
FoodId = NewType("FoodId", str)
FeatureId = NewType("FeatureId", str)
OutpostId = NewType("OutpostId", str)
StructureId = NewType("StructureId", str)
ContainerId = NewType("ContainerId", str)
ChallengeId = NewType("ChallengeId", str)
GoalId = NewType("GoalId", str)
EventId = NewType("EventId", str)
LegendId = NewType("LegendId", str)
MantleId = NewType("MantleId", str)
MantlePowerId = NewType("MantlePowerId", str)
CultureAbilityId = NewType("CultureAbilityId", str)
ComponentId = NewType("ComponentId", str)
NightCardId = NewType("NightCardId", str)
Trait = NewType("Trait", str)
Mark = NewType("Mark", str)
Technology = NewType("Technology", str)
Icon = NewType("Icon", str)
