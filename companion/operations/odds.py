"""The odds advisor's queries (issue 12): exact odds for the step in progress, ready to
show beside its choices.

The GUI never assembles rules inputs: :func:`advice` reads the procedure in progress
(:func:`companion.operations.procedures.current`), builds the pure advisors' inputs
(:mod:`companion.rules.odds`, :mod:`~companion.rules.odds_fishing`,
:mod:`~companion.rules.odds_foraging`) and returns an :class:`OddsReport`: tables of
cells, each a percentage with one decimal and its exact fraction for a tooltip. The
advice informs a choice and never blocks it; it is ``None`` when nothing is to be
advised at this step.

**Size guard.** Every advisor is exact; where its work grows with the cards that can
still come (fishing's outcome cards, the Night deck, the forage deck), a case larger than
the limits below is not computed: the report says "odds unavailable for this many cards"
instead of freezing the window.

Reads only; writes nothing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from companion.operations.core import Campaign

MAX_FISHING_OUTCOMES = 400
"""Fishing: most outcome cards the advisor enumerates (the pack's deck is ~12)."""
MAX_NIGHT_CARDS = 120
"""The Night: most Night cards (pile + discard) the advisor enumerates."""
MAX_FORAGE_CARDS = 200
"""Foraging: most forage cards the advisor pairs up."""
TOP_ALLOCATIONS = 5
"""Fishing, after the roll: how many allocations are listed."""

UNAVAILABLE = "odds unavailable for this many cards"
NOT_WHOLE = ("odds unavailable: the app holds only the Night cards you typed, not your "
             "box's whole deck")


# --- the report -------------------------------------------------------------------------


def percent(p: Fraction) -> str:
    """A probability as a percentage with one decimal.

    >>> percent(Fraction(1, 3)), percent(Fraction(1)), percent(Fraction(0))
    ('33.3%', '100.0%', '0.0%')
    """
    return f"{float(p) * 100:.1f}%"


def exact(p: Fraction) -> str:
    """The exact fraction, for a tooltip.

    >>> exact(Fraction(89, 2160)), exact(Fraction(1))
    ('exactly 89/2160', 'exactly 1')
    """
    return f"exactly {p.numerator}/{p.denominator}" if p.denominator != 1 \
        else f"exactly {p.numerator}"


def mean(p: Fraction, unit: str = "") -> str:
    """An expected value with two decimals (``unit`` after it)."""
    text = f"{float(p):.2f}"
    return f"{text} {unit}".rstrip()


@dataclass(frozen=True)
class OddsCell:
    """One value shown: its text, and the exact value in the tooltip."""

    text: str
    """What is shown ("42.1%", "1.35 targets", "location 2")."""
    tooltip: str = ""
    """The exact fraction (or an explanation)."""
    value: Fraction | None = None
    """The probability or mean shown, when it is one."""


def chance(p: Fraction) -> OddsCell:
    """A probability cell: a percentage, its exact fraction in the tooltip."""
    return OddsCell(percent(p), exact(p), p)


def expected(p: Fraction, unit: str = "") -> OddsCell:
    """A mean cell: two decimals, its exact fraction in the tooltip."""
    return OddsCell(mean(p, unit), "mean, " + exact(p), p)


def text(words: str, tooltip: str = "") -> OddsCell:
    """A plain cell."""
    return OddsCell(words, tooltip)


@dataclass(frozen=True)
class OddsTable:
    """A small table: a caption, column headers and rows of cells."""

    caption: str
    """What the table answers, in game words."""
    headers: tuple[str, ...]
    """The columns' names (the first is the row's label)."""
    rows: tuple[tuple[OddsCell, ...], ...]
    """Each row's cells, as many as headers."""


@dataclass(frozen=True)
class Suggestion:
    """The advisor's choice for the current step (the GUI may answer the step with it)."""

    choice: str
    """The step's option key."""
    label: str
    """In game words ("place the 6 on location 2")."""


@dataclass(frozen=True)
class OddsReport:
    """The odds for the step in progress."""

    title: str
    """What is advised ("Fishing: before the roll")."""
    tables: tuple[OddsTable, ...] = ()
    """What is shown."""
    notes: tuple[str, ...] = ()
    """Sentences under the tables (the assumptions, or why odds are unavailable)."""
    suggestion: Suggestion | None = None
    """A choice the player may take with one click (fishing's placements)."""
    chances: Mapping[str, Fraction] = field(default_factory=dict)
    """The main probabilities by name (for tests and the CLI)."""
    distributions: Mapping[str, Mapping[Any, Fraction]] = field(default_factory=dict)
    """Each distribution shown, by name: every value sums to 1."""

    @property
    def unavailable(self) -> bool:
        """The case was too large to compute."""
        return any(UNAVAILABLE in n for n in self.notes)


# --- the query --------------------------------------------------------------------------


def advice(campaign: Campaign, procedure: Any = None) -> OddsReport | None:
    """The odds for the step of the procedure in progress (None: nothing to advise, or
    nothing in progress); ``procedure`` is its rules object when the caller has already
    loaded it (:func:`~companion.operations.procedures.current`)."""
    from companion.operations import procedures
    from companion.operations.changes import Refused

    if procedure is None:
        try:
            procedure = procedures.current(campaign)
        except Refused:
            return None
    if procedure is None or procedure.is_finished():
        return None
    kind = getattr(procedure, "kind", "")
    builder = _BUILDERS.get(kind)
    return builder(campaign, procedure) if builder is not None else None


def _memo(key: Any, build: Any) -> Any:
    """The last few results, by the inputs that decide them (a dialog redraws often)."""
    if key in _CACHE:
        return _CACHE[key]
    value = build()
    if len(_CACHE) > 32:
        _CACHE.clear()
    _CACHE[key] = value
    return value


_CACHE: dict[Any, Any] = {}


# --- fishing ----------------------------------------------------------------------------


def _line_name(line: Any) -> str:
    return f"{line.value} target"


def fishing_report(procedure: Any) -> OddsReport | None:
    """Fishing (Rulebook: Fishing, steps 3-7): before the roll, each target's and a
    mishap's chance; while placing the dice, the legal allocations ranked, best first,
    with the place for the current die."""
    from companion.rules.odds_fishing import LINES, fishing_chances, rank_allocations

    if procedure.stock is None or procedure.water is None or procedure.outcome_card:
        return None
    drawn = {procedure.stock, procedure.water}
    outcomes = [c for c in procedure.deck if c.id not in drawn]
    stock = procedure.card(procedure.stock)
    water = procedure.locations
    if procedure.dice is None:
        if len(outcomes) > MAX_FISHING_OUTCOMES:
            return OddsReport("Fishing: before the roll", notes=(UNAVAILABLE,))
        odds = _memo(("fish", procedure.stock, procedure.water, tuple(c.id for c in outcomes),
                      procedure.dice_count),
                     lambda: fishing_chances(stock, water, outcomes, procedure.dice_count))
        rows: list[tuple[OddsCell, ...]] = [(text(_line_name(line), _target_words(stock, line)),
                 chance(odds.target_chances[line])) for line in LINES]
        rows.append((text("any mishap"), chance(odds.mishap_chance)))
        won = tuple((text(f"{k} target{'s' if k != 1 else ''}"), chance(p))
                    for k, p in sorted(odds.targets_won.items()))
        return OddsReport(
            "Fishing: before the roll",
            (OddsTable("Chance of winning each target", ("", "chance"), tuple(rows)),
             OddsTable(f"Targets won (mean {mean(odds.expected_targets)})",
                       ("", "chance"), won)),
            notes=(f"Over every roll of {procedure.dice_count} dice and the "
                   f"{len(outcomes)} outcome cards that can come, placing the dice at "
                   "best and striking at best once the outcome is seen.",),
            chances={**{line.value: odds.target_chances[line] for line in LINES},
                     "mishap": odds.mishap_chance},
            distributions={"targets won": dict(odds.targets_won)},
        )
    # After the roll: the allocations that agree with the dice placed so far.
    to_place = min(len(procedure.dice), sum(loc.size for loc in water))
    placed = procedure.placed
    n = sum(len(p) for p in placed)
    if n >= to_place:
        return None
    if len(outcomes) > MAX_FISHING_OUTCOMES:
        return OddsReport("Fishing: placing the dice", notes=(UNAVAILABLE,))
    ranked = _memo(("rank", procedure.stock, procedure.water, tuple(c.id for c in outcomes),
                    tuple(procedure.dice)),
                   lambda: rank_allocations(stock, water, procedure.dice, outcomes))
    left = sorted(procedure.dice[n:to_place])
    fits = [a for a in ranked if _agrees(a.allocation, placed, left)]
    if not fits:
        return OddsReport("Fishing: placing the dice",
                          notes=("No legal allocation agrees with the dice placed so far.",))
    rows = []
    for number, odds in enumerate(fits[:TOP_ALLOCATIONS], 1):
        rows.append((
            text(f"{number}. {_allocation_words(odds.allocation)}",
                 "strike values " + ", ".join(f"location {i + 1}: {v}"
                                              for i, v in enumerate(odds.strike_values) if v)),
            expected(odds.expected_targets),
            chance(odds.mishap_chance),
            *(chance(odds.target_chances[line]) for line in LINES),
        ))
    best = fits[0]
    die = procedure.dice[n]
    where = _place_for(best.allocation, placed, die)
    suggestion = Suggestion(str(where + 1), f"place the {die} on location {where + 1}") \
        if where is not None else None
    return OddsReport(
        "Fishing: placing the dice",
        (OddsTable(f"Best ways to place the dice ({len(fits)} legal)",
                   ("allocation", "targets", "mishap", *(line.value for line in LINES)),
                   tuple(rows)),),
        notes=(f"Targets: the mean number won, over the {len(outcomes)} outcome cards "
               "that can come, striking at best once the outcome is seen; ranked by it, "
               "then by the lower mishap chance.",),
        suggestion=suggestion,
        chances={"mishap": best.mishap_chance,
                 **{line.value: best.target_chances[line] for line in LINES}},
        distributions={"targets won": dict(best.targets_won)},
    )


def _target_words(stock: Any, line: Any) -> str:
    from companion.rules.effects import describe_effect

    target = stock.targets[line]
    return f"difficulty {target.difficulty} for " + ", ".join(
        describe_effect(e) for e in target.contents)


def _allocation_words(allocation: Sequence[Sequence[int]]) -> str:
    parts = [f"L{i + 1}: {'+'.join(map(str, dice))}" for i, dice in enumerate(allocation) if dice]
    return ", ".join(parts) or "no dice"


def _minus(whole: Sequence[int], part: Sequence[int]) -> list[int] | None:
    rest = list(whole)
    for v in part:
        if v not in rest:
            return None
        rest.remove(v)
    return rest


def _agrees(allocation: Sequence[Sequence[int]], placed: Sequence[Sequence[int]],
            left: Sequence[int]) -> bool:
    """Whether ``allocation`` can still be reached from ``placed`` with the dice ``left``."""
    still: list[int] = []
    for dice, there in zip(allocation, placed, strict=True):
        rest = _minus(dice, there)
        if rest is None:
            return False
        still.extend(rest)
    return sorted(still) == sorted(left)


def _place_for(allocation: Sequence[Sequence[int]], placed: Sequence[Sequence[int]],
               die: int) -> int | None:
    """The first location where ``allocation`` still wants a die of value ``die``."""
    for i, (dice, there) in enumerate(zip(allocation, placed, strict=True)):
        rest = _minus(dice, there)
        if rest is not None and die in rest:
            return i
    return None


# --- mining -----------------------------------------------------------------------------


def mining_report(procedure: Any) -> OddsReport | None:
    """Mining (Rulebook: Mining, steps 4-5): stop now, or pull once more (and twice)."""
    from companion.rules.odds import mining_odds

    if procedure.stopped or not procedure.bag:
        return None
    left = procedure.max_draws - len(procedure.drawn)
    if left < 1:
        return None
    odds = mining_odds(procedure.bag, procedure.omens, min(left, 2))
    plans = odds.plans
    if procedure.deciding:
        names = ["pull one more", "pull two more"]
        rows = [(text("stop now"), chance(Fraction(0)), expected(Fraction(0), "tokens"),
                 chance(Fraction(0)))]
    else:
        names = ["this chip, then stop", "this chip and one more"]
        rows = []
    chances: dict[str, Fraction] = {}
    distributions: dict[str, Mapping[Any, Fraction]] = {}
    for plan, name in zip(plans, names, strict=False):
        match = Fraction(1) - plan.matches.get(0, Fraction(0))
        rows.append((text(name), chance(match), expected(plan.expected_tokens, "tokens"),
                     chance(plan.any_other_effect)))
        chances[f"{name}: omen match"] = match
        distributions[f"{name}: chips"] = dict(plan.chips)
        distributions[f"{name}: matches"] = dict(plan.matches)
    first = plans[0]
    chips = tuple((text(", ".join(labels)), chance(p)) for labels, p in
                  sorted(first.chips.items(), key=lambda kv: (-kv[1], kv[0])))
    omens = ", ".join(str(getattr(o, "value", o)) for o in procedure.omens) or "none"
    return OddsReport(
        "Mining: stop, or pull again",
        (OddsTable("Each plan", ("", "omen match", "yield", "other effect"), tuple(rows)),
         OddsTable(f"The next chip ({len(procedure.bag)} in the bag)", ("chip", "chance"),
                   chips)),
        notes=(f"Current omens: {omens}. Yield is the mean number of resource tokens.",),
        chances=chances, distributions=distributions,
    )


# --- foraging ---------------------------------------------------------------------------


def foraging_report(procedure: Any, legends: Sequence[Any] = ()) -> OddsReport | None:
    """Foraging (Rulebook: Foraging, steps 1-2; Animal Encounters): at the keep steps,
    what each drawn card leads to; at an encounter, each test's chance."""
    from companion.rules.foraging import Phase

    phase = procedure.phase
    if phase in (Phase.KEEP_FIRST, Phase.KEEP_MORE):
        return _keep_report(procedure)
    if phase is Phase.PREDATOR:
        rules = procedure.rules
        rows: list[tuple[OddsCell, ...]] = []
        chances = {}
        odds = _encounter_odds(procedure, "fight_predator", legends)
        for name, test, advice_ in (("fight", rules.fight_predator, odds.fight),
                                    ("flee", rules.flee_predator, odds.flee)):
            rows.extend(_test_rows(advice_, legends, f"{name} ({test.ability.value})"))
            chances[name] = advice_.without_legend.success
        return OddsReport("Predator encounter",
                          (OddsTable("Chance of success", ("", "chance"), tuple(rows)),),
                          chances=chances)
    if phase is Phase.TEST and procedure.test is not None:
        test = getattr(procedure.rules, procedure.test)
        odds = _encounter_odds(procedure, procedure.test, legends)
        advice_ = odds.hunt or (odds.fight if procedure.test == "fight_predator" else odds.flee)
        p = advice_.without_legend.success
        name = f"{procedure.test.replace('_', ' ')} ({test.ability.value})"
        return OddsReport("The encounter's test",
                          (OddsTable("Chance of success", ("", "chance"),
                                     _test_rows(advice_, legends, name)),),
                          chances={"success": p},
                          distributions={"test": {True: p, False: 1 - p}})
    return None


def _encounter_odds(procedure: Any, test: str, legends: Sequence[Any]) -> Any:
    """The rules' odds for the encounter whose test is named ``test`` (Rulebook: Foraging >
    Animal Encounters)."""
    from companion.content.schema.cards import Encounter
    from companion.rules.odds_foraging import encounter_odds

    kind = {"hunt_large_prey": Encounter.LARGE_PREY, "hunt_small_prey": Encounter.SMALL_PREY
            }.get(test, Encounter.PREDATOR)
    return encounter_odds(procedure.rules, procedure.character, kind,
                          max(1, procedure.animals), legends=legends)


def _keep_report(procedure: Any) -> OddsReport | None:
    from companion.rules.odds_foraging import keep_odds

    if len(procedure.deck) > MAX_FORAGE_CARDS:
        return OddsReport("Foraging: which card to keep", notes=(UNAVAILABLE,))
    tableau = [procedure.card(c) for c in procedure.tableau]
    drawn = [procedure.card(c) for c in procedure.drawn]
    if not 1 <= len(drawn) <= 2:
        return None
    odds = keep_odds(tableau, drawn, procedure.deck, procedure.objects, procedure.bonuses,
                     procedure.cap, rules=procedure.rules, character=procedure.character)
    rows = []
    chances = {}
    for keep in odds:
        best = keep.best_harvest
        if keep.forces_encounter:
            harvest = text("predator encounter now", "a predator in the front row")
        elif best is None:
            harvest = text("nothing")
        else:
            name = procedure.objects[best.object].name if best.object in procedure.objects \
                else best.object
            harvest = OddsCell(f"{name}: {mean(best.expected_tokens)} tokens",
                               f"{len(best.spots)} object(s); pays with "
                               f"{percent(best.success)} ({exact(best.success)})",
                               best.expected_tokens)
        reach = sorted({_object_name(procedure, k) for k in keep.within_reach})
        label = keep.card + ("" if keep.legal else " (not allowed)")
        count = len(keep.within_reach)
        rows.append((text(label), text(f"{count} object{'s' if count != 1 else ''}",
                                       ", ".join(reach) or "nothing"),
                     harvest, chance(keep.predator_next)))
        chances[f"{keep.card}: predator next"] = keep.predator_next
    return OddsReport(
        "Foraging: which card to keep",
        (OddsTable("Keeping each card", ("card", "within reach", "best harvest now",
                                         "predator next"), tuple(rows)),),
        notes=("Predator next: the chance that the next expansion forces a predator "
               "encounter.",),
        chances=chances,
    )


def _object_name(procedure: Any, key: Any) -> str:
    for spot in _spots(procedure):
        if spot.key == key:
            obj = procedure.objects.get(spot.object)
            return obj.name if obj is not None else str(spot.object)
    return str(key)


def _spots(procedure: Any) -> Any:
    from companion.rules.foraging import spots

    cards = [procedure.card(c) for c in (*procedure.tableau, *procedure.drawn)]
    return spots(cards)


# --- delving ----------------------------------------------------------------------------


def delving_report(procedure: Any, legends: Sequence[Any] = ()) -> OddsReport | None:
    """Delving: the chance of the test the current card asks for."""
    from companion.content.schema.effects import Test
    from companion.rules.delving import Phase
    from companion.rules.odds import ability_test_odds

    if procedure.phase is not Phase.TEST or not procedure.queue:
        return None
    test = procedure.queue[0]
    if not isinstance(test, Test):
        return None
    advice_ = ability_test_odds(procedure.character, test.ability, test.difficulty,
                                legends=legends)
    p = advice_.without_legend.success
    return OddsReport("The delving test",
                      (OddsTable("Chance of success", ("", "chance"),
                                 _test_rows(advice_, legends,
                                            f"{test.ability.value} {test.difficulty}+")),),
                      chances={"success": p},
                      distributions={"test": {True: p, False: 1 - p}})


# --- a behemoth encounter ---------------------------------------------------------------


def encounter_contest_report(procedure: Any, legends: Sequence[Any] = ()) -> OddsReport | None:
    """A behemoth encounter's contest, before the die (Rulebook: Behemoths > Contests;
    D16): success, stalemate and defeat."""
    from companion.rules.odds import contest_odds

    card = procedure.resolving()
    if card is None or card.contest is None:
        return None
    ability = card.contest
    boosts = tuple(procedure.behemoth.boosts.get(ability, ()))
    advice_ = contest_odds(procedure.rules, procedure.character, ability,
                           procedure.abilities[ability], boosts, legends=legends)
    odds = advice_.without_legend
    rows = tuple((text(_way(way.test, legends)), chance(way.success), chance(way.stalemate),
                  chance(way.defeat)) for way in (odds, *advice_.with_legend))
    return OddsReport(
        f"The contest of {ability.value}",
        (OddsTable(f"{procedure.character.name} against {procedure.name} "
                   f"(score {odds.behemoth_score})",
                   ("", "success", "stalemate", "defeat"), rows),),
        chances={"success": odds.success, "stalemate": odds.stalemate, "defeat": odds.defeat},
        distributions={"contest": {"success": odds.success, "stalemate": odds.stalemate,
                                   "defeat": odds.defeat}},
    )


# --- the Night --------------------------------------------------------------------------


def night_report(night: Any, campaign: Campaign | None = None) -> OddsReport | None:
    """The Night, before its cards are drawn (Rulebook: Draw Night Cards; Increase
    Activity; D7, D10): the coming activity increase and the next activity event."""
    from companion.rules.night import NightStage
    from companion.rules.odds import NightHex, night_activity_odds

    order = list(NightStage)
    stage = night.stage
    if order.index(stage) > order.index(NightStage.NIGHT_CARDS):
        return None
    result = night.result()
    if result.resolved_cards:
        return None
    facts, game = night.facts, night.game
    pile_ids = night.draw_pile
    discard_ids = result.discard
    if len(pile_ids) + len(discard_ids) > MAX_NIGHT_CARDS:
        return OddsReport("The Night: activity", notes=(UNAVAILABLE,))
    if not facts.deck_whole:  # issue 36 item 4: the typed cards are not the box's deck
        return OddsReport("The Night: activity", notes=(NOT_WHOLE,))
    hexes = []
    for hex_id in dict.fromkeys(c.hex for c in game.characters if c.hex is not None):
        drawer = next(c for c in game.characters if c.hex == hex_id)
        hexes.append(NightHex(hex_id, frozenset(map(str, night.table.hex_features.get(hex_id, ()))),
                              frozenset(map(str, drawer.traits))))
    society = game.society
    pile = [facts.cards[c] for c in pile_ids]
    discard = [facts.cards[c] for c in discard_ids]
    odds = _memo(("night", tuple(pile_ids), tuple(discard_ids), tuple(hexes), society.unrest,
                  society.activity),
                 lambda: night_activity_odds(facts.rules, pile, discard, hexes,
                                             unrest=society.unrest, activity=society.activity))
    rows = tuple((text(f"+{k}"), chance(p)) for k, p in sorted(odds.increase.items()))
    chances: dict[str, Fraction] = {}
    notes = [f"Activity is {society.activity}; unrest adds {odds.from_unrest} this Night. "
             f"One card per hex with characters ({len(hexes)}), over the "
             f"{len(pile)} cards that can be drawn."]
    upcoming = sorted((e for e in facts.events if e.kind.value != "ongoing"
                       and e.id not in society.triggered_events
                       and e.threshold > society.activity), key=lambda e: e.threshold)
    tables = [OddsTable(f"Activity increase (mean {mean(odds.expected)})",
                        ("increase", "chance"), rows)]
    if upcoming:
        event = upcoming[0]
        p = odds.at_least(event.threshold - society.activity)
        chances["next event"] = p
        words = str(event.id)
        if campaign is not None:
            from companion.operations.society import event_text

            words = event_text(campaign, str(event.id))
        tables.append(OddsTable("The next activity event", ("event", "chance"),
                                ((text(f"activity reaches {event.threshold}", words),
                                  chance(p)),)))
    else:
        notes.append("No activity event is still to come.")
    return OddsReport("The Night: activity", tuple(tables), notes=tuple(notes),
                      chances=chances, distributions={"increase": dict(odds.increase)})


_BUILDERS: dict[str, Any] = {
    "fishing": lambda campaign, p: fishing_report(p),
    "mining": lambda campaign, p: mining_report(p),
    "foraging": lambda campaign, p: foraging_report(p, held_legends(campaign, p.character)),
    "delving": lambda campaign, p: delving_report(p, held_legends(campaign, p.character)),
    "night": lambda campaign, p: night_report(p, campaign),
    "behemoth_encounter": lambda campaign, p: encounter_contest_report(
        p, held_legends(campaign, p.character)),
}


def held_legends(campaign: Campaign, character: Any) -> tuple[Any, ...]:
    """The legend cards ``character`` holds (Rulebook: Legends > Using Legend Cards)."""
    if not getattr(character, "legends", ()):
        return ()
    from companion.operations.state import read_legends

    with campaign.file.read() as session:
        cards = read_legends(session)
    return tuple(c for c in cards if c.id in character.legends)


def _way(odds: Any, legends: Sequence[Any]) -> str:
    """How a test is made: alone, or with a legend (substituting, or lending a trait)."""
    if odds.legend is None:
        return "alone"
    name = next((c.name for c in legends if c.id == odds.legend), str(odds.legend))
    return f"with {name}'s legend" + (f" ({odds.legend_trait})" if odds.legend_trait else "")


def _test_rows(advice: Any, legends: Sequence[Any], label: str) -> tuple[tuple[OddsCell, ...], ...]:
    """A test's success, alone and with each held legend."""
    ways = (advice.without_legend, *advice.with_legend)
    return tuple((text(label if len(ways) == 1 else f"{label}, {_way(w, legends)}"),
                  chance(w.success)) for w in ways)


# --- the switch ---------------------------------------------------------------------------


def advisor_on() -> bool:
    """Whether the odds advisor is switched on (the user's preferences)."""
    from companion import settings

    return settings.load().odds_advisor


def set_advisor(on: bool) -> None:
    """Switch the odds advisor on or off (saved in the user's preferences)."""
    from companion import settings

    settings.save(settings.load().with_changes(odds_advisor=bool(on)))


__all__ = ["OddsCell", "OddsReport", "OddsTable", "Suggestion", "advice", "advisor_on",
           "chance", "exact", "percent", "set_advisor"]
