"""Showing the store's warnings (a backup that could not be taken) in the window.

The store logs them on ``companion.store`` and keeps them in ``CampaignFile.warnings``;
they may come from the background check's thread, so a signal carries them to the GUI
thread. Each distinct warning is shown once: in a message box that does not block play,
and in the status bar.
"""

from __future__ import annotations

import logging
from typing import Any

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QMainWindow, QMessageBox

TITLE = "A backup was not taken"


class _Bridge(QObject):
    warned = Signal(str)


class _Handler(logging.Handler):
    def __init__(self, bridge: _Bridge) -> None:
        super().__init__(level=logging.WARNING)
        self.bridge = bridge

    def emit(self, record: logging.LogRecord) -> None:
        self.bridge.warned.emit(record.getMessage())


class StoreWarnings(QObject):
    """Shows each store warning once while the window lives."""

    def __init__(self, window: QMainWindow) -> None:
        super().__init__(window)
        self.window = window
        self.shown: list[str] = []
        self.box: QMessageBox | None = None
        self._bridge = _Bridge(self)
        self._bridge.warned.connect(self.show)
        self._handler = _Handler(self._bridge)
        logging.getLogger("companion.store").addHandler(self._handler)
        window.destroyed.connect(self._detach)

    def _detach(self, *_args: Any) -> None:
        logging.getLogger("companion.store").removeHandler(self._handler)

    def show(self, text: str) -> None:
        """Show ``text`` (once) without blocking the game."""
        if text in self.shown:
            return
        self.shown.append(text)
        self.window.statusBar().showMessage(text, 20000)
        box = QMessageBox(QMessageBox.Icon.Warning, TITLE, text,
                          QMessageBox.StandardButton.Ok, self.window)
        box.setObjectName("storeWarning")
        box.open()
        self.box = box


def watch(window: QMainWindow, campaign: Any) -> StoreWarnings:
    """Start showing store warnings in ``window``, first those ``campaign`` already has."""
    watcher: StoreWarnings | None = window.findChild(StoreWarnings)
    if watcher is None:
        watcher = StoreWarnings(window)
    for text in list(getattr(getattr(campaign, "file", None), "warnings", [])):
        watcher.show(text)
    return watcher
