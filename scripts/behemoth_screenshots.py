"""Regenerate docs/screenshots/behemoth-*.png from a fresh demo campaign.

Offscreen; each picture is ``QWidget.grab()`` at a fixed size. The demo's characters
explore two hexes, Rimeback is set up with typed cards (its lair in E01, the Hungry
Instinct card) and its target token is placed on Bryn, so the preview shows a split:
1d6+1 movement points pay E09's movement value 3 five times in six.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "docs" / "screenshots"


def main() -> int:
    from laptop_shots import also_laptop, refusals_fail

    refusals_fail()

    home = tempfile.mkdtemp(prefix="companion-shots-")
    os.environ["COMPANION_HOME"] = home
    sys.path.insert(0, str(ROOT))
    from PySide6.QtWidgets import QApplication

    from companion import operations
    from companion.operations import behemoth
    from companion.ui.behemoth_panel import BehemothPanel, SetUpDialog
    from companion.ui.main_window import MainWindow

    app = QApplication.instance() or QApplication([])
    app.setStyle("Fusion")
    OUT.mkdir(parents=True, exist_ok=True)
    campaign = operations.create_demo_campaign(Path(home) / "Demo.stonesaga")
    operations.move(campaign, name="Ash", to_hex="E05")
    operations.draw_discovery(campaign, name="Ash")
    operations.move(campaign, name="Bryn", to_hex="E09")
    operations.draw_discovery(campaign, name="Bryn")
    window = MainWindow()
    window.campaign = campaign

    def save(widget: Any, name: str) -> None:
        app.processEvents()
        path = OUT / f"{name}.png"
        widget.grab().save(str(path))
        also_laptop(widget, path)  # and as on a 1366x768 laptop
        print(f"wrote {path.relative_to(ROOT)}")

    dialog = SetUpDialog(behemoth.set_up_options(campaign))
    dialog.instinct.setCurrentIndex(dialog.instinct.findData("RBI1"))
    dialog.lair.setCurrentIndex(dialog.lair.findData("E01"))
    dialog.resize(560, dialog.sizeHint().height())
    dialog.show()
    save(dialog, "behemoth-setup-dialog")
    dialog.close()

    behemoth.set_up_behemoth(campaign, behemoth="rimeback", instinct="RBI1", secret="RBS2",
                             lair_hex="E01", lair_section="b")
    behemoth.set_target(campaign, target="Bryn")
    panel = BehemothPanel(window)
    panel.resize(1120, 540)
    panel.show()
    save(panel, "behemoth-panel")
    panel.close()
    panel.deleteLater()
    # The valley with the behemoth's odds and their key in the map's corner (issue 27).
    shown = MainWindow()
    shown.resize(1180, 680)
    shown.show()
    shown.set_campaign(campaign)
    shown.show_view("valley")
    app.processEvents()
    save(shown, "valley-behemoth-odds")
    shown.close()
    window.deleteLater()
    app.processEvents()
    campaign.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
