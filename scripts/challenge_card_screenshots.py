"""Regenerate the pictures of the cards typed from the box (issue 25 parts 5 and 6,
issue 27 item 7) in docs/screenshots/: play-challenge-card.png (a challenge card the app
doesn't know yet, typed in its form), play-end-challenge-outcome.png (End Challenge with
the outcome the card names), material-token-editor.png (a material token's edge pips set
on its picture); each also at the larger text size (text-larger-*.png) and, through
``shots``, as on a 1366×768 laptop.

Runs offscreen with a throw-away data folder; writes go through the operations.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "docs" / "screenshots"


def fill_card(form: Any) -> None:
    """The Salt Wind, typed as the card prints it."""
    form.name.setText("The Salt Wind")
    form.priority.setValue(2)
    form.omen.setCurrentIndex(form.omen.findData("cloud"))
    form.vital.setPlainText("Salt the Meat: Hold 4 meat at the end of a Night.\nFirst Hearth")
    form.epoch.setPlainText("Old Songs: Gain 5 lore.")
    form.outcome.setText("412")
    form.text.setText("The sea wind brings salt and hunger. Fill the stores before it turns.")
    rows = [(5, "societal", "The folk quarrel", "unrest 1", None),
            (9, "event", "Gulls over the camp", "place lore", None),
            (12, "ongoing", "Cold nights", "energy -1", 18),
            (19, "immediate", "Winter comes. The challenge ends.", "", None)]
    for row, (at, kind, text, effects, until) in enumerate(rows):
        if row >= form.events.rowCount():
            form.add_event()
        form.event_widget(row, 0).setValue(at)
        form.event_widget(row, 2).setCurrentIndex(form.event_widget(row, 2).findData(kind))
        if until:
            form.event_widget(row, 1).setValue(until)
        form.event_widget(row, 3).setText(text)
        form.event_widget(row, 4).setText(effects)


def main() -> int:
    sys.path.insert(0, str(ROOT))
    sys.path.insert(0, str(ROOT / "scripts"))
    from shots import also_laptop, refusals_fail

    refusals_fail()
    home = tempfile.mkdtemp(prefix="companion-shots-")
    os.environ["COMPANION_HOME"] = home
    from PySide6.QtWidgets import QApplication

    from companion import operations
    from companion.operations.challenge import end_challenge
    from companion.ui import fit, text_size
    from companion.ui.main_window import MainWindow
    from companion.ui.play_dialogs import EndChallengeDialog, StartChallengeDialog

    app = QApplication.instance() or QApplication([])
    fit.room = lambda widget: fit.LAPTOP_WINDOW  # type: ignore[assignment]  # a laptop
    OUT.mkdir(parents=True, exist_ok=True)
    original = app.font()

    def shoot(widget: Any, name: str) -> None:
        widget.show()
        app.processEvents()
        app.processEvents()
        widget.grab().save(str(OUT / name))
        print(f"wrote {OUT / name}")
        also_laptop(widget, OUT / name)

    for scale, prefix in ((100, ""), (125, "text-larger-")):
        text_size.apply(app, scale) if scale != 100 else app.setFont(original)
        campaign = operations.create_demo_campaign(Path(home) / f"card{scale}.stonesaga")
        window = MainWindow()
        window.set_campaign(campaign)
        end = EndChallengeDialog(window)
        end.check_looming("C2")
        end.other_looming.setText("C41")
        shoot(end, f"{prefix}play-end-challenge-outcome.png")
        end.close()
        end_challenge(campaign, looming=["C41"])
        start = StartChallengeDialog(window)
        start.show()
        form = start.enter_unknown()
        fill_card(form)
        shoot(form, f"{prefix}play-challenge-card.png")
        form.close()
        start.close()
        try:
            from companion.ui.material_token import MaterialTokenDialog
        except ImportError:
            MaterialTokenDialog = None  # noqa: N806 - built in the next step
        if MaterialTokenDialog is not None:
            token = MaterialTokenDialog(window)
            token.name.setText("Glowing Moss")
            token.set_edge("left", "blue", 2)
            token.set_edge("top", "yellow", 1)
            token.set_edge("right", "red", 3)
            shoot(token, f"{prefix}material-token-editor.png")
            token.close()
        window.close()
        campaign.close()
    app.setFont(original)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
