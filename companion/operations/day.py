"""Day-phase operations (Rulebook: Game Structure > Day Phase; Actions).

Each operation loads the game from the file, applies one rule from
``companion.rules.day``, and writes back what changed with one journal event. The facts
the rules need about features, items and structures are filled from the content pack
here, so the rules never read content themselves.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlmodel import Session

from companion.operations.changes import Changes, Refused
from companion.operations.core import Campaign
from companion.operations.state import load_game, save_game
from companion.operations.valley import load_valley
from companion.rules import day as day_rules
from companion.rules import exploration
from companion.rules.errors import IllegalAction
from companion.rules.game import Game
from companion.rules.ids import Icon, ItemId, OutpostId, StructureId, Technology
from companion.rules.inventory import ItemFacts
from companion.rules.outposts import FeatureAction, FeatureFacts, MaterialCost, StructureFacts

# --- facts from content ----------------------------------------------------------------


def feature_facts(campaign: Campaign, feature_id: str) -> FeatureFacts:
    """What the rules need of a terrain feature."""
    feature = campaign.content.features[feature_id]
    return FeatureFacts(
        id=feature.id,  # type: ignore[arg-type]
        open_terrain=feature.open_terrain,
        outpost_technology=Technology(feature.outpost_technology)
        if feature.outpost_technology else None,
        actions=frozenset(FeatureAction(a.action.value) for a in feature.actions),
    )


def item_facts(campaign: Campaign) -> dict[ItemId, ItemFacts]:
    """Every item card of the pack, as the rules see it."""
    return {
        ItemId(item.id): ItemFacts(
            id=ItemId(item.id), slot=item.slot,
            technologies=frozenset(Technology(t) for t in item.technologies),
            processing_icons=tuple(Icon(i) for i in item.provides),
        )
        for item in campaign.content.items.values()
    }


def structure_facts(campaign: Campaign, structure_id: str) -> StructureFacts:
    """A structure card's back (cost, technology), as the rules see it."""
    structure = campaign.content.structures.get(structure_id)
    if structure is None:
        raise Refused(f"There is no structure '{structure_id}' in the content pack.")
    costs = tuple(MaterialCost(material) for material, count in
                  structure.cost.materials.items() for _ in range(count))
    return StructureFacts(id=StructureId(structure.id), energy=structure.cost.energy,
                          materials=costs,
                          technologies=frozenset(Technology(t) for t in structure.requires))


def hex_features(campaign: Campaign, game: Game, tile: str | None) -> list[str]:
    """Features of a hex that are usable now (not covered by an outpost overlay)."""
    if tile is None or tile not in campaign.content.hexes:
        return []
    covered = {o.covers for o in game.outposts if o.hex == tile}
    return [f for f in campaign.content.hexes[tile].sections.values()
            if f is not None and str(f) not in covered]


# --- the shared shape of a Day operation -------------------------------------------------


Step = Callable[[Game, Session], tuple[Game, str]]
"""Applies one rule to the game; returns the new game and the journal sentence."""


def _day_operation(campaign: Campaign, kind: str, step: Step, **flags: bool) -> Changes:
    with campaign.write(kind, kind) as session:
        busy = procedure_in_progress(session)
        if busy is not None and busy != "night":
            raise Refused(f"An activity is in progress: finish the {busy} first.")
        before = load_game(session, campaign.content)
        after, text = step(before, session)
        save_game(session, campaign.content, before, after)
        session.info["journal_text"] = text
    return Changes(summary=text, characters=True, journal=True, **flags)


def _feature_here(campaign: Campaign, game: Game, name: str, action: FeatureAction) -> FeatureFacts:
    character = game.character(name)
    for feature in hex_features(campaign, game, character.hex):
        facts = feature_facts(campaign, feature)
        if action in facts.actions:
            return facts
    words = action.value.replace("_", " ")
    raise IllegalAction(f"there is nowhere to {words} in {character.name}'s hex")


def procedure_in_progress(session: Session) -> str | None:
    """The kind of procedure in progress ('fishing', 'night' ...), if any."""
    from sqlmodel import select

    from companion.store import models

    row = session.exec(select(models.ProcedureState).where(
        models.ProcedureState.kind == "procedure")).first()
    return str(row.state.get("kind")) if row is not None else None


# --- the actions --------------------------------------------------------------------------


def move(campaign: Campaign, *, name: str, to_hex: str) -> Changes:
    """Move (or Explore) into an adjacent hex (Rulebook: Actions > Move; Explore).

    The cost comes from the valley: 1 energy, +1 on an obstructed path; 2 to explore an
    unexplored hex, which is then flipped. On arrival a Discovery card is due
    (:func:`companion.operations.exploration.draw_discovery`); the character cannot move
    on until it is drawn.
    """
    from companion.operations.exploration import move_and_discover

    return move_and_discover(campaign, name=name, to_hex=to_hex)


def pass_turn(campaign: Campaign, *, name: str) -> Changes:
    """The character passes for the rest of the Day (Rulebook: Day Phase)."""
    def step(game: Game, session: Session) -> tuple[Game, str]:
        return day_rules.pass_turn(game, name), f"{game.character(name).name} passed"

    return _day_operation(campaign, "day.pass", step)


def revive(campaign: Campaign, *, name: str, target: str, token: int) -> Changes:
    """Revive an incapacitated character in the same hex (Rulebook: Actions > Revive)."""
    def step(game: Game, session: Session) -> tuple[Game, str]:
        after = day_rules.revive(campaign.content.rules, game, name, target, token)
        return after, f"{name} revived {target}"

    return _day_operation(campaign, "day.revive", step)


def prepare_shelter(campaign: Campaign, *, name: str) -> Changes:
    """Prepare Shelter at a cave: a shelter token for the rest of the challenge."""
    def step(game: Game, session: Session) -> tuple[Game, str]:
        feature = _feature_here(campaign, game, name, FeatureAction.PREPARE_SHELTER)
        after = day_rules.prepare_shelter(campaign.content.rules, game, name, feature)
        return after, f"{name} prepared shelter in hex {game.character(name).hex}"

    return _day_operation(campaign, "day.shelter", step, valley=True)


def gather_water(campaign: Campaign, *, name: str) -> Changes:
    """Gather Water at a lake, river or wetlands."""
    amount = campaign.content.rules.gather_water
    def step(game: Game, session: Session) -> tuple[Game, str]:
        feature = _feature_here(campaign, game, name, FeatureAction.GATHER_WATER)
        after = day_rules.gather_water(campaign.content.rules, game, name, feature, amount)
        return after, f"{name} gathered {amount} water"

    return _day_operation(campaign, "day.water", step)


def build_outpost(campaign: Campaign, *, name: str, outpost_name: str, feature: str,
                  contributions: Mapping[str, int] | None = None) -> Changes:
    """Build an outpost over a feature of the hex (Rulebook: Building an Outpost; D12)."""
    def step(game: Game, session: Session) -> tuple[Game, str]:
        from sqlmodel import select

        from companion.store import models

        character = game.character(name)
        if feature not in hex_features(campaign, game, character.hex):
            raise IllegalAction(f"there is no usable {feature} in {character.name}'s hex")
        settings = session.get(models.Campaign, 1)
        assert settings is not None
        number = len(session.exec(select(models.Outpost)).all()) + 1
        after = day_rules.build_outpost(
            campaign.content.rules, game, name, outpost_id=OutpostId(f"new-{number}"),
            outpost_name=outpost_name.strip() or f"Outpost {number}", epoch=settings.epoch,
            covers=feature_facts(campaign, feature), items=item_facts(campaign),
            contributions=contributions)
        return after, f"{character.name} built the outpost {outpost_name} over the {feature}"

    return _day_operation(campaign, "day.outpost", step, outposts=True, valley=True)


def build_structure(campaign: Campaign, *, name: str, outpost: str, structure: str,
                    materials: Mapping[str, Sequence[int]] | None = None,
                    contributions: Mapping[str, int] | None = None) -> Changes:
    """Build a structure at an outpost in the hex (Rulebook: Building Structures)."""
    def step(game: Game, session: Session) -> tuple[Game, str]:
        facts = structure_facts(campaign, structure)
        after = day_rules.build_structure(
            campaign.content.rules, game, name, outpost=OutpostId(outpost), structure=facts,
            items=item_facts(campaign), materials=materials, contributions=contributions)
        built = campaign.content.structures[structure].name
        return after, f"{name} built {built} at {game.outpost(OutpostId(outpost)).name}"

    return _day_operation(campaign, "day.structure", step, outposts=True)


def process(campaign: Campaign, *, name: str, tokens: Sequence[int]) -> Changes:
    """Process tokens in the bag (Rulebook: Processing)."""
    def step(game: Game, session: Session) -> tuple[Game, str]:
        needs = _processing_needs(campaign)
        after = day_rules.process(campaign.content.rules, game, name, tokens, needs,
                                  item_facts(campaign))
        return after, f"{name} processed {len(tokens)} token(s)"

    return _day_operation(campaign, "day.process", step)


def _processing_needs(campaign: Campaign) -> dict[str, Sequence[Icon]]:
    needs: dict[str, Sequence[Icon]] = {}
    for material in campaign.content.materials.values():
        needs[material.id] = tuple(Icon(i) for i in material.unprocessed.process_icons)
    for food in campaign.content.foods.values():
        if food.process_icons:
            needs[food.id] = tuple(Icon(i) for i in food.process_icons)
    return needs


# --- what can be done now (the Day panel) -------------------------------------------------


@dataclass(frozen=True)
class ActionOption:
    """One Day action a character could take here, with its cost or why not."""

    action: str
    """'move', 'explore', 'forage', 'fish', 'mine', 'delve', 'prepare_shelter', ..."""
    label: str
    """In game words: "Move to E03 on an obstructed path (...): 2 energy"."""
    cost: int
    target: str | None = None
    """The hex (for moves) or feature the action uses."""
    refusal: str | None = None
    """Why it cannot be taken now, or None when it can."""


def available_actions(campaign: Campaign, name: str) -> list[ActionOption]:
    """Every Day action for ``name`` here, with its cost, and a refusal if not allowed."""
    with campaign.file.read() as session:
        game = load_game(session, campaign.content)
        valley = load_valley(session)
    rules = campaign.content.rules
    character = game.character(name)
    try:
        day_rules.check_can_act(game, name)
        blocked: str | None = None
    except IllegalAction as exc:
        blocked = str(exc)
    options: list[ActionOption] = []
    here = character.hex
    if here is not None and here in valley:
        for cell in valley.locate(here).neighbours():
            if cell not in valley:
                continue
            try:
                cost = exploration.move_cost(rules, valley, campaign.content, here, cell,
                                             who=character.name)
            except IllegalAction:
                continue
            target = valley.tile_at(cell)
            refusal = blocked or _energy_refusal(character.name, character.energy,
                                                 cost.energy, "Explore" if cost.explores
                                                 else "Move")
            options.append(ActionOption("explore" if cost.explores else "move", cost.reason,
                                        cost.energy, target, refusal))
    costs: dict[FeatureAction, tuple[str, int]] = {
        FeatureAction.PREPARE_SHELTER: ("Prepare Shelter", rules.action_costs.prepare_shelter),
        FeatureAction.GATHER_WATER: ("Gather Water", rules.action_costs.gather_water),
        FeatureAction.FORAGE: ("Forage", rules.action_costs.forage),
        FeatureAction.FISH: ("Fish", rules.action_costs.fish),
        FeatureAction.MINE: ("Mine", rules.action_costs.mine),
        FeatureAction.DELVE: ("Delve", rules.action_costs.delve),
    }
    seen: set[FeatureAction] = set()
    for feature in hex_features(campaign, game, here):
        facts = feature_facts(campaign, feature)
        for action in sorted(facts.actions, key=list(costs).index):
            if action in seen:
                continue
            seen.add(action)
            label, base = costs[action]
            energy = day_rules.action_cost(rules, game, name, base)
            refusal = blocked or _energy_refusal(character.name, character.energy, energy, label)
            if action is FeatureAction.DELVE and not game.society.delving_unlocked:
                refusal = "Delving is locked until a game effect opens it"
            options.append(ActionOption(action.value,
                                        f"{label} at the {feature}: {energy} energy",
                                        energy, feature, refusal))
    return options


def _energy_refusal(name: str, energy: int, cost: int, what: str) -> str | None:
    if energy >= cost:
        return None
    return f"{name} has {energy} energy; {what} costs {cost}"


def whose_turn(campaign: Campaign) -> dict[str, Any]:
    """Who may act now, who has passed, and who acted last (the Day panel's header)."""
    with campaign.file.read() as session:
        game = load_game(session, campaign.content)
    passed = sorted(game.day.passed)
    may_act = []
    for character in game.characters:
        try:
            day_rules.check_can_act(game, character.name)
            may_act.append(character.name)
        except IllegalAction:
            pass
    return {"phase": game.day.phase.value, "last_actor": game.day.last_actor,
            "passed": passed, "may_act": may_act}
