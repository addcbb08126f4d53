"""Regenerate docs/screenshots/day-*.png (the Day panel's dialogs) from a fresh demo
campaign: build an outpost, build a structure, exchange, and choose an item
beyond the mantle's slots.

Offscreen; each picture is ``QWidget.grab()``. Ash builds Hearth over the plains with
Bryn's help; Bryn then holds wood and fiber for a Drying Rack, and
three hand items (one too many).

Processing and crafting open the Play menu's dialogs (see play_screenshots.py).
"""

from __future__ import annotations

from functools import partial
from pathlib import Path

import shots


def main() -> int:
    _, home = shots.start(refusals=False)
    from companion import operations
    from companion.operations.effects import apply_effects, parse_effect
    from companion.ui import day_dialogs
    from companion.ui.main_window import MainWindow

    campaign = operations.create_demo_campaign(Path(home) / "Demo.stonesaga")
    window = MainWindow()
    window.campaign = campaign
    save = partial(shots.save, show=True, laptop=False, close=True)  # the dialog, alone

    outpost = day_dialogs.BuildOutpostDialog(window, "Ash", "plains", 4)
    outpost.outpost_name.setText("Hearth")
    outpost.contributions.spins["Bryn"].setValue(2)
    save(outpost, "day-build-outpost")
    operations.build_outpost(campaign, name="Ash", feature="plains", outpost_name="Hearth",
                             contributions={"Bryn": 2})
    apply_effects(campaign, name="Bryn", effects=[parse_effect(e) for e in (
        "gain wood 2", "gain fiber 2", "item bone-needle", "item stone-knife")])
    structure = day_dialogs.BuildStructureDialog(window, "Bryn", "1")
    structure.select("drying-rack")
    save(structure, "day-build-structure")
    exchange = day_dialogs.ExchangeDialog(window, "Bryn")
    exchange.mine.item(0).setCheckState(exchange.mine.item(0).checkState().Checked)
    save(exchange, "day-exchange")
    from companion.operations.day import excess_items

    apply_effects(campaign, name="Bryn", effects=[parse_effect(e) for e in (
        "item sling", "item pine-torch")])

    (waiting,) = excess_items(campaign)
    excess = day_dialogs.ExcessDialog(window, waiting.name, items=list(waiting.items),
                                      room=list(waiting.room), text=waiting.text)
    save(excess, "day-too-many-items")
    campaign.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
