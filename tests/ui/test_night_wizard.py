"""The Night wizard on a real demo campaign: the Rest table checked by hand against the
rules, the whole Night in the app, and a Night resumed after closing the campaign."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt

from companion import operations
from companion.operations import procedures
from companion.rules.procedure import Decider
from companion.ui.main_window import MainWindow
from companion.ui.night_wizard import REST_HEADERS, NightWizard
from companion.ui.procedure_dialog import open_procedure, start_night
from companion.ui.procedure_panels import cell_texts
from tests.ui.helpers import make_window


def nightfall(qtbot: Any, window: MainWindow) -> NightWizard:
    """Ash gathers water (energy 5 -> 4, two water), both pass, the Night begins."""
    assert window.run_operation(operations.gather_water, name="Ash")
    assert window.run_operation(operations.pass_turn, name="Bryn")
    assert window.run_operation(operations.pass_turn, name="Ash")
    wizard = start_night(window)
    assert isinstance(wizard, NightWizard)
    qtbot.addWidget(wizard)
    return wizard


def rest_table(wizard: NightWizard) -> dict[str, dict[str, str]]:
    return {row[0]: dict(zip(REST_HEADERS, row, strict=True))
            for row in cell_texts(wizard.rest)}


def click(qtbot: Any, button: Any) -> None:
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


def answer_to_the_end(qtbot: Any, wizard: NightWizard, card: str | None = None) -> list[str]:
    """Answer every step by clicking: a player's first option, ``card`` typed at a card
    step (else the app draws), the app's own steps. The stages seen, in order."""
    seen = [wizard.current_stage()]
    for _ in range(59):  # a Night is done in fewer
        if wizard.step is None:
            return seen
        widget, decider = wizard.step_widget, wizard.step.decider
        if decider is Decider.PLAYER:
            click(qtbot, widget.option_buttons[0])
        elif card and decider is Decider.CARD:
            widget.card_combo.setEditText(card)
            click(qtbot, widget.use_button)
        else:
            click(qtbot, widget.app_button)
        stage = wizard.current_stage()
        if stage and stage != seen[-1]:
            seen.append(stage)
    assert wizard.step is None, "the Night went on past 59 steps"
    return seen


def test_the_night_cannot_begin_before_everyone_passes(qtbot: Any, demo: Any,
                                                       refusals: list[str]) -> None:
    window = make_window(qtbot, demo)
    assert start_night(window) is None
    assert refusals == ["The Day goes on until Ash, Bryn pass."]


def test_rest_table_and_the_whole_night_in_the_app(qtbot: Any, demo: Any,
                                                   refusals: list[str]) -> None:
    window = make_window(qtbot, demo)
    wizard = nightfall(qtbot, window)
    assert wizard.isVisible() and not wizard.isModal()
    assert wizard.current_stage() == "rest"
    assert wizard.stages.item(0).text().startswith("✓")  # Night Phase Begins: nothing asked
    assert "Activity 0" in wizard.society.text()

    # Rest (Rulebook: Night Phase > Rest; D9): 2 characters -> automatic 2; no shelter or
    # fire in E01; Ash may drink one of the two water tokens gathered.
    assert wizard.step.prompt.startswith("Ash: put a water token in the thirst slot")
    assert [b.text() for b in wizard.step_widget.option_buttons] == [
        "&1   drink a water token", "&2   no water"]
    click(qtbot, wizard.step_widget.option_buttons[0])
    rows = rest_table(wizard)
    ash = rows["Ash"]
    assert (ash["Before"], ash["Automatic"], ash["Shelter/fire"], ash["Food"], ash["Water"],
            ash["Total"], ash["After"], ash["Capped"]) == (
        "4", "2", "0", "0", "1", "+3", "5/5", "2 lost")  # 4 + 3 = 7, capped at 5
    assert (ash["Energized"], ash["Needs met"], ash["Starving"]) == ("yes", "", "")

    # Energized: a minor boost, chosen by clicking; then Bryn's Rest.
    while wizard.current_stage() == "rest":
        assert wizard.step.decider is Decider.PLAYER
        click(qtbot, wizard.step_widget.option_buttons[0])
    bryn = rest_table(wizard)["Bryn"]
    assert (bryn["Before"], bryn["Automatic"], bryn["Shelter/fire"], bryn["Food"],
            bryn["Water"], bryn["Total"], bryn["After"], bryn["Capped"]) == (
        "5", "2", "0", "0", "0 (none)", "+2", "5/5", "2 lost")
    assert (bryn["Energized"], bryn["Needs met"], bryn["Starving"]) == ("yes", "", "yes")

    # No Next button: only answering a step moves the Night on, stage by stage in order.
    names = [b.text().replace("&", "") for b in wizard.findChildren(type(wizard.close_button))
             if b.isVisible()]
    assert not any(n.startswith("Next") for n in names)
    seen = answer_to_the_end(qtbot, wizard)
    order = ["start", "rest", "degrade_food", "tend_fire", "night_actions",
             "reconcile_inventory", "night_cards", "increase_activity", "end"]
    assert [order.index(s) for s in seen] == sorted(order.index(s) for s in seen)

    assert refusals == []
    assert procedures.in_progress(demo) is None
    assert wizard.current_stage() is None
    assert all(wizard.stages.item(i).text().startswith("✓") for i in range(9))
    assert wizard.summary.text().startswith("The Night ends.")
    assert wizard.summary.text() == demo.journal(limit=1)[0].text
    assert demo.status().activity > 0
    assert f"Activity {demo.status().activity}" in wizard.society.text()
    turn = operations.whose_turn(demo)
    assert turn["phase"] == "day" and turn["may_act"] == ["Ash", "Bryn"]


def test_night_card_step_does_not_name_the_top_card(qtbot: Any, demo: Any,
                                                    refusals: list[str]) -> None:
    # Rulebook: Night Phase > Night Cards: the card is drawn, not announced; the table
    # types the card it drew from the whole deck, listed in id order.
    window = make_window(qtbot, demo)
    wizard = nightfall(qtbot, window)
    while wizard.step.decider is not Decider.CARD:
        click(qtbot, wizard.step_widget.option_buttons[0])
    assert wizard.current_stage() == "night_cards"
    combo = wizard.step_widget.card_combo
    top = wizard.step.options[0]
    assert top not in wizard.step.prompt and top not in wizard.step_widget.prompt.text()
    ids = [combo.itemData(i) for i in range(combo.count())]
    assert ids == sorted(ids) and top in ids and len(ids) > 1
    combo.setEditText("N99")
    click(qtbot, wizard.step_widget.use_button)
    # A card the content lacks is said in the field, with the ways on (issue 27 item 10).
    field = wizard.step_widget.card_field
    assert refusals == [] and "N99 is not a Night card of this campaign" in field.unknown.text()
    assert wizard.step.decider is Decider.CARD and wizard.current_stage() == "night_cards"
    combo = wizard.step_widget.card_combo
    label = combo.itemText(combo.findData(top))
    assert label.startswith(f"{top} ")  # id and name: "N09 Hunger Moon"
    combo.setEditText(top.lower())
    click(qtbot, wizard.step_widget.use_button)
    assert procedures.in_progress(demo).log[-1].endswith(f": {label}")


def test_quit_mid_night_and_resume(qtbot: Any, demo: Any, refusals: list[str]) -> None:
    path = demo.path
    window = make_window(qtbot, demo)
    wizard = nightfall(qtbot, window)
    click(qtbot, wizard.step_widget.option_buttons[0])  # Ash drinks
    prompt = wizard.step.prompt
    wizard.close()
    window.close()  # closes the campaign
    assert demo.file.closed

    reopened = operations.open_campaign(path)
    try:
        window2 = make_window(qtbot, reopened)
        again = open_procedure(window2)
        assert isinstance(again, NightWizard)
        qtbot.addWidget(again)
        assert again.current_stage() == "rest"
        assert again.step.prompt == prompt
        assert rest_table(again)["Ash"]["Water"] == "1"
        log = [again.log.item(i).text() for i in range(again.log.count())]
        assert log == ["1. Ash: put a water token in the thirst slot (+1) or none: "
                       "drink a water token"]
    finally:
        window2.close()


def test_set_up_societal_event_fires_in_the_night_before_the_unrest_increase_gui(
        qtbot: Any, demo: Any, refusals: list[str]) -> None:
    """Rulebook: Set Up; Night Phase > Increase Activity; D7, D10. Unrest 4, activity 7;
    Ember Storm (N06) +3: 7 + 3 = 10 fires C1's Societal event (unrest 4 + 2 = 6), then
    +1 for unrest 6+: activity 11."""
    operations.change_unrest(demo, amount=4)
    operations.increase_activity(demo, amount=7)
    window = make_window(qtbot, demo)
    wizard = nightfall(qtbot, window)
    answer_to_the_end(qtbot, wizard, card="N06")
    assert refusals == []
    assert (demo.status().activity, demo.status().unrest) == (11, 6)
    assert "Activity 11" in wizard.society.text()
