"""Regenerate the crafting pictures of issue 17 in docs/screenshots/ (or the folder
given as the first argument) from a demo campaign:

- crafting-slate-tokens.png: two slate tokens (grey pips without a shape, counts 5 and
  6) laid side by side, reading Grey 5656;
- crafting-explorer-any.png: the crafting explorer over any materials, held or not
  (moss with slate);
- crafting-explorer-tried.png: the explorer over Ash's bag after Ash crafted flint
  beside flint turned 180° (Red 1441, no entry in the sample Codex): tried, not untried;
- crafting-import-dialog.png: the community crafting files imported, with the report
  of what was imported and skipped.

Runs offscreen (QT_QPA_PLATFORM=offscreen); every picture is a ``QWidget.grab()`` at a
fixed size. Writes go through the operations and the importer.
"""

from __future__ import annotations

import sys
import tempfile
from functools import partial
from pathlib import Path

import shots

SIZE = (980, 680)

GREEN_CSV = (
    "Code;Flavor Text;Game Text;Item Name\n"
    "6116;Soft and dry.;Search the Item Card deck for IT12; keep it in a gear slot.;Moss Pad\n"
    "2156;The moss crumbles.;Nothing is made. Return the materials to your inventory.;None\n"
    "6116;Soft and dry.;Search the Item Card deck for IT12; keep it in a gear slot.;Moss Pad\n"
    "0156;Zero.;Nothing.;Bad Row\n"
)


def main(argv: list[str]) -> int:
    from PySide6.QtWidgets import QApplication

    from companion import operations
    from companion.operations.crafting import craft
    from companion.operations.effects import apply_effects
    from companion.ui.crafting_dialog import ANY_MATERIALS, CraftingDialog
    from companion.ui.crafting_import_dialog import CraftingImportDialog
    from companion.ui.main_window import MainWindow

    out = Path(argv[1]) if len(argv) > 1 else shots.OUT
    _app = QApplication.instance() or QApplication(argv)  # held for the whole run
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as folder:
        campaign = operations.create_demo_campaign(Path(folder) / "demo.stonesaga")
        apply_effects(campaign, name="Ash", effects=[
            {"do": "gain", "resource": r} for r in ("slate", "moss", "slate", "flint",
                                                    "flint")])
        # Red 1441 has no entry in the sample Codex: tried, and remembered as tried
        craft(campaign, name="Ash", left=3, left_rotation=0, right=4, right_rotation=2)
        window = MainWindow()
        window.set_campaign(campaign)

        grab = partial(shots.save, size=SIZE, show=True, laptop=False, out=out)

        dialog = CraftingDialog(window, "Ash")
        dialog.set_tokens(0, 2)
        grab(dialog, "crafting-slate-tokens.png")
        dialog.tabs.setCurrentIndex(1)
        dialog.scope.setCurrentIndex(dialog.scope.findData(ANY_MATERIALS))
        dialog.material_a.setCurrentIndex(dialog.material_a.findData("moss"))
        dialog.material_b.setCurrentIndex(dialog.material_b.findData("slate"))
        grab(dialog, "crafting-explorer-any.png")
        dialog.scope.setCurrentIndex(dialog.scope.findData(["Ash"]))
        grab(dialog, "crafting-explorer-tried.png")
        dialog.close()

        csv = Path(folder) / "Crafting - Green.csv"
        csv.write_text(GREEN_CSV, encoding="utf-8")
        importer = CraftingImportDialog(dialog, Path(folder) / "community-crafting", "sample")
        importer.add_files([csv])
        importer.run_import()
        grab(importer, "crafting-import-dialog.png", size=(820, 560))
        campaign.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
