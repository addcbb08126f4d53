"""The rules constants: every number the rulebook gives, as the pack's ``rules.yaml``.

Nothing here has a default: a pack states every number, with a comment naming the
rulebook section or the reading (D1-D20) it comes from, so that an owner of a later
printing changes a number in YAML, never in code.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, field_validator, model_validator

from companion.content.schema.base import Ability, HealthToken, PackModel, PipColour, Slot
from companion.content.schema.effects import Effect


class ActionCosts(PackModel):
    """Energy cost of each Day action (Rulebook: Actions; readings D1-D4, D12)."""

    move: int = Field(ge=0)
    move_obstructed_extra: int = Field(ge=0)
    explore: int = Field(ge=0)
    revive: int = Field(ge=0)
    prepare_shelter: int = Field(ge=0)
    gather_water: int = Field(ge=0)
    forage: int = Field(ge=0)
    fish: int = Field(ge=0)
    mine: int = Field(ge=0)
    delve: int = Field(ge=0)
    process: int = Field(ge=0)
    craft: int = Field(ge=0)
    build_outpost: int = Field(ge=0)


class CharacterScale(PackModel):
    """Maximum health and energy for a character count (reading D8)."""

    characters: int = Field(ge=1, le=4)
    health: int = Field(ge=1)
    energy: int = Field(ge=1)


class HardcoreSolo(PackModel):
    """Hardcore solo variant (Rulebook: Solo Play > Hardcore Solo; reading D19)."""

    health: int = Field(ge=1)
    energy: int = Field(ge=1)
    rest_automatic_energy: int = Field(ge=0)
    first_action_discount: int = Field(ge=0)
    incapacitated_only_when_all_major: bool
    overflow_flips_minor_to_major: bool
    perish_activity_extra: int = Field(ge=0)


class CharacterCreation(PackModel):
    """Rulebook: Character Creation, steps 1-2."""

    dice_rolled: int = Field(ge=1)
    dice_kept: int = Field(ge=1)
    ability_min: int
    ability_max: int
    second_trait_max_sum: int
    abilities: list[Ability]


class Rest(PackModel):
    """Energy regained at Rest (Rulebook: Night Phase > Rest; reading D9)."""

    automatic_energy: dict[int, int]
    food_energy: int = Field(ge=0)
    water_energy: int = Field(ge=0)
    shelter_energy: int = Field(ge=0)
    starving_token: HealthToken
    energized_boost: int = Field(ge=0)
    needs_met_degrades: int = Field(ge=0)


class UnrestThreshold(PackModel):
    """An unrest threshold and its effects; thresholds are cumulative (reading D10)."""

    at: int = Field(ge=1)
    activity_per_night: int = Field(ge=0)
    starting_energy_delta: int = Field(le=0)
    rest_automatic_energy_delta: int = Field(le=0)
    structures_disabled: bool
    epoch_goal: str | None = None


class DelveExit(PackModel):
    """Where an exit places the character, by depth (Rulebook: Delving > Exit; D17)."""

    min_depth: int = Field(ge=1)
    max_depth: int | None = None
    scope: str = Field(pattern="^(adjacent|region|anywhere)$")


class Delving(PackModel):
    """Rulebook: Delving > Depth (reading D17)."""

    costly_from_depth: int = Field(ge=1)
    energy_per_costly_card: int = Field(ge=0)
    exits: list[DelveExit]


class Contest(PackModel):
    """Rulebook: Behemoths > Contests (reading D16): higher than the value wins,
    short by at most ``stalemate_margin`` is a stalemate, further short is a defeat."""

    stalemate_margin: int = Field(ge=0)


class Encounter(PackModel):
    """One animal encounter test (Rulebook: Foraging > Animal Encounters; D5, D6).

    The test succeeds on ``difficulty + per_extra_animal * animals`` or more (D5: small
    prey 5 + 1 per prey chosen, so 6/7/8)."""

    ability: Ability
    difficulty: int
    per_extra_animal: int = Field(default=0, description="added per animal chosen (D5)")
    max_animals: int = Field(ge=1)
    success: tuple[Effect, ...] = Field(default=(), description="gained on a success")
    success_per_animal: tuple[Effect, ...] = Field(
        default=(), description="gained on a success, once per animal (before ``success``)"
    )
    failure: tuple[Effect, ...] = Field(default=(), description="suffered on a failure")
    traits: dict[str, int] = Field(
        default_factory=dict, description="trait id -> bonus (+) or penalty (-) to the test"
    )


class Foraging(PackModel):
    """Rulebook: Foraging (readings D1, D5, D6)."""

    harvest_cap: int = Field(ge=1)
    hunt_large_prey: Encounter
    hunt_small_prey: Encounter
    fight_predator: Encounter
    flee_predator: Encounter


class Fishing(PackModel):
    """Rulebook: Fishing, step 3."""

    dice: int = Field(ge=1)


class Mining(PackModel):
    """Rulebook: Mining, step 5 (reading D14)."""

    max_draws: int = Field(ge=1)


class Behemoths(PackModel):
    """Rulebook: Behemoths > Habits, Learning the Secret (reading D18)."""

    habits_lore: int = Field(ge=0)
    secret_lore: int = Field(ge=0)
    learn_range: int = Field(ge=0, description="0 = same hex, 1 = same or adjacent hex")


class Valley(PackModel):
    """Rulebook: Valley; Actions > Explore."""

    tray_slots: int = Field(ge=1)
    max_tiles_per_region: int = Field(ge=1)
    min_unused_tiles_for_new_tray: int = Field(ge=0)
    trays_before_next_region: int = Field(ge=1)


class Bag(PackModel):
    """Reconcile Inventory: what fits in a mantle's bag (Rulebook: Night Phase).

    The rulebook describes a physical indent; the pack gives its capacity in cells
    and how many cells each kind of token covers.
    """

    capacity: int = Field(ge=1)
    large_material_cells: int = Field(ge=1)
    small_material_cells: int = Field(ge=1)
    food_cells: int = Field(ge=1)
    water_cells: int = Field(ge=1)


class RetainedSupplies(PackModel):
    """Rulebook: Continuing Play > Retaining Supplies (reading D13)."""

    items: int = Field(ge=0)
    materials: int = Field(ge=0)


class Outposts(PackModel):
    """Rulebook: Valley > Building an Outpost; Building Structures (reading D12)."""

    structure_limit: int = Field(ge=0)


class Crafting(PackModel):
    """Rulebook: Crafting Items (reading D20: the rulebook does not say whether a Codex
    dead end uses up the two tokens; the least favourable reading is that it does).

    A dead-end entry may say itself what happens to the materials
    (``CraftingEntry.dead_end_materials``); these are the defaults."""

    consume_on_dead_end: bool
    """A dead-end entry that does not say: are the two tokens used up?"""
    consume_on_no_entry: bool
    """A code the Codex has no entry for: are the two tokens used up?"""
    pip_colours: tuple[PipColour, ...] = tuple(PipColour)
    """The pip colours the pack's tokens show, in the Codex's order of sections."""
    lead_only_colours: tuple[PipColour, ...] = ()
    """Reading D23: pips of these colours may only begin a code (the leftmost row, the
    code's colour); laid as the second, third or fourth row they make the laying
    illegal. Empty: every colour may sit in any row (the rulebook says nothing more). A
    colour the pack's pip_colours does not list restricts nothing (no token shows it)."""

    @field_validator("pip_colours")
    @classmethod
    def _each_colour_once(cls, colours: tuple[PipColour, ...]) -> tuple[PipColour, ...]:
        if not colours:
            raise ValueError("list at least one pip colour")
        if len(set(colours)) != len(colours):
            raise ValueError("a pip colour is listed twice")
        return colours


class Lore(PackModel):
    """Rulebook: Tracks > Lore."""

    minimum: int


class CharacterDeath(PackModel):
    """Rulebook: Character Death ("places them in a hex that has shelter"), reading D22:
    where a replacement enters when no hex has shelter."""

    no_shelter_entry: Literal["starting_or_outpost", "refused"] = Field(
        description="starting_or_outpost: the starting hex or a hex with an outpost, as "
        "Hardcore Solo places a new character; refused: not until a hex has shelter")


class RulesConstants(PackModel):
    """Every rule constant of the game, from the pack's ``rules.yaml``."""

    action_costs: ActionCosts
    character_scale: list[CharacterScale]
    hardcore_solo: HardcoreSolo
    character_creation: CharacterCreation
    traits_per_character_max: int = Field(ge=1)
    rest: Rest
    unrest_thresholds: list[UnrestThreshold]
    item_slots: dict[Slot, int]
    bag: Bag
    retained_supplies: RetainedSupplies
    outposts: Outposts
    delving: Delving
    contest: Contest
    foraging: Foraging
    fishing: Fishing
    mining: Mining
    behemoths: Behemoths
    valley: Valley
    lore: Lore
    crafting: Crafting
    character_death: CharacterDeath
    gather_water: int = Field(ge=0, description="water tokens gained by Gather Water")
    readings: dict[str, str] = Field(
        default_factory=dict,
        description="Reading id (D1...) -> the reading this pack follows, for Help.",
    )

    @model_validator(mode="after")
    def _scales_cover_each_count_once(self) -> RulesConstants:
        counts = [s.characters for s in self.character_scale]
        if len(counts) != len(set(counts)):
            raise ValueError("character_scale lists a character count twice")
        return self

    def scale_for(self, characters: int) -> CharacterScale:
        """Maximum health and energy for ``characters`` characters (reading D8)."""
        for scale in self.character_scale:
            if scale.characters == characters:
                return scale
        raise KeyError(f"no character_scale entry for {characters} characters")
