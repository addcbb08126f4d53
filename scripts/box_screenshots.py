"""Screenshots of "My own box" and of exploring by place (issue 25 parts 1-2, issue 27
items 8-9), into docs/screenshots/:

* ``box-wizard-content.png`` — File ▸ New Campaign's pack page, "My own box" first;
* ``box-wizard-valley.png`` — the box's first tray: the starting tile typed, two ids;
* ``box-wizard-challenge.png`` / ``box-wizard-character.png`` — then, as for the sample,
  the challenge card in hand typed, and each character with the rulebook's traits and
  mantles (issue 36 item 3);
* ``box-explore-tray.png`` — the Valley tab's new tray: placements in words, the id per
  place, which tile the table flipped (the demo campaign);
* ``box-tile-dialog.png`` — a tile of the box typed once when it is flipped;
* ``box-day-unexplored.png`` — the Day tab: face-down hexes named by where they lie;
* ``box-day-at-table.png`` / ``box-forage-at-table.png`` — the box's Day tab, whose
  activities the pack cannot lay out yet, each with "At the table…", and what foraging
  at the table gave typed in one line.

    QT_QPA_PLATFORM=offscreen .venv/bin/python scripts/box_screenshots.py
"""

from __future__ import annotations

import tempfile
from functools import partial
from pathlib import Path

import shots


def main() -> int:
    app, _ = shots.start(style=None)
    from PySide6.QtWidgets import QPushButton

    from companion import operations
    from companion.ui import theme
    from companion.ui.explore_tray import TileDialog
    from companion.ui.main_window import MainWindow
    from companion.ui.new_campaign_wizard import NewCampaignWizard
    from tests.box_campaign import make_box_campaign

    theme.apply(app, "light")
    save = partial(shots.save, passes=3)

    wizard = NewCampaignWizard(seed=2026)
    wizard.resize(860, 680)
    wizard.show()
    wizard.society_page.society.setText("The Box Folk")
    wizard.next()
    wizard.content_page.packs.setCurrentRow(0)
    save(wizard, "box-wizard-content")
    wizard.next()
    page = wizard.box_valley_page
    page.tile.setText("01")
    page.name.setText("Mossy Ford")
    for combo, feature in zip(page.sections, ("Plains", "River", "Cave"), strict=True):
        combo.setCurrentIndex(combo.findText(feature))
    page.face_down.setText("04 07")
    save(wizard, "box-wizard-valley")
    wizard.next()
    challenge = wizard.box_challenge_page
    challenge.card_id.setText("C1")
    challenge.name.setText("The First Thaw")
    challenge.vital.setPlainText("Warm Hearth: Light a fire in the starting hex.")
    challenge.events.setPlainText("5 societal The folk quarrel: unrest 1\n"
                                  "20 immediate Winter comes.")
    challenge.outcome.setText("301")
    save(wizard, "box-wizard-challenge")
    wizard.next()
    character = wizard.character_pages[0]
    character.name.setText("Ash")
    character.set_dice([6, 5, 4, 3, 1])
    character.trait.setCurrentIndex(character.trait.findText("Wise"))
    character.mantle.setCurrentIndex(character.mantle.findText("Mantle of the Seeker"))
    save(wizard, "box-wizard-character")
    wizard.close()

    folder = Path(tempfile.mkdtemp(prefix="companion-box-"))
    demo = operations.create_demo_campaign(folder / "demo.stonesaga")
    window = MainWindow()
    window.resize(1366, 680)
    window.show()
    window.set_campaign(demo)
    day = window.show_view("day")
    save(window, "box-day-unexplored")
    del day
    valley = window.show_view("valley")
    valley.character_combo.setCurrentText("Ash")
    valley.explore_button.setChecked(True)
    for edit, tile in zip(valley.explore_box.tile_edits, ("E02", "E03", "E04"), strict=True):
        edit.setText(tile)
    valley.panel_scroll.ensureWidgetVisible(valley.explore_box.place_button)
    save(window, "box-explore-tray")
    window.close()
    demo.close()

    box = make_box_campaign(folder / "box.stonesaga")
    box_window = MainWindow()
    box_window.show()
    box_window.set_campaign(box)
    dialog = TileDialog(box_window, "32", "verdant-vale")
    dialog.name_edit.setText("Fern Hollow")
    for combo, feature in zip(dialog.sections, ("Forest", "Cave", "Lake"), strict=True):
        combo.setCurrentIndex(combo.findText(feature))
    dialog.omens_edit.setText("moon:b")
    dialog.show()
    save(dialog, "box-tile-dialog")
    dialog.close()
    box_window.resize(1366, 680)
    day_tab = box_window.show_view("day")
    save(box_window, "box-day-at-table")
    [at_table] = [b for b in day_tab.boxes["Ash"].findChildren(QPushButton, "atTable")
                  if "plains" in b.accessibleName()]
    at_table.click()
    record = day_tab.dialog
    record.card.setText("FP07")
    record.line.setText("gain 2 root, lore +1")
    save(record, "box-forage-at-table")
    record.close()
    box_window.close()
    box.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
