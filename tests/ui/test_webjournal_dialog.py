"""File ▸ Import from the Campaign Journal… (preview, choices, report) and File ▸ Export
for the Campaign Journal…, through the real menu items and controls."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QDialog, QFileDialog

from companion import operations
from companion.operations import journal as j
from companion.operations import webjournal as wj
from companion.ui.main_window import MainWindow
from companion.ui.webjournal_dialog import WebJournalDialog
from tests.ui.helpers import make_window

FIXTURES = Path(__file__).parents[1] / "operations" / "fixtures"
V3 = FIXTURES / "web-journal-v3.json"
V2 = FIXTURES / "web-journal-v2.json"
V2_EARLY = FIXTURES / "web-journal-v2-early.json"


def menu_action(window: MainWindow, text: str) -> Any:
    for menu in window.menuBar().findChildren(type(window.menuBar().actions()[0].menu())):
        for action in menu.actions():
            if action.text().replace("&", "") == text:
                return action
    raise AssertionError(f"no menu item {text!r}")


def open_dialog(qtbot: Any, window: MainWindow) -> WebJournalDialog:
    menu_action(window, "Import from the Campaign Journal…").trigger()
    dialogs = [w for w in QApplication.topLevelWidgets()
               if isinstance(w, WebJournalDialog) and w.isVisible()]
    assert len(dialogs) == 1
    qtbot.addWidget(dialogs[0])
    return dialogs[0]


def report_notes(dialog: WebJournalDialog) -> list[str]:
    """The notes the import's report page lists."""
    return [dialog.report_notes.item(n).text() for n in range(dialog.report_notes.count())]


def import_through_the_dialog(qtbot: Any, monkeypatch: Any, campaign: operations.Campaign,
                              source: Path) -> tuple[MainWindow, WebJournalDialog]:
    """``source`` imported into ``campaign`` from the menu, every choice as it comes: the
    window, and the dialog at its report."""
    window = make_window(qtbot, campaign)
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(source), ""))
    dialog = open_dialog(qtbot, window)
    qtbot.mouseClick(dialog.import_button, Qt.MouseButton.LeftButton)
    return window, dialog


def test_import_into_the_open_campaign_with_a_preview(qtbot: Any, tmp_path: Path,
                                                      monkeypatch: Any) -> None:
    campaign, _ = wj.import_new(V2, tmp_path / "old.stonesaga")
    window = make_window(qtbot, campaign)
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(V3), ""))
    dialog = open_dialog(qtbot, window)
    rows = {dialog.sections.topLevelItem(n).text(0): [
        dialog.sections.topLevelItem(n).text(c) for c in (1, 2, 3)]
        for n in range(dialog.sections.topLevelItemCount())}
    assert rows["Crafting codes"] == ["6", "1", "1"]
    assert rows["Behemoths"] == ["1", "0", "0"]
    differences = [dialog.conflicts.topLevelItem(n).text(1)
                   for n in range(dialog.conflicts.topLevelItemCount())]
    assert differences == ["Y1111 Rope", "Tribe name: The Reed People"]
    dialog.resize(960, 600)
    dialog.grab().save(str(tmp_path / "webjournal-preview.png"))
    # Leave the notes out; take the file's side for the crafting codes.
    notes = dialog.choices["notes"]
    notes.setCurrentIndex(notes.findData("skip"))
    codes = dialog.choices["codes"]
    codes.setCurrentIndex(codes.findData("theirs"))
    assert dialog.choices["behemoths"].findData("theirs") == -1  # nothing differs there
    qtbot.mouseClick(dialog.import_button, Qt.MouseButton.LeftButton)
    assert dialog.stack.currentWidget() is dialog.report_page
    report = [dialog.report_sections.topLevelItem(n).text(c)
              for n in range(dialog.report_sections.topLevelItemCount()) for c in (0, 1, 2)]
    assert report[:3] == ["Crafting codes", "6", "1 (1 taken from the Journal)"]
    assert "Note pages" in report and "left out" in report
    notes_shown = report_notes(dialog)
    assert not any(n.startswith("Kept as a note page") for n in notes_shown)
    dialog.grab().save(str(tmp_path / "webjournal-report.png"))
    assert "Kim's theories" not in [n.title for n in j.note_pages(campaign)]
    assert window.undo_action.isEnabled()
    assert window.undo_action.text().endswith("Imported the web journal web-journal-v3.json")
    window.undo_action.trigger()
    assert "B2131" not in {c for c, _, _ in j.crafting_codes(campaign)}
    campaign.close()


def test_issue35_7_the_dialog_says_what_the_merge_does_and_did(
        qtbot: Any, tmp_path: Path, monkeypatch: Any) -> None:
    """A campaign from the Journal, edited here since (a pigment deleted, the taboo
    rewritten); the Journal's later file deleted a behemoth: the preview says what the
    merge would do to each difference, the report what it did, in words."""
    from tests.operations.test_webjournal_merge import PLAYED, delete_in_journal, now_ms

    campaign, _ = wj.import_new(PLAYED, tmp_path / "reed.stonesaga")
    culture = j.culture(campaign).lists
    j.remove_culture_entry(campaign, entry_id=culture["pigments"][0].id)
    j.edit_culture_entry(campaign, entry_id=culture["taboos"][0].id, text="Never fish at dusk")
    data = json.loads(PLAYED.read_text())
    delete_in_journal(data["behemoths"][1], now_ms() + 60_000)
    later = tmp_path / "later.json"
    later.write_text(json.dumps(data))
    window = make_window(qtbot, campaign)
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(later), ""))
    dialog = open_dialog(qtbot, window)
    would = {dialog.conflicts.topLevelItem(n).text(1): dialog.conflicts.topLevelItem(n).text(2)
             for n in range(dialog.conflicts.topLevelItemCount())}
    assert would == {"Pigments: Red ochre": "Kept here (deleted here)",
                     "Taboos: Never hunt on the night of the comet": "Kept here (newer here)",
                     "Glass Heron (deleted in the web journal)": "Deleted (as in the Journal)"}
    culture_choice = dialog.choices["culture"]
    culture_choice.setCurrentIndex(culture_choice.findData("theirs"))
    assert dialog.conflicts.topLevelItem(0).text(2) == \
        "Taken from the Journal (your choice)"
    culture_choice.setCurrentIndex(culture_choice.findData("newer"))
    dialog.resize(960, 600)
    dialog.grab().save(str(tmp_path / "webjournal-merge-preview.png"))
    qtbot.mouseClick(dialog.import_button, Qt.MouseButton.LeftButton)
    did = [(dialog.report_outcomes.topLevelItem(n).text(0),
            dialog.report_outcomes.topLevelItem(n).text(1))
           for n in range(dialog.report_outcomes.topLevelItemCount())]
    assert ("Kept here (deleted here)", "Pigments: Red ochre") in did
    assert ("Deleted (as in the Journal)", "Glass Heron (deleted in the web journal)") in did
    sections = {dialog.report_sections.topLevelItem(n).text(0):
                dialog.report_sections.topLevelItem(n).text(2)
                for n in range(dialog.report_sections.topLevelItemCount())}
    assert sections["Culture"] == "2 (2 kept here)"
    assert sections["Behemoths"] == "1 (1 deleted)"
    dialog.grab().save(str(tmp_path / "webjournal-merge-report.png"))
    campaign.close()


def no_campaign_choosing_v3(qtbot: Any, tmp_path: Path, monkeypatch: Any) -> MainWindow:
    """A main window with no campaign; the file dialogs pick the web journal's v3 file and
    save the new campaign as reed.stonesaga."""
    window = MainWindow()
    qtbot.addWidget(window)
    window.show()
    dest = tmp_path / "reed.stonesaga"
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(V3), ""))
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(dest), ""))
    choose_then_import(monkeypatch)
    return window


def choose_then_import(monkeypatch: Any) -> None:
    """Import's "where to keep it" dialog: Choose… (the Save dialog) then Import."""
    from companion.ui.import_place import ImportPlaceDialog

    def answer(dialog: ImportPlaceDialog) -> int:
        dialog.choose()
        return int(QDialog.DialogCode.Accepted)

    monkeypatch.setattr(ImportPlaceDialog, "exec", answer)


def test_import_without_a_campaign_makes_a_new_one(qtbot: Any, tmp_path: Path,
                                                   monkeypatch: Any) -> None:
    window = no_campaign_choosing_v3(qtbot, tmp_path, monkeypatch)
    dialog = open_dialog(qtbot, window)
    assert dialog.stack.currentWidget() is dialog.report_page
    assert window.campaign is not None and window.campaign.title == "The Reed People"
    assert dialog.report_sections.topLevelItem(0).text(1) == "8"
    window.campaign.close()


def test_a_bad_file_is_refused_in_game_words(qtbot: Any, tmp_path: Path, monkeypatch: Any,
                                             refusals: list[str]) -> None:
    window = MainWindow()
    qtbot.addWidget(window)
    window.show()
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"app": "Stonesaga Crafting Journal", "version": 3,
                               "recipes": [{"id": "IT1", "codes": [{"color": "Blue"}]}]}))
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(bad), ""))
    monkeypatch.setattr(QFileDialog, "getSaveFileName",
                        lambda *a, **k: (str(tmp_path / "new.stonesaga"), ""))
    menu_action(window, "Import from the Campaign Journal…").trigger()
    assert len(refusals) == 1 and "recipes[0].codes[0].digits" in refusals[0]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.json"]


def test_export_for_the_campaign_journal(qtbot: Any, tmp_path: Path, monkeypatch: Any) -> None:
    campaign, _ = wj.import_new(V3, tmp_path / "reed.stonesaga")
    window = make_window(qtbot, campaign)
    out = tmp_path / "back.json"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(out), ""))
    action = menu_action(window, "Export for the Campaign Journal…")
    assert action.isEnabled()
    action.trigger()
    document = json.loads(out.read_text(encoding="utf-8"))
    assert document["version"] == 5 and len(document["recipes"]) == 3
    assert "3 recipes" in window.statusBar().currentMessage()
    campaign.close()


def reed_people_book(qtbot: Any, tmp_path: Path) -> tuple[Any, Any, Any]:
    """The web journal's v3 file imported, its campaign shown at the Journal book."""
    from companion.ui.journal_book import JournalBook

    campaign, _ = wj.import_new(V3, tmp_path / "reed.stonesaga")
    window = make_window(qtbot, campaign)
    window.show_view("journal")
    book = window.findChild(JournalBook)
    assert book is not None
    return campaign, window, book


def test_note_pages_in_the_journal_book(qtbot: Any, tmp_path: Path) -> None:
    from companion.ui.journal_book import NotesPage

    campaign, window, book = reed_people_book(qtbot, tmp_path)
    book.turn_to("notes")
    page = book.page_of["notes"]
    assert isinstance(page, NotesPage)
    titles = [page.list.item(n).text() for n in range(page.list.count())]
    assert titles == ["Kim's theories"]
    assert "willow roots" in page.text.toPlainText()
    book.search_box.setText("willow")
    book.run_search()
    found = book.search_page.tree.topLevelItem(0)
    assert found.text(0) == "Note pages" and found.text(1) == "Kim's theories"
    operations.undo(campaign)
    campaign.close()


def test_import_campaign_menu_shows_the_report_for_a_web_journal(
        qtbot: Any, tmp_path: Path, monkeypatch: Any) -> None:
    window = no_campaign_choosing_v3(qtbot, tmp_path, monkeypatch)
    menu_action(window, "Import Campaign…").trigger()
    dialogs = [w for w in QApplication.topLevelWidgets()
               if isinstance(w, WebJournalDialog) and w.isVisible()]
    assert len(dialogs) == 1
    qtbot.addWidget(dialogs[0])
    assert dialogs[0].stack.currentWidget() is dialogs[0].report_page
    assert window.campaign is not None and window.campaign.path == tmp_path / "reed.stonesaga"
    window.campaign.close()


def test_the_report_page_names_a_custom_material_still_waiting(qtbot: Any, tmp_path: Path,
                                                               monkeypatch: Any) -> None:
    data = json.loads(V3.read_text(encoding="utf-8"))
    data["customMaterials"].append({"name": "Strange Shard", "cat": "unknown",
                                    "processed": None, "image": None,
                                    "marks": ["Silver 1", None, None, None], "notes": None})
    src = tmp_path / "shard.json"
    src.write_text(json.dumps(data), encoding="utf-8")
    campaign, _ = wj.import_new(V2, tmp_path / "old.stonesaga")
    _, dialog = import_through_the_dialog(qtbot, monkeypatch, campaign, src)
    shown = report_notes(dialog)
    assert any(line.startswith("Custom material Strange Shard: its category is 'unknown'")
               for line in shown)
    campaign.close()


def test_the_report_page_says_custom_materials_joined_my_cards(qtbot: Any, tmp_path: Path,
                                                               monkeypatch: Any) -> None:
    """Issue 18 item 1, through the real controls: the import dialog's report names the
    material written into the user's own pack, and that undo leaves it there; My Cards
    lists it and the crafting explorer's "any materials" mode offers it."""
    from companion.ui.crafting_dialog import ANY_MATERIALS, CraftingDialog
    from companion.ui.my_cards import MyCardsWindow

    campaign, _ = wj.import_new(V2_EARLY, tmp_path / "old.stonesaga")
    window, dialog = import_through_the_dialog(qtbot, monkeypatch, campaign, V3)
    shown = report_notes(dialog)
    (added,) = [line for line in shown if line.startswith("Custom materials added")]
    assert "'My cards (Sample pack)' (Content ▸ My Cards): Glowing Moss." in added
    assert added.endswith(wj.MATERIALS_STAY)
    dialog.resize(960, 600)
    dialog.grab().save(str(tmp_path / "wj3-import-report.png"))
    menu_action(window, "My Cards…").trigger()
    (cards,) = [w for w in window.findChildren(MyCardsWindow) if w.isVisible()]
    pack = cards.tree.topLevelItem(0)
    assert [pack.child(n).text(1) for n in range(pack.childCount())] == ["Glowing Moss"]
    crafting = CraftingDialog(window)
    qtbot.addWidget(crafting)
    crafting.show()
    crafting.tabs.setCurrentIndex(1)
    crafting.scope.setCurrentIndex(crafting.scope.findData(ANY_MATERIALS))
    crafting.material_a.setCurrentIndex(crafting.material_a.findData("glowing-moss"))
    crafting.material_b.setCurrentIndex(crafting.material_b.findData("glowing-moss"))
    found = [crafting.tree.topLevelItem(i).child(j).text(0)
             for i in range(crafting.tree.topLevelItemCount())
             for j in range(crafting.tree.topLevelItem(i).childCount())]
    assert sorted(found) == ["Green 2112 (Gn2112)", "Yellow 1221 (Y1221)"]
    window.undo_action.trigger()
    assert "glowing-moss" in campaign.content.materials
    campaign.close()


def test_the_journal_book_shows_the_worded_demeanor_and_the_groups_mantle_powers(
        qtbot: Any, tmp_path: Path) -> None:
    """Using the Journal: the Behemoths page's Demeanor column shows the demeanor the
    web journal wrote in words; the Culture page's Mantle powers box lists the web
    journal's mantle powers in the group's words, and the book's search finds them."""
    from companion.ui.journal_book import BehemothsPage, CulturePage

    campaign, window, book = reed_people_book(qtbot, tmp_path)
    book.turn_to("behemoths")
    page = book.page_of["behemoths"]
    assert isinstance(page, BehemothsPage)
    row = page.tree.topLevelItem(0)
    headers = [page.tree.headerItem().text(c) for c in range(page.tree.columnCount())]
    shown = dict(zip(headers, [row.text(c) for c in range(len(headers))], strict=True))
    assert (shown["Behemoth"], shown["Lair"], shown["Demeanor"], shown["Notes"]) == (
        "Mossback", "VV02", "Restless", "Sleeps through the day.")
    window.resize(1366, 740)
    tabs = window.tabs
    tabs.setCurrentIndex(next(n for n in range(tabs.count())
                              if tabs.tabText(n).replace("&", "") == "Journal"))
    window.grab().save(str(tmp_path / "wj3-behemoths.png"))
    book.turn_to("culture")
    culture = book.page_of["culture"]
    assert isinstance(culture, CulturePage)
    words = culture.lists["mantle_powers"]
    assert [words.list.item(n).text() for n in range(words.list.count())] == [
        "Far Sight — Look two hexes ahead before moving."]
    window.grab().save(str(tmp_path / "wj3-culture.png"))
    book.search_box.setText("hexes ahead")
    book.run_search()
    found = book.search_page.tree.topLevelItem(0)
    assert (found.text(0), found.text(1)) == ("Culture", "Mantle powers (the group's words)")
    campaign.close()
