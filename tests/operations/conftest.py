"""Operations tests run on real campaign files in a temporary folder."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from companion import operations
from companion.operations import Campaign


@pytest.fixture
def fresh(tmp_path: Path) -> Iterator[Campaign]:
    """A new two-character campaign with no valley and no challenge yet."""
    campaign = operations.new_campaign(tmp_path / "fresh.stonesaga", society_name="Fresh",
                                       players=2, characters=2, seed=11)
    yield campaign
    campaign.close()


@pytest.fixture
def demo(tmp_path: Path) -> Iterator[Campaign]:
    """The demo campaign: first tray, first challenge, Ash and Bryn in the starting hex."""
    campaign = operations.create_demo_campaign(tmp_path / "demo.stonesaga")
    yield campaign
    campaign.close()
