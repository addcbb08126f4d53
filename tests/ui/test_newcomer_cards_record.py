"""Issue 27 (a newcomer at the table), items 10 and 6, and issue 25 parts 3-4, through
the real controls:

- item 10: a card the campaign's content lacks is said in the card field, naming the
  packs, with "Enter this card…" and "Just record what happened…" under it; the record
  line (with completion) applies what the card did, and the step goes on (Rulebook:
  Foraging; Night Phase > Draw Night Cards);
- "We resolved this at the table…" at a step of an activity;
- item 6: "read outcome N" shown and applied from the Codex dialog, an outcome the
  content lacks typed once and remembered (Rulebook: Using the Codex > Outcomes);
- My Cards ▸ Recorded at the table ▸ Save as a card (the form filled in).

The typing cost of getting past one unknown forage card both ways is measured here
(``typing_cost``; printed with ``pytest -s``).
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QComboBox, QLineEdit, QPushButton, QSpinBox

from companion.operations import procedures
from companion.operations.recorded import recorded_cards
from companion.rules.procedure import Decider
from companion.ui.card_form import CardForm
from companion.ui.codex_dialog import CodexDialog
from companion.ui.codex_outcome import OutcomeDialog, OutcomeLinks
from companion.ui.procedure_dialog import ProcedureDialog, start_activity, start_night
from companion.ui.table_record import RecordDialog, RecordedCardsDialog
from tests.ui.helpers import activity_dialog, make_window

LINE = "gain 2 meat, lore +1"


def click(qtbot: Any, button: QPushButton) -> None:
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


def foraging(qtbot: Any, window: Any) -> ProcedureDialog:
    dialog = start_activity(window, "foraging", "Ash", "forest")
    assert isinstance(dialog, ProcedureDialog)
    qtbot.addWidget(dialog)
    assert dialog.step is not None and dialog.step.decider is Decider.CARD
    return dialog


def type_unknown(qtbot: Any, field: Any, typed: str) -> None:
    edit = field.combo.lineEdit()
    edit.clear()
    qtbot.keyClicks(edit, typed)
    click(qtbot, field.use_button)


def open_record(qtbot: Any, field: Any) -> RecordDialog:
    click(qtbot, field.record_button)
    dialogs = [d for d in field.window().findChildren(RecordDialog) if d.isVisible()]
    assert len(dialogs) == 1
    return dialogs[0]


def test_unknown_card_is_said_with_both_ways_and_recorded(qtbot: Any, demo: Any,
                                                          refusals: list[str]) -> None:
    """Item 10 from the card field to "Just record what happened" (issue 25 part 3)."""
    window = make_window(qtbot, demo)
    dialog = foraging(qtbot, window)
    field = dialog.step_widget.card_field
    type_unknown(qtbot, field, "FF99")
    assert refusals == []
    said = field.unknown.text()
    assert field.unknown.isVisible()
    assert "FF99 is not a forest forage card of this campaign (Sample" in said
    assert "Enter this card…" in said and "Just record what happened" in said
    assert field.enter_button.isVisible() and field.record_button.isVisible()
    lore = demo.status().lore
    record = open_record(qtbot, field)
    assert record.card.text() == "FF99" and record.who.currentData() == "Ash"
    assert not record.record_button.isEnabled()
    qtbot.keyClicks(record.line, LINE)
    assert record.preview.text() == "Will apply: gain 2 meat; gain 1 lore"
    qtbot.keyClick(record.line, Qt.Key.Key_Return)  # Record is the default button
    assert not record.isVisible()
    assert procedures.in_progress(demo) is None and dialog.finished_
    assert "resolved at the table" in dialog.summary.text()
    assert demo.status().lore == lore + 1
    assert [r.card for r in recorded_cards(demo)] == ["FF99"]
    window.undo_action.trigger()  # one operation: back at the card step
    assert procedures.in_progress(demo) is not None and demo.status().lore == lore


def test_record_line_completes_the_part_after_the_last_comma(qtbot: Any, demo: Any) -> None:
    window = make_window(qtbot, demo)
    dialog = foraging(qtbot, window)
    record = open_record(qtbot, dialog.step_widget.card_field)
    completer = record.line.completer()
    qtbot.keyClicks(record.line, "lore +1, gain 1 me")
    popup = completer.popup()
    offered = [completer.completionModel().index(i, 0).data()
               for i in range(completer.completionCount())]
    assert offered and all("gain 1 me" in o for o in offered)  # the last part only
    assert popup.isVisible() and completer.completionCount() >= 1
    popup.setCurrentIndex(completer.completionModel().index(0, 0))
    qtbot.keyClick(popup, Qt.Key.Key_Return)
    assert record.line.text() == "lore +1, gain 1 meat"
    qtbot.keyClicks(record.line, ", minor injury Br")
    assert "Bryn" in [completer.completionModel().index(i, 0).data()
                      for i in range(completer.completionCount())]
    qtbot.keyClicks(record.line, "yn")
    assert record.preview.text() == ("Will apply: gain 1 lore; gain 1 meat; Bryn: suffer 1 "
                                     "minor injury")
    record.line.setText("lore +1, fly away")
    assert record.preview.text().startswith("Not yet: 'fly away'")
    assert not record.record_button.isEnabled()


def test_night_card_recorded_and_the_night_goes_on(qtbot: Any, demo: Any,
                                                   refusals: list[str]) -> None:
    """Rulebook: Night Phase: the card resolved at the table stands in the drawn card's
    place; the remaining steps and the Night's end run."""
    window = make_window(qtbot, demo)
    assert window.run_operation(procedures.advance_day_pass if hasattr(
        procedures, "advance_day_pass") else _pass_all)
    wizard = start_night(window)
    qtbot.addWidget(wizard)
    while wizard.step is not None and wizard.step.decider is not Decider.CARD:
        click(qtbot, wizard.step_widget.option_buttons[0] if wizard.step_widget.option_buttons
              else wizard.step_widget.app_button)
    field = wizard.step_widget.card_field
    record = open_record(qtbot, field)
    record.card.setText("N99")
    qtbot.keyClicks(record.line, "unrest +1")
    click(qtbot, record.record_button)
    assert refusals == []
    assert any(r.card == "N99" and r.kind == "night_cards" for r in recorded_cards(demo))
    while wizard.step is not None:  # the rest of the Night, and its end
        if wizard.step.decider is Decider.CARD:
            record = open_record(qtbot, wizard.step_widget.card_field)
            qtbot.keyClicks(record.line, "lore +1")
            click(qtbot, record.record_button)
            continue
        click(qtbot, wizard.step_widget.option_buttons[0] if wizard.step_widget.option_buttons
              else wizard.step_widget.app_button)
    assert any(e.text.startswith("The Night ends") for e in demo.journal(limit=6))


def _pass_all(campaign: Any) -> Any:
    from companion import operations

    operations.pass_turn(campaign, name="Ash")
    return operations.pass_turn(campaign, name="Bryn")


def test_we_resolved_this_at_the_table_ends_the_activity(qtbot: Any, demo: Any,
                                                        refusals: list[str]) -> None:
    dialog = activity_dialog(qtbot, demo, "fishing", "river")
    while dialog.step is not None and dialog.step.decider is Decider.CARD:
        click(qtbot, dialog.step_widget.app_button)  # the stock and water cards, in the app
    assert dialog.step is not None and dialog.step.decider is not Decider.CARD
    button = dialog.step_widget.table_button
    assert button is not None and button.isVisible()
    click(qtbot, button)
    record = next(d for d in dialog.findChildren(RecordDialog) if d.isVisible())
    assert record.windowTitle() == "We resolved this at the table"
    qtbot.keyClicks(record.line, "gain 2 fish")
    click(qtbot, record.record_button)
    assert refusals == [] and procedures.in_progress(demo) is None
    assert "Fishing resolved at the table" in dialog.summary.text()


# --- item 6: Codex outcomes -------------------------------------------------------------------


def read_in_codex(qtbot: Any, window: Any, number: str) -> CodexDialog:
    codex = CodexDialog(window)
    qtbot.addWidget(codex)
    codex.show()
    qtbot.keyClicks(codex.request, number)
    click(qtbot, codex.look_button)
    return codex


def outcome_dialog(codex: CodexDialog) -> OutcomeDialog:
    found = [d for d in codex.findChildren(OutcomeDialog) if d.isVisible()]
    assert len(found) == 1
    return found[0]


def test_codex_outcome_shown_and_applied(qtbot: Any, demo: Any, refusals: list[str]) -> None:
    window = make_window(qtbot, demo)
    lore = demo.status().lore
    codex = read_in_codex(qtbot, window, "100")
    assert codex.act_button.isVisible()
    click(qtbot, codex.act_button)
    outcome = outcome_dialog(codex)
    assert "• gain 1 lore" in outcome.text.toPlainText()
    assert outcome.apply_button.text() == "&Apply its effects"
    click(qtbot, outcome.apply_button)
    assert demo.status().lore == lore + 1 and not outcome.isVisible()
    window.undo_action.trigger()
    assert demo.status().lore == lore


def test_codex_outcome_the_content_lacks_is_typed_once_and_remembered(
        qtbot: Any, demo: Any, refusals: list[str]) -> None:
    window = make_window(qtbot, demo)
    lore = demo.status().lore
    codex = read_in_codex(qtbot, window, "999")
    assert codex.act_button.text() == "Type what it &did…"
    click(qtbot, codex.act_button)
    outcome = outcome_dialog(codex)
    assert "not in this campaign's Codex" in outcome.text.toPlainText()
    qtbot.keyClicks(outcome.line, "lore +2")
    click(qtbot, outcome.apply_button)
    assert refusals == [] and demo.status().lore == lore + 2
    again = OutcomeDialog(window, 999)  # reached again: known, and applied as it is
    qtbot.addWidget(again)
    assert "lore +2" in again.text.toPlainText() and "Recorded at the table" in \
        again.text.toPlainText()
    assert again.apply_button.text() == "&Apply its effects"


def test_a_result_naming_an_outcome_offers_it(qtbot: Any, demo: Any) -> None:
    window = make_window(qtbot, demo)
    links = OutcomeLinks(window)
    qtbot.addWidget(links)
    links.show_for("The Night ends. Read Codex outcome 100.")
    assert [b.text() for b in links.buttons] == ["Read outcome 100…"]
    links.show()
    click(qtbot, links.buttons[0])
    assert any(d.isVisible() for d in links.findChildren(OutcomeDialog))


# --- Save as a card, and what it costs to type ------------------------------------------------


def typed_fields(form: Any, card_id: str) -> tuple[int, int]:
    """The fields of a filled card form a player typed or picked, and the keys that took
    (each value, then a key to confirm it); the id, filled in from the card typed, and
    fields left at their least count for nothing."""
    fields = keys = 0
    for widget in form.editor.findChildren(QComboBox) + form.editor.findChildren(QLineEdit) \
            + form.editor.findChildren(QSpinBox):
        if isinstance(widget, QLineEdit) and isinstance(widget.parent(), QComboBox):
            continue  # a combo's own line edit: counted with the combo
        text = widget.currentText() if isinstance(widget, QComboBox) else (
            widget.text() if isinstance(widget, QLineEdit) else str(widget.value()))
        if not text or (isinstance(widget, QSpinBox) and widget.value() == widget.minimum()):
            continue
        if isinstance(widget, QLineEdit) and widget.text() == card_id:
            continue  # the id, filled in from what was typed
        fields += 1
        keys += len(text) + 1  # typed (or picked) and confirmed
    return fields, keys


def test_save_a_recorded_card_from_my_cards(qtbot: Any, demo: Any, refusals: list[str]) -> None:
    window = make_window(qtbot, demo)
    dialog = foraging(qtbot, window)
    type_unknown(qtbot, dialog.step_widget.card_field, "FF99")
    record = open_record(qtbot, dialog.step_widget.card_field)
    qtbot.keyClicks(record.line, LINE)
    click(qtbot, record.record_button)
    from companion.ui.my_cards import MyCardsWindow

    mine = MyCardsWindow(window)
    qtbot.addWidget(mine)
    mine.show()
    click(qtbot, mine.recorded_button)
    listed = next(d for d in mine.findChildren(RecordedCardsDialog) if d.isVisible())
    assert listed.list.count() == 1 and "forage card FF99" in listed.list.item(0).text()
    click(qtbot, listed.save_button)
    form = next(f for f in listed.findChildren(CardForm) if f.isVisible())
    assert form.data()["id"] == "FF99"
    assert "Recorded at the table: gain 2 meat, lore +1" in str(form.data())


def typing_cost(qtbot: Any, demo: Any) -> dict[str, int]:
    """Fields and keystrokes to get past one unknown forage card (a forest card laid
    out like FF01): through the card form, and through the record line."""
    window = make_window(qtbot, demo)
    dialog = foraging(qtbot, window)
    field = dialog.step_widget.card_field
    type_unknown(qtbot, field, "FF99")
    click(qtbot, field.enter_button)
    form = next(f for f in dialog.findChildren(CardForm) if f.isVisible())
    template = demo.content.forage_cards["FF01"].model_dump(mode="json")
    form.editor.editors["deck"].set_value(template["deck"])
    form.editor.editors["rows"].set_value(template["rows"])
    QApplication.processEvents()
    fields, keys = typed_fields(form, "FF99")
    adds = sum(len(template["rows"][row]) for row in ("front", "middle", "back"))
    bonuses = sum(len(spot.get("bonus") or []) if isinstance(spot, dict) else
                  str(spot).count("+") for row in template["rows"].values() for spot in row)
    form_keys = keys + adds + bonuses + 1  # an "Add" click per spot and bonus, then Save
    form.reject()
    record = open_record(qtbot, field)
    qtbot.keyClicks(record.line, LINE)
    record_keys = len(LINE) + 1  # the line, then Enter (Record)
    return {"form_fields": fields, "form_adds": adds + bonuses, "form_keystrokes": form_keys,
            "record_fields": 1, "record_keystrokes": record_keys}


def test_recording_costs_far_less_typing_than_entering(qtbot: Any, demo: Any) -> None:
    cost = typing_cost(qtbot, demo)
    print(f"typing cost of one unknown forage card: {cost}")
    assert cost["record_fields"] == 1 and cost["record_keystrokes"] == len(LINE) + 1
    assert cost["form_fields"] >= 10 and cost["form_keystrokes"] > 3 * cost["record_keystrokes"]


def test_a_discovery_card_recorded_from_the_valley_panel(qtbot: Any, demo: Any,
                                                        refusals: list[str]) -> None:
    """Rulebook: Valley Decks > Discovery: the card field of the Valley map's Discovery
    panel, to "Just record what happened"; the Discovery due is drawn and resolved."""
    from companion import operations
    from tests.ui.test_newcomer_discovery import arrive

    view = arrive(qtbot, demo)
    field = view.discovery_card
    type_unknown(qtbot, field, "DI99")
    assert "DI99 is not a Discovery card of this campaign" in field.unknown.text()
    record = open_record(qtbot, field)
    assert record.card.text() == "DI99"
    qtbot.keyClicks(record.line, "gain 1 wood Ash, lore +1")
    click(qtbot, record.record_button)
    assert refusals == [] and operations.discovery_due(demo) is None
    assert [(r.card, r.kind) for r in recorded_cards(demo)] == [("DI99", "discovery_cards")]
