"""Regenerate the odds advisor's picture in docs/screenshots/ from a fresh demo campaign:
odds-fishing.png (the fishing dialog at a dice-placing step, the legal allocations ranked
beside it with "Place as suggested").

Runs offscreen (QT_QPA_PLATFORM=offscreen) or under xvfb-run; the picture is taken with
``QWidget.grab()`` at a fixed size. Every step is answered through the dialog itself, as
at the table (the stock and water drawn by the app from the demo's seeded generator, the
dice typed), so the picture changes only when the UI or the rules do.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "docs" / "screenshots"
SIZE = (1400, 900)
DICE = (3, 4, 2, 6)
"""The dice typed at the table."""


def main() -> int:
    home = tempfile.mkdtemp(prefix="companion-shots-")
    os.environ["COMPANION_HOME"] = home  # the preferences: odds shown (the default)
    sys.path.insert(0, str(ROOT))
    from PySide6.QtWidgets import QApplication

    from companion import operations
    from companion.ui.main_window import MainWindow
    from companion.ui.procedure_dialog import ProcedureDialog, start_activity

    app = QApplication.instance() or QApplication([])
    app.setStyle("Fusion")
    OUT.mkdir(parents=True, exist_ok=True)

    campaign = operations.create_demo_campaign(Path(home) / "odds.stonesaga")
    window = MainWindow()
    window.resize(1180, 680)  # fits a 1366x768 laptop (issue 20)
    window.show()
    window.set_campaign(campaign)
    try:
        dialog = start_activity(window, "fishing", "Ash", "river")
        assert isinstance(dialog, ProcedureDialog)
        dialog.step_widget.app_button.click()  # the stock card
        dialog.step_widget.app_button.click()  # the water card
        for spin, value in zip(dialog.step_widget.dice, DICE, strict=True):
            spin.setValue(value)
        dialog.step_widget.use_button.click()
        # One die placed as suggested: the table shows the allocations that still agree.
        dialog.odds_panel.suggest_button.click()
        assert dialog.odds_panel.report is not None
        assert dialog.odds_panel.report.suggestion is not None
        dialog.resize(*SIZE)
        app.processEvents()
        path = OUT / "odds-fishing.png"
        dialog.grab().save(str(path))
        print(f"wrote {path.relative_to(ROOT)}")
        from laptop_shots import also_laptop, refusals_fail

        refusals_fail()

        also_laptop(dialog, path)  # and as on a 1366x768 laptop
        dialog.close()
    finally:
        window.close()
        campaign.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
