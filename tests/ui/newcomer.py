"""What the newcomer tests (issue 27) share: the larger text size as a fixture."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from PySide6.QtWidgets import QApplication

from companion.ui import fit


@pytest.fixture(params=[1.0, 1.25], ids=["system-font", "scaled-font"])
def font_scale(request: Any, monkeypatch: Any) -> Iterator[float]:
    """The user's font at its size, then 25% larger; on a laptop's screen."""
    monkeypatch.setattr(fit, "room", lambda widget: fit.LAPTOP_WINDOW)
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    original = app.font()
    if request.param != 1.0:
        font = app.font()
        font.setPointSizeF(font.pointSizeF() * request.param)
        app.setFont(font)
    yield request.param
    app.setFont(original)
