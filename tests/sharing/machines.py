"""Two machines sharing one campaign, as the sharing tests and the GUI's start them."""

from __future__ import annotations

from pathlib import Path

from companion import operations
from companion.operations import Campaign, sharing


def ana_shares_bryn_joins(root: Path) -> tuple[Path, Campaign, Campaign]:
    """Ana shares the demo campaign through ``root/Shared``; Bryn joins it from there
    (each machine's campaign in its own folder under ``root``)."""
    folder = root / "Shared"
    folder.mkdir()
    (root / "ana").mkdir()
    ana = operations.create_demo_campaign(root / "ana" / "demo.stonesaga")
    sharing.share(ana, folder, machine_name="Ana's laptop")
    bryn = sharing.join(folder, root / "bryn" / "demo.stonesaga",
                        machine_name="Bryn's laptop")
    for campaign in (ana, bryn):  # each operation its own segment, as the tests read them
        campaign.file.publish_every = 0
    return folder, ana, bryn
