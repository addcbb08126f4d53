"""Regenerate the larger-text pictures in docs/screenshots/ (Settings ▸ Text size ▸
Larger; issue 27 item 13), each as it opens on a 1366x768 laptop:
text-larger-settings.png, text-larger-day.png, text-larger-fishing.png,
text-larger-my-cards.png, text-larger-night.png.

Runs offscreen (QT_QPA_PLATFORM=offscreen) or under xvfb-run; the text size is chosen in
the Settings dialog itself, as a player would.
"""

from __future__ import annotations

from functools import partial

import shots


def main() -> int:
    _, home = shots.start()
    from companion import operations
    from companion.rules.procedure import Decider
    from companion.ui import fit
    from companion.ui.my_cards import open_my_cards
    from companion.ui.procedure_dialog import start_activity, start_night
    from companion.ui.settings_dialog import SettingsDialog

    fit.room = lambda widget: fit.LAPTOP_WINDOW  # type: ignore[assignment]  # a laptop
    laptop = (fit.LAPTOP_WINDOW.width(), fit.LAPTOP_WINDOW.height())
    shoot = partial(shots.save, show=True, passes=2, laptop=False)

    settings = SettingsDialog()
    settings.text_size.setCurrentIndex(settings.text_size.findData(125))
    shoot(settings, "text-larger-settings.png")
    settings.buttons.button(settings.buttons.StandardButton.Ok).click()

    _, window = shots.demo_window(home, "day", laptop)
    window.show_view("day")
    shoot(window, "text-larger-day.png")
    cards = open_my_cards(window)
    shoot(cards, "text-larger-my-cards.png")
    cards.close()
    dialog = start_activity(window, "fishing", "Ash", "river")
    assert dialog is not None
    while dialog.step.decider is not Decider.PLAYER:  # type: ignore[attr-defined]
        dialog.step_widget.app_button.click()  # type: ignore[attr-defined]
    shoot(dialog, "text-larger-fishing.png")
    dialog.close()
    window.close()

    _, window = shots.demo_window(home, "night", laptop)
    window.run_operation(operations.gather_water, name="Ash")
    window.run_operation(operations.pass_turn, name="Bryn")
    window.run_operation(operations.pass_turn, name="Ash")
    wizard = start_night(window)
    assert wizard is not None
    while wizard.step.decider is not Decider.CARD:  # type: ignore[attr-defined]
        wizard.step_widget.option_buttons[0].click()  # type: ignore[attr-defined]
    shoot(wizard, "text-larger-night.png")
    wizard.close()
    window.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
