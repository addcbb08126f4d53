"""Issue 36 (the real box, second evening), item 13: the words the window shows agree
with what it shows elsewhere: the map key names a chance a hex shows, the status bar
names a trait as the sheet does, and a face-down tile is named by where it lies
(Rulebook: Valley > Hexes; Behemoths > Activation; Traits)."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt

from companion import operations
from companion.ui.main_window import MainWindow
from companion.ui.map_view import MapView
from tests.ui.test_second_evening_day import valley_tray_form


def test_item13_the_map_key_names_a_chance_a_hex_shows(
        qtbot: Any, window: MainWindow, demo: operations.Campaign) -> None:
    from companion.operations import behemoth as behemoth_ops

    valley = window.show_view("valley")
    [view] = valley.findChildren(MapView)
    options = behemoth_ops.set_up_options(demo)
    assert window.run_operation(behemoth_ops.set_up_behemoth,
                                behemoth=next(iter(options.behemoths)),
                                lair_hex=options.lair_hexes[0])
    shown = {badge.text() for badge in view.map_scene.odds_items.values()}
    assert view.key.isVisible()
    key_badge = view.key.text().split(" on a hex")[0]
    assert key_badge in shown, (key_badge, shown)
    assert view.viewport().rect().contains(view.key.geometry())
    window.grab().save("/tmp/shots/item13_key.png")


def test_item13_the_status_bar_names_a_trait_as_the_sheet_does(
        qtbot: Any, tmp_path: Any) -> None:
    from tests.ui.helpers import make_window

    campaign = operations.new_campaign(tmp_path / "t.stonesaga", society_name="The Ember Folk",
                                       players=2, characters=2, seed=7)
    operations.set_up_valley(campaign, region="emberfen")
    window = make_window(qtbot, campaign)
    hexes = campaign.starting_hexes()
    assert window.run_operation(
        operations.create_character, name="Bryn", player="Player 1", rolled=(2, 3, 3, 2, 1),
        removed=4, assignment={"might": 2, "dexterity": 3, "awareness": 3, "conviction": 2},
        traits=["intrepid", "wise"], mantle="pathfinder", hex_tile=hexes[0])
    said = window.status_message.full_text
    assert said.endswith("; Intrepid, Wise)"), said
    sheet = campaign.content.traits
    assert (sheet["wise"].name, sheet["intrepid"].name) == ("Wise", "Intrepid")
    campaign.close()


def test_item13_a_face_down_tile_typed_again_is_named_by_where_it_lies(
        qtbot: Any, window: MainWindow, refusals: list[str]) -> None:
    valley = valley_tray_form(window, "Ash")
    box = valley.explore_box
    # E05 lies face down east of Ashen Ford; the table typed it for the new tray.
    for edit, tile in zip(box.tile_edits, ("E02", "E05", "E03"), strict=True):
        qtbot.keyClicks(edit, tile)
    qtbot.mouseClick(valley.place_button, Qt.MouseButton.LeftButton)
    [said] = refusals
    assert "hex E05" not in said
    assert "face down: the unexplored hex" in said and "of Ashen Ford" in said, said
