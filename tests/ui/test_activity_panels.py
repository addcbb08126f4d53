"""The foraging and delving panels (issue 8) on a real demo campaign: a foraging at the
table with typed card ids, one in the app, and a delve in the app, each to the end,
checking what the panel draws after every step."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt

from companion import operations
from companion.operations import procedures
from companion.rules.procedure import Decider
from companion.ui.procedure_dialog import ProcedureDialog, start_activity
from companion.ui.procedure_panels import (
    DelvingPanel,
    ForagingPanel,
    SpotView,
    cell_texts,
)
from tests.ui.helpers import make_window


def bag(campaign: operations.Campaign, name: str) -> list[str]:
    return [t.name for t in campaign.character_detail(name).bag]


def spots(panel: ForagingPanel, *, offer: bool = False) -> dict[str, SpotView]:
    """The objects the board draws, by key: the tableau's (or the cards on offer)."""
    return {s.key: s for c in panel.board.cards if c.offer == offer
            for row in c.rows for s in row}


def type_card(dialog: ProcedureDialog, card: str) -> None:
    dialog.step_widget.card_combo.setEditText(card)
    dialog.step_widget.use_button.click()


def click_option(qtbot: Any, dialog: ProcedureDialog, option: str) -> None:
    step = dialog.step
    assert step is not None and option in step.options, (option, step)
    widget = dialog.step_widget
    if widget.options_list is not None:  # many options: a list and a Choose button
        widget.options_list.setCurrentRow(step.options.index(option))
        qtbot.mouseClick(widget.choose_button, Qt.MouseButton.LeftButton)
        return
    button = widget.option_buttons[step.options.index(option)]
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


def assert_reach_shown(dialog: ProcedureDialog) -> None:
    """The front row is always within reach; every object offered is drawn within reach;
    the chosen ones are marked."""
    panel = dialog.panel
    assert isinstance(panel, ForagingPanel)
    shown = spots(panel)
    assert all(s.reach for s in shown.values() if s.row == 0)
    proc = procedures.current(dialog.window_.campaign)
    assert {k for k, s in shown.items() if s.reach} == proc.reach()
    assert {k for k, s in shown.items() if s.chosen} == set(proc.chosen)
    step = dialog.step
    if step is not None and step.prompt.startswith("Step 4"):
        assert all(shown[k].reach for k in step.options if k != "done")


def test_foraging_at_the_table(qtbot: Any, demo: Any, refusals: list[str]) -> None:
    window = make_window(qtbot, demo)
    before = bag(demo, "Ash")
    dialog = start_activity(window, "foraging", "Ash", "plains")
    assert isinstance(dialog, ProcedureDialog)
    qtbot.addWidget(dialog)
    panel = dialog.panel
    assert isinstance(panel, ForagingPanel)
    assert panel.board.accessibleName() == "Foraging tableau of Ash"
    assert "Harvest cap: 3." in panel.harvest.text()

    # Step 1: two cards drawn at the table, typed (any case); both on offer.
    type_card(dialog, "fp08")
    assert [c.card for c in panel.board.cards] == ["FP08"]
    assert panel.offer.text() == "Drawn so far: FP08."
    type_card(dialog, "FP09")
    assert [(c.card, c.offer, c.caption) for c in panel.board.cards] == [
        ("FP08", True, "on offer"), ("FP09", True, "on offer")]
    assert panel.offer.text().startswith("On offer: FP08 and FP09; choose the card")
    click_option(qtbot, dialog, "FP08")
    assert [(c.card, c.offer) for c in panel.board.cards] == [("FP08", False)]
    assert_reach_shown(dialog)
    predator = spots(panel)["FP08/back/2"]
    assert predator.predator and "a predator" in predator.words()
    assert "1 card in the tableau" in panel.header.text()

    # Step 2 follows Step 1 at once (no harvest from one card): a predator is in the
    # tableau, so of FP01 and FP04 the rule forces FP04.
    assert dialog.step.prompt.startswith("Step 2") and "harvest" not in dialog.step.options
    type_card(dialog, "FP01")
    type_card(dialog, "fp04")
    assert dialog.step.options == ("FP04",)
    offered = {c.card: c for c in panel.board.cards if c.offer}
    assert offered["FP04"].forced and offered["FP01"].barred
    assert "The predator rule forces FP04" in panel.offer.text()
    assert "must take the card with a predator" in panel.offer.text()
    click_option(qtbot, dialog, "FP04")
    assert [c.card for c in panel.board.cards] == ["FP08", "FP04"]
    # The animal paths in the front rows open every middle row; no middle row has one.
    assert panel.board.open_rows == {1}
    assert_reach_shown(dialog)

    # Steps 3-4: harvest root plants; the panel follows each choice.
    click_option(qtbot, dialog, "harvest")
    assert "Nothing chosen yet" in panel.harvest.text()
    for key in ("FP04/front/2", "FP04/front/3", "FP08/middle/2"):
        click_option(qtbot, dialog, key)
        assert spots(panel)[key].chosen
        assert_reach_shown(dialog)
    assert "Chosen 3 of at most 3: Root Plant (FP04 front)" in panel.harvest.text()
    click_option(qtbot, dialog, "done")

    assert refusals == []
    assert dialog.finished_ and procedures.in_progress(demo) is None
    assert dialog.summary.text().startswith("Ash finished foraging")
    gained = sorted(bag(demo, "Ash")[len(before):])
    assert gained == ["cloudstone", "root", "root", "root"]


def test_foraging_in_the_app(qtbot: Any, demo: Any, refusals: list[str]) -> None:
    window = make_window(qtbot, demo)
    before = len(bag(demo, "Ash"))
    dialog = start_activity(window, "foraging", "Ash", "plains")
    assert isinstance(dialog, ProcedureDialog)
    qtbot.addWidget(dialog)
    panel = dialog.panel
    assert isinstance(panel, ForagingPanel)
    steps = 0
    harvested = False
    while dialog.step is not None:
        steps += 1
        assert steps < 40
        step = dialog.step
        widget = dialog.step_widget
        if step.decider is not Decider.PLAYER:
            widget.app_button.click()
            continue
        if step.prompt.startswith("Step 3"):
            # Step 3 comes only once the tableau holds two cards (Steps 1 and 2).
            tableau = [c for c in panel.board.cards if not c.offer]
            assert len(tableau) >= 2
            click_option(qtbot, dialog, "harvest")
        elif step.prompt.startswith("Step 4"):
            assert_reach_shown(dialog)
            worth = [o for o in step.options if o != "done"]
            # Take what yields something (not an animal), then stop.
            plain = [o for o in worth if not any(w in step.labels[o]
                                                 for w in ("Prey", "Predator"))]
            click_option(qtbot, dialog, plain[0] if plain else "done")
            harvested = harvested or bool(plain)
            if dialog.step is not None and dialog.step.prompt.startswith("Step 4"):
                assert_reach_shown(dialog)
        else:
            click_option(qtbot, dialog, step.options[0])
    assert refusals == []
    line = dialog.summary.text()
    assert line.startswith("Ash finished foraging")
    assert harvested  # the demo's seed leaves something to harvest
    assert len(bag(demo, "Ash")) > before and "Gained" in line


def test_the_tableau_is_keyboard_accessible(qtbot: Any, demo: Any,
                                            refusals: list[str]) -> None:
    window = make_window(qtbot, demo)
    dialog = start_activity(window, "foraging", "Ash", "plains")
    qtbot.addWidget(dialog)
    dialog.step_widget.app_button.click()
    dialog.step_widget.app_button.click()
    board = dialog.panel.board
    assert board.focusPolicy() & Qt.FocusPolicy.TabFocus
    board.setFocus()
    qtbot.waitUntil(board.hasFocus)
    assert board.current == 0 and board.current_text().endswith(": on offer")
    qtbot.keyClick(board, Qt.Key.Key_Right)
    assert board.current == 1 and board.accessibleDescription() == board.current_text()
    assert dialog.panel.current.text() == board.current_text()
    assert " row: " in board.current_text()
    qtbot.keyClick(board, Qt.Key.Key_End)
    assert board.current == len(board.items) - 1
    # Every object has a place on the board and words for it.
    assert all(item.text and item.rect.width() > 0 for item in board.items)


def test_a_delve_in_the_app_grows_its_path(qtbot: Any, demo: Any,
                                           refusals: list[str]) -> None:
    window = make_window(qtbot, demo)
    assert window.run_operation(operations.move, name="Ash", to_hex="E05")
    assert window.run_operation(operations.pass_turn, name="Bryn")
    dialog = start_activity(window, "delving", "Ash", "cave")
    assert isinstance(dialog, ProcedureDialog)
    qtbot.addWidget(dialog)
    panel = dialog.panel
    assert isinstance(panel, DelvingPanel)
    assert panel.board.cards == []
    assert panel.header.text() == "Ash delves from E05.   Depth: 0.   Energy left: 2."
    assert "Cards are free until depth 7" in panel.cost.text()
    exits = cell_texts(panel.exits)
    assert [row[0] for row in exits] == ["1–2", "3–4", "5+"]  # nothing drawn: no "now"
    assert all(row[2].startswith("E05 (entered)") for row in exits)

    steps, depth, turns = 0, 0, 0
    while dialog.step is not None:
        steps += 1
        assert steps < 60
        step = dialog.step
        if step.decider is Decider.PLAYER:
            # Go on by the first path offered; come out where the card says.
            click_option(qtbot, dialog, step.options[0])
        else:
            dialog.step_widget.app_button.click()
        if dialog.step is None:
            break
        proc = procedures.current(demo)
        assert len(panel.board.cards) == proc.depth >= depth  # the path grows
        depth = proc.depth
        assert [c.card for c in panel.board.cards] == list(proc.path)
        assert f"Depth: {proc.depth}." in panel.header.text()
        assert f"Energy left: {proc.energy}." in panel.header.text()
        if depth:
            last = panel.board.cards[-1]
            assert last.current and last.depth == depth
            card = proc.card(proc.path[-1])
            assert last.icon == card.icon and (card.text in last.words())
            if card.paths is not None:
                assert (last.left, last.right) == (card.paths.left, card.paths.right)
            now = [row for row in cell_texts(panel.exits) if row[0].endswith("◀ now")]
            assert len(now) == 1
            if proc.phase.value != "test":  # what the card did, on the card
                assert last.happened or not card.effects
        if step.decider is Decider.PLAYER and step.options[0] in ("left", "right") \
                and depth >= 1 and dialog.step.decider is Decider.CARD:
            assert panel.board.cards[-1].taken == step.options[0]
            assert panel.board.next_text.startswith(f"Next, depth {depth + 1}")
            turns += 1
    assert refusals == []
    assert depth >= 3 and turns >= 2  # the demo's seed goes three cards deep
    assert dialog.summary.text().startswith("Ash finished delving")
    assert "comes out at" in dialog.summary.text()


def test_delve_cards_cost_energy_from_depth_7(qtbot: Any) -> None:
    from companion.ui.procedure_panels import DelveBoard, DelveCardView

    board = DelveBoard()
    qtbot.addWidget(board)
    cards = [DelveCardView(depth=d, card=f"DV{d:02}", icon="fang", text="", effects="nothing",
                           left="drip", right="spiral", taken="left", exit=d == 9,
                           cost=1 if d > 7 else 0, current=d == 9)
             for d in range(1, 10)]
    board.set_path(cards, "")
    board.resize(600, 400)
    assert [c.cost for c in board.cards].count(1) == 2
    assert "cost 1 energy" in board.items[7].text and "exit" in board.items[8].text
    assert board.items[8].rect.top() > board.items[0].rect.bottom()  # a vertical chain
