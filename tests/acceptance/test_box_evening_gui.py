"""Acceptance (issue 36, "Done when"): an own-box evening played through the window only
-- its menus, tabs, buttons and dialogs, clicked and typed as the table would. The
operations are only read, for the assertions.

The evening:

- File ▸ New Campaign ▸ My own box: the starting tile 01 (Mossy Ford: plains, river,
  cave) and the face-down tiles 04 and 07 typed, the challenge card in hand (The First
  Thaw, C1, outcome 301) typed, Ash (Stubborn, a trait typed from the box; the Seeker)
  and Bryn (Wise; the Mystic). Two characters: 5 energy each (D8).
- Day 1 (turns alternate, Rulebook: Day Phase): Ash explores north-east, flipping 04
  (typed as flipped: Reed Bank, forest and river; 5 - 2 = 3), and draws the Discovery
  D07 from the box, typed in the card form with its effects as one line, "gain 1 flint":
  the flint token, which the pack lacks, is entered on the spot and the card goes on.
  Bryn fishes the river "at the table" (FI03: gain 2 fish; 5 - 2 = 3). Ash forages the
  forest "at the table" (FF02: gain 1 reed, its token entered on the spot too;
  3 - 2 = 1). Bryn passes; Ash crafts flint beside reed turned 180° (Grey 5610): the app
  has not read that code, so Craft asks what the owner's Codex says and the item, Rope,
  is typed once (1 - 1 = 0). Ash passes.
- Night 1: Bryn eats a fish (3 + 2 + 1 = 6 > 5: energized, a minor boost); Ash 0 + 2.
  Ash's Night card, N03, typed as one line with a test (its Will apply read): 5 rolled
  + awareness 4 reaches 7, 1 lore; Bryn's, N05, just recorded: unrest +1; N03's
  activity 2.
- Play ▸ End Challenge with the card's outcome 301, which the app does not know: what
  it did typed once ("lore +1": lore 2). Ash keeps the Rope (D13); every Day action is
  disabled.
- Edit ▸ Undo to the empty campaign and Edit ▸ Redo to the end, each stage met again
  both ways; File ▸ Export Campaign, then File ▸ Import Campaign: the same campaign,
  the own pack still remembering Grey 5610 and the new tokens.

Screenshots of each step go to SHOTS_DIR (else the test's tmp folder).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QApplication, QCheckBox, QFileDialog, QLabel, QPushButton, QWidget

from companion import operations
from companion.ui.card_form import CardForm
from companion.ui.main_window import MainWindow
from companion.ui.material_token import MaterialTokenDialog
from companion.ui.new_campaign_wizard import NewCampaignWizard
from companion.ui.table_record import RecordDialog
from companion.ui.views.day import DayView
from tests.ui.test_second_evening_characters import walk_the_box_wizard


class Evening:
    """The window the table plays in, and the pictures taken on the way."""

    def __init__(self, qtbot: Any, window: MainWindow, shots: Path) -> None:
        self.qtbot, self.window, self.shots = qtbot, window, shots
        self.taken: list[Path] = []
        self.stages: dict[int, dict[str, Any]] = {}
        """The campaign's state at each stage, by the number of its journal entries then."""

    @property
    def campaign(self) -> operations.Campaign:
        assert self.window.campaign is not None
        return self.window.campaign

    def stage(self) -> dict[str, Any]:
        """Keep the campaign's state as it stands (checked again on the way back)."""
        now = state(self.campaign)
        self.stages[len(now["journal"])] = now
        return now

    def shot(self, widget: QWidget, name: str) -> None:
        QApplication.processEvents()
        path = self.shots / f"{len(self.taken):02d}-{name}.png"
        assert widget.grab().save(str(path))
        self.taken.append(path)

    def menu(self, title: str, text: str) -> QAction:
        """The action ``text`` of the menu ``title`` (as its label reads, no '&')."""
        bar = self.window.menuBar()
        menus: list[Any] = [a.menu() for a in bar.actions()
                            if a.text().replace("&", "") == title]
        (action,) = [a for a in menus[0].actions() if a.text().replace("&", "") == text]
        assert action.isEnabled(), text
        assert isinstance(action, QAction)
        return action

    def click(self, button: QPushButton) -> None:
        self.qtbot.waitUntil(button.isVisible, timeout=2000)
        assert button.isEnabled(), button.text()
        self.qtbot.mouseClick(button, Qt.MouseButton.LeftButton)

    def day(self) -> DayView:
        view = self.window.show_view("day")
        assert isinstance(view, DayView)
        return view

    def energy(self) -> dict[str, int]:
        return {c.name: c.energy for c in self.campaign.characters()}

    def bag(self, name: str) -> list[str]:
        return [t.name for t in self.campaign.character_detail(name).bag]

    def journal(self, count: int = 1) -> list[str]:
        return [e.text for e in self.campaign.journal(count)]


def state(campaign: operations.Campaign) -> dict[str, Any]:
    """What the table would check of the campaign: the society, each character's energy,
    place, bag and items, the journal's texts and what the own pack remembers."""
    status = campaign.status()
    characters = {}
    for character in campaign.characters():
        detail = campaign.character_detail(character.name)
        characters[character.name] = (
            character.energy, character.hex_id, [t.name for t in detail.bag],
            [str(i) for i, _ in detail.items])
    content = campaign.content
    return {"society": (status.challenge_id, status.lore, status.unrest, status.activity),
            "characters": characters,
            "journal": played(campaign),
            "pack": (sorted(content.materials), sorted(content.hexes),
                     sorted(content.discovery_cards), sorted(content.night_cards),
                     sorted(content.traits), remembered(campaign))}


def played(campaign: operations.Campaign) -> list[str]:
    """The journal's texts of what stands played (not undone; no undo or redo lines)."""
    return [e.text for e in campaign.journal(500)
            if not e.undone and e.kind not in ("undo", "redo")]


def game(seen: dict[str, Any]) -> dict[str, Any]:
    """A state without the own pack, which Undo leaves as it is."""
    return {k: v for k, v in seen.items() if k != "pack"}


def remembered(campaign: operations.Campaign) -> tuple[str, str | None]:
    """What the own pack remembers for Grey 5610 (the code Ash crafted): its kind and
    item's name."""
    found = campaign.content.crafting.lookup("grey", "5610")
    return found.kind.value, found.item.name if found.item is not None else None


def decider(wizard: Any) -> Any:
    """Who decides the step the wizard shows now (None: no step left)."""
    return wizard.step.decider if wizard.step is not None else None


def visible(kind: type) -> Any:
    """The one shown dialog (or form) of ``kind``, wherever it was opened."""
    shown = [w for w in QApplication.allWidgets() if isinstance(w, kind) and w.isVisible()]
    assert len(shown) == 1, shown
    return shown[0]


def when_open(kind: type, act: Any) -> None:
    """Once a dialog of ``kind`` is the active modal one, ``act`` on it (as the player
    does who reads it)."""

    def look() -> None:
        dialog = QApplication.activeModalWidget()
        if not isinstance(dialog, kind):
            QTimer.singleShot(20, look)
            return
        act(dialog)

    QTimer.singleShot(0, look)


@pytest.fixture
def refusals(monkeypatch: Any) -> list[str]:
    """Refusals the window would show in a message box, collected instead."""
    from PySide6.QtWidgets import QMessageBox

    shown: list[str] = []
    monkeypatch.setattr(QMessageBox, "warning",
                        lambda parent, title, text, *rest: shown.append(text))
    return shown


@pytest.fixture
def evening(qtbot: Any, tmp_path: Path) -> Evening:
    """The main window, with no campaign yet (the evening makes its own)."""
    window = MainWindow()
    qtbot.addWidget(window)
    window.resize(1366, 768)
    window.show()
    shots = Path(os.environ.get("SHOTS_DIR") or tmp_path / "shots")
    shots.mkdir(parents=True, exist_ok=True)
    return Evening(qtbot, window, shots)


def new_box_campaign(ev: Evening, tmp_path: Path) -> None:
    """File ▸ New Campaign ▸ My own box, through the wizard to Finish."""

    def walk(wizard: NewCampaignWizard) -> None:
        walk_the_box_wizard(ev.qtbot, wizard, tmp_path)
        ev.shot(wizard, "wizard-summary")
        wizard.button(wizard.WizardButton.FinishButton).click()

    when_open(NewCampaignWizard, walk)
    ev.menu("File", "New Campaign…").trigger()
    assert ev.window.campaign is not None


def test_an_own_box_evening_through_the_window(qtbot: Any, evening: Evening,
                                               tmp_path: Path, refusals: list[str],
                                               monkeypatch: Any) -> None:
    ev = evening
    new_box_campaign(ev, tmp_path)
    box = ev.campaign
    assert box.kind == "box"
    assert box.status().challenge_name == "The First Thaw"
    assert ev.energy() == {"Ash": 5, "Bryn": 5}
    assert box.content.traits["stubborn"].name == "Stubborn"  # typed, remembered
    day = ev.day()
    ev.shot(ev.window, "day-1")
    ev.stage()

    # Day 1. Ash explores north-east: the face-down 04 flips, typed as it lies (5 - 2 = 3).
    from companion.ui.explore_tray import TileDialog

    def flipped(dialog: TileDialog) -> None:
        assert dialog.tile == "04"
        qtbot.keyClicks(dialog.name_edit, "Reed Bank")
        for combo, feature in zip(dialog.sections, ("Forest", "River", "None"), strict=True):
            combo.setCurrentIndex(combo.findText(feature))
        ev.shot(dialog, "tile-04-typed")
        ev.click(dialog.ok_button)

    when_open(TileDialog, flipped)
    ev.click(day.button("Ash", "Explore the unexplored hex north-east of Mossy Ford"))
    assert refusals == []
    assert box.content.hexes["04"].name == "Reed Bank"
    assert ev.energy() == {"Ash": 3, "Bryn": 5}
    assert next(c.hex_id for c in box.characters() if c.name == "Ash") == "04"

    # The Discovery drawn from the box, D07, is new: entered in the card form, its
    # effects one line; the flint token it names is entered on the spot, the card goes on.
    qtbot.waitUntil(lambda: day.discovery_typed is not None and
                    day.discovery_typed.isVisible(), timeout=2000)
    field = day.discovery_typed
    qtbot.keyClicks(field.combo.lineEdit(), "D07")
    ev.click(day.discovery_use)
    ev.click(field.enter_button)
    form = visible(CardForm)
    editors = form.editor.editors
    assert editors["id"].value() == "D07"
    qtbot.keyClicks(editors["name"].edit, "Sharp Stones")
    qtbot.keyClicks(editors["text"].edit, "Gain 1 flint.")
    effects = editors["effects"]
    qtbot.keyClicks(effects.line, "gain 1 flint")
    ev.shot(form, "discovery-card-typed")
    ev.click(form.save_button)
    token = visible(MaterialTokenDialog)
    assert token.needed == "flint" and token.name.text() == "Flint"
    for edge, colour, count in (("left", "grey", 5), ("right", "red", 6),
                                ("top", "yellow", 5)):  # its pips as printed
        token.set_edge(edge, colour, count)
    ev.shot(token, "flint-on-the-spot")
    ev.click(token.save_button)
    assert refusals == []
    assert "flint" in box.content.materials and "D07" in box.content.discovery_cards
    assert ev.bag("Ash") == ["flint"]
    ev.shot(ev.window, "day-after-discovery")
    ev.stage()

    # Bryn fishes the river of Mossy Ford at the table: FI03, two fish (5 - 2 = 3).
    [at_table] = [b for b in day.boxes["Bryn"].findChildren(QPushButton, "atTable")
                  if "river" in b.accessibleName()]
    ev.click(at_table)
    record = day.dialog
    assert isinstance(record, RecordDialog)
    qtbot.keyClicks(record.card, "FI03")
    record.line.setFocus()
    qtbot.keyClicks(record.line, "gain 2 fish")
    assert record.preview.text() == "Will apply: gain 2 fish", record.preview.text()
    qtbot.keyClick(record.line, Qt.Key.Key_Return)
    assert refusals == [] and not record.isVisible()
    assert ev.bag("Bryn") == ["fish", "fish"]
    assert ev.energy() == {"Ash": 3, "Bryn": 3}
    # Ash forages the forest of Reed Bank at the table: FF02 gave reed, which the pack
    # lacks: its token entered on the spot, then the forage goes on (3 - 2 = 1).
    [at_table] = [b for b in day.boxes["Ash"].findChildren(QPushButton, "atTable")
                  if "forest" in b.accessibleName()]
    ev.click(at_table)
    record = day.dialog
    assert isinstance(record, RecordDialog)
    qtbot.keyClicks(record.card, "FF02")
    record.line.setFocus()
    qtbot.keyClicks(record.line, "gain 1 reed")
    assert record.preview.text().startswith(
        "Will apply: gain 1 reed (reed: a material token your pack does not know yet")
    qtbot.keyClick(record.line, Qt.Key.Key_Return)
    token = visible(MaterialTokenDialog)
    assert token.needed == "reed"
    token.set_edge("right", "red", 1)
    ev.click(token.save_button)
    assert refusals == [] and not record.isVisible()
    assert ev.bag("Ash") == ["flint", "reed"]
    assert ev.energy() == {"Ash": 1, "Bryn": 3}
    assert ev.journal()[0].startswith("Ash foraged at the forest (FF02)")
    ev.click(day.button("Bryn", "Pass"))  # Ash acts on alone

    # Ash crafts flint beside reed: the app has not read that code, so Craft asks what
    # the owner's Codex says; the item, Rope, typed once (1 - 1 = 0).
    from companion.ui.codex_crafting import CodexCraftingDialog
    from companion.ui.crafting_dialog import CraftingDialog

    ev.click(day.button("Ash", "Craft"))
    crafting = day.dialog
    assert isinstance(crafting, CraftingDialog)
    crafting.set_tokens(0, 1)  # flint unturned, reed turned 180°
    for _ in range(2):
        ev.click(crafting.turn_buttons["right"][1])
    assert "Grey 5610" in crafting.code_label.text()
    ev.click(crafting.craft_button)
    question = crafting.codex_question
    assert isinstance(question, CodexCraftingDialog) and question.isVisible()
    assert ev.energy()["Ash"] == 1  # nothing spent while the table reads the book
    qtbot.keyClicks(question.item.lineEdit(), "Rope")
    question.slot.setCurrentIndex(question.slot.findData("gear"))
    qtbot.keyClicks(question.does, "Climb a cliff without a test.")
    qtbot.keyClicks(question.card, "IT29")
    ev.shot(question, "codex-crafting-question")
    ev.click(question.craft_button)
    assert refusals == [] and not question.isVisible()
    assert "Ash crafts Rope." in crafting.result_label.text()
    ev.shot(crafting, "crafted-rope")
    crafting.close()
    assert [i for i, _ in box.character_detail("Ash").items] == ["IT29"]
    assert ev.energy() == {"Ash": 0, "Bryn": 3}
    assert ev.bag("Ash") == []
    ev.click(day.button("Ash", "Pass"))

    ev.shot(ev.window, "day-before-the-night")
    ev.stage()

    # Night 1: Begin the Night; the Night card drawn from the box, N03, typed as one line
    # with its test (Rulebook: Night Phase > Draw Night Cards; Basic Concepts > Tests).
    from companion.rules.procedure import Decider
    from companion.ui.night_wizard import NightWizard

    ev.click(day.night_button)
    wizard = visible(NightWizard)
    # Ash has no food; Bryn eats a fish (3 + 2 + 1 = 6 > 5: energized, a might boost).
    assert wizard.step is not None and wizard.step.options == ("eat:0", "none")
    ev.click(wizard.step_widget.option_buttons[0])
    assert "Bryn is energized" in wizard.step.prompt
    ev.click(wizard.step_widget.option_buttons[0])
    assert decider(wizard) is Decider.CARD
    assert "draw it from the box and type it" in wizard.step.prompt
    card_field = wizard.step_widget.card_field
    assert wizard.step_widget.app_button is None  # the box's deck: drawn at the table
    qtbot.keyClicks(card_field.combo.lineEdit(), "N03")
    ev.click(card_field.enter_button)
    form = visible(CardForm)
    editors = form.editor.editors
    qtbot.keyClicks(editors["name"].edit, "Restless Sleep")
    editors["type"].combo.setFocus()
    qtbot.keyClicks(editors["type"].combo, "s")  # Solo
    assert editors["type"].value() == "solo"
    effects = editors["effects"]
    qtbot.keyClicks(effects.line, "test awareness 7 success: lore +1 failure: unrest +1")
    assert effects.will_apply.text() == (
        "Will apply: test awareness (7+) — success: gain 1 lore — failure: increase "
        "unrest by 1")
    moon = next(b for b in editors["omens"].findChildren(QCheckBox) if b.text() == "moon")
    qtbot.mouseClick(moon, Qt.MouseButton.LeftButton)
    activity = editors["activity"].spin
    activity.setFocus()
    qtbot.keyClick(activity, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClicks(activity, "2")
    qtbot.keyClicks(editors["text"].edit, "Dreams of falling stars.")
    ev.shot(form, "night-card-one-line")
    ev.click(form.save_button)
    assert refusals == [] and not form.isVisible(), form.error.text()
    # Ash rolls 5 at the table: 5 + awareness 4 = 9 reaches 7, a success: 1 lore.
    assert decider(wizard) is Decider.DICE
    assert "Ash tests awareness (7+) for Restless Sleep" in wizard.step.prompt
    wizard.step_widget.dice[0].setValue(5)
    ev.click(wizard.step_widget.use_button)
    # Bryn's Night card, N05, is just recorded as what it did at the table.
    assert decider(wizard) is Decider.CARD
    ev.click(wizard.step_widget.card_field.record_button)
    record = visible(RecordDialog)
    record.card.setText("N05")
    qtbot.keyClicks(record.line, "unrest +1")
    assert record.preview.text() == "Will apply: increase unrest by 1", record.preview.text()
    ev.click(record.record_button)
    assert wizard.step is None and refusals == []
    assert wizard.summary.text().startswith("The Night ends.")
    ev.shot(wizard, "night-ends")
    wizard.close()
    night = box.content.night_cards["N03"]
    assert (night.name, night.activity, [o.value for o in night.omens]) == (
        "Restless Sleep", 2, ["moon"])
    status = box.status()
    assert (status.lore, status.unrest, status.activity) == (1, 1, 2)
    assert ev.energy() == {"Ash": 2, "Bryn": 5}
    assert ev.bag("Bryn") == ["fish"]
    said = " ".join(ev.journal(12))
    assert "Restless Sleep" in said and "shuffl" not in said
    ev.stage()

    # Play ▸ End Challenge…: the card's outcome 301, which the app has never read: what
    # it did is typed once (Rulebook: Continuing Play; Using the Codex > Outcomes).
    from companion.ui.codex_outcome import OutcomeDialog
    from companion.ui.play_dialogs import EndChallengeDialog

    ev.menu("Play", "End Challenge…").trigger()
    ending = visible(EndChallengeDialog)
    assert ending.outcome.text() == "301"  # the card typed in the wizard names it
    ending.check_item("Ash", "IT29")  # Ash keeps the Rope (D13)
    ev.shot(ending, "end-challenge")
    ev.click(ending.end_button)
    assert refusals == []
    outcome = visible(OutcomeDialog)
    qtbot.keyClicks(outcome.line, "lore +1")
    assert outcome.will_apply.text() == "Will apply: gain 1 lore"
    ev.shot(outcome, "outcome-301-typed")
    ev.click(outcome.apply_button)
    assert refusals == [] and not outcome.isVisible()
    status = box.status()
    assert (status.challenge_id, status.activity, status.lore) == (None, 0, 2)
    # Every Day action waits for the next challenge (issue 36 item 8).
    QApplication.processEvents()
    for name in ("Ash", "Bryn"):
        assert [b.text() for b in day.buttons[name] if b.isEnabled()] == [], name
        assert all("challenge has ended" in r.text() for r in day.reasons[name]), name
        assert day.boxes[name].title().endswith(" — cannot act now"), name
    assert day.turn.text().startswith("Nobody can act now: the challenge has ended")
    assert not day.night_button.isEnabled()
    ev.shot(ev.window, "after-end-challenge")
    ended = ev.journal(3)
    assert ended[0] == ("Codex outcome 301: gain 1 lore (recorded at the table; remembered "
                       "in your own pack)")
    assert ended[2].startswith("The First Thaw ends: outcome entry 301; Ash retains 1 item(s)")
    # The own pack remembers what the table typed: the crafted code, the new tokens.
    assert "flint" in box.content.materials and "reed" in box.content.materials
    assert remembered(box) == ("item", "Rope")
    end = ev.stage()
    start = ev.stages[min(ev.stages)]
    assert start["pack"][0] == [] and start["pack"][-1] == ("unknown", None)
    back_and_forth(ev, end)
    exported_and_imported(ev, end, tmp_path, monkeypatch)


def back_and_forth(ev: Evening, end: dict[str, Any]) -> None:
    """Edit ▸ Undo to the empty campaign, then Edit ▸ Redo to the end: every stage kept
    on the way is met again, both ways; the own pack forgets and remembers with it."""
    from tests.ui.test_second_evening_map import settle, whole_valley_in_view

    valley = ev.window.show_view("valley")
    settle()
    zoom = valley.map.zoom()
    assert whole_valley_in_view(valley)
    undo, redo = ev.window.undo_action, ev.window.redo_action
    met: list[int] = []
    while undo.isEnabled():
        ev.menu("Edit", undo.text().replace("&", "")).trigger()
        count = len(played(ev.campaign))
        if count in ev.stages:
            assert game(state(ev.campaign)) == game(ev.stages[count]), count
            met.append(count)
    assert sorted(met) == sorted(ev.stages)[:-1]  # the end is where it began
    first = state(ev.campaign)
    assert first["characters"] == {} and first["society"] == (None, 0, 0, 0)
    assert first["journal"] == ["The society of The Box Folk was founded (My own box)."]
    # Undo takes the cards out of the campaign's file, not out of the owner's pack (a
    # file of the user's, docs/campaign-file.md): the pack still knows them.
    assert first["pack"] == end["pack"]
    day = ev.day()  # nobody to pass: the Night is not offered (start_night refuses it)
    assert not day.night_button.isEnabled()
    said = day.night_row.findChild(QLabel).text()
    assert said == "Nobody is in play yet: there is no Day to end."
    ev.shot(ev.window, "undone-to-the-start")
    ev.window.show_view("valley")
    settle()
    assert valley.map.zoom() <= 3.0  # the empty valley is not blown up (issue 36 item 14)
    met.clear()
    while redo.isEnabled():
        ev.menu("Edit", redo.text().replace("&", "")).trigger()
        count = len(played(ev.campaign))
        if count in ev.stages:
            assert game(state(ev.campaign)) == game(ev.stages[count]), count
            met.append(count)
    assert met == sorted(ev.stages)
    assert state(ev.campaign) == end
    settle()
    assert valley.map.zoom() == pytest.approx(zoom, rel=0.05)  # the whole valley again
    assert whole_valley_in_view(valley)
    ev.shot(ev.window, "redone-to-the-end")


def exported_and_imported(ev: Evening, end: dict[str, Any], tmp_path: Path,
                          monkeypatch: Any) -> None:
    """File ▸ Export Campaign, then File ▸ Import Campaign of that file: the imported
    campaign is the evening's, the own pack's remembered code and tokens with it."""
    from companion.ui.import_place import ImportPlaceDialog

    exported = tmp_path / "usb" / "Box evening"
    exported.parent.mkdir()
    monkeypatch.setattr(QFileDialog, "getSaveFileName",
                        lambda *args, **kwargs: (str(exported), ""))
    ev.menu("File", "Export Campaign…").trigger()
    written = exported.with_name("Box evening.stonesaga-export.json")
    assert written.exists()
    monkeypatch.setattr(QFileDialog, "getOpenFileName",
                        lambda *args, **kwargs: (str(written), ""))
    kept = tmp_path / "imported.stonesaga"

    def keep_it(dialog: ImportPlaceDialog) -> None:
        dialog.path_edit.setText(str(kept))
        ev.shot(dialog, "import-where")
        ev.click(dialog.import_button)

    before = ev.campaign
    when_open(ImportPlaceDialog, keep_it)
    ev.menu("File", "Import Campaign…").trigger()
    assert ev.campaign is not before and ev.campaign.path == kept
    assert state(ev.campaign) == end
    ev.shot(ev.window, "imported")
