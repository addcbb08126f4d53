"""The Journal book on a real campaign: sections, an entry found by search, a cave-wall
illustration imported from a PNG and found by its mark, edits through the operations,
and the PDF export."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from companion import operations
from companion.operations import journal as j
from companion.ui.journal_book import JournalBook
from companion.ui.main_window import MainWindow
from tests.ui.helpers import make_window


@pytest.fixture
def demo(tmp_path: Path) -> Any:
    campaign = operations.create_demo_campaign(tmp_path / "demo.stonesaga")
    yield campaign
    campaign.close()


def open_book(qtbot: Any, campaign: operations.Campaign) -> tuple[MainWindow, Any]:
    window = make_window(qtbot, campaign)
    journal = window.show_view("journal")
    return window, journal


def tree_texts(tree: Any) -> list[str]:
    texts = []
    for n in range(tree.topLevelItemCount()):
        item = tree.topLevelItem(n)
        texts.append(" | ".join(item.text(c) for c in range(tree.columnCount())))
        for m in range(item.childCount()):
            child = item.child(m)
            texts.append(" | ".join(child.text(c) for c in range(tree.columnCount())))
    return texts


def test_the_book_has_history_first_then_every_section(qtbot: Any, demo: Any) -> None:
    _, journal = open_book(qtbot, demo)
    book: JournalBook = journal.book
    titles = [book.contents.item(n).text() for n in range(book.contents.count())]
    assert titles == ["History", "Entries", "Challenge Log", "Culture", "Outposts",
                      "Valley Map", "Behemoths", "Decks", "Primal Cave Wall", "Legends",
                      "Note pages", "Omens & Codes", "Search results"]
    assert book.pages.currentWidget() is journal.history
    book.turn_to("challenges")
    assert any("The Long Thaw" in t for t in tree_texts(book.page("challenges").tree))
    book.turn_to("valley")
    grid = book.page("valley").grid
    shown = {grid.item(r, c).text() for r in range(grid.rowCount())
             for c in range(grid.columnCount()) if grid.item(r, c)}
    assert "E01" in shown


def test_an_entry_with_its_author_is_found_by_search(qtbot: Any, demo: Any) -> None:
    window, journal = open_book(qtbot, demo)
    journal.entry.setText("A white stag crossed the ice at dusk.")
    journal.author.setText("Player 2")
    journal.add_button.click()
    assert journal.model.lines[0].text == "A white stag crossed the ice at dusk."
    assert j.entries(demo)[0].author == "Player 2"
    book = journal.book
    book.search_box.setText("white stag")
    hits = book.run_search()
    assert [h.section for h in hits] == ["entries"]
    page = book.page("search")
    assert book.pages.currentWidget() is page
    assert "Player 2" in tree_texts(page.tree)[0]
    assert "1 found" in page.summary.text()
    # Filters: the entry is in epoch 1, not epoch 2.
    book.epoch_filter.setValue(2)
    assert page.hits == []
    book.epoch_filter.setValue(0)
    assert len(page.hits) == 1


def test_cave_wall_png_imported_then_found_by_its_mark(qtbot: Any, demo: Any,
                                                       tmp_path: Path) -> None:
    picture = tmp_path / "hunt.png"
    Image.new("RGB", (64, 48), "#7a2e12").save(picture)
    window, journal = open_book(qtbot, demo)
    book = journal.book
    book.turn_to("cave_wall")
    wall = book.page("cave_wall")
    assert wall.import_image(str(picture), title="The great hunt", marks="spiral, spear")
    assert wall.list.count() == 1
    stored = j.cave_wall_image(demo, j.cave_wall(demo)[0].id)
    assert stored is not None and Image.open(io.BytesIO(stored)).size == (64, 48)
    wall.filter.setText("SPEAR")
    assert wall.list.count() == 1
    wall.filter.setText("hand")
    assert wall.list.count() == 0
    book.search_box.setText("spiral")
    hits = book.run_search()
    assert ("cave_wall", "The great hunt") in [(h.section, h.title) for h in hits]
    window.run_operation(operations.undo)
    window.refresh_all()
    assert j.cave_wall(demo) == []


def test_sketch_pad_draws_and_its_png_is_stored(qtbot: Any, demo: Any) -> None:
    from PySide6.QtCore import QPoint

    from companion.ui.journal_cave_wall import SketchPad

    pad = SketchPad()
    qtbot.addWidget(pad)
    pad.draw_line(QPoint(10, 10), QPoint(100, 80))
    window, journal = open_book(qtbot, demo)
    wall = journal.book.page("cave_wall")
    assert wall._run_add("A line", ["line"], pad.png(), "")
    [line] = j.cave_wall(demo)
    assert line.has_image and line.marks == ("line",)


def test_culture_and_decks_pages_write_through_operations(qtbot: Any, demo: Any) -> None:
    _, journal = open_book(qtbot, demo)
    book = journal.book
    book.turn_to("culture")
    culture = book.page("culture")
    box = culture.lists["pigments"]
    box.entry.setText("Red ochre")
    box.add()
    assert [box.list.item(n).text() for n in range(box.list.count())] == ["Red ochre"]
    book.turn_to("decks")
    decks = book.page("decks")
    decks.deck.setCurrentText("Night")
    decks.card.setText("N07")
    decks.change.setCurrentText("removed")
    decks.add()
    assert tree_texts(decks.tree)[0].startswith("Night | N07 | removed | 1")
    decks.tree.setCurrentItem(decks.tree.topLevelItem(0))
    decks.remove()
    assert decks.tree.topLevelItemCount() == 0


def test_pdf_export_of_the_demo_campaign(qtbot: Any, demo: Any, tmp_path: Path) -> None:
    from companion.ui.pdf_export import pdf_page_count, write_pdf

    j.add_cave_wall_illustration(demo, title="Hunt", marks=["spear"], image=_png())
    out = tmp_path / "journal.pdf"
    pages = write_pdf(demo, out)
    data = out.read_bytes()
    assert data.startswith(b"%PDF")
    assert pages >= 1 and pdf_page_count(data) == pages
    try:
        from PySide6.QtPdf import QPdfDocument
    except ImportError:
        return  # PySide6-Essentials has no QtPdf: the structure check above stands
    document = QPdfDocument()
    document.load(str(out))
    assert document.pageCount() == pages


def test_markdown_export_from_the_book(qtbot: Any, demo: Any, tmp_path: Path) -> None:
    _, journal = open_book(qtbot, demo)
    out = tmp_path / "journal.md"
    assert journal.book.export("md", str(out))
    text = out.read_text(encoding="utf-8")
    for heading in ("## Challenge Log", "## Culture", "## Outposts", "## Valley Map",
                    "## Behemoths", "## Decks", "## Primal Cave Wall", "## Legends",
                    "## History"):
        assert heading in text
    assert "The Ember Folk set out into the thawing valley." in text


def _png() -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (30, 20), "#7a2e12").save(out, format="PNG")
    return out.getvalue()


def test_pdf_export_from_the_book_paints_on_a_worker(qtbot: Any, demo: Any,
                                                     tmp_path: Path) -> None:
    """The book's PDF button: read on the GUI thread, pages painted behind a progress
    dialog, the window never frozen; the file is a PDF with the journal's pages."""
    from companion.ui.pdf_export import pdf_page_count

    _, journal = open_book(qtbot, demo)
    out = tmp_path / "journal.pdf"
    assert journal.book.export("pdf", str(out))
    data = out.read_bytes()
    assert data.startswith(b"%PDF") and pdf_page_count(data) >= 1
