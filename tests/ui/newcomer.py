"""What the newcomer tests (issue 27) share: the larger text size as a fixture."""

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
