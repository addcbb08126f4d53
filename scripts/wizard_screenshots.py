"""Screenshots of the New Campaign wizard, the Settings dialog, and the main window in
the light and dark themes, into docs/screenshots/ (wizard-*.png, theme-*.png).

    QT_QPA_PLATFORM=offscreen .venv/bin/python scripts/wizard_screenshots.py

Every picture is taken with ``QWidget.grab()`` at a fixed size, from a fixed seed, in a
throw-away user folder.
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
    from companion.ui import theme
    from companion.ui.main_window import MainWindow
    from companion.ui.new_campaign_wizard import NewCampaignWizard

    app = QApplication.instance() or QApplication([])
    OUT.mkdir(parents=True, exist_ok=True)

    def save(widget: Any, name: str) -> None:
        for _ in range(3):
            app.processEvents()
        path = OUT / f"{name}.png"
        widget.grab().save(str(path))
        also_laptop(widget, path)  # and as on a 1366x768 laptop
        print(f"wrote {path.relative_to(ROOT)}")

    # -- the wizard, page by page (light theme) ----------------------------------------
    theme.apply(app, "light")
    wizard = NewCampaignWizard(seed=2026)
    wizard.resize(860, 680)
    wizard.show()
    society = wizard.society_page
    wizard.next()  # refused: no name yet
    save(wizard, "wizard-1-society-refused")
    society.society.setText("The Ash Walkers")
    society.players.setValue(2)
    society.characters.setCurrentIndex(society.characters.findData(2))
    save(wizard, "wizard-1-society")
    wizard.next()
    save(wizard, "wizard-2-content-pack")
    wizard.next()
    save(wizard, "wizard-3-region")
    wizard.next()
    save(wizard, "wizard-4-challenge")
    wizard.next()
    first = wizard.character_pages[0]
    first.name.setText("Ash")
    first.set_dice([5, 2, 6, 3, 4])
    first.trait.setCurrentIndex(first.trait.findData("intrepid"))
    save(wizard, "wizard-5-character-typed")
    wizard.next()
    second = wizard.character_pages[1]
    second.name.setText("Ash")
    second.roll_in_app()
    second.trait.setCurrentIndex(second.trait.findData("wise"))
    wizard.next()  # refused: the name is taken
    save(wizard, "wizard-6-character-rolled-refused")
    second.name.setText("Bryn")
    wizard.next()
    wizard.summary_page.path.setText(
        "/home/player/.local/share/StonesagaCompanion/campaigns/The Ash Walkers.stonesaga")
    save(wizard, "wizard-7-summary")
    wizard.close()

    # -- the settings dialog ------------------------------------------------------------
    from companion.ui.settings_dialog import SettingsDialog

    dialog = SettingsDialog()
    dialog.resize(640, dialog.sizeHint().height())
    dialog.show()
    save(dialog, "wizard-settings-dialog")
    dialog.close()

    # -- the main window on the demo campaign, light and dark -----------------------------
    campaign = operations.create_demo_campaign(Path(home) / "Demo.stonesaga")
    window = MainWindow()
    window.resize(1180, 680)  # fits a 1366x768 laptop (issue 20)
    window.show()
    window.set_campaign(campaign)
    for scheme in ("light", "dark"):
        theme.apply(app, scheme)
        window.set_campaign(campaign)  # views built under the scheme, as at start-up
        for index in range(window.tabs.count()):
            name = window.tabs.tabText(index).replace("&", "").lower()
            if name in ("characters", "society"):
                window.tabs.setCurrentIndex(index)
                save(window, f"theme-{scheme}-{name}")
        if scheme == "dark":
            wizard = NewCampaignWizard(seed=2026)
            wizard.resize(860, 680)
            wizard.show()
            wizard.society_page.society.setText("The Ash Walkers")
            for _ in range(4):
                wizard.next()
            page = wizard.character_pages[0]
            page.name.setText("Ash")
            page.set_dice([5, 2, 6, 3, 4])
            save(wizard, "theme-dark-wizard-character")
            wizard.close()
            dialog = SettingsDialog()
            dialog.resize(640, dialog.sizeHint().height())
            dialog.show()
            save(dialog, "theme-dark-settings-dialog")
            dialog.close()
    window.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
