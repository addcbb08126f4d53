"""Regenerate the valley map's pictures in docs/screenshots/:

* ``valley-small.png`` — the Valley tab on the demo campaign (first tray, Ash and Bryn in
  the starting hex), the starting hex clicked, Ash's legal new trays shown as ghosts;
* ``valley-full.png`` — the Valley tab on a full valley (both regions' 18 hexes) with
  outposts, a ruin, the behemoth's lair, the behemoth and its target, fire, shelter and
  lore tokens, a hex clicked (both regions are full: no new tray is legal);
* ``valley-export.png`` — the full valley as ``companion map --png`` draws it, and
  ``valley-export.grid.txt`` beside it.

Runs offscreen. The trays are placed with the ordinary operations (explore_new_tray, with
the app drawing the tiles; Discovery cards typed); the rest is staged as plain demo data
in one journalled write: refilled energy so one character can explore every tray, the
remaining hexes flipped, a ruined outpost, the lair and the behemoth, tokens.
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
SIZE = (1180, 680)  # fits a 1366x768 laptop (issue 20)
sys.path.insert(0, str(ROOT))


def refill(campaign: Any) -> None:
    from sqlmodel import select

    from companion.store import models

    with campaign.write("demo.stage", "Staged for the screenshots: energy refilled") as session:
        for row in session.exec(select(models.Character)).all():
            row.energy = 5


def build_full_valley(path: Path) -> Any:
    """A demo campaign whose valley holds both regions' trays, with every kind of piece."""
    from sqlmodel import select

    from companion import operations
    from companion.operations import exploration as ops
    from companion.operations.valley import load_valley, save_valley
    from companion.rules import exploration
    from companion.store import models

    campaign = operations.create_demo_campaign(path)
    operations.build_outpost(campaign, name="Ash", outpost_name="Emberhold", feature="plains")
    operations.pass_turn(campaign, name="Bryn")  # Ash may now act again and again
    for region in ("emberfen", "emberfen", "thornspire", "thornspire", "thornspire"):
        refill(campaign)
        options = [o for o in ops.legal_placements(campaign, "Ash") if o.region == region]
        # grow the valley compactly: prefer trays close to the starting hex
        options.sort(key=lambda o: sum(abs(c.q) + abs(c.r) for c in o.cells))
        option = options[0]
        ops.explore_new_tray(campaign, name="Ash", origin=option.origin,
                             orientation=option.orientation, region=region)
        ops.draw_discovery(campaign, card="DI04")
    refill(campaign)
    ops.draw_discovery(campaign, name="Ash", card="DI15")  # a lore token where Ash stands
    with campaign.write("demo.stage", "Staged for the screenshots: the valley explored, a "
                        "ruin, the lair, the behemoth and tokens") as session:
        before = load_valley(session)
        valley = before
        hidden = sorted(c for c in valley.cells() if c not in valley.explored)[-3:]
        for cell in valley.cells():
            if cell not in valley.explored and cell not in hidden:
                valley = exploration.reveal(campaign.content, valley, cell)
        rows = {h.tile_id: h for h in session.exec(select(models.ValleyHex)).all()}
        explored_tiles = [valley.tiles[c] for c in valley.cells() if c in valley.explored]
        thorn = [t for t in explored_tiles if t and t.startswith("T")]
        ember = [t for t in explored_tiles if t and t.startswith("E") and t != "E01"]
        lair_tile = thorn[-1]
        valley = exploration.place_lair(valley, lair_tile, "a", "rimeback-lair")
        ruin_tile = ember[0]
        valley = exploration.place_overlay(valley, ruin_tile, "b", "OP2")
        save_valley(session, before, valley)
        session.flush()
        session.add(models.Outpost(name="Old Stilts", category="Village", status="ruin",
                                   epoch_built=1, overlay_id="OP2",
                                   hex_id=rows[ruin_tile].id, section="b"))
        for tile, kind, count in ((ember[1], "fire", 1), (ember[1], "shelter", 1),
                                  (thorn[0], "lore", 2), (ember[2], "fire", 1)):
            session.add(models.HexToken(hex_id=rows[tile].id, kind=kind, count=count))
        session.add(models.BehemothState(
            behemoth_id="rimeback", name="Rimeback", hex_id=rows[thorn[1]].id,
            lair_hex_id=rows[lair_tile].id, target={"character": "Bryn"}))
    return campaign


def grab_valley(campaign: Any, out: Path, *, tile: str, explore_for: str | None = None
                ) -> None:
    from PySide6.QtWidgets import QApplication

    from companion.ui.main_window import MainWindow
    from companion.ui.views.valley import ValleyView

    app = QApplication.instance() or QApplication([])
    window = MainWindow()
    window.resize(*SIZE)
    window.show()
    window.set_campaign(campaign)
    view = window.view("valley")
    assert isinstance(view, ValleyView) and view.data is not None
    app.processEvents()
    view.map.fit()
    if explore_for is not None:
        view.character_combo.setCurrentText(explore_for)
        view.explore_button.setChecked(True)
    view.select_hex(view.data.valley.locate(tile))  # type: ignore[arg-type]
    app.processEvents()
    view.map.fit()
    app.processEvents()
    out.parent.mkdir(parents=True, exist_ok=True)
    window.grab().save(str(out))
    from shots import also_laptop, refusals_fail

    refusals_fail()

    also_laptop(window, out)  # and as on a 1366x768 laptop
    window.campaign = None  # the caller closes the campaign
    window.close()
    print(f"wrote {out}")


def main() -> int:
    from PySide6.QtWidgets import QApplication

    from companion import operations
    from companion.ui.map_view import grid_text, render_valley_png

    QApplication.instance() or QApplication([])
    with tempfile.TemporaryDirectory() as folder:
        demo = operations.create_demo_campaign(Path(folder) / "demo.stonesaga")
        try:
            grab_valley(demo, OUT / "valley-small.png", tile="E01", explore_for="Ash")
        finally:
            demo.close()
        full = build_full_valley(Path(folder) / "full.stonesaga")
        try:
            ash = next(c.hex_id for c in full.characters() if c.name == "Ash")
            grab_valley(full, OUT / "valley-full.png", tile=str(ash), explore_for="Bryn")
            size = render_valley_png(full, OUT / "valley-export.png", width=1400)
            print(f"wrote {OUT / 'valley-export.png'} {size}")
            (OUT / "valley-export.grid.txt").write_text(grid_text(full) + "\n",
                                                        encoding="utf-8")
        finally:
            full.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
