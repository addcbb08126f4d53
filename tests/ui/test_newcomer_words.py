"""Issue 27 (a newcomer at the table), item 22: game words, not jargon, in logs and
lists: looming challenges by name, a token to process in words, nobody "loses 0 meat",
and a summary that says each thing once."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog

from companion.operations import journal
from companion.operations.effects import apply_effects
from companion.rules.procedure import Decider
from tests.ui.helpers import make_window
from tests.ui.test_newcomer_night import night_at_its_first_card


def test_end_challenge_names_its_looming_challenges(qtbot: Any, demo: Any, monkeypatch: Any,
                                                   refusals: list[str]) -> None:
    # Rulebook: Continuing Play: the looming challenges the outcome names are set aside.
    from companion.ui.play_dialogs import EndChallengeDialog, open_end_challenge

    monkeypatch.setattr(QDialog, "exec", lambda self: self.show() or 0)
    window = make_window(qtbot, demo)
    open_end_challenge(window)
    [dialog] = [d for d in window.findChildren(EndChallengeDialog) if d.isVisible()]
    qtbot.addWidget(dialog)
    dialog.outcome.clear()  # the card's own outcome is filled in (item 7); typed here
    qtbot.keyClicks(dialog.outcome, "112")
    second = dialog.looming.item(1)
    second.setCheckState(Qt.CheckState.Checked)
    card_id = second.data(Qt.ItemDataRole.UserRole)
    dialog.end_button.click()
    assert not refusals
    # The end, then the outcome read in the Codex.
    text = next(e.text for e in reversed(journal.history(demo)) if 'ends:' in e.text)
    name = demo.content.challenges[card_id].name
    assert f"looming challenges set aside for the next game: {name}" in text
    assert f"looming: {card_id}" not in text


def test_processing_lists_tokens_in_words(qtbot: Any, demo: Any, monkeypatch: Any) -> None:
    # Rulebook: Processing & Crafting > Processing: each unprocessed token, and the icon
    # its processing needs.
    from companion.ui.play_dialogs import ProcessDialog, open_processing

    apply_effects(demo, name="Ash", effects=[{"do": "gain", "resource": r}
                                             for r in ("flint", "sinew")])
    monkeypatch.setattr(QDialog, "exec", lambda self: self.show() or 0)
    window = make_window(qtbot, demo)
    open_processing(window, "Ash")
    [dialog] = [d for d in window.findChildren(ProcessDialog) if d.isVisible()]
    qtbot.addWidget(dialog)
    texts = [dialog.tokens.item(i).text() for i in range(dialog.tokens.count())]
    assert texts
    for text in texts:
        assert not text.startswith("#") and " — needs " not in text, text
        assert "in the bag): processing needs" in text, text


def test_night_nobody_loses_zero_meat(qtbot: Any, demo: Any, refusals: list[str]) -> None:
    # N04 Cave Draft (unrest 6+): lose meat "if you have any"; the drawer has none.
    apply_effects(demo, name="Ash", effects=[{"do": "unrest", "amount": 6}])
    wizard = night_at_its_first_card(qtbot, demo)
    drawer = wizard.step.prompt.split()[0]
    field = wizard.step_widget.card_field
    field.combo.setEditText("N04")
    field.use_button.click()
    assert not refusals
    lines = [wizard.happened.item(i).text() for i in range(wizard.happened.count())]
    assert f"{drawer} has no meat to lose." in lines
    assert not any("loses 0" in line for line in lines)
    assert "has no meat to lose" in wizard.latest.text()


def test_night_summary_says_each_thing_once(qtbot: Any, demo: Any,
                                            refusals: list[str]) -> None:
    wizard = night_at_its_first_card(qtbot, demo)
    while wizard.step is not None:
        widget = wizard.step_widget
        if wizard.step.decider is Decider.PLAYER:
            widget.option_buttons[0].click()
        else:
            widget.app_button.click()
    assert not refusals
    summary = wizard.window_.statusBar().currentMessage() or wizard.summary.text()
    sentences = [s.strip() for s in summary.split(". ") if s.strip()]
    assert len(sentences) == len(set(sentences)), summary


def test_traits_are_named_alike_in_the_table_and_on_the_sheet(qtbot: Any, demo: Any) -> None:
    # Rulebook: Key Character Information > Traits: one name, one spelling.
    from companion.ui.views.characters import COLUMNS, CharactersView

    window = make_window(qtbot, demo)
    view = window.show_view("characters")
    assert isinstance(view, CharactersView)
    column = [key for _, key in COLUMNS].index("traits")
    for row in range(view.model.rowCount()):
        view.table.selectRow(row)
        shown = view.model.data(view.model.index(row, column))
        sheet = view.sheet.findChildren(type(view.empty))
        on_sheet = next(label.text() for i, label in enumerate(sheet)
                        if i > 0 and sheet[i - 1].text() == "Traits:")
        assert shown == on_sheet, (shown, on_sheet)
        assert shown[:1].isupper()


def test_the_maps_behemoth_odds_are_explained_on_the_map(qtbot: Any, demo: Any) -> None:
    # Rulebook: Behemoths > Activation: "◆ 83%" on a hex is said in words beside it.
    from companion.operations import behemoth as behemoth_ops
    from companion.ui.map_view import MapView

    window = make_window(qtbot, demo)
    valley = window.show_view("valley")
    [view] = valley.findChildren(MapView)
    assert not view.key.isVisible()  # no behemoth, no badges, no key
    options = behemoth_ops.set_up_options(demo)
    assert window.run_operation(behemoth_ops.set_up_behemoth,
                                behemoth=next(iter(options.behemoths)),
                                lair_hex=options.lair_hexes[0])
    assert view.map_scene.odds_items
    assert view.key.isVisible()
    assert "◆" in view.key.text() and "behemoth ends its next activation" in view.key.text()
    assert view.viewport().rect().contains(view.key.geometry())
