"""What every screenshot script shares: the app the pictures are taken in, offscreen, in a
throw-away user folder, refusals failing the script (``start``); a picture saved into
docs/screenshots/ (``save``), and also as on a 1366×768 laptop (issue 20: ``also_laptop``
saves ``docs/screenshots/laptop/<name>`` with the window resized as it opens on that
laptop, ``companion.ui.fit``: at most 1366×680 with its frame, then puts it back; a
widget that is not a window is shot at its own size, as it lives inside one); a fresh
demo campaign shown in a main window (``demo_window``), Ash walked somewhere in it
(``ash_walks_to``).

Every picture is taken with ``QWidget.grab()`` at a fixed size, so the files change only
when the UI does."""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "docs" / "screenshots"
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))  # the companion package, and tests' builders


def out_folder(description: str) -> Path:
    """The folder the pictures go to: docs/screenshots/, or ``--out DIR`` (to look at them
    first)."""
    import argparse

    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--out", type=Path, default=OUT)
    out: Path = parser.parse_args().out
    out.mkdir(parents=True, exist_ok=True)
    return out


def throwaway_home() -> str:
    """A fresh user folder (``COMPANION_HOME``): preferences and packs at their defaults."""
    home = tempfile.mkdtemp(prefix="companion-shots-")
    os.environ["COMPANION_HOME"] = home
    return home


def start(*, style: str | None = "Fusion", refusals: bool = True) -> tuple[Any, str]:
    """The application and a throw-away user folder; docs/screenshots/ made. ``refusals``:
    a refusal fails the script (see ``refusals_fail``)."""
    if refusals:
        refusals_fail()
    home = throwaway_home()
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance() or QApplication([])
    if style:
        app.setStyle(style)
    OUT.mkdir(parents=True, exist_ok=True)
    return app, home


def save(widget: Any, name: str, *, size: tuple[int, int] | None = None, show: bool = False,
         passes: int = 1, laptop: bool = True, close: bool = False, out: Path = OUT) -> Path:
    """Grab ``widget`` into ``out/name`` (``.png`` added when missing): resized to ``size``
    and shown first when asked, after ``passes`` rounds of events (nested layouts settle
    over a few), then also as on a laptop unless ``laptop`` is false."""
    from PySide6.QtWidgets import QApplication

    if size is not None:
        widget.resize(*size)
    if show:
        widget.show()
    for _ in range(passes):
        QApplication.processEvents()
    path = out / (name if name.endswith(".png") else f"{name}.png")
    widget.grab().save(str(path))
    print(f"wrote {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}")
    if laptop:
        also_laptop(widget, path)
    if close:
        widget.close()
    return path


def demo_window(home: str, name: str = "Demo",
                size: tuple[int, int] = (1180, 680)) -> tuple[Any, Any]:
    """A fresh demo campaign ``<home>/<name>.stonesaga`` shown in a main window; the
    default size fits a 1366x768 laptop (issue 20)."""
    from companion import operations
    from companion.ui.main_window import MainWindow

    campaign = operations.create_demo_campaign(Path(home) / f"{name}.stonesaga")
    window = MainWindow()
    window.resize(*size)
    window.show()
    window.set_campaign(campaign)
    return campaign, window


def ash_walks_to(window: Any, hex_id: str) -> None:
    """On the demo campaign: Ash moves to ``hex_id`` and Bryn passes, so Ash acts there
    next."""
    from companion import operations

    window.run_operation(operations.move, name="Ash", to_hex=hex_id)
    window.run_operation(operations.pass_turn, name="Bryn")


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
