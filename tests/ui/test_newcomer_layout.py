"""Issue 27 (a newcomer at the table): layouts that jumped or hid what mattered at
1366x768: the Day tab follows the turn (item 3), ..."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QPoint, QRect, Qt
from PySide6.QtWidgets import QApplication, QScrollArea

from companion.ui import fit
from companion.ui.views.day import DayView
from tests.ui import newcomer
from tests.ui.helpers import activity_dialog, make_window

font_scale = newcomer.font_scale  # the fixture: the system font, then 25% larger


def shown_whole(widget: Any, inside: Any) -> bool:
    """``widget`` lies wholly inside ``inside`` (a viewport or a window) on screen."""
    top_left = widget.mapTo(inside, QPoint(0, 0))
    return widget.isVisible() and inside.rect().contains(QRect(top_left, widget.size()))


def laptop_activity(qtbot: Any, demo: Any, activity: str, where: str) -> Any:
    """Ash's ``activity`` at ``where`` started from a main window: its dialog open at
    the laptop's window size."""
    dialog = activity_dialog(qtbot, demo, activity, where)
    dialog.resize(fit.LAPTOP_WINDOW)
    return dialog


def forage_to_the_predator(qtbot: Any, demo: Any) -> Any:
    """Foraging in the plains at the laptop's size: FP08 and FP12 kept, FP01 and FP04 on
    offer (the tableau at its tallest)."""
    dialog = laptop_activity(qtbot, demo, "foraging", "plains")
    for answer in ("FP08", "FP09", "FP08", "FP12", "FP09", "FP12", "search",
                   "FP01", "FP04"):
        assert dialog.answer(answer), answer
    return dialog


def test_day_tab_scrolls_to_who_may_act_after_an_action(qtbot: Any, demo: Any,
                                                        refusals: list[str],
                                                        font_scale: float) -> None:
    # Rulebook: Day Phase: after Ash acts, Bryn may act; Bryn's box comes into view.
    window = make_window(qtbot, demo)
    window.resize(1366, 420)  # short enough that one character's box fills the page
    day = window.show_view("day")
    assert isinstance(day, DayView)
    qtbot.mouseClick(day.button("Ash", "Gather Water"), Qt.MouseButton.LeftButton)
    assert not refusals
    viewport = day.scroller.viewport()

    def top_of(box: Any) -> int:
        return int(box.mapTo(viewport, QPoint(0, 0)).y())

    # Bryn's box was below the fold; now its top is in the upper half of the page.
    qtbot.waitUntil(lambda: day.scroller.verticalScrollBar().value() > 0 and
                    0 <= top_of(day.boxes["Bryn"]) < viewport.height() // 2)
    assert day.actor_box() is day.boxes["Bryn"]
    # Bryn acts by a click on a button that is now in view.
    qtbot.mouseClick(day.button("Bryn", "Pass"), Qt.MouseButton.LeftButton)
    assert not refusals
    qtbot.waitUntil(lambda: day.actor_box() is day.boxes["Ash"] and
                    0 <= top_of(day.boxes["Ash"]) < viewport.height() // 2)


def test_main_tab_bar_never_scrolls_and_a_click_on_a_tab_lands(qtbot: Any, demo: Any,
                                                              font_scale: float) -> None:
    window = make_window(qtbot, demo)
    window.resize(fit.LAPTOP_WINDOW)
    bar = window.tabs.tabBar()
    # No scroll area holds the tab bar: only a tab's own page scrolls.
    parent = bar.parentWidget()
    while parent is not None:
        assert not isinstance(parent, QScrollArea), parent
        parent = parent.parentWidget()
    for index in range(window.tabs.count()):
        window.tabs.setCurrentIndex(index)
        QApplication.processEvents()
        assert shown_whole(bar, window)
        # The Day tab has one scroll bar of its own, no second one around it.
        view = window.current_view()
        if isinstance(view, DayView):
            assert window.tabs.currentWidget() is view
    for index in reversed(range(window.tabs.count())):
        qtbot.mouseClick(bar, Qt.MouseButton.LeftButton, pos=bar.tabRect(index).center())
        assert window.tabs.currentIndex() == index


def test_foraging_front_row_is_in_view(qtbot: Any, demo: Any, refusals: list[str],
                                       font_scale: float) -> None:
    # Rulebook: Foraging: the front row, nearest you, is within reach first. Two cards
    # kept (FP08, FP12), two on offer (FP01, FP04): the tableau is at its tallest.
    dialog = forage_to_the_predator(qtbot, demo)
    assert not refusals
    panel = dialog.panel
    viewport = panel.board_area.viewport()

    def front_in_view() -> bool:
        top, height = panel.front_row()
        shown = panel.board_area.verticalScrollBar().value()
        return shown <= top and top + height <= shown + viewport.height()

    qtbot.waitUntil(front_in_view)
    # and its row label, as painted, lies inside the pane
    assert viewport.height() >= panel.fontMetrics().height() * 8


def visible_whole(label: Any, viewport: Any) -> bool:
    top_left = label.mapTo(viewport, QPoint(0, 0))
    return viewport.rect().contains(QRect(top_left, label.size())) and \
        label.width() >= label.sizeHint().width()


def odds_rows_in_view(dialog: Any) -> int:
    """How many rows of the odds panel's first table are shown whole, every cell."""
    from PySide6.QtWidgets import QGridLayout

    panel = dialog.odds_panel
    grids = panel.body.findChildren(QGridLayout)
    assert grids
    rows = 0
    for grid in grids:
        for row in range(1, grid.rowCount()):
            cells = [grid.itemAtPosition(row, c).widget() for c in range(grid.columnCount())
                     if grid.itemAtPosition(row, c) is not None]
            if cells and all(visible_whole(c, panel.tables_area.viewport()) and
                             visible_whole(c, dialog) for c in cells):
                rows += 1
    return rows


def test_odds_panels_show_rows_and_whole_columns(qtbot: Any, demo: Any, refusals: list[str],
                                                font_scale: float) -> None:
    # Rulebook: Fishing > step 4 and Foraging > step 2: the odds beside the step show
    # several rows, every column whole ("bla", "90." were cut).
    from companion.rules.procedure import Decider

    fishing = laptop_activity(qtbot, demo, "fishing", "river")
    while fishing.step.decider is not Decider.PLAYER:
        fishing.step_widget.app_button.click()
    QApplication.processEvents()
    assert odds_rows_in_view(fishing) >= 3
    assert not refusals


def test_foraging_odds_show_their_rows(qtbot: Any, demo: Any, refusals: list[str],
                                      font_scale: float) -> None:
    foraging = forage_to_the_predator(qtbot, demo)
    QApplication.processEvents()
    assert odds_rows_in_view(foraging) >= 2  # both cards on offer
    assert not refusals


def test_a_long_status_message_is_cut_short_beside_the_game_numbers(
        qtbot: Any, demo: Any, refusals: list[str], font_scale: float) -> None:
    # A long summary (an action's) never runs under the Omen and Activity labels.
    from companion.ui import fit

    window = make_window(qtbot, demo)
    window.resize(fit.LAPTOP_WINDOW)
    day = window.show_view("day")
    long = ("Ash: Explore a new Emberfen Lowlands tray: 2 energy; the tray is placed; "
            "a Discovery card is due; the omen stays the Sun; the activity is 0; " * 3)
    window.statusBar().showMessage(long)
    QApplication.processEvents()
    message = window.status_message
    assert window.statusBar().currentMessage() == long
    assert message.toolTip() == long and message.text().endswith("…")
    omen = window._status_labels["omen"]
    assert message.geometry().right() < omen.geometry().left()
    assert omen.width() >= omen.sizeHint().width()  # "Omen: Sun" whole
    activity = window._status_labels["activity"]
    assert activity.width() >= activity.sizeHint().width()
    # an action's own summary goes there too
    qtbot.mouseClick(day.button("Ash", "Gather Water"), Qt.MouseButton.LeftButton)
    assert not refusals
    assert "Ash" in message.toolTip() and message.toolTip() != long


def test_behemoth_tab_buttons_are_whole_in_the_window(qtbot: Any, demo: Any,
                                                     font_scale: float) -> None:
    from PySide6.QtWidgets import QPushButton

    from companion.ui import fit

    window = make_window(qtbot, demo)
    window.resize(fit.LAPTOP_WINDOW)
    panel = window.show_view("behemoth")
    QApplication.processEvents()
    page = window.tabs.currentWidget()
    buttons = [b for b in panel.findChildren(QPushButton) if b.isVisibleTo(panel)]
    names = {b.text().replace("&", "") for b in buttons}
    assert {"Set Up…", "Activate"} <= names, names
    for button in buttons:
        assert shown_whole(button, window), button.text()
        assert shown_whole(button, page), button.text()  # in view, no scrolling


def test_delving_card_paths_are_never_cut(qtbot: Any, demo: Any, refusals: list[str],
                                          font_scale: float) -> None:
    # Rulebook: Delving > step 2: each card's left- and right-hand paths, the one taken
    # marked; at any width the words are whole ("◀ left: drip (take" was cut).
    from PySide6.QtGui import QFontMetrics

    from companion.rules.procedure import Decider
    from companion.ui import fit
    from companion.ui.procedure_panels import scaled_font

    dialog = newcomer.delving_from_e05(qtbot, demo)
    dialog.resize(fit.LAPTOP_WINDOW)
    taken = 0
    for _ in range(40):
        if dialog.step is None or taken >= 2:
            break
        if dialog.step.decider is Decider.PLAYER:
            dialog.step_widget.option_buttons[0].click()
            taken += 1
        else:
            dialog.step_widget.app_button.click()
    assert not refusals and taken >= 1
    board = dialog.panel.board
    bold = QFontMetrics(scaled_font(board.font(), 1.0, bold=True))
    for width in (fit.LAPTOP_WINDOW.width(), 900):  # the laptop, and a narrower window
        dialog.resize(width, fit.LAPTOP_WINDOW.height())
        QApplication.processEvents()
        board.grab()  # paints: every path label is placed
        assert board.drawn_paths
        assert any("(taken)" in label for label, _ in board.drawn_paths)
        for label, box in board.drawn_paths:
            assert bold.horizontalAdvance(label) <= box.width() + 1, (width, label, box)
