"""UI test fixtures: a fresh campaign file per test."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from companion import operations


@pytest.fixture
def campaign(tmp_path: Path) -> Iterator[operations.Campaign]:
    """A new two-character campaign from the sample pack, closed after the test."""
    opened = operations.new_campaign(tmp_path / "Test.stonesaga", society_name="The Ember Folk",
                                     players=2, characters=2, seed=7)
    yield opened
    opened.close()
