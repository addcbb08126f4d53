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

import os
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "docs" / "screenshots"
SIZE = (1400, 900)


def main() -> int:
    from laptop_shots import also_laptop, refusals_fail

    refusals_fail()

    home = tempfile.mkdtemp(prefix="companion-shots-")
    os.environ["COMPANION_HOME"] = home
    sys.path.insert(0, str(ROOT))
    from PySide6.QtWidgets import QApplication, QWidget

    from companion import operations
    from companion.operations import procedures
    from companion.operations.core import Campaign
    from companion.rules.procedure import Decider
    from companion.ui.main_window import MainWindow
    from companion.ui.procedure_dialog import ProcedureDialog, start_activity

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

    # Foraging in the plains at the table (the cards typed): FP08 then FP12 kept (animal
    # paths chaining across them), then FP01 and FP04 on offer, where the predator rule
    # forces FP04.
    foraging, window = campaign("foraging")
    dialog = start_activity(window, "foraging", "Ash", "plains")
    assert isinstance(dialog, ProcedureDialog)
    # Step 1 draws two and keeps one; Step 2 adds a second before any harvest (Rulebook:
    # Foraging); then search again.
    for answer in ("FP08", "FP09", "FP08", "FP12", "FP09", "FP12", "search",
                   "FP01", "FP04"):
        assert dialog.answer(answer), answer
    view = procedures.in_progress(foraging)
    assert view is not None and view.step.options == ("FP04",)
    shoot(dialog, "procedure-foraging.png", SIZE)
    dialog.close()
    window.close()

    # Delving from the cave of E05 (the demo's challenge opens delving at set-up).
    delving, window = campaign("delving")
    window.run_operation(operations.move, name="Ash", to_hex="E05")
    window.run_operation(operations.pass_turn, name="Bryn")
    dialog = start_activity(window, "delving", "Ash", "cave")
    assert isinstance(dialog, ProcedureDialog)
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
    shoot(dialog, "procedure-delving.png", SIZE)
    dialog.close()
    window.close()

    # A delving test asked with its stakes (issue 27 item 4): who, ability, difficulty,
    # success and failure.
    delving, window = campaign("delving-test")
    window.run_operation(operations.move, name="Ash", to_hex="E05")
    window.run_operation(operations.pass_turn, name="Bryn")
    dialog = start_activity(window, "delving", "Ash", "cave")
    assert isinstance(dialog, ProcedureDialog)
    while dialog.step is not None and dialog.step.decider is not Decider.DICE:
        if dialog.step.decider is Decider.PLAYER:
            assert dialog.answer(dialog.step.options[0])
        else:
            dialog.step_widget.app_button.click()  # type: ignore[union-attr]
    assert dialog.step is not None, "the delve asked for no test"
    shoot(dialog, "procedure-test-stakes.png", SIZE)
    dialog.close()
    window.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
