"""Help ▸ Getting Started (issue 20): the guide opens from the Help menu, tells how a Day,
an activity at the table and a Night go, with its pictures, and fits a laptop."""

from __future__ import annotations

from typing import Any

from PySide6.QtGui import QTextImageFormat

from companion.ui.help_dialog import GUIDE, PICTURE_WIDTH, GettingStarted
from tests.ui import layout_checks
from tests.ui.helpers import make_window


def pictures(dialog: GettingStarted) -> list[QTextImageFormat]:
    found = []
    block = dialog.browser.document().begin()
    while block.isValid():
        iterator = block.begin()
        while not iterator.atEnd():
            form = iterator.fragment().charFormat()
            if form.isImageFormat():
                found.append(form.toImageFormat())
            iterator += 1
        block = block.next()
    return found


def test_getting_started_from_the_help_menu(qtbot: Any, demo: Any) -> None:
    window = make_window(qtbot, demo)
    help_menu = next(a.menu() for a in window.menuBar().actions()
                     if a.text().replace("&", "") == "Help")
    action = next(a for a in help_menu.actions()
                  if a.text().replace("&", "").startswith("Getting Started"))
    action.trigger()
    dialog = window.findChild(GettingStarted)
    assert dialog is not None and dialog.isVisible()
    qtbot.addWidget(dialog)
    text = dialog.browser.toPlainText()
    for heading in ("A Day", "An activity, at the table", "The Night"):
        assert heading in text
    shown = pictures(dialog)
    assert len(shown) == GUIDE.read_text(encoding="utf-8").count("![")
    assert all(0 < p.width() <= PICTURE_WIDTH for p in shown)
    assert layout_checks.fits_a_laptop(dialog) == []


def test_the_guide_names_only_menus_that_exist(qtbot: Any, demo: Any) -> None:
    # "Play ▸ Begin the Night" and the others: every menu path the guide gives is real.
    import re

    window = make_window(qtbot, demo)
    menus = {a.text().replace("&", ""): a.menu() for a in window.menuBar().actions()}
    for menu, entry in re.findall(r"\*\*(\w+) ▸ ([^*▸]+?)\*\*", GUIDE.read_text()):
        names = [a.text().replace("&", "").rstrip("…") for a in menus[menu].actions()]
        entry = entry.strip()  # "Undo" is "Undo <what>" once there is something to undo
        assert any(n == entry or n.startswith(f"{entry} ") for n in names), \
            f"{menu} ▸ {entry}"
