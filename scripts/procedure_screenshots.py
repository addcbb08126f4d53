"""Regenerate the procedure dialogs' pictures in docs/screenshots/ from a fresh demo
campaign: procedure-fishing.png, procedure-fishing-keys.png, procedure-mining.png,
night-rest.png, night-card.png.

Runs offscreen (QT_QPA_PLATFORM=offscreen) or under xvfb-run; every picture is taken with
``QWidget.grab()`` at a fixed size. Every step is answered through the dialogs themselves
(the app rolls and draws from the demo's seeded generator), so the pictures change only
when the UI or the rules do.
"""

from __future__ import annotations

from shots import ash_walks_to, demo_window, save, start

SIZE = (1366, 680)  # a 1366x768 laptop's window (issue 20; as the dialog opens there)
NIGHT_SIZE = (1366, 680)


def main() -> int:
    app, home = start()
    from companion import operations
    from companion.rules.procedure import Decider
    from companion.ui.procedure_dialog import start_activity, start_night

    # Fishing, after the dice are placed: the outcome card is next.
    _, window = demo_window(home, "fishing")
    dialog = start_activity(window, "fishing", "Ash", "river")
    assert dialog is not None
    while dialog.step is not None and not dialog.step.prompt.startswith("Step 5"):  # type: ignore[attr-defined]
        step_widget = dialog.step_widget  # type: ignore[attr-defined]
        if dialog.step.decider is Decider.PLAYER:  # type: ignore[attr-defined]
            step_widget.option_buttons[0].click()
        else:
            step_widget.app_button.click()
    save(dialog, "procedure-fishing.png", size=SIZE, close=True)
    window.close()

    # Fishing, placing dice once location 1 is full: each key is its location's number
    # (issue 27 item 5).
    _, window = demo_window(home, "fishing-keys")
    dialog = start_activity(window, "fishing", "Ash", "river")
    assert dialog is not None
    while dialog.step.decider is not Decider.PLAYER:  # type: ignore[attr-defined]
        dialog.step_widget.app_button.click()  # type: ignore[attr-defined]
    dialog.step_widget.option_buttons[0].click()  # type: ignore[attr-defined]
    save(dialog, "procedure-fishing-keys.png", size=SIZE, close=True)
    window.close()

    # Mining at the first mineable feature next door, after one chip pulled.
    mining, window = demo_window(home, "mining")
    ash_walks_to(window, "E09")
    mine = next(a for a in operations.available_actions(mining, "Ash") if a.action == "mine")
    dialog = start_activity(window, "mining", "Ash", str(mine.target))
    assert dialog is not None
    dialog.step_widget.app_button.click()  # type: ignore[attr-defined]
    save(dialog, "procedure-mining.png", size=SIZE, close=True)
    window.close()

    # The Night: Ash gathered water; both passed. Rest, then the first Night card.
    _, window = demo_window(home, "night")
    window.run_operation(operations.gather_water, name="Ash")
    window.run_operation(operations.pass_turn, name="Bryn")
    window.run_operation(operations.pass_turn, name="Ash")
    wizard = start_night(window)
    assert wizard is not None
    wizard.step_widget.option_buttons[0].click()  # type: ignore[attr-defined]  # Ash drinks
    wizard.step_widget.option_buttons[0].click()  # type: ignore[attr-defined]  # boost
    save(wizard, "night-rest.png", size=NIGHT_SIZE)
    while wizard.step.decider is not Decider.CARD:  # type: ignore[attr-defined]
        wizard.step_widget.option_buttons[0].click()  # type: ignore[attr-defined]
    save(wizard, "night-card.png", size=NIGHT_SIZE)
    wizard.close()
    window.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
