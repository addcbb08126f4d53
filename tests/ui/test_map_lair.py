"""The behemoth's lair overlay tile and zone (the web Journal's lairOverlay / lairZone,
issue 28) on the Valley map: a note in the map's corner, and a badge on the lair's hex
when the map has that hex."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

from companion import operations
from companion.operations import webjournal as wj
from companion.ui.map_view import LairBadge, LairNote, MapScene, MapView, read_map
from tests.ui.helpers import make_window

V5 = Path(__file__).parent.parent / "fixtures" / "web-journal" / "v5-8aae632-played.json"


def test_the_journals_lair_overlay_and_zone_are_noted_on_the_map(
        qtbot: Any, tmp_path: Path) -> None:
    """The Journal's v5 file (written by its own code) places Mossback's lair at hex VV02,
    overlay tile OG03, zone B; the imported campaign's map has no VV02 yet, so the
    note says so and no hex carries a badge."""
    campaign, _ = wj.import_new(V5, tmp_path / "v5.stonesaga")
    try:
        data = read_map(campaign, odds=False)
    finally:
        campaign.close()
    assert data.lair == LairNote("Mossback", None, "VV02", "OG03", "B")
    view = MapView()
    qtbot.addWidget(view)
    view.resize(900, 600)
    view.show()
    view.map_scene.sync(data)
    assert view.lair_label.isVisible()
    assert view.lair_label.text() == \
        "Mossback's lair: hex VV02 (not on the map yet), overlay tile OG03, zone B"
    assert view.map_scene.lair_item is None


def test_the_lair_badge_sits_on_the_lair_hex_and_follows_it(qtbot: Any, tmp_path: Path
                                                            ) -> None:
    """The lair note of the Journal's file, on the demo valley's hexes (as if the
    group had placed the lair's tile there)."""
    campaign, _ = wj.import_new(V5, tmp_path / "v5.stonesaga")
    try:
        note = read_map(campaign, odds=False).lair
    finally:
        campaign.close()
    demo = operations.create_demo_campaign(tmp_path / "demo.stonesaga")
    try:
        data = read_map(demo, odds=False)
    finally:
        demo.close()
    assert data.lair is None  # the demo's behemoth has no overlay written
    data = dataclasses.replace(data, lair=note)
    tiles = [h.tile for h in data.hexes if h.tile]
    assert data.lair is not None and len(tiles) >= 2
    scene = MapScene()
    placed = dataclasses.replace(data, lair=dataclasses.replace(data.lair, tile=tiles[0]))
    scene.sync(placed)
    badge = scene.lair_item
    assert isinstance(badge, LairBadge) and badge.text() == "Lair OG03 · zone B"
    assert badge.toolTip() == f"Mossback's lair: hex {tiles[0]}, overlay tile OG03, zone B"
    first = badge.pos()
    moved = dataclasses.replace(data, lair=dataclasses.replace(data.lair, tile=tiles[1]))
    scene.sync(moved)
    assert scene.lair_item is badge and badge.pos() != first  # updated in place
    scene.sync(dataclasses.replace(data, lair=None))
    assert scene.lair_item is None and scene.lair_text == ""


def test_the_valley_view_notes_the_lair_of_an_imported_journal(qtbot: Any, tmp_path: Path
                                                               ) -> None:
    """In the main window's Valley view (what a player sees after importing the
    Journal's v5 file)."""
    from companion.ui.views.valley import ValleyView

    campaign, _ = wj.import_new(V5, tmp_path / "v5.stonesaga")
    window = make_window(qtbot, campaign)
    view = window.view("valley")
    assert isinstance(view, ValleyView)
    qtbot.waitUntil(lambda: view.map.lair_label.text() != "")
    assert view.map.lair_label.text() == \
        "Mossback's lair: hex VV02 (not on the map yet), overlay tile OG03, zone B"
