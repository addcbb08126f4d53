"""Draw Night Cards and Increase Activity (Rulebook: Game Structure > Night Phase >
Draw Night Cards: Draw Card, Check Requirements, Resolve Night Card, Increase Activity;
Solo / Champion / Group; Legends > Using Legend Cards; readings D7, D10)."""

from __future__ import annotations

import json
from collections.abc import Generator, Sequence
from dataclasses import replace

from companion.content.schema import effects as fx
from companion.content.schema.cards import NightCard, NightType
from companion.rules.errors import IllegalAction
from companion.rules.ids import FeatureId, HexId, LegendId, NightCardId, Trait
from companion.rules.legends import has_trait
from companion.rules.night.effects import apply_effect, apply_effects, fire_at_once
from companion.rules.night.facts import TABLE_CARD, NightStage, is_table_card
from companion.rules.night.run import Ask, NightRun, NightSteps, choose
from companion.rules.procedure import Choice, Decider, Step
from companion.rules.society import activity_from_unrest, increase_activity


def night_cards(run: NightRun) -> NightSteps:
    """Draw Night Cards: one per hex with characters (Rulebook: Draw Night Cards).

    Hexes come in a stable order: that of their first character in seating order.
    """
    hexes = list(dict.fromkeys(c.hex for c in run.game.characters if c.hex is not None))
    for hex in hexes:
        here = [c.name for c in run.game.characters if c.hex == hex]
        drawer: str = here[0]
        if len(here) > 1:
            drawer = yield from choose(
                run,
                NightStage.NIGHT_CARDS,
                f"Hex {hex}: choose the character who draws the Night card",
                {n: n for n in here},
            )
        misses = 0
        limit = len(run.pile) + len(run.unordered) + len(run.discard)
        while True:
            card_id = yield from draw(
                run, NightStage.NIGHT_CARDS, f"{drawer} draws the top card of the Night deck"
            )
            if card_id is None:
                run.say(f"No Night card can be drawn for hex {hex}.")
                break
            if is_table_card(card_id):
                yield from _resolve_table_card(run, card_id, drawer)
                break
            card = run.facts.cards[card_id]
            unmet = _unmet(run, card, drawer, hex)
            if unmet is not None and card.requires.trait is not None:
                lent = yield from _lend_trait(run, card, drawer, hex)
                if lent:
                    unmet = None
            if unmet is None:
                yield from _resolve_card(run, card, drawer, here)
                run.discard.append(card_id)
                run.resolved.append(card_id)
                run.card_activity += card.activity
                break
            run.discard.append(card_id)
            run.say(f"{drawer} draws {card.name}: {unmet}; it is discarded and another drawn.")
            misses += 1
            if misses > limit:
                run.say(f"No Night card in the deck can be resolved in hex {hex}.")
                break


def draw(
    run: NightRun, stage: NightStage, prompt: str
) -> Generator[Ask, Choice, NightCardId | None]:
    """Draw a Night card: the top of the deck; an empty deck reshuffles the discard. A
    deck the app does not hold whole is drawn at the table (:func:`_draw_at_table`)."""
    if not run.facts.deck_whole:
        return (yield from _draw_at_table(run, stage, prompt))
    if not run.pile and not run.unordered:
        if not run.discard:
            # No card left to draw here (my own box, before any Night card was typed):
            # the table draws from the box and types the card in; the step waits for it
            # (the same step whatever the pack knows, so a saved Night replays after the
            # card is entered).
            choice = yield Ask(Step(f"{prompt}: draw it from the box and type it",
                                     Decider.CARD, ()), stage, cards=frozenset())
            return NightCardId(str(choice))
        run.unordered, run.discard = list(run.discard), []
        run.say("The Night deck is empty: the discard pile is shuffled into a new Night deck.")
    if run.pile:
        # The app draws the top card; the prompt does not name it before it is drawn.
        options: tuple[str, ...] = (run.pile[0],)
    else:
        options = tuple(sorted(run.unordered))
        prompt = f"{prompt} (from the freshly shuffled deck)"
    labels = {c: f"{c} {run.facts.cards[c].name}" for c in options}
    choice = yield Ask(
        Step(prompt, Decider.CARD, options, labels=labels),
        stage,
        cards=frozenset((*run.pile, *run.unordered)),
    )
    card = NightCardId(str(choice))
    if is_table_card(card):  # the table's own card: the app's deck is as it was
        return card
    if card in run.pile:
        run.pile.remove(card)
    else:
        run.unordered.remove(card)
    return card


def _draw_at_table(run: NightRun, stage: NightStage, prompt: str
                   ) -> Generator[Ask, Choice, NightCardId | None]:
    """The owner's box (issue 36 item 4): the app holds only the Night cards typed so
    far, so the table draws from the box's deck and types the card (one the app knows is
    picked; a new one is entered). The app draws nothing and shuffles nothing: the box's
    deck is shuffled at the table, and the log never says otherwise."""
    known = sorted(str(c) for c in {*run.pile, *run.unordered, *run.discard})
    labels = {c: f"{c} {run.facts.cards[c].name}" for c in known}
    choice = yield Ask(Step(f"{prompt}: draw it from the box and type it", Decider.CARD,
                            tuple(known), labels=labels), stage, cards=frozenset(known))
    card = NightCardId(str(choice))
    for pile in (run.pile, run.unordered, run.discard):
        if card in pile:  # drawn again: it leaves where the app kept it
            pile.remove(card)
    return card


def _resolve_table_card(run: NightRun, choice: str, drawer: str) -> NightSteps:
    """A Night card resolved at the table: what the group recorded, applied where the
    card's effects would have been (issue 25 part 3). It joins no pile of the app's."""
    from pydantic import TypeAdapter, ValidationError

    try:
        data = json.loads(choice[len(TABLE_CARD):])
        card = str(data.get("card") or "a card")
        steps = [(e.get("who") or drawer, TypeAdapter(fx.Effect).validate_python(e["effect"]))
                 for e in data.get("effects", [])]
    except (ValueError, TypeError, KeyError, AttributeError, ValidationError) as exc:
        raise IllegalAction(f"the card resolved at the table does not read: {exc}") from exc
    run.say(f"{drawer} draws {card}: resolved at the table.")
    for who, effect in steps:
        yield from apply_effect(run, who, effect, card, NightStage.NIGHT_CARDS)


def _lend_trait(
    run: NightRun, card: NightCard, drawer: str, hex: HexId
) -> Generator[Ask, Choice, bool]:
    """The drawer may use a held legend card to count as having the card's trait; it then
    returns to the unassigned legends (Rulebook: Legends > Using Legend Cards)."""
    trait = Trait(str(card.requires.trait))
    character = run.game.character(drawer)
    stripped = card.model_copy(update={"requires": card.requires.model_copy(
        update={"trait": None})})
    if has_trait(character, trait) or _unmet(run, stripped, drawer, hex) is not None:
        return False  # the trait is not what is missing: no legend can help
    lenders = [run.facts.legends[i] for i in character.legends
               if i in run.facts.legends and trait in run.facts.legends[i].traits]
    if not lenders:
        return False
    options = {f"legend:{c.id}": f"use the legend of {c.name} to count as {trait}"
               for c in lenders}
    choice = yield from choose(
        run, NightStage.NIGHT_CARDS,
        f"{card.name} needs the trait {trait}: {drawer} may use a legend card",
        {**options, "no": "do not use a legend card (the card is discarded)"})
    if choice == "no":
        return False
    legend = LegendId(str(choice).split(":", 1)[1])
    held = list(character.legends)
    held.remove(legend)
    run.update(replace(character, legends=tuple(held)))
    run.legends_used.append(legend)
    run.say(f"{drawer} uses the legend of {run.facts.legends[legend].name} to count as "
            f"{trait}; the card returns to the unassigned legends.")
    return True


def _unmet(run: NightRun, card: NightCard, drawer: str, hex: HexId) -> str | None:
    """Why the card cannot be resolved by ``drawer`` in ``hex``, None if it can."""
    needs = card.requires
    features = run.table.hex_features.get(hex, frozenset())
    if needs.features and not any(FeatureId(f) in features for f in needs.features):
        return f"it needs {' or '.join(needs.features)} in the hex"
    if needs.trait is not None and not has_trait(run.game.character(drawer), Trait(needs.trait)):
        return f"{drawer} does not have the trait {needs.trait}"
    society = run.game.society
    if needs.min_unrest is not None and society.unrest < needs.min_unrest:
        return f"it needs unrest {needs.min_unrest}+ (unrest is {society.unrest})"
    if needs.min_activity is not None and society.activity < needs.min_activity:
        return f"it needs activity {needs.min_activity}+ (activity is {society.activity})"
    return None


def _resolve_card(run: NightRun, card: NightCard, drawer: str, here: Sequence[str]) -> NightSteps:
    """Resolve a Night card: Solo, Champion or Group (Rulebook: Night Phase)."""
    run.say(f"{drawer} draws {card.name} ({card.type.value}): {card.text}")
    stage = NightStage.NIGHT_CARDS
    if card.type is NightType.SOLO:
        resolvers = [drawer]
    elif card.type is NightType.CHAMPION:
        champion = drawer
        if len(here) > 1:
            chosen = yield from choose(
                run,
                stage,
                f"{card.name} (Champion): {drawer} chooses who resolves it",
                {n: n for n in here},
            )
            champion = str(chosen)
        resolvers = [champion]
    else:
        resolvers = list(here)
    for name in resolvers:
        if len(resolvers) > 1 or name != drawer:
            run.say(f"{name} resolves {card.name}.")
        yield from apply_effects(run, name, card.effects, card.name, stage)


def increase_night_activity(run: NightRun) -> None:
    """Increase Activity: the resolved cards' amounts; an Immediate or Societal event the
    dial reaches fires at once (Rulebook: Set Up, "it occurs as soon as the number is
    reached"; D7); "then, increase the activity based on the current level of unrest"
    (Rulebook: Night Phase > Increase Activity; D10), the unrest the event left."""
    run.game = replace(run.game, society=increase_activity(run.game.society,
                                                           run.card_activity))
    fired, lines, after_cards = len(run.fired_at_once), len(run.log), run.game.society.activity
    fire_at_once(run)
    extra = activity_from_unrest(run.rules, run.game.society.unrest)
    run.game = replace(run.game, society=increase_activity(run.game.society, extra))
    run.unrest_activity = extra
    if len(run.fired_at_once) == fired:
        run.say(f"Activity +{run.card_activity} from Night cards, +{extra} from unrest: "
                f"now {run.game.society.activity}.")
    else:  # the event's line between the two increases, in the order they happened
        run.log.insert(lines, f"Activity +{run.card_activity} from Night cards: now "
                              f"{after_cards}.")
        run.say(f"Activity +{extra} from unrest {run.game.society.unrest}: "
                f"now {run.game.society.activity}.")
    fire_at_once(run)
