"""Layout tests (issue 20): every window and dialog, on the demo campaign at each step of
its procedure, fits a 1366×768 laptop, has no two visible widgets over each other and no
text cut short; with the system font and at the larger text size (Settings ▸ Text size).

The screen is a laptop's here (``companion.ui.fit.room``): the offscreen platform's own
screen is smaller than any laptop.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtWidgets import QWidget

from companion import operations
from companion.rules.procedure import Decider
from companion.ui.procedure_dialog import start_activity, start_night
from tests.ui import layout_checks, newcomer
from tests.ui.helpers import ash_walks_to, make_window

font_scale = newcomer.font_scale  # the fixture: the system font, then Settings ▸ Text size ▸ Larger


def check(widget: QWidget, where: str, found: list[str]) -> None:
    found.extend(f"{where}: {p}" for p in layout_checks.problems(widget))


def play(qtbot: Any, dialog: Any, where: str, found: list[str], limit: int = 80) -> None:
    """Answer every step in the app (the first option for the players), checking the
    dialog's layout at each step and once it has finished."""
    qtbot.addWidget(dialog)
    steps = 0
    while dialog.step is not None:
        check(dialog, f"{where} step {steps + 1}", found)
        steps += 1
        assert steps < limit
        widget = dialog.step_widget
        if dialog.step.decider is Decider.PLAYER:
            (widget.option_buttons[0] if widget.option_buttons else widget.choose_button).click()
        else:
            widget.app_button.click()
    check(dialog, f"{where} finished", found)


def assert_every_step_whole(qtbot: Any, window: Any, activity: str, where: Any) -> None:
    """Nothing is cut or hidden at any step of Ash's ``activity`` at ``where``."""
    found: list[str] = []
    play(qtbot, start_activity(window, activity, "Ash", where), activity, found)
    assert not found, "\n".join(found)


def test_layout_main_window_every_view(qtbot: Any, demo: Any, font_scale: float) -> None:
    window = make_window(qtbot, demo)
    found: list[str] = []
    for index in range(window.tabs.count()):
        window.tabs.setCurrentIndex(index)
        check(window, f"main window, {window.tabs.tabText(index)}", found)
    assert not found, "\n".join(found)


def test_layout_fishing_every_step(qtbot: Any, demo: Any, refusals: list[str],
                                   font_scale: float) -> None:
    window = make_window(qtbot, demo)
    assert_every_step_whole(qtbot, window, "fishing", "river")


def test_layout_mining_every_step(qtbot: Any, demo: Any, refusals: list[str],
                                  font_scale: float) -> None:
    window = make_window(qtbot, demo)
    ash_walks_to(window, "E09")
    mine = next(a for a in operations.available_actions(demo, "Ash") if a.action == "mine")
    assert_every_step_whole(qtbot, window, "mining", mine.target)


def test_layout_foraging_every_step(qtbot: Any, demo: Any, refusals: list[str],
                                    font_scale: float) -> None:
    window = make_window(qtbot, demo)
    assert_every_step_whole(qtbot, window, "foraging", "plains")


def test_layout_delving_every_step(qtbot: Any, demo: Any, refusals: list[str],
                                   font_scale: float) -> None:
    window = make_window(qtbot, demo)
    ash_walks_to(window, "E05")
    assert_every_step_whole(qtbot, window, "delving", "cave")


def test_layout_night_every_stage(qtbot: Any, demo: Any, refusals: list[str],
                                  font_scale: float) -> None:
    window = make_window(qtbot, demo)
    assert window.run_operation(operations.gather_water, name="Ash")
    assert window.run_operation(operations.pass_turn, name="Bryn")
    assert window.run_operation(operations.pass_turn, name="Ash")
    found: list[str] = []
    play(qtbot, start_night(window), "the Night", found)
    assert not found, "\n".join(found)


DIALOGS = [
    ("codex_dialog", "open_codex"),
    ("crafting_dialog", "open_crafting"),
    ("play_dialogs", "open_processing"),
    ("play_dialogs", "open_effects"),
    ("play_dialogs", "open_ability_test"),
    ("play_dialogs", "open_start_challenge"),
    ("play_dialogs", "open_end_challenge"),
    ("play_dialogs", "open_goals"),
    ("play_dialogs", "open_new_epoch"),
    ("play_dialogs", "open_ageing"),
    ("challenge_card_form", "open_challenge_card"),
    ("material_token", "open_material_token"),
]


@pytest.mark.parametrize(("module", "name"), DIALOGS)
def test_layout_play_menu_dialogs(qtbot: Any, demo: Any, refusals: list[str],
                                  font_scale: float, module: str, name: str,
                                  monkeypatch: Any) -> None:
    import importlib

    from PySide6.QtWidgets import QDialog

    # A modal dialog is looked at while it is open, then closed.
    seen: list[str] = []

    def look(dialog: QDialog) -> int:
        dialog.show()
        check(dialog, name, seen)
        return 0

    monkeypatch.setattr(QDialog, "exec", look)
    window = make_window(qtbot, demo)
    opened = getattr(importlib.import_module(f"companion.ui.{module}"), name)(window)
    if isinstance(opened, QWidget):
        qtbot.addWidget(opened)
        if opened.isVisible():
            check(opened, name, seen)
    assert not seen, "\n".join(seen)


def test_layout_crafting_dialog_both_tabs_with_a_full_bag(qtbot: Any, demo: Any,
                                                         refusals: list[str],
                                                         font_scale: float) -> None:
    # Rulebook: Processing & Crafting > Crafting Items: six tokens in the bag, two laid
    # and turned, one crafted (its outcome shown), then the explorer over the group.
    from companion.operations.effects import apply_effects
    from companion.ui.crafting_dialog import ANY_MATERIALS, open_crafting

    apply_effects(demo, name="Ash", effects=[
        {"do": "gain", "resource": r} for r in ("slate", "moss", "slate", "flint",
                                                "sinew", "flint")])
    window = make_window(qtbot, demo)
    dialog = open_crafting(window, "Ash")
    assert dialog is not None
    qtbot.addWidget(dialog)
    found: list[str] = []
    check(dialog, "lay tokens", found)
    flints = [i for i, tile in dialog._palette_tiles if tile.name == "Flint"]
    dialog.set_tokens(*flints)
    dialog.turn_buttons["right"][1].click()
    dialog.turn_buttons["right"][1].click()
    dialog.craft_button.click()
    assert dialog.result_label.text()
    check(dialog, "lay tokens, crafted", found)
    # the laid tokens are never smaller than five lines of text, nor drawn off the token
    for face in dialog.laid.values():
        assert min(face.width(), face.height()) >= face.fontMetrics().height() * 5
    dialog.tabs.setCurrentIndex(1)
    check(dialog, "crafting explorer", found)
    dialog.scope.setCurrentIndex(dialog.scope.findData(ANY_MATERIALS))
    check(dialog, "crafting explorer, any materials", found)
    assert not found, "\n".join(found)


def test_layout_a_typed_challenge_card_filled_in(qtbot: Any, demo: Any, refusals: list[str],
                                                 font_scale: float) -> None:
    # Rulebook: Set Up > Set Up Challenge: a card from the box typed whole (issue 25).
    import sys

    from companion.ui.challenge_card_form import open_challenge_card

    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
    from challenge_card_screenshots import fill_card

    window = make_window(qtbot, demo)
    form = open_challenge_card(window, card_id="C41")
    assert form is not None
    qtbot.addWidget(form)
    fill_card(form)
    found: list[str] = []
    check(form, "a challenge card typed from the box", found)
    assert not found, "\n".join(found)


def test_layout_no_two_actions_share_a_shortcut(qtbot: Any, demo: Any) -> None:
    window = make_window(qtbot, demo)
    window.apply_deferred_shortcuts()
    assert layout_checks.shared_shortcuts(window) == []
    keys = {a.text().replace("&", ""): a.shortcut().toString() for a in window.actions()}
    keys.update({a.text().replace("&", ""): a.shortcut().toString()
                 for menu in window.menuBar().actions() if menu.menu()
                 for a in menu.menu().actions()})
    assert keys["Save Point…"] != keys["Save a Copy…"]


def test_layout_a_long_undo_label_fits_its_menu(qtbot: Any, demo: Any) -> None:
    from companion.ui.main_window import MENU_LABEL_CHARS

    window = make_window(qtbot, demo)
    entry = "The river swept the whole camp away and Ash swam after the fish traps " * 2
    assert window.run_operation(operations.add_journal_entry, text=entry)
    label = demo.undo_label()
    assert label is not None and len(label) > MENU_LABEL_CHARS
    text = window.undo_action.text()
    assert text.endswith("…") and len(text) <= len("&Undo ") + MENU_LABEL_CHARS + 1
    assert label in window.undo_action.toolTip()  # the whole of it, on hover


def test_layout_continue_procedure_only_while_one_is_in_progress(qtbot: Any, demo: Any,
                                                                 refusals: list[str]) -> None:
    window = make_window(qtbot, demo)
    assert not window.continue_action.isEnabled()
    dialog = start_activity(window, "fishing", "Ash", "river")
    qtbot.addWidget(dialog)
    assert window.continue_action.isEnabled()
    while dialog.step is not None:
        widget = dialog.step_widget
        if dialog.step.decider is Decider.PLAYER:
            widget.option_buttons[0].click()
        else:
            widget.app_button.click()
    assert not window.continue_action.isEnabled()


def test_layout_undo_to_save_point_has_room_for_its_title(qtbot: Any, demo: Any,
                                                         monkeypatch: Any) -> None:
    from PySide6.QtWidgets import QDialog

    from companion.ui.dialogs import SavePointDialog, undo_to_save_point

    window = make_window(qtbot, demo)
    assert window.run_operation(operations.save_point, name="before the Night")
    assert window.run_operation(operations.gather_water, name="Ash")
    seen: list[str] = []

    def look(dialog: SavePointDialog) -> int:
        dialog.show()
        seen.extend(layout_checks.problems(dialog))
        title = dialog.fontMetrics().horizontalAdvance(dialog.windowTitle())
        assert dialog.width() > 2 * title
        assert dialog.chosen() == "before the Night"
        return QDialog.DialogCode.Accepted

    monkeypatch.setattr(SavePointDialog, "exec", look)
    undo_to_save_point(window)
    assert not seen, seen
    assert demo.characters()[0].energy == 5  # the water gathered after it is undone


def _token_overlaps(scene: Any) -> list[str]:
    tokens = [(f"piece {name}", item) for name, item in scene.piece_items.items()]
    tokens += [("behemoth", scene.behemoth_item), ("target", scene.target_item)]
    tokens = [(name, item) for name, item in tokens if item is not None]
    found = []
    for i, (first, a) in enumerate(tokens):
        for second, b in tokens[i + 1:]:  # round tokens: their circles must not meet
            ra, rb = a.boundingRect().width() / 2, b.boundingRect().width() / 2
            apart = math.dist(a.scenePos().toTuple(), b.scenePos().toTuple())
            if apart < ra + rb - 1:
                found.append(f"{first} covers {second} ({apart:.0f} < {ra + rb:.0f})")
    return found


@pytest.mark.parametrize("target", ["Ash", "E01"])
def test_layout_map_tokens_do_not_cover_each_other(qtbot: Any, demo: Any,
                                                   refusals: list[str], target: str) -> None:
    # Rulebook: Behemoths > Target Token: the behemoth, its target token and the
    # characters' pieces in one hex, each visible.
    from companion.operations import behemoth as behemoth_ops
    from companion.ui.views.valley import ValleyView

    window = make_window(qtbot, demo)
    options = behemoth_ops.set_up_options(demo)
    beast = next(iter(options.behemoths))
    assert window.run_operation(behemoth_ops.set_up_behemoth, behemoth=beast,
                                lair_hex="E01")
    assert window.run_operation(behemoth_ops.set_target, target=target)
    valley = next(v for v in window.tabs.findChildren(ValleyView))
    scene = valley.scene
    assert scene.behemoth_item is not None and scene.target_item is not None
    assert _token_overlaps(scene) == []
    assert {item.state.initials for item in scene.piece_items.values()} == {"As", "Br"}


@pytest.mark.parametrize(("text", "developer"), [
    ("Habits and secret (D18)", True), ("sets their health (reading D8).", True),
    ("procedure.step", True), ("Position (0, 0)", True),
    ("emberfen (-1, -1) east, enter (0, -1)", True),
    ("Procedure step", False), ("Emberfen Lowlands tray facing east", False),
    ("N09 Hunger Moon", False), ("Step 2 of 9: Rest", False),
])
def test_layout_developer_words_are_recognised(text: str, developer: bool) -> None:
    assert bool(layout_checks.DEVELOPER_WORDS.search(text)) is developer


def test_layout_the_journal_names_kinds_in_words(qtbot: Any, demo: Any) -> None:
    from companion.ui.views.journal import kind_words

    assert kind_words("procedure.step") == "Procedure step"
    assert kind_words("dice.roll") == "Dice roll"
    window = make_window(qtbot, demo)
    assert window.run_operation(operations.gather_water, name="Ash")
    journal = next(i for i in range(window.tabs.count())
                   if window.tabs.tabText(i).replace("&", "") == "Journal")
    window.tabs.setCurrentIndex(journal)
    assert layout_checks.developer_words(window) == []


def test_layout_other_dialogs(qtbot: Any, demo: Any, font_scale: float,
                              monkeypatch: Any) -> None:
    # Settings, New Character, Behemoth Setup, Backups, Rulebook Readings, the
    # new-campaign wizard's pages: each as it opens.
    from PySide6.QtWidgets import QDialog

    from companion.operations.behemoth import set_up_options
    from companion.ui import dialogs
    from companion.ui.behemoth_panel import SetUpDialog
    from companion.ui.character_dialog import CharacterDialog
    from companion.ui.new_campaign_wizard import NewCampaignWizard
    from companion.ui.settings_dialog import SettingsDialog

    window = make_window(qtbot, demo)
    found: list[str] = []
    from companion.ui.explore_tray import TileDialog

    for dialog in (SettingsDialog(window), CharacterDialog(window),
                   SetUpDialog(set_up_options(demo), window),
                   dialogs.BackupsDialog(window, demo.path),
                   TileDialog(window, "E99", "emberfen")):
        qtbot.addWidget(dialog)
        dialog.show()
        check(dialog, dialog.windowTitle(), found)
        dialog.close()

    def look(dialog: QDialog) -> int:
        dialog.show()
        check(dialog, dialog.windowTitle(), found)
        return 0

    monkeypatch.setattr(QDialog, "exec", look)
    dialogs.readings(window)
    wizard = NewCampaignWizard(seed=5)
    qtbot.addWidget(wizard)
    wizard.show()
    wizard.society_page.society.setText("The Layout Folk")
    while wizard.currentPage() is not wizard.summary_page:
        page = wizard.currentPage()
        check(wizard, f"wizard: {page.title()}", found)
        if hasattr(page, "name"):
            page.name.setText(f"Hero {page.number}")
            page.set_dice([5, 4, 3, 2, 1])
        wizard.next()
        assert wizard.currentPage() is not page
    check(wizard, "wizard: summary", found)
    # My own box's page (issue 25).
    box = NewCampaignWizard(seed=5)
    qtbot.addWidget(box)
    box.show()
    box.society_page.society.setText("The Box Folk")
    box.next()
    box.content_page.packs.setCurrentRow(0)
    box.next()
    assert box.currentPage() is box.box_valley_page
    check(box, "wizard: my own box's first tray", found)
    assert not found, "\n".join(found)
