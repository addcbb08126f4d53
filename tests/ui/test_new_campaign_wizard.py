"""The New Campaign wizard: page checks in game words, nothing written before Finish,
and a walk to a new campaign with two characters (typed dice and app-rolled dice)."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtWidgets import QWizard

from companion import operations, paths
from companion.ui.new_campaign_wizard import NewCampaignWizard


@pytest.fixture
def wizard(qtbot):  # type: ignore[no-untyped-def]
    w = NewCampaignWizard(seed=1234)
    qtbot.addWidget(w)
    w.show()
    yield w
    if w.campaign is not None:
        w.campaign.close()


def next_page(wizard: NewCampaignWizard) -> None:
    before = wizard.currentId()
    wizard.next()
    assert wizard.currentId() != before, wizard.currentPage().findChild(
        object, "wizardError").text()  # type: ignore[union-attr]


def fill_society(wizard: NewCampaignWizard, name: str = "The Ash Walkers") -> None:
    page = wizard.society_page
    page.society.setText(name)
    page.players.setValue(2)
    page.characters.setCurrentIndex(page.characters.findData(2))


def test_society_page_refuses_in_game_words(wizard: NewCampaignWizard) -> None:
    page = wizard.society_page
    wizard.next()
    assert wizard.currentPage() is page
    assert page.error.text() == "⚠ A society needs a name."
    page.society.setText("Lone Ember")
    page.players.setValue(1)
    assert page.solo.currentData() == "multi"
    assert [page.characters.itemData(i) for i in range(page.characters.count())] == [2, 3, 4]
    page.solo.setCurrentIndex(page.solo.findData("hardcore"))
    assert [page.characters.itemData(i) for i in range(page.characters.count())] == [1]
    page.players.setValue(2)
    assert [page.characters.itemData(i) for i in range(page.characters.count())] == [2, 4]
    assert not page.solo.isEnabled()


def walk_to_characters(wizard: NewCampaignWizard) -> None:
    fill_society(wizard)
    next_page(wizard)  # -> content pack
    assert wizard.content_page.pack_id() == "sample"
    next_page(wizard)  # -> region
    region = wizard.region_page.region
    region.setCurrentIndex(region.findData("thornspire"))
    next_page(wizard)  # -> challenge
    assert wizard.challenge_page.challenge_id() == "C1"
    next_page(wizard)  # -> character 1


def test_walk_to_a_new_campaign_with_typed_and_app_rolled_dice(
        wizard: NewCampaignWizard, tmp_path: Path) -> None:
    walk_to_characters(wizard)
    first = wizard.character_pages[0]
    assert wizard.currentPage() is first
    first.name.setText("Ash")
    first.set_dice([6, 5, 4, 3, 2])  # typed from the table; die 5 (the 2) left out
    assert first.removed() == 4 and not first.rolled_in_app
    first.trait.setCurrentIndex(first.trait.findData("intrepid"))
    first.mantle.setCurrentIndex(first.mantle.findData("hearthkeeper"))
    next_page(wizard)

    second = wizard.character_pages[1]
    assert wizard.currentPage() is second
    assert second.player.currentText() == "Player 2"
    # Each mantle is worn once: the first character's is not offered again.
    assert second.mantle.findData("hearthkeeper") == -1
    second.name.setText("Ash")
    second.roll_in_app()
    assert second.rolled_in_app and second.dice_source.text() == "Dice rolled in the app."
    rolled = second.rolled()
    second.trait.setCurrentIndex(second.trait.findData("wise"))
    wizard.next()  # the same name twice is refused on the page
    assert wizard.currentPage() is second
    assert "already in this game" in second.error.text()
    second.name.setText("Bryn")
    next_page(wizard)

    summary = wizard.summary_page
    assert wizard.currentPage() is summary
    assert "Bryn" in summary.summary.text() and "rolled in the app" in summary.summary.text()
    assert summary.path.text().startswith(str(paths.campaigns_dir()))
    target = tmp_path / "Ash Walkers.stonesaga"
    summary.path.setText(str(target))
    assert not target.exists()  # nothing is written before Finish
    wizard.button(QWizard.WizardButton.FinishButton).click()
    assert wizard.result() == QWizard.DialogCode.Accepted
    assert wizard.path == target and target.exists()
    wizard.campaign.close()  # type: ignore[union-attr]
    wizard.campaign = None

    campaign = operations.open_campaign(target)
    try:
        assert campaign.title.startswith("The Ash Walkers") or "Ash Walkers" in campaign.title
        characters = {c.name: c for c in campaign.characters()}
        assert set(characters) == {"Ash", "Bryn"}
        sheet = campaign.file
        from companion.operations.state import load_game

        with sheet.read() as session:
            game = load_game(session, campaign.content)
        by_name = {c.name: c for c in game.characters}
        assert sorted(by_name["Ash"].abilities.values(), reverse=True) == [6, 5, 4, 3]
        kept = sorted(rolled, reverse=True)[:4]
        assert sorted(by_name["Bryn"].abilities.values(), reverse=True) == kept
        assert by_name["Ash"].mantle == "hearthkeeper"
        assert by_name["Bryn"].mantle not in (None, "hearthkeeper")
        start = campaign.content.starting_hex("thornspire").id
        assert {str(c.hex) for c in game.characters} == {start}
        trays = campaign.valley()
        assert len(trays) == 1
        assert [h.tile_id for h in trays[0].hexes if h.explored] == [start]
        assert len(trays[0].hexes) == campaign.content.rules.valley.tray_slots
        status = campaign.status()
        assert status.challenge_name == campaign.content.challenges["C1"].name
        journal = " ".join(line.text for line in campaign.journal())
        assert "Ash joined the society" in journal and "Bryn joined the society" in journal
    finally:
        campaign.close()


def test_a_refusal_at_finish_keeps_the_wizard_open_and_leaves_no_file(
        wizard: NewCampaignWizard, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    walk_to_characters(wizard)
    for page in wizard.character_pages[:2]:
        page.name.setText(f"Hero {page.number}")
        page.set_dice([4, 4, 4, 4, 4])
        next_page(wizard)

    def refuse(*args: object, **kwargs: object) -> None:
        raise operations.Refused("The challenge 'C1' is still being played; end it first.")

    monkeypatch.setattr(operations, "start_challenge", refuse)
    target = tmp_path / "Refused.stonesaga"
    wizard.summary_page.path.setText(str(target))
    wizard.button(QWizard.WizardButton.FinishButton).click()
    assert wizard.isVisible() and wizard.currentPage() is wizard.summary_page
    assert "still being played" in wizard.summary_page.error.text()
    assert wizard.campaign is None
    assert list(tmp_path.iterdir()) == []  # the half-made file and its companions are gone


def test_an_existing_file_is_never_overwritten(wizard: NewCampaignWizard,
                                               tmp_path: Path) -> None:
    walk_to_characters(wizard)
    for page in wizard.character_pages[:2]:
        page.name.setText(f"Hero {page.number}")
        page.set_dice([4, 4, 4, 4, 4])
        next_page(wizard)
    target = tmp_path / "Taken.stonesaga"
    target.write_bytes(b"someone's campaign")
    wizard.summary_page.path.setText(str(target))
    wizard.button(QWizard.WizardButton.FinishButton).click()
    assert "already exists" in wizard.summary_page.error.text()
    assert target.read_bytes() == b"someone's campaign"


def test_second_trait_only_when_abilities_sum_to_11_or_less(
        wizard: NewCampaignWizard) -> None:
    walk_to_characters(wizard)
    page = wizard.character_pages[0]
    page.set_dice([6, 6, 6, 6, 1])
    assert not page.second_trait.isEnabled()
    page.set_dice([3, 3, 2, 2, 1])
    assert page.second_trait.isEnabled()
    page.name.setText("Wren")
    page.trait.setCurrentIndex(page.trait.findData("wise"))
    page.second_trait.setCurrentIndex(page.second_trait.findData("wise"))
    wizard.next()
    assert "same trait twice" in page.error.text()


def test_hardcore_solo_has_one_character_page(wizard: NewCampaignWizard) -> None:
    page = wizard.society_page
    page.society.setText("Lone Ember")
    page.players.setValue(1)
    page.solo.setCurrentIndex(page.solo.findData("hardcore"))
    for _ in range(4):
        next_page(wizard)
    only = wizard.character_pages[0]
    assert wizard.currentPage() is only
    only.name.setText("Solitary")
    wizard.next()
    assert wizard.currentPage() is only  # no dice typed or rolled yet
    only.set_dice([5, 4, 3, 2, 1])
    next_page(wizard)
    assert wizard.currentPage() is wizard.summary_page


def test_new_campaign_from_the_menu_shows_the_campaign(qtbot, tmp_path: Path,  # type: ignore[no-untyped-def]
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """new_campaign(window): the wizard's campaign ends up in the window, remembered."""
    from companion.ui import new_campaign_wizard as module
    from companion.ui import session
    from companion.ui.main_window import MainWindow

    window = MainWindow()
    qtbot.addWidget(window)
    target = tmp_path / "Menu.stonesaga"

    def run(self: NewCampaignWizard) -> int:
        self.show()
        self.society_page.society.setText("Menu Folk")
        for _ in range(4):
            self.next()
        for page in self.character_pages[:2]:
            page.name.setText(f"Hero {page.number}")
            page.set_dice([4, 4, 4, 4, 4])
            self.next()
        self.summary_page.path.setText(str(target))
        assert self.validateCurrentPage()
        return QWizard.DialogCode.Accepted

    monkeypatch.setattr(NewCampaignWizard, "exec", run)
    assert module.welcome(window, ask=False)
    assert window.campaign is not None and window.campaign.path == target
    assert session.recent_files()[0] == str(target)
    window.close()


def test_dice_not_typed_or_rolled_do_not_pass(wizard: NewCampaignWizard) -> None:
    # Rulebook: Character Creation, step 1: five dice rolled. The blank dice are not a
    # roll of 1s; the app rolls once per character.
    walk_to_characters(wizard)
    page = wizard.character_pages[0]
    page.name.setText("Ash")
    assert all(spin.text() == "–" for spin in page.dice)
    assert "✓" not in page.assignment_note.text()
    assert page.assignment_note.text().startswith("Type the five dice")
    wizard.next()
    assert wizard.currentPage() is page
    page.roll_button.click()
    assert all(1 <= spin.value() <= 6 for spin in page.dice)
    assert not page.roll_button.isEnabled()
    assert "✓" in page.assignment_note.text()


def test_character_page_dice_typed_with_tab_land_die_to_die(qtbot,  # type: ignore[no-untyped-def]
                                                             wizard: NewCampaignWizard) -> None:
    """Rulebook: Character Creation, step 1, typed at the table: Tab goes die to die on
    the wizard's character page, as in New Character, never through a "Leave out" between
    them (issue 36 item 11)."""
    from PySide6.QtCore import Qt

    walk_to_characters(wizard)
    page = wizard.character_pages[0]
    wizard.activateWindow()
    qtbot.waitUntil(wizard.isActiveWindow, timeout=5000)
    page.dice[0].setFocus(Qt.FocusReason.TabFocusReason)  # as Tab from the player
    for die in "65431":
        focused = wizard.focusWidget()
        assert focused in page.dice, focused and focused.accessibleName()
        qtbot.keyClicks(focused, die)
        qtbot.keyClick(focused, Qt.Key.Key_Tab)
    assert wizard.focusWidget() is page.roll_button
    assert page.rolled() == [6, 5, 4, 3, 1]
