"""The Journal as a book: one page per section of the game's journal (Rulebook: Using the
Journal), a contents list to turn to any of them, and one search over everything.

Contracts:
- ``JournalBook(window, history)`` takes the main window (``campaign``,
  ``run_operation``, ``campaign_changed``) and the History page (the event list and the
  entry box of ``views/journal.py``), which it shows first;
- every write goes through ``window.run_operation`` with an operation of
  ``companion.operations.journal`` (one transaction each, undoable);
- pages refresh lazily: a change marks them stale, the page on show reloads.

One module per section (or per few small ones of a kind) above the shared ``page``; the
``book`` binds them; this package face keeps every public name importable from here.
"""

from companion.ui.journal_book.book import JournalBook, SearchPage
from companion.ui.journal_book.challenge_log import ChallengeLogPage
from companion.ui.journal_book.codex import CodexPage
from companion.ui.journal_book.culture import CultureListBox, CulturePage
from companion.ui.journal_book.decks import DecksPage
from companion.ui.journal_book.entries import EntriesPage, NotesPage
from companion.ui.journal_book.legends import LegendsPage
from companion.ui.journal_book.page import ROW_ID, Page, TablePage
from companion.ui.journal_book.valley import BehemothsPage, OutpostsPage, ValleyMapPage

__all__ = [
    "ROW_ID",
    "BehemothsPage",
    "ChallengeLogPage",
    "CodexPage",
    "CultureListBox",
    "CulturePage",
    "DecksPage",
    "EntriesPage",
    "JournalBook",
    "LegendsPage",
    "NotesPage",
    "OutpostsPage",
    "Page",
    "SearchPage",
    "TablePage",
    "ValleyMapPage",
]
