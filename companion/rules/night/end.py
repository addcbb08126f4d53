"""Night Phase Ends (Rulebook: Game Structure > Night Phase > Night Phase Ends; Activity
Events, reading D7; Behemoths > Habits, Learning the Secret, Activation, reading D18)."""

from __future__ import annotations

from dataclasses import replace

from companion.rules.night.effects import resolve_timed
from companion.rules.night.facts import BehemothAtNight, NightStage
from companion.rules.night.run import NightRun, NightSteps, choose
from companion.rules.society import due_events, fire_events, ongoing_event, spend_lore


def end(run: NightRun) -> NightSteps:
    """Night Phase Ends: effects, activity events (D7), the behemoth (D18)."""
    for timed in run.facts.at_end:
        yield from resolve_timed(run, timed, NightStage.END)
    society = run.game.society
    due = due_events(society, run.facts.events, end_of_night=True)
    run.game = replace(run.game, society=fire_events(society, due))
    run.events_fired = tuple(e.id for e in due)
    for event in due:
        run.say(f"Activity {society.activity} reaches the {event.kind.value} event at "
                f"{event.threshold}.")
        if event.id in run.facts.event_effects:
            yield from resolve_timed(run, run.facts.event_effects[event.id], NightStage.END)
    ongoing = ongoing_event(run.game.society, run.facts.events)
    run.ongoing = ongoing.id if ongoing is not None else None
    if ongoing is not None:
        run.say(f"The ongoing event from activity {ongoing.threshold} triggers.")
        if ongoing.id in run.facts.event_effects:
            yield from resolve_timed(run, run.facts.event_effects[ongoing.id], NightStage.END)
    behemoth = run.table.behemoth
    if behemoth is None:
        return
    yield from _learn(run, behemoth)
    run.behemoth_activates = True
    run.say("The behemoth activates.")


def _learn(run: NightRun, behemoth: BehemothAtNight) -> NightSteps:
    """Habits and Learning the Secret (Rulebook: Behemoths; D18)."""
    rules = run.rules.behemoths
    near = {behemoth.hex} | (behemoth.adjacent if rules.learn_range >= 1 else frozenset())
    if not any(c.hex in near for c in run.game.characters):
        return
    costs = {"habits": rules.habits_lore, "secret": rules.secret_lore}
    known = {"habits": behemoth.habits_known, "secret": behemoth.secret_known}
    names = {"habits": "its habits", "secret": "its secret"}
    while True:
        lore = run.game.society.lore
        left = [k for k in costs if not known[k] and k not in run.learned]
        affordable = {
            k: f"spend {costs[k]} lore to learn {names[k]}"
            for k in left
            if lore - costs[k] >= run.rules.lore.minimum
        }
        if not affordable:
            for k in left:
                run.say(f"The society has {lore} lore; learning {names[k]} costs {costs[k]}.")
            return
        refusals = {
            k: f"the society has {lore} lore; learning the behemoth's {k} costs {costs[k]}"
            for k in left
            if k not in affordable
        }
        choice = yield from choose(
            run,
            NightStage.END,
            f"The behemoth is near (lore {lore}): learn its habits or secret, or done",
            {**affordable, "done": "learn nothing more"},
            refusals=refusals,
        )
        if choice == "done":
            return
        key = str(choice)
        run.game = replace(run.game, society=spend_lore(run.rules, run.game.society, costs[key]))
        run.learned.append(key)
        if key == "habits" and behemoth.habits_outcome:
            run.read.append(behemoth.habits_outcome)
            run.say(
                f"The society spends {costs[key]} lore to learn the behemoth's habits: "
                f"read outcome {behemoth.habits_outcome}."
            )
        else:
            run.say(f"The society spends {costs[key]} lore to learn the behemoth's {key}.")
