"""File ▸ New Campaign offers "My own box — the app learns it as you play" (issue 25
part 1): the valley begins from the tiles on the table (Rulebook: Set Up > Determine
Starting Hex), the starting tile typed once into the owner's pack; nothing of the sample."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt

from companion.ui.new_campaign_wizard import NewCampaignWizard


def test_rulebook_set_up_my_own_box_from_the_wizard(qtbot: Any, tmp_path: Path) -> None:
    wizard = NewCampaignWizard(seed=7)
    qtbot.addWidget(wizard)
    wizard.show()
    wizard.society_page.society.setText("The Box Folk")
    wizard.society_page.players.setValue(2)
    wizard.next()
    packs = wizard.content_page.packs
    texts = [packs.item(i).text() for i in range(packs.count())]
    assert texts[0] == "My own box — the app learns it as you play"
    assert texts[1].startswith("Sample campaign")
    assert not any("stonesaga-rules" in t for t in texts)  # the rules alone: no choice
    rect = packs.visualItemRect(packs.item(0))
    qtbot.mouseClick(packs.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert wizard.content_page.pack_id() == "box"
    wizard.next()
    page = wizard.box_valley_page
    assert wizard.currentPage() is page
    assert [page.region.itemText(i) for i in range(page.region.count())] == [
        "Verdant Vale", "Skyreach Plateaus"]
    wizard.next()  # nothing typed: refused in game words
    assert wizard.currentPage() is page and "starting tile" in page.error.text()
    qtbot.keyClicks(page.tile, "01")
    qtbot.keyClicks(page.name, "Mossy Ford")
    for combo, feature in zip(page.sections, ("Plains", "River", "Forest"), strict=True):
        combo.setCurrentIndex(combo.findText(feature))
    qtbot.keyClicks(page.face_down, "04 07")
    wizard.next()
    # Then, as for the sample, the first challenge and the characters (issue 36 item 3).
    challenge = wizard.box_challenge_page
    assert wizard.currentPage() is challenge
    qtbot.keyClicks(challenge.card_id, "C1")
    qtbot.keyClicks(challenge.name, "The First Thaw")
    qtbot.keyClicks(challenge.vital, "Warm Hearth: Light a fire in the starting hex.")
    qtbot.keyClicks(challenge.events, "20 immediate Winter comes.")
    wizard.next()
    for page_, name, mantle in zip(wizard.character_pages, ("Ash", "Bryn"),
                                   ("mystic", "seeker"), strict=False):
        assert wizard.currentPage() is page_
        qtbot.keyClicks(page_.name, name)
        page_.set_dice([6, 5, 4, 3, 1])
        page_.mantle.setCurrentIndex(page_.mantle.findData(mantle))
        wizard.next()
    assert wizard.currentId() == wizard.summary_id
    summary = wizard.summary_page.summary.text()
    assert "My own box" in summary and "01" in summary and "04, 07" in summary
    wizard.summary_page.path.setText(str(tmp_path / "box.stonesaga"))
    wizard.next()  # Finish
    campaign = wizard.campaign
    assert campaign is not None
    try:
        assert campaign.kind == "box"
        assert [p.id for p in campaign.content.packs] == ["stonesaga-rules", "box", "box-mine"]
        assert list(campaign.content.hexes) == ["01"]  # typed once; nothing of the sample
        assert list(campaign.content.challenges) == ["C1"]  # typed from the card in hand
        assert not campaign.content.forage_cards
        (tray,) = campaign.valley()
        assert [h.tile_id for h in tray.hexes] == ["01", "04", "07"]
        assert campaign.status().kind_words.startswith("My own box")
    finally:
        campaign.close()


def test_rulebook_character_creation_a_box_s_trait_card_is_entered_in_my_cards(
        qtbot: Any, tmp_path: Path) -> None:
    """My own box knows no trait yet: the group enters the trait card from the box in
    Content ▸ My Cards, and it is offered from then on (Character Creation, step 2)."""
    from companion.ui.card_form import CardForm
    from tests.box_campaign import make_box_campaign
    from tests.ui.helpers import make_window
    from tests.ui.test_my_cards import open_window

    box = make_box_campaign(tmp_path / "box.stonesaga", characters=False)
    window = make_window(qtbot, box)
    assert "(My own box)" in window.windowTitle()
    mine = open_window(qtbot, window)
    kinds = [mine.kind.itemData(i) for i in range(mine.kind.count())]
    assert {"traits", "mantles", "hexes"} <= set(kinds)
    mine.kind.setCurrentIndex(mine.kind.findData("traits"))
    qtbot.mouseClick(mine.new_button, Qt.MouseButton.LeftButton)
    form = next(f for f in mine.findChildren(CardForm) if f.isVisible())
    form.editor.set_value({"id": "steady", "name": "Steady", "text": "From the card."})
    qtbot.mouseClick(form.save_button, Qt.MouseButton.LeftButton)
    assert not form.isVisible(), form.error.text()
    assert box.content.traits["steady"].name == "Steady"
