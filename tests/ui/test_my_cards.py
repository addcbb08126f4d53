"""The My cards window (menu Content ▸ My Cards…) and a broken own pack at opening."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox, QPushButton

from companion import operations, paths
from companion.content.user_pack import entries
from companion.operations import cards
from companion.ui.card_form import CardForm
from companion.ui.main_window import MainWindow
from companion.ui.my_cards import MyCardsWindow
from tests.ui.helpers import make_window


def discovery(campaign: Any, card_id: str, name: str) -> dict[str, Any]:
    template = next(iter(campaign.content.discovery_cards.values()))
    return template.model_dump(mode="json") | {"id": card_id, "name": name}


def open_window(qtbot: Any, window: MainWindow) -> MyCardsWindow:
    action = next(a for a in window.content_menu.actions() if a.text() == "My &Cards…")
    assert action.isEnabled()
    action.trigger()
    found = window.findChildren(MyCardsWindow)
    assert len(found) == 1 and found[0].isVisible()
    return found[0]


def select(mine: MyCardsWindow, card_id: str) -> None:
    top = mine.tree.topLevelItem(0)
    for index in range(top.childCount()):
        if top.child(index).text(0).endswith(f" {card_id}"):
            mine.tree.setCurrentItem(top.child(index))
            return
    raise AssertionError(f"{card_id} is not listed")


def test_my_cards_lists_edits_and_deletes_and_the_campaign_follows(
        qtbot: Any, demo: Any, monkeypatch: Any) -> None:
    window = make_window(qtbot, demo)
    cards.enter_card(demo, kind="discovery_cards", data=discovery(demo, "DX50", "Salt Lick"))
    mine = open_window(qtbot, window)
    top = mine.tree.topLevelItem(0)
    assert top.text(0) == "My cards (Sample pack)" and top.text(1) == "sample-mine 1.0.1"
    assert [top.child(0).text(c) for c in range(3)] == [
        "Discovery card DX50", "Salt Lick", "sample-mine/discovery_cards.yaml:2"]

    # A new card through the form, from the window.
    mine.kind.setCurrentIndex(mine.kind.findData("discovery_cards"))
    qtbot.mouseClick(mine.new_button, Qt.MouseButton.LeftButton)
    form = next(f for f in mine.findChildren(CardForm) if f.isVisible())
    form.editor.set_value(discovery(demo, "DX51", "Flint Knapper"))
    qtbot.mouseClick(form.save_button, Qt.MouseButton.LeftButton)
    assert not form.isVisible() and "DX51" in demo.content.discovery_cards
    assert mine.tree.topLevelItem(0).childCount() == 2

    # Edit: the name changes in the pack and in the open campaign.
    select(mine, "DX50")
    qtbot.mouseClick(mine.edit_button, Qt.MouseButton.LeftButton)
    form = next(f for f in mine.findChildren(CardForm) if f.isVisible())
    assert form.windowTitle() == "Edit the Discovery card DX50"
    form.editor.editors["name"].set_value("Salt Spring")
    qtbot.mouseClick(form.save_button, Qt.MouseButton.LeftButton)
    assert demo.content.discovery_cards["DX50"].name == "Salt Spring"

    # Delete (after asking): gone from the pack and the campaign, without a restart.
    monkeypatch.setattr(QMessageBox, "question",
                        lambda *a, **k: QMessageBox.StandardButton.Yes)
    select(mine, "DX51")
    qtbot.mouseClick(mine.delete_button, Qt.MouseButton.LeftButton)
    assert "DX51" not in demo.content.discovery_cards
    assert [e.id for e in entries(paths.user_content_dir() / "sample-mine")] == ["DX50"]
    with demo.file.read() as session:
        from companion.store import models

        recorded = session.get(models.Campaign, 1).content_packs
    assert recorded[-1] == {"id": "sample-mine", "version": "1.0.4"}

    # Check Packs lists a hand-made slip as file:line.
    (paths.user_content_dir() / "sample-mine" / "night_cards.yaml").write_text(
        "night_cards:\n  - id: N40\n    name: Long Dark\n    type: solo\n"
        "    omens: [moon]\n    activity: 1\n", encoding="utf-8")
    qtbot.mouseClick(mine.validate_button, Qt.MouseButton.LeftButton)
    assert mine.problems.item(0).text() == (
        "sample-mine/night_cards.yaml:2: night_cards.0.text: required field is missing")


def test_a_broken_own_pack_opens_the_campaign_and_offers_my_cards(
        qtbot: Any, tmp_path: Path) -> None:
    path = tmp_path / "c.stonesaga"
    campaign = operations.create_demo_campaign(path)
    cards.enter_card(campaign, kind="discovery_cards",
                     data=discovery(campaign, "DX60", "Old Camp"))
    campaign.close()
    broken = paths.user_content_dir() / "sample-mine" / "discovery_cards.yaml"
    broken.write_text(broken.read_text(encoding="utf-8").replace("name: Old Camp",
                                                                 "name: [Old Camp"),
                      encoding="utf-8")
    window = make_window(qtbot, operations.open_campaign(path))
    boxes = [b for b in window.findChildren(QMessageBox)
             if b.objectName() == "brokenPackMessage" and b.isVisible()]
    assert len(boxes) == 1
    assert "sample-mine/discovery_cards.yaml:" in boxes[0].text()
    # It plays on with the card the file carries (issue 24; before, without it).
    assert "DX60" in window.campaign.content.discovery_cards
    fix = next(b for b in boxes[0].findChildren(QPushButton) if b.text() == "Open My Cards")
    qtbot.mouseClick(fix, Qt.MouseButton.LeftButton)
    mine = window.findChildren(MyCardsWindow)[0]
    assert mine.isVisible()
    assert "sample-mine/discovery_cards.yaml:" in mine.problems.item(0).text()
