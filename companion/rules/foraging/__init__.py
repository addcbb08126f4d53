"""Foraging (Rulebook: Foraging, steps 1-5, List of Objects, List of Bonus Objects,
Animal Encounters; readings D1, D5, D6).

The character builds a **tableau** of forage cards from the feature's deck (forest or
plains), each card three **rows** (front, middle, back) of objects; then harvests one
type of object **within reach**, up to the **harvest cap**, or has an animal encounter.

:class:`ForagingProcedure` walks the steps (chance as input, see
:mod:`companion.rules.procedure`); :func:`within_reach`, :func:`legal_expansion_choices`,
:func:`harvest_yield` and :func:`encounter_difficulty` are the pure pieces, and
:meth:`ForagingProcedure.view` is the tableau as data a dialog can draw.

Readings this module takes (each also where it is applied):

- *Reach, row by row.* A row of a card lies at the same distance as that row of every
  other card: an object is within reach in the front row, or when each earlier row holds,
  on some card of the tableau, an animal path or a chosen object of the same type. So
  animal paths chain across cards (an animal path in one card's front row and one in
  another card's middle row bring every back row within reach). Animal paths are never
  harvested themselves (they yield nothing).
- *Animals reached by their own kind.* Predators and large prey are chosen one at a
  time at most, so only animal paths bring them beyond the front row ("some animals can
  be reached only by animal paths"); small prey (up to three) follow the general rule.
- *A front-row predator at any time.* "If there is ever a predator in the tableau in the
  front row" applies to the card kept at step 1 as well as to each card added at step 2;
  the encounter then ends foraging with no harvest.
- *Bonus objects on animals.* Bonus objects on a hunted prey are gained only if the hunt
  succeeds; a predator encounter yields no harvest, bonus objects included (D20, the
  least favourable reading).
- *A short deck.* When fewer than two cards are left to draw at step 2, the character
  draws what is left; with none left they cannot continue searching.
- The action's energy cost (D1) is paid by the Forage action, not by this procedure.

Where each part lives: :mod:`~companion.rules.foraging.tableau` (steps 1, 2 and 4's
reach), :mod:`~companion.rules.foraging.harvest` (step 4's harvest, Animal Encounters)
and :mod:`~companion.rules.foraging.procedure` (the steps in order, saved and resumed).
"""

# The package face: each module's __all__ is its share of the public API.
from companion.rules.foraging.harvest import *  # noqa: F403
from companion.rules.foraging.procedure import *  # noqa: F403
from companion.rules.foraging.tableau import *  # noqa: F403
