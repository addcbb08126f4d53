"""Acceptance: the character creation rules a group at the table relies on, from the
command line (Rulebook: Character Creation; Players & Player Count, D8). Each refusal
must be in game words, exit 1 and change nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.acceptance.table import Table

BRYN = ["--dice", "2", "3", "3", "2", "1",
        "--assign", "might=2,dexterity=3,awareness=3,conviction=2"]


@pytest.fixture
def table(tmp_path: Path) -> Table:
    """A campaign for two characters with Ash already made in the starting hex T01."""
    table = Table(tmp_path / "c.stonesaga")
    p = table.path
    table.js("campaign", "new", "The Ember Folk", "--players", "2", "--file", p,
             "--seed", "7")
    table.js("valley", "setup", p, "thornspire", "--tiles", "T02", "T05")
    table.js("challenge", "start", p, "C1")
    table.js("character", "create", p, "--name", "Ash", "--dice", "6", "5", "4", "3", "1",
             "--assign", "might=6,dexterity=5,awareness=4,conviction=3",
             "--trait", "cunning", "--mantle", "hearthkeeper", "--hex", "T01")
    return table


@pytest.mark.parametrize(
    ("argv", "refusal"),
    [
        pytest.param(["--trait", "intrepid", "--trait", "wise", "--hex", "T01"],
                     "choose a mantle for the character (Step 3)",
                     id="character_creation_requires_a_mantle"),
        pytest.param(["--trait", "intrepid", "--mantle", "pathfinder", "--hex", "T01"],
                     "abilities summing to 10 call for a second trait; choose two",
                     id="character_creation_a_second_trait_when_abilities_sum_to_11_or_less"),
        pytest.param(["--trait", "intrepid", "--trait", "wise", "--mantle", "pathfinder",
                      "--hex", "T02"],
                     "Bryn begins in the starting hex or a hex with an outpost (T01); "
                     "T02 is neither",
                     id="starting_characters_only_in_the_starting_hex"),
    ])
def test_character_creation_refusals(table: Table, argv: list[str], refusal: str) -> None:
    """2 + 3 + 3 + 2 = 10 <= 11 (rules.yaml second_trait_max_sum)."""
    assert table.refused("character", "create", table.path, "--name", "Bryn", *BRYN,
                         *argv) == refusal


def test_players_and_player_count_d8_a_third_character_is_refused(table: Table) -> None:
    table.js("character", "create", table.path, "--name", "Bryn", *BRYN, "--trait",
             "intrepid", "--trait", "wise", "--mantle", "pathfinder", "--hex", "T01")
    assert table.refused("character", "create", table.path, "--name", "Cai", *BRYN,
                         "--trait", "intrepid", "--trait", "wise", "--mantle", "loreweaver",
                         "--hex", "T01") == "this campaign plays with 2 characters: Ash, " \
                                           "Bryn are in play"


def test_continuing_play_a_malformed_retain_is_refused_and_changes_nothing(
        table: Table) -> None:
    """Bad input: `--retain Ash` (no ITEMS:BAG) must be refused in game words, the
    challenge still in play, rather than end it with Ash retaining nothing."""
    table.js("effect", table.path, "Ash", "item stone-knife")
    assert table.refused("challenge", "end", table.path, "104", "--retain", "Ash")
    assert table.status()["challenge_id"] == "C1"
