"""Issue 27, item 14: starting the next challenge asks each player's mantle, and a boost
from the last challenge does not carry over (Rulebook: Mantle > Mantle Board; Boost
Slots; Continuing Play > Mantle Power). Driven through the Play menu's real controls."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog, QWidget

from companion import operations
from companion.content.schema.base import Ability
from companion.operations import challenge as lifecycle
from companion.operations.effects import apply_effects
from companion.ui import play_dialogs
from companion.ui.main_window import MainWindow


def open_from_play_menu(window: MainWindow, text: str) -> Any:
    action = next(a for a in window.play_menu.actions()
                  if a.text().replace("&", "") == text)
    before = {id(w) for w in window.findChildren(QWidget) if isinstance(w, QDialog)}
    action.trigger()
    return next(w for w in window.findChildren(QWidget)
                if isinstance(w, QDialog) and id(w) not in before and w.isVisible())


def test_newcomer_next_challenge_asks_mantles_and_the_boost_is_gone(
        qtbot: Any, window: MainWindow, demo: operations.Campaign,
        warnings: list[str]) -> None:
    ash, bryn = demo.character_detail("Ash"), demo.character_detail("Bryn")
    apply_effects(demo, name="Ash", effects=[{"do": "boost", "ability": "might"}])
    power = next(p for p, c in demo.content.mantle_powers.items() if c.mantle == ash.mantle)
    operations.unlock_mantle_power(demo, power=power)
    lifecycle.end_challenge(demo, outcome="120", looming=["C2"])

    dialog = open_from_play_menu(window, "Start Challenge…")
    assert isinstance(dialog, play_dialogs.StartChallengeDialog)
    # Each player's mantle is asked, set to the one used previously.
    assert dialog.mantles["Ash"].currentData() == ash.mantle
    assert dialog.mantles["Bryn"].currentData() == bryn.mantle
    assert dialog.mantles["Ash"].isVisible() and dialog.powers["Bryn"].isVisible()
    # Both in Bryn's mantle: refused in game words, nothing begins.
    dialog.mantles["Ash"].setCurrentIndex(dialog.mantles["Ash"].findData(bryn.mantle))
    qtbot.mouseClick(dialog.start_button, Qt.MouseButton.LeftButton)
    assert warnings and "both chose the" in warnings[-1]
    assert demo.status().challenge_id is None
    # Swap: Bryn now wears Ash's old mantle and is offered its unlocked power.
    bryn_mantle = dialog.mantles["Bryn"]
    bryn_mantle.setCurrentIndex(bryn_mantle.findData(ash.mantle))
    offered = dialog.powers["Bryn"]
    assert [offered.itemData(i) for i in range(offered.count())] == [None, power]
    assert not dialog.powers["Ash"].isEnabled()  # nothing unlocked for that mantle
    offered.setCurrentIndex(1)
    qtbot.mouseClick(dialog.start_button, Qt.MouseButton.LeftButton)
    assert len(warnings) == 1
    assert demo.status().challenge_id == "C2"
    ash2, bryn2 = demo.character_detail("Ash"), demo.character_detail("Bryn")
    assert (ash2.mantle, bryn2.mantle, bryn2.mantle_power) == (bryn.mantle, ash.mantle,
                                                               power)
    # Ash's minor might boost (1) ended with the last challenge: none carried over.
    assert Ability.MIGHT not in ash2.boosts and ash2.boosts == {}

