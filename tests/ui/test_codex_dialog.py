"""The Codex dialog: only the entry asked for is shown, and the journal records exactly
one reveal; an omen that is not current is refused with the reason and reveals nothing."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtWidgets import QAbstractButton, QComboBox, QLabel, QLineEdit, QTextEdit

from companion import operations
from companion.ui.codex_dialog import CodexDialog
from companion.ui.main_window import MainWindow


@pytest.fixture
def demo(tmp_path: Path) -> Any:
    campaign = operations.create_demo_campaign(tmp_path / "demo.stonesaga")
    yield campaign
    campaign.close()


def make(qtbot: Any, campaign: operations.Campaign) -> tuple[MainWindow, CodexDialog]:
    window = MainWindow()
    qtbot.addWidget(window)
    window.set_campaign(campaign)
    dialog = CodexDialog(window)
    qtbot.addWidget(dialog)
    return window, dialog


def all_text(dialog: CodexDialog) -> str:
    """Every piece of text the dialog shows, in any widget."""
    parts = [dialog.windowTitle()]
    parts += [w.text() for w in dialog.findChildren(QLabel)]
    parts += [w.text() for w in dialog.findChildren(QLineEdit)]
    parts += [w.text() for w in dialog.findChildren(QAbstractButton)]
    parts += [w.toPlainText() for w in dialog.findChildren(QTextEdit)]
    for combo in dialog.findChildren(QComboBox):
        parts += [combo.itemText(n) for n in range(combo.count())]
    return "\n".join(parts)


def codex_events(campaign: operations.Campaign) -> list[str]:
    return [line.text for line in campaign.journal(limit=50) if line.kind.startswith("codex.")]


# Texts of other entries in the sample Codex: none may appear.
OTHER_ENTRIES = ("The elders nod", "You find an old cairn", "Tracks circle your camp",
                 "The ice groans", "A child hums", "The stars wheel")


def test_reading_an_outcome_shows_only_that_entry(qtbot: Any, demo: Any) -> None:
    _, dialog = make(qtbot, demo)
    before = all_text(dialog)
    assert not any(other in before for other in OTHER_ENTRIES)
    dialog.request.setText("read entry 103")
    assert dialog.look_up()
    shown = all_text(dialog)
    assert "A cold wind carries the smell of smoke" in shown
    assert not any(other in shown for other in OTHER_ENTRIES)
    assert codex_events(demo) == ["Codex: read entry 103"]


def test_omen_entry_for_the_current_omen(qtbot: Any, demo: Any) -> None:
    _, dialog = make(qtbot, demo)
    assert "Sun" in dialog.omens.text()
    dialog.request.setText("Sun E05")
    dialog.character.setCurrentIndex(dialog.character.findData("Ash"))
    assert dialog.look_up()
    shown = all_text(dialog)
    assert "The sun shows itself on E05" in shown
    assert not any(o in shown for o in OTHER_ENTRIES if o != "The stars wheel")
    assert codex_events(demo) == ["Ash investigated Sun E05: read the omen entry"]


def test_omen_not_current_is_refused_and_reveals_nothing(qtbot: Any, demo: Any,
                                                         monkeypatch: Any) -> None:
    from PySide6.QtWidgets import QMessageBox

    shown: list[str] = []
    monkeypatch.setattr(QMessageBox, "warning", lambda *a, **k: shown.append(a[2]))
    _, dialog = make(qtbot, demo)
    dialog.request.setText("Cloud E01")
    assert not dialog.look_up()
    assert shown and shown[0].startswith("Cloud is not a current omen (current: Sun)")
    assert "The cloud shows itself" not in all_text(dialog)
    assert codex_events(demo) == []


def test_no_entry_says_so(qtbot: Any, demo: Any) -> None:
    _, dialog = make(qtbot, demo)
    dialog.request.setText("Sun FO13")
    assert dialog.look_up()
    assert dialog.entry_text.toPlainText() == "No entry Sun FO13 — your investigation ends."
    dialog.request.setText("R1410")
    assert dialog.look_up()
    assert dialog.result_title.text() == "Red 1410: Stone Knife"
    assert len(codex_events(demo)) == 2


def test_enter_reads_one_entry_and_shows_a_refusal_once(qtbot: Any, demo: Any,
                                                         monkeypatch: Any) -> None:
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QMessageBox

    shown: list[str] = []
    monkeypatch.setattr(QMessageBox, "warning", lambda *a, **k: shown.append(a[2]))
    _, dialog = make(qtbot, demo)
    dialog.show()
    dialog.request.setText("Cloud E01")
    qtbot.keyClick(dialog.request, Qt.Key.Key_Return)
    assert len(shown) == 1
    dialog.request.setText("read entry 103")
    qtbot.keyClick(dialog.request, Qt.Key.Key_Return)
    assert codex_events(demo) == ["Codex: read entry 103"]
