"""Regenerate docs/screenshots/behemoth-*.png from a fresh demo campaign.

Offscreen; each picture is ``QWidget.grab()`` at a fixed size. The demo's characters
explore two hexes, Rimeback is set up with typed cards (its lair in E01, the Hungry
Instinct card) and its target token is placed on Bryn, so the preview shows a split:
1d6+1 movement points pay E09's movement value 3 five times in six.
"""

from __future__ import annotations

from pathlib import Path

from shots import save, start


def main() -> int:
    app, home = start()
    from companion import operations
    from companion.operations import behemoth
    from companion.ui.behemoth_panel import BehemothPanel, SetUpDialog
    from companion.ui.main_window import MainWindow

    campaign = operations.create_demo_campaign(Path(home) / "Demo.stonesaga")
    operations.move(campaign, name="Ash", to_hex="E05")
    operations.draw_discovery(campaign, name="Ash")
    operations.move(campaign, name="Bryn", to_hex="E09")
    operations.draw_discovery(campaign, name="Bryn")
    window = MainWindow()
    window.campaign = campaign

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
