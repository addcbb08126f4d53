"""Issue 25 ("Done when"): in a "My own box" campaign, the GUI path from the card field
to "Just record what happened", through the real controls (Rulebook: Fishing). A sample
id typed (FI01) is not the sample's card: the field says so, naming the box's packs, and
offers both ways on. The typing cost of one unknown card both ways is measured here
(``typing_cost``; printed with ``pytest -s``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from companion.operations import procedures
from companion.operations.cards import enter_card
from companion.operations.recorded import recorded_cards
from companion.rules.procedure import Decider
from companion.ui.card_form import CardForm
from companion.ui.procedure_dialog import ProcedureDialog, start_activity
from tests.acceptance.test_real_box import RIVER, fishing_card
from tests.box_campaign import make_box_campaign
from tests.ui.helpers import make_window
from tests.ui.test_newcomer_cards_record import click, open_record, type_unknown, typed_fields

LINE = "gain 2 fish Bryn, lore +1"


def box_fishing(qtbot: Any, tmp_path: Path) -> tuple[Any, Any, ProcedureDialog]:
    """A box campaign whose table entered three fishing cards and the river's fishing in
    My Cards; Bryn begins fishing at the river of 01 from the Day tab's dialog."""
    campaign = make_box_campaign(tmp_path / "box.stonesaga")
    for card_id in ("FI11", "FI12", "FI14"):
        enter_card(campaign, kind="fishing_cards", data=fishing_card(card_id))
    enter_card(campaign, kind="features", data=RIVER)
    window = make_window(qtbot, campaign)
    dialog = start_activity(window, "fishing", "Bryn", "river")
    assert isinstance(dialog, ProcedureDialog)
    qtbot.addWidget(dialog)
    assert dialog.step is not None and dialog.step.decider is Decider.CARD
    return campaign, window, dialog


def test_box_unknown_card_from_the_card_field_to_just_record_what_happened(
        qtbot: Any, tmp_path: Path, refusals: list[str]) -> None:
    campaign, window, dialog = box_fishing(qtbot, tmp_path)
    field = dialog.step_widget.card_field
    type_unknown(qtbot, field, "FI01")  # the sample's FI01: never resolved here
    assert refusals == [] and field.unknown.isVisible()
    said = field.unknown.text()
    assert "FI01 is not a fishing card of this campaign (My own box, your own pack)" in said
    assert field.enter_button.isVisible() and field.record_button.isVisible()
    record = open_record(qtbot, field)
    assert record.card.text() == "FI01" and record.who.currentData() == "Bryn"
    record.card.setText("")
    qtbot.keyClicks(record.card, "FI03")  # the card the table actually drew
    qtbot.keyClicks(record.line, LINE)
    assert record.preview.text() == "Will apply: Bryn: gain 2 fish; gain 1 lore"
    qtbot.keyClick(record.line, Qt.Key.Key_Return)
    assert refusals == [] and not record.isVisible()
    assert procedures.in_progress(campaign) is None and dialog.finished_
    assert campaign.status().lore == 1
    assert [(r.card, r.kind) for r in recorded_cards(campaign)] == [("FI03", "fishing_cards")]
    assert campaign.journal(limit=1)[0].text.startswith(
        "Fishing resolved at the table (the fishing card FI03): Bryn: gain 2 fish; gain 1 lore")
    window.undo_action.trigger()  # one operation: back at the card step
    assert procedures.in_progress(campaign) is not None and campaign.status().lore == 0
    campaign.close()


def typing_cost(qtbot: Any, tmp_path: Path) -> dict[str, int]:
    """Fields and keystrokes to get past one unknown fishing card in the box: the card
    form (every field of the card as printed, an Add per row, Save) against the record
    line (the card's id, the line, Enter)."""
    campaign, _window, dialog = box_fishing(qtbot, tmp_path)
    field = dialog.step_widget.card_field
    type_unknown(qtbot, field, "FI03")
    click(qtbot, field.enter_button)
    form = next(f for f in dialog.findChildren(CardForm) if f.isVisible())
    template = fishing_card("FI03", (1, 2, 1))
    for key in ("targets", "modifiers", "water"):
        form.editor.editors[key].set_value(template[key])
    QApplication.processEvents()
    fields, keys = typed_fields(form, "FI03")
    adds = len(template["water"]) + sum(len(t["contents"]) for t in
                                        template["targets"].values())
    form_keys = keys + adds + 1  # an Add click per strike location and content, then Save
    form.reject()
    campaign.close()
    card_keys = len("FI03") + 1  # typed in the card field, then Use
    return {"card_field_keystrokes": card_keys, "form_fields": fields, "form_adds": adds,
            "form_keystrokes": card_keys + form_keys, "record_fields": 2,
            "record_keystrokes": card_keys + 1 + len(LINE) + 1}


def test_box_recording_one_unknown_card_costs_far_less_than_entering_it(
        qtbot: Any, tmp_path: Path) -> None:
    cost = typing_cost(qtbot, tmp_path)
    print(f"typing cost of one unknown fishing card in the box: {cost}")
    assert cost["record_keystrokes"] == 5 + 1 + len(LINE) + 1
    assert cost["form_fields"] >= 10 and cost["form_keystrokes"] > 2 * cost["record_keystrokes"]
