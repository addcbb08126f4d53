"""Delving (Rulebook: Delving, steps 1-4, Depth, Exit; readings D4, D17).

Delving is locked until a game effect grants the society access to it (D4): the
operations layer checks the campaign flag before starting a :class:`DelvingProcedure`
(``companion.rules.day.feature_action`` refuses Delve until then); this module assumes it.

The character draws a first card with no requirement, resolves its effects (tests are
dice steps), then continues by the left- or right-hand path printed under the effects, or
retraces their path. Each further card is the first of the deck whose icon matches the
chosen path and whose depth requirement is met (the set-aside cards are shuffled back,
so every matching card is equally likely to come). **Depth** is the number of cards
resolved so far; from ``rules.delving.costly_from_depth`` each further card costs
``energy_per_costly_card``. A card may tell the character to **exit**: they are placed by
depth (``rules.delving.exits``) in a hex with a cave or chasm.

:func:`eligible_cards`, :func:`card_cost`, :func:`exit_scope` and :func:`exit_hexes` are
the pure pieces; :attr:`DelvingProcedure.path` and :attr:`DelvingProcedure.depth` are
the delve as a dialog draws it.

Readings this module takes:

- *Depth counts the card being resolved.* A card that says exit is resolved when its
  exit applies, so the first card exits at depth 1 (the exit table begins at 1); the card
  after the seventh (depth 7) is the first to cost energy (D17).
- *Energy.* The character's energy is :attr:`Character.energy` when the delve starts (the
  Delve action already paid), plus what the delve's effects and costs changed. Without
  energy for the next card the character cannot continue: the delve ends at once and they
  return to the hex where they entered.
- *A path that leads nowhere.* A direction for which no card of the deck matches (icon
  and depth) cannot be taken; with no direction left the delve ends and the character
  retraces their path.
- *Caves and chasms* are the features offering the Delve action. An unexplored hex is a
  candidate only when its tile is known (at the table: its cave or chasm is visible
  through the fog); choosing it explores it (``extra["explore"]``).
- The action's energy cost (D4) is paid by the Delve action, not by this procedure.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

from companion.content.schema.base import FeatureAction
from companion.content.schema.cards import DelvingCard
from companion.content.schema.effects import Effect, Test
from companion.content.schema.rules import Delving
from companion.rules.character import Character
from companion.rules.checks import ability_test, stakes_prompt
from companion.rules.decks import card_of, deck_from_json, deck_state, deck_text, resource_tokens
from companion.rules.effects import (
    Tally,
    describe_effect,
    effects_from_data,
    effects_text,
    effects_to_data,
    referenced_resources,
    token_from_state,
    token_to_state,
)
from companion.rules.errors import IllegalAction
from companion.rules.exploration import Place, Terrain, Valley
from companion.rules.night_codec import decode, encode
from companion.rules.procedure import (
    Choice,
    Decider,
    Outcome,
    Procedure,
    Step,
    check_dice,
    check_option,
)
from companion.rules.resources import BagToken

LEFT = "left"
"""Step 2 option: continue by the left-hand path."""
RIGHT = "right"
"""Step 2 option: continue by the right-hand path."""
RETRACE = "retrace"
"""Step 2 option: retrace your path (end the delve)."""


# --- the pure pieces ------------------------------------------------------------------


def eligible_cards(
    deck: Iterable[DelvingCard], depth: int, icon: str | None, on_path: Iterable[str] = ()
) -> tuple[str, ...]:
    """The cards that can come next (step 1 when ``icon`` is None, else step 3).

    Step 1: "Shuffle the Delving deck until the card on top has no requirement"; step 3:
    "Set aside Delving cards until the top card of the Delving deck has an icon matching
    that of the chosen direction and any depth requirements are currently met." Cards
    already on the path are not in the deck.

    >>> from companion.content.schema.cards import DelvingCard as C
    >>> deck = [C(id="a", icon="fang"), C(id="b", icon="fang", min_depth=3),
    ...         C(id="c", icon="drip")]
    >>> eligible_cards(deck, 0, None), eligible_cards(deck, 2, "fang")
    (('a', 'c'), ('a',))
    >>> eligible_cards(deck, 3, "fang"), eligible_cards(deck, 3, "fang", on_path=["a"])
    (('a', 'b'), ('b',))
    """
    used = set(on_path)
    out = []
    for card in deck:
        if card.id in used:
            continue
        if icon is None:
            if card.min_depth is None:
                out.append(card.id)
        elif card.icon == icon and (card.min_depth is None or depth >= card.min_depth):
            out.append(card.id)
    return tuple(out)


def card_cost(rules: Delving, depth: int) -> int:
    """Energy the next card costs at ``depth`` (cards resolved so far; D17).

    >>> from companion.content.schema.rules import Delving
    >>> rules = Delving(costly_from_depth=7, energy_per_costly_card=1, exits=[])
    >>> [card_cost(rules, d) for d in (0, 6, 7, 9)]
    [0, 0, 1, 1]
    """
    return rules.energy_per_costly_card if depth >= rules.costly_from_depth else 0


def exit_scope(rules: Delving, depth: int) -> str | None:
    """Where an exit at ``depth`` may place the character: adjacent, region or anywhere
    (Rulebook: Delving > Exit; D17); None if the table has no row for that depth."""
    for row in rules.exits:
        if depth >= row.min_depth and (row.max_depth is None or depth <= row.max_depth):
            return row.scope
    return None


@dataclass(frozen=True, order=True)
class ExitHex:
    """A hex with a cave or chasm the character could be placed in by an exit."""

    hex: str
    """Its tile id."""
    adjacent: bool
    """Adjacent to the hex where the character entered."""
    same_region: bool
    """In the region of the hex where the character entered."""
    explored: bool
    """Face up; a face-down hex is explored when chosen."""
    where: str = ""
    """A face-down hex in words ("the unexplored hex north of E01"): its tile stays
    unnamed until flipped (Valley > Hexes)."""

    @property
    def shown(self) -> str:
        """The hex as the table may see it: its tile id once explored, else where it lies."""
        return self.hex if self.explored else (self.where or "an unexplored hex")

    def in_scope(self, scope: str) -> bool:
        """Whether an exit of ``scope`` (adjacent, region, anywhere) reaches it."""
        if scope == "adjacent":
            return self.adjacent
        if scope == "region":
            return self.same_region
        return scope == "anywhere"


def _delvable(terrain: Terrain, tile: str) -> bool:
    hex_tile = terrain.hexes.get(tile)
    if hex_tile is None:
        return False
    for feature_id in hex_tile.sections.values():
        feature = terrain.features.get(str(feature_id)) if feature_id else None
        if feature is not None and any(a.action is FeatureAction.DELVE for a in feature.actions):
            return True
    return False


def exit_hexes(valley: Valley, terrain: Terrain, entered: Place) -> tuple[ExitHex, ...]:
    """Every other hex of the valley with a cave or chasm (a feature offering Delve),
    with where it lies relative to the hex where the character ``entered``.

    Face-down hexes whose tile nobody has read yet are left out: what is under the fog
    is not known to the companion (reading; the table can read the tile first)."""
    start = valley.locate(entered)
    region = valley.region_of(start)
    out = []
    for cell in valley.cells():
        tile = valley.tiles[cell]
        if cell == start or tile is None or not _delvable(terrain, tile):
            continue
        out.append(
            ExitHex(
                str(tile),
                adjacent=cell.is_adjacent(start),
                same_region=valley.region_of(cell) == region,
                explored=cell in valley.explored,
                where="" if cell in valley.explored else valley.name(cell),
            )
        )
    return tuple(sorted(out))


def legal_exits(
    rules: Delving, depth: int, candidates: Iterable[ExitHex], entered: str
) -> tuple[str, ...]:
    """The hexes an exit at ``depth`` may place the character in: the hex where they
    entered, then the candidates in scope (Rulebook: Delving > Exit)."""
    scope = exit_scope(rules, depth)
    reach = [c.hex for c in candidates if scope is not None and c.in_scope(scope)]
    return (entered, *[h for h in reach if h != entered])


# --- the procedure --------------------------------------------------------------------


class Phase(StrEnum):
    """Where a delve stands."""

    DRAW = "draw"
    """Step 1 or 3: draw the next card."""
    TEST = "test"
    """Step 2: a test among the card's effects: roll one die."""
    CHOOSE = "choose"
    """Step 2: continue by the left- or right-hand path, or retrace."""
    EXIT = "exit"
    """The card says exit: choose where the character is placed."""
    DONE = "done"
    """Step 4: the activity has ended."""


@dataclass(frozen=True)
class DelvingProcedure:
    """The Delve activity, step by step (Rulebook: Delving). Build it with :meth:`start`."""

    character: Character
    """Who delves (after each test: its boosts used and degraded)."""
    deck: tuple[DelvingCard, ...]
    """The delving deck."""
    rules: Delving
    """Depth costs and exits (RulesConstants.delving, D17)."""
    entered: str
    """The hex (tile id) where the character entered."""
    candidates: tuple[ExitHex, ...]
    """Other hexes with a cave or chasm (:func:`exit_hexes`)."""
    tokens: Mapping[str, BagToken]
    """Resource id -> token gained, for every resource the deck can yield."""
    phase: Phase = Phase.DRAW
    path: tuple[str, ...] = ()
    """The cards resolved or being resolved, in order (the delve's path)."""
    direction: str | None = None
    """The icon the next card must show (None: step 1, no requirement)."""
    queue: tuple[Effect, ...] = ()
    """The current card's effects still to resolve (a test first when phase is TEST)."""
    exit_hex: str | None = None
    """Where the delve ended: the exit chosen, or the hex where they entered."""
    tally: Tally = Tally()
    tests: tuple[Mapping[str, Any], ...] = ()
    """The tests made: ability, die, total, difficulty, success."""
    deck_json: str = field(default="", compare=False, repr=False)
    """The deck as JSON text (a cache for resuming)."""

    kind = "delving"
    """Stable name used in saved state (a class attribute, not a field)."""

    @classmethod
    def start(
        cls,
        character: Character,
        deck: Iterable[DelvingCard],
        rules: Delving,
        entered: str,
        candidates: Iterable[ExitHex],
        tokens: Mapping[str, BagToken],
    ) -> DelvingProcedure:
        """A new delve from the hex ``entered`` (a tile id with a cave or chasm).

        ``candidates`` is :func:`exit_hexes` for the valley; ``tokens`` the pack's token
        catalogue. Delving must be unlocked (checked by the operations layer, D4)."""
        cards = tuple(deck)
        if len({c.id for c in cards}) != len(cards):
            raise IllegalAction("the delving deck lists a card twice")
        if not eligible_cards(cards, 0, None):
            raise IllegalAction("no delving card is without a requirement: the delve cannot begin")
        wanted = referenced_resources(_all_effects(e for c in cards for e in c.effects))
        known = resource_tokens(wanted, tokens)
        text = deck_text(cards)
        return cls(
            character=character,
            deck=deck_from_json(DelvingCard, text),
            rules=rules,
            entered=entered,
            candidates=tuple(sorted(candidates)),
            tokens=known,
            deck_json=text,
        )

    # -- reading the delve --------------------------------------------------------

    def card(self, card_id: str) -> DelvingCard:
        """A card of the deck by id."""
        return card_of(self.deck, card_id, f"{card_id} is not a card of the delving deck")

    @property
    def depth(self) -> int:
        """Cards resolved so far (the card being resolved counts; see the module)."""
        return len(self.path)

    @property
    def energy(self) -> int:
        """The character's energy now: at the start of the delve, plus what it changed."""
        return max(0, self.character.energy + self.tally.energy)

    def _directions(self) -> dict[str, str]:
        """Direction option -> icon, for the directions that lead to a card now."""
        if not self.path:
            return {}
        paths = self.card(self.path[-1]).paths
        if paths is None:
            return {}
        out = {}
        for option, icon in ((LEFT, paths.left), (RIGHT, paths.right)):
            if eligible_cards(self.deck, self.depth, icon, self.path):
                out[option] = icon
        return out

    # -- the protocol -------------------------------------------------------------

    def step(self) -> Step:
        """What is asked now."""
        if self.phase is Phase.DRAW:
            options = eligible_cards(self.deck, self.depth, self.direction, self.path)
            if self.direction is None:
                prompt = "Step 1: draw the first delving card with no requirement"
            else:
                # The card drawn lies one deeper (the board says "Next, depth N" too).
                prompt = (f"Step 3: draw the next card showing {self.direction} "
                          f"(depth {self.depth + 1})")
            return Step(prompt, Decider.CARD, options)
        if self.phase is Phase.TEST:
            test = self.queue[0]
            assert isinstance(test, Test)
            return Step(
                stakes_prompt(self.character, test.ability, test.difficulty,
                            success=effects_text(test.success),
                            failure=effects_text(test.failure)),
                Decider.DICE,
                count=1,
            )
        if self.phase is Phase.CHOOSE:
            directions = self._directions()
            cost = card_cost(self.rules, self.depth)
            extra = f", costs {cost} energy" if cost else ""
            labels = {o: f"{o}-hand path, towards {icon}{extra}" for o, icon in directions.items()}
            labels[RETRACE] = "retrace your path"
            return Step(
                "Step 2: continue the delve, or retrace your path",
                Decider.PLAYER,
                (*directions, RETRACE),
                labels=labels,
            )
        if self.phase is Phase.EXIT:
            options = legal_exits(self.rules, self.depth, self.candidates, self.entered)
            by_hex = {c.hex: c for c in self.candidates}
            labels = {self.entered: f"{self.entered} (where you entered)"}
            for h in options[1:]:
                labels[h] = h if by_hex[h].explored else (
                    f"{by_hex[h].shown} (a cave or chasm shows through the fog: explore it)")
            return Step(
                f"Exit at depth {self.depth}: choose where to come out",
                Decider.PLAYER,
                options,
                labels=labels,
            )
        raise IllegalAction("the delve is over")

    def apply(self, choice: Choice) -> DelvingProcedure:
        """The next state after ``choice``."""
        step = self.step()
        if self.phase is Phase.TEST:
            return self._test(check_dice(step, choice)[0])
        key = check_option(step, choice)
        if self.phase is Phase.DRAW:
            return self._draw(key)
        if self.phase is Phase.CHOOSE:
            if key == RETRACE:
                return self._end(self.tally.note(f"{self.character.name} retraces their path."))
            icon = self._directions()[key]
            return replace(
                self,
                phase=Phase.DRAW,
                direction=icon,
                tally=self.tally.note(f"Takes the {key}-hand path, towards {icon}."),
            )
        # Phase.EXIT
        candidate = {c.hex: c for c in self.candidates}.get(key)
        explore = candidate is not None and not candidate.explored
        line = f"Exits at {key}" + (" and explores it." if explore else ".")
        return replace(self, phase=Phase.DONE, exit_hex=key, tally=self.tally.note(line))

    def _draw(self, card_id: str) -> DelvingProcedure:
        cost = card_cost(self.rules, self.depth) if self.path else 0
        card = self.card(card_id)
        tally = self.tally
        if cost:
            tally = replace(tally, energy=tally.energy - cost)
        text = f"Depth {self.depth + 1}: {card.id}" + (f" ({card.text})" if card.text else "")
        tally = tally.note(text + (f"; paid {cost} energy." if cost else "."))
        proc = replace(self, path=(*self.path, card_id), queue=card.effects, tally=tally)
        return proc._resolve()

    def _resolve(self) -> DelvingProcedure:
        """Resolve the queued effects up to the next test; then exit, choose or end."""
        tally, queue = self.tally, self.queue
        while queue and not isinstance(queue[0], Test):
            effect, queue = queue[0], queue[1:]
            tally = tally.apply([effect], self.tokens).note(
                describe_effect(effect).capitalize() + "."
            )
        proc = replace(self, tally=tally, queue=queue)
        if queue:
            return replace(proc, phase=Phase.TEST)
        card = self.card(self.path[-1])
        if card.exit:
            return replace(proc, phase=Phase.EXIT, tally=tally.note("The card says exit."))
        if card.paths is None:
            return proc._end(tally.note("The way ends here: the character retraces their path."))
        if not proc._directions():
            return proc._end(tally.note("No path leads on: the character retraces their path."))
        cost = card_cost(self.rules, self.depth)
        if cost > proc.energy:
            # Rulebook: Delving > Depth: without energy for another card the delve ends and
            # the character returns to the hex where they entered.
            return proc._end(
                tally.note(f"No energy for a card at depth {self.depth}: the delve ends.")
            )
        return replace(proc, phase=Phase.CHOOSE)

    def _test(self, die: int) -> DelvingProcedure:
        test = self.queue[0]
        assert isinstance(test, Test)
        result, character = ability_test(self.character, test.ability, die)
        success = result.total >= test.difficulty
        line = (
            f"Test {test.ability.value}: {die} + {result.ability_value}"
            + (f" + {result.boosts} boosts" if result.boosts else "")
            + f" = {result.total} vs {test.difficulty}+: {'success' if success else 'failure'}."
        )
        record = {
            "ability": test.ability.value,
            "die": die,
            "total": result.total,
            "difficulty": test.difficulty,
            "success": success,
        }
        follow = test.success if success else test.failure
        return replace(
            self,
            character=character,
            queue=(*follow, *self.queue[1:]),
            tally=self.tally.note(line),
            tests=(*self.tests, record),
        )._resolve()

    def _end(self, tally: Tally) -> DelvingProcedure:
        return replace(self, phase=Phase.DONE, exit_hex=self.entered, queue=(), tally=tally)

    def is_finished(self) -> bool:
        """Step 4: the activity has ended."""
        return self.phase is Phase.DONE

    def outcome(self) -> Outcome:
        """What the delve did: tokens, energy; ``extra`` has the path, the depth, the hex
        the character ends in (``exit_hex``) and whether to explore it (``explore``)."""
        candidate = {c.hex: c for c in self.candidates}.get(self.exit_hex or "")
        return self.tally.outcome(
            {
                "path": list(self.path),
                "depth": self.depth,
                "exit_hex": self.exit_hex,
                "explore": candidate is not None and not candidate.explored,
                "tests": [dict(t) for t in self.tests],
            }
        )

    def describe(self) -> str:
        """The path so far and what happened."""
        lines = [
            f"{self.character.name} delves from {self.entered} (depth {self.depth}, "
            f"energy {self.energy}).",
            "Path: " + (" > ".join(self.path) or "nothing yet"),
            *self.tally.log,
        ]
        return "\n".join(lines)

    def to_state(self) -> dict[str, Any]:
        """JSON-safe snapshot (cards included, so it resumes without content)."""
        return {
            "kind": self.kind,
            "character": encode(self.character),
            "deck": deck_state(self.deck_json, self.deck),
            "rules": self.rules.model_dump(mode="json"),
            "entered": self.entered,
            "candidates": [encode(c) for c in self.candidates],
            "tokens": {k: token_to_state(t) for k, t in self.tokens.items()},
            "phase": self.phase.value,
            "path": list(self.path),
            "direction": self.direction,
            "queue": effects_to_data(self.queue),
            "exit_hex": self.exit_hex,
            "tally": self.tally.to_state(),
            "tests": [dict(t) for t in self.tests],
        }

    @classmethod
    def from_state(cls, state: Mapping[str, Any]) -> DelvingProcedure:
        """Rebuild a procedure from :meth:`to_state`."""
        if state.get("kind") != "delving":
            raise IllegalAction(f"not a delving state: {state.get('kind')!r}")
        text = json.dumps(state["deck"])
        return cls(
            character=decode(Character, state["character"]),
            deck=deck_from_json(DelvingCard, text),
            rules=Delving.model_validate(state["rules"]),
            entered=state["entered"],
            candidates=tuple(decode(ExitHex, c) for c in state["candidates"]),
            tokens={k: token_from_state(t) for k, t in state["tokens"].items()},
            phase=Phase(state["phase"]),
            path=tuple(state["path"]),
            direction=state["direction"],
            queue=effects_from_data(state["queue"]),
            exit_hex=state["exit_hex"],
            tally=Tally.from_state(state["tally"]),
            tests=tuple(dict(t) for t in state["tests"]),
            deck_json=text,
        )


def _all_effects(effects: Iterable[Effect]) -> list[Effect]:
    """``effects`` with the effects nested in tests, depth first."""
    out: list[Effect] = []
    for effect in effects:
        out.append(effect)
        if isinstance(effect, Test):
            out += _all_effects((*effect.success, *effect.failure))
    return out


def path_cards(proc: DelvingProcedure) -> Sequence[DelvingCard]:
    """The delve's path as cards, in order (for the dialog)."""
    return [proc.card(c) for c in proc.path]


_: type[Procedure] = DelvingProcedure
