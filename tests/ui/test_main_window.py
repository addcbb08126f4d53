"""The main window on a real campaign: views, status bar, menus, undo naming the action."""

from __future__ import annotations

from typing import Any

from companion import __version__, operations
from companion.ui.main_window import MainWindow
from tests.ui.helpers import make_window


def test_window_starts_on_the_opening_page(qtbot: Any) -> None:
    window = MainWindow()
    qtbot.addWidget(window)
    assert window.centralWidget().currentWidget().objectName() == "openingLabel"
    assert not window.undo_action.isEnabled()


def test_views_and_status_bar_show_the_campaign(qtbot: Any, campaign: Any) -> None:
    window = make_window(qtbot, campaign)
    titles = [window.tabs.tabText(i).replace("&", "") for i in range(window.tabs.count())]
    assert titles == ["Valley", "Characters", "Day", "Journal", "Society", "Behemoth"]
    assert "The Ember Folk" in window.windowTitle()
    labels = {k: v.text() for k, v in window._status_labels.items()}
    assert labels["unrest"] == "Unrest: 0"
    assert labels["activity"] == "Activity: 0"
    assert labels["epoch"] == "Epoch 1"
    assert labels["challenge"] == "No challenge"


def test_menus_have_the_standard_entries(qtbot: Any, campaign: Any) -> None:
    window = make_window(qtbot, campaign)
    menus = {a.text().replace("&", ""): [x.text().replace("&", "") for x in a.menu().actions()
                                         if not x.isSeparator()]
             for a in window.menuBar().actions()}
    assert menus["File"][:3] == ["New Campaign…", "Open…", "Open Recent"]
    assert {"Save a Copy…", "Export Campaign…", "Import Campaign…", "Backups…", "Quit"} <= \
        set(menus["File"])
    assert menus["Edit"] == ["Undo", "Redo", "Save Point…", "Undo to Save Point…", "Settings…"]
    assert menus["Help"] == ["Getting Started…", "Rulebook Readings…",
                             "About Stonesaga Companion"]
    assert window.undo_action.shortcut().toString() == "Ctrl+Z"


def test_journal_entry_then_undo_names_the_action(qtbot: Any, campaign: Any) -> None:
    window = make_window(qtbot, campaign)
    journal = window.show_view("journal")  # in front, as a player sees it (issue 37)
    journal.entry.setText("We crossed the frozen river at dawn.")
    journal.add_button.click()
    assert journal.model.lines[0].text == "We crossed the frozen river at dawn."
    assert journal.entry.text() == ""
    assert window.undo_action.isEnabled()
    assert "frozen river" in window.undo_action.text()
    window.undo_action.trigger()
    assert journal.model.lines[0].text != "We crossed the frozen river at dawn." or \
        journal.model.lines[0].undone
    assert "frozen river" in window.redo_action.text()


def test_an_empty_entry_is_refused_and_changes_nothing(qtbot: Any, campaign: Any,
                                                      monkeypatch: Any) -> None:
    shown: list[str] = []
    monkeypatch.setattr("PySide6.QtWidgets.QMessageBox.warning",
                        lambda parent, title, text: shown.append(text))
    window = make_window(qtbot, campaign)
    before = campaign.status().journal_events
    assert not window.run_operation(operations.add_journal_entry, text="   ")
    assert shown == ["A journal entry needs some text."]
    assert campaign.status().journal_events == before


def test_society_view_lists_unrest_thresholds(qtbot: Any, campaign: Any) -> None:
    window = make_window(qtbot, campaign)
    society = window.view("society")
    texts = [society.thresholds.item(i).text() for i in range(society.thresholds.count())]
    assert len(texts) == 3
    assert texts[0].startswith("○ Unrest 6+: +1 activity each Night")


def test_about_names_the_version(qtbot: Any, campaign: Any, monkeypatch: Any) -> None:
    seen: list[str] = []
    monkeypatch.setattr("PySide6.QtWidgets.QMessageBox.about",
                        lambda parent, title, text: seen.append(text))
    window = make_window(qtbot, campaign)
    window._about()
    assert __version__ in seen[0]


def test_only_the_first_view_is_built_until_a_tab_is_shown(qtbot: Any, campaign: Any) -> None:
    """Start-up: the other tabs are built (and filled) when first shown."""
    from companion.ui.views.day import DayView
    from companion.ui.views.valley import ValleyView

    window = make_window(qtbot, campaign)
    assert window.findChildren(ValleyView) and not window.findChildren(DayView)
    window.tabs.setCurrentIndex(2)
    [day] = window.findChildren(DayView)
    assert window.view("day") is day
    assert window.current_view() is day  # in the empty page's place
    assert "nobody" in day.turn.text()  # filled from the campaign as it was built


def test_the_integrity_check_begins_once_the_campaign_is_shown(qtbot: Any, tmp_path: Any) -> None:
    """The background check (and the open backup) wait until the window is idle."""
    path = tmp_path / "Checked.stonesaga"
    operations.new_campaign(path, society_name="The Checked").close()
    campaign = operations.open_campaign(path, verify="background")
    window = make_window(qtbot, campaign)
    qtbot.waitUntil(campaign.file._check_now.is_set)
    campaign.file.wait_verified()
    window.close()
