"""Accessibility: keyboard reach, accessible names, no fixed font sizes, pip colours
always with a letter, light and dark palettes with readable contrast."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QFont, QPalette
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractSpinBox,
    QApplication,
    QComboBox,
    QLineEdit,
    QListWidget,
    QWidget,
)

from companion.content.schema.base import PipColour
from companion.rules.crafting import COLOUR_LETTERS
from companion.ui import theme
from companion.ui.new_campaign_wizard import NewCampaignWizard
from companion.ui.settings_dialog import SettingsDialog
from tests.ui.helpers import make_window

UI = Path(theme.__file__).resolve().parent
INPUTS = (QAbstractButton, QAbstractSpinBox, QComboBox, QLineEdit, QListWidget)


def inputs_of(widget: QWidget) -> list[QWidget]:
    found = [w for w in widget.findChildren(QWidget)
             if isinstance(w, INPUTS) and w.isVisibleTo(widget)]
    # QComboBox/QSpinBox own inner line edits and buttons: their parent names them.
    return [w for w in found if not isinstance(w.parentWidget(), QComboBox | QAbstractSpinBox)]


def unnamed(widget: QWidget) -> list[str]:
    """Inputs without an accessible name (buttons and check boxes are named by their text)."""
    bad = []
    for w in inputs_of(widget):
        if w.accessibleName():
            continue
        if isinstance(w, QAbstractButton) and w.text().replace("&", "").strip():
            continue
        bad.append(f"{type(w).__name__} {w.objectName()!r}")
    return bad


def tab_reachable(window: QWidget) -> set[QWidget]:
    """Every widget Tab visits, following the focus chain from the window."""
    seen: set[QWidget] = set()
    current = window.nextInFocusChain()
    while current is not None and current is not window and current not in seen:
        seen.add(current)
        current = current.nextInFocusChain()
    return {w for w in seen if w.focusPolicy() & Qt.FocusPolicy.TabFocus}


def not_reachable(window: QWidget) -> list[str]:
    reach = tab_reachable(window)
    bad = []
    for w in inputs_of(window):
        if not w.isEnabled():
            continue
        proxy = w.focusProxy() or w
        if proxy not in reach and w not in reach:
            bad.append(f"{type(w).__name__} {w.accessibleName() or w.objectName()!r}")
    return bad


@pytest.fixture
def wizard(qtbot):  # type: ignore[no-untyped-def]
    w = NewCampaignWizard(seed=5)
    qtbot.addWidget(w)
    w.show()
    return w


def test_every_wizard_page_is_named_and_reachable_by_keyboard(wizard) -> None:  # type: ignore[no-untyped-def]
    wizard.society_page.society.setText("The Keyboard Folk")
    pages = 0
    while True:
        page = wizard.currentPage()
        assert unnamed(page) == [], page.title()
        assert not_reachable(wizard) == [], page.title()
        pages += 1
        if page is wizard.summary_page:
            break
        if hasattr(page, "name"):
            page.name.setText(f"Hero {page.number}")
            page.set_dice([5, 4, 3, 2, 1])  # the dice start blank: typed at the table
        wizard.next()
        assert wizard.currentPage() is not page, page.title()
    assert pages == 7  # society, pack, region, challenge, two characters, summary


def test_settings_dialog_is_named_and_reachable_by_keyboard(qtbot) -> None:  # type: ignore[no-untyped-def]
    dialog = SettingsDialog()
    qtbot.addWidget(dialog)
    dialog.show()
    assert unnamed(dialog) == []
    assert not_reachable(dialog) == []


def test_every_control_label_has_a_mnemonic(wizard) -> None:  # type: ignore[no-untyped-def]
    """Alt+letter reaches each field of the first page (the labels' buddies)."""
    from PySide6.QtWidgets import QLabel

    labels = [lbl for lbl in wizard.society_page.findChildren(QLabel) if lbl.buddy()]
    assert len(labels) == 4
    assert all("&" in lbl.text() for lbl in labels)


def _lines_matching(pattern: re.Pattern[str], files: list[Path]) -> list[str]:
    return [f"{p.relative_to(UI.parent)}:{n}: {line.strip()}"
            for p in files
            for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
            if pattern.search(line)]


def test_no_pixel_font_sizes_in_the_interface() -> None:
    """Fonts follow the system size: no pixel sizes in style sheets or code anywhere in
    the interface (a font given in pixels ignores the user's font scaling)."""
    pattern = re.compile(r"font-size\s*:\s*\d+\s*px|font\s*:[^;]*\d+px|setPixelSize\(\s*\d")
    assert _lines_matching(pattern, sorted(UI.rglob("*.py"))) == []


def test_issue_13_windows_set_no_font_size_at_all() -> None:
    """The wizard, settings, theme and progress code never size a font: they inherit
    the system font, so they grow with it."""
    pattern = re.compile(r"font-size|setPixelSize|setPointSize")
    files = [UI / n for n in ("new_campaign_wizard.py", "new_campaign_pages.py",
                              "character_wizard_page.py", "settings_dialog.py", "theme.py",
                              "progress.py")]
    assert _lines_matching(pattern, files) == []


def test_the_wizard_scales_with_the_system_font(qtbot) -> None:  # type: ignore[no-untyped-def]
    app = QApplication.instance()
    old = QFont(app.font())
    try:
        small = NewCampaignWizard(seed=1)
        qtbot.addWidget(small)
        small_height = small.society_page.society.sizeHint().height()
        big_font = QFont(old)
        big_font.setPointSizeF((old.pointSizeF() if old.pointSizeF() > 0 else 10) * 2)
        app.setFont(big_font)
        big = NewCampaignWizard(seed=1)
        qtbot.addWidget(big)
        assert big.society_page.society.font().pointSizeF() == big_font.pointSizeF()
        assert big.society_page.society.sizeHint().height() > small_height
    finally:
        app.setFont(old)


def test_pip_labels_carry_a_letter_for_every_colour() -> None:
    labels = {c: theme.pip_label(c) for c in PipColour}
    assert labels[PipColour.RED] == "R Red"
    for colour, label in labels.items():
        letter, name = label.split(" ")
        assert letter == COLOUR_LETTERS[colour]  # the Codex's letters
        assert name.lower() == colour.value
    assert len({label.split(" ")[0] for label in labels.values()}) == len(PipColour)
    assert theme.pip_letter("silver") == "S"
    assert theme.pip_label("green") == "Gn Green" and theme.pip_letter("grey") == "G"
    with pytest.raises(ValueError, match="not a pip colour"):
        theme.pip_label("teal")


def _luminance(colour: QColor) -> float:
    def channel(v: float) -> float:
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4

    return 0.2126 * channel(colour.redF()) + 0.7152 * channel(colour.greenF()) + \
        0.0722 * channel(colour.blueF())


def contrast(a: QColor, b: QColor) -> float:
    la, lb = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_palettes_have_readable_text(scheme: str) -> None:
    palette = theme.light_palette() if scheme == "light" else theme.dark_palette()
    role = QPalette.ColorRole
    for fg, bg in ((role.WindowText, role.Window), (role.Text, role.Base),
                   (role.ButtonText, role.Button), (role.HighlightedText, role.Highlight)):
        assert contrast(palette.color(fg), palette.color(bg)) >= 4.5, (fg, bg)
    for colour in PipColour:
        swatch = theme.pip_colour(colour, dark=scheme == "dark")
        assert contrast(swatch, palette.color(role.Base)) >= 2.5, colour


def test_apply_follows_the_setting_and_the_system(qtbot) -> None:  # type: ignore[no-untyped-def]
    app = QApplication.instance()
    try:
        assert theme.apply(app, "dark") == "dark"
        assert theme.is_dark()
        assert isinstance(app.style(), theme.CompanionStyle)
        assert app.style().baseStyle().name().lower() == "fusion"
        assert app.palette().color(QPalette.ColorRole.Window) == QColor("#2b2b2b")
        assert theme.apply(app, "light") == "light" and not theme.is_dark()
        expected = "dark" if theme.system_is_dark(app) else "light"
        assert theme.apply(app, "system") == expected
        assert not app.windowIcon().isNull()
        with pytest.raises(ValueError):
            theme.apply(app, "sepia")
    finally:
        theme.apply(app, "light")


def test_the_wizard_can_be_finished_with_the_keyboard_alone(qtbot) -> None:  # type: ignore[no-untyped-def]
    """Type and press Return: the default button walks every page and Finish creates
    the campaign (in the test's user folder)."""
    from PySide6.QtTest import QTest

    wizard = NewCampaignWizard(seed=9)
    qtbot.addWidget(wizard)
    wizard.show()
    wizard.activateWindow()
    qtbot.waitExposed(wizard)

    def keys(text: str = "") -> None:
        target = wizard.focusWidget() or wizard
        if text:
            QTest.keyClicks(target, text)
        QTest.keyClick(target, Qt.Key.Key_Return)

    wizard.society_page.society.setFocus()
    keys("The Keyboard Folk")
    for _ in range(3):  # pack, region, challenge: the defaults are fine
        keys()
    def tab_to(widget: object) -> None:
        for _ in range(20):
            if wizard.focusWidget() is widget:
                return
            QTest.keyClick(wizard.focusWidget() or wizard, Qt.Key.Key_Tab)
        raise AssertionError("Tab never reached the widget")

    for name in ("Ash", "Bryn"):
        page = wizard.currentPage()
        QTest.keyClicks(wizard.focusWidget(), name)  # the name field has the focus
        for die, value in zip(page.dice, "54321", strict=True):  # typed from the table
            tab_to(die)
            QTest.keyClick(die, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
            QTest.keyClicks(die, value)
        keys()
        assert wizard.currentPage() is not page, page.error.text()
    assert wizard.currentPage() is wizard.summary_page
    keys()  # Finish
    try:
        assert wizard.campaign is not None
        assert {c.name for c in wizard.campaign.characters()} == {"Ash", "Bryn"}
    finally:
        if wizard.campaign is not None:
            wizard.campaign.close()


def test_main_window_tabs_are_named_and_reachable_by_keyboard(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """Every input of every tab of the main window, on the demo campaign."""
    from companion import operations

    campaign = operations.create_demo_campaign(tmp_path / "Demo.stonesaga")
    window = make_window(qtbot, campaign)
    try:
        for index in range(window.tabs.count()):
            window.tabs.setCurrentIndex(index)
            title = window.tabs.tabText(index)
            assert unnamed(window.tabs.widget(index)) == [], title
            assert not_reachable(window) == [], title
    finally:
        window.close()
