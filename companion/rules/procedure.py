"""The shape every step-by-step procedure shares (activities, the Night phase).

A procedure is a small immutable state machine (DESIGN.md > Procedures are state
machines):

- :meth:`Procedure.step` says what is asked now: a :class:`Step` naming who decides
  (a player, or chance) and what the legal inputs are;
- :meth:`Procedure.apply` takes one input and returns the next state, or raises
  :class:`~companion.rules.errors.IllegalAction` (the old state is untouched);
- :meth:`Procedure.is_finished` and :meth:`Procedure.outcome` say when it is over and
  what it did to the character (the operations layer applies that in one transaction);
- :meth:`Procedure.to_state` / ``from_state`` make it JSON-safe, so a procedure in
  progress is saved after every step and resumes after a restart.

Chance is a choice too (OpenSpiel's chance player): a die roll or a card draw is an input
that the table types in or the app's seeded :class:`~companion.rules.chance.Chance`
supplies through :func:`draw_for`. So one engine serves both ways of playing, replays
exactly, and a test can enumerate every outcome.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Protocol, runtime_checkable

from companion.content.schema.base import HealthToken
from companion.rules.chance import Chance
from companion.rules.errors import IllegalAction
from companion.rules.resources import BagToken


class Decider(StrEnum):
    """Who supplies the input of a step."""

    PLAYER = "player"
    """A player's decision: pick one of ``options``."""
    DICE = "dice"
    """Chance: ``count`` dice, each 1..6 (typed from the table or rolled by the app)."""
    CARD = "card"
    """Chance: one card id from ``options`` (the cards that can come now)."""
    CHIP = "chip"
    """Chance: one chip (index into ``options``) drawn from a bag without looking."""


@dataclass(frozen=True)
class Step:
    """What a procedure asks for now."""

    prompt: str
    """A sentence in game words: "Roll four dice", "Choose a line through location 2"."""
    decider: Decider
    """Who supplies the input."""
    options: tuple[str, ...] = ()
    """Legal inputs for PLAYER, CARD and CHIP steps (ids or short keys)."""
    count: int = 0
    """Number of dice for a DICE step."""
    labels: Mapping[str, str] = field(default_factory=dict)
    """Human labels of ``options`` (option -> text), for dialogs and the CLI."""


Choice = str | tuple[int, ...]
"""An input: an option key, or a tuple of die values for a DICE step."""


@dataclass(frozen=True)
class Outcome:
    """What a finished procedure did to the acting character (applied by operations)."""

    gained: tuple[BagToken, ...] = ()
    """Tokens put into the character's bag."""
    items: tuple[str, ...] = ()
    """Item cards gained."""
    suffered: tuple[HealthToken, ...] = ()
    """Injury/disease tokens suffered."""
    energy: int = 0
    """Energy gained (positive) or lost (negative)."""
    lore: int = 0
    """Lore gained by the society."""
    log: tuple[str, ...] = ()
    """What happened, step by step, in game words (the journal event's text)."""
    extra: Mapping[str, Any] = field(default_factory=dict)
    """Procedure-specific facts (e.g. crafting discoveries, the delve's exit hex)."""


@runtime_checkable
class Procedure(Protocol):
    """The protocol every procedure module implements."""

    kind: str
    """Stable name used in saved state: 'fishing', 'mining', 'foraging', 'night' ..."""

    def step(self) -> Step:
        """What is asked now (undefined once finished)."""
        ...

    def apply(self, choice: Choice) -> Procedure:
        """The next state after ``choice``; IllegalAction if it is not legal now."""
        ...

    def is_finished(self) -> bool:
        """Whether every step has been resolved."""
        ...

    def outcome(self) -> Outcome:
        """What the procedure did (complete once finished)."""
        ...

    def describe(self) -> str:
        """The state so far, in game words (for the dialog and the CLI)."""
        ...

    def to_state(self) -> dict[str, Any]:
        """A JSON-safe snapshot; the module's ``from_state`` rebuilds it."""
        ...


def draw_for(step: Step, chance: Chance) -> Choice:
    """The app's input for a chance step, drawn from the seeded generator."""
    if step.decider is Decider.DICE:
        return chance.roll(step.count)
    if step.decider in (Decider.CARD, Decider.CHIP):
        if not step.options:
            raise IllegalAction(f"nothing left to draw: {step.prompt}")
        return chance.choice(list(step.options))
    raise IllegalAction(f"a player decides this step: {step.prompt}")


def run_to_end(
    procedure: Procedure, chance: Chance, decide: Any = None, *, limit: int = 10_000
) -> Procedure:
    """Play a procedure to its end: chance from ``chance``, players by ``decide(step)``
    (default: a random legal option). Public for the random-play and Night tests, which
    play whole procedures with it; players step procedures one choice at a time."""
    for _ in range(limit):
        if procedure.is_finished():
            return procedure
        step = procedure.step()
        if step.decider is Decider.PLAYER:
            choice = decide(step) if decide is not None else chance.choice(list(step.options))
        else:
            choice = draw_for(step, chance)
        procedure = procedure.apply(choice)
    raise IllegalAction(f"{procedure.kind} did not finish within {limit} steps")


def check_option(step: Step, choice: Choice) -> str:
    """``choice`` as an option key, refused unless it is one of ``step.options``."""
    if not isinstance(choice, str) or choice not in step.options:
        allowed = ", ".join(step.labels.get(o, o) for o in step.options)
        raise IllegalAction(f"{step.prompt}: choose one of {allowed}; got {choice!r}")
    return choice


def check_dice(step: Step, choice: Choice) -> tuple[int, ...]:
    """``choice`` as die values, refused unless there are ``step.count`` dice of 1..6."""
    if isinstance(choice, str) or len(choice) != step.count:
        raise IllegalAction(f"{step.prompt}: enter {step.count} dice; got {choice!r}")
    for value in choice:
        if not 1 <= value <= 6:
            raise IllegalAction(f"a die shows 1 to 6; got {value}")
    return tuple(choice)

