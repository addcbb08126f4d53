"""The one error of the rules layer.

A rule that is refused raises :class:`IllegalAction`; its message says what was refused
and why, in the game's own words. Every rules function is pure (it returns new state and
never mutates its arguments), so a refused action changes nothing by construction.
"""

from __future__ import annotations


class IllegalAction(Exception):
    """An action or choice the rules do not allow, e.g. "Ash has 1 energy; Explore costs 2"."""
