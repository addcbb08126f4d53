"""Issue 28: what a Campaign Journal version 5 file brings shows in the Journal book:
the Codex entries read (numbers and the group's notes, never the entry's text) beside
the Codex lookups, and the cave wall's drawings drawn from their strokes."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtGui import QColor

from companion.operations import webjournal as wj
from companion.operations.export import journal_markdown
from tests.ui.helpers import make_window

PLAYED = Path(__file__).parents[1] / "fixtures" / "web-journal" / "v5-8aae632-played.json"


def test_codex_entries_read_and_the_cave_wall_drawn(qtbot: Any, tmp_path: Path) -> None:
    from companion.ui.journal_book import JournalBook
    from companion.ui.journal_cave_wall import WALL, CaveWallPage

    campaign, _ = wj.import_new(PLAYED, tmp_path / "reed.stonesaga")
    window = make_window(qtbot, campaign)
    window.resize(1366, 768)
    window.show_view("journal")
    book = window.findChild(JournalBook)
    assert book is not None
    book.turn_to("omens")
    page = book.page_of["codex"]
    rows = [[page.codex.topLevelItem(n).text(c) for c in range(4)]
            for n in range(page.codex.topLevelItemCount())]
    assert rows == [["42", "The frozen lake", "Investigation card IV3", ""],
                    ["117", "", "Behemoth card BH3", "Read after the first sighting."]]
    window.grab().save(str(tmp_path / "omens.png"))
    book.turn_to("cave_wall")
    wall = book.page_of["cave_wall"]
    assert isinstance(wall, CaveWallPage)
    (item,) = [wall.list.item(n) for n in range(wall.list.count())]
    assert item.text().startswith("Hunter")
    image = item.icon().pixmap(CaveWallPage.THUMB, CaveWallPage.THUMB * 2 // 3).toImage()
    colours = {image.pixelColor(x, y).name() for x in range(0, image.width(), 2)
               for y in range(0, image.height(), 2)}
    assert colours - {WALL.name()}  # the strokes are drawn on the wall
    assert QColor("#c04a4a").name() in colours or len(colours) > 2
    window.grab().save(str(tmp_path / "cave.png"))
    text = journal_markdown(campaign)
    assert "## Codex entries read" in text and "| 117 |" in text
    campaign.close()
