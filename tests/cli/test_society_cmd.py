"""The society, legends and challenge commands through ``companion.cli.main`` with
``--json`` (Rulebook: Tracks; Legends; Continuing Play)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companion import operations
from tests.cli.helpers import run_json as run


def test_activity_events_the_dial_from_the_cli_applies_the_event(
        capsys: Any, demo_path: str) -> None:
    code, data, _ = run(capsys, "society", demo_path, "activity", "10", "--json")
    assert code == 0 and "The elders argue (unrest +2)" in data["summary"]
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
        (("mantle-power", "choose", "{p}", "Ash", "MP1"), "society's first challenge"),
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
    # Continuing Play > Mantle Power: chosen at the start of a challenge after the first.
    assert run(capsys, "challenge", "end", demo_path, "120", "--looming", "C2")[0] == 0
    assert run(capsys, "challenge", "start", demo_path, "C2")[0] == 0
    assert run(capsys, "mantle-power", "choose", demo_path, "Bryn", "MP4", "--json")[0] == 0
    code, data, _ = run(capsys, "mantle-power", "use", demo_path, "Bryn", "--json")
    assert code == 0 and data["summary"].startswith("Bryn uses Trail Sign")
    assert run(capsys, "status", demo_path, "--json")[1]["status"]["lore"] == 1


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (("--hex", "E01"), "choose a mantle for the character"),
        (("--mantle", "stormcaller", "--hex", "E02"), "begins in the starting hex"),
        # Character Death, reading D22: no hex has shelter, so the starting hex (E01).
        (("--mantle", "stormcaller", "--hex", "E02", "--replacement"),
         "since no hex has shelter (E01); E02 is neither"),
    ],
)
def test_character_creation_refusals_from_the_cli(
        capsys: Any, legend_path: str, extra: tuple[str, ...], message: str) -> None:
    code, _, err = run(capsys, "character", "create", legend_path, "--name", "Cael",
                       "--dice", "6", "5", "4", "3", "1",
                       "--assign", "might=6,dexterity=5,awareness=4,conviction=3",
                       "--trait", "cunning", *extra, "--json")
    assert code == 1 and message in err and "Traceback" not in err


def test_character_creation_an_unknown_ability_is_refused_not_a_traceback(
        capsys: Any, legend_path: str) -> None:
    code, _, err = run(capsys, "character", "create", legend_path, "--name", "Zed",
                       "--dice", "6", "5", "4", "3", "1", "--assign", "luck=1",
                       "--trait", "wise", "--mantle", "stormcaller", "--hex", "E01")
    assert code == 1 and "There is no ability 'luck'" in err and "Traceback" not in err


def cael_replaces_the_legend(capsys: Any, legend_path: str) -> dict[str, Any]:
    """Cael made in E01 as the replacement of the character who perished; as listed."""
    code, _, err = run(capsys, "character", "create", legend_path, "--name", "Cael",
                       "--dice", "6", "5", "4", "3", "1",
                       "--assign", "might=6,dexterity=5,awareness=4,conviction=3",
                       "--trait", "cunning", "--mantle", "stormcaller", "--hex", "E01",
                       "--replacement", "--json")
    assert code == 0, err
    _, listing, _ = run(capsys, "characters", legend_path, "--json")
    cael: dict[str, Any] = next(c for c in listing["characters"] if c["name"] == "Cael")
    return cael


def test_character_death_replacement_from_the_cli(capsys: Any, legend_path: str) -> None:
    campaign = operations.open_campaign(Path(legend_path))
    try:
        from companion.operations.effects import apply_effects

        apply_effects(campaign, name="Bryn", effects=[{"do": "place", "token": "shelter"}])
    finally:
        campaign.close()
    cael = cael_replaces_the_legend(capsys, legend_path)
    assert (cael["energy"], cael["hex_id"]) == (0, "E01")


def test_continuing_play_end_and_next_challenge_from_the_cli(
        capsys: Any, demo_path: str) -> None:
    assert run(capsys, "effect", demo_path, "Ash", "gain flint 2", "suffer minor_injury",
               "--json")[0] == 0
    assert run(capsys, "society", demo_path, "unrest", "6", "--json")[0] == 0
    code, data, err = run(capsys, "challenge", "end", demo_path, "120", "--retain",
                          "Ash::1,2", "--looming", "C2", "--json")
    assert code == 0, err
    assert data["summary"] == "The challenge ends (outcome 120)"
    _, data, _ = run(capsys, "challenge", "retained", demo_path, "--json")
    assert [(r["character"], r["materials"]) for r in data["retained"]] == [
        ("Ash", ["Flint", "Flint"])]
    _, status, _ = run(capsys, "status", demo_path, "--json")
    assert (status["status"]["activity"], status["status"]["challenge_id"]) == (0, None)
    code, data, _ = run(capsys, "challenge", "start", demo_path, "C2", "--json")
    assert code == 0 and "Ash takes up the supplies Ash retained" in data["summary"]
    _, data, _ = run(capsys, "characters", demo_path, "--json")
    # Unrest 6+: one energy less than the track's 5; no injuries; the starting hex.
    assert [(c["name"], c["energy"], c["health"], c["hex_id"]) for c in data["characters"]] \
        == [("Ash", 4, [], "E01"), ("Bryn", 4, [], "E01")]
    code, _, err = run(capsys, "epoch", "new", demo_path)
    assert code == 1 and "An epoch cannot change during a challenge" in err
    assert run(capsys, "challenge", "end", demo_path, "130", "--json")[0] == 0
    code, data, _ = run(capsys, "epoch", "new", demo_path, "--json")
    assert code == 0 and data["summary"] == "A new epoch begins"
    assert run(capsys, "status", demo_path, "--json")[1]["status"]["epoch"] == 2


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (("challenge", "end", "{p}", " "), "record the entry number"),
        (("challenge", "end", "{p}", "120", "--retain", "Ash::x"), "NAME:ITEM,ITEM:1,2"),
        # Retaining Supplies: "Ash" alone is malformed, not "Ash retains nothing".
        (("challenge", "end", "{p}", "120", "--retain", "Ash"),
         "Give what Ash retains as NAME:ITEM,ITEM:1,2"),
        (("challenge", "end", "{p}", "120", "--retain", "Ash:antler"), "Ash has no antler"),
        # Retaining Supplies: refusals name the item card, typed by id or name.
        (("challenge", "end", "{p}", "120", "--retain", "Ash:clay-pot:"),
         "Ash has no Clay Pot to retain (Ash holds no items)."),
        # A looming challenge is named by the id on its card; one the app doesn't know
        # is entered when it is started (issue 25 part 5), but a typo is no card id.
        (("challenge", "end", "{p}", "120", "--looming", "C 9!"), "no challenge C 9!"),
        (("challenge", "claim", "{p}", "Ash", "4"), "no retained supplies number 4"),
        (("challenge", "start", "{p}", "C2"), "is still being played"),
        (("outpost", "ruin", "{p}", "Nowhere"), "There is no outpost 'Nowhere'"),
        (("outpost", "remove-structure", "{p}", "Nowhere", "Longhouse"),
         "There is no outpost 'Nowhere'"),
    ],
)
def test_continuing_play_refusals_from_the_cli(
        capsys: Any, demo_path: str, argv: tuple[str, ...], message: str) -> None:
    code, _, err = run(capsys, *[a.format(p=demo_path) for a in argv])
    assert code == 1 and message in err and "Traceback" not in err
    assert run(capsys, "status", demo_path, "--json")[1]["status"]["challenge_id"] == "C1"


def with_a_longhouse(demo_path: str) -> None:
    """The outpost Hearth with a Longhouse built, written into the campaign."""
    from tests.operations.test_night_cards import with_outpost

    campaign = operations.open_campaign(Path(demo_path))
    try:
        with_outpost(campaign, "longhouse")
    finally:
        campaign.close()


def test_outposts_remove_a_structure_from_the_cli(capsys: Any, demo_path: str) -> None:
    """Rulebook: Overlays > Outposts — erase a removed structure from the outpost card."""
    with_a_longhouse(demo_path)
    code, data, _ = run(capsys, "outpost", "remove-structure", demo_path, "Hearth",
                        "Longhouse", "--json")
    assert code == 0 and "The Longhouse is erased from Hearth's outpost card" in str(data)
    code, _, err = run(capsys, "outpost", "remove-structure", demo_path, "Hearth", "Longhouse")
    assert code == 1 and "Hearth has no Longhouse (its structures: none)." in err


def test_night_phase_structures_in_play_from_the_cli(capsys: Any, demo_path: str) -> None:
    with_a_longhouse(demo_path)
    for name in ("Ash", "Bryn"):
        assert run(capsys, "act", demo_path, name, "pass")[0] == 0
    code, data, _ = run(capsys, "night", demo_path, "--json")
    assert code == 0
    description = data["procedure"]["description"]
    assert "Longhouse (Hearth): Grants shelter to characters in this hex." in description
    assert "shelter/fire 1" in description  # Rest: the Longhouse grants shelter
    code, data, _ = run(capsys, "odds", demo_path, "--json")
    assert code == 0 and data["odds"]["title"] == "The Night: activity"
    # Activity 0 + at most 3 from one Night card: the event at 6 cannot fire tonight.
    assert data["odds"]["chances"]["next event"] == "0"


def test_age_and_heal_from_the_cli(capsys: Any, demo_path: str) -> None:
    assert run(capsys, "effect", demo_path, "Ash", "suffer minor_injury")[0] == 0
    code, data, _ = run(capsys, "heal", demo_path, "Ash", "1", "--json")
    assert code == 0 and data["summary"] == "Ash's minor injury degrades"
    code, _, err = run(capsys, "heal", demo_path, "Ash", "1")
    assert code == 1 and "Ash has no health token 1." in err
    assert run(capsys, "age", demo_path, "Ash", "--json")[1]["summary"] == "Ash grows old"
    assert run(capsys, "age", demo_path, "Ash", "--json")[1]["summary"] == \
        "Ash ages out and becomes a legend"
    _, data, _ = run(capsys, "legend", "list", demo_path, "--json")
    assert [c["name"] for c in data["legends"]] == ["Ash"]


@pytest.mark.parametrize(("typed", "goal", "status_line"), [
    ("G-first-hearth", "G-first-hearth", (0, 0)),  # reward unrest -1: 0 stays 0
    ("songs for the young", "G-songs", (0, 1)),    # reward 1 lore: 0 + 1
])
def test_set_up_vital_and_epoch_goals_completed_from_the_cli(
        capsys: Any, demo_path: str, typed: str, goal: str,
        status_line: tuple[int, int]) -> None:
    _, status, _ = run(capsys, "status", demo_path, "--json")
    assert (goal, "vital" if goal != "G-songs" else "epoch") in [
        (g["goal"], g["state"]) for g in status["status"]["goals"]]
    assert {"goal": "G-hidden-spring", "name": "sealed goal", "state": "sealed"} in \
        status["status"]["goals"]
    code, data, err = run(capsys, "challenge", "goal", demo_path, typed, "--json")
    assert code == 0, err
    assert data["summary"].startswith("Goal completed: ")
    _, status, _ = run(capsys, "status", demo_path, "--json")
    assert (goal, "completed") in [(g["goal"], g["state"]) for g in status["status"]["goals"]]
    assert (status["status"]["unrest"], status["status"]["lore"]) == status_line


def test_set_up_challenge_a_goal_not_in_play_is_refused_from_the_cli(
        capsys: Any, demo_path: str) -> None:
    code, _, err = run(capsys, "challenge", "goal", demo_path, "Moonlit Feast")
    assert code == 1 and "The goal 'Moonlit Feast' is not in play" in err
    code, text, _ = run(capsys, "status", demo_path)
    assert "goals: First Hearth (vital); Winter Stores (vital); sealed goal (sealed); " \
           "Songs for the Young (epoch)" in text


@pytest.mark.parametrize(("effect", "message"), [
    ("suffer death", "A character cannot suffer 'death': what is suffered is a minor "
                     "injury, a major injury, a minor disease or a major disease"),
    ("suffer", "Say what is suffered"),
])
def test_mantle_health_track_suffer_refused_in_game_words_from_the_cli(
        capsys: Any, demo_path: str, effect: str, message: str) -> None:
    code, _, err = run(capsys, "effect", demo_path, "Ash", effect)
    assert code == 1 and message in err and "Input should be" not in err
    _, data, _ = run(capsys, "characters", demo_path, "--json")
    assert next(c for c in data["characters"] if c["name"] == "Ash")["health"] == []


def test_mantle_health_track_suffer_typed_with_spaces_from_the_cli(
        capsys: Any, demo_path: str) -> None:
    code, data, err = run(capsys, "effect", demo_path, "Ash", "suffer major injury 2", "--json")
    assert code == 0, err
    _, data, _ = run(capsys, "characters", demo_path, "--json")
    assert next(c for c in data["characters"] if c["name"] == "Ash")["health"] == [
        "major_injury", "major_injury"]


def test_set_up_societal_event_fires_in_the_night_before_the_unrest_increase_cli(
        capsys: Any, demo_path: str) -> None:
    """Rulebook: Set Up ("it occurs as soon as the number is reached"); Night Phase >
    Increase Activity; D7, D10. C1's Societal event at 10 adds 2 unrest. Unrest 4,
    activity 7; Ember Storm (N06) adds 3: 7 + 3 = 10 fires it (unrest 4 + 2 = 6), then
    +1 for unrest 6+: activity 11."""
    assert run(capsys, "society", demo_path, "unrest", "4")[0] == 0
    assert run(capsys, "society", demo_path, "activity", "7")[0] == 0
    for name in ("Ash", "Bryn"):
        assert run(capsys, "act", demo_path, name, "pass")[0] == 0
    code, data, _ = run(capsys, "night", demo_path, "--json")
    for _ in range(60):
        step = data["procedure"]["step"] if data.get("procedure") else None
        if step is None:
            break
        answer = {"player": "1", "card": "N06"}.get(step["decider"], "app")
        code, data, err = run(capsys, "step", demo_path, "--choice", answer, "--json")
        assert code == 0, err
    _, status, _ = run(capsys, "status", demo_path, "--json")
    assert (status["status"]["activity"], status["status"]["unrest"]) == (11, 6)


def test_mantle_board_next_challenge_asks_mantles_from_the_cli(
        capsys: Any, demo_path: str) -> None:
    """Rulebook: Mantle > Mantle Board; Continuing Play > Mantle Power: at C2's start
    Ash and Bryn swap mantles and Bryn slots a power of the new one; Ash's minor boost
    from C1 ends with it; a power is refused in C1 and once C2 is under way."""
    campaign = operations.open_campaign(Path(demo_path))
    try:
        ash, bryn = campaign.character_detail("Ash"), campaign.character_detail("Bryn")
        power = next(p for p, c in campaign.content.mantle_powers.items()
                     if c.mantle == ash.mantle)
    finally:
        campaign.close()
    assert run(capsys, "mantle-power", "unlock", demo_path, power)[0] == 0
    code, _, err = run(capsys, "mantle-power", "choose", demo_path, "Ash", power)
    assert code == 1 and "first challenge" in err
    assert run(capsys, "effect", demo_path, "Ash", "boost might")[0] == 0
    assert run(capsys, "challenge", "end", demo_path, "120", "--looming", "C2")[0] == 0
    code, _, err = run(capsys, "challenge", "start", demo_path, "C2", "--mantle",
                       f"Ash={bryn.mantle}")
    assert code == 1 and "both chose the" in err
    code, data, err = run(capsys, "challenge", "start", demo_path, "C2", "--mantle",
                          f"Ash={bryn.mantle}", "--mantle", f"Bryn={ash.mantle}",
                          "--mantle-power", f"Bryn={power}", "--json")
    assert code == 0, err
    assert "takes up the mantle power" in data["summary"]
    campaign = operations.open_campaign(Path(demo_path))
    try:
        ash2, bryn2 = campaign.character_detail("Ash"), campaign.character_detail("Bryn")
        assert (ash2.mantle, bryn2.mantle, bryn2.mantle_power) == (
            bryn.mantle, ash.mantle, power)
        assert ash2.boosts == {}
    finally:
        campaign.close()
    assert run(capsys, "act", demo_path, "Ash", "pass")[0] == 0
    code, _, err = run(capsys, "mantle-power", "choose", demo_path, "Bryn", power)
    assert code == 1 and "The challenge is under way" in err


def test_using_legend_cards_a_mark_written_by_hand_is_usable_from_the_cli(
        capsys: Any, demo_path: str) -> None:
    """Rulebook: Fillable Cards; Using Legend Cards: Ash ages out (legend card 1); a mark
    written on it by hand lets Bryn count as having it; one on Bryn's card shows."""
    for _ in range(2):
        assert run(capsys, "age", demo_path, "Ash")[0] == 0
    assert run(capsys, "legend", "choose", demo_path, "Bryn", "1")[0] == 0
    code, _, err = run(capsys, "legend", "use", demo_path, "Bryn", "1", "--mark", "spiral")
    assert code == 1 and "bears no mark spiral" in err
    code, data, _ = run(capsys, "legend", "mark", demo_path, "spiral", "--legend", "1",
                        "--reason", "Codex outcome 220", "--json")
    assert code == 0 and data["summary"] == \
        "The mark spiral is written on the legend of Ash (Codex outcome 220)"
    _, listing, _ = run(capsys, "legend", "list", demo_path, "--json")
    assert listing["legends"][0]["marks"] == ["spiral"]
    code, data, _ = run(capsys, "legend", "use", demo_path, "Bryn", "1", "--mark", "spiral",
                        "--json")
    assert code == 0 and "the mark spiral" in data["summary"]
    assert run(capsys, "legend", "mark", demo_path, "antler", "--character", "Bryn")[0] == 0
    _, listing, _ = run(capsys, "characters", demo_path, "--json")
    assert [c["marks"] for c in listing["characters"]] == [["antler"]]
    assert "marks antler" in run(capsys, "characters", demo_path)[1]
    code, _, err = run(capsys, "legend", "mark", demo_path, "antler", "--character", "Bryn")
    assert code == 1 and "already bears the mark antler" in err


def test_character_death_replacement_with_no_shelter_enters_the_starting_hex_cli(
        capsys: Any, legend_path: str) -> None:
    """Rulebook: Character Death; reading D22: no hex has shelter, so a replacement
    enters the starting hex E01, with 0 energy."""
    cael = cael_replaces_the_legend(capsys, legend_path)
    assert (cael["hex_id"], cael["energy"]) == ("E01", 0)
