"""Regenerate the pictures of a shared campaign (issue 38) in docs/screenshots/:
sharing-conflict.png and text-larger-sharing-conflict.png (the conflict dialog, both sides
side by side, at the normal and the Larger text size), sharing-status.png (the main
window of a shared campaign with "1 conflict to settle" and Settle… in its status bar).

Two machines play one campaign through a throw-away shared folder in one process: Ana
shares the demo campaign, Bryn joins it, and both change the same thing while apart.
Runs offscreen (QT_QPA_PLATFORM=offscreen) or under xvfb-run.
"""

from __future__ import annotations

from functools import partial
from pathlib import Path

import shots


def _two_machines(home: str) -> tuple[object, object]:
    """Ana's and Bryn's campaign after a clash: a conflict waits on both."""
    from companion import operations
    from companion.operations import sharing

    folder = Path(home) / "Shared"
    folder.mkdir()
    (Path(home) / "ana").mkdir()
    ana = operations.create_demo_campaign(Path(home) / "ana" / "Demo.stonesaga")
    sharing.share(ana, folder, machine_name="Ana's laptop")
    bryn = sharing.join(folder, Path(home) / "bryn" / "Demo.stonesaga",
                        machine_name="Bryn's laptop")
    operations.add_journal_entry(ana, text="We camp by the river.")
    operations.change_unrest(ana, amount=2, reason="the river flooded the camp")
    operations.change_unrest(bryn, amount=1, reason="a quarrel over the last fish")
    for _ in range(2):
        for campaign in (ana, bryn):
            sharing.sync(campaign, during_procedure="merge")
    return ana, bryn


def main() -> int:
    app, home = shots.start()
    from companion.ui import fit, text_size
    from companion.ui.conflict_dialog import settle_conflicts
    from companion.ui.main_window import MainWindow
    from companion.ui.sync_keeper import keeper

    out = shots.out_folder(__doc__ or "")
    ana, bryn = _two_machines(home)
    window = MainWindow()
    window.resize(1180, 680)
    window.show()
    window.set_campaign(ana)  # type: ignore[arg-type]
    keeper(window).sync_now()
    shots.save(window, "sharing-status.png", passes=2, out=out)
    for name, percent in (("sharing-conflict.png", 100),
                          ("text-larger-sharing-conflict.png", 125)):
        text_size.apply(app, percent)
        dialog = settle_conflicts(window)
        assert dialog is not None
        dialog.adjustSize()
        size = dialog.size().boundedTo(fit.LAPTOP_WINDOW)
        partial(shots.save, show=True, passes=3, laptop=False, out=out)(
            dialog, name, size=(size.width(), size.height()))
        dialog.close()
    text_size.apply(app, 100)
    window.close()
    bryn.close()  # type: ignore[attr-defined]
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
