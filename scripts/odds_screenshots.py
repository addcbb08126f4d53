"""Regenerate the odds advisor's picture in docs/screenshots/ from a fresh demo campaign:
odds-fishing.png (the fishing dialog at a dice-placing step, the legal allocations ranked
beside it with "Place as suggested").

Runs offscreen (QT_QPA_PLATFORM=offscreen) or under xvfb-run; the picture is taken with
``QWidget.grab()`` at a fixed size. Every step is answered through the dialog itself, as
at the table (the stock and water drawn by the app from the demo's seeded generator, the
dice typed), so the picture changes only when the UI or the rules do.
"""

from __future__ import annotations

import shots

SIZE = (1400, 900)
DICE = (3, 4, 2, 6)
"""The dice typed at the table."""


def main() -> int:
    _, home = shots.start()  # a fresh user folder: odds shown (the default)
    from companion.ui.procedure_dialog import ProcedureDialog, start_activity

    campaign, window = shots.demo_window(home, "odds")
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
        shots.save(dialog, "odds-fishing.png", size=SIZE)
        dialog.close()
    finally:
        window.close()
        campaign.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
