"""Entering cards at the table through the form (DESIGN.md > Two ways to play): a
fishing and a foraging activity where every card drawn is new to the campaign, each
entered through "Enter this card…"; the form's refusals; every drawn kind's form."""

from __future__ import annotations

from itertools import count
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QPushButton

from companion import paths
from companion.content.schema.pack import KIND_MODELS
from companion.content.user_pack import DRAWN_KINDS, entries
from companion.operations import procedures
from companion.rules.procedure import Decider
from companion.ui.card_form import CardForm, EffectEditor, RowsEditor
from companion.ui.procedure_dialog import ProcedureDialog
from tests.ui.helpers import activity_dialog, make_window


def open_form(qtbot: Any, dialog: ProcedureDialog, typed: str) -> CardForm:
    """Type a card the campaign does not know, and press Enter this card…"""
    field = dialog.step_widget.card_field
    assert field is not None and field.enter_button.isVisible()
    field.combo.setEditText(typed)
    qtbot.mouseClick(field.enter_button, Qt.MouseButton.LeftButton)
    forms = [f for f in dialog.findChildren(CardForm) if f.isVisible()]
    assert len(forms) == 1
    return forms[0]


def add_gain(qtbot: Any, rows: RowsEditor, resource: str, amount: int) -> None:
    """Add one effect with the structured editor: 'gain <amount> <resource>'."""
    qtbot.mouseClick(rows.add_button, Qt.MouseButton.LeftButton)
    effect = rows.rows[-1]
    assert isinstance(effect, EffectEditor)
    effect.do.setCurrentIndex(effect.do.findData("gain"))
    assert effect.fields is not None
    effect.fields.editors["resource"].set_value(resource)
    effect.fields.editors["amount"].spin.setValue(amount)  # type: ignore[attr-defined]


def fill_fishing_card(qtbot: Any, form: CardForm, template: Any) -> None:
    data = template.model_dump(mode="json")
    editors = form.editor.editors
    for line in ("red", "white", "black"):
        target = editors["targets"].child(line)
        assert target is not None
        target.child("difficulty").spin.setValue(  # type: ignore[union-attr]
            data["targets"][line]["difficulty"])
        contents = target.child("contents")
        assert isinstance(contents, RowsEditor)
        add_gain(qtbot, contents, "fish", 1)
    editors["modifiers"].set_value(data["modifiers"])
    editors["water"].set_value(data["water"])


def fill_forage_card(form: CardForm, template: Any) -> None:
    data = template.model_dump(mode="json")
    form.editor.editors["deck"].set_value(data["deck"])
    form.editor.editors["rows"].set_value(data["rows"])


def play(qtbot: Any, dialog: ProcedureDialog, kind: str, enter: Any) -> list[str]:
    """Answer every step: each card drawn is new, entered through the form."""
    drawn: list[str] = []
    numbers = count(1)
    while dialog.step is not None:
        step = dialog.step
        if step.decider is Decider.CARD:
            card = f"NEW{next(numbers):02d}"
            form = open_form(qtbot, dialog, card.lower())
            assert form.editor.editors["id"].value() == card.lower()
            form.editor.editors["id"].set_value(card)
            enter(form)
            qtbot.mouseClick(form.save_button, Qt.MouseButton.LeftButton)
            assert not form.isVisible(), form.error.text()
            drawn.append(card)
        elif step.decider is Decider.PLAYER:
            qtbot.mouseClick(dialog.step_widget.option_buttons[0], Qt.MouseButton.LeftButton)
        else:
            qtbot.mouseClick(dialog.step_widget.app_button, Qt.MouseButton.LeftButton)
    return drawn


def test_fishing_with_every_card_new_entered_through_the_form(
        qtbot: Any, demo: Any, refusals: list[str]) -> None:
    dialog = activity_dialog(qtbot, demo, "fishing", "river")
    template = demo.content.fishing_cards["FI01"]
    drawn = play(qtbot, dialog, "fishing_cards",
                 lambda form: fill_fishing_card(qtbot, form, template))
    assert drawn == ["NEW01", "NEW02", "NEW03"]  # stock, water, outcome
    assert refusals == []
    journal = [e.text for e in demo.journal(limit=20)]
    assert journal[0].startswith("Ash finished fishing")
    assert "Entered the fishing card NEW01 into My cards (Sample pack)" in journal
    saved = [e.id for e in entries(paths.user_content_dir() / "sample-mine")]
    assert saved == drawn
    assert procedures.in_progress(demo) is None


def test_foraging_with_every_card_new_entered_through_the_form(
        qtbot: Any, demo: Any, refusals: list[str]) -> None:
    dialog = activity_dialog(qtbot, demo, "foraging", "plains")
    template = demo.content.forage_cards["FP08"]
    drawn = play(qtbot, dialog, "forage_cards", lambda form: fill_forage_card(form, template))
    assert len(drawn) >= 2 and refusals == []
    assert set(drawn) <= set(demo.content.forage_cards)
    assert demo.journal(limit=1)[0].text.startswith("Ash finished foraging")


def test_a_form_that_does_not_validate_says_which_field_and_saves_nothing(
        qtbot: Any, demo: Any, refusals: list[str]) -> None:
    dialog = activity_dialog(qtbot, demo, "fishing", "river")
    form = open_form(qtbot, dialog, "FX01")
    qtbot.mouseClick(form.save_button, Qt.MouseButton.LeftButton)
    assert form.isVisible()
    text = form.error.text()
    assert text.startswith("Not saved:")
    assert "Targets › Red › Contents: required field is missing" in text
    assert "Water: required field is missing" in text
    assert "Difficulty" not in text  # a difficulty starts at its lowest, 1
    water = form.editor.editors["water"]
    assert water.toolTip() == "required field is missing"
    assert not (paths.user_content_dir() / "sample-mine" / "fishing_cards.yaml").exists()
    assert dialog.step.prompt == "Step 1: draw the stock card"
    # A card that fits the schema but names a resource nobody has: refused by the pack
    # check, shown in the form, nothing saved.
    fill_fishing_card(qtbot, form, demo.content.fishing_cards["FI01"])
    rows = form.editor.editors["targets"].child("red").child("contents")  # type: ignore[union-attr]
    rows.rows[0].fields.editors["resource"].set_value("moonfish")  # type: ignore[union-attr]
    qtbot.mouseClick(form.save_button, Qt.MouseButton.LeftButton)
    assert form.isVisible() and ("Targets › Red › Contents › #1 › Resource: no material, "
                                 "food or water with id 'moonfish'") in form.error.text()
    resource = rows.rows[0].fields.editors["resource"]  # type: ignore[union-attr]
    assert "moonfish" in resource.toolTip()  # the field itself is marked
    assert "FX01" not in demo.content.fishing_cards
    form.reject()


@pytest.mark.parametrize("kind", list(DRAWN_KINDS))
def test_every_drawn_kind_has_a_form_that_round_trips_a_card(qtbot: Any, demo: Any,
                                                             kind: str) -> None:
    from companion.ui.card_field import content_lookup

    card = next(iter(getattr(demo.content, kind).values()))
    form = CardForm(kind, lookup=content_lookup(demo.content),
                    initial=card.model_dump(mode="json"))
    qtbot.addWidget(form)
    assert KIND_MODELS[kind].model_validate(form.data()) == card
    form.show()
    QApplication.processEvents()
    assert form.width() <= 1366 and form.height() <= 768


def test_a_discovery_card_new_to_the_campaign_is_entered_from_the_day_panel(
        qtbot: Any, demo: Any, refusals: list[str]) -> None:
    from companion import operations
    from companion.ui.card_field import CardField
    from companion.ui.views.day import DayView

    window = make_window(qtbot, demo)
    day = window.show_view("day")
    assert isinstance(day, DayView)
    day.refresh()
    day.button("Ash", "Explore the unexplored hex north-east of Ashen Ford").click()
    assert operations.discovery_due(demo)["character"] == "Ash"
    field = next(f for f in day.findChildren(CardField) if f.kind == "discovery_cards")
    # A card of the content, typed by its name in any case, is offered and understood.
    known = next(iter(demo.content.discovery_cards.values()))
    field.combo.setEditText(known.name.upper())
    assert field.key() == known.id
    field.combo.setEditText("Hidden Spring")
    assert field.key() is None
    qtbot.mouseClick(field.enter_button, Qt.MouseButton.LeftButton)
    form = next(f for f in window.findChildren(CardForm) if f.isVisible())
    assert form.editor.editors["name"].value() == "Hidden Spring"
    form.editor.editors["id"].set_value("DX70")
    form.editor.editors["text"].set_value("A spring under the roots: gain 1 water.")
    qtbot.mouseClick(form.save_button, Qt.MouseButton.LeftButton)
    assert not form.isVisible(), form.error.text()
    assert refusals == []
    assert operations.discovery_due(demo) is None  # the Discovery was resolved with it
    assert any("DX70" in e.text for e in demo.journal(limit=5))


def test_behemoth_set_up_takes_cards_by_name_and_enters_a_new_instinct_card(
        qtbot: Any, demo: Any, refusals: list[str]) -> None:
    from companion.operations.behemoth import set_up_behemoth, set_up_options
    from companion.ui.behemoth_panel import BehemothPanel, SetUpDialog
    from companion.ui.main_window import MainWindow

    window = MainWindow()
    qtbot.addWidget(window)
    window.campaign = demo
    panel = BehemothPanel(window)
    qtbot.addWidget(panel)
    dialog = SetUpDialog(set_up_options(demo), panel)
    qtbot.addWidget(dialog)
    known = next(c for c in demo.content.instinct_cards.values() if c.behemoth == "rimeback")
    dialog.instinct.setEditText(known.name.lower())
    assert dialog.values()["instinct"] == known.name.lower()  # the operation reads names
    enter = dialog.findChild(QPushButton, "enter_instinct_cards")
    qtbot.mouseClick(enter, Qt.MouseButton.LeftButton)
    form = next(f for f in dialog.findChildren(CardForm) if f.isVisible())
    assert form.editor.editors["behemoth"].value() == "rimeback"
    form.editor.set_value(known.model_dump(mode="json") | {"id": "RBI9", "name": "Cold Wait"})
    qtbot.mouseClick(form.save_button, Qt.MouseButton.LeftButton)
    assert not form.isVisible(), form.error.text()
    assert dialog.values()["instinct"] == "RBI9"
    values = dialog.values() | {"lair_hex": "E01"}
    window.run_operation(set_up_behemoth, **values)
    assert refusals == []
    from companion.operations.behemoth import behemoth_view

    assert behemoth_view(demo).instinct == "RBI9"  # type: ignore[union-attr]


# A material entered at the mining step adds no chip to the bag (Mining > Step 4, D14):
# tests/ui/test_mining_bag_dialog.py.
FORM_KINDS = ["fishing_cards", "forage_cards", "delving_cards", "night_cards",
              "reaction_cards"]


@pytest.mark.parametrize("kind", FORM_KINDS)
def test_each_kind_entered_through_the_form_at_its_step_is_drawn(
        qtbot: Any, demo: Any, refusals: list[str], kind: str) -> None:
    """Every kind a procedure draws: at its step, a new card is typed, entered through
    the form, and drawn at once; then the next draw of that kind takes it by name."""
    from companion.ui.procedure_dialog import open_procedure
    from tests.operations.test_cards import PROCEDURE_KINDS

    _kind, reach, template_id, changes, _typed = next(k for k in PROCEDURE_KINDS
                                                      if k[0] == kind)
    table = getattr(demo.content, kind)
    template = table.get(template_id) or next(iter(table.values()))
    reach(demo)
    window = make_window(qtbot, demo)
    dialog = open_procedure(window)
    assert dialog is not None
    qtbot.addWidget(dialog)
    before = len(procedures.in_progress(demo).log)
    form = open_form(qtbot, dialog, changes["id"])  # type: ignore[arg-type]
    data = template.model_dump(mode="json") | changes
    if kind == "reaction_cards":
        data["behemoth"] = "rimeback"
    form.editor.set_value(data)
    qtbot.mouseClick(form.save_button, Qt.MouseButton.LeftButton)
    assert not form.isVisible(), form.error.text()
    assert refusals == []
    assert changes["id"] in getattr(demo.content, kind)
    view = procedures.in_progress(demo)
    if view is not None:  # the step went on with the new card
        line = view.log[before]
        assert changes["id"] in line or changes.get("name", "\0") in line


def test_enter_in_the_card_field_answers_once_by_name(qtbot: Any, demo: Any,
                                                      refusals: list[str]) -> None:
    dialog = activity_dialog(qtbot, demo, "fishing", "river")
    field = dialog.step_widget.card_field
    field.combo.setFocus()
    field.combo.setEditText("fi09")
    qtbot.keyClick(field.combo.lineEdit(), Qt.Key.Key_Return)
    assert procedures.in_progress(demo).log == ("Step 1: draw the stock card: FI09",)
    assert dialog.step.prompt == "Step 2: draw the water card" and refusals == []
