"""The Night phase as one resumable procedure (Rulebook: Game Structure > Night Phase).

:class:`NightProcedure` is the facts, the table at nightfall and the choices made so
far; its state is recomputed by replaying the choices through the steps in the
rulebook's order (``_night``), so a saved Night resumes at the same step.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import fields, replace
from typing import Any

from companion.rules.errors import IllegalAction
from companion.rules.game import Day, Game
from companion.rules.ids import NightCardId
from companion.rules.night.actions import night_actions, reconcile
from companion.rules.night.begin import begin
from companion.rules.night.cards import increase_night_activity, night_cards
from companion.rules.night.effects import during
from companion.rules.night.end import end
from companion.rules.night.facts import (
    STATE_VERSION,
    NightFacts,
    NightResult,
    NightStage,
    NightTable,
    RestBreakdown,
)
from companion.rules.night.fire import tend_fire
from companion.rules.night.rest import degrade_food, rest
from companion.rules.night.run import Ask, NightRun, NightSteps, check_choice
from companion.rules.night_codec import decode, encode
from companion.rules.procedure import Choice, Outcome, Procedure, Step


class NightProcedure:
    """The Night phase of one round, step by step (the :class:`Procedure` protocol).

    Start it with :meth:`start`; save it with :meth:`to_state` and reopen it with
    :meth:`from_state`. A procedure is immutable: :meth:`apply` returns a new one.
    """

    kind: str = "night"

    def __init__(
        self, facts: NightFacts, table: NightTable, choices: Sequence[Choice] = ()
    ) -> None:
        self.facts = facts
        self.table = table
        self.choices: tuple[Choice, ...] = tuple(choices)
        self._run, self._ask = _replay(facts, table, self.choices)
        self._table_state: Any = None  # encode(table), computed once and handed on

    @classmethod
    def start(cls, facts: NightFacts, table: NightTable) -> NightProcedure:
        """Begin the Night; refused while a character has not passed the Day."""
        return cls(facts, table)

    # --- the protocol ---------------------------------------------------------------

    def step(self) -> Step:
        """What is asked now."""
        if self._ask is None:
            raise IllegalAction("the Night is over")
        return self._ask.step

    def apply(self, choice: Choice) -> NightProcedure:
        """The Night after ``choice``; IllegalAction if it is not legal now."""
        if self._ask is None:
            raise IllegalAction("the Night is over")
        check_choice(self._ask, choice)
        night = NightProcedure(self.facts, self.table, (*self.choices, _normal(choice)))
        night._table_state = self._table_state
        return night

    def is_finished(self) -> bool:
        """Whether the Night phase has ended."""
        return self._ask is None

    def outcome(self) -> Outcome:
        """What the Night did (complete once finished); the facts are in ``extra``."""
        result = self.result()
        start_lore = self.table.game.society.lore
        return Outcome(
            lore=result.game.society.lore - start_lore,
            log=result.log,
            extra={f.name: getattr(result, f.name) for f in fields(result)},
        )

    def describe(self) -> str:
        """The Night so far, in game words."""
        lines = [f"Night - {self.stage.value.replace('_', ' ')}"]
        lines.extend(self._run.log)
        if self._ask is not None:
            lines.append(f"> {self._ask.step.prompt}")
        return "\n".join(lines)

    def to_state(self) -> dict[str, Any]:
        """JSON-safe: the table at nightfall, the choices so far, and where they lead."""
        return {
            "kind": self.kind,
            "version": STATE_VERSION,
            "table": self._encoded_table(),
            "choices": [c if isinstance(c, str) else list(c) for c in self.choices],
            "stage": self.stage.value,
            "steps": len(self.choices),
        }

    def _encoded_table(self) -> Any:
        # Encoded once per Night (as JSON text, so no caller can alias the cached value).
        if self._table_state is None:
            self._table_state = json.dumps(encode(self.table))
        return json.loads(self._table_state)

    @classmethod
    def from_state(cls, state: Mapping[str, Any], facts: NightFacts) -> NightProcedure:
        """Rebuild a saved Night; refused if it no longer replays with these facts."""
        if state.get("kind") != cls.kind or state.get("version") != STATE_VERSION:
            raise IllegalAction("this saved procedure is not a Night this version can resume")
        try:
            table = decode(NightTable, state["table"])
            choices = [
                c if isinstance(c, str) else tuple(int(v) for v in c) for c in state["choices"]
            ]
        except (KeyError, TypeError, ValueError) as exc:
            raise IllegalAction(f"the saved Night is damaged: {exc}") from exc
        night = cls(facts, table, choices)
        if night.stage.value != state.get("stage", night.stage.value):
            raise IllegalAction("the saved Night does not replay with this content pack")
        return night

    # --- what the GUI and the operations layer read ---------------------------------

    @property
    def stage(self) -> NightStage:
        """The step of the Night the procedure is at."""
        return NightStage.DONE if self._ask is None else self._ask.stage

    @property
    def game(self) -> Game:
        """The game as it stands now (phase Night until the end)."""
        return self._run.game

    def final_game(self) -> Game:
        """The game after the Night: a fresh Day begins. Refused before the end."""
        if self._ask is not None:
            raise IllegalAction("the Night is not over yet")
        return self._run.game

    @property
    def rest(self) -> tuple[RestBreakdown, ...]:
        """The Rest of each character so far (the last one maybe still choosing)."""
        run = self._run
        return (*run.rest, run.pending) if run.pending is not None else tuple(run.rest)

    @property
    def draw_pile(self) -> tuple[NightCardId, ...]:
        """The cards still in the Night deck (what the table may type at a CARD step)."""
        return tuple(self._run.pile) + tuple(sorted(self._run.unordered))

    def result(self) -> NightResult:
        """What the Night did so far."""
        return self._run.result()

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, NightProcedure):
            return NotImplemented
        return (self.facts, self.table, self.choices) == (other.facts, other.table, other.choices)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"NightProcedure(stage={self.stage.value}, steps={len(self.choices)})"


def _normal(choice: Choice) -> Choice:
    return choice if isinstance(choice, str) else tuple(choice)



def _replay(
    facts: NightFacts, table: NightTable, choices: Sequence[Choice]
) -> tuple[NightRun, Ask | None]:
    run = NightRun(facts, table)
    night = _night(run)
    ask: Ask | None = next(night, None)
    for number, choice in enumerate(choices, 1):
        if ask is None:
            raise IllegalAction(f"choice {number} comes after the end of the Night")
        check_choice(ask, choice)
        try:
            ask = night.send(choice)
        except StopIteration:
            ask = None
    return run, ask


def _night(run: NightRun) -> NightSteps:
    yield from begin(run)
    yield from during(run, NightStage.REST)
    yield from rest(run)
    yield from during(run, NightStage.DEGRADE_FOOD)
    degrade_food(run)
    yield from during(run, NightStage.TEND_FIRE)
    yield from tend_fire(run)
    yield from during(run, NightStage.NIGHT_ACTIONS)
    yield from night_actions(run)
    yield from during(run, NightStage.RECONCILE)
    yield from reconcile(run)
    yield from during(run, NightStage.NIGHT_CARDS)
    yield from night_cards(run)
    yield from during(run, NightStage.ACTIVITY)
    increase_night_activity(run)
    yield from end(run)
    run.game = replace(run.game, day=Day())
    run.say("A new Day begins.")


def _is_a_procedure(night: NightProcedure) -> Procedure:
    """Lets mypy check that :class:`NightProcedure` implements the protocol."""
    return night
