"""Every screenshot also at a 1366×768 laptop's size (issue 20): ``also_laptop(widget,
path)`` saves ``docs/screenshots/laptop/<name>`` with the window resized as it opens on
that laptop (``companion.ui.fit``: at most 1366×680 with its frame), then puts it back.
A widget that is not a window is shot at its own size (it lives inside one)."""

from __future__ import annotations

from pathlib import Path
from typing import Any


def also_laptop(widget: Any, path: Path | str) -> Path:
    """Save the laptop-sized copy of the picture at ``path``; returns where."""
    from PySide6.QtWidgets import QApplication

    from companion.ui.fit import LAPTOP_WINDOW

    path = Path(path)
    out = path.parent / "laptop" / path.name
    out.parent.mkdir(parents=True, exist_ok=True)
    before = widget.size()
    if widget.isWindow():
        widget.resize(before.boundedTo(LAPTOP_WINDOW).expandedTo(widget.minimumSizeHint()))
        QApplication.processEvents()
    widget.grab().save(str(out))
    if widget.size() != before:
        widget.resize(before)
        QApplication.processEvents()
    print(f"wrote {out}")
    return out


def refusals_fail() -> None:
    """A refusal while a script plays is a script out of date: stop with its text instead
    of waiting on a message box nobody can see (offscreen)."""
    from PySide6.QtWidgets import QMessageBox

    def fail(_parent: Any, title: str, text: str, *args: Any, **kwargs: Any) -> Any:
        raise SystemExit(f"screenshot script refused: {title}: {text}")

    QMessageBox.warning = fail  # type: ignore[method-assign, assignment]
    QMessageBox.critical = fail  # type: ignore[method-assign, assignment]
