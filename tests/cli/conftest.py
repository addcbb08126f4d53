"""CLI-test fixtures."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion import operations


@pytest.fixture
def demo_path(tmp_path: Path) -> str:
    """A fresh demo campaign's file (a test module may give its own, set up further)."""
    path = tmp_path / "demo.stonesaga"
    operations.create_demo_campaign(path).close()
    return str(path)
