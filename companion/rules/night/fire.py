"""Tend Fire (Rulebook: Game Structure > Night Phase > Tend Fire; Fire/Shelter Tokens)."""

from __future__ import annotations

from dataclasses import replace

from companion.rules.inventory import take_tokens
from companion.rules.night.facts import NightStage
from companion.rules.night.run import NightRun, NightSteps, choose
from companion.rules.resources import BagToken, Side, TokenKind


def tend_fire(run: NightRun) -> NightSteps:
    """Tend Fire (Rulebook: Night Phase > Tend Fire; Fire/Shelter Tokens)."""
    wood = run.facts.wood
    for hex in sorted(run.game.tokens.fires):
        holders = {
            f"wood:{c.name}": f"{c.name} spends one {wood}"
            for c in run.game.characters
            if c.hex == hex and any(_is(t, wood) for t in c.bag)
        }
        keep: str | None = None
        if holders:
            choice = yield from choose(
                run,
                NightStage.TEND_FIRE,
                f"Tend Fire in hex {hex}: spend one {wood} to keep the fire, or let it go out",
                {**holders, "out": "let the fire go out"},
            )
            keep = None if choice == "out" else choice.removeprefix("wood:")
        if keep is not None:
            character = run.game.character(keep)
            woods = [i for i, t in enumerate(character.bag) if _is(t, wood)]
            unprocessed = [i for i in woods if character.bag[i].side is Side.UNPROCESSED]
            character, _ = take_tokens(character, [(unprocessed or woods)[0]])
            run.update(character)
            run.say(f"{keep} spends one {wood}: the fire in hex {hex} keeps burning.")
        else:
            fires = run.game.tokens.fires - {hex}
            run.game = replace(run.game, tokens=replace(run.game.tokens, fires=fires))
            run.say(f"The fire in hex {hex} goes out.")


def _is(token: BagToken, material: str) -> bool:
    return token.kind is TokenKind.MATERIAL and token.name == material
