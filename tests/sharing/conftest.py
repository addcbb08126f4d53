"""Two (or three) machines sharing one campaign through a folder, in one process.

Each machine is its own campaign file in its own folder ("its data folder"); the shared
folder is one folder all of them see, as a sync engine would keep it in step.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from companion.operations import Campaign, sharing
from companion.store import export_campaign
from tests.sharing.machines import ana_shares_bryn_joins


@dataclass
class Table:
    """The shared folder and the machines playing one campaign."""

    folder: Path
    root: Path
    machines: dict[str, Campaign]

    def export(self, name: str) -> bytes:
        out = self.root / f"export-{name}.json"
        out.unlink(missing_ok=True)
        export_campaign(self.machines[name].file, out)
        return out.read_bytes()

    def settle_all_in_step(self, rounds: int = 3) -> None:
        """Every machine syncs, in turn, until all have seen everything."""
        for _ in range(rounds):
            for campaign in self.machines.values():
                sharing.sync(campaign, during_procedure="merge")


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    """Ana shares the demo campaign; Bryn joins it from the folder."""
    folder, ana, bryn = ana_shares_bryn_joins(tmp_path)
    found = Table(folder, tmp_path, {"ana": ana, "bryn": bryn})
    yield found
    for campaign in found.machines.values():
        campaign.close()
