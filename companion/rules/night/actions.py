"""Night Actions and Reconcile Inventory (Rulebook: Game Structure > Night Phase >
Night Actions; Reconcile Inventory)."""

from __future__ import annotations

from companion.content.schema import effects as fx
from companion.content.schema.world import NightAction
from companion.rules.ids import ItemId
from companion.rules.inventory import bag_cells, take_tokens
from companion.rules.night.effects import apply_effects
from companion.rules.night.facts import NightStage
from companion.rules.night.run import NightRun, NightSteps, choose, distinct, index_of


def night_actions(run: NightRun) -> NightSteps:
    """Night Actions: each once per character, in any order (Rulebook: Night Actions)."""
    taken: set[tuple[str, ItemId, int]] = set()
    while True:
        offers: dict[str, tuple[str, ItemId, int, NightAction]] = {}
        # Mantle > Incapacitation: an incapacitated character takes no actions
        for character in [c for c in run.game.characters if not c.incapacitated]:
            for item, _ in character.items:
                facts = run.facts.items.get(item)
                for number, action in enumerate(facts.night_actions if facts else ()):
                    if (character.name, item, number) not in taken and _affordable(run, action):
                        key = f"{character.name}: {item} {number + 1}"
                        offers[key] = (character.name, item, number, action)
        if not offers:
            return
        labels = {
            k: f"{name}: {action.text} ({item})" for k, (name, item, _, action) in offers.items()
        }
        choice = yield from choose(
            run,
            NightStage.NIGHT_ACTIONS,
            "Night actions: choose one to take, or done",
            {**labels, "done": "no more Night actions"},
        )
        if choice == "done":
            return
        name, item, number, action = offers[choice]
        taken.add((name, item, number))
        run.say(f"{name} takes a Night action ({item}): {action.text}")
        yield from apply_effects(run, name, action.effects, item, NightStage.NIGHT_ACTIONS)


def _affordable(run: NightRun, action: NightAction) -> bool:
    """An action whose lore cost the society cannot pay can't be activated (Spending Lore)."""
    cost = sum(-e.amount for e in action.effects if isinstance(e, fx.Lore) and e.amount < 0)
    return run.game.society.lore - cost >= run.rules.lore.minimum


def reconcile(run: NightRun) -> NightSteps:
    """Reconcile Inventory (Rulebook: Night Phase > Reconcile Inventory)."""
    rules = run.rules
    for name in [c.name for c in run.game.characters]:
        character = run.game.character(name)
        capacity = rules.bag.capacity + sum(
            run.facts.items[i].storage for i, _ in character.items if i in run.facts.items
        )
        while (cells := bag_cells(rules, character.bag)) > capacity:
            tokens = distinct(character.bag, lambda t: True)
            choice = yield from choose(
                run,
                NightStage.RECONCILE,
                f"{name}'s bag holds {capacity} cells; the tokens cover {cells}: discard one",
                {f"discard:{i}": f"discard the {character.bag[i]}" for i in tokens},
            )
            character, gone = take_tokens(character, [index_of(choice)])
            run.update(character)
            run.say(f"{name} discards the {gone[0]} (the bag holds {capacity} cells).")
