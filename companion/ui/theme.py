"""Look and feel shared by every window: light and dark themes, the app icon, and the
colour-blind-safe names of pip colours.

- :func:`apply` sets the Fusion style with a palette per colour scheme. ``"system"``
  follows the desktop (``QStyleHints.colorScheme``, Qt 6.5+) and switches live when the
  desktop does (``colorSchemeChanged``); ``"light"``/``"dark"`` force one. Fonts are never
  set here: the interface keeps the system font and its size (no pixel sizes anywhere).
- :func:`pip_label` gives every pip colour a letter as well as a name, so no
  information is carried by colour alone (colour-blind players).

Contract: call ``theme.apply(app, settings.load().theme)`` once the ``QApplication``
exists, before the first window is shown; call it again when the setting changes.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QGuiApplication, QIcon, QPainter, QPalette, QPen
from PySide6.QtWidgets import (
    QApplication,
    QProxyStyle,
    QStyle,
    QStyleFactory,
    QStyleOption,
    QWidget,
)

SETTINGS = ("system", "light", "dark")

# -- pips -----------------------------------------------------------------------------

PIP_LETTERS: dict[str, str] = {
    "red": "R", "blue": "B", "yellow": "Y", "purple": "P", "grey": "G", "green": "Gn",
    "orange": "O", "silver": "S",
}
"""The letter(s) of a pip colour in a crafting code, in the Codex's order (as in
``companion.rules.crafting.COLOUR_LETTERS``; G is grey, Gn green)."""

PIP_SWATCHES: dict[str, tuple[str, str]] = {
    # (light theme, dark theme): distinct in lightness as well as hue.
    "red": ("#c0392b", "#ff6b5e"),
    "blue": ("#1f5fbf", "#6fa8ff"),
    "yellow": ("#b58900", "#ffd54a"),
    "purple": ("#7b3fa0", "#c58cf0"),
    "grey": ("#5f6368", "#a9adb2"),
    "green": ("#2e7d32", "#7ddc82"),
    "orange": ("#c55a11", "#ffa45c"),
    "silver": ("#7f8c8d", "#c8d0d2"),
}


def _colour_name(colour: Any) -> str:
    name = str(getattr(colour, "value", colour)).strip().lower()
    return "grey" if name == "gray" else name


def pip_label(colour: Any) -> str:
    """``"R Red"`` for a pip colour (a ``PipColour`` or its name): the letter always goes
    with the colour, so colour-blind players read it too.

    >>> pip_label("red"), pip_label("SILVER")
    ('R Red', 'S Silver')
    """
    name = _colour_name(colour)
    letter = PIP_LETTERS.get(name)
    if letter is None:
        raise ValueError(f"'{colour}' is not a pip colour ({', '.join(PIP_LETTERS)})")
    return f"{letter} {name.title()}"


def pip_letter(colour: Any) -> str:
    """The letter(s) of a pip colour (``"R"`` for red, ``"Gn"`` for green)."""
    return pip_label(colour).split(" ", 1)[0]


def pip_colour(colour: Any, *, dark: bool | None = None) -> QColor:
    """A swatch colour for a pip, readable on the current theme's background. Use it
    only together with :func:`pip_label`, never alone."""
    name = _colour_name(colour)
    pip_label(name)  # refuses an unknown colour
    if dark is None:
        dark = is_dark()
    return QColor(PIP_SWATCHES[name][1 if dark else 0])


# -- palettes ---------------------------------------------------------------------------


def light_palette() -> QPalette:
    """Fusion's own light palette, with a warmer highlight."""
    palette = QStyleFactory.create("Fusion").standardPalette()
    palette.setColor(QPalette.ColorRole.Highlight, QColor("#2f6f9f"))
    palette.setColor(QPalette.ColorRole.HighlightedText, QColor("#ffffff"))
    palette.setColor(QPalette.ColorRole.Link, QColor("#1f5fbf"))
    palette.setColor(QPalette.ColorRole.PlaceholderText, QColor("#6b6b6b"))
    return palette


def dark_palette() -> QPalette:
    """A dark palette for Fusion; text contrast stays at least 7:1 (WCAG AAA)."""
    window, base, alt = QColor("#2b2b2b"), QColor("#1e1e1e"), QColor("#333333")
    text, muted = QColor("#ececec"), QColor("#9a9a9a")
    button = QColor("#3a3a3a")
    palette = QPalette()
    roles = QPalette.ColorRole
    for role, colour in (
        (roles.Window, window), (roles.WindowText, text), (roles.Base, base),
        (roles.AlternateBase, alt), (roles.ToolTipBase, QColor("#3f3f3f")),
        (roles.ToolTipText, text), (roles.PlaceholderText, muted), (roles.Text, text),
        (roles.Button, button), (roles.ButtonText, text), (roles.BrightText, QColor("#ff6b5e")),
        (roles.Light, QColor("#4a4a4a")), (roles.Midlight, QColor("#404040")),
        (roles.Mid, QColor("#5c5c5c")), (roles.Dark, QColor("#181818")),
        (roles.Shadow, QColor("#000000")), (roles.Highlight, QColor("#33699e")),
        (roles.HighlightedText, QColor("#ffffff")), (roles.Link, QColor("#7fb2ff")),
        (roles.LinkVisited, QColor("#c58cf0")),
    ):
        palette.setColor(role, colour)
    disabled = QPalette.ColorGroup.Disabled
    for role in (roles.WindowText, roles.Text, roles.ButtonText):
        palette.setColor(disabled, role, QColor("#7a7a7a"))
    palette.setColor(disabled, roles.Base, window)
    palette.setColor(disabled, roles.Button, QColor("#303030"))
    palette.setColor(disabled, roles.Highlight, QColor("#505050"))
    return palette


def system_is_dark(app: QGuiApplication | None = None) -> bool:
    """Whether the desktop asks for a dark scheme (Qt 6.5+; unknown counts as light)."""
    app = app or QGuiApplication.instance()  # type: ignore[assignment]
    if app is None:
        return False
    hints = app.styleHints()
    scheme = getattr(hints, "colorScheme", None)
    if scheme is None:  # Qt older than 6.5
        return False
    return bool(scheme() == Qt.ColorScheme.Dark)


def effective_scheme(setting: str, app: QGuiApplication | None = None) -> str:
    """``"light"`` or ``"dark"``: what ``setting`` (system/light/dark) means now."""
    if setting not in SETTINGS:
        raise ValueError(f"theme must be one of {', '.join(SETTINGS)}, not {setting!r}")
    if setting == "system":
        return "dark" if system_is_dark(app) else "light"
    return setting


def is_dark() -> bool:
    """Whether the dark palette is applied (for widgets that pick their own colours)."""
    app = QApplication.instance()
    return bool(app is not None and app.property("companionScheme") == "dark")


class _SchemeFollower(QObject):
    """Re-applies the palette when the desktop switches scheme (setting ``system``)."""

    def __init__(self, app: QApplication) -> None:
        super().__init__(app)
        self.app = app
        self.setting = "system"
        changed = getattr(app.styleHints(), "colorSchemeChanged", None)
        if changed is not None:
            changed.connect(self.scheme_changed)

    def scheme_changed(self, *_: object) -> None:
        if self.setting == "system":
            _set_palette(self.app, effective_scheme("system", self.app))


class CompanionStyle(QProxyStyle):
    """Fusion, with radio and check indicators that stay visible on a dark window.

    Fusion outlines them with a shade darker than the window, which all but vanishes
    in the dark scheme; there they get a light outline and a clear checked mark. (A
    proxy style rather than an application style sheet: re-polishing every widget with
    a style sheet at run time is slow and has crashed Qt here.)"""

    def __init__(self) -> None:
        super().__init__(QStyleFactory.create("Fusion"))
        self.setObjectName("companionStyle")

    def drawPrimitive(self, element: QStyle.PrimitiveElement, option: QStyleOption,  # noqa: N802
                      painter: QPainter, widget: QWidget | None = None) -> None:
        if widget is not None and not isinstance(widget, QWidget):
            # PySide can hand a stale wrapper (a QSpacerItem once stood at that address);
            # the base style draws as well without the widget, and a TypeError from here
            # would abort the paint.
            widget = None
        kinds = (QStyle.PrimitiveElement.PE_IndicatorRadioButton,
                 QStyle.PrimitiveElement.PE_IndicatorCheckBox)
        if element not in kinds or not is_dark():
            super().drawPrimitive(element, option, painter, widget)
            return
        state = option.state
        enabled = bool(state & QStyle.StateFlag.State_Enabled)
        on = bool(state & QStyle.StateFlag.State_On)
        partial = bool(state & QStyle.StateFlag.State_NoChange)
        focus = bool(state & QStyle.StateFlag.State_HasFocus)
        accent = QColor("#7fb2ff") if enabled else QColor("#6a6a6a")
        outline = QColor("#ffffff") if focus and enabled else \
            QColor("#a8a8a8") if enabled else QColor("#5c5c5c")
        rect = QRectF(option.rect).adjusted(1.5, 1.5, -1.5, -1.5)
        side = min(rect.width(), rect.height())
        rect = QRectF(rect.center().x() - side / 2, rect.center().y() - side / 2, side, side)
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(QPen(outline, max(1.5, side / 9)))
        painter.setBrush(QColor("#1e1e1e"))
        if element == QStyle.PrimitiveElement.PE_IndicatorRadioButton:
            painter.drawEllipse(rect)
            if on:
                painter.setPen(Qt.PenStyle.NoPen)
                painter.setBrush(accent)
                inner = side * 0.28
                painter.drawEllipse(rect.adjusted(inner, inner, -inner, -inner))
        else:
            painter.drawRoundedRect(rect, side / 6, side / 6)
            pen = QPen(accent, max(2.0, side / 6.5))
            pen.setCapStyle(Qt.PenCapStyle.RoundCap)
            pen.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
            painter.setPen(pen)
            x, y, w, h = rect.x(), rect.y(), rect.width(), rect.height()
            if on:
                painter.drawPolyline([QPointF(x + w * 0.22, y + h * 0.52),
                                      QPointF(x + w * 0.42, y + h * 0.72),
                                      QPointF(x + w * 0.78, y + h * 0.30)])
            elif partial:
                painter.drawLine(QPointF(x + w * 0.25, y + h / 2), QPointF(x + w * 0.75, y + h / 2))
        painter.restore()


def _set_palette(app: QApplication, scheme: str) -> None:
    app.setProperty("companionScheme", scheme)
    app.setPalette(dark_palette() if scheme == "dark" else light_palette())


def apply(app: QApplication, setting: str = "system") -> str:
    """Fusion style, the palette for ``setting`` (system/light/dark), the app icon.

    Returns the scheme applied (``"light"`` or ``"dark"``). Safe to call again, e.g.
    when the user changes the theme in the settings.
    """
    scheme = effective_scheme(setting, app)
    if not isinstance(app.style(), CompanionStyle):
        app.setStyle(CompanionStyle())
    follower = app.findChild(_SchemeFollower, "companionSchemeFollower")
    if follower is None:
        follower = _SchemeFollower(app)
        follower.setObjectName("companionSchemeFollower")
    follower.setting = setting
    _set_palette(app, scheme)
    icon = app_icon()
    if not icon.isNull():
        app.setWindowIcon(icon)
    return scheme


# -- assets -------------------------------------------------------------------------------


def assets_dir() -> Path:
    """The shipped ``assets`` (icons), wherever the program is installed
    (``companion.paths.shipped_dir``)."""
    from companion import paths

    return paths.shipped_dir("assets")


def app_icon() -> QIcon:
    """The application icon (the PNG sizes, so no SVG plug-in is needed)."""
    icon = QIcon()
    folder = assets_dir()
    for size in (16, 32, 48, 64, 128, 256, 512):
        path = folder / f"app-icon-{size}.png"
        if path.exists():
            icon.addFile(str(path))
    return icon
