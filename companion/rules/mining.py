"""Mining (Rulebook: Activities > Mining, steps 1-5; readings D2, D14).

The feature's mining chips go into the bag; the character pulls one without looking,
gains the matching resource and resolves the effect of the chip's omen (its *match*
effect instead when the omen matches a current omen); then they may pull once more
(at most ``RulesConstants.mining.max_draws`` chips in all), or stop. Chips are drawn
without replacement (D14).

The pack lists each feature's chips by material (``Feature.mining_chips``); each
material's chip face (``Material.chip``: its omen, effect and match effect) is read by
:func:`chips_for` into a :class:`MiningChip`.

>>> from fractions import Fraction
>>> odds = chip_distribution(["sunstone", "sunstone", "cloudstone"], 2)
>>> odds[("cloudstone", "sunstone")], odds[("sunstone", "sunstone")]
(Fraction(2, 3), Fraction(1, 3))
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from itertools import product
from math import comb
from typing import Any

from companion.content.schema.base import Omen
from companion.content.schema.effects import Effect
from companion.content.schema.world import Feature, Material
from companion.rules.effects import (
    Tally,
    describe_effect,
    effects_from_data,
    referenced_resources,
    token_from_state,
    token_to_state,
)
from companion.rules.errors import IllegalAction
from companion.rules.procedure import Choice, Decider, Outcome, Procedure, Step, check_option
from companion.rules.resources import BagToken

DRAW = "draw"
"""Step 5 option: pull one more chip."""
STOP = "stop"
"""Step 5 option: stop mining."""


@dataclass(frozen=True)
class MiningChip:
    """One mining chip: the resource it yields, its omen and the omen's effects."""

    material: str
    """The resource gained when it is pulled (a material id)."""
    omen: Omen | None = None
    """The omen printed on the chip (None: the pack does not say)."""
    effects: tuple[Effect, ...] = ()
    """The effect associated with its omen."""
    match_effects: tuple[Effect, ...] = ()
    """Resolved instead of ``effects`` when the omen matches a current omen."""

    def label(self) -> str:
        """ "sunstone" or "sunstone (sun)"."""
        return f"{self.material} ({self.omen.value})" if self.omen else self.material

    def to_state(self) -> dict[str, Any]:
        """JSON-safe data."""
        return {
            "material": self.material,
            "omen": self.omen.value if self.omen else None,
            "effects": [e.model_dump(mode="json") for e in self.effects],
            "match_effects": [e.model_dump(mode="json") for e in self.match_effects],
        }

    @classmethod
    def from_state(cls, data: Mapping[str, Any]) -> MiningChip:
        """The inverse of :meth:`to_state`."""
        omen = data["omen"]
        return cls(
            data["material"],
            Omen(omen) if omen else None,
            effects_from_data(data["effects"]),
            effects_from_data(data["match_effects"]),
        )


def chips_for(
    feature: Feature, materials: Mapping[str, Material] | None = None
) -> tuple[MiningChip, ...]:
    """The chips to put in the bag for ``feature`` (Step 1; reading D14).

    With the pack's ``materials``, each chip carries the omen, effect and match effect
    of its material's :attr:`~companion.content.schema.world.Material.chip` (a material
    without one gives a chip with no omen)."""
    if not feature.mining_chips:
        raise IllegalAction(f"there is no mining at the {feature.name}")
    chips: list[MiningChip] = []
    for ref in feature.mining_chips:
        material = (materials or {}).get(str(ref))
        face = material.chip if material is not None else None
        if face is None:
            chips.append(MiningChip(str(ref)))
        else:
            chips.append(MiningChip(str(ref), face.omen, face.effects, face.match_effects))
    return tuple(chips)


def chip_distribution(chips: Sequence[str], draws: int) -> dict[tuple[str, ...], Fraction]:
    """Exact odds of each set of chips pulled in ``draws`` draws without replacement.

    Keys are the chips pulled, sorted by name; values sum to 1 (a multivariate
    hypergeometric distribution). Drawing more chips than the bag holds takes them all.
    """
    if draws < 0:
        raise ValueError("cannot draw a negative number of chips")
    counts = Counter(chips)
    names = sorted(counts)
    draws = min(draws, len(chips))
    total = comb(len(chips), draws)
    odds: dict[tuple[str, ...], Fraction] = {}
    for taken in product(*(range(counts[n] + 1) for n in names)):
        if sum(taken) != draws:
            continue
        ways = 1
        for name, k in zip(names, taken, strict=True):
            ways *= comb(counts[name], k)
        key = tuple(name for name, k in zip(names, taken, strict=True) for _ in range(k))
        odds[key] = Fraction(ways, total)
    return odds


@dataclass(frozen=True)
class MiningProcedure:
    """The Mine activity, step by step (Rulebook: Mining). Build it with :meth:`start`."""

    character: str
    """Who mines."""
    feature: str
    """The feature mined (cave, chasm, dried flats, moraine, mountain ...)."""
    bag: tuple[MiningChip, ...]
    """Chips still in the bag."""
    omens: tuple[Omen, ...]
    """The current omens (sorted)."""
    tokens: Mapping[str, BagToken]
    """Resource id -> token gained, for every resource this mining can yield."""
    max_draws: int
    """Most chips pulled (RulesConstants.mining.max_draws, D14)."""
    drawn: tuple[MiningChip, ...] = ()
    """Chips pulled, in order."""
    deciding: bool = False
    """Step 5: the player chooses to pull again or stop."""
    stopped: bool = False
    """The player stopped mining."""
    tally: Tally = Tally()

    kind = "mining"
    """Stable name used in saved state (a class attribute, not a field)."""

    @classmethod
    def start(
        cls,
        character: str,
        feature: str,
        chips: Iterable[MiningChip],
        current_omens: Iterable[Omen],
        tokens: Mapping[str, BagToken],
        max_draws: int,
    ) -> MiningProcedure:
        """A new mining activity with ``chips`` in the bag (see :func:`chips_for`).

        ``tokens`` is the pack's token catalogue (:func:`~companion.rules.effects.
        token_catalogue`); only the resources this mining can yield are kept."""
        bag = tuple(chips)
        if not bag:
            raise IllegalAction(f"there are no mining chips for the {feature}")
        if max_draws < 1:
            raise IllegalAction("mining pulls at least one chip")
        wanted = {c.material for c in bag} | referenced_resources(
            [e for c in bag for e in (*c.effects, *c.match_effects)]
        )
        missing = sorted(wanted - set(tokens))
        if missing:
            raise IllegalAction(f"no resource token is known for {', '.join(missing)}")
        return cls(
            character=character,
            feature=feature,
            bag=bag,
            omens=tuple(sorted(set(current_omens))),
            tokens={k: tokens[k] for k in sorted(wanted)},
            max_draws=max_draws,
        )

    def step(self) -> Step:
        """What is asked now."""
        if self.is_finished():
            raise IllegalAction("mining is over")
        if self.deciding:
            return Step(
                "Step 5: pull one more chip, or stop mining",
                Decider.PLAYER,
                (DRAW, STOP),
                labels={DRAW: "pull one more chip", STOP: "stop mining"},
            )
        options = tuple(str(i) for i in range(len(self.bag)))
        labels = {str(i): chip.label() for i, chip in enumerate(self.bag)}
        return Step(
            f"Step 4: pull a chip from the bag ({len(self.bag)} inside)",
            Decider.CHIP,
            options,
            labels=labels,
        )

    def apply(self, choice: Choice) -> MiningProcedure:
        """The next state after ``choice``."""
        step = self.step()
        key = check_option(step, choice)
        if self.deciding:
            if key == STOP:
                return replace(
                    self,
                    deciding=False,
                    stopped=True,
                    tally=self.tally.note(f"{self.character} stops mining."),
                )
            return replace(self, deciding=False)
        index = int(key)
        chip = self.bag[index]
        bag = self.bag[:index] + self.bag[index + 1 :]
        drawn = (*self.drawn, chip)
        # Step 4: "Gain a matching resource."
        tally = replace(self.tally, gained=(*self.tally.gained, self.tokens[chip.material]))
        line = f"Pulled {chip.label()}: gain 1 {chip.material}"
        matched = chip.omen is not None and chip.omen in self.omens
        effects = chip.match_effects if matched else chip.effects
        if effects:
            texts = ", ".join(describe_effect(e) for e in effects)
            line += f"; {'omen matches' if matched else 'omen'}: {texts}"
            tally = tally.apply(effects, self.tokens)
        tally = tally.note(line + ".")
        more = len(drawn) < self.max_draws and bool(bag)
        return replace(self, bag=bag, drawn=drawn, deciding=more, tally=tally)

    def is_finished(self) -> bool:
        """Stopped, or no more pulls allowed (the limit, or an empty bag)."""
        if self.deciding:
            return False
        return self.stopped or len(self.drawn) >= self.max_draws or not self.bag

    def outcome(self) -> Outcome:
        """What mining did to the character."""
        return self.tally.outcome({"drawn": [c.material for c in self.drawn]})

    def describe(self) -> str:
        """The bag and what happened so far."""
        inside = ", ".join(c.label() for c in self.bag) or "nothing"
        omens = ", ".join(o.value for o in self.omens) or "none"
        lines = [
            f"{self.character} mines at the {self.feature} (current omens: {omens}).",
            f"In the bag: {inside}.",
            *self.tally.log,
        ]
        return "\n".join(lines)

    def to_state(self) -> dict[str, Any]:
        """JSON-safe snapshot (chips included, so it resumes without content)."""
        return {
            "kind": self.kind,
            "character": self.character,
            "feature": self.feature,
            "bag": [c.to_state() for c in self.bag],
            "omens": [o.value for o in self.omens],
            "tokens": {k: token_to_state(t) for k, t in self.tokens.items()},
            "max_draws": self.max_draws,
            "drawn": [c.to_state() for c in self.drawn],
            "deciding": self.deciding,
            "stopped": self.stopped,
            "tally": self.tally.to_state(),
        }

    @classmethod
    def from_state(cls, state: Mapping[str, Any]) -> MiningProcedure:
        """Rebuild a procedure from :meth:`to_state`."""
        if state.get("kind") != "mining":
            raise IllegalAction(f"not a mining state: {state.get('kind')!r}")
        return cls(
            character=state["character"],
            feature=state["feature"],
            bag=tuple(MiningChip.from_state(c) for c in state["bag"]),
            omens=tuple(Omen(o) for o in state["omens"]),
            tokens={k: token_from_state(t) for k, t in state["tokens"].items()},
            max_draws=int(state["max_draws"]),
            drawn=tuple(MiningChip.from_state(c) for c in state["drawn"]),
            deciding=bool(state["deciding"]),
            stopped=bool(state["stopped"]),
            tally=Tally.from_state(state["tally"]),
        )


_: type[Procedure] = MiningProcedure
