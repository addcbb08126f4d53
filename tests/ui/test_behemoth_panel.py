"""The behemoth panel on the demo campaign: set up through its dialog, the preview, the
learn buttons' refusals, and a whole activation, encounter and contest driven from the
panel's buttons through the procedure dialog."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog, QInputDialog

from companion import operations
from companion.operations import behemoth as bh  # registers its procedures
from companion.operations import procedures
from companion.ui.behemoth_panel import BehemothPanel, SetUpDialog, behemoth_overlay_data
from companion.ui.main_window import MainWindow


def make_panel(qtbot: Any, campaign: operations.Campaign) -> tuple[MainWindow, BehemothPanel]:
    window = MainWindow()
    qtbot.addWidget(window)
    window.campaign = campaign  # the views are not needed here
    panel = BehemothPanel(window)
    qtbot.addWidget(panel)
    panel.show()
    return window, panel


def fill_set_up(monkeypatch: Any, **choices: str) -> None:
    def exec_(dialog: SetUpDialog) -> int:
        for name, value in choices.items():
            combo = getattr(dialog, name)
            combo.setCurrentIndex(combo.findData(value))
        return QDialog.DialogCode.Accepted.value

    monkeypatch.setattr(SetUpDialog, "exec", exec_)


def test_set_up_dialog_and_preview(qtbot: Any, demo: Any, monkeypatch: Any,
                                   refusals: list[str]) -> None:
    operations.move(demo, name="Ash", to_hex="E05")
    window, panel = make_panel(qtbot, demo)
    assert panel.title.text() == "No behemoth is in play"
    assert not panel.activate_button.isEnabled()
    fill_set_up(monkeypatch, instinct="RBI1", secret="RBS2", lair="E01")
    qtbot.mouseClick(panel.set_up_button, Qt.MouseButton.LeftButton)
    assert panel.title.text() == "Rimeback"
    assert "RBI1 Hungry" in panel.instinct.text()
    assert panel.secret.text().startswith("Secret: face down")
    assert not panel.learn_habits_button.isEnabled()
    assert "costs 4" in panel.learn_habits_button.toolTip()
    monkeypatch.setattr(QInputDialog, "getItem", lambda *a, **k: ("Ash", True))
    qtbot.mouseClick(panel.target_button, Qt.MouseButton.LeftButton)
    assert "Ash" in panel.target.text()
    assert panel.end_table.rowCount() == 1
    assert panel.end_table.item(0, 0).text() == "E05"
    assert panel.end_table.item(0, 1).text().startswith("100.0%")
    names = {panel.reach_table.item(r, 0).text(): panel.reach_table.item(r, 2).text()
             for r in range(panel.reach_table.rowCount())}
    assert names == {"Ash": "100.0%", "Bryn": "0.0%"}
    data = behemoth_overlay_data(demo)
    assert data is not None and data["hex"] == "E01" and data["target"] == "E05"
    assert refusals == []


def test_behemoths_learning_waits_for_the_end_of_a_night_in_the_panel(
        qtbot: Any, demo: Any) -> None:
    window, panel = make_panel(qtbot, demo)
    assert panel.set_up({"behemoth": "rimeback", "instinct": "RBI2", "secret": "RBS2",
                         "lair_hex": "E01", "lair_section": "a"})
    window.run_operation(operations.gain_lore, amount=11)
    # Rulebook: Behemoths > Habits; Learning the Secret (D18): only at the end of a
    # Night, which offers it; during the Day the panel says so.
    assert not panel.learn_habits_button.isEnabled()
    assert not panel.learn_secret_button.isEnabled()
    assert "only at the end of a Night" in panel.learn_habits_button.toolTip()
    assert "only at the end of a Night" in panel.habits.text()
    assert demo.status().lore == 11


def test_a_whole_activation_encounter_and_contest_from_the_panel(
        qtbot: Any, demo: Any, monkeypatch: Any, refusals: list[str]) -> None:
    operations.move(demo, name="Ash", to_hex="E05")
    window, panel = make_panel(qtbot, demo)
    panel.set_up({"behemoth": "rimeback", "instinct": "RBI1", "secret": "RBS2",
                  "lair_hex": "E01", "lair_section": "b"})
    panel.place_target("Ash")
    qtbot.mouseClick(panel.activate_button, Qt.MouseButton.LeftButton)
    from companion.ui.procedure_dialog import ProcedureDialog

    dialog = next(d for d in window.findChildren(ProcedureDialog) if d.isVisible())
    assert dialog.step is not None and dialog.step.count == 1
    assert not panel.activate_button.isEnabled()  # one procedure at a time
    assert dialog.answer((3,))  # 1d6+1 = 4 movement points: it enters E05
    assert "encounter" in panel.progress.text()
    assert "E05" in panel.where.text()
    assert dialog.answer("RB3")  # contest of awareness (9)
    assert dialog.answer((6,))  # Ash: 5 + 6 = 11: success
    assert procedures.in_progress(demo) is None
    assert dialog.finished_ and "success" in dialog.summary.text()
    assert demo.status().lore == 2
    assert panel.progress.text() == "" and panel.activate_button.isEnabled()
    assert refusals == []
    # Resolve Encounter by hand: Bryn, in the app.
    monkeypatch.setattr(QInputDialog, "getItem", lambda *a, **k: ("Bryn", True))
    qtbot.mouseClick(panel.encounter_button, Qt.MouseButton.LeftButton)
    view = procedures.in_progress(demo)
    assert view is not None and view.actor == "Bryn"
    while procedures.in_progress(demo) is not None:
        assert dialog.answer(None)
    assert bh.behemoth_view(demo).procedure is None  # type: ignore[union-attr]
