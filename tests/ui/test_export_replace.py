"""Issue 35 items 5 and 6 in the window: File ▸ Export Campaign asks before it replaces a
file that is not an export (through a link too), and export and import show their
progress as a bar that the store reports to."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtWidgets import QFileDialog, QMessageBox

from companion import operations
from companion.ui import progress
from tests.ui.helpers import make_window
from tests.ui.test_webjournal_dialog import choose_then_import, menu_action


class Answers(list[str]):
    """The replace question's answers, by button text, taken in turn; ``shown`` keeps
    the texts the question showed."""

    shown: list[str]


@pytest.fixture
def answers(monkeypatch: Any) -> Answers:
    given = Answers()
    given.shown = []

    def exec_(box: QMessageBox) -> int:
        given.shown.append(box.text())
        wanted = given.pop(0)
        next(b for b in box.buttons() if b.text().replace("&", "") == wanted).click()
        return 0

    monkeypatch.setattr(QMessageBox, "exec", exec_)
    return given


def _export_to(monkeypatch: Any, path: Path) -> None:
    monkeypatch.setattr(QFileDialog, "getSaveFileName",
                        lambda *args: (str(path), args[3]))


def test_issue35_5_a_file_that_is_not_an_export_is_kept_unless_the_player_says_replace(
        qtbot: Any, demo: operations.Campaign, tmp_path: Path, monkeypatch: Any,
        answers: Answers, refusals: list[str]) -> None:
    window = make_window(qtbot, demo)
    letters = tmp_path / "letters.txt"
    letters.write_text("Dear Kim,", encoding="utf-8")
    link = tmp_path / "saga.json"
    link.symlink_to(letters)
    _export_to(monkeypatch, link)
    answers.append("Keep It")
    menu_action(window, "Export Campaign…").trigger()
    assert letters.read_text(encoding="utf-8") == "Dear Kim,"
    assert "is a file that is not a campaign export" in answers.shown[-1]
    assert "the link" in answers.shown[-1] and "saga.json" in answers.shown[-1]
    answers.append("Replace It")
    menu_action(window, "Export Campaign…").trigger()
    assert not refusals
    assert link.is_symlink() and letters.read_text(encoding="utf-8").startswith("{")


def test_issue35_5_an_earlier_export_is_replaced_after_the_usual_question(
        qtbot: Any, demo: operations.Campaign, tmp_path: Path, monkeypatch: Any,
        refusals: list[str]) -> None:
    window = make_window(qtbot, demo)
    out = tmp_path / "saga.stonesaga-export.json"
    operations.export_campaign(demo, out)
    out.write_text(out.read_text(encoding="utf-8").replace("\n", "\n\n", 1),
                   encoding="utf-8")
    asked: list[str] = []
    monkeypatch.setattr(QMessageBox, "question", lambda parent, title, text, *_: (
        asked.append(text), QMessageBox.StandardButton.Yes)[1])
    _export_to(monkeypatch, out)
    menu_action(window, "Export Campaign…").trigger()
    assert not refusals and asked == [f"{out.name} already exists. Replace it?"]
    assert "\n\n" not in out.read_text(encoding="utf-8")


def test_issue35_6_export_and_import_report_their_progress_to_the_bar(
        qtbot: Any, demo: operations.Campaign, tmp_path: Path, monkeypatch: Any,
        refusals: list[str]) -> None:
    window = make_window(qtbot, demo)
    texts: list[tuple[int, int, str]] = []
    original = progress.QProgressDialog.setLabelText

    def label(dialog: Any, text: str) -> None:
        texts.append((dialog.value(), dialog.maximum(), text))
        original(dialog, text)

    monkeypatch.setattr(progress.QProgressDialog, "setLabelText", label)
    out = tmp_path / "saga.stonesaga-export.json"
    _export_to(monkeypatch, out)
    menu_action(window, "Export Campaign…").trigger()
    assert any(text.startswith("Writing the history:") for _, _, text in texts), texts
    assert texts[-1][0] == texts[-1][1] > 0  # the bar ends full
    texts.clear()
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *args: (str(out), args[3]))
    _export_to(monkeypatch, tmp_path / "again.stonesaga")
    choose_then_import(monkeypatch)  # where to keep it: the Save dialog's answer
    menu_action(window, "Import Campaign…").trigger()
    assert not refusals
    assert any(text.startswith("Reading ") for _, _, text in texts), texts
    assert (tmp_path / "again.stonesaga").exists()
