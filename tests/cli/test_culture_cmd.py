"""Issue 35 item 10 from the terminal: ``culture add``/``culture list`` (Rulebook: Using
the Journal > Culture) and the effect words ``unlock delving`` and ``culture ability
NAME`` through ``effect``, ``record`` and ``codex outcome --effects``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from companion import operations
from companion.cli import main
from tests.cli.helpers import run


@pytest.fixture
def path(tmp_path: Path) -> str:
    """A society before its first challenge (Delving still locked, D4), with Ash."""
    p = str(tmp_path / "c.stonesaga")
    steps = [
        ("campaign", "new", "Folk", "--players", "1", "--solo", "hardcore", "--file", p,
         "--seed", "3"),
        ("valley", "setup", p, "emberfen"),
        ("character", "create", p, "--name", "Ash", "--player", "P1", "--dice", "6", "5",
         "4", "3", "2", "--assign", "might=6,dexterity=5,awareness=4,conviction=3",
         "--trait", "intrepid", "--mantle", "pathfinder", "--hex", "E01"),
    ]
    for argv in steps:
        assert main(list(argv)) == 0, argv
    return p


def culture(capsys: Any, path: str) -> dict[str, Any]:
    code, out, err = run(capsys, "culture", "list", path, "--json")
    assert code == 0, err
    return dict(json.loads(out)["culture"])


def delving(path: str) -> bool:
    with operations.open_campaign(Path(path)) as campaign, campaign.file.read() as session:
        from companion.store import models

        row = session.get(models.Campaign, 1)
        return bool(row and row.delving_unlocked)


def test_culture_add_then_list_then_undo(capsys: Any, path: str) -> None:
    capsys.readouterr()
    code, out, err = run(capsys, "culture", "add", path, "Fire", "Keeping")
    assert (code, out.strip()) == (0, "Culture ability gained: Fire Keeping"), err
    assert culture(capsys, path)["abilities"] == ["Fire Keeping"]
    code, out, _ = run(capsys, "culture", "list", path)
    assert "Culture abilities: Fire Keeping" in out
    code, _out, err = run(capsys, "culture", "add", path, "fire keeping")
    assert code == 1
    assert err.strip() == "refused: The society already has the culture ability Fire Keeping."
    assert run(capsys, "undo", path)[0] == 0
    assert culture(capsys, path)["abilities"] == []


@pytest.mark.parametrize("argv", [
    ("effect", "{p}", "Ash", "culture ability Star Reading", "unlock delving"),
    ("record", "{p}", "gain a culture ability Star Reading, unlock delving"),
    ("codex", "outcome", "{p}", "997", "--effects",
     "culture ability Star Reading, unlock delving"),
], ids=["effect", "record", "codex outcome --effects"])
def test_delving_and_culture_typed_from_a_card_or_the_codex(
        capsys: Any, path: str, argv: tuple[str, ...]) -> None:
    capsys.readouterr()
    assert not delving(path)
    code, out, err = run(capsys, *[a.format(p=path) for a in argv])
    assert code == 0, err
    assert "gain the culture ability Star Reading" in out and "unlock delving" in out
    assert culture(capsys, path)["abilities"] == ["Star Reading"]
    assert delving(path)
    assert run(capsys, "undo", path)[0] == 0
    assert culture(capsys, path)["abilities"] == [] and not delving(path)


def test_unlock_something_else_is_refused_in_words(capsys: Any, path: str) -> None:
    capsys.readouterr()
    code, _out, err = run(capsys, "effect", path, "Ash", "unlock the gate")
    assert code == 1 and "Traceback" not in err
    assert "An effect unlocks delving (e.g. 'unlock delving')" in err
    assert not delving(path)
