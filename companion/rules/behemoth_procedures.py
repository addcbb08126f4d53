"""The behemoth's activation and an encounter, step by step (the Procedure protocol).

:class:`ActivationProcedure`: Rulebook: Behemoth Activation > Movement, Encounters. Roll
the Instinct card's movement dice (a DICE step), break a remaining tie between the
shortest paths at random (a CHIP step, one chip per tied path, asked only when the tied
paths lead it into different hexes with the points rolled), then the behemoth walks
(paying each hex's movement value) and the outcome lists the hexes it entered (their
entry effects trigger, in order), where it ends and the characters it encounters. The
readings are :mod:`companion.rules.behemoth`'s.

:class:`EncounterProcedure`: Rulebook: Reaction Deck; Contests (D16); Using the Secret.
Draw Reaction cards (CARD steps) until one can be resolved (its ``requires_omens`` meets
a current omen), setting aside the others; resolve it: a contest (a DICE step, then
:func:`companion.rules.checks.contest` with the character's and the behemoth's boosts),
whose outcome's effects and the card's own effects are reported as data. Then every card
is shuffled back: the deck is left *unordered*, so the next draw is any card, equally
likely (exactly what a shuffle gives); :func:`~companion.rules.behemoth.shuffle_reactions`
fixes an order if the app prefers to draw it now. With the secret learned, the outcome
carries the Codex omen entry the Secret card points to: (its omen, the Reaction card's
id), to read when the card's condition holds (the card's text says when; the table
judges it).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from companion.content.schema.base import Ability, Omen
from companion.content.schema.cards import (
    Behemoth,
    InstinctCard,
    MovementRoll,
    ReactionCard,
    SecretCard,
)
from companion.content.schema.effects import Effect
from companion.content.schema.rules import RulesConstants
from companion.rules.behemoth import (
    BehemothState,
    EncounterRule,
    MovementBoard,
    Path,
    encounter_rule_from_text,
    encountered,
    move,
    movement_board,
    movement_points,
    shortest_paths,
    target_hex,
    tie_matters,
)
from companion.rules.character import Character
from companion.rules.checks import ContestOutcome, ContestResult, contest
from companion.rules.decks import card_of
from companion.rules.effects import effects_text
from companion.rules.errors import IllegalAction
from companion.rules.exploration import Terrain, Valley
from companion.rules.ids import CharacterName, HexId, Trait
from companion.rules.legends import Legend
from companion.rules.night_codec import decode, encode
from companion.rules.omens import codex_omen_key
from companion.rules.procedure import (
    Choice,
    Decider,
    Outcome,
    Procedure,
    Step,
    check_dice,
    check_option,
)

# --- the activation -----------------------------------------------------------------------


@dataclass(frozen=True)
class ActivationResult:
    """What one activation did."""

    points: int
    """Movement points generated (0 when it does not move)."""
    path: tuple[HexId, ...]
    """The path chosen to its target (empty: none, or it is there already)."""
    entered: tuple[HexId, ...]
    """The hexes it entered, in order: each one's entry effects trigger."""
    spent: int
    """Movement points spent."""
    end: HexId
    """Where it ends its activation."""
    encountered: tuple[CharacterName, ...]
    """The characters it encounters, in order: each resolves a Reaction card."""
    behemoth: BehemothState
    """The behemoth after its activation (its miniature in ``end``)."""


@dataclass(frozen=True)
class ActivationProcedure:
    """The behemoth's activation at the end of a Night. Build it with :meth:`start`."""

    name: str
    """The behemoth's name, for the log."""
    behemoth: BehemothState
    """The behemoth before it activates."""
    board: MovementBoard
    """The explored hexes and their movement values for this behemoth."""
    roll: MovementRoll | None
    """The Instinct card's movement (None: the card does not make it move)."""
    target: HexId | None
    """The target's hex as it activates (None: no target token, or it is off the board)."""
    characters: tuple[tuple[CharacterName, HexId | None], ...]
    """Each character in play and their hex, in turn order."""
    rule: EncounterRule
    """When its movement makes it encounter characters (the Instinct card)."""
    dice: tuple[int, ...] | None = None
    """The movement dice, once rolled."""
    tie: int | None = None
    """The tied path picked at random (index into :meth:`paths`), once drawn."""

    kind = "behemoth_activation"
    """Stable name used in saved state (a class attribute, not a field)."""

    @classmethod
    def start(
        cls,
        state: BehemothState,
        behemoth: Behemoth,
        instinct: InstinctCard,
        valley: Valley,
        terrain: Terrain,
        characters: Mapping[CharacterName, HexId | None],
        *,
        rule: EncounterRule | None = None,
        unlisted: int | None = None,
    ) -> ActivationProcedure:
        """The activation of the behemoth ``state`` with its face-up Instinct card.

        ``characters``: each character's hex, in turn order (the target token on a
        character follows them). ``rule``: the Instinct card's encounter rule (default:
        read from its text, :func:`~companion.rules.behemoth.encounter_rule_from_text`).
        ``unlisted``: the value of a hex with no feature in its movement table (D20).
        """
        if str(behemoth.id) != state.behemoth:
            raise IllegalAction(f"the behemoth in play is {state.behemoth}, not {behemoth.id}")
        if str(instinct.id) != state.instinct:
            raise IllegalAction(
                f"{behemoth.name}'s face-up Instinct card is {state.instinct}, not {instinct.id}"
            )
        board = movement_board(behemoth, valley, terrain, unlisted=unlisted)
        board.locate(state.hex)
        return cls(
            name=behemoth.name,
            behemoth=state,
            board=board,
            roll=instinct.movement,
            target=target_hex(state, characters),
            characters=tuple(characters.items()),
            rule=encounter_rule_from_text(instinct.encounter) if rule is None else rule,
        )

    # --- derived ---------------------------------------------------------------------

    def paths(self) -> list[Path]:
        """The shortest paths to the target, equally likely (``[()]``: nowhere to go)."""
        if self.roll is None or self.target is None:
            return [()]
        here = self.board.locate(self.behemoth.hex)
        if self.target not in self.board.tiles.values():
            return [()]
        return shortest_paths(self.board, here, self.board.locate(self.target)) or [()]

    def points(self) -> int | None:
        """Movement points (None: not rolled yet)."""
        if self.roll is None:
            return 0
        if self.roll.dice == 0:
            return max(0, self.roll.modifier)
        if self.dice is None:
            return 0 if self.paths() == [()] else None
        return movement_points(self.roll, self.dice)

    def _needs_roll(self) -> bool:
        return self.points() is None

    def _needs_tie(self) -> bool:
        points = self.points()
        if points is None or self.tie is not None:
            return False
        paths = self.paths()
        return len(paths) > 1 and tie_matters(self.board, paths, points)

    # --- the protocol ------------------------------------------------------------------

    def step(self) -> Step:
        """What is asked now."""
        if self._needs_roll():
            assert self.roll is not None
            return Step(
                f"Roll {self.roll.dice} dice for {self.name}'s movement points "
                f"(modifier {self.roll.modifier:+d})",
                Decider.DICE,
                count=self.roll.dice,
            )
        if self._needs_tie():
            paths = self.paths()
            options = tuple(str(i) for i in range(len(paths)))
            labels = {str(i): self._path_text(p) for i, p in enumerate(paths)}
            total = sum(self.board.values[c] for c in paths[0])
            return Step(
                f"{len(paths)} paths to {self.target} tie ({len(paths[0])} hexes, movement "
                f"value {total}): pick one at random",
                Decider.CHIP,
                options,
                labels=labels,
            )
        raise IllegalAction(f"{self.name}'s activation is over")

    def apply(self, choice: Choice) -> ActivationProcedure:
        """The next state after ``choice``."""
        step = self.step()
        if step.decider is Decider.DICE:
            return replace(self, dice=check_dice(step, choice))
        return replace(self, tie=int(check_option(step, choice)))

    def is_finished(self) -> bool:
        """Rolled and the path chosen (or nothing to ask)."""
        return not self._needs_roll() and not self._needs_tie()

    def result(self) -> ActivationResult:
        """What the activation did (complete once finished)."""
        points = self.points() or 0
        paths = self.paths()
        path = paths[self.tie if self.tie is not None else 0]
        here = self.board.locate(self.behemoth.hex)
        movement = move(self.board, here, path, points)
        entered = tuple(self.board.name(c) for c in movement.entered)
        end = self.board.name(movement.end)
        met = encountered(
            self.rule,
            entered,
            end,
            dict(self.characters),
            target=self.target,
            lair=self.behemoth.lair[0],
        )
        if len(paths) > 1 and self.tie is None:
            path = movement.entered  # the tied paths agree as far as it goes
        return ActivationResult(
            points=points,
            path=tuple(self.board.name(c) for c in path),
            entered=entered,
            spent=movement.spent,
            end=end,
            encountered=met,
            behemoth=replace(self.behemoth, hex=end),
        )

    def log(self) -> tuple[str, ...]:
        """What happened, in game words."""
        lines = [f"{self.name} activates."]
        if self.roll is None:
            lines.append("Its Instinct card does not make it move.")
        elif self.target is None:
            lines.append("It has no target: it stays where it is.")
        elif self.paths() == [()]:
            if self.target == self.behemoth.hex:
                lines.append(f"It is at its target, {self.target}, already.")
            else:
                lines.append(f"No path of explored hexes leads to {self.target}: it stays.")
        if self.dice is not None:
            dice = ", ".join(str(d) for d in self.dice)
            lines.append(f"Movement dice {dice}: {self.points()} movement points.")
        elif self.roll is not None and self.roll.dice == 0:
            lines.append(f"{self.points()} movement points.")
        if not self.is_finished():
            return tuple(lines)
        result = self.result()
        if self.tie is not None:
            lines.append(f"Tied paths: picked {self._path_text(self.paths()[self.tie])}.")
        spent = 0
        for hex in result.entered:
            spent += self.board.values[self.board.locate(hex)]
            lines.append(f"It enters {hex} ({spent} of {result.points} points spent).")
        if result.entered and result.entered[-1] == self.target:
            lines.append("It reaches its target.")
        elif result.points > 0:
            lines += self._stop_line(result)
        lines.append(f"It ends its activation in {result.end}.")
        for name in result.encountered:
            lines.append(f"It encounters {name}.")
        return tuple(lines)

    def _stop_line(self, result: ActivationResult) -> list[str]:
        """Why it stopped short of its target (the next hex, when the path fixes it)."""
        done = len(result.entered)
        way = [p for p in self.paths() if len(p) > done]
        way = [p for p in way if tuple(self.board.name(c) for c in p[:done]) == result.entered]
        if not way:
            return []
        left = result.points - result.spent
        nexts = sorted({self.board.name(p[done]) for p in way})
        if len(nexts) == 1:
            cost = self.board.values[self.board.locate(nexts[0])]
            return [f"It cannot pay {cost} to enter {nexts[0]} ({left} points left): it stops."]
        return [f"It cannot pay to enter {' or '.join(nexts)} ({left} points left): it stops."]

    def outcome(self) -> Outcome:
        """The activation as data (``extra``: the behemoth after, the hexes entered, the
        end hex, the characters encountered)."""
        result = self.result()
        return Outcome(
            log=self.log(),
            extra={
                "behemoth": result.behemoth.to_data(),
                "points": result.points,
                "spent": result.spent,
                "path": list(result.path),
                "entered": list(result.entered),
                "end": result.end,
                "encountered": list(result.encountered),
            },
        )

    def describe(self) -> str:
        """The activation so far."""
        lines = [
            f"{self.name} in {self.behemoth.hex}, target "
            f"{self.target if self.target is not None else 'none'}.",
            *self.log()[1:],
        ]
        return "\n".join(lines)

    def _path_text(self, path: Path) -> str:
        return " -> ".join(str(self.board.name(c)) for c in path) or "stay"

    def to_state(self) -> dict[str, Any]:
        """JSON-safe snapshot (the board included, so it resumes without content)."""
        return {
            "kind": self.kind,
            "name": self.name,
            "behemoth": self.behemoth.to_data(),
            "board": self.board.to_data(),
            "roll": None if self.roll is None else [self.roll.dice, self.roll.modifier],
            "target": self.target,
            "characters": [[n, h] for n, h in self.characters],
            "rule": self.rule.value,
            "dice": None if self.dice is None else list(self.dice),
            "tie": self.tie,
        }

    @classmethod
    def from_state(cls, state: Mapping[str, Any]) -> ActivationProcedure:
        """Rebuild a procedure from :meth:`to_state`."""
        if state.get("kind") != cls.kind:
            raise IllegalAction(f"not a behemoth activation: {state.get('kind')!r}")
        roll = state["roll"]
        target = state["target"]
        return cls(
            name=str(state["name"]),
            behemoth=BehemothState.from_data(state["behemoth"]),
            board=MovementBoard.from_data(state["board"]),
            roll=None if roll is None else MovementRoll(dice=int(roll[0]), modifier=int(roll[1])),
            target=None if target is None else HexId(str(target)),
            characters=tuple(
                (CharacterName(str(n)), None if h is None else HexId(str(h)))
                for n, h in state["characters"]
            ),
            rule=EncounterRule(state["rule"]),
            dice=None if state["dice"] is None else tuple(int(d) for d in state["dice"]),
            tie=None if state["tie"] is None else int(state["tie"]),
        )


# --- an encounter -------------------------------------------------------------------------


@dataclass(frozen=True)
class CodexKey:
    """A Codex omen entry to read: ``<Omen> <component ID>`` (Rulebook: Using the Secret)."""

    omen: Omen
    component: str
    """The Reaction card's id."""
    when: str
    """The Secret card's text: when to read it."""

    def __str__(self) -> str:
        return codex_omen_key(self.omen, self.component)


@dataclass(frozen=True)
class EncounterResult:
    """What one encounter did."""

    reaction: str | None
    """The Reaction card resolved (None: no card could be resolved)."""
    set_aside: tuple[str, ...]
    """Cards drawn that could not be resolved, in order."""
    contest: ContestResult | None
    """The contest, if the card had one."""
    effects: tuple[Effect, ...]
    """The effects to resolve: the card's own, then those of the contest's outcome."""
    character: Character
    """The character after the contest (their boosts on the ability degraded)."""
    codex: CodexKey | None
    """The Codex entry the learned secret points to."""
    behemoth: BehemothState
    """The behemoth after: boosts degraded, every card shuffled back (deck unordered)."""


@dataclass(frozen=True)
class EncounterProcedure:
    """A character encounters the behemoth. Build it with :meth:`start`."""

    rules: RulesConstants
    """The pack's rules (the contest's stalemate margin, D16); not saved in the state."""
    behemoth: BehemothState
    """The behemoth as the encounter begins."""
    name: str
    """The behemoth's name."""
    abilities: Mapping[Ability, int]
    """The behemoth's ability values (its board)."""
    cards: tuple[ReactionCard, ...]
    """Its Reaction cards, sorted by id."""
    character: Character
    """The character who encounters it (before the contest)."""
    omens: tuple[Omen, ...]
    """The current omens (sorted)."""
    secret: SecretCard | None = None
    """Its Secret card, when the secret is learned."""
    drawn: tuple[str, ...] = ()
    """Reaction cards drawn so far, in order."""
    die: int | None = None
    """The contest die, once rolled."""
    legends: tuple[Legend, ...] = ()
    """Legend cards the character holds (Rulebook: Legends > Using Legend Cards)."""
    legend: str | None = None
    """How a legend card is used in the contest: "none", "<id>" (its ability value) or
    "<id>:<trait>"; None until asked (only when the character holds one)."""

    kind = "behemoth_encounter"
    """Stable name used in saved state (a class attribute, not a field)."""

    @classmethod
    def start(
        cls,
        rules: RulesConstants,
        state: BehemothState,
        behemoth: Behemoth,
        reactions: Iterable[ReactionCard],
        character: Character,
        current_omens: Iterable[Omen],
        secret: SecretCard | None = None,
        legends: Iterable[Legend] = (),
    ) -> EncounterProcedure:
        """``character`` encounters the behemoth; ``reactions`` are its Reaction cards (at
        least those in its deck), ``secret`` its Secret card (used only once learned)."""
        if str(behemoth.id) != state.behemoth:
            raise IllegalAction(f"the behemoth in play is {state.behemoth}, not {behemoth.id}")
        by_id = {str(c.id): c for c in reactions if str(c.behemoth) == state.behemoth}
        missing = sorted(set(state.reaction_deck) - set(by_id))
        if missing:
            raise IllegalAction(f"no Reaction card {', '.join(missing)} in the content")
        if not state.reaction_deck:
            raise IllegalAction(f"{behemoth.name}'s Reaction deck is empty")
        if secret is not None and str(secret.id) != state.secret:
            raise IllegalAction(f"{behemoth.name}'s Secret card is {state.secret}, not {secret.id}")
        return cls(
            rules=rules,
            behemoth=state,
            name=behemoth.name,
            abilities=dict(behemoth.abilities),
            cards=tuple(by_id[c] for c in sorted(state.reaction_deck)),
            character=character,
            omens=tuple(sorted(set(current_omens))),
            secret=secret if state.secret_learned else None,
            legends=tuple(c for c in legends if c.id in character.legends),
        )

    # --- derived ---------------------------------------------------------------------

    def card(self, card_id: str) -> ReactionCard:
        """One of its Reaction cards."""
        return card_of(self.cards, card_id, f"there is no Reaction card {card_id}")

    def resolvable(self, card: ReactionCard) -> bool:
        """True if the card can be resolved now (Rulebook: Reaction Deck: "The current
        omen often dictates which reaction cards can be resolved")."""
        return not card.requires_omens or any(o in self.omens for o in card.requires_omens)

    def pile(self) -> tuple[str, ...]:
        """The cards still in the Reaction deck (top first when ordered)."""
        return tuple(c for c in self.behemoth.reaction_deck if c not in self.drawn)

    def resolving(self) -> ReactionCard | None:
        """The card being resolved (the last drawn, if it can be resolved)."""
        if self.drawn:
            card = self.card(self.drawn[-1])
            if self.resolvable(card):
                return card
        return None

    # --- the protocol ------------------------------------------------------------------

    def step(self) -> Step:
        """What is asked now."""
        if self.is_finished():
            raise IllegalAction("the encounter is over")
        card = self.resolving()
        if card is not None and self.legends and self.legend is None:
            assert card.contest is not None
            return self._legend_step(card.contest)
        if card is not None:
            assert card.contest is not None
            value = self.abilities[card.contest]
            boosts = sum(self.behemoth.boosts.get(card.contest, ()))
            extra = f" + boosts {boosts}" if boosts else ""
            own = self.character.abilities.get(card.contest, 0)
            mine = sum(self.character.boosts.get(card.contest, ()))
            margin = self.rules.contest.stalemate_margin
            results = card.results
            return Step(
                f"{self.character.name}: roll 1 die for the contest of {card.contest.value} "
                f"against {self.name} ({value}{extra}): die + {card.contest.value} {own}"
                + (f" + boosts {mine}" if mine else "")
                + f" must beat {value}{extra}. Success: {effects_text(results.success)}. "
                f"Stalemate (equal, or short by {margin} or less): "
                f"{effects_text(results.stalemate)}. "
                f"Defeat: {effects_text(results.defeat)}.",
                Decider.DICE,
                count=1,
            )
        pile = self.pile()
        if self.behemoth.reaction_ordered:
            options: tuple[str, ...] = (pile[0],)
            prompt = f"Draw the top Reaction card ({pile[0]})"
        else:
            options = tuple(sorted(pile))
            prompt = "Draw a Reaction card from the shuffled deck"
        labels = {c: f"{c}: {self.card(c).text}" for c in options}
        return Step(prompt, Decider.CARD, options, labels=labels)

    def _legend_step(self, ability: Ability) -> Step:
        labels = {"none": "no legend card"}
        for card in self.legends:
            labels[str(card.id)] = (f"the legend of {card.name}: its {ability.value} "
                                    f"{card.abilities.get(ability, 0)}")
            for trait in card.traits:
                labels[f"{card.id}:{trait}"] = f"the legend of {card.name}: count as {trait}"
        return Step(f"{self.character.name}: use a legend card in the contest of "
                    f"{ability.value}?", Decider.PLAYER, tuple(labels), labels=labels)

    def apply(self, choice: Choice) -> EncounterProcedure:
        """The next state after ``choice`` (at a draw, any card still in the deck may be
        typed: the table draws what it draws)."""
        step = self.step()
        if step.decider is Decider.PLAYER:
            if choice not in step.options:
                raise IllegalAction(f"choose one of {', '.join(step.options)}; got {choice!r}")
            return replace(self, legend=str(choice))
        if step.decider is Decider.DICE:
            (die,) = check_dice(step, choice)
            return replace(self, die=die)
        pile = self.pile()
        if not isinstance(choice, str) or choice not in pile:
            raise IllegalAction(
                f"{choice!r} is not in {self.name}'s Reaction deck "
                f"(cards left: {', '.join(sorted(pile)) or 'none'})"
            )
        return replace(self, drawn=(*self.drawn, choice))

    def is_finished(self) -> bool:
        """A card resolved (its contest rolled), or no card left to draw."""
        card = self.resolving()
        if card is not None:
            return card.contest is None or self.die is not None
        return not self.pile()

    def result(self) -> EncounterResult:
        """What the encounter did (complete once finished)."""
        card = self.resolving()
        set_aside = self.drawn[:-1] if card is not None else self.drawn
        contest_result: ContestResult | None = None
        character = self.character
        boosts = dict(self.behemoth.boosts)
        effects: tuple[Effect, ...] = ()
        codex: CodexKey | None = None
        if card is not None:
            effects = card.effects
            if card.contest is not None and self.die is not None:
                legend, trait = self._legend_used()
                contest_result, character, left = contest(
                    self.rules,
                    self.character,
                    card.contest,
                    self.die,
                    self.abilities[card.contest],
                    self.behemoth.boosts.get(card.contest, ()),
                    legend=legend,
                    legend_trait=trait,
                )
                boosts[card.contest] = left
                effects = (*effects, *_results(card, contest_result.outcome))
            if self.secret is not None:
                codex = CodexKey(self.secret.omen, str(card.id), self.secret.text)
        behemoth = replace(
            self.behemoth,
            boosts=boosts,
            reaction_deck=tuple(sorted(self.behemoth.reaction_deck)),
            reaction_ordered=False,
        )
        return EncounterResult(
            reaction=None if card is None else str(card.id),
            set_aside=set_aside,
            contest=contest_result,
            effects=effects,
            character=character,
            codex=codex,
            behemoth=behemoth,
        )

    def _legend_used(self) -> tuple[Legend | None, Trait | None]:
        if not self.legend or self.legend == "none":
            return None, None
        card_id, _, trait = self.legend.partition(":")
        card = next(c for c in self.legends if str(c.id) == card_id)
        return card, Trait(trait) if trait else None

    def log(self) -> tuple[str, ...]:
        """What happened, in game words."""
        lines = [f"{self.character.name} encounters {self.name}."]
        for card_id in self.drawn:
            card = self.card(card_id)
            if self.resolvable(card):
                lines.append(f"Reaction card {card_id}: {card.text}")
            else:
                needs = " or ".join(o.value for o in card.requires_omens)
                lines.append(f"Reaction card {card_id} needs the {needs} omen: set aside.")
        if not self.is_finished():
            return tuple(lines)
        result = self.result()
        if result.reaction is None:
            lines.append("No Reaction card can be resolved.")
        if result.contest is not None:
            c = result.contest
            legend, trait = self._legend_used()
            if legend is not None:
                how = f"counting as {trait}" if trait else "its ability value"
                lines.append(f"{self.character.name} uses the legend of {legend.name} "
                             f"({how}); it returns to the unassigned legends.")
            lines.append(
                f"Contest of {c.test.ability.value}: {c.test.total} against "
                f"{c.behemoth_score}: {c.outcome.value}."
            )
        for effect in result.effects:
            lines.append(f"Effect: {_effect_text(effect)}.")
        if result.codex is not None:
            lines.append(f"Secret: read {result.codex} ({result.codex.when})")
        lines.append("Every Reaction card is shuffled back into the deck.")
        return tuple(lines)

    def outcome(self) -> Outcome:
        """The encounter as data; ``extra`` holds the effects (as pack data), the contest,
        the character and the behemoth after, and the Codex key of the secret."""
        result = self.result()
        contest_data: dict[str, Any] | None = None
        if result.contest is not None:
            c = result.contest
            contest_data = {
                "ability": c.test.ability.value,
                "total": c.test.total,
                "behemoth_score": c.behemoth_score,
                "outcome": c.outcome.value,
            }
        return Outcome(
            log=self.log(),
            extra={
                "reaction": result.reaction,
                "set_aside": list(result.set_aside),
                "contest": contest_data,
                "effects": [
                    e.model_dump(mode="json", exclude_defaults=True) for e in result.effects
                ],
                "character": encode(result.character),
                "codex": None
                if result.codex is None
                else {
                    "omen": result.codex.omen.value,
                    "component": result.codex.component,
                    "when": result.codex.when,
                },
                "behemoth": result.behemoth.to_data(),
            },
        )

    def describe(self) -> str:
        """The encounter so far."""
        omens = ", ".join(o.value for o in self.omens) or "none"
        return "\n".join((*self.log(), f"Current omens: {omens}."))

    def to_state(self) -> dict[str, Any]:
        """JSON-safe snapshot (cards included; the rules are the pack's, passed back to
        :meth:`from_state`)."""
        return {
            "kind": self.kind,
            "behemoth": self.behemoth.to_data(),
            "name": self.name,
            "abilities": {a.value: v for a, v in sorted(self.abilities.items())},
            "cards": [c.model_dump(mode="json") for c in self.cards],
            "character": encode(self.character),
            "omens": [o.value for o in self.omens],
            "secret": None if self.secret is None else self.secret.model_dump(mode="json"),
            "drawn": list(self.drawn),
            "die": self.die,
            "legends": [encode(c) for c in self.legends],
            "legend": self.legend,
        }

    @classmethod
    def from_state(cls, state: Mapping[str, Any], rules: RulesConstants) -> EncounterProcedure:
        """Rebuild a procedure from :meth:`to_state` and the pack's rules."""
        if state.get("kind") != cls.kind:
            raise IllegalAction(f"not a behemoth encounter: {state.get('kind')!r}")
        secret = state["secret"]
        return cls(
            rules=rules,
            behemoth=BehemothState.from_data(state["behemoth"]),
            name=str(state["name"]),
            abilities={Ability(a): int(v) for a, v in state["abilities"].items()},
            cards=tuple(ReactionCard.model_validate(c) for c in state["cards"]),
            character=decode(Character, state["character"]),
            omens=tuple(Omen(o) for o in state["omens"]),
            secret=None if secret is None else SecretCard.model_validate(secret),
            drawn=tuple(str(c) for c in state["drawn"]),
            die=None if state["die"] is None else int(state["die"]),
            legends=tuple(decode(Legend, c) for c in state.get("legends", [])),
            legend=state.get("legend"),
        )


def _results(card: ReactionCard, outcome: ContestOutcome) -> tuple[Effect, ...]:
    if outcome is ContestOutcome.SUCCESS:
        return card.results.success
    if outcome is ContestOutcome.STALEMATE:
        return card.results.stalemate
    return card.results.defeat


def _effect_text(effect: Effect) -> str:
    if effect.text:
        return effect.text
    data = effect.model_dump(mode="json", exclude_defaults=True)
    do = data.pop("do", "")
    return f"{do} " + ", ".join(f"{k} {v}" for k, v in data.items())


_a: type[Procedure] = ActivationProcedure
_e: type[Procedure] = EncounterProcedure
