"""The Journal book itself: its contents list, the pages of its sections in the
rulebook's order (the History page first), one search over everything with its results
page, and the exports.

Contracts:
- ``JournalBook(window, history)`` takes the main window (``campaign``,
  ``run_operation``, ``campaign_changed``) and the History page (the event list and the
  entry box of ``views/journal.py``), which it shows first;
- pages refresh lazily: a change marks them stale, the page on show reloads.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import (
    QComboBox,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QPushButton,
    QSpinBox,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from companion.ui.journal_book.challenge_log import ChallengeLogPage
from companion.ui.journal_book.codex import CodexPage
from companion.ui.journal_book.culture import CulturePage
from companion.ui.journal_book.decks import DecksPage
from companion.ui.journal_book.entries import EntriesPage, NotesPage
from companion.ui.journal_book.legends import LegendsPage
from companion.ui.journal_book.page import ROW_ID, TablePage, item
from companion.ui.journal_book.valley import BehemothsPage, OutpostsPage, ValleyMapPage
from companion.ui.journal_cave_wall import CaveWallPage

if TYPE_CHECKING:
    from companion.operations import Campaign


class SearchPage(TablePage):
    """What the search found, section by section; double-click turns to the section."""

    title = "Search results"
    headers = ("Section", "Title", "Found", "When")

    def __init__(self, window: Any, turn_to: Callable[[str], None]) -> None:
        super().__init__(window)
        self.turn_to = turn_to
        self.hits: list[Any] = []

    def build(self) -> None:
        self.summary = QLabel("Type in the search box above.")
        self.tree.itemDoubleClicked.connect(
            lambda row, _col: self.turn_to(str(row.data(1, ROW_ID))))
        self.layout_.addWidget(self.summary)

    def show_hits(self, query: str, hits: Sequence[Any]) -> None:
        self.hits = list(hits)
        self.tree.clear()
        for hit in hits:
            row = item((hit.section_title, hit.title, hit.text, hit.when or ""), hit.row_id)
            row.setData(1, ROW_ID, hit.section)
            self.tree.addTopLevelItem(row)
        self.summary.setText(f"{len(hits)} found for '{query}'." if hits
                             else f"Nothing in the journal mentions '{query}'.")

    def refresh(self, campaign: Campaign | None) -> None:
        pass  # results stay until the next search


class JournalBook(QWidget):
    """The Journal tab's book: contents, pages, search and exports."""

    def __init__(self, window: Any, history: QWidget) -> None:
        from companion.operations.journal import SECTIONS

        super().__init__()
        self.window_ = window
        self.history = history
        self.search_box = QLineEdit()
        self.search_box.setPlaceholderText("Search the journal: text, marks, IDs…")
        self.search_box.setAccessibleName("Search the journal")
        self.search_box.setClearButtonEnabled(True)
        self.search_box.returnPressed.connect(self.run_search)
        self._debounce = QTimer(self)
        self._debounce.setSingleShot(True)
        self._debounce.setInterval(300)
        self._debounce.timeout.connect(self.run_search)
        self.search_box.textEdited.connect(lambda _t: self._debounce.start())
        self.section_filter = QComboBox()
        self.section_filter.setAccessibleName("Search in section")
        self.section_filter.addItem("All sections", None)
        for key, title in SECTIONS.items():
            self.section_filter.addItem(title, key)
        self.epoch_filter = QSpinBox()
        self.epoch_filter.setAccessibleName("Search in epoch")
        self.epoch_filter.setRange(0, 99)
        self.epoch_filter.setSpecialValueText("Any epoch")
        self.epoch_filter.setPrefix("Epoch ")
        self.challenge_filter = QComboBox()
        self.challenge_filter.setAccessibleName("Search in challenge")
        self.challenge_filter.addItem("Any challenge", None)
        for widget in (self.section_filter, self.challenge_filter):
            widget.currentIndexChanged.connect(lambda _i: self._rerun())
        self.epoch_filter.valueChanged.connect(lambda _v: self._rerun())
        self.codex_button = QPushButton("&Codex…")
        self.codex_button.setToolTip("Read one Codex entry (recorded in the journal)")
        self.codex_button.clicked.connect(self.open_codex)
        self.pdf_button = QPushButton("Export &PDF…")
        self.pdf_button.clicked.connect(lambda: self.export("pdf"))
        self.md_button = QPushButton("Export &Markdown…")
        self.md_button.clicked.connect(lambda: self.export("md"))
        bar = QHBoxLayout()
        bar.addWidget(self.search_box, 1)
        tools: tuple[QWidget, ...] = (self.section_filter, self.epoch_filter,
                                      self.challenge_filter, self.codex_button,
                                      self.pdf_button, self.md_button)
        for tool in tools:
            bar.addWidget(tool)

        self.contents = QListWidget()
        self.contents.setAccessibleName("Journal sections")
        self.pages = QStackedWidget()
        self.search_page = SearchPage(window, self.turn_to)
        self.cave_wall = CaveWallPage(window)
        built: list[tuple[str, QWidget]] = [
            ("history", history),
            ("entries", EntriesPage(window)),
            ("challenges", ChallengeLogPage(window)),
            ("culture", CulturePage(window)),
            ("outposts", OutpostsPage(window)),
            ("valley", ValleyMapPage(window)),
            ("behemoths", BehemothsPage(window)),
            ("decks", DecksPage(window)),
            ("cave_wall", self.cave_wall),
            ("legends", LegendsPage(window)),
            ("notes", NotesPage(window)),
            ("codex", CodexPage(window)),
            ("search", self.search_page),
        ]
        titles = {**SECTIONS, "codex": "Omens & Codes", "search": "Search results"}
        self.keys: list[str] = []
        for key, page in built:
            self.keys.append(key)
            self.contents.addItem(titles[key])
            self.pages.addWidget(page)
        self.page_of: dict[str, Any] = dict(built)
        self._stale = set(self.keys)
        self.contents.currentRowChanged.connect(self._show_row)
        metrics = self.contents.fontMetrics()
        self.contents.setFixedWidth(max(metrics.horizontalAdvance(t) for t in titles.values())
                                    + 4 * metrics.averageCharWidth() + 8)
        self.contents.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.contents.setSpacing(2)
        body = QHBoxLayout()
        body.addWidget(self.contents)
        body.addWidget(self.pages, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(bar)
        layout.addLayout(body, 1)
        self.contents.setCurrentRow(0)

    # -- pages ------------------------------------------------------------------------

    def page(self, key: str) -> Any:
        return self.page_of[key]

    def turn_to(self, key: str) -> None:
        """Show the section ``key`` (a key of ``journal.SECTIONS``, 'codex' or 'search')."""
        if key == "omens" or key == "codes":
            key = "codex"
        if key in self.keys:
            self.contents.setCurrentRow(self.keys.index(key))

    def _show_row(self, row: int) -> None:
        if row < 0:
            return
        self.pages.setCurrentIndex(row)
        self._refresh_page(self.keys[row])

    def _refresh_page(self, key: str) -> None:
        if key not in self._stale or key == "history":
            return
        self._stale.discard(key)
        page = self.page_of[key]
        page.refresh(self.window_.campaign)

    def refresh(self) -> None:
        """The campaign changed: every page is stale; the one on show reloads now."""
        self._stale = set(self.keys)
        self._refresh_challenges()
        self._refresh_page(self.keys[self.pages.currentIndex()])
        if self.search_box.text().strip() and self.pages.currentIndex() == \
                self.keys.index("search"):
            self.run_search()

    def _refresh_challenges(self) -> None:
        from companion.operations import journal as j

        campaign = self.window_.campaign
        current = self.challenge_filter.currentData()
        self.challenge_filter.blockSignals(True)
        self.challenge_filter.clear()
        self.challenge_filter.addItem("Any challenge", None)
        seen = set()
        for line in j.challenge_log(campaign) if campaign else []:
            if line.challenge_id not in seen:
                seen.add(line.challenge_id)
                self.challenge_filter.addItem(line.challenge_name, line.challenge_id)
        index = self.challenge_filter.findData(current)
        self.challenge_filter.setCurrentIndex(max(index, 0))
        self.challenge_filter.blockSignals(False)

    # -- search ------------------------------------------------------------------------

    def _rerun(self) -> None:
        if self.search_box.text().strip():
            self.run_search()

    def run_search(self) -> list[Any]:
        """Search with the box's text and the filters; show the results page."""
        from companion.operations import Refused
        from companion.operations import journal as j

        self._debounce.stop()
        campaign = self.window_.campaign
        query = self.search_box.text().strip()
        if campaign is None or not query:
            return []
        section = self.section_filter.currentData()
        try:
            hits = j.search(campaign, query, sections=[section] if section else None,
                            epoch=self.epoch_filter.value() or None,
                            challenge=self.challenge_filter.currentData())
        except Refused as exc:
            self.search_page.summary.setText(str(exc))
            return []
        self.search_page.show_hits(query, hits)
        self.turn_to("search")
        return hits

    # -- codex and exports -------------------------------------------------------------------

    def open_codex(self) -> None:
        from companion.ui.codex_dialog import CodexDialog

        CodexDialog(self.window_, parent=self).exec()

    def export(self, kind: str, path: str | None = None) -> bool:
        """Export the journal as PDF or Markdown (asks where when ``path`` is None)."""
        from pathlib import Path

        from PySide6.QtWidgets import QMessageBox

        campaign = self.window_.campaign
        if campaign is None:
            return False
        if path is None:
            suffix = "pdf" if kind == "pdf" else "md"
            path, _ = QFileDialog.getSaveFileName(
                self, "Export the journal", str(campaign.path.with_suffix(f".journal.{suffix}")),
                "PDF (*.pdf)" if kind == "pdf" else "Markdown (*.md)")
            if not path:
                return False
        try:
            if kind == "pdf":
                from companion.ui import pdf_export
                from companion.ui.progress import run_with_progress

                # Read on this thread (the campaign and the map are its own); lay out
                # and paint the pages on a worker, so a long journal never freezes.
                prepared = pdf_export.prepare(campaign)
                pages = run_with_progress(self.window_, "Writing the journal PDF",
                                          pdf_export.paint_pdf, prepared, Path(path))
                message = f"Journal exported to {path} ({pages} pages)"
            else:
                from companion.operations.export import journal_markdown

                Path(path).write_text(journal_markdown(campaign), encoding="utf-8")
                message = f"Journal exported to {path}"
        except OSError as exc:
            QMessageBox.warning(self, "Export failed", f"Could not write {path}: {exc}")
            return False
        status = getattr(self.window_, "statusBar", None)
        if callable(status):
            status().showMessage(message, 6000)
        return True
