"""Characters' vocabulary, the valley, materials, food, items, structures and crafting.

Each component kind is one pydantic model; every model with an ``id`` is a component a
pack can add, or replace in a pack that extends it (an entry with the same ``id``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from enum import StrEnum
from typing import Any, Literal

from pydantic import Field, field_validator, model_validator

from companion.content.schema.base import (
    Ability,
    ComponentId,
    Edge,
    FeatureAction,
    FeatureRef,
    ForageDeck,
    IconRef,
    ItemRef,
    MantleRef,
    MaterialRef,
    Omen,
    PackModel,
    PipColour,
    PipShape,
    RegionRef,
    Slot,
)
from companion.content.schema.effects import Effect
from companion.content.schema.rules import RulesConstants

# --- characters ---------------------------------------------------------------------


class AbilityInfo(PackModel):
    """Name and description of one of the four abilities (Rulebook: Abilities)."""

    id: Ability
    name: str = Field(min_length=1)
    text: str = ""


class Trait(PackModel):
    """A trait (Rulebook: Traits): no intrinsic effect, cards call on it by ID."""

    id: ComponentId
    name: str = Field(min_length=1)
    text: str = ""


class OmenInfo(PackModel):
    """Name and description of one of the five omens (Rulebook: Omens)."""

    id: Omen
    name: str = Field(min_length=1)
    text: str = ""


NightTiming = Literal["start", "rest", "degrade_food", "tend_fire", "night_actions",
                     "reconcile_inventory", "night_cards", "increase_activity", "end"]
"""When a card's effect happens during the Night (Rulebook: Night Phase, in order)."""


class Mantle(PackModel):
    """A mantle board: a mythic archetype a character takes up for a challenge."""

    id: ComponentId
    name: str = Field(min_length=1)
    text: str = ""


class MantlePower(PackModel):
    """A mantle power card that slots into one mantle (Rulebook: Mantle Power)."""

    id: ComponentId
    mantle: MantleRef
    name: str = Field(min_length=1)
    text: str = Field(min_length=1)
    effects: tuple[Effect, ...] = ()
    night: NightTiming | None = Field(
        default=None, description="the step of the Night it is used at (start, end ...); "
        "null: used when its text says")


# --- the valley ---------------------------------------------------------------------


class IconKind(StrEnum):
    """What an icon on an item is for."""

    TECHNOLOGY = "technology"
    """Required to build outposts over a feature, or to build a structure."""
    PROCESSING = "processing"
    """Used up, one material each, by the Process action (Rulebook: Processing)."""


class Icon(PackModel):
    """A technology or processing icon (the rulebook's glyphs were lost; packs name them)."""

    id: ComponentId
    name: str = Field(min_length=1)
    kind: IconKind


class FeatureActionSpec(PackModel):
    """One action a feature offers."""

    action: FeatureAction
    deck: ForageDeck | None = Field(default=None, description="forage deck to use")
    cost: int | None = Field(
        default=None,
        ge=0,
        description="energy; None means the rules constant action_costs.<action> (D1-D4)",
    )

    @model_validator(mode="after")
    def _forage_names_a_deck(self) -> FeatureActionSpec:
        if (self.action is FeatureAction.FORAGE) != (self.deck is not None):
            raise ValueError("a forage action names its deck (forest or plains); "
                             "no other action has a deck")
        return self


class FishingTerrain(PackModel):
    """What a Bonus or Mishap modifier does when fishing here (reading D15)."""

    bonus: tuple[Effect, ...] = Field(min_length=1)
    bonus_choice: bool = Field(
        default=False, description="true: the player picks ONE of the bonus effects"
    )
    mishap: tuple[Effect, ...] = Field(min_length=1)


class Feature(PackModel):
    """A terrain feature (Rulebook: Terrain): its actions and properties."""

    id: ComponentId
    name: str = Field(min_length=1)
    actions: tuple[FeatureActionSpec, ...] = ()
    open_terrain: bool = Field(description="crossing costs no extra energy")
    outpost_technology: IconRef | None = Field(
        description="technology icon needed to build an outpost over it (D12); null: none"
    )
    mining_chips: tuple[MaterialRef, ...] = Field(
        default=(), description="chips put in the bag to mine here (D14)"
    )
    fishing: FishingTerrain | None = None

    def action_cost(self, action: FeatureAction, rules: RulesConstants) -> int | None:
        """Energy ``action`` costs here: the feature's own cost if the pack gives one,
        else the rules constant (readings D1-D4); None if the feature lacks the action."""
        for spec in self.actions:
            if spec.action is action:
                if spec.cost is not None:
                    return spec.cost
                cost: int = getattr(rules.action_costs, action.value)
                return cost
        return None

    @model_validator(mode="after")
    def _action_data_present(self) -> Feature:
        actions = {a.action for a in self.actions}
        # A feature of the rules alone (the rules pack, "My own box") has the action but
        # not its chips or fishing outcomes: those are drawn at the table from the box.
        if self.mining_chips and FeatureAction.MINE not in actions:
            raise ValueError("only a feature with the mine action lists mining chips")
        if self.fishing is not None and FeatureAction.FISH not in actions:
            raise ValueError("only a feature with the fish action gives a fishing bonus "
                             "and mishap")
        return self


class Region(PackModel):
    """A region of the valley: a set of hex tiles (Rulebook: Valley > Regions)."""

    id: ComponentId
    name: str = Field(min_length=1)
    text: str = ""
    tiles: int | None = Field(
        default=None, ge=1,
        description="how many hex tiles the box holds for this region, its starting hex "
                    "included; set when its tiles are typed as the table places them "
                    "(\"My own box\"), so the bag's size is known before they are")


class HexOmen(PackModel):
    """An omen marker printed on a hex tile (in a section, for the map view)."""

    omen: Omen
    section: Literal["a", "b", "c"] | None = None


class HexTile(PackModel):
    """A hex tile (Rulebook: Valley > Hexes): sections A, B, C hold features."""

    id: ComponentId
    region: RegionRef
    name: str = ""
    starting: bool = Field(default=False, description="the region's starting hex")
    sections: dict[Literal["a", "b", "c"], FeatureRef | None]
    omens: tuple[HexOmen, ...] = ()

    @field_validator("sections")
    @classmethod
    def _three_sections(
        cls, sections: dict[Literal["a", "b", "c"], FeatureRef | None]
    ) -> dict[Literal["a", "b", "c"], FeatureRef | None]:
        if set(sections) != {"a", "b", "c"}:
            raise ValueError("a hex has sections a, b and c (null for an empty section)")
        if all(f is None for f in sections.values()):
            raise ValueError("a hex has at least one feature")
        return sections


class OverlayKind(StrEnum):
    """Kinds of overlays (Rulebook: Valley > Overlays)."""

    OUTPOST = "outpost"
    LAIR = "lair"
    OTHER = "other"


class Overlay(PackModel):
    """An overlay tile covering one section of a hex (outpost, behemoth lair ...)."""

    id: ComponentId
    name: str = Field(min_length=1)
    kind: OverlayKind
    text: str = ""


# --- materials and food -------------------------------------------------------------

_PIP_TEXT = re.compile(r"^\s*([A-Za-z]+)(?:\s+([A-Za-z]+))?\s+(\d+)\s*$")


class Pip(PackModel):
    """The pips on one edge: colour, shape and count (0 is the "null" pip, which reads
    as zero and cannot begin a crafting code). In YAML either a mapping or the short
    form ``"red diamond 1"``; the shape may be left out (``"grey 6"``, as the
    community transcribes the box's tokens): two edges then join on colour alone.
    Counts run 0 to 9, since a code's digits do."""

    colour: PipColour
    shape: PipShape | None = Field(
        default=None, description="matters only when both touching edges record one"
    )
    count: int = Field(ge=0, le=9)

    @model_validator(mode="before")
    @classmethod
    def _short_form(cls, data: Any) -> Any:
        if isinstance(data, str):
            match = _PIP_TEXT.match(data)
            if not match:
                raise ValueError(f"a pip is 'colour shape count' or 'colour count', e.g. "
                                 f"'red diamond 1' or 'grey 6', not {data!r}")
            pip: dict[str, Any] = {"colour": match[1], "count": int(match[3])}
            if match[2]:
                pip["shape"] = match[2].lower()
            return pip
        return data

    def joins(self, other: Pip) -> bool:
        """Whether this edge can touch ``other``: same colour, and same shape where both
        record one (Rulebook: Crafting Items, "matching color and shape")."""
        if self.colour != other.colour:
            return False
        return self.shape is None or other.shape is None or self.shape == other.shape

    def __str__(self) -> str:
        shape = f" {self.shape.value}" if self.shape is not None else ""
        return f"{self.colour.value}{shape} {self.count}"


class MaterialSide(PackModel):
    """One side of a material token: four edges, each a pip or nothing (null). An edge
    left out is bare, so a side with no pips at all may be written ``edges: {}``."""

    edges: dict[Edge, Pip | None] = Field(default_factory=dict, validate_default=True)
    process_icons: tuple[IconRef, ...] = Field(
        default=(), description="icons needed to process this side (unprocessed side only)"
    )

    @field_validator("edges")
    @classmethod
    def _four_edges(cls, edges: dict[Edge, Pip | None]) -> dict[Edge, Pip | None]:
        # A printed token may show pips on only some edges: the others are bare.
        return {edge: edges.get(edge) for edge in Edge}

    def pip(self, edge: Edge) -> Pip | None:
        """The pip on ``edge`` (None if the edge is bare)."""
        return self.edges.get(edge)

    @classmethod
    def from_marks(cls, marks: Mapping[str, str | None] | Sequence[str | None] | None
                   ) -> MaterialSide:
        """A side from the community's "marks" (the Stonesaga Campaign Journal's token
        data): a mapping ``{"left": "Blue 2", "right": None, ...}`` or a list in its
        order ``[left, right, top, bottom]``; None for a side without pips.

        >>> side = MaterialSide.from_marks(["Grey 6", None, "Red 5", None])
        >>> str(side.pip(Edge.LEFT)), side.pip(Edge.RIGHT), str(side.pip(Edge.TOP))
        ('grey 6', None, 'red 5')
        """
        if marks is None:
            return cls()
        if not isinstance(marks, Mapping):
            marks = dict(zip(("left", "right", "top", "bottom"), marks, strict=True))
        return cls.model_validate({"edges": {edge: text for edge, text in marks.items()
                                             if text}})


class MaterialCategory(StrEnum):
    """Rulebook: Tokens > Material Tokens."""

    ANIMAL = "animal"
    MINERAL = "mineral"
    VEGETABLE = "vegetable"
    RARE = "rare"

    @classmethod
    def _missing_(cls, value: object) -> MaterialCategory | None:
        # The Codex calls vegetable tokens "plant materials"; so do the community's files.
        if isinstance(value, str):
            name = value.strip().lower()
            return cls.VEGETABLE if name == "plant" else next(
                (c for c in cls if c.value == name), None)
        return None


class MiningChipFace(PackModel):
    """What a material's mining chip shows besides its material (Rulebook: Mining, step 4):
    an omen with its effect, and the match effect resolved instead when the omen matches a
    current omen. Every chip of one material shows the same face (reading D14 lists the
    chips by material only)."""

    omen: Omen
    effects: tuple[Effect, ...] = Field(default=(), description="the omen's effect")
    match_effects: tuple[Effect, ...] = Field(
        default=(), description="resolved instead when the omen matches a current omen"
    )


class Material(PackModel):
    """A square material token with an unprocessed and a processed side.

    Crafting (Rulebook: Crafting Items) lays two tokens side by side, each in any of its
    four rotations; the touching edges must show the same colour and shape. The code
    reads the pip counts of the four vertical columns left to right (left token's left
    and right edges, right token's left and right edges); its colour is the leftmost
    column's. The rules engine does the reading; the pack only describes the tokens.
    """

    id: ComponentId
    name: str = Field(min_length=1)
    category: MaterialCategory
    size: Literal["large", "small"]
    unprocessed: MaterialSide
    processed: MaterialSide
    chip: MiningChipFace | None = Field(
        default=None, description="its mining chip's omen and effects, if it is mined"
    )

    def side(self, processed: bool) -> MaterialSide:
        """The processed or the unprocessed side."""
        return self.processed if processed else self.unprocessed

    @model_validator(mode="after")
    def _processing_icons_on_unprocessed(self) -> Material:
        if self.processed.process_icons:
            raise ValueError("only the unprocessed side lists icons needed to process")
        return self


class FoodKind(StrEnum):
    """Rulebook: Tokens > Food Tokens, Water Tokens."""

    PERISHABLE = "perishable"
    """Acquired fresh; degrades to fermented each Night, then is discarded."""
    TOUGH = "tough"
    """Acquired unprocessed; must be processed to be eaten."""
    WATER = "water"
    """Quenches thirst at Rest."""


class Food(PackModel):
    """A food or water token."""

    id: ComponentId
    name: str = Field(min_length=1)
    kind: FoodKind
    process_icons: tuple[IconRef, ...] = Field(
        default=(), description="icons needed to process a tough food"
    )

    @model_validator(mode="after")
    def _only_tough_food_is_processed(self) -> Food:
        if self.process_icons and self.kind is not FoodKind.TOUGH:
            raise ValueError("only tough food needs processing icons")
        return self


# --- items, structures, crafting ----------------------------------------------------


class NightAction(PackModel):
    """An action an item offers during the Night phase."""

    text: str = Field(min_length=1)
    effects: tuple[Effect, ...] = ()


class Item(PackModel):
    """An item card (Rulebook: Crafting Decks > Item)."""

    id: ComponentId
    name: str = Field(min_length=1)
    slot: Slot
    technologies: tuple[IconRef, ...] = Field(default=(), description="technology icons")
    provides: tuple[IconRef, ...] = Field(default=(), description="processing icons")
    night_actions: tuple[NightAction, ...] = ()
    storage: int = Field(default=0, ge=0, description="extra bag cells")
    harvest_cap_bonus: int = Field(default=0, ge=0)
    text: str = ""


class StructureCost(PackModel):
    """What building a structure costs: materials (processed or not) and energy."""

    materials: dict[MaterialRef, int] = Field(default_factory=dict)
    energy: int = Field(default=0, ge=0)


class StructureStorage(PackModel):
    """A structure whose text says it stores materials: a storage container in its hex
    (Rulebook: Day Actions, "exchange materials with any storage container in their hex";
    reading D21: an outpost itself is no container)."""

    capacity: int | None = Field(
        default=None, ge=1, description="materials it holds at most; null: no limit printed")
    materials: tuple[MaterialRef, ...] = Field(
        default=(), description="the only materials it stores (\"some storage containers can "
        "only store specific types of materials\"); empty: any material")


class Structure(PackModel):
    """A structure card (Rulebook: Building Structures)."""

    id: ComponentId
    name: str = Field(min_length=1)
    cost: StructureCost
    requires: tuple[IconRef, ...] = Field(default=(), description="technology icons")
    text: str = Field(min_length=1)
    effects: tuple[Effect, ...] = ()
    night: NightTiming | None = Field(
        default=None, description="the step of the Night its effects belong to "
        "(start, rest, degrade_food, tend_fire, night_actions, end); null: not a Night effect")
    omen: Omen | None = Field(
        default=None, description="its Night effect happens only while this omen is current")
    shelter: bool = Field(
        default=False, description="grants shelter to characters in its hex at Rest")
    storage: StructureStorage | None = Field(
        default=None, description="its text says it stores materials (reading D21)")


_CARD_ID_IN_TEXT = re.compile(r"\b(IT\d+)\b", re.IGNORECASE)


def item_cards_in(text: str) -> tuple[str, ...]:
    """The item card ids a Codex text names ("search the Item Card deck for IT29"), in
    order, without repeats.

    >>> item_cards_in("Search the Item Card deck for it29, then IT3; not IT29 again.")
    ('IT29', 'IT3')
    """
    return tuple(dict.fromkeys(m.upper() for m in _CARD_ID_IN_TEXT.findall(text)))


class CraftingEntry(PackModel):
    """A Codex crafting entry: colour + four-digit code -> an item, or a dead end.

    ``code`` is the four pip counts read left to right; it cannot begin with 0 (the null
    pip). An entry names an ``item`` of the pack, or is a ``dead_end``, or (imported
    from a community file, before the item card is entered) carries only
    ``item_name`` and ``text``. Imported entries are ``verified: false`` until an owner
    confirms them at the table. An owner's pack may also say ``no_entry``: the owner's
    Codex has no entry for the code (read at the table, remembered so nobody asks again).
    """

    colour: PipColour
    code: str = Field(pattern=r"^[0-9]{4}$")
    item: ItemRef | None = None
    dead_end: bool = False
    dead_end_materials: Literal["returned", "used up"] | None = Field(
        default=None,
        description="what a dead end does with the two tokens, as its entry says "
        "(unset: the rules file's crafting.consume_on_dead_end)",
    )
    item_name: str = ""
    item_cards: tuple[str, ...] = Field(
        default=(), description="item card ids the entry's text names (e.g. IT29)"
    )
    text: str = ""
    flavor: str = ""
    verified: bool = True
    no_entry: bool = Field(
        default=False,
        description="the owner's Codex has no entry for this code (typed at the table)",
    )

    @model_validator(mode="before")
    @classmethod
    def _code_as_text(cls, data: Any) -> Any:
        # An unquoted 1410 arrives as an int; a leading zero is kept as text by the loader.
        if isinstance(data, dict) and type(data.get("code")) is int:
            return {**data, "code": str(data["code"])}
        return data

    @model_validator(mode="after")
    def _item_or_dead_end(self) -> CraftingEntry:
        if self.code.startswith("0"):
            raise ValueError("a crafting code cannot begin with 0 (the null pip)")
        # An imported entry keeps the community's item_name once its card is linked.
        makes = self.item is not None or bool(self.item_name)
        if (makes, self.dead_end, self.no_entry).count(True) != 1:
            raise ValueError("a crafting entry names an item (or, when imported, an "
                             "item_name), or is a dead_end, or says no_entry: exactly "
                             "one of them")
        if self.dead_end_materials is not None and not self.dead_end:
            raise ValueError("only a dead end says what happens to the materials")
        return self

    @property
    def key(self) -> tuple[PipColour, str]:
        """(colour, code): the entry's identity."""
        return (self.colour, self.code)

    def uses_up_materials(self, default: bool) -> bool:
        """Whether crafting this entry uses up the two tokens: always for an item; for a
        dead end, as the entry says, else ``default`` (the rules file's)."""
        if not self.dead_end:
            return True
        if self.dead_end_materials is None:
            return default
        return self.dead_end_materials == "used up"
