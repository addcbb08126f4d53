"""Every menu item opens what it names (the Play menu's dialogs, Settings, New)."""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QDialog, QWidget

from companion import operations
from tests.ui.helpers import make_window


def test_every_play_menu_item_opens_its_dialog(qtbot: Any, tmp_path: Any) -> None:
    campaign = operations.create_demo_campaign(tmp_path / "d.stonesaga")
    window = make_window(qtbot, campaign)
    opened = []
    for action in window.play_menu.actions():
        text = action.text().replace("&", "")
        if action.isSeparator() or text.startswith(("Continue", "Begin")):
            continue
        before = {id(w) for w in window.findChildren(QWidget) if isinstance(w, QDialog)}
        action.trigger()
        new = [w for w in window.findChildren(QWidget)
               if isinstance(w, QDialog) and id(w) not in before and w.isVisible()]
        assert new, f"'{text}' opened nothing"
        opened.append(text)
        for dialog in new:
            dialog.close()
    assert {"Crafting…", "Apply Effects…", "End Challenge…", "Codex…"} <= set(opened)
