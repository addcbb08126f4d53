"""Regenerate the play dialogs' pictures in docs/screenshots/ from a demo campaign:
crafting-dialog.png (flint beside sinew reading Red 1410), crafting-explorer.png (the
group's codes after one craft), play-effects.png (an effect list ready to apply),
play-ability-test.png (a test with a typed die and a trait bonus), play-end-challenge.png
(the end-of-challenge form with retained supplies chosen) and play-start-challenge.png
(the next challenge, offered by the priority rule).

Runs offscreen (QT_QPA_PLATFORM=offscreen); every picture is a ``QWidget.grab()`` at a
fixed size. Writes go through the operations.
"""

from __future__ import annotations

import sys
import tempfile
from functools import partial
from pathlib import Path

import shots

SIZE = (980, 680)


def main() -> int:
    shots.refusals_fail()
    from PySide6.QtWidgets import QApplication

    from companion import operations
    from companion.operations.challenge import end_challenge
    from companion.operations.crafting import craft
    from companion.operations.effects import apply_effects
    from companion.ui.crafting_dialog import CraftingDialog
    from companion.ui.main_window import MainWindow
    from companion.ui.play_dialogs import (
        AbilityTestDialog,
        EffectsDialog,
        EndChallengeDialog,
        ProcessDialog,
        StartChallengeDialog,
    )

    _app = QApplication.instance() or QApplication(sys.argv)  # held for the whole run
    shots.OUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as folder:
        campaign = operations.create_demo_campaign(Path(folder) / "demo.stonesaga")
        for name, resources in (("Ash", ["flint", "sinew", "flint", "sinew", "bone", "hide"]),
                                ("Bryn", ["tendon", "teeth", "antler", "wood"])):
            apply_effects(campaign, name=name, effects=[{"do": "gain", "resource": r}
                                                        for r in resources])
        craft(campaign, name="Ash", left=2, left_rotation=0, right=3, right_rotation=0)
        window = MainWindow()
        window.set_campaign(campaign)

        grab = partial(shots.save, size=SIZE, show=True)

        dialog = CraftingDialog(window, "Ash")
        dialog.set_tokens(0, 1)
        grab(dialog, "crafting-dialog.png")
        dialog.tabs.setCurrentIndex(1)
        dialog.scope.setCurrentIndex(0)
        grab(dialog, "crafting-explorer.png")
        dialog.close()

        process = ProcessDialog(window, "Bryn")  # each token in words (issue 27 item 22)
        grab(process, "play-processing.png", size=(620, 400))
        process.close()

        effects = EffectsDialog(window)
        effects.source.setText("Forage card: Thorn thicket")
        effects.choose_kind("gain")
        effects.choose_resource("berries")
        effects.amount.setValue(2)
        effects.add_effect()
        effects.choose_kind("suffer")
        effects.add_effect()
        effects.choose_kind("activity")
        effects.amount.setValue(1)
        effects.add_effect()
        effects.choose_kind("place")
        effects.place.setCurrentIndex(effects.place.findData("fire"))
        effects.add_effect()
        effects.choose_kind("mark")
        effects.mark.setText("spiral")
        grab(effects, "play-effects.png", size=(860, 520))
        effects.close()

        test = AbilityTestDialog(window, "Ash")
        test.ability.setCurrentIndex(test.ability.findData("might"))
        test.difficulty.setValue(11)
        test.die.setValue(3)
        test.traits["intrepid"].setValue(1)
        test.test()
        grab(test, "play-ability-test.png", size=(620, 440))
        test.close()

        end = EndChallengeDialog(window)  # the outcome the card names, filled in
        end.check_material("Ash", 0)
        end.check_material("Ash", 1)
        end.check_item("Ash", "stone-knife")
        end.check_looming("C2")
        grab(end, "play-end-challenge.png", size=(900, 640))
        end.close()
        # A power of Ash's mantle unlocked: the next challenge offers it after the mantles.
        ash = campaign.character_detail("Ash")
        operations.unlock_mantle_power(campaign, power=next(
            p for p, c in campaign.content.mantle_powers.items() if c.mantle == ash.mantle))
        end_challenge(campaign, outcome="112", looming=["C2", "C3"])
        start = StartChallengeDialog(window)
        grab(start, "play-start-challenge.png", size=(680, 520))
        start.close()
        window.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
