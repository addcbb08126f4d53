"""Issue 36 item 3 (the real box, second evening): New Character in a "My own box"
campaign offers the rulebook's traits and mantles (Rulebook: Character Creation, Step 2
Choose Trait, Step 3 Choose Mantle), a trait or mantle the box prints beyond them is
typed in the dialog itself and remembered in the owner's pack, and the New Campaign
wizard for "My own box" goes on, like the sample's, through the first challenge and the
characters. Through the real widgets, at the system font and at Larger text."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication, QInputDialog, QMessageBox, QWidget

from companion.ui.new_campaign_wizard import NewCampaignWizard
from tests.ui import layout_checks
from tests.ui.newcomer import font_scale  # noqa: F401 (a fixture)

RULEBOOK_TRAITS = ["Cunning", "Intrepid", "Indomitable", "Resourceful", "Wise"]
RULEBOOK_MANTLES = ["Mantle of the Mystic", "Mantle of the Seeker",
                    "Mantle of the Storyteller", "Mantle of the Wanderer"]


def shot(widget: QWidget, name: str, scale: float, tmp_path: Path) -> Path:
    """Render ``widget`` (SHOTS_DIR keeps the pictures to look at)."""
    folder = Path(os.environ.get("SHOTS_DIR") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}-{'larger' if scale > 1 else 'system'}.png"
    assert widget.grab().save(str(path))
    return path


def answer_input(text: str) -> None:
    """Type ``text`` into the "Type another …" question once it opens, and press OK."""

    def answer() -> None:
        dialog = QApplication.activeModalWidget()
        if not isinstance(dialog, QInputDialog):
            QTimer.singleShot(20, answer)
            return
        dialog.setTextValue(text)
        dialog.accept()

    QTimer.singleShot(0, answer)


def dismiss_message(said: list[str]) -> None:
    """Read the message box the refusal opens into ``said``, and close it."""

    def close() -> None:
        box = QApplication.activeModalWidget()
        if not isinstance(box, QMessageBox):
            QTimer.singleShot(20, close)
            return
        said.append(box.text())
        box.accept()

    QTimer.singleShot(0, close)


def pick(qtbot: Any, combo: Any, text: str) -> None:
    """Choose ``text`` in ``combo`` as a player does (its popup, then the item)."""
    index = combo.findText(text)
    assert index >= 0, (text, [combo.itemText(i) for i in range(combo.count())])
    combo.setCurrentIndex(index)
    combo.activated.emit(index)


def combo_texts(combo: Any) -> list[str]:
    return [combo.itemText(i) for i in range(combo.count())]


def test_item_3_new_character_in_a_box_campaign_offers_the_rulebook_s_traits_and_mantles(
        qtbot: Any, tmp_path: Path, font_scale: float) -> None:  # noqa: F811
    from companion.ui.character_dialog import CharacterDialog
    from tests.box_campaign import make_box_campaign
    from tests.ui.helpers import make_window

    box = make_box_campaign(tmp_path / "box.stonesaga", characters=False)
    window = make_window(qtbot, box)
    dialog = CharacterDialog(window)
    qtbot.addWidget(dialog)
    dialog.show()
    assert combo_texts(dialog.trait) == [*RULEBOOK_TRAITS, "Type another trait…"]
    assert combo_texts(dialog.mantle) == [*RULEBOOK_MANTLES, "Type another mantle…"]
    assert "worn" not in " ".join(combo_texts(dialog.mantle))  # nobody wears one yet
    qtbot.keyClicks(dialog.name, "Ash")
    dialog.set_dice([6, 5, 4, 3, 1])
    # A trait the box prints beyond the rulebook's: typed in the dialog, remembered.
    answer_input("Stubborn")
    pick(qtbot, dialog.trait, "Type another trait…")
    assert dialog.trait.currentText() == "Stubborn"
    assert box.content.traits["stubborn"].name == "Stubborn"
    assert "Stubborn" in combo_texts(dialog.second_trait)
    pick(qtbot, dialog.mantle, "Mantle of the Seeker")
    path = shot(dialog, "new-character-box", font_scale, tmp_path)
    assert layout_checks.problems(dialog) == [], path
    qtbot.mouseClick(dialog.create_button, Qt.MouseButton.LeftButton)
    assert dialog.created == "Ash"
    (ash,) = box.characters()
    assert ash.traits == ("stubborn",) or list(ash.traits) == ["stubborn"]
    # The next character: the Seeker is worn, the others free; Stubborn is offered.
    again = CharacterDialog(window)
    qtbot.addWidget(again)
    assert combo_texts(again.mantle) == [
        "Mantle of the Mystic", "Mantle of the Storyteller", "Mantle of the Wanderer",
        "Type another mantle…"]
    assert "Stubborn" in combo_texts(again.trait)
    # A name the app knows already is refused, nothing typed twice.
    said: list[str] = []
    answer_input("wise")
    dismiss_message(said)
    pick(qtbot, again.trait, "Type another trait…")
    assert said and "knows the trait Wise already" in said[0]
    assert again.trait.currentText() != "Type another trait…"
    assert [t for t in box.content.traits if t.startswith("wise")] == ["wise"]


def _fill_character(qtbot: Any, page: Any, name: str, dice: list[int], trait: str,
                    mantle: str) -> None:
    qtbot.keyClicks(page.name, name)
    page.set_dice(dice)
    pick(qtbot, page.trait, trait)
    pick(qtbot, page.mantle, mantle)


def walk_the_box_wizard(qtbot: Any, wizard: NewCampaignWizard, tmp_path: Path,
                        scale: float = 1.0) -> None:
    """My own box through the wizard: the society, the first tray typed, the challenge
    card in hand typed, two characters (one with a trait typed from the box)."""
    qtbot.keyClicks(wizard.society_page.society, "The Box Folk")
    wizard.next()
    packs = wizard.content_page.packs
    rect = packs.visualItemRect(packs.item(0))
    qtbot.mouseClick(packs.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    wizard.next()
    valley = wizard.box_valley_page
    qtbot.keyClicks(valley.tile, "01")
    qtbot.keyClicks(valley.name, "Mossy Ford")
    for combo, feature in zip(valley.sections, ("Plains", "River", "Cave"), strict=True):
        combo.setCurrentIndex(combo.findText(feature))
    qtbot.keyClicks(valley.face_down, "04 07")
    wizard.next()
    challenge = wizard.box_challenge_page
    assert wizard.currentPage() is challenge
    wizard.next()  # nothing typed: refused in game words, on the page
    assert wizard.currentPage() is challenge and "id and name" in challenge.error.text()
    qtbot.keyClicks(challenge.card_id, "C1")
    qtbot.keyClicks(challenge.name, "The First Thaw")
    challenge.omen.setCurrentIndex(challenge.omen.findData("sun"))
    qtbot.keyClicks(challenge.vital, "Warm Hearth: Light a fire in the starting hex.")
    qtbot.keyClicks(challenge.events, "5 societal The folk quarrel: unrest 1")
    qtbot.keyClicks(challenge.outcome, "301")
    shot(wizard, "box-wizard-challenge", scale, tmp_path)
    assert layout_checks.problems(wizard) == []
    wizard.next()
    first = wizard.character_pages[0]
    assert wizard.currentPage() is first
    assert combo_texts(first.trait) == [*RULEBOOK_TRAITS, "Type another trait…"]
    qtbot.keyClicks(first.name, "Ash")
    first.set_dice([6, 5, 4, 3, 1])
    answer_input("Stubborn")
    pick(qtbot, first.trait, "Type another trait…")
    assert first.trait.currentText() == "Stubborn"
    pick(qtbot, first.mantle, "Mantle of the Seeker")
    shot(wizard, "box-wizard-character", scale, tmp_path)
    assert layout_checks.problems(wizard) == []
    wizard.next()
    second = wizard.character_pages[1]
    assert wizard.currentPage() is second
    assert "Mantle of the Seeker" not in combo_texts(second.mantle)  # each worn once
    _fill_character(qtbot, second, "Bryn", [6, 5, 4, 3, 1], "Wise", "Mantle of the Mystic")
    wizard.next()
    assert wizard.currentId() == wizard.summary_id
    summary = wizard.summary_page.summary.text()
    assert "The First Thaw" in summary and "Stubborn" in summary and "Bryn" in summary
    wizard.summary_page.path.setText(str(tmp_path / "box.stonesaga"))


def test_item_3_the_box_wizard_goes_on_through_the_first_challenge_and_the_characters(
        qtbot: Any, tmp_path: Path, font_scale: float) -> None:  # noqa: F811
    """Rulebook: Set Up > Select Challenge; Character Creation: the first-start dialog
    promises "the society, the first challenge and the characters"."""
    wizard = NewCampaignWizard(seed=7)
    qtbot.addWidget(wizard)
    wizard.show()
    walk_the_box_wizard(qtbot, wizard, tmp_path, font_scale)
    wizard.button(wizard.WizardButton.FinishButton).click()
    campaign = wizard.campaign
    assert campaign is not None, wizard.summary_page.error.text()
    try:
        assert campaign.kind == "box"
        status = campaign.status()
        assert status.challenge_name == "The First Thaw"
        characters = {c.name: c for c in campaign.characters()}
        assert set(characters) == {"Ash", "Bryn"}
        assert campaign.content.traits["stubborn"].name == "Stubborn"  # remembered
        assert campaign.content.challenges["C1"].name == "The First Thaw"
        journal = " ".join(line.text for line in campaign.journal())
        assert "Ash joined the society" in journal and "Bryn joined the society" in journal
    finally:
        campaign.close()
