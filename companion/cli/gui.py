"""Launch the GUI: the window first, then the database layer and the campaign.

Importing sqlmodel alone costs about half a second here, so the window is shown (on its
"Opening campaign" page) before ``companion.operations`` is imported; the campaign is
opened from ``QTimer.singleShot(0, ...)`` once the event loop runs.
"""

from __future__ import annotations

import gc
import linecache
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QApplication

from companion import __version__
from companion.ui.main_window import MainWindow

if TYPE_CHECKING:
    from companion.operations import Campaign

DEMO_FILE_NAME = "Demo - The Ember Folk.stonesaga"


def launch(path: str | None, *, smoke: bool = False, content: Sequence[str] = (),
           screenshot: str | None = None) -> int:
    """Show the main window and open a campaign; with ``smoke``, paint once and exit
    (with ``screenshot``, saving the painted window to that PNG file first)."""
    # Start-up allocates hundreds of thousands of long-lived objects (modules, classes,
    # the content): the cyclic collector would walk them some 200 times, finding little,
    # for about a tenth of the start. It is paused until the campaign is on screen.
    gc.disable()
    app = QApplication.instance() or _new_application()
    if app is None:
        gc.enable()
        return 3
    assert isinstance(app, QApplication)
    app.setApplicationName("Stonesaga Companion")
    app.setApplicationVersion(__version__)
    app.setOrganizationName("StonesagaCompanion")
    window = MainWindow()
    probe = _StartupProbe.install(window)
    window.show()
    # Paint the "Opening campaign" page now, before the database layer is imported.
    window.repaint()
    app.processEvents()
    window.apply_deferred_shortcuts()
    _apply_theme(app)
    outcome: dict[str, int] = {}
    loader = _Loader(window, path, content=[Path(c) for c in content], smoke=smoke,
                     outcome=outcome, screenshot=screenshot)
    QTimer.singleShot(0, loader.run)
    app.exec()
    del probe
    return outcome.get("code", 0)


def _new_application() -> QApplication | None:
    """The QApplication, or None with a message naming what is missing and the README
    section that fixes it when Qt could not open a window (instead of Qt's abort)."""
    from companion.ui import qt_platform

    trouble = qt_platform.problem()
    if trouble:
        print(f"Stonesaga Companion cannot open a window. {trouble}", file=sys.stderr,
              flush=True)
        return None
    restore = qt_platform.install_fatal_hint()
    try:
        return QApplication(sys.argv[:1])
    finally:
        restore()


def _apply_theme(app: QApplication) -> None:
    """The light/dark theme of the settings. Applied right after the first paint: the
    theme module builds Qt's enum namespace, which would delay the first paint by
    tens of milliseconds; the palette then changes before the campaign is shown."""
    from companion import settings
    from companion.ui import text_size, theme

    chosen = settings.load()
    theme.apply(app, chosen.theme)
    text_size.apply(app, chosen.text_size)  # Settings > Text size (issue 27 item 13)


class _Loader:
    """Opens the campaign after the first paint; in smoke mode reports and quits."""

    def __init__(self, window: MainWindow, path: str | None, *, content: list[Path],
                 smoke: bool, outcome: dict[str, int], screenshot: str | None = None) -> None:
        self.screenshot = screenshot
        self.window = window
        self.path = path
        self.content = content
        self.smoke = smoke
        self.outcome = outcome
        self._tmp: Any = None  # a TemporaryDirectory in smoke mode
        self.first_shown = False  # the first view (issue 37) is on screen

    def run(self) -> None:
        # Issue 37: the campaign is on screen first, from a light read of the rows and
        # names the Valley tab and the status bar show (no sqlmodel, no pydantic); the
        # usual opening then runs in this same step, so the real views take its place
        # before any click is handled (input waits in the event queue meanwhile).
        self.first_shown = self._show_first_view()
        # The database layer: sqlmodel (SQLAlchemy, pydantic) first, then the store, the
        # content and the operations. PySide's import hook reads the source of every
        # module imported after it (its ``__feature__`` check) through ``linecache``,
        # which keeps every line: some 20 MiB for SQLAlchemy alone. That cache is only
        # for tracebacks (which read the files again when it is empty): it is emptied
        # after each of the two steps, so what the campaign needs next reuses the room.
        from companion.store import table_base  # noqa: F401 (sqlmodel)

        linecache.clearcache()
        from companion.ui import session

        linecache.clearcache()
        QTimer.singleShot(0, gc.enable)  # the first idle moment, whatever happens below
        from companion.store import lock

        lock.identify_as(lock.WINDOW)  # a command refused the campaign names the window
        try:
            campaign = self._open()
            self.window.set_campaign(campaign)
        except Exception as exc:  # every failure is shown (or printed), never swallowed
            if self.window.campaign is not None:
                self.window.campaign.close()
                self.window.campaign = None
            self._fail(exc)
            return
        session.wire_window(self.window, extra_content=self.content)
        if getattr(self, "first_start", False) and not self.smoke:
            from companion.ui import new_campaign_wizard

            QTimer.singleShot(0, lambda: new_campaign_wizard.welcome(self.window))
        if _StartupProbe.active():
            if not self.first_shown:
                _StartupProbe.campaign_shown(self.window)
            _StartupProbe.campaign_ready(self.window)
            return
        if self.smoke:
            QApplication.processEvents()  # let the status bar and views lay themselves out
            image = self.window.grab()
            if self.screenshot:
                image.save(self.screenshot)
            from companion.cli.terminal import shown

            print(  # the title and path come from files: shown harmlessly
                shown(f"companion {__version__} smoke ok: painted {image.width()}x"
                      f"{image.height()} main window on '{campaign.title}' ({campaign.path})"),
                flush=True,
            )
            self.window.close()
            if self._tmp is not None:
                self._tmp.cleanup()
            QApplication.quit()

    def _show_first_view(self) -> bool:
        """Paint the first view of the campaign about to open, when a light read can
        show it exactly (``companion.ui.first_view``); whether it did."""
        if self.smoke:
            return False  # the self-test paints the real window once, nothing else
        from companion import settings as preferences
        from companion.ui.first_view import read_first_view

        path = self._path_to_open()
        if path is None:
            return False
        first = read_first_view(path, [*preferences.load().extra_content(), *self.content])
        if first is None:
            return False
        self.window.show_first_view(first)
        if _StartupProbe.active():
            _StartupProbe.campaign_shown(self.window)
        else:
            self.window.repaint()  # on screen now: the opening below keeps the loop busy
        return True

    def _path_to_open(self) -> Path | None:
        """The campaign file :meth:`_open` will open, when it exists already (as
        ``session.open_last_or_demo`` chooses it)."""
        if self.path:
            return Path(self.path)
        from companion import paths
        from companion.ui.file_menu import settings

        last = settings().value("last", "")
        if isinstance(last, str) and last and Path(last).exists():
            return Path(last)
        demo = paths.campaigns_dir() / DEMO_FILE_NAME
        return demo if demo.exists() else None

    def _open(self) -> Campaign:
        from companion.ui import session as s

        if self.path:
            return s.open_path(Path(self.path), extra_content=self.content)
        if self.smoke:
            import tempfile

            from companion import operations

            # A throw-away demo: not remembered as the last campaign.
            self._tmp = tempfile.TemporaryDirectory(prefix="companion-smoke-")
            return operations.create_demo_campaign(Path(self._tmp.name) / DEMO_FILE_NAME,
                                                   extra_content=self.content)
        self.first_start = s.is_first_start(DEMO_FILE_NAME)
        return s.open_last_or_demo(DEMO_FILE_NAME, extra_content=self.content)

    def _fail(self, exc: Exception) -> None:
        from companion.operations import Damaged

        if self.first_shown:  # what failed is said over no campaign, not the first view
            self.window.forget_first_view()
        if isinstance(exc, Damaged) and not self.smoke:
            from companion.ui import session
            from companion.ui.dialogs import offer_restore

            restored = offer_restore(self.window, exc)
            if restored is not None:
                self.window.set_campaign(restored)
                session.wire_window(self.window, extra_content=self.content)
                return
        if self.smoke:
            from companion.cli.terminal import shown

            print(shown(f"companion smoke FAILED: {exc}"), file=sys.stderr, flush=True)
            self.outcome["code"] = 1
            QApplication.quit()
            return
        from PySide6.QtWidgets import QMessageBox

        self.window.show_opening("No campaign is open. Use File ▸ New or File ▸ Open.")
        QMessageBox.critical(self.window, "Could not open the campaign", str(exc))


class _StartupProbe(QObject):
    """For ``bench/startup.py``: prints when the window first paints and when the
    campaign is on screen (wall-clock seconds), then quits. Active only when the
    environment variable ``COMPANION_STARTUP_PROBE`` is set."""

    ENV = "COMPANION_STARTUP_PROBE"

    @classmethod
    def active(cls) -> bool:
        return bool(os.environ.get(cls.ENV))

    @classmethod
    def install(cls, window: MainWindow) -> _StartupProbe | None:
        if not cls.active():
            return None
        probe = cls(window)
        # Watch the page that fills the window (it covers the main window itself).
        # Only that widget: an application-wide Python filter would see every event of
        # every widget being polished, and slow down the very start it measures.
        window.opening_page.installEventFilter(probe)
        return probe

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802
        if event.type() == QEvent.Type.Paint:
            print(f"first_paint={time.time():.6f}", flush=True)
            watched.removeEventFilter(self)
        return False

    @staticmethod
    def campaign_shown(window: MainWindow) -> None:
        """The campaign is painted (the first view, or the real one)."""
        window.repaint()  # synchronous: the campaign's views are painted now
        print(f"campaign_shown={time.time():.6f}", flush=True)
        print(f"campaign_shown_cpu={time.process_time():.6f}", flush=True)

    @staticmethod
    def campaign_ready(window: MainWindow) -> None:
        """The real views are built and filled (clicks act on them): then quit."""
        window.repaint()
        print(f"campaign_ready={time.time():.6f}", flush=True)
        print(f"campaign_ready_cpu={time.process_time():.6f}", flush=True)
        window.close()
        QApplication.quit()
