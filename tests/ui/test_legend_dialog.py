"""Legends and Mantle Power, clicking the real controls (Rulebook: Legends > Gaining
Legend Cards, Using Legend Cards; Continuing Play > Mantle Power; Behemoths > Contests)."""

from __future__ import annotations

from typing import Any

import pytest

from companion import operations
from companion.ui import play_dialogs
from companion.ui.legend_dialog import LegendDialog
from companion.ui.main_window import MainWindow


@pytest.fixture
def demo(demo: operations.Campaign) -> operations.Campaign:
    """The demo campaign after Ash ages out: Ash's legend card is unassigned."""
    operations.age_character(demo, name="Ash")
    operations.age_character(demo, name="Ash")
    return demo


def _dialog(qtbot: Any, window: MainWindow) -> LegendDialog:
    dialog = LegendDialog(window, "Bryn")
    qtbot.addWidget(dialog)
    dialog.show()
    return dialog


def test_gaining_legend_cards_draw_then_use_for_a_trait(
        qtbot: Any, window: MainWindow, demo: Any, warnings: list[str]) -> None:
    dialog = _dialog(qtbot, window)
    assert dialog.pool.item(0).text().startswith("1. Ash — Might 6")
    dialog.draw_button.click()
    assert warnings == []
    assert dialog.held.item(0).text().startswith("1. Ash")
    assert dialog.pool.item(0).text().startswith("No unassigned legend")
    assert [c.held_by for c in operations.legend_cards(demo)] == ["Bryn"]
    # A second draw: the society has no unassigned legend (Gaining Legend Cards).
    dialog.draw_button.click()
    assert warnings == ["The society has no unassigned legend card to draw."]
    # Using Legend Cards: count as having its trait; the card returns.
    assert dialog.use_as.currentText() == "the trait Intrepid"
    dialog.use_button.click()
    assert [c.held_by for c in operations.legend_cards(demo)] == [None]
    assert "count as having the trait intrepid" in dialog.result_label.text()


def test_gaining_legend_cards_choose_and_return(
        qtbot: Any, window: MainWindow, demo: Any, warnings: list[str]) -> None:
    dialog = _dialog(qtbot, window)
    dialog.pool.setCurrentRow(0)
    dialog.choose_button.click()
    assert [c.held_by for c in operations.legend_cards(demo)] == ["Bryn"]
    dialog.return_button.click()
    assert [c.held_by for c in operations.legend_cards(demo)] == [None]
    assert warnings == []


def bryn_tests_might_holding_ash(qtbot: Any, window: MainWindow,
                                 demo: Any) -> play_dialogs.AbilityTestDialog:
    """Bryn holds Ash's legend card (1) and opens a Might test."""
    operations.gain_legend(demo, name="Bryn", legend=1)
    window.refresh_all()
    dialog = play_dialogs.AbilityTestDialog(window, "Bryn")
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.ability.setCurrentIndex(dialog.ability.findData("might"))
    return dialog


def test_using_legend_cards_in_a_test_substitutes_the_ability(
        qtbot: Any, window: MainWindow, demo: Any, warnings: list[str]) -> None:
    dialog = bryn_tests_might_holding_ash(qtbot, window, demo)
    dialog.difficulty.setValue(8)
    dialog.die.setValue(2)
    dialog.legend.setCurrentIndex(1)
    assert dialog.legend.currentText() == "Ash (card 1)"
    assert dialog.legend_use.currentText() == "its ability value"
    assert "might 6" in dialog.preview.text()
    dialog.test_button.click()
    assert warnings == []
    # Ash's might 6 stands in for Bryn's: 2 + 6 = 8 against 8.
    assert dialog.breakdown.text() == ("Die 2 + might 6 + boosts 0 + traits +0 = 8 against "
                                       "8: succeeds")
    assert [c.held_by for c in operations.legend_cards(demo)] == [None]
    assert dialog.legend.count() == 1  # the card went back to the unassigned legends


def test_using_legend_cards_in_a_contest(
        qtbot: Any, window: MainWindow, demo: Any, warnings: list[str]) -> None:
    dialog = bryn_tests_might_holding_ash(qtbot, window, demo)
    dialog.contest.setChecked(True)
    assert dialog.test_button.text() == "Contest"
    dialog.behemoth_value.setValue(7)
    dialog.behemoth_boosts.setValue(1)
    dialog.die.setValue(3)
    dialog.legend.setCurrentIndex(1)
    dialog.test_button.click()
    assert warnings == []
    # 3 + 6 = 9 against 7 + 1 = 8: success (D16).
    assert dialog.breakdown.text().endswith("= 9 against 8: success")
    assert "contests might" in demo.journal(1)[0].text


def test_mantle_power_unlock_take_up_and_use(
        qtbot: Any, window: MainWindow, demo: Any, warnings: list[str]) -> None:
    dialog = _dialog(qtbot, window)
    bryn = demo.character_detail("Bryn")
    mine = [p for p, c in demo.content.mantle_powers.items() if c.mantle == bryn.mantle]
    # Take up before unlocking: nothing of this mantle is unlocked.
    assert dialog.powers.currentData() is None and not dialog.take_button.isEnabled()
    dialog.locked.setCurrentIndex(dialog.locked.findData(mine[0]))
    dialog.unlock_button.click()
    assert dialog.powers.currentData() == mine[0]
    # Continuing Play > Mantle Power: not in the first challenge.
    dialog.take_button.click()
    assert warnings and "society's first challenge" in warnings[-1]
    assert demo.character_detail("Bryn").mantle_power is None
    warnings.clear()
    from companion.operations import challenge as lifecycle

    lifecycle.end_challenge(demo, outcome="120", looming=["C2"])
    operations.start_challenge(demo, challenge="C2")
    dialog.refresh()
    dialog.take_button.click()
    assert demo.character_detail("Bryn").mantle_power == mine[0]
    assert dialog.use_power_button.isEnabled()
    dialog.use_power_button.click()
    assert warnings == []
    assert f"Bryn uses {demo.content.mantle_powers[mine[0]].name}" in \
        dialog.result_label.text()


def test_the_character_sheet_opens_legends_and_shows_the_cards_held(
        qtbot: Any, window: MainWindow, demo: Any) -> None:
    operations.gain_legend(demo, name="Bryn", legend=1)
    window.refresh_all()
    view = window.show_view("characters")
    view.select("Bryn")
    assert view.sheet.detail_text("Legend cards:") == "Ash (card 1)"
    view.sheet.legends_button.click()
    dialogs = [w for w in window.findChildren(LegendDialog)]
    assert dialogs and dialogs[-1].character.currentData() == "Bryn"


def test_using_legend_cards_in_a_behemoth_encounter_from_the_panel(
        qtbot: Any, window: MainWindow, demo: Any, warnings: list[str],
        monkeypatch: Any) -> None:
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QInputDialog

    from companion.operations import behemoth as bh
    from companion.ui.procedure_dialog import ProcedureDialog

    operations.gain_legend(demo, name="Bryn", legend=1)
    bh.set_up_behemoth(demo, behemoth="rimeback")
    window.refresh_all()
    from companion.ui.behemoth_panel import BehemothPanel

    panel = window.show_view("behemoth")
    assert isinstance(panel, BehemothPanel)
    monkeypatch.setattr(QInputDialog, "getItem", lambda *a, **k: ("Bryn", True))
    qtbot.mouseClick(panel.encounter_button, Qt.MouseButton.LeftButton)
    dialog = next(d for d in window.findChildren(ProcedureDialog) if d.isVisible())
    qtbot.mouseClick(dialog.step_widget.app_button, Qt.MouseButton.LeftButton)  # draw
    assert "use a legend card in the contest" in dialog.step.prompt
    texts = [b.text() for b in dialog.step_widget.option_buttons]
    assert any("the legend of Ash: its might 6" in t for t in texts)
    qtbot.mouseClick(dialog.step_widget.option_buttons[1], Qt.MouseButton.LeftButton)
    assert dialog.answer((3,))  # the contest die, typed from the table
    assert warnings == []
    assert [c.held_by for c in operations.legend_cards(demo)] == [None]
    assert "uses the legend of Ash" in demo.journal(1)[0].text


@pytest.mark.parametrize(("on", "sheet", "legend_marks"), [
    # On the legend card (card 1, Ash): Bryn may then count as having it.
    ("legend", "none", ["spiral"]),
    # On Bryn's own card: the sheet shows it, the legend card has none.
    ("name", "spiral", []),
])
def test_fillable_cards_write_a_mark_by_clicking(
        qtbot: Any, window: MainWindow, demo: Any, warnings: list[str], on: str,
        sheet: str, legend_marks: list[str]) -> None:
    """Rulebook: Fillable Cards; Using Legend Cards ("count as having any ... mark")."""
    dialog = _dialog(qtbot, window)
    dialog.pool.setCurrentRow(0)
    dialog.choose_button.click()  # Bryn takes the legend of Ash (card 1)
    assert warnings == []
    dialog.mark_button.click()  # nothing typed: refused in game words
    assert warnings and "Say which mark" in warnings[-1]
    qtbot.keyClicks(dialog.mark_text, "spiral")
    targets = [tuple(dialog.mark_on.itemData(i)) for i in range(dialog.mark_on.count())]
    assert targets == [("name", "Bryn"), ("legend", 1)]
    dialog.mark_on.setCurrentIndex(targets.index(("legend", 1) if on == "legend"
                                                 else ("name", "Bryn")))
    dialog.mark_button.click()
    assert len(warnings) == 1
    assert [list(c.marks) for c in operations.legend_cards(demo)] == [legend_marks]
    window.refresh_all()
    view = window.show_view("characters")
    view.select("Bryn")
    assert view.sheet.detail_text("Marks:") == sheet
    if on == "legend":
        assert dialog.held.item(0).text().endswith("; marks spiral")
        dialog.use_as.setCurrentIndex(dialog.use_as.findText("the mark spiral"))
        dialog.use_button.click()
        assert len(warnings) == 1 and "the mark spiral" in dialog.result_label.text()
