"""Night Phase Begins (Rulebook: Game Structure > Night Phase > Night Phase Begins;
Mantle > Incapacitation; Character Death; Solo Play > Hardcore Solo, reading D19)."""

from __future__ import annotations

from dataclasses import replace

from companion.rules.health import perish
from companion.rules.night.cards import draw
from companion.rules.night.effects import fire_at_once, resolve_timed
from companion.rules.night.facts import NightStage
from companion.rules.night.run import NightRun, NightSteps
from companion.rules.society import increase_activity


def begin(run: NightRun) -> NightSteps:
    """Night Phase Begins (Rulebook: Night Phase; Mantle > Incapacitation; D19)."""
    run.say("Night falls.")
    for timed in run.facts.at_start:
        yield from resolve_timed(run, timed, NightStage.START)
    for character in [c for c in run.game.characters if c.incapacitated]:
        if run.table.hardcore:
            # Solo Play > Hardcore Solo > Character Health (D19): the card is burnt unresolved
            prompt = f"{character.name} perishes: burn the top card of the Night deck"
            card = yield from draw(run, NightStage.START, prompt)
            legend = perish(character)
            amount = run.facts.cards[card].activity if card is not None else 0
            gained = run.rules.hardcore_solo.perish_activity_extra + amount
            run.game = replace(
                run.game,
                characters=tuple(c for c in run.game.characters if c.name != character.name),
                society=increase_activity(run.game.society, gained),
            )
            burnt = ""
            if card is not None:
                run.discard.append(card)
                burnt = f"; {run.facts.cards[card].name} is burnt unresolved"
            run.say(f"{character.name} perishes and becomes a legend{burnt}; activity +{gained}.")
            fire_at_once(run)
        else:
            legend = perish(character)
            run.game = replace(
                run.game,
                characters=tuple(c for c in run.game.characters if c.name != character.name),
            )
            run.say(f"{character.name} is incapacitated, perishes and becomes a legend.")
        run.perished.append(legend)
