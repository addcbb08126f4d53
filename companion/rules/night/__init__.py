"""The Night phase as one resumable procedure (Rulebook: Game Structure > Night Phase).

:class:`NightProcedure` walks the Night in the rulebook's order and never lets a step be
skipped or reordered:

1. Night Phase Begins: effects "at the start of the Night phase"; each incapacitated
   character perishes (Rulebook: Mantle > Incapacitation; Character Death). Hardcore solo
   (reading D19): a Night card is burnt, activity +1 + its amount.
2. Rest: automatic energy (D9), the food in the appetite slot, the water in the thirst
   slot, shelter or fire in the hex, capped at the track's maximum; Energized, Needs Met,
   Starving.
3. Degrade Food, in bags and storage containers.
4. Tend Fire: each fire goes out unless a character in the hex spends one wood.
5. Night Actions granted by items, each once per character, in any order.
6. Reconcile Inventory: discard what does not fit in the bag (plus item storage).
7. Draw Night Cards: one per hex with characters; unmet requirements discard the card and
   another is drawn; an empty deck reshuffles the discard; Solo / Champion / Group.
8. Increase Activity: each resolved card's amount, then unrest (D10).
9. Night Phase Ends: effects "at the end of the Night phase", activity events (D7), the
   offers to learn the behemoth's habits and secret (D18), the behemoth's activation.

Every player decision is a PLAYER step; every die a DICE step; every card a CARD step
whose option is the top of the persisted Night deck (the table may type any card id
still in the deck). Steps the rules decide alone happen between those steps and are
written to the log.

**How it is built.** The Night is one generator (``procedure._night``) that yields the
steps and receives the choices. A :class:`NightProcedure` is the facts, the table at
nightfall and the choices made so far; its state is recomputed by replaying the choices,
so a saved Night (``to_state``: the table and the choices, JSON-safe) resumes at the
same step with the same partial results, by construction.

**Where each step lives**, in the rulebook's order:

- :mod:`~companion.rules.night.begin` - 1. Night Phase Begins
- :mod:`~companion.rules.night.rest` - 2. Rest; 3. Degrade Food
- :mod:`~companion.rules.night.fire` - 4. Tend Fire
- :mod:`~companion.rules.night.actions` - 5. Night Actions; 6. Reconcile Inventory
- :mod:`~companion.rules.night.cards` - 7. Draw Night Cards; 8. Increase Activity
- :mod:`~companion.rules.night.end` - 9. Night Phase Ends
- :mod:`~companion.rules.night.procedure` - the steps in order, saved and resumed

Below them: :mod:`~companion.rules.night.facts` (what the Night reads and computed),
:mod:`~companion.rules.night.run` (one replay's working state) and
:mod:`~companion.rules.night.effects` (effects of cards in play, the effect vocabulary,
the events the activity reaches at once).
"""

from companion.rules.night.facts import (
    STATE_VERSION,
    TABLE_CARD,
    BehemothAtNight,
    NightFacts,
    NightItem,
    NightResult,
    NightStage,
    NightTable,
    RestBreakdown,
    TimedEffect,
    is_table_card,
    table_card,
)
from companion.rules.night.procedure import NightProcedure

__all__ = [
    "STATE_VERSION",
    "TABLE_CARD",
    "BehemothAtNight",
    "NightFacts",
    "NightItem",
    "NightProcedure",
    "NightResult",
    "NightStage",
    "NightTable",
    "RestBreakdown",
    "TimedEffect",
    "is_table_card",
    "table_card",
]
