"""Regenerate the foraging and delving dialogs' pictures in docs/screenshots/ from a
fresh demo campaign: procedure-foraging.png (two cards in the tableau, two on offer, one
forced by the predator rule) and procedure-delving.png (a delve at depth 3, the next card
to draw).

Runs offscreen (QT_QPA_PLATFORM=offscreen) or under xvfb-run; every picture is taken with
``QWidget.grab()`` at a fixed size. Every step is answered through the dialog itself
(foraging with the cards typed as at the table; delving with the app drawing and rolling
from the demo's seeded generator), so the pictures change only when the UI or the rules
do.
"""

from __future__ import annotations

from shots import ash_walks_to, demo_window, save, start

SIZE = (1400, 900)


def main() -> int:
    app, home = start()
    from companion.operations import procedures
    from companion.rules.procedure import Decider
    from companion.ui.procedure_dialog import ProcedureDialog, start_activity

    def open_delving(name: str) -> tuple[object, object, ProcedureDialog]:
        """Delving from the cave of E05 (the demo's challenge opens delving at set-up)."""
        campaign, window = demo_window(home, name)
        ash_walks_to(window, "E05")
        dialog = start_activity(window, "delving", "Ash", "cave")
        assert isinstance(dialog, ProcedureDialog)
        return campaign, window, dialog

    # Foraging in the plains at the table (the cards typed): FP08 then FP12 kept (animal
    # paths chaining across them), then FP01 and FP04 on offer, where the predator rule
    # forces FP04.
    foraging, window = demo_window(home, "foraging")
    dialog = start_activity(window, "foraging", "Ash", "plains")
    assert isinstance(dialog, ProcedureDialog)
    # Step 1 draws two and keeps one; Step 2 adds a second before any harvest (Rulebook:
    # Foraging); then search again.
    for answer in ("FP08", "FP09", "FP08", "FP12", "FP09", "FP12", "search",
                   "FP01", "FP04"):
        assert dialog.answer(answer), answer
    view = procedures.in_progress(foraging)
    assert view is not None and view.step.options == ("FP04",)
    save(dialog, "procedure-foraging.png", size=SIZE, close=True)
    window.close()

    # Delving from the cave of E05, to depth 3.
    delving, window, dialog = open_delving("delving")
    while True:
        step = dialog.step
        assert step is not None
        current = procedures.current(delving)
        if step.decider is Decider.PLAYER:
            assert dialog.answer(step.options[0])
            if current.depth >= 3:
                break
        else:
            dialog.step_widget.app_button.click()  # type: ignore[union-attr]
    save(dialog, "procedure-delving.png", size=SIZE, close=True)
    window.close()

    # A delving test asked with its stakes (issue 27 item 4): who, ability, difficulty,
    # success and failure.
    _, window, dialog = open_delving("delving-test")
    while dialog.step is not None and dialog.step.decider is not Decider.DICE:
        if dialog.step.decider is Decider.PLAYER:
            assert dialog.answer(dialog.step.options[0])
        else:
            dialog.step_widget.app_button.click()  # type: ignore[union-attr]
    assert dialog.step is not None, "the delve asked for no test"
    save(dialog, "procedure-test-stakes.png", size=SIZE, close=True)
    window.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
