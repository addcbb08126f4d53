"""Regenerate the larger-text pictures in docs/screenshots/ (Settings ▸ Text size ▸
Larger; issue 27 item 13), each as it opens on a 1366x768 laptop:
text-larger-settings.png, text-larger-day.png, text-larger-fishing.png,
text-larger-my-cards.png, text-larger-night.png.

Runs offscreen (QT_QPA_PLATFORM=offscreen) or under xvfb-run; the text size is chosen in
the Settings dialog itself, as a player would.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "docs" / "screenshots"


def main() -> int:
    from laptop_shots import refusals_fail

    refusals_fail()
    home = tempfile.mkdtemp(prefix="companion-shots-")
    os.environ["COMPANION_HOME"] = home
    sys.path.insert(0, str(ROOT))
    from PySide6.QtWidgets import QApplication, QWidget

    from companion import operations
    from companion.rules.procedure import Decider
    from companion.ui import fit
    from companion.ui.main_window import MainWindow
    from companion.ui.my_cards import open_my_cards
    from companion.ui.procedure_dialog import start_activity, start_night
    from companion.ui.settings_dialog import SettingsDialog

    app = QApplication.instance() or QApplication([])
    app.setStyle("Fusion")
    fit.room = lambda widget: fit.LAPTOP_WINDOW  # type: ignore[assignment]  # a laptop
    OUT.mkdir(parents=True, exist_ok=True)

    def shoot(widget: QWidget, name: str) -> None:
        widget.show()
        app.processEvents()
        app.processEvents()
        path = OUT / name
        widget.grab().save(str(path))
        print(f"wrote {path.relative_to(ROOT)}")

    settings = SettingsDialog()
    settings.text_size.setCurrentIndex(settings.text_size.findData(125))
    shoot(settings, "text-larger-settings.png")
    settings.buttons.button(settings.buttons.StandardButton.Ok).click()

    def campaign(name: str) -> MainWindow:
        opened = operations.create_demo_campaign(Path(home) / f"{name}.stonesaga")
        window = MainWindow()
        window.resize(fit.LAPTOP_WINDOW)
        window.show()
        window.set_campaign(opened)
        return window

    window = campaign("day")
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

    window = campaign("night")
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
