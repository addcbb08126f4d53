"""Issue 36 item 4 (the real box, second evening): "Draw in the app" with decks the app
does not know. The app holds only the few cards the group typed, not the box's deck, so
drawing in the app is offered only for a deck it holds whole (a pack declares it so in
its pack.yaml, ``whole_decks``: the sample does), and the Night's log never claims a
shuffle of the box's deck (Rulebook: Night Phase > Draw Night Cards). Through the real
widgets of the Night wizard, at the system font and at Larger text."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
import yaml
from PySide6.QtCore import Qt

from companion import operations
from companion.operations import Refused, procedures
from companion.operations.cards import enter_card
from companion.paths import shipped_content_dir
from companion.rules.procedure import Decider
from tests.ui import layout_checks
from tests.ui.newcomer import font_scale  # noqa: F401 (a fixture)


def night_card(card_id: str, name: str) -> dict[str, Any]:
    """A Night card the table typed (the sample's first card's shape, renamed)."""
    card = yaml.safe_load((shipped_content_dir() / "sample" / "night.yaml").read_text(
        encoding="utf-8"))["night_cards"][0]
    card.update(id=card_id, name=name)
    return dict(card)


def to_the_night_card(qtbot: Any, window: Any) -> Any:
    """Both pass, the Night begins; its steps answered by clicks up to the card draw."""
    from companion.ui.night_wizard import NightWizard
    from companion.ui.procedure_dialog import start_night

    assert window.run_operation(operations.pass_turn, name="Ash")
    assert window.run_operation(operations.pass_turn, name="Bryn")
    wizard = start_night(window)
    assert isinstance(wizard, NightWizard)
    qtbot.addWidget(wizard)
    for _ in range(12):
        step = wizard.step
        assert step is not None
        if step.decider is Decider.CARD:
            return wizard
        qtbot.mouseClick(wizard.step_widget.option_buttons[0], Qt.MouseButton.LeftButton)
    raise AssertionError("no Night card step")


def test_item_4_the_box_s_night_deck_is_drawn_at_the_table_never_reshuffled_by_the_app(
        qtbot: Any, tmp_path: Path, font_scale: float) -> None:  # noqa: F811
    from tests.box_campaign import make_box_campaign
    from tests.ui.helpers import make_window

    box = make_box_campaign(tmp_path / "box.stonesaga")
    enter_card(box, kind="night_cards", data=night_card("N77", "Cold Snap"))
    window = make_window(qtbot, box)
    for night in (1, 2):
        wizard = to_the_night_card(qtbot, window)
        widget = wizard.step_widget
        assert widget.app_button is None  # no "Draw in the app": the deck is the box's
        assert "draw it from the box and type it" in wizard.step.prompt
        if night == 1 and font_scale == 1.0:
            folder = Path(os.environ.get("SHOTS_DIR") or tmp_path)
            wizard.grab().save(str(folder / "box-night-card-at-table.png"))
        assert layout_checks.problems(wizard) == []
        # The card drawn at the table, picked by its name: the same card again on the
        # second Night (the box's deck was shuffled at the table).
        widget.card_combo.setEditText("Cold Snap")
        qtbot.mouseClick(widget.use_button, Qt.MouseButton.LeftButton)
        for _ in range(20):
            if wizard.step is None:
                break
            answer = wizard.step_widget.use_button if wizard.step.decider is Decider.DICE \
                else wizard.step_widget.option_buttons[0]  # a die typed, or a choice
            qtbot.mouseClick(answer, Qt.MouseButton.LeftButton)
        assert procedures.in_progress(box) is None
        wizard.close()
        said = " ".join(e.text for e in box.journal(30))
        assert "Cold Snap" in said
        assert "shuffled" not in said and "reshuffl" not in said


def test_item_4_the_app_does_not_draw_a_box_deck_it_holds_in_part(tmp_path: Path) -> None:
    """The operations refuse in game words and change nothing (GUI and CLI alike)."""
    from tests.box_campaign import make_box_campaign

    box = make_box_campaign(tmp_path / "box.stonesaga")
    try:
        enter_card(box, kind="night_cards", data=night_card("N77", "Cold Snap"))
        operations.pass_turn(box, name="Ash")
        operations.pass_turn(box, name="Bryn")
        procedures.start_night(box)
        while procedures.in_progress(box).step.decider is not Decider.CARD:  # type: ignore[union-attr]
            procedures.advance(box, choice=procedures.in_progress(box).step.options[0])  # type: ignore[union-attr]
        before = len(box.journal(100))
        with pytest.raises(Refused, match="holds only the Night cards you typed, not your "
                                          "box's whole deck"):
            procedures.advance(box)
        assert len(box.journal(100)) == before
    finally:
        box.close()


def test_item_4_the_sample_holds_its_decks_whole_and_draws_in_the_app(
        qtbot: Any, tmp_path: Path) -> None:
    from companion.operations.box import deck_is_whole
    from tests.ui.helpers import make_window

    demo = operations.create_demo_campaign(tmp_path / "demo.stonesaga")
    assert deck_is_whole(demo.content, "night_cards")
    assert deck_is_whole(demo.content, "discovery_cards")
    window = make_window(qtbot, demo)
    wizard = to_the_night_card(qtbot, window)
    assert wizard.step_widget.app_button is not None
    wizard.close()


def test_item_4_the_day_and_valley_tabs_draw_the_box_s_discovery_at_the_table(
        qtbot: Any, tmp_path: Path) -> None:
    """Rulebook: Actions > Explore; Valley Decks > Discovery: the box's Discovery deck
    is drawn from the box; the tabs offer the card field, no "Draw in the app"."""
    from companion.operations.tiles import type_tile
    from tests.box_campaign import make_box_campaign
    from tests.ui.helpers import make_window

    box = make_box_campaign(tmp_path / "box.stonesaga")
    enter_card(box, kind="discovery_cards", data={
        "id": "D77", "name": "Old Bones", "text": "Gain 1 lore.",
        "effects": [{"do": "lore", "amount": 1}]})
    type_tile(box, tile="04", region="verdant-vale", name="Reed Bank",
              sections=["forest", "river", "none"])
    operations.move(box, name="Ash", to_hex="04")
    assert operations.discovery_due(box) is not None
    window = make_window(qtbot, box)
    valley = window.show_view("valley")
    assert valley.discovery_box.isVisibleTo(valley)
    assert not valley.draw_button.isVisibleTo(valley)
    day = window.show_view("day")
    assert not day.discovery_draw.isVisibleTo(day) and day.discovery_typed.isVisibleTo(day)
    day.discovery_typed.combo.setEditText("Old Bones")  # drawn from the box
    qtbot.mouseClick(day.discovery_use, Qt.MouseButton.LeftButton)
    assert operations.discovery_due(box) is None
    said = " ".join(e.text for e in box.journal(5))
    assert "Old Bones" in said and "shuffled" not in said
