"""What the newcomer tests (issue 27) share: the larger text size as a fixture, and the
activity dialogs they open part-way."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from PySide6.QtWidgets import QApplication

from companion.ui import fit


@pytest.fixture(params=[1.0, 1.25], ids=["system-font", "larger-text"])
def font_scale(request: Any, monkeypatch: Any) -> Iterator[float]:
    """The user's font at its size, then at Settings ▸ Text size ▸ Larger (issue 27
    item 13); on a laptop's screen."""
    from companion.ui import text_size

    monkeypatch.setattr(fit, "room", lambda widget: fit.LAPTOP_WINDOW)
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    original = app.font()
    text_size.apply(app, round(request.param * 100))
    yield request.param
    app.setFont(original)


def delving_from_e05(qtbot: Any, demo: Any) -> Any:
    """Ash moved to E05 (Bryn passed) delves its cave: the dialog, open."""
    from companion.ui.procedure_dialog import start_activity
    from tests.ui.helpers import ash_walks_to, make_window

    window = make_window(qtbot, demo)
    ash_walks_to(window, "E05")
    dialog = start_activity(window, "delving", "Ash", "cave")
    assert dialog is not None
    qtbot.addWidget(dialog)
    return dialog


def fishing_at_placing(qtbot: Any, demo: Any) -> Any:
    """Ash fishes at the river, the app drawing and rolling up to placing the dice."""
    from companion.rules.procedure import Decider
    from companion.ui.procedure_dialog import start_activity
    from tests.ui.helpers import make_window

    window = make_window(qtbot, demo)
    dialog = start_activity(window, "fishing", "Ash", "river")
    assert dialog is not None
    qtbot.addWidget(dialog)
    while dialog.step.decider is not Decider.PLAYER:
        dialog.step_widget.app_button.click()
    return dialog
