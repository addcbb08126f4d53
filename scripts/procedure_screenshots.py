"""Regenerate the procedure dialogs' pictures in docs/screenshots/ from a fresh demo
campaign: procedure-fishing.png, procedure-fishing-keys.png, procedure-mining.png,
night-rest.png, night-card.png.

Runs offscreen (QT_QPA_PLATFORM=offscreen) or under xvfb-run; every picture is taken with
``QWidget.grab()`` at a fixed size. Every step is answered through the dialogs themselves
(the app rolls and draws from the demo's seeded generator), so the pictures change only
when the UI or the rules do.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "docs" / "screenshots"
SIZE = (1366, 680)  # a 1366x768 laptop's window (issue 20; as the dialog opens there)
NIGHT_SIZE = (1366, 680)


def main() -> int:
    from laptop_shots import also_laptop, refusals_fail

    refusals_fail()

    home = tempfile.mkdtemp(prefix="companion-shots-")
    os.environ["COMPANION_HOME"] = home
    sys.path.insert(0, str(ROOT))
    from PySide6.QtWidgets import QApplication, QWidget

    from companion import operations
    from companion.operations.core import Campaign
    from companion.rules.procedure import Decider
    from companion.ui.main_window import MainWindow
    from companion.ui.procedure_dialog import start_activity, start_night

    app = QApplication.instance() or QApplication([])
    app.setStyle("Fusion")
    OUT.mkdir(parents=True, exist_ok=True)

    def shoot(widget: QWidget, name: str, size: tuple[int, int]) -> None:
        widget.resize(*size)
        app.processEvents()
        path = OUT / name
        widget.grab().save(str(path))
        also_laptop(widget, path)  # and as on a 1366x768 laptop
        print(f"wrote {path.relative_to(ROOT)}")

    def campaign(name: str) -> tuple[Campaign, MainWindow]:
        opened = operations.create_demo_campaign(Path(home) / f"{name}.stonesaga")
        window = MainWindow()
        window.resize(1180, 680)  # fits a 1366x768 laptop (issue 20)
        window.show()
        window.set_campaign(opened)
        return opened, window

    # Fishing, after the dice are placed: the outcome card is next.
    _, window = campaign("fishing")
    dialog = start_activity(window, "fishing", "Ash", "river")
    assert dialog is not None
    while dialog.step is not None and not dialog.step.prompt.startswith("Step 5"):  # type: ignore[attr-defined]
        step_widget = dialog.step_widget  # type: ignore[attr-defined]
        if dialog.step.decider is Decider.PLAYER:  # type: ignore[attr-defined]
            step_widget.option_buttons[0].click()
        else:
            step_widget.app_button.click()
    shoot(dialog, "procedure-fishing.png", SIZE)
    dialog.close()
    window.close()

    # Fishing, placing dice once location 1 is full: each key is its location's number
    # (issue 27 item 5).
    _, window = campaign("fishing-keys")
    dialog = start_activity(window, "fishing", "Ash", "river")
    assert dialog is not None
    while dialog.step.decider is not Decider.PLAYER:  # type: ignore[attr-defined]
        dialog.step_widget.app_button.click()  # type: ignore[attr-defined]
    dialog.step_widget.option_buttons[0].click()  # type: ignore[attr-defined]
    shoot(dialog, "procedure-fishing-keys.png", SIZE)
    dialog.close()
    window.close()

    # Mining at the first mineable feature next door, after one chip pulled.
    mining, window = campaign("mining")
    window.run_operation(operations.move, name="Ash", to_hex="E09")
    window.run_operation(operations.pass_turn, name="Bryn")
    mine = next(a for a in operations.available_actions(mining, "Ash") if a.action == "mine")
    dialog = start_activity(window, "mining", "Ash", str(mine.target))
    assert dialog is not None
    dialog.step_widget.app_button.click()  # type: ignore[attr-defined]
    shoot(dialog, "procedure-mining.png", SIZE)
    dialog.close()
    window.close()

    # The Night: Ash gathered water; both passed. Rest, then the first Night card.
    _, window = campaign("night")
    window.run_operation(operations.gather_water, name="Ash")
    window.run_operation(operations.pass_turn, name="Bryn")
    window.run_operation(operations.pass_turn, name="Ash")
    wizard = start_night(window)
    assert wizard is not None
    wizard.step_widget.option_buttons[0].click()  # type: ignore[attr-defined]  # Ash drinks
    wizard.step_widget.option_buttons[0].click()  # type: ignore[attr-defined]  # boost
    shoot(wizard, "night-rest.png", NIGHT_SIZE)
    while wizard.step.decider is not Decider.CARD:  # type: ignore[attr-defined]
        wizard.step_widget.option_buttons[0].click()  # type: ignore[attr-defined]
    shoot(wizard, "night-card.png", NIGHT_SIZE)
    wizard.close()
    window.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
