"""Regenerate the pictures of the society helper's dialogs in docs/screenshots/ from a
demo campaign: legends-dialog.png (Bryn holds Ash's legend card, a mantle power slotted),
play-contest-legend.png (a contest using a legend card's ability value),
challenge-next.png (the next challenge: where each character begins),
retained-and-ruins.png (retained supplies a successor takes up; an outpost ruined) and
night-legend.png (the Night wizard: a Longhouse in play, a legend card offered for the
trait a Night card requires).

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
        from companion.operations.challenge import end_challenge
        from companion.operations.legends import write_mark

        write_mark(campaign, mark="spiral", legend=1)
        # Continuing Play > Mantle Power: slotted at the start of the next challenge.
        end_challenge(campaign, outcome="120", looming=["C2"])
        operations.start_challenge(campaign, challenge="C2", mantle_powers={"Bryn": power})
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

        from companion.operations.challenge import end_challenge
        from companion.operations.effects import apply_effects
        from companion.ui.play_dialogs import RetainedAndRuinsDialog, StartChallengeDialog

        apply_effects(campaign, name="Bryn", effects=[{"do": "gain", "resource": "flint"},
                                                      {"do": "gain", "resource": "wood"}])
        end_challenge(campaign, outcome="112", looming=["C2"],
                      retained={"Bryn": ([], [0, 1])})
        window.refresh_all()
        start = StartChallengeDialog(window)
        grab(start, "challenge-next.png")
        start.close()
        operations.age_character(campaign, name="Bryn")
        operations.age_character(campaign, name="Bryn")
        operations.start_challenge(campaign, challenge="C2")
        operations.create_character(
            campaign, name="Cael", player="Player 2", rolled=(6, 5, 4, 3, 1), removed=4,
            assignment={"might": 6, "dexterity": 5, "awareness": 4, "conviction": 3},
            traits=["cunning"], mantle="stormcaller", hex_tile="E01")
        window.refresh_all()
        grab(RetainedAndRuinsDialog(window), "retained-and-ruins.png")
        window.close()
        campaign.close()
        night_legend(app, Path(folder), out)
    return 0


def night_legend(app: object, folder: Path, out: Path) -> None:
    """The Night wizard at the Night card step: Ash holds Bryn's legend (wise)."""
    from companion import operations
    from companion.rules.procedure import Decider
    from companion.ui.main_window import MainWindow
    from companion.ui.procedure_dialog import start_night
    from tests.operations.test_night_cards import with_outpost

    campaign = operations.create_demo_campaign(folder / "night.stonesaga")
    with_outpost(campaign, "longhouse")
    operations.age_character(campaign, name="Bryn")
    operations.age_character(campaign, name="Bryn")
    operations.gain_legend(campaign, name="Ash", legend=1)
    window = MainWindow()
    window.set_campaign(campaign)
    window.run_operation(operations.pass_turn, name="Ash")
    wizard = start_night(window)
    assert wizard is not None
    while wizard.step.decider is not Decider.CARD:  # type: ignore[attr-defined]
        wizard.step_widget.option_buttons[0].click()  # type: ignore[attr-defined]
    wizard.step_widget.card_combo.setEditText("N03")  # type: ignore[attr-defined]
    wizard.step_widget.use_button.click()  # type: ignore[attr-defined]
    wizard.show()
    app.processEvents()  # type: ignore[attr-defined]
    wizard.grab().save(str(out / "night-legend.png"))
    print(out / "night-legend.png")
    window.close()
    campaign.close()


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
