"""Rulebook: Legends > Gaining Legend Cards, Using Legend Cards."""

from __future__ import annotations

import pytest

from companion.rules.errors import IllegalAction
from companion.rules.ids import LegendId, Mark, Trait
from companion.rules.legends import (
    Legend,
    LegendPool,
    choose_legend,
    draw_legend,
    has_trait,
    return_legend,
)
from tests.rules.factories import make

L1, L2, L3 = LegendId("L1"), LegendId("L2"), LegendId("L3")
POOL = LegendPool((L1, L2, L3))


@pytest.mark.parametrize(("pick", "drawn", "left"), [(0, L1, (L2, L3)), (2, L3, (L1, L2))])
def test_gaining_legend_cards_draw_at_random(
    pick: int, drawn: LegendId, left: tuple[LegendId, ...]
) -> None:
    pool, ash = draw_legend(POOL, make(), pick)
    assert ash.legends == (drawn,)
    assert pool.unassigned == left


def test_gaining_legend_cards_choose_from_unassigned() -> None:
    pool, ash = choose_legend(POOL, make(), L2)
    assert (ash.legends, pool.unassigned) == ((L2,), (L1, L3))
    with pytest.raises(IllegalAction, match="not among the unassigned"):
        choose_legend(pool, ash, L2)


@pytest.mark.parametrize("gain", ["draw", "choose"])
def test_gaining_legend_cards_none_unassigned(gain: str) -> None:
    with pytest.raises(IllegalAction, match="no unassigned legend"):
        if gain == "draw":
            draw_legend(LegendPool(), make(), 0)
        else:
            choose_legend(LegendPool(), make(), L1)


def test_using_legend_cards_return_to_unassigned() -> None:
    pool, ash = choose_legend(POOL, make(), L2)
    pool, ash = return_legend(pool, ash, L2)
    assert ash.legends == ()
    assert sorted(pool.unassigned) == [L1, L2, L3]
    with pytest.raises(IllegalAction):
        return_legend(pool, ash, L2)


def test_using_legend_cards_count_as_having_trait() -> None:
    legend = Legend(L1, "Oak", {}, (Trait("intrepid"),), (Mark("spiral"),))
    ash = make(legends=(L1,))
    assert has_trait(ash, Trait("intrepid"), legend)
    assert not has_trait(make(), Trait("intrepid"), legend)  # not held
    assert has_trait(make(), Trait("wise"))

