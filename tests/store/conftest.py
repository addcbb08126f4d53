"""Shared fixtures for the store tests: a fresh campaign, a settable clock, file hashes."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from companion.store import CampaignFile
from companion.store.models import Character, NotePage

FIXTURES = Path(__file__).parent / "fixtures"
REPO = Path(__file__).resolve().parents[2]


class Clock:
    """A clock the test moves by hand (aware UTC, like the store's own)."""

    def __init__(self, start: datetime = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)) -> None:
        self.now = start

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **kwargs: float) -> datetime:
        self.now += timedelta(**kwargs)
        return self.now


def snapshot(folder: Path) -> dict[str, str]:
    """Every file in ``folder`` (recursively) and the hash of its bytes."""
    return {
        str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "saga.stonesaga"


@pytest.fixture
def cf(path: Path, clock: Clock) -> Iterator[CampaignFile]:
    campaign = CampaignFile.create(path, clock=clock)
    yield campaign
    campaign.close()


def populate(cf: CampaignFile, characters: int = 30) -> None:
    """Enough rows to spread the file over many pages."""
    with cf.transaction("setup", "Set up a test campaign") as session:
        for i in range(characters):
            session.add(Character(name=f"Hero {i}", traits=["Brave"] * 5, player=f"P{i}"))
            session.add(NotePage(title=f"Page {i}", text="lorem ipsum " * 40))


def hold_open(path: Path) -> Iterator[subprocess.Popen[str]]:
    """Another process holding the campaign at ``path`` open while the caller runs (for
    a fixture: ``yield from hold_open(path)``); it is ended afterwards."""
    child = subprocess.Popen(
        [sys.executable, "-m", "tests.store.helpers", "hold", str(path)],
        cwd=REPO, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )
    assert child.stdout is not None and child.stdout.readline().strip() == "ready"
    yield child
    if child.poll() is None:
        child.kill()
    child.wait()
