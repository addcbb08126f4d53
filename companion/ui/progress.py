"""Long work off the GUI thread: ``run_with_progress(window, title, fn, *args)``.

The call runs ``fn(*args, **kwargs)`` on a worker ``QThread`` while a window-modal
``QProgressDialog`` shows that something is happening; a nested event loop keeps the
window painting and responsive. It returns ``fn``'s result, or re-raises its exception
in the caller (so ``except operations.Refused`` works as around a direct call).

Pass ``report=True`` and ``fn`` also receives ``report(done, total, text)`` as the
keyword argument ``report``, to show a real bar instead of a busy indicator.

Thread contract (the store's): **a CampaignFile's connection is used by one thread at a
time.** Give the worker file-level work that opens its own connection —
``store.export_campaign(campaign.path, dest)`` (read-only, WAL lets it run beside the
open campaign), ``operations.import_campaign(src, dest)``,
``operations.restore_backup(path, backup)`` after the window closed the campaign,
building a PDF from data read beforehand on the GUI thread — never an operation on
``window.campaign`` while the window can still use it. The dialog has no Cancel button:
work on a file is not interrupted halfway.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from PySide6.QtCore import QEventLoop, QThread, Signal
from PySide6.QtWidgets import QProgressDialog, QWidget

T = TypeVar("T")

SHOW_AFTER_MS = 250
"""Work that ends sooner never flashes a dialog."""
REPORT_CHARS = 66
"""Characters of a report's text the dialog has room for."""


class _Worker(QThread):
    progressed = Signal(int, int, str)

    def __init__(self, fn: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any],
                 report: bool) -> None:
        super().__init__()
        self.fn, self.args, self.kwargs = fn, args, kwargs
        if report:
            self.kwargs = {**kwargs, "report": self._report}
        self.result: Any = None
        self.error: BaseException | None = None

    def _report(self, done: int, total: int, text: str = "") -> None:
        self.progressed.emit(int(done), int(total), text)  # queued to the GUI thread

    def run(self) -> None:
        try:
            self.result = self.fn(*self.args, **self.kwargs)
        except BaseException as exc:  # handed to the caller's thread, never lost
            self.error = exc


def run_with_progress(window: QWidget | None, title: str, fn: Callable[..., T], *args: Any,
                      label: str | None = None, report: bool = False, **kwargs: Any) -> T:
    """Run ``fn(*args, **kwargs)`` on a worker thread behind a progress dialog.

    Returns what ``fn`` returns; an exception raised by ``fn`` is raised here.
    """
    dialog = QProgressDialog(label or f"{title}…", "", 0, 0, window)
    dialog.setWindowTitle(title)
    dialog.setAccessibleName(title)
    dialog.setCancelButton(None)
    dialog.setMinimumDuration(SHOW_AFTER_MS)
    dialog.setAutoClose(False)
    dialog.setAutoReset(False)
    from PySide6.QtCore import Qt

    dialog.setWindowModality(Qt.WindowModality.WindowModal)
    # Wide enough for the longest line a report gives ("Writing the cave wall
    # illustration: 1,000 of 1,000,000 rows"): the dialog does not grow once shown.
    dialog.setMinimumWidth(dialog.fontMetrics().averageCharWidth() * REPORT_CHARS)
    worker = _Worker(fn, args, kwargs, report)

    def progressed(done: int, total: int, text: str) -> None:
        dialog.setMaximum(max(total, 0))
        dialog.setValue(min(done, total) if total > 0 else 0)
        if text:
            dialog.setLabelText(text)

    worker.progressed.connect(progressed)
    loop = QEventLoop()
    worker.finished.connect(loop.quit)
    # Start the dialog's "show after" timer, then wait in a nested loop: the window
    # keeps painting while the worker runs.
    dialog.setValue(0)
    worker.start()
    if not worker.isFinished():
        loop.exec()
    worker.wait()
    dialog.hide()
    dialog.deleteLater()
    if worker.error is not None:
        raise worker.error
    return worker.result  # type: ignore[no-any-return]
