"""Character creation (Rulebook: Characters > Character Creation, steps 1-4;
Key Character Information > Name; Solo Play > Hardcore Solo; readings D8, D10, D19).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence

from companion.content.schema.base import Ability
from companion.content.schema.rules import RulesConstants
from companion.rules.character import Age, Character, TrackRules
from companion.rules.checks import dice
from companion.rules.errors import IllegalAction
from companion.rules.ids import CharacterName, HexId, MantleId, PlayerName, Trait
from companion.rules.legends import Legend
from companion.rules.society import unrest_effects


def keep_dice(
    rules: RulesConstants, rolled: Sequence[int], removed: int | Sequence[int]
) -> tuple[int, ...]:
    """Step 1: of the five dice rolled, remove one (by position) and keep four.

    ``removed`` is the position of the die left out (several positions if a pack keeps
    fewer than ``dice_rolled - 1``).
    """
    creation = rules.character_creation
    values = dice(rolled)
    if len(values) != creation.dice_rolled:
        raise IllegalAction(f"roll {creation.dice_rolled} dice for abilities; got {len(values)}")
    out = {removed} if isinstance(removed, int) else set(removed)
    drop = creation.dice_rolled - creation.dice_kept
    if len(out) != drop or any(not 0 <= i < len(values) for i in out):
        raise IllegalAction(
            f"remove {drop} of the {len(values)} dice; got die "
            + ", ".join(str(i + 1) for i in sorted(out))
        )
    return tuple(v for i, v in enumerate(values) if i not in out)


def _assign_abilities(
    rules: RulesConstants, kept: Sequence[int], assignment: Mapping[Ability, int]
) -> dict[Ability, int]:
    """Step 1: assign each kept die to one ability; the values must be exactly the dice."""
    creation = rules.character_creation
    if set(assignment) != set(creation.abilities):
        names = ", ".join(a.value for a in creation.abilities)
        raise IllegalAction(f"assign one die to each of {names}")
    if Counter(assignment.values()) != Counter(kept):
        raise IllegalAction(
            f"the abilities must use the kept dice {sorted(kept)}; "
            f"got {sorted(assignment.values())}"
        )
    for ability, value in assignment.items():
        if not creation.ability_min <= value <= creation.ability_max:
            raise IllegalAction(
                f"{ability} must be {creation.ability_min} to {creation.ability_max}; got {value}"
            )
    return {a: assignment[a] for a in creation.abilities}


def traits_allowed(rules: RulesConstants, abilities: Mapping[Ability, int]) -> int:
    """Step 2: one trait, or two if the abilities sum to 11 or less.

    The number of traits is capped by ``rules.traits_per_character_max``.
    """
    if sum(abilities.values()) <= rules.character_creation.second_trait_max_sum:
        return min(2, rules.traits_per_character_max)
    return 1


def starting_scale(
    rules: RulesConstants, character_count: int, *, hardcore: bool
) -> tuple[int, int]:
    """Step 4: (maximum health, maximum energy) by character count (D8) or hardcore solo."""
    if hardcore:
        return rules.hardcore_solo.health, rules.hardcore_solo.energy
    try:
        scale = rules.scale_for(character_count)
    except KeyError:
        raise IllegalAction(
            f"the rules give no health and energy for {character_count} characters"
            + ("; one character plays hardcore solo" if character_count == 1 else "")
        ) from None
    return scale.health, scale.energy


def track_rules(rules: RulesConstants, *, hardcore: bool) -> TrackRules:
    """The health-track rules for a new character (hardcore solo, D19)."""
    if not hardcore:
        return TrackRules()
    solo = rules.hardcore_solo
    return TrackRules(
        incapacitated_only_when_all_major=solo.incapacitated_only_when_all_major,
        overflow_flips_minor_to_major=solo.overflow_flips_minor_to_major,
        hardcore=True,
    )


def create_character(
    rules: RulesConstants,
    *,
    name: str,
    player: str,
    rolled: Sequence[int],
    removed: int | Sequence[int],
    assignment: Mapping[Ability, int],
    traits: Sequence[str],
    mantle: str | None,
    character_count: int,
    in_game: Sequence[Character] = (),
    legends: Sequence[Legend] = (),
    available_traits: Sequence[str] | None = None,
    hardcore: bool = False,
    unrest: int = 0,
    starting_energy: int | None = None,
    hex: str | None = None,
) -> Character:
    """Create a character, steps 1-4 of Character Creation.

    - ``rolled``: the five dice (typed from the table or rolled by the app), ``removed``
      the position of the one left out; ``assignment`` maps each ability to a kept die.
    - ``traits``: one, or two if the abilities sum to ``second_trait_max_sum`` or less;
      a name matching a legend (case-insensitive) cannot take a trait of that legend.
    - ``mantle``: required (Step 3); each mantle for one character per game (``in_game``).
    - at most ``character_count`` characters in play (D8).
    - names are unique among the characters present (``in_game``).
    - health and energy by ``character_count`` (D8) or hardcore solo (D19); unrest 6+
      lowers starting energy (D10, cumulative thresholds), never below 0.
    - ``starting_energy`` overrides the full track: a character made after a death
      enters play with 0 energy (Rulebook: Character Death).
    """
    name = name.strip()
    if not name:
        raise IllegalAction("a character needs a name")
    for other in in_game:
        if other.name.casefold() == name.casefold():
            raise IllegalAction(f"a character named {other.name} is already in this game")
    if len(in_game) >= character_count:
        # Rulebook: Determine Energy and Health; D8: the campaign's character count.
        raise IllegalAction(
            f"this campaign plays with {character_count} character"
            f"{'s' if character_count != 1 else ''}: "
            f"{', '.join(c.name for c in in_game)} {'are' if len(in_game) > 1 else 'is'} "
            "in play"
        )
    kept = keep_dice(rules, rolled, removed)
    abilities = _assign_abilities(rules, kept, assignment)
    allowed = traits_allowed(rules, abilities)
    chosen = tuple(Trait(t) for t in traits)
    if not chosen:
        raise IllegalAction("choose a trait for the character")
    if len(chosen) < allowed:
        # Step 2: "if the sum of your character's four abilities is 11 or lower, choose
        # a second trait" -- it is part of the character, not an option.
        raise IllegalAction(
            f"abilities summing to {sum(abilities.values())} call for a second trait; "
            "choose two"
        )
    if len(set(chosen)) != len(chosen):
        raise IllegalAction("a character cannot take the same trait twice")
    if len(chosen) > allowed:
        total = sum(abilities.values())
        raise IllegalAction(
            f"abilities summing to {total} allow {allowed} trait"
            f"{'s' if allowed > 1 else ''}; got {len(chosen)}"
        )
    if available_traits is not None:
        for trait in chosen:
            if trait not in available_traits:
                raise IllegalAction(f"{trait} is not an available trait")
    for legend in legends:
        if legend.name.casefold() == name.casefold():
            for trait in chosen:
                if trait in legend.traits:
                    raise IllegalAction(
                        f"{name} shares the name of the legend {legend.name}, "
                        f"who has the trait {trait}"
                    )
    if mantle is None:
        raise IllegalAction("choose a mantle for the character (Step 3)")
    if mantle is not None:
        for other in in_game:
            if other.mantle == mantle:
                raise IllegalAction(f"{other.name} already wears the mantle {mantle}")
    health_max, energy_max = starting_scale(rules, character_count, hardcore=hardcore)
    if starting_energy is None:
        energy = energy_max + unrest_effects(rules, unrest).starting_energy_delta
    else:
        energy = starting_energy
    energy = max(0, min(energy_max, energy))
    return Character(
        name=CharacterName(name),
        player=PlayerName(player),
        age=Age.YOUNG,
        abilities=abilities,
        traits=chosen,
        health_max=health_max,
        energy_max=energy_max,
        energy=energy,
        mantle=MantleId(mantle) if mantle is not None else None,
        hex=HexId(hex) if hex is not None else None,
        track_rules=track_rules(rules, hardcore=hardcore),
    )


def replacement_entry(shelters: Iterable[str], starting: Sequence[str],
                      no_shelter_entry: str) -> tuple[list[str], bool]:
    """Where a character made after a death may enter, and whether those hexes have
    shelter (Rulebook: Character Death; reading D22: with no shelter anywhere, the
    starting hex or a hex with an outpost, unless the pack says ``refused``).

    >>> replacement_entry(["E05"], ["E01"], "starting_or_outpost")
    (['E05'], True)
    >>> replacement_entry([], ["E01", "E07"], "starting_or_outpost")
    (['E01', 'E07'], False)
    >>> replacement_entry([], ["E01"], "refused")
    ([], True)
    """
    sheltered = sorted(set(shelters))
    if sheltered or no_shelter_entry == "refused":
        return sheltered, True
    return list(starting), False


def check_placement(
    hex: str | None, *, allowed: Sequence[str], replacement: bool, name: str = "the character",
    sheltered: bool = True,
) -> None:
    """Where a new character enters the valley.

    A starting character begins in the starting hex or a hex with an outpost (Rulebook:
    Set Up > Determine Starting Hex and Place Characters); a character made after a death
    is placed in a hex that has shelter (Rulebook: Character Death). ``allowed`` lists
    those hexes; ``hex`` None is refused once the valley offers any.

    >>> check_placement("E01", allowed=["E01"], replacement=False)
    >>> check_placement("E02", allowed=["E01"], replacement=False)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    companion.rules.errors.IllegalAction: the character begins in ... (E01); E02 is neither
    """
    if hex is not None and hex in allowed:
        return
    if replacement and not sheltered:
        # Reading D22: no hex has shelter, so the starting hex or a hex with an outpost.
        where = "the starting hex or a hex with an outpost, since no hex has shelter"
        if not allowed:
            return
    elif replacement:
        where = "a hex that has shelter"
        if not allowed:
            raise IllegalAction(
                f"{name} enters play in a hex that has shelter, and no hex has one: "
                "prepare shelter first"
            )
    else:
        if not allowed:
            return  # no valley yet: the character is placed when it is set up
        where = "the starting hex or a hex with an outpost"
    if hex is None:
        raise IllegalAction(f"choose where {name} enters play: {where} ({', '.join(allowed)})")
    raise IllegalAction(f"{name} begins in {where} ({', '.join(allowed)}); {hex} is neither"
                        if not replacement else
                        f"{name} enters play in {where} ({', '.join(allowed)}); {hex} has none"
                        if sheltered else
                        f"{name} enters play in {where} ({', '.join(allowed)}); {hex} is "
                        "neither")
