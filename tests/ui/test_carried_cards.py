"""The GUI's offer when a campaign opens carrying cards this computer's pack lacks or
holds in another version (issue 24): it plays with its own, says so, and offers to add
the missing ones to this computer's pack."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox, QPushButton
from sqlmodel import select

from companion import operations
from companion.content import user_pack
from companion.operations import cards
from companion.store import models
from tests.ui.helpers import make_window


def discovery(campaign: Any, card_id: str, name: str) -> dict[str, Any]:
    template = next(iter(campaign.content.discovery_cards.values()))
    return template.model_dump(mode="json") | {"id": card_id, "name": name}


def entered(tmp_path: Path) -> Path:
    path = tmp_path / "c.stonesaga"
    with operations.create_demo_campaign(path) as campaign:
        cards.enter_card(campaign, kind="discovery_cards",
                         data=discovery(campaign, "DX01", "Bones"))
        cards.enter_card(campaign, kind="discovery_cards",
                         data=discovery(campaign, "DX02", "Flint Knapper"))
    return path


def message(window: Any) -> QMessageBox:
    (box,) = [b for b in window.findChildren(QMessageBox)
              if b.objectName() == "carriedCardsMessage" and b.isVisible()]
    return box


def button(box: QMessageBox, text: str) -> QPushButton:
    return next(b for b in box.findChildren(QPushButton) if b.text() == text)


def test_opened_on_another_computer_it_plays_with_its_cards_and_offers_to_add_them(
        qtbot: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = entered(tmp_path)
    monkeypatch.setenv("COMPANION_HOME", str(tmp_path / "laptop"))
    window = make_window(qtbot, operations.open_campaign(path))
    window.resize(1366, 768)
    box = message(window)
    assert "carries 2 cards your pack on this computer does not have" in box.text()
    assert "Discovery card DX01 (Bones)" in box.text()
    assert {"DX01", "DX02"} <= set(window.campaign.content.discovery_cards)
    box.grab().save(str(tmp_path / "carried-cards-offer.png"))
    qtbot.mouseClick(button(box, "Add Them to My Pack"), Qt.MouseButton.LeftButton)
    own = user_pack.find_user_pack("sample-mine")
    assert own is not None
    assert {e.id for e in user_pack.entries(own.folder)} == {"DX01", "DX02"}
    assert window.campaign.cards_missing == ()
    assert "Added to your pack on this computer" in window.statusBar().currentMessage()
    assert window.undo_action.isEnabled()


def test_a_card_edited_here_is_said_and_kept_as_played(
        qtbot: Any, tmp_path: Path) -> None:
    path = entered(tmp_path)
    own = user_pack.find_user_pack("sample-mine")
    assert own is not None
    (entry,) = [e for e in user_pack.entries(own.folder) if e.id == "DX01"]
    user_pack.add_card(own.folder, "discovery_cards", dict(entry.data) | {"name": "Skull"},
                       replace="DX01")
    window = make_window(qtbot, operations.open_campaign(path))
    box = message(window)
    assert "1 card is different in your pack on this computer" in box.text()
    assert "keeps the version it played with" in box.text() and "DX01 (Bones)" in box.text()
    assert not [b for b in box.findChildren(QPushButton) if b.text() == "Add Them to My Pack"]
    assert window.campaign.content.discovery_cards["DX01"].name == "Bones"
    qtbot.mouseClick(button(box, "Not Now"), Qt.MouseButton.LeftButton)


def test_cards_of_the_pack_the_file_does_not_carry_are_carried_once_shown(
        qtbot: Any, tmp_path: Path) -> None:
    """A campaign playing with cards of the owner's pack its file carries none of (the
    pack was filled outside it, e.g. with 'content add-card') carries them once the
    window shows it, as one operation the status bar reports."""
    path = tmp_path / "c.stonesaga"
    with operations.create_demo_campaign(path) as campaign:
        data = discovery(campaign, "DX07", "Antler")
    own = user_pack.create_pack("sample-mine", "My cards (Sample)", extends="sample")
    user_pack.add_card(own.folder, "discovery_cards", data)
    window = make_window(qtbot, operations.open_campaign(path, verify="background"))
    assert not [b for b in window.findChildren(QMessageBox)
                if b.objectName() == "carriedCardsMessage" and b.isVisible()]

    def carried() -> list[str]:
        with window.campaign.file.read() as session:
            return [r.card_id for r in session.exec(select(models.OwnCard)).all()]

    qtbot.waitUntil(lambda: carried() == ["DX07"])
    assert "now carries 1 card of your own pack" in window.statusBar().currentMessage()
