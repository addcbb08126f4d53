"""Issue 25 part 3 on the Day tab: in a campaign of the owner's box, whose pack holds no
forage card yet, "Forage at the plains" cannot be laid out by the app, and its
"At the table…" button plays it with the real cards: the energy paid, what it gave
typed in one line (Rulebook: Feature Actions)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QPushButton

from companion import operations
from companion.ui.table_record import RecordDialog
from tests.box_campaign import make_box_campaign
from tests.ui.helpers import make_window


@pytest.fixture
def box(tmp_path: Path) -> Iterator[operations.Campaign]:
    campaign = make_box_campaign(tmp_path / "box.stonesaga")
    yield campaign
    if not campaign.file.closed:
        campaign.close()


def test_feature_actions_forage_at_the_table_from_the_day_tab(
        qtbot: Any, box: operations.Campaign, refusals: list[str]) -> None:
    window = make_window(qtbot, box)
    view = window.show_view("day") or window.view("day")
    forage = view.button("Ash", "Forage at the plains")
    assert not forage.isEnabled()  # the engine needs the pack's forage cards
    [at_table] = [b for b in view.boxes["Ash"].findChildren(QPushButton, "atTable")
                  if "plains" in b.accessibleName()]
    assert at_table.isEnabled()
    energy = box.character_detail("Ash").energy
    qtbot.mouseClick(at_table, Qt.MouseButton.LeftButton)
    dialog = view.dialog
    assert isinstance(dialog, RecordDialog) and dialog.isVisible()
    qtbot.keyClicks(dialog.card, "FP07")
    dialog.line.setFocus()
    qtbot.keyClicks(dialog.line, "gain 2 root, lore +1")
    assert dialog.preview.text().startswith("Will apply:")
    qtbot.keyClick(dialog.line, Qt.Key.Key_Return)
    assert refusals == []
    assert not dialog.isVisible()
    assert box.character_detail("Ash").energy < energy
    assert box.journal(1)[0].text.startswith(
        "Ash foraged at the plains (FP07), played at the table")
    operations.undo(box)
    assert box.character_detail("Ash").energy == energy
