"""Screenshots of the New Campaign wizard, the Settings dialog, and the main window in
the light and dark themes, into docs/screenshots/ (wizard-*.png, theme-*.png).

    QT_QPA_PLATFORM=offscreen .venv/bin/python scripts/wizard_screenshots.py

Every picture is taken with ``QWidget.grab()`` at a fixed size, from a fixed seed, in a
throw-away user folder.
"""

from __future__ import annotations

import sys
from functools import partial

import shots


def main() -> int:
    app, home = shots.start(style=None)
    from companion.ui import theme
    from companion.ui.new_campaign_wizard import NewCampaignWizard
    from companion.ui.settings_dialog import SettingsDialog

    save = partial(shots.save, passes=3)

    def new_wizard() -> NewCampaignWizard:
        wizard = NewCampaignWizard(seed=2026)
        wizard.resize(860, 680)
        wizard.show()
        return wizard

    def settings_picture(name: str) -> None:
        dialog = SettingsDialog()
        dialog.resize(640, dialog.sizeHint().height())
        dialog.show()
        save(dialog, name)
        dialog.close()

    # -- the wizard, page by page (light theme) ----------------------------------------
    theme.apply(app, "light")
    wizard = new_wizard()
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
    settings_picture("wizard-settings-dialog")

    # -- the main window on the demo campaign, light and dark -----------------------------
    campaign, window = shots.demo_window(home)
    for scheme in ("light", "dark"):
        theme.apply(app, scheme)
        window.set_campaign(campaign)  # views built under the scheme, as at start-up
        for index in range(window.tabs.count()):
            name = window.tabs.tabText(index).replace("&", "").lower()
            if name in ("characters", "society"):
                window.tabs.setCurrentIndex(index)
                save(window, f"theme-{scheme}-{name}")
        if scheme == "dark":
            wizard = new_wizard()
            wizard.society_page.society.setText("The Ash Walkers")
            for _ in range(4):
                wizard.next()
            page = wizard.character_pages[0]
            page.name.setText("Ash")
            page.set_dice([5, 2, 6, 3, 4])
            save(wizard, "theme-dark-wizard-character")
            wizard.close()
            settings_picture("theme-dark-settings-dialog")
    window.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
