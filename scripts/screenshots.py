"""Regenerate docs/screenshots/ from a fresh demo campaign (``make screenshots``).

Runs offscreen (QT_QPA_PLATFORM=offscreen) or under xvfb-run; every picture is taken
with ``QWidget.grab()`` at a fixed size, so the files change only when the UI does.
"""

from __future__ import annotations

from shots import demo_window, save, start


def main() -> int:
    app, home = start()
    from companion import operations

    campaign, window = demo_window(home)
    tabs = {window.tabs.tabText(i).replace("&", "").lower(): i
            for i in range(window.tabs.count())}
    for name, index in tabs.items():
        window.tabs.setCurrentIndex(index)
        save(window, f"main-{name}")

    # Help > Getting Started (issue 20).
    from companion.ui.help_dialog import GettingStarted

    guide = GettingStarted(window)
    guide.resize(980, 680)  # as it opens on a laptop (the offscreen screen is smaller)
    guide.show()
    app.processEvents()
    save(guide, "help-getting-started")
    guide.close()

    # The creation dialog, with dice typed from the table.
    from companion.ui.character_dialog import CharacterDialog

    dialog = CharacterDialog(window)
    dialog.name.setText("Cora")
    for spin, value in zip(dialog.dice, (5, 2, 6, 3, 4), strict=True):
        spin.setValue(value)
    dialog.resize(760, dialog.sizeHint().height())
    dialog.show()
    save(dialog, "character-dialog")
    dialog.abilities["might"].setCurrentIndex(dialog.abilities["might"].findData(5))
    save(dialog, "character-dialog-refused-assignment")
    dialog.reject()

    # A Day in progress: Ash explores, so Ash must wait for Bryn.
    window.run_operation(operations.move, name="Ash", to_hex="E09")
    window.tabs.setCurrentIndex(tabs["day"])
    save(window, "day-panel")
    window.tabs.setCurrentIndex(tabs["characters"])
    save(window, "character-sheet")

    # The sheet's drawing of tokens, items and bag. No operation places injuries, items
    # or bag tokens yet, so this picture renders a value built here; it is never saved
    # to the campaign.
    from dataclasses import replace

    from companion.content.schema.base import Ability, HealthToken, Slot
    from companion.rules.health import add_boost, suffer
    from companion.rules.resources import BagToken, Side, TokenKind
    from companion.ui.views.character_sheet import CharacterSheet
    from companion.ui.widgets import read_game

    bryn = next(c for c in read_game(campaign).characters if c.name == "Bryn")
    for token in (HealthToken.MINOR_INJURY, HealthToken.MAJOR_INJURY,
                  HealthToken.MINOR_DISEASE, HealthToken.MAJOR_DISEASE,
                  HealthToken.MINOR_INJURY):
        bryn = suffer(bryn, token)
    bryn = add_boost(add_boost(bryn, Ability.AWARENESS, 1), Ability.MIGHT, 2)
    bryn = replace(bryn, energy=1, items=(("stone-knife", Slot.HAND),
                                          ("reed-basket", Slot.BODY)),
                   bag=(BagToken.material("flint"), BagToken.material("flint"),
                        BagToken(TokenKind.MATERIAL, "bone", Side.PROCESSED),
                        BagToken.perishable("fish"),
                        BagToken(TokenKind.PERISHABLE_FOOD, "meat", Side.FERMENTED),
                        BagToken.tough("grain"), BagToken.water()))
    sheet = CharacterSheet()
    sheet.show_character(bryn, campaign.content)
    sheet.resize(1000, 560)
    sheet.show()
    save(sheet, "character-sheet-tokens")
    sheet.close()

    # Unrest reaches the first threshold; activity fires a societal event.
    window.run_operation(operations.change_unrest, amount=6, reason="the elders quarrel")
    window.run_operation(operations.increase_activity, amount=10, reason="a noisy hunt")
    window.run_operation(operations.gain_lore, amount=3, reason="old songs")
    window.tabs.setCurrentIndex(tabs["society"])
    save(window, "society-tracks")
    window.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
