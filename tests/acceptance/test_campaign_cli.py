"""Acceptance: a two-character campaign played through the command line with ``--json``
(issue 16, "Done when"). Every step runs ``companion.cli.main`` in-process, as a player
at a terminal would, and is checked against values computed by hand from the sample pack
(content/sample/rules.yaml) and the rulebook. The steps share one campaign file and run in
order; each test is one moment of play.

Two characters: the rules' character scale gives each 5 health and 5 energy (D8:
``{characters: 2, health: 5, energy: 5}``); action costs from ``action_costs``:
forage 2, fish 2, mine 2, delve 1, craft 1, move 1, build_outpost 4 (shared),
Drying Rack 1 (items.yaml). Deterministic: the campaign's dice are seeded (``--seed 7``,
``--app``) and player choices are typed (``--choice``)."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path
from typing import Any

import pytest

from companion.cli import main

SEED = "7"


class Table:
    """The players' terminal: runs one command and reads its JSON answer."""

    def __init__(self, path: Path) -> None:
        self.path = str(path)

    def run(self, *argv: str) -> tuple[int, str, str]:
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main([a.replace("{p}", self.path) for a in argv])
            except SystemExit as stop:  # argparse refusing a command it does not know
                code = int(stop.code or 0)
        return code, out.getvalue(), err.getvalue()

    def js(self, *argv: str) -> dict[str, Any]:
        code, out, err = self.run(*argv, "--json")
        assert code == 0, err
        assert "Traceback" not in err
        data: dict[str, Any] = json.loads(out)
        return data

    def refused(self, *argv: str) -> str:
        before = self.journal_size()
        code, out, err = self.run(*argv)
        assert code == 1, (out, err)
        assert err.startswith("refused: "), err
        assert "Traceback" not in err
        assert self.journal_size() == before  # nothing changed
        return err.removeprefix("refused: ").strip()

    def journal_size(self) -> int:
        code, out, _ = self.run("status", self.path, "--json")
        return int(json.loads(out)["status"]["journal_events"]) if code == 0 else 0

    def status(self) -> dict[str, Any]:
        data: dict[str, Any] = self.js("status", self.path)["status"]
        return data

    def characters(self) -> dict[str, dict[str, Any]]:
        return {c["name"]: c for c in self.js("characters", self.path)["characters"]}

    def energy(self) -> dict[str, int]:
        return {n: c["energy"] for n, c in self.characters().items()}

    def holdings(self, name: str) -> dict[str, Any]:
        return self.js("exchange", "list", self.path, name)

    def last_journal(self, count: int = 1) -> list[str]:
        events = self.js("journal", "list", self.path)["events"]
        return [e["text"] for e in events[:count]]


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> Table:
    return Table(tmp_path_factory.mktemp("campaign") / "ember.stonesaga")


# --- Set Up -------------------------------------------------------------------------------


def test_set_up_a_new_society_the_thornspire_tray_and_the_long_thaw(table: Table) -> None:
    p = table.path
    assert table.js("campaign", "new", "The Ember Folk", "--players", "2", "--file", p,
                    "--seed", SEED)["society"] == "The Ember Folk"
    # Rulebook: Set Up > the first tray: the starting hex and the two face-down hexes drawn.
    assert table.js("valley", "setup", p, "thornspire", "--tiles", "T02", "T05")["detail"] \
        == ["T01", "T02", "T05"]
    assert table.js("challenge", "start", p, "C1")["summary"] \
        == "The challenge 'The Long Thaw' begins"
    status = table.status()
    assert (status["challenge_id"], status["activity"], status["unrest"], status["lore"]) \
        == ("C1", 0, 0, 0)


def test_character_creation_two_starting_characters_in_the_starting_hex(
        table: Table) -> None:
    """Rulebook: Character Creation, steps 1-2: five dice, the fifth left out (1); Bryn's
    abilities sum to 2+3+3+2 = 10 <= 11, so Bryn takes a second trait; each has a mantle
    and starts in the starting hex T01 with 5 energy and 5 health (D8, two characters)."""
    p = table.path
    assert table.js("character", "create", p, "--name", "Ash", "--player", "P1",
                    "--dice", "6", "5", "4", "3", "1",
                    "--assign", "might=6,dexterity=5,awareness=4,conviction=3",
                    "--trait", "cunning", "--mantle", "hearthkeeper", "--hex", "T01")["summary"] \
        == "Ash joined the society (Might 6, Dexterity 5, Awareness 4, Conviction 3; cunning)"
    assert table.js("character", "create", p, "--name", "Bryn", "--player", "P2",
                    "--dice", "2", "3", "3", "2", "1",
                    "--assign", "might=2,dexterity=3,awareness=3,conviction=2",
                    "--trait", "intrepid", "--trait", "wise", "--mantle", "pathfinder",
                    "--hex", "T01")["summary"] \
        == "Bryn joined the society (Might 2, Dexterity 3, Awareness 3, Conviction 2; " \
           "intrepid, wise)"
    chars = table.characters()
    assert {n: (c["energy"], c["energy_max"], c["health_max"], c["hex_id"], c["mantle"])
            for n, c in chars.items()} == {"Ash": (5, 5, 5, "T01", "Hearthkeeper"),
                                           "Bryn": (5, 5, 5, "T01", "Pathfinder")}
