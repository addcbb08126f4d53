"""Day-phase operations (Rulebook: Game Structure > Day Phase; Actions).

Each operation loads the game from the file, applies one rule from
``companion.rules.day``, and writes back what changed with one journal event. The facts
the rules need about features, items and structures are filled from the content pack
here, so the rules never read content themselves.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Any

from sqlmodel import Session

from companion.operations.box import missing_deck
from companion.operations.changes import Changes, Refused
from companion.operations.core import Campaign
from companion.operations.exchanges import (
    Excess,
    Store,
    excess_items,
    exchange_item,
    exchange_tokens,
    item_name,
    outpost_overlays,
    retrieve_materials,
    settle_excess,
    storage_here,
    store_materials,
    stores_here,
)
from companion.operations.facts import feature_facts, hex_features, item_facts, structure_facts
from companion.operations.procedure_row import (
    between_games,
    day_operation,
    procedure_row,
)
from companion.operations.state import load_game
from companion.operations.valley import load_valley
from companion.rules import day as day_rules
from companion.rules import exploration
from companion.rules.character import Character
from companion.rules.errors import IllegalAction
from companion.rules.game import Game
from companion.rules.hex_words import direction, hex_words
from companion.rules.ids import Icon, OutpostId
from companion.rules.outposts import (
    FeatureAction,
    FeatureFacts,
    Outpost,
    StructureFacts,
    has_technology,
)
from companion.rules.resources import Side

# --- the Day's own facts ----------------------------------------------------------------

#: The Day's actions, and the exchanges (``operations.exchanges``) offered with them.
__all__ = [
    "ActionOption", "AT_THE_TABLE", "available_actions", "build_outpost", "build_structure",
    "Excess", "excess_items", "exchange_item", "exchange_tokens", "FEATURE_LABELS", "gather_water",
    "item_name", "move", "Offer", "outpost_overlays", "pass_turn", "prepare_shelter", "process",
    "retrieve_materials", "revive", "settle_excess", "storage_here", "Store", "store_materials",
    "stores_here", "whose_turn",
]


def _feature_here(campaign: Campaign, game: Game, name: str, action: FeatureAction) -> FeatureFacts:
    character = game.character(name)
    for feature in hex_features(campaign, game, character.hex):
        facts = feature_facts(campaign, feature)
        if action in facts.actions:
            return facts
    words = action.value.replace("_", " ")
    raise IllegalAction(f"there is nowhere to {words} in {character.name}'s hex")


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
        day_rules.check_item_limits(campaign.content.rules, game, name)
        return day_rules.pass_turn(game, name), f"{game.character(name).name} passed"

    return day_operation(campaign, "day.pass", step)


def revive(campaign: Campaign, *, name: str, target: str, token: int) -> Changes:
    """Revive an incapacitated character in the same hex (Rulebook: Actions > Revive)."""
    def step(game: Game, session: Session) -> tuple[Game, str]:
        after = day_rules.revive(campaign.content.rules, game, name, target, token)
        return after, f"{name} revived {target}"

    return day_operation(campaign, "day.revive", step, actor=name)


def prepare_shelter(campaign: Campaign, *, name: str) -> Changes:
    """Prepare Shelter at a cave: a shelter token for the rest of the challenge."""
    def step(game: Game, session: Session) -> tuple[Game, str]:
        feature = _feature_here(campaign, game, name, FeatureAction.PREPARE_SHELTER)
        after = day_rules.prepare_shelter(campaign.content.rules, game, name, feature)
        return after, f"{name} prepared shelter in hex {game.character(name).hex}"

    return day_operation(campaign, "day.shelter", step, valley=True, actor=name)


def gather_water(campaign: Campaign, *, name: str) -> Changes:
    """Gather Water at a lake, river or wetlands."""
    amount = campaign.content.rules.gather_water
    def step(game: Game, session: Session) -> tuple[Game, str]:
        feature = _feature_here(campaign, game, name, FeatureAction.GATHER_WATER)
        after = day_rules.gather_water(campaign.content.rules, game, name, feature, amount)
        return after, f"{name} gathered {amount} water"

    return day_operation(campaign, "day.water", step, actor=name)


def build_outpost(campaign: Campaign, *, name: str, outpost_name: str, feature: str,
                  contributions: Mapping[str, int] | None = None,
                  overlay: str | None = None) -> Changes:
    """Build an outpost over a feature of the hex (Rulebook: Building an Outpost; D12),
    under the outpost overlay the player chooses (``overlay``: id or name; Overlays >
    Outposts: "Choose an outpost overlay that suits that outpost"; None: the first free)."""
    def step(game: Game, session: Session) -> tuple[Game, str]:
        from sqlmodel import select

        from companion.operations.state import OUTPOST_OVERLAY, free_outpost_overlays
        from companion.store import models

        if overlay is not None:
            free = free_outpost_overlays(session, campaign.content)
            chosen = next((i for i, n in free
                           if overlay.strip().casefold() in (i.casefold(), n.casefold())), None)
            if chosen is None:
                raise IllegalAction(
                    f"the outpost overlay '{overlay}' is not free; choose "
                    + (", ".join(f"{i} {n}" for i, n in free) or "none: all are in use"))
            session.info[OUTPOST_OVERLAY] = chosen
        character = game.character(name)
        if feature not in hex_features(campaign, game, character.hex):
            raise IllegalAction(f"there is no usable {feature} in {character.name}'s hex")
        settings = session.get(models.Campaign, 1)
        assert settings is not None
        number = len(session.exec(select(models.Outpost)).all()) + 1
        called = outpost_name.strip() or f"Outpost {number}"
        with _technology_named(campaign):
            after = day_rules.build_outpost(
                campaign.content.rules, game, name, outpost_id=OutpostId(f"new-{number}"),
                outpost_name=called, epoch=settings.epoch,
                covers=feature_facts(campaign, feature), items=item_facts(campaign),
                contributions=contributions)
        text = f"{character.name} built the outpost {called} over the {feature}"
        if overlay is not None:
            text += f" (overlay {session.info[OUTPOST_OVERLAY]})"
        return after, text + _energy_words(game, after, character.name, contributions)

    return day_operation(campaign, "day.outpost", step, outposts=True, valley=True)


def build_structure(campaign: Campaign, *, name: str, structure: str,
                    outpost: str | None = None,
                    materials: Mapping[str, Sequence[int]] | None = None,
                    contributions: Mapping[str, int] | None = None) -> Changes:
    """Build a structure at an outpost in the hex (Rulebook: Building Structures).

    ``structure`` by id or card name; ``outpost`` by id or name (default: the one in the
    hex). ``materials`` maps each character to the bag positions (0-based) they discard;
    None: the builder's own materials first, then the others' in the hex (processed
    ones last). ``contributions``: energy other characters in the hex give.
    """
    structure_id = _structure_id(campaign, structure)

    def step(game: Game, session: Session) -> tuple[Game, str]:
        facts = structure_facts(campaign, structure_id)
        site = _outpost_in_hex(game, name, outpost)
        paid = materials if materials is not None else _pick_materials(game, name, facts)
        with _technology_named(campaign, structure_id):
            after = day_rules.build_structure(
                campaign.content.rules, game, name, outpost=site, structure=facts,
                items=item_facts(campaign), materials=paid, contributions=contributions)
        built = campaign.content.structures[structure_id].name
        text = f"{game.character(name).name} built {built} at {game.outpost(site).name}"
        text += _energy_words(game, after, name, contributions)
        spent = [f"{game.character(who).bag[i]} from {game.character(who).name}"
                 for who, spots in paid.items() for i in spots]
        if spent:
            text += "; discarded " + ", ".join(spent)
        return after, text

    return day_operation(campaign, "day.structure", step, outposts=True)


def _energy_words(before: Game, after: Game, builder: str,
                  contributions: Mapping[str, int] | None) -> str:
    """": 4 energy, 1 from Ash and 3 from Bryn" (the energy each character paid)."""
    who = [before.character(builder).name,
           *(before.character(n).name for n, e in (contributions or {}).items() if e)]
    paid = [(n, before.character(n).energy - after.character(n).energy) for n in who]
    total = sum(e for _, e in paid)
    paid = [(n, e) for n, e in paid if e]
    if len(paid) <= 1:
        return f" ({total} energy" + (f" from {paid[0][0]})" if paid and paid[0][0] != who[0]
                                      else ")")
    parts = [f"{e} from {n}" for n, e in paid]
    return f": {total} energy, " + ", ".join(parts[:-1]) + " and " + parts[-1]


@contextmanager
def _technology_named(campaign: Campaign, structure: str | None = None) -> Iterator[None]:
    """Refusals name a technology icon and a structure as the cards show them ("the
    Smokehouse needs a Woodcraft item")."""
    try:
        yield
    except IllegalAction as exc:
        text = str(exc)
        if structure is not None and text.startswith(f"{structure} "):
            text = f"the {campaign.content.structures[structure].name}" + \
                text[len(structure):]
        for icon in campaign.content.icons.values():
            text = text.replace(f"a {icon.id}-technology item", f"a {icon.name} item")
        raise IllegalAction(text) from exc


def _structure_id(campaign: Campaign, text: str) -> str:
    for found in campaign.content.structures.values():
        if text in (found.id, found.name) or text.lower() == found.name.lower():
            return found.id
    raise Refused(f"There is no structure '{text}' in the content pack.")


def _outpost_in_hex(game: Game, name: str, outpost: str | None) -> OutpostId:
    """The outpost named (id or name), else the only active one in the builder's hex."""
    character = game.character(name)
    here = [o for o in game.outposts if o.hex == character.hex and o.status.value == "active"]
    if outpost:
        for found in game.outposts:
            if outpost in (found.id, found.name) or outpost.lower() == found.name.lower():
                return found.id
        raise IllegalAction(f"there is no outpost {outpost}")
    if len(here) == 1:
        return here[0].id
    if not here:
        raise IllegalAction(f"there is no outpost in {character.name}'s hex to build at")
    raise IllegalAction(f"name the outpost: {' or '.join(o.name for o in here)}")


def _pick_materials(game: Game, name: str, facts: StructureFacts) -> dict[str, list[int]]:
    """The tokens to discard when the player leaves the choice to the app: the builder's
    first, then the others' in the hex; unprocessed before processed."""
    builder = game.character(name)
    crew = [builder, *(c for c in game.characters
                       if c.name != builder.name and c.hex == builder.hex)]
    taken: dict[str, list[int]] = {}
    for cost in facts.materials:
        found = False
        for side in (Side.UNPROCESSED, Side.PROCESSED):
            for who in crew:
                for index, token in enumerate(who.bag):
                    if index in taken.get(who.name, []) or token.side is not side:
                        continue
                    if cost.paid_by(token):
                        taken.setdefault(who.name, []).append(index)
                        found = True
                        break
                if found:
                    break
            if found:
                break
        if not found:
            raise IllegalAction(f"no one in the hex holds the {cost.name} {facts.id} needs")
    return taken


def process(campaign: Campaign, *, name: str, tokens: Sequence[int]) -> Changes:
    """Process tokens in the bag (Rulebook: Processing)."""
    def step(game: Game, session: Session) -> tuple[Game, str]:
        needs = processing_needs(campaign)
        after = day_rules.process(campaign.content.rules, game, name, tokens, needs,
                                  item_facts(campaign))
        return after, f"{name} processed {len(tokens)} token(s)"

    return day_operation(campaign, "day.process", step, actor=name)


def processing_needs(campaign: Campaign) -> dict[str, Sequence[Icon]]:
    """The icons each material and food of the campaign's content needs to be processed
    (Rulebook: Processing), by its id."""
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
    places: tuple[str, ...] = ()
    """A new tray's three places in words, in the order its tiles are typed ("north of
    Ashen Ford", ...); empty for other actions."""
    at_table: bool = False
    """Foraging, fishing, mining, delving: whether it may be played wholly at the table
    and its outcome recorded (``table_activity.activity_at_table``): allowed now but for
    a deck the pack holds no card of yet (my own box)."""


def available_actions(campaign: Campaign, name: str) -> list[ActionOption]:
    """Every Day action for ``name`` here, with the cost that will be charged (Hardcore
    Solo's first-action discount included) and a refusal if not allowed now.

    A hex with several terrains offers each terrain's action separately (foraging in
    the plains and in the forest; fishing in the river and in the lake).
    Rulebook: Game Structure > Day Actions; Actions; Building an Outpost; Building
    Structures; Solo Play > Hardcore Solo > Action Costs.
    """
    from companion.operations.exploration import refuse_if_due

    with campaign.file.read() as session:
        game = load_game(session, campaign.content)
        valley = load_valley(session)
        try:
            character = game.character(name)
        except IllegalAction as exc:  # "there is no character named ..."
            raise Refused(str(exc)) from exc
        try:  # On arrival a Discovery card is drawn before anyone moves on.
            refuse_if_due(session, character.name)
            due: str | None = None
        except IllegalAction as exc:
            due = str(exc)
        # What holds every action, said on each (issue 36 items 8 and 10).
        waits = between_games(session) or _procedure_waits(procedure_row(session))
    rules = campaign.content.rules
    name = character.name
    try:
        day_rules.check_can_act(game, name)
        day_rules.check_item_limits(rules, game, name)
        blocked: str | None = waits
    except IllegalAction as exc:
        blocked = waits or str(exc)

    def option(action: str, label: str, base: int, target: str | None = None,
               refusal: str | None = None, *, energy_needed: bool = True) -> ActionOption:
        cost = day_rules.action_cost(rules, game, name, base)
        why = blocked or refusal
        if why is None and energy_needed:
            why = _energy_refusal(name, character.energy, cost, label)
        return ActionOption(action, f"{label}: {cost} energy", cost, target, why)

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
            label = cost.reason.rsplit(": ", 1)[0]
            # A face-down hex is named by the way it lies, never by its tile (Valley >
            # Hexes); move and explore take that word.
            start = valley.locate(here)
            target = (valley.tile_at(cell) if valley.is_explored(cell)
                      else direction(start, cell))
            if cost.explores:
                label = f"Explore {hex_words(valley, campaign.content.hexes, cell, start)}"
            options.append(option("explore" if cost.explores else "move", label, cost.energy,
                                  target, due))
    options += [replace(o, refusal=o.refusal or due)
                for o in _tray_options(campaign, name, option)]
    options += _feature_options(campaign, game, name, option)
    options += _making_options(campaign, game, name, option)
    options += _building_options(campaign, game, name, option)
    for patient in game.characters:
        if patient.name != name and patient.incapacitated and patient.hex == here:
            options.append(option("revive", f"Revive {patient.name}", rules.action_costs.revive,
                                  patient.name))
    passed = name in game.day.passed
    limits = None
    try:
        day_rules.check_item_limits(rules, game, name)
    except IllegalAction as exc:
        limits = str(exc)
    options.append(ActionOption(
        "pass", "Pass for the rest of the Day", 0, None,
        f"{name} has already passed" if passed else
        "passing happens during the Day phase" if game.day.phase.value != "day" else
        waits or limits))
    return options


Offer = Callable[..., ActionOption]


def _tray_options(campaign: Campaign, name: str, option: Offer) -> list[ActionOption]:
    """Explore into a new terrain tray at the valley's edge, one option per legal
    placement, numbered as ``companion act NAME tray N`` takes them (Rulebook: Actions >
    Explore; Populating a Terrain Tray)."""
    from companion.operations.exploration import legal_placements

    # The same words as the Explore dialog's list: region, facing, the way in (never
    # grid coordinates).
    return [replace(option("explore_tray", f"Explore a new {tray.label}",
                           campaign.content.rules.action_costs.explore, str(number)),
                    places=tray.slot_words)
            for number, tray in enumerate(legal_placements(campaign, name), 1)]


FEATURE_LABELS: dict[FeatureAction, str] = {
    FeatureAction.PREPARE_SHELTER: "Prepare Shelter",
    FeatureAction.GATHER_WATER: "Gather Water",
    FeatureAction.FORAGE: "Forage",
    FeatureAction.FISH: "Fish",
    FeatureAction.MINE: "Mine",
    FeatureAction.DELVE: "Delve",
}


AT_THE_TABLE = frozenset({FeatureAction.FORAGE, FeatureAction.FISH, FeatureAction.MINE,
                          FeatureAction.DELVE})
"""The feature actions an engine lays out from cards or chips (played at the table
when the pack lacks them)."""


def _feature_options(campaign: Campaign, game: Game, name: str, option: Offer
                     ) -> list[ActionOption]:
    """Each usable feature's actions, feature by feature (Rulebook: Feature Actions)."""
    rules = campaign.content.rules
    costs = {
        FeatureAction.PREPARE_SHELTER: rules.action_costs.prepare_shelter,
        FeatureAction.GATHER_WATER: rules.action_costs.gather_water,
        FeatureAction.FORAGE: rules.action_costs.forage,
        FeatureAction.FISH: rules.action_costs.fish,
        FeatureAction.MINE: rules.action_costs.mine,
        FeatureAction.DELVE: rules.action_costs.delve,
    }
    out: list[ActionOption] = []
    seen: set[tuple[FeatureAction, str]] = set()
    for feature in hex_features(campaign, game, game.character(name).hex):
        facts = feature_facts(campaign, feature)
        for action in sorted(facts.actions, key=list(costs).index):
            if (action, feature) in seen:
                continue
            seen.add((action, feature))
            refusal = None
            if action is FeatureAction.DELVE and not game.society.delving_unlocked:
                refusal = "Delving is locked until a game effect opens it"
            words = campaign.content.features[feature].name.lower()
            label = f"{FEATURE_LABELS[action]} at the {words}"
            # Played at the table, its outcome recorded: allowed whenever the action is,
            # a deck the pack lacks aside.
            at_table = action in AT_THE_TABLE and option(
                action.value, label, costs[action], feature, refusal).refusal is None
            lacking = missing_deck(campaign.content, action.value, feature)
            if refusal is None and lacking is not None:  # my own box: not typed in yet
                refusal = str(lacking)
            out.append(replace(option(action.value, label, costs[action], feature, refusal),
                               at_table=at_table))
    return out


def _making_options(campaign: Campaign, game: Game, name: str, option: Offer
                    ) -> list[ActionOption]:
    """Process and Craft (Rulebook: Processing & Crafting)."""
    rules = campaign.content.rules
    character = game.character(name)
    raw = [t for t in character.bag if t.side.value == "unprocessed"]
    materials = [t for t in character.bag if t.kind.value == "material"]
    made = [
        option("process", "Process", rules.action_costs.process, None,
               None if raw else f"{name} has nothing unprocessed to process"),
        option("craft", "Craft with two material tokens", rules.action_costs.craft, None,
               None if len(materials) >= 2 else
               f"{name} needs two material tokens to craft"),
    ]
    # Processing: each token's energy icon costs 1 more (Rulebook: Processing).
    return [replace(made[0], label=made[0].label + " (+1 per energy icon)"), made[1]]


def _building_options(campaign: Campaign, game: Game, name: str, option: Offer
                      ) -> list[ActionOption]:
    """Build an outpost over each feature here, and each structure at each outpost here
    (Rulebook: Building an Outpost; Building Structures; D12)."""
    content = campaign.content
    rules = content.rules
    character = game.character(name)
    here = character.hex
    crew = [c for c in game.characters
            if c.hex == here and here is not None and not c.incapacitated]
    crew_energy = sum(c.energy for c in crew)
    items = item_facts(campaign)
    out: list[ActionOption] = []
    for feature in hex_features(campaign, game, here):
        facts = feature_facts(campaign, feature)
        words = content.features[feature].name.lower()
        label = f"Build an outpost over the {words}"
        refusal = None
        if facts.outpost_technology is not None:
            tech = content.icons[facts.outpost_technology].name \
                if facts.outpost_technology in content.icons else facts.outpost_technology
            label += f" ({tech})"
            if not has_technology(crew, facts.outpost_technology, items):
                refusal = f"no one in the hex has a {tech} item"
        base = rules.action_costs.build_outpost
        if refusal is None and crew_energy < base:
            refusal = f"the characters here have {crew_energy} energy; an outpost costs {base}"
        cost = day_rules.action_cost(rules, game, name, base)
        why = option("build_outpost", label, base, feature, refusal,
                     energy_needed=False).refusal
        out.append(ActionOption("build_outpost",
                                f"{label}: {cost} energy, shared", cost, feature, why))
    for outpost in game.outposts:
        if outpost.hex != here or outpost.status.value != "active":
            continue
        for structure in content.structures.values():
            out.append(_structure_option(campaign, game, name, outpost, structure.id, crew,
                                         option))
    return out


def _structure_option(campaign: Campaign, game: Game, name: str, outpost: Outpost,
                      structure_id: str, crew: list[Character], option: Offer) -> ActionOption:
    content = campaign.content
    structure = content.structures[structure_id]
    facts = structure_facts(campaign, structure_id)
    costs = ", ".join(f"{n} {content.materials[m].name.lower() if m in content.materials else m}"
                      for m, n in structure.cost.materials.items())
    label = f"Build {structure.name} at {outpost.name} ({costs}"
    techs = [content.icons[t].name if t in content.icons else t for t in sorted(facts.technologies)]
    label += f"; needs {', '.join(techs)})" if techs else ")"
    limit = content.rules.outposts.structure_limit
    refusal = None
    if len(outpost.structures) >= limit:
        refusal = f"{outpost.name} already has {limit} structures"
    items = item_facts(campaign)
    for technology, words in zip(sorted(facts.technologies), techs, strict=True):
        if refusal is None and not has_technology(crew, technology, items):
            refusal = f"no one in the hex has a {words} item"
    if refusal is None:
        pool = Counter(t.name for c in crew for t in c.bag if t.kind.value == "material")
        for material, count in structure.cost.materials.items():
            if pool[material] < count:
                refusal = (f"the characters here hold {pool[material]} {material}; "
                           f"{structure.name} needs {count}")
                break
    crew_energy = sum(c.energy for c in crew)
    if refusal is None and crew_energy < facts.energy:
        refusal = f"the characters here have {crew_energy} energy; {structure.name} costs " \
                  f"{facts.energy}"
    made = option("build_structure", label, facts.energy, f"{outpost.id}:{structure_id}",
                  refusal, energy_needed=False)
    return replace(made, label=made.label + ", shared")


def day_waits(campaign: Campaign) -> str | None:
    """Why no Day action can be taken now by anyone, in game words (the challenge has
    ended; an activity is left open), else None (issue 36 items 8 and 10)."""
    with campaign.file.read() as session:
        return between_games(session) or _procedure_waits(procedure_row(session))


def _procedure_waits(row: Any) -> str | None:
    """Why every Day action waits while an activity is left open (its energy is spent):
    it is finished or cancelled first (issue 36 item 10)."""
    if row is None or row.state.get("kind") == "night":
        return None  # the Night: the phase already says it
    kind = str(row.state.get("kind", "activity"))
    actor = row.state.get("actor")
    whose = f"{actor}'s " if actor else "the "
    return (f"{whose}{kind} is still in progress: finish it first (Continue the {kind}…; "
            "companion step)")


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
