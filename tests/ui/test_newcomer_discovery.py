"""Issue 27 item 1 (and issue 24 (a)): the Valley map's Discovery panel takes its own
drop-down picks ("DI07 Hot Spring") and typed names ("hot spr") as the Day panel's card
field does, through the one card reading (operations.cards.resolve_card_id); and a
Discovery card typed into it undoes like any step (Rulebook: Actions > Move; Explore).

Each test drives the real controls of a shown main window: a piece moved on the map,
the card field's list or its line edit, the "Use this card" button."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from companion import operations
from companion import operations as ops
from companion.ui.views.valley import ValleyView
from tests.ui.test_map_view import face_down, open_valley


def arrive(qtbot: Any, demo: operations.Campaign) -> ValleyView:
    """Ash explores a face-down neighbour from the map: a Discovery card is due."""
    _, view = open_valley(qtbot, demo)
    view.character_combo.setCurrentText("Ash")
    target = face_down(view)[0]
    view.select_hex(target)
    view.start_move(target)
    assert view.confirm_move()
    assert view.discovery_box.isVisibleTo(view)
    return view


def drawn(demo: operations.Campaign) -> str:
    return demo.journal(1)[0].text


def test_a_pick_from_the_panels_own_list_is_drawn(qtbot: Any, demo: operations.Campaign,
                                                  refusals: list[str]) -> None:
    view = arrive(qtbot, demo)
    combo = view.discovery_card.combo
    index = combo.findText("DI07 Hot Spring")
    assert index >= 0  # the list offers it as "id name"
    combo.setCurrentIndex(index)
    qtbot.mouseClick(view.discovery_card.use_button, Qt.MouseButton.LeftButton)
    assert refusals == []
    assert drawn(demo).startswith("Ash drew the Discovery Hot Spring (DI07)")
    assert ops.discovery_due(demo) is None


@pytest.mark.parametrize("typed", ["hot spr", "Hot Spring", "DI07 Hot Spring", "di07"])
def test_a_name_typed_into_the_panel_is_drawn(qtbot: Any, demo: operations.Campaign,
                                              refusals: list[str], typed: str) -> None:
    view = arrive(qtbot, demo)
    edit = view.discovery_card.combo.lineEdit()
    assert edit is not None
    edit.setFocus()
    qtbot.keyClicks(edit, typed)
    qtbot.keyClick(edit, Qt.Key.Key_Return)
    assert refusals == []
    assert drawn(demo).startswith("Ash drew the Discovery Hot Spring (DI07)")


def test_a_fragment_two_cards_share_is_refused_naming_it(
        qtbot: Any, demo: operations.Campaign, refusals: list[str]) -> None:
    view = arrive(qtbot, demo)
    due = ops.discovery_due(demo)
    edit = view.discovery_card.combo.lineEdit()
    assert edit is not None
    qtbot.keyClicks(edit, "zzq")
    qtbot.mouseClick(view.discovery_card.use_button, Qt.MouseButton.LeftButton)
    # Said in the field itself, with "Enter this card…" and "Just record what happened"
    # under it (issue 27 item 10); nothing changed.
    assert refusals == [] and "zzq is not a Discovery card of this campaign" in \
        view.discovery_card.unknown.text()
    assert ops.discovery_due(demo) == due  # nothing changed


def test_a_card_typed_into_the_panel_undoes_to_the_first_event(
        qtbot: Any, demo: operations.Campaign, refusals: list[str]) -> None:
    """Issue 24 (a): Undo went back 11 steps and stopped at a Discovery card typed into
    this panel ("rng_state row 1 was changed outside the journal"): once the Discovery
    deck was shuffled, a typed card rolls nothing, and the recorder took the unchanged
    generator row for an inserted one."""
    view = arrive(qtbot, demo)
    qtbot.mouseClick(view.draw_button, Qt.MouseButton.LeftButton)  # shuffles the deck
    view.character_combo.setCurrentText("Bryn")
    target = face_down(view)[0]
    view.select_hex(target)
    view.start_move(target)
    assert view.confirm_move()
    edit = view.discovery_card.combo.lineEdit()
    assert edit is not None
    qtbot.keyClicks(edit, "DI07 Hot Spring")
    qtbot.mouseClick(view.discovery_card.use_button, Qt.MouseButton.LeftButton)
    assert refusals == []
    assert drawn(demo).startswith("Bryn drew the Discovery Hot Spring (DI07)")
    operations_made = len([e for e in demo.journal(100) if e.kind != "campaign.new"])
    undone = 0
    while demo.undo_label() is not None:  # Edit > Undo, to the first event
        assert view.window_.run_operation(ops.undo), refusals
        undone += 1
    assert undone == operations_made
    while demo.redo_label() is not None:  # Edit > Redo, to the last
        assert view.window_.run_operation(ops.redo), refusals
    assert refusals == []
    assert drawn(demo).startswith("Redid: Bryn drew the Discovery Hot Spring (DI07)")


def _plant_a_change_outside_the_journal(demo: operations.Campaign) -> None:
    """A row no journal step wrote (as a foreign tool or an old bug leaves it)."""
    demo.file._conn().execute("UPDATE character SET might = might + 1 WHERE name = 'Ash'")


def test_edit_undo_that_must_stop_says_why_and_what_to_do(
        qtbot: Any, demo: operations.Campaign, warnings: list[str]) -> None:
    """Issue 24 (c): Edit > Undo names the step it stops at and the way back."""
    window, _ = open_valley(qtbot, demo)
    assert window.run_operation(ops.gather_water, name="Ash")
    _plant_a_change_outside_the_journal(demo)
    for _ in range(10):  # back to the step that made Ash's might what it was
        window.undo_action.trigger()
        if warnings:
            break
    assert len(warnings) == 1
    said = warnings[0]
    assert said.startswith("Undo stops at “Ash joined the society")
    assert demo.undo_label() == "Ash joined the society"  # it stays, nothing changed
    assert "restore a backup taken before it (File ▸ Backups…" in said
    assert "outside the journal" not in said and "row" not in said


def test_undo_to_save_point_that_must_stop_says_why(
        qtbot: Any, demo: operations.Campaign, warnings: list[str], monkeypatch: Any
        ) -> None:
    from PySide6.QtWidgets import QDialog

    from companion.ui.dialogs import SavePointDialog, undo_to_save_point

    window, _ = open_valley(qtbot, demo)
    first = demo.journal(1)[0].text
    assert window.run_operation(ops.save_point, name="before the Night")
    assert window.run_operation(ops.gather_water, name="Ash")
    assert window.run_operation(ops.gather_water, name="Bryn")
    demo.file._conn().execute("UPDATE character SET energy = 1 WHERE name = 'Bryn'")
    monkeypatch.setattr(SavePointDialog, "exec", lambda dialog: QDialog.DialogCode.Accepted)
    before = demo.characters()
    undo_to_save_point(window)
    assert warnings and warnings[0].startswith(
        "Undo to the save point 'before the Night' stops at “Bryn")
    assert "cannot go back past this step" in warnings[0]
    assert demo.characters() == before  # nothing was undone
    assert first  # the point itself stays


def test_the_discovery_due_is_scrolled_into_view_at_1366x768(
        qtbot: Any, demo: operations.Campaign) -> None:
    """Below Ash's long list of actions the Discovery box was out of view: a newcomer
    did not see the card was due. The panel scrolls to it."""
    window, view = open_valley(qtbot, demo)
    window.resize(1366, 768)
    view.character_combo.setCurrentText("Ash")
    target = face_down(view)[0]
    view.select_hex(target)
    view.start_move(target)
    assert view.confirm_move()
    for _ in range(3):  # the layout, then the scroll: no waiting for focus to come
        QApplication.processEvents()
    assert not view.discovery_card.use_button.visibleRegion().isEmpty()
    assert not view.discovery_label.visibleRegion().isEmpty()
