"""The rules layer: the game's state transitions, legality and chance as input.

Pure functions over frozen dataclasses; imports only the standard library and
``companion.content`` types (see docs/ARCHITECTURE.md). One module per area:

- :mod:`~companion.rules.errors` - ``IllegalAction``
- :mod:`~companion.rules.chance` - the seeded, serialisable ``Chance``
- :mod:`~companion.rules.character`, :mod:`~companion.rules.creation` - characters
- :mod:`~companion.rules.health` - health and energy tracks, boosts, perishing, ageing
- :mod:`~companion.rules.checks` - dice, ability tests, contests
- :mod:`~companion.rules.legends` - legend cards
- :mod:`~companion.rules.inventory`, :mod:`~companion.rules.resources` - items and the bag
- :mod:`~companion.rules.game`, :mod:`~companion.rules.day` - the Day phase and its actions
- :mod:`~companion.rules.outposts`, :mod:`~companion.rules.valley` - outposts, hex tokens
- :mod:`~companion.rules.society` - unrest, activity, lore, culture, mantle powers
- :mod:`~companion.rules.challenge` - choosing, setting up and ending challenges
- :mod:`~companion.rules.omens` - current omens and investigations
"""
