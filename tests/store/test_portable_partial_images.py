"""An export holding an ordinary Day action imports again: a journal event's change
images hold only the columns the change touched, and the import checks each of those
columns' types instead of asking for whole rows (found by tests/packaging/test_wheel.py:
'table journal_event row 6: name: Field required' for any campaign with an action)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from companion import operations
from companion.cli import main
from companion.store import BadExportFile, export_campaign, import_campaign


def energy(capsys: Any, path: Path, name: str) -> int:
    assert main(["characters", str(path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    return next(int(c["energy"]) for c in data["characters"] if c["name"] == name)


@pytest.fixture
def acted(tmp_path: Path, capsys: Any) -> Path:
    """The demo campaign after one Day action (Actions > Gather Water: 1 energy)."""
    path = tmp_path / "demo.stonesaga"
    operations.create_demo_campaign(path).close()
    assert main(["act", str(path), "Ash", "water"]) == 0
    capsys.readouterr()
    return path


def test_an_export_after_a_day_action_imports_and_the_action_still_undoes(
        acted: Path, tmp_path: Path, capsys: Any) -> None:
    before = energy(capsys, acted, "Ash")
    export_campaign(acted, tmp_path / "out.json")
    import_campaign(tmp_path / "out.json", tmp_path / "back.stonesaga").close()
    back = tmp_path / "back.stonesaga"
    assert energy(capsys, back, "Ash") == before
    assert main(["undo", str(back)]) == 0
    assert "Undid: Ash gathered" in capsys.readouterr().out
    assert energy(capsys, back, "Ash") == before + 1


def test_a_change_image_of_the_wrong_type_is_still_refused(acted: Path,
                                                           tmp_path: Path) -> None:
    export_campaign(acted, tmp_path / "out.json")
    document = json.loads((tmp_path / "out.json").read_text(encoding="utf-8"))
    section = document["tables"]["journal_event"]
    changes = section["columns"].index("changes")
    image = next(c for r in section["rows"] for c in r[changes] or []
                 if c["table"] == "character" and "energy" in (c["after"] or {}))
    image["after"]["energy"] = "lots"
    (tmp_path / "bad.json").write_text(json.dumps(document), encoding="utf-8")
    with pytest.raises(BadExportFile, match="energy: Input should be a valid integer"):
        import_campaign(tmp_path / "bad.json", tmp_path / "bad.stonesaga")
    assert not (tmp_path / "bad.stonesaga").exists()
