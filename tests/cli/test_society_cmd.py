"""The society, legends and challenge commands through ``companion.cli.main`` with
``--json`` (Rulebook: Tracks; Legends; Continuing Play)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from companion import operations
from companion.cli import main


def run(capsys: Any, *argv: str) -> tuple[int, Any, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, (json.loads(out) if out.strip().startswith("{") else out), err


@pytest.fixture
def demo_path(tmp_path: Path) -> str:
    path = tmp_path / "demo.stonesaga"
    operations.create_demo_campaign(path).close()
    return str(path)


def test_activity_events_the_dial_from_the_cli_applies_the_event(
        capsys: Any, demo_path: str) -> None:
    code, data, _ = run(capsys, "society", demo_path, "activity", "10", "--json")
    assert code == 0 and "The elders argue." in data["summary"]
    _, status, _ = run(capsys, "status", demo_path, "--json")
    assert (status["status"]["activity"], status["status"]["unrest"]) == (10, 2)


def test_unrest_6_from_the_cli_puts_quelling_the_embers_in_play(
        capsys: Any, demo_path: str) -> None:
    code, data, _ = run(capsys, "society", demo_path, "unrest", "6", "--json")
    assert code == 0 and "Quelling the Embers" in data["summary"]


@pytest.fixture
def legend_path(tmp_path: Path) -> str:
    path = tmp_path / "legend.stonesaga"
    campaign = operations.create_demo_campaign(path)
    operations.age_character(campaign, name="Ash")
    operations.age_character(campaign, name="Ash")
    campaign.close()
    return str(path)


def test_gaining_and_using_legend_cards_from_the_cli(capsys: Any, legend_path: str) -> None:
    code, data, _ = run(capsys, "legend", "list", legend_path, "--json")
    assert code == 0 and [(c["id"], c["name"], c["held_by"]) for c in data["legends"]] == [
        (1, "Ash", None)]
    code, data, _ = run(capsys, "legend", "draw", legend_path, "Bryn", "--json")
    assert code == 0 and data["summary"] == "Bryn draws the legend of Ash"
    code, data, _ = run(capsys, "test", legend_path, "Bryn", "might", "8", "--die", "2",
                        "--legend", "1", "--json")
    assert code == 0 and data["detail"]["ability_value"] == 6
    assert data["detail"]["legend_used"] == "1" and "succeeds" in data["summary"]
    _, data, _ = run(capsys, "legend", "list", legend_path, "--json")
    assert data["legends"][0]["held_by"] is None
    code, data, _ = run(capsys, "legend", "choose", legend_path, "Bryn", "1", "--json")
    assert code == 0
    code, data, _ = run(capsys, "legend", "use", legend_path, "Bryn", "1", "--trait",
                        "intrepid", "--json")
    assert code == 0 and "count as having the trait intrepid" in data["summary"]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (("legend", "draw", "{p}", "Bryn"), "no unassigned legend card to draw"),
        (("legend", "use", "{p}", "Bryn", "1", "--mark", "spiral"), "holds no legend card"),
        (("test", "{p}", "Ash", "luck", "6"), "There is no ability 'luck'"),
        (("test", "{p}", "Ash", "might", "6", "--die", "7"), "A die shows 1 to 6"),
        (("test", "{p}", "Ash", "might", "6", "--modifier", "wise=x"), "trait=N"),
        (("contest", "{p}", "Ash", "might", "6", "--boost", "3"), "a boost token shows 1 or 2"),
        (("mantle-power", "choose", "{p}", "Ash", "MP1"), "has not unlocked"),
    ],
)
def test_legend_and_test_refusals_in_game_words(
        capsys: Any, demo_path: str, argv: tuple[str, ...], message: str) -> None:
    before = run(capsys, "journal", "list", demo_path, "--json")[1]["events"]
    code, out, err = run(capsys, *[a.format(p=demo_path) for a in argv])
    assert code == 1 and message in err and "Traceback" not in err
    assert run(capsys, "journal", "list", demo_path, "--json")[1]["events"] == before


def test_mantle_power_unlock_choose_use_from_the_cli(capsys: Any, demo_path: str) -> None:
    assert run(capsys, "mantle-power", "unlock", demo_path, "MP4", "--json")[0] == 0
    assert run(capsys, "mantle-power", "choose", demo_path, "Bryn", "MP4", "--json")[0] == 0
    code, data, _ = run(capsys, "mantle-power", "use", demo_path, "Bryn", "--json")
    assert code == 0 and data["summary"].startswith("Bryn uses Trail Sign")
    assert run(capsys, "status", demo_path, "--json")[1]["status"]["lore"] == 1


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (("--hex", "E01"), "choose a mantle for the character"),
        (("--mantle", "stormcaller", "--hex", "E02"), "begins in the starting hex"),
        (("--mantle", "stormcaller", "--hex", "E01", "--replacement"),
         "no hex has one: prepare shelter first"),
    ],
)
def test_character_creation_refusals_from_the_cli(
        capsys: Any, legend_path: str, extra: tuple[str, ...], message: str) -> None:
    code, _, err = run(capsys, "character", "create", legend_path, "--name", "Cael",
                       "--dice", "6", "5", "4", "3", "1",
                       "--assign", "might=6,dexterity=5,awareness=4,conviction=3",
                       "--trait", "cunning", *extra, "--json")
    assert code == 1 and message in err and "Traceback" not in err


def test_character_death_replacement_from_the_cli(capsys: Any, legend_path: str) -> None:
    campaign = operations.open_campaign(Path(legend_path))
    try:
        from companion.operations.effects import apply_effects

        apply_effects(campaign, name="Bryn", effects=[{"do": "place", "token": "shelter"}])
    finally:
        campaign.close()
    code, data, err = run(capsys, "character", "create", legend_path, "--name", "Cael",
                          "--dice", "6", "5", "4", "3", "1",
                          "--assign", "might=6,dexterity=5,awareness=4,conviction=3",
                          "--trait", "cunning", "--mantle", "stormcaller", "--hex", "E01",
                          "--replacement", "--json")
    assert code == 0, err
    _, data, _ = run(capsys, "characters", legend_path, "--json")
    cael = next(c for c in data["characters"] if c["name"] == "Cael")
    assert (cael["energy"], cael["hex_id"]) == (0, "E01")
