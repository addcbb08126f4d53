"""Issue 35 item 2: an import can no longer plant a history that breaks undo.

An export whose journal change for an inserted row lacked ``"after"`` (or a deleted
row's lacked ``"before"``) was accepted, and the first ``companion undo`` printed
``KeyError: 'after'``. Every change's shape is now checked on import, and a bad one is
refused naming the journal event, before anything is created.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from companion.cli import main

Change = dict[str, Any]


@pytest.fixture
def export(demo_path: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
           ) -> dict[str, Any]:
    """The demo campaign after one Day action, exported through the command line."""
    assert main(["act", demo_path, "Ash", "water"]) == 0
    out = tmp_path / "demo.json"
    assert main(["export", demo_path, str(out)]) == 0
    capsys.readouterr()
    document: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    return document


def _changes(document: dict[str, Any]) -> list[tuple[list[Any], list[Change]]]:
    section = document["tables"]["journal_event"]
    at = section["columns"].index("changes")
    return [(row, row[at]) for row in section["rows"] if row[at]]


def _event_text(document: dict[str, Any], row: list[Any]) -> str:
    return str(row[document["tables"]["journal_event"]["columns"].index("text")])


def _first(document: dict[str, Any], kind: Callable[[Change], bool]) -> tuple[str, Change]:
    """The text of the newest event with a change of ``kind``, and that change."""
    for row, changes in reversed(_changes(document)):
        for change in changes:
            if kind(change):
                return _event_text(document, row), change
    raise AssertionError("no such change")


def _inserted(change: Change) -> bool:
    return change["before"] is None


def _updated(change: Change) -> bool:
    return change["before"] is not None and change["after"] is not None


def _as_deletion(change: Change) -> None:
    """An inserted row's change turned into a deletion that lacks its "before"."""
    change.pop("before")
    change["after"] = None


def _wrong_type(change: Change) -> None:
    """A map column of an inserted row's image given as text."""
    image = change["after"]
    image[next(k for k, v in image.items() if isinstance(v, dict))] = "lots"


BROKEN: list[tuple[str, Callable[[Change], bool], Callable[[Change], None], str]] = [
    ("an inserted row without after", _inserted, lambda c: c.pop("after"),
     'lacks "after", so it could never be undone or redone'),
    ("a deleted row without before", _inserted, _as_deletion,
     'lacks "before", so it could never be undone or redone'),
    ("neither before nor after", _inserted, lambda c: c.update(after=None),
     'has neither "before" nor "after"'),
    ("a key no change has", _updated, lambda c: c.update(op="update"),
     "has keys no change has (op)"),
    ("an image of another row", _updated, lambda c: c["after"].update(id=c["id"] + 100),
     'its "after" is of row'),
    ("an update whose sides differ", _updated, lambda c: c["before"].pop(
        next(k for k in c["before"] if k != "id")), 'its "before" and "after" hold different'),
    ("a column the table lacks", _updated, lambda c: c["after"].update(wings=2),
     'its "after" names unknown columns (wings)'),
    ("an inserted row of the wrong type", lambda c: _inserted(c) and any(
        isinstance(v, dict) for v in c["after"].values()), _wrong_type,
     "Input should be a valid dictionary"),
]


@pytest.mark.parametrize(("case", "which", "mutate", "said"), BROKEN,
                         ids=[b[0] for b in BROKEN])
def test_issue35_2_a_change_undo_could_not_apply_is_refused_naming_the_event(
        export: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str],
        case: str, which: Callable[[Change], bool], mutate: Callable[[Change], None],
        said: str) -> None:
    text, change = _first(export, which)
    mutate(change)
    src = tmp_path / "planted.json"
    src.write_text(json.dumps(export), encoding="utf-8")
    dest = tmp_path / "planted.stonesaga"
    assert main(["import", str(src), str(dest)]) == 1
    err = capsys.readouterr().err
    assert "Traceback" not in err and "KeyError" not in err, err
    assert said in err, err
    assert "the journal's event" in err and text[:40] in err, err
    assert "Nothing was created" in err
    assert not dest.exists()
    # Nothing to undo in a campaign that was never made: refused in words, no KeyError.
    assert main(["undo", str(dest)]) == 1
    assert "KeyError" not in capsys.readouterr().err


def test_issue35_2_a_sound_export_imports_and_undoes_through_the_command_line(
        export: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = tmp_path / "sound.json"
    src.write_text(json.dumps(export), encoding="utf-8")
    dest = tmp_path / "sound.stonesaga"
    assert main(["import", str(src), str(dest)]) == 0
    capsys.readouterr()
    assert main(["undo", str(dest)]) == 0
    out = capsys.readouterr().out
    assert "Undid: Ash gathered" in out
    assert main(["redo", str(dest)]) == 0
