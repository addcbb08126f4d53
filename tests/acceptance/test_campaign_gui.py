"""Acceptance: the first challenge of the CLI campaign (test_campaign_cli.py) played in the
GUI with pytest-qt, clicking the real controls: the Day panel's buttons (actions, Begin
the Night, the Discovery row), the procedure dialog, the crafting and build dialogs, the
Play menu (Apply Effects…, Goals…, End Challenge…, Start Challenge…, New Epoch…), the
Night wizard and the New Character dialog (built directly: the Characters tab opens it
modally). Same set-up (through the CLI), same typed draws, so the same hand-computed
values (see the CLI test's docstrings for the arithmetic)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QPushButton

from companion import operations
from companion.rules.procedure import Decider
from companion.ui import day_dialogs
from companion.ui.crafting_dialog import CraftingDialog
from companion.ui.main_window import MainWindow
from companion.ui.night_wizard import NightWizard
from companion.ui.procedure_dialog import ProcedureDialog, open_procedure, start_night
from companion.ui.views.day import DayView
from tests.acceptance.table import Story
from tests.ui.helpers import make_window

T = TypeVar("T")

# make test runs in parallel: the story's tests share one worker, so it is played once.
pytestmark = pytest.mark.xdist_group("ember")


@pytest.fixture
def campaign(ember: Story, tmp_path: Path) -> Iterator[operations.Campaign]:
    """The CLI test's set-up: The Long Thaw in Thornspire, Ash and Bryn in Windgate (T01)."""
    p = ember.after("test_character_creation_two_starting_characters_in_the_starting_hex",
                    tmp_path).path
    opened = operations.open_campaign(Path(p))
    yield opened
    if not opened.file.closed:
        opened.close()


@pytest.fixture
def refusals(monkeypatch: Any) -> list[str]:
    from PySide6.QtWidgets import QMessageBox

    shown: list[str] = []
    monkeypatch.setattr(QMessageBox, "warning",
                        lambda parent, title, text, *rest: shown.append(text))
    return shown


def click(qtbot: Any, button: QPushButton) -> None:
    qtbot.waitUntil(button.isVisible, timeout=2000)  # a refreshed panel shows its rows queued
    assert button.isEnabled(), button.text()
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


def energy(campaign: operations.Campaign) -> dict[str, int]:
    return {c.name: c.energy for c in campaign.characters()}


def seen_energy(qtbot: Any, day: DayView) -> dict[str, str]:
    """The energy each character's box in the Day panel shows ("3/5")."""
    qtbot.waitUntil(lambda: all(b.isVisible() for b in day.boxes.values()), timeout=2000)
    return {name: box.title().split(" — ")[1].removesuffix(" energy")
            for name, box in day.boxes.items()}


def answer(qtbot: Any, dialog: Any, *answers: str) -> None:
    """Answer the procedure's steps in order, as a player at the table: a card or chip
    typed (or picked by its label) then Use, dice set in the spin boxes then Use, an
    option clicked by its button."""
    for value in answers:
        step, widget = dialog.step, dialog.step_widget
        assert step is not None, f"no step left for {value!r}"
        if step.decider in (Decider.CARD, Decider.CHIP):
            widget.card_combo.setEditText(value)
            click(qtbot, widget.use_button)
        elif step.decider is Decider.DICE:
            for spin, die in zip(widget.dice, value.split(), strict=True):
                spin.setValue(int(die))
            click(qtbot, widget.use_button)
        elif widget.options_list is not None:  # many options: a list and Choose
            widget.options_list.setCurrentRow(step.options.index(value))
            click(qtbot, widget.choose_button)
        else:
            click(qtbot, widget.option_buttons[step.options.index(value)])


def menu(qtbot: Any, window: MainWindow, text: str, kind: type[T]) -> T:
    """Choose ``text`` in the Play menu (as a player clicks it) and return the dialog it
    opened."""
    action = next(a for a in window.play_menu.actions() if a.text() == text)
    assert action.isEnabled(), text
    before = set(window.findChildren(kind))
    action.trigger()
    opened = [d for d in window.findChildren(kind) if d not in before and d.isVisible()] or \
        [d for d in window.findChildren(kind) if d.isVisible()]
    assert opened, f"{text} opened no {kind.__name__}"
    return opened[-1]


def gain(qtbot: Any, window: MainWindow, name: str, *effects: str,
         source: str = "") -> None:
    """Effects read from a card at the table, entered in Play > Apply Effects…: 'gain
    wood 2' (a resource and an amount) or 'suffer major_injury' (a health token)."""
    from companion.ui.play_dialogs import EffectsDialog

    dialog = menu(qtbot, window, "Apply &Effects…", EffectsDialog)
    dialog.character.setCurrentIndex(dialog.character.findData(name))
    dialog.source.setText(source)
    for effect in effects:
        kind, what, *amount = effect.split()
        dialog.choose_kind(kind)
        if kind == "gain":
            dialog.choose_resource(what)
            dialog.amount.setValue(int(amount[0]))
        else:
            dialog.token.setCurrentIndex(dialog.token.findData(what))
        assert dialog.add_effect(), dialog.form_note.text()
    click(qtbot, dialog.apply_button)
    dialog.close()


def day_view(window: MainWindow) -> DayView:
    view = window.show_view("day")  # tabs are built when first shown
    assert isinstance(view, DayView)
    return view


def procedure(window: MainWindow) -> ProcedureDialog:
    dialog = open_procedure(window)
    assert isinstance(dialog, ProcedureDialog)
    return dialog


def play_challenge_1(qtbot: Any, campaign: operations.Campaign,
                     refusals: list[str]) -> MainWindow:
    """The Long Thaw from the first Day to the End Challenge dialog, every step clicked."""
    window = make_window(qtbot, campaign)
    day = day_view(window)
    assert energy(campaign) == {"Ash": 5, "Bryn": 5}

    # Foraging (2 energy): Ash 5 -> 3; the tableau FP04 + FP12, then one root.
    click(qtbot, day.button("Ash", "Forage at the plains"))
    dialog = procedure(window)
    assert dialog.title.text() == "Foraging — Ash"
    answer(qtbot, dialog, "FP04", "FP12", "FP04", "FP12", "FP11", "FP12", "harvest",
           "FP04/front/3", "done")
    assert refusals == []
    assert dialog.summary.text() == (
        "Ash finished foraging: Drew FP04. Drew FP12. Added FP04 to the tableau; FP12 goes "
        "back into the deck. Drew FP12. Drew FP11. Added FP12 to the tableau; FP11 goes back "
        "into the deck. Harvesting. Chose Root Plant (FP04, front row). Gained root.")
    dialog.close()
    assert energy(campaign) == {"Ash": 3, "Bryn": 5}

    # Mining (2 energy): Bryn 5 -> 3; a sunstone picked by its label, the sun omen doubles.
    click(qtbot, day.button("Bryn", "Mine at the mountain"))
    dialog = procedure(window)
    answer(qtbot, dialog, "sunstone (sun)", "stop")
    assert refusals == []
    assert [str(t) for t in campaign.character_detail("Bryn").bag] == [
        "unprocessed sunstone", "unprocessed sunstone"]
    dialog.close()
    assert energy(campaign) == {"Ash": 3, "Bryn": 3}

    # Crafting (1 energy): flint beside sinew, Red 1410, a Stone Knife. Ash 3 -> 2.
    gain(qtbot, window, "Ash", "gain flint 1", "gain sinew 1")  # a card read at the table
    click(qtbot, day.button("Ash", "Craft with two material tokens"))
    crafting = day.dialog
    assert isinstance(crafting, CraftingDialog) and crafting.name == "Ash"
    crafting.set_tokens(1, 2)  # the bag: root, flint, sinew
    assert "Red 1410" in crafting.code_label.text()
    click(qtbot, crafting.craft_button)
    assert refusals == []
    assert [str(i) for i, _ in campaign.character_detail("Ash").items] == ["stone-knife"]

    crafting.close()
    assert energy(campaign) == {"Ash": 2, "Bryn": 3}
    assert seen_energy(qtbot, day) == {"Ash": "2/5", "Bryn": "3/5"}

    # Building an Outpost (4 energy shared): Ash gives 1, Bryn pays 3. Bryn 0, Ash 1.
    click(qtbot, day.button("Bryn", "Build an outpost over the plains"))
    build = day.dialog
    assert isinstance(build, day_dialogs.BuildOutpostDialog)
    qtbot.keyClicks(build.outpost_name, "Hearth")
    build.contributions.spins["Ash"].setValue(1)
    assert build.contributions.share.text() == "Bryn pays 3 of 4 energy (has 3)."
    click(qtbot, build.ok_button())
    assert refusals == []
    assert energy(campaign) == {"Ash": 1, "Bryn": 0}

    # Building Structures: a Drying Rack at Hearth (2 wood, 1 fiber, 1 energy). Ash 0.
    gain(qtbot, window, "Ash", "gain wood 2", "gain fiber 1")
    click(qtbot, day.button("Ash", "Build a structure at Hearth"))
    build = day.dialog
    assert isinstance(build, day_dialogs.BuildStructureDialog)
    build.select("drying-rack")
    assert build.why.text() == "Can be built now."
    click(qtbot, build.ok_button())
    assert refusals == []
    assert campaign.journal(limit=1)[0].text.startswith("Ash built Drying Rack at Hearth")
    assert energy(campaign) == {"Ash": 0, "Bryn": 0}
    assert seen_energy(qtbot, day) == {"Ash": "0/5", "Bryn": "0/5"}

    # Goals (Play > Goals…): First Hearth, a vital goal, is met.
    from companion.ui.play_dialogs import GoalsDialog

    goals = menu(qtbot, window, "&Goals…", GoalsDialog)
    goals.choose("G-first-hearth")
    click(qtbot, goals.complete_button)
    assert ("G-first-hearth", "completed") in campaign.goals_in_play()
    goals.close()

    # Night 1: both pass, Begin the Night; Ash eats the root (0 + 2 + 1 = 3), Bryn starves
    # (0 + 2 = 2, a minor injury); Ember Storm: activity 0 + 3 = 3.
    click(qtbot, day.button("Bryn", "Pass"))
    click(qtbot, day.button("Ash", "Pass"))
    click(qtbot, day.night_button)
    wizard = start_night(window)
    assert isinstance(wizard, NightWizard)
    answer(qtbot, wizard, "eat:0", "Ash", "N06")
    assert refusals == []
    assert wizard.summary.text() == "The Night ends. Ash resolves Ember Storm. Bryn " \
                                    "resolves Ember Storm. Activity +3 from Night cards, " \
                                    "+0 from unrest: now 3. A new Day begins."
    wizard.close()
    assert energy(campaign) == {"Ash": 3, "Bryn": 2}
    assert seen_energy(qtbot, day) == {"Ash": "3/5", "Bryn": "2/5"}
    assert campaign.status().activity == 3

    # Day 2. Explore T02 (2 energy): Ash 3 -> 1; the Discovery card typed from the table.
    # Face down, the button names the hex by where it lies (Valley > Hexes).
    click(qtbot, day.button("Ash", "Explore the unexplored hex north-east of Windgate"))
    qtbot.waitUntil(lambda: day.discovery_typed is not None and
                    day.discovery_typed.isVisible(), timeout=2000)
    qtbot.keyClicks(day.discovery_typed.combo.lineEdit(), "DI06")  # the card field's box
    click(qtbot, day.discovery_use)
    assert refusals == []
    assert campaign.journal(limit=1)[0].text.startswith(
        "Ash drew the Discovery Curious Fox (DI06)")
    assert energy(campaign) == {"Ash": 1, "Bryn": 2}

    # Delving (1 energy): DV03, 1 lore; Bryn retraces. Bryn 2 -> 1, lore 1.
    click(qtbot, day.button("Bryn", "Delve at the cave"))
    dialog = procedure(window)
    answer(qtbot, dialog, "DV03", "retrace")
    assert refusals == []
    assert dialog.summary.text().endswith("Bryn comes out at T01.")
    dialog.close()
    assert campaign.status().lore == 1

    # Ash passes; Bryn prepares shelter in the cave (1 energy): Bryn 0.
    click(qtbot, day.button("Ash", "Pass"))
    click(qtbot, day.button("Bryn", "Prepare Shelter at the cave"))
    assert energy(campaign) == {"Ash": 1, "Bryn": 0}

    # A rockfall read at the table: 4 major injuries fill Bryn's 5 health slots.
    gain(qtbot, window, "Bryn", *["suffer major_injury"] * 4, source="a rockfall")
    click(qtbot, day.button("Bryn", "Pass"))

    # Night 2: Bryn, incapacitated, perishes; Ash 1 + 2 = 3, starving; Sky Fire (N18)
    # adds 3: activity 6 reaches The Long Thaw's event at 6+, whose effect is applied.
    click(qtbot, day.night_button)
    wizard = start_night(window)
    assert isinstance(wizard, NightWizard)
    answer(qtbot, wizard, "N18")
    assert refusals == []
    assert wizard.summary.text().count("Bryn perished and becomes a legend.") == 1
    assert "Event: Activity 6: Melt floods the lowlands (lore placed in each hex with " \
           "characters)." in wizard.summary.text()
    wizard.close()
    assert campaign.status().activity == 6
    assert energy(campaign) == {"Ash": 3}

    # Character Death: the replacement, Cai, enters with 0 energy in T01 (shelter).
    from companion.ui.character_dialog import CharacterDialog

    creator = CharacterDialog(window)
    qtbot.addWidget(creator)
    creator.show()
    creator.name.setText("Cai")
    for spin, value in zip(creator.dice, (4, 4, 3, 3, 2), strict=True):
        spin.setValue(value)
    creator.trait.setCurrentIndex(creator.trait.findData("wise"))
    creator.mantle.setCurrentIndex(creator.mantle.findData("loreweaver"))
    creator.replacement.setChecked(True)
    assert creator.hex.currentData() == "T01"
    click(qtbot, creator.create_button)
    assert refusals == []
    cai = campaign.character_detail("Cai")
    assert (cai.energy, cai.hex) == (0, "T01")

    # Day 3. Fishing (2 energy): Ash 3 -> 1; 11 vs 9 on the red line: 3 fish; 7 vs 8 on
    # the black line: a mishap, a minor injury (arithmetic in the CLI test).
    click(qtbot, day.button("Ash", "Fish at the river"))
    dialog = procedure(window)
    assert dialog.title.text() == "Fishing — Ash"
    answer(qtbot, dialog, "FI03", "FI10", "6 5 4 3", "1", "1", "3", "3", "FI01", "1/red",
           "3/black")
    assert refusals == []
    assert dialog.summary.text().startswith(
        "Ash finished fishing: Stock: FI03. Water: FI10 (3 strike locations). Rolled 6, 5, "
        "4, 3. Placed the 6 on location 1. Placed the 5 on location 1. Placed the 4 on "
        "location 3. Placed the 3 on location 3. Outcome: FI01. Location 1, red line: "
        "strike 11 vs difficulty 9: success, gain 3 fish.")
    dialog.close()
    assert energy(campaign) == {"Ash": 1, "Cai": 0}
    assert [str(t) for t in campaign.character_detail("Ash").bag] == ["fresh fish"] * 3

    # Continuing Play: End Challenge… (Play menu). Ash retains the Stone Knife (1 <= 5
    # items, 0 <= 5 materials, D13); the outcome entry the card names (issue 27 item 7),
    # filled in; activity 6 -> 0; then the outcome is read in the Codex.
    from companion.ui.play_dialogs import EndChallengeDialog

    ending = menu(qtbot, window, "En&d Challenge…", EndChallengeDialog)
    assert ending.heading.text() == "Ending: The Long Thaw"
    assert ending.outcome.text() == "301"  # the card names it
    ending.check_item("Ash", "stone-knife")
    ending.check_looming("C2")  # outcome 301 names Frost in the Fur as the next challenge
    assert ending.counts["Ash"].text() == "Retains 1 of 5 items, 0 of 5 materials"
    click(qtbot, ending.end_button)
    assert refusals == []
    status = campaign.status()
    assert (status.challenge_id, status.activity) == (None, 0)
    assert campaign.journal(limit=1)[0].text == "Codex: read entry 301"
    assert campaign.journal(limit=2)[1].text == (
        "The Long Thaw ends: outcome entry 301; looming challenges set aside for the next "
        "game: Frost in the Fur; Ash retains 1 item(s) and 0 "
        "material(s); everything else the characters carried goes back to the box; "
        "activity resets; fire, shelter and lore tokens leave the valley")
    return window


def test_challenge_1_played_in_the_gui(qtbot: Any, campaign: operations.Campaign,
                                       refusals: list[str]) -> None:
    play_challenge_1(qtbot, campaign, refusals)
    # Continuing Play: only item cards and material tokens are retained; the rest goes
    # back to the box (D13) -- Ash's Stone Knife is set aside as retained supplies.
    assert campaign.character_detail("Ash").items == ()


def test_continuing_play_food_goes_back_to_the_box(qtbot: Any, campaign: operations.Campaign,
                                                   refusals: list[str]) -> None:
    """Rulebook: Continuing Play (D13): each character keeps at most 5 item cards and 5
    material tokens; everything else, Ash's 3 fresh fish included, goes back to the box.
    (Failed before wt-society's challenge-lifecycle work: the fish stayed in the bag.)"""
    play_challenge_1(qtbot, campaign, refusals)
    assert campaign.character_detail("Ash").bag == ()


def test_set_up_challenge_2_starts_with_the_resets_then_a_new_epoch_in_the_gui(
        qtbot: Any, campaign: operations.Campaign, refusals: list[str]) -> None:
    """Rulebook: Set Up; Continuing Play (D13): Frost in the Fur, started from Play >
    Start Challenge…: every character at full energy (5; unrest 0 < 6 takes nothing off),
    no injuries, in the starting hex or a hex with an outpost (T01 has both)."""
    from companion.ui.play_dialogs import StartChallengeDialog

    window = play_challenge_1(qtbot, campaign, refusals)
    starting = menu(qtbot, window, "&Start Challenge…", StartChallengeDialog)
    starting.choose("C2")
    click(qtbot, starting.start_button)
    assert refusals == []
    assert campaign.status().challenge_id == "C2"
    assert [(c.name, c.energy, c.health, c.hex_id) for c in campaign.characters()] == [
        ("Ash", 5, (), "T01"), ("Cai", 5, (), "T01")]
    # The retained supplies are claimed once, at the set-up.
    assert [str(i) for i, _ in campaign.character_detail("Ash").items] == ["stone-knife"]

    # Looming Challenges & Epoch Goals: Frost in the Fur ends naming Voices on the Ridge;
    # Play > New Epoch…: epoch 1 -> 2, its game count back to 0.
    from companion.ui.play_dialogs import EndChallengeDialog, NewEpochDialog

    ending = menu(qtbot, window, "En&d Challenge…", EndChallengeDialog)
    assert ending.outcome.text() == "304"  # Frost in the Fur names it: C3 looms
    ending.check_looming("C3")
    click(qtbot, ending.end_button)
    epoch = menu(qtbot, window, "New E&poch…", NewEpochDialog)
    click(qtbot, epoch.epoch_button)
    assert refusals == []
    status = campaign.status()
    assert (status.epoch, status.games_this_epoch, status.challenge_id) == (2, 0, None)


def test_goals_a_completed_goal_gives_its_reward(qtbot: Any, campaign: operations.Campaign,
                                                 refusals: list[str]) -> None:
    """Rulebook: Goals: 'Songs for the Young' (an epoch goal of The Long Thaw) rewards
    1 lore (challenges.yaml): lore 0 + 1 = 1 once it is completed in Play > Goals…."""
    from companion.ui.play_dialogs import GoalsDialog

    window = make_window(qtbot, campaign)
    goals = menu(qtbot, window, "&Goals…", GoalsDialog)
    goals.choose("G-songs")
    click(qtbot, goals.complete_button)
    assert refusals == []
    assert ("G-songs", "completed") in campaign.goals_in_play()
    assert campaign.status().lore == 1
