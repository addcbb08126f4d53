"""Day actions, exchanges and item choices from the command line, with ``--json``
(Rulebook: Game Structure > Day Actions; Actions; Building an Outpost; Building
Structures; Mantle > Exceeding Item Limits). Refusals: game words, exit 1, nothing
changed, no traceback."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from companion import operations
from companion.cli.play_cmd import VERBS
from tests.cli.helpers import run


def js(capsys: Any, *argv: str) -> dict[str, Any]:
    code, out, err = run(capsys, *argv, "--json")
    assert code == 0, err
    data: dict[str, Any] = json.loads(out)
    return data


@pytest.fixture
def path(tmp_path: Path) -> str:
    where = tmp_path / "d.stonesaga"
    operations.create_demo_campaign(where).close()
    return str(where)


def energies(capsys: Any, path: str) -> dict[str, int]:
    return {c["name"]: c["energy"] for c in js(capsys, "characters", path)["characters"]}


def test_day_actions_actions_lists_each_terrains_action_with_its_cost(
        capsys: Any, path: str) -> None:
    data = js(capsys, "actions", path, "Ash")
    listed = [(a["action"], a["target"], a["cost"]) for a in data["actions"]]
    assert ("forage", "plains", 2) in listed and ("forage", "forest", 2) in listed
    assert ("build_outpost", "plains", 4) in listed and ("pass", None, 0) in listed
    assert data["turn"]["may_act"] == ["Ash", "Bryn"]


def test_building_an_outpost_and_a_structure_from_the_cli(capsys: Any, path: str) -> None:
    data = js(capsys, "act", path, "Ash", "outpost", "plains", "--outpost-name", "Hearth",
              "--contribute", "Bryn=2")
    assert data["summary"] == "Ash built the outpost Hearth over the plains: 4 energy, " \
                              "2 from Ash and 2 from Bryn"
    assert energies(capsys, path) == {"Ash": 3, "Bryn": 3}
    assert run(capsys, "effect", path, "Bryn", "gain wood 2", "gain fiber 1")[0] == 0
    data = js(capsys, "act", path, "Bryn", "structure", "Drying Rack")
    assert data["summary"].startswith("Bryn built Drying Rack at Hearth")
    assert energies(capsys, path) == {"Ash": 3, "Bryn": 2}
    # A Drying Rack does not store materials: Hearth is still no storage container (D21).
    assert run(capsys, "effect", path, "Ash", "gain clay 1")[0] == 0
    code, _, err = run(capsys, "exchange", "store", path, "Ash", "--token", "1")
    assert code == 1 and "no storage container in Ash's hex" in err


@pytest.mark.parametrize(("wood", "refusal"), [
    # Reading D21: the Storehouse holds 3; 2 stored + 1 = 3 fits.
    (1, None),
    # 2 stored + 2 = 4 > 3: refused, room for 1.
    (2, "holds at most 3 materials (2 stored, room for 1); 2 will not fit"),
])
def test_day_actions_storage_containers_from_the_cli(
        capsys: Any, path: str, wood: int, refusal: str | None) -> None:
    """Rulebook: Day Actions (storage containers); reading D21."""
    from companion import operations
    from tests.operations.test_night_cards import with_outpost

    campaign = operations.open_campaign(Path(path))
    try:
        with_outpost(campaign, "storehouse")
    finally:
        campaign.close()
    assert run(capsys, "effect", path, "Ash", f"gain wood {2 + wood}")[0] == 0
    data = js(capsys, "exchange", "store", path, "Ash", "--token", "1", "--token", "2")
    assert data["summary"] == \
        "Ash stored unprocessed wood, unprocessed wood at the Storehouse at Hearth"
    argv = ["exchange", "store", path, "Ash", *[a for n in range(wood)
                                               for a in ("--token", str(n + 1))]]
    code, _, err = run(capsys, *argv)
    if refusal is None:
        assert code == 0
        listing = js(capsys, "exchange", "list", path, "Bryn")
        assert listing["storage"] == [{"outpost": "Hearth",
                                       "materials": ["unprocessed wood"] * 3}]
        assert js(capsys, "exchange", "take", path, "Bryn", "Hearth", "--token", "1"
                  )["summary"] == "Bryn took unprocessed wood from the Storehouse at Hearth"
    else:
        assert code == 1 and refusal in err


@pytest.mark.parametrize(
    ("argv", "refusal"),
    [
        (["act", "{p}", "Ash", "outpost", "river"],
         "Outpost over river needs a Watercraft item in the hex"),
        (["act", "{p}", "Ash", "forage"], "Ash can forage at the plains or the forest: "
                                          "name one"),
        (["act", "{p}", "Ash", "mine"], "there is nowhere to mine in Ash's hex"),
        (["act", "{p}", "Ash", "structure", "drying-rack"], "no outpost in Ash's hex"),
        (["act", "{p}", "Ash", "craft", "--token", "1"], "craft with two tokens"),
        (["act", "{p}", "Ash", "process"], "choose at least one token"),
        (["act", "{p}", "Ash", "outpost", "plains", "--contribute", "Bryn"],
         "write energy contributed as NAME=VALUE"),
        (["act", "{p}", "Ash", "revive", "Bryn"], "Bryn is not incapacitated"),
        (["exchange", "give", "{p}", "Ash", "Bryn"], "give either an item"),
        (["exchange", "give", "{p}", "Ash", "Bryn", "--item", "stone-knife"],
         "Ash has no Stone Knife"),
        (["exchange", "excess", "{p}", "Ash"], "Ash has room for every item"),
        (["exchange", "store", "{p}", "Ash", "--token", "1"],
         "no storage container in Ash's hex"),
        (["character", "create", "{p}", "--name", "Cai", "--dice", "6", "5", "4", "3", "2",
          "--assign", "might=6,dexterity=5,awareness=4,conviction=3", "--hex", "E01",
          "--mantle", "nope"], ""),
    ],
)
def test_day_actions_refusals_in_game_words_change_nothing(
        capsys: Any, path: str, argv: list[str], refusal: str) -> None:
    before = js(capsys, "characters", path)
    code, out, err = run(capsys, *[a.replace("{p}", path) for a in argv])
    assert code == 1 and "Traceback" not in err and err.startswith("refused: ")
    assert refusal.lower() in err.lower()
    assert js(capsys, "characters", path) == before


def test_character_creation_an_unknown_ability_is_refused_not_a_crash(
        capsys: Any, path: str) -> None:
    code, _, err = run(capsys, "character", "create", path, "--name", "Cai", "--dice", "6",
                       "5", "4", "3", "2", "--assign", "luck=1")
    assert code == 1 and err.startswith("refused: ")
    assert "There is no ability 'luck': assign the kept dice to might, dexterity, awareness " \
           "and conviction" in err
    assert "Traceback" not in err
    assert [c["name"] for c in js(capsys, "characters", path)["characters"]] == ["Ash", "Bryn"]


def test_exceeding_item_limits_from_the_cli(capsys: Any, path: str) -> None:
    assert run(capsys, "effect", path, "Ash", "item stone-knife", "item sling",
               "item pine-torch")[0] == 0
    code, _, err = run(capsys, "act", path, "Ash", "water")
    assert code == 1 and "refused: Ash holds 3 hand items: choose one to give to Bryn" in err
    code, _, err = run(capsys, "exchange", "excess", path, "Ash")
    assert code == 1 and "Ash holds 3 hand items: choose one to give to Bryn (Stone Knife, " \
                         "Sling, Pine Torch): give ITEM and --to NAME" in err
    code, _, err = run(capsys, "exchange", "excess", path, "Ash", "sling", "--lose")
    assert code == 1 and "Bryn has room for a hand item" in err
    data = js(capsys, "exchange", "excess", path, "Ash", "sling", "--to", "Bryn")
    assert data["summary"] == "Ash had no room and gave the Sling to Bryn"
    assert js(capsys, "exchange", "list", path, "Bryn")["items"] == ["Sling"]
    assert js(capsys, "act", path, "Ash", "water")["summary"] == "Ash gathered 2 water (1 " \
                                                                  "energy)"


def test_exchanges_give_items_and_tokens(capsys: Any, path: str) -> None:
    assert run(capsys, "effect", path, "Ash", "gain wood 2", "item stone-knife")[0] == 0
    assert js(capsys, "exchange", "give", path, "Ash", "Bryn", "--token", "2")["summary"] \
        == "Ash gave unprocessed wood to Bryn"
    assert js(capsys, "exchange", "give", path, "Ash", "Bryn", "--item", "Stone Knife"
              )["summary"] == "Ash gave the Stone Knife to Bryn"
    listing = js(capsys, "exchange", "list", path, "Bryn")
    assert listing["items"] == ["Stone Knife"] and listing["bag"] == ["unprocessed wood"]


def test_foraging_starts_from_the_cli_and_walks(capsys: Any, path: str) -> None:
    code, out, err = run(capsys, "act", path, "Ash", "forage", "forest", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["procedure"]["kind"] == "foraging"
    assert data["procedure"]["step"]["prompt"].startswith("Step 1")
    assert energies(capsys, path)["Ash"] == 3


def test_delving_starts_from_the_cli(capsys: Any, tmp_path: Path) -> None:
    # The first sample challenge opens delving at set-up (D4).
    where = tmp_path / "cave.stonesaga"
    campaign = operations.create_demo_campaign(where)
    operations.move(campaign, name="Ash", to_hex="E05")  # river, cave, dried flats
    operations.draw_discovery(campaign, name="Ash", card="DI01")
    campaign.close()
    p = str(where)
    assert run(capsys, "act", p, "Bryn", "pass")[0] == 0
    assert [(a["action"], a["target"]) for a in js(capsys, "actions", p, "Ash")["actions"]
            if a["action"] in ("mine", "delve", "prepare_shelter")] == [
        ("prepare_shelter", "cave"), ("mine", "cave"), ("delve", "cave"),
        ("mine", "dried-flats")]
    code, out, err = run(capsys, "act", p, "Ash", "delve", "--json")
    assert code == 0, err
    assert json.loads(out)["procedure"]["kind"] == "delving"
    assert energies(capsys, p)["Ash"] == 2


def test_discovery_drawn_at_the_table_asks_for_the_die(capsys: Any, path: str) -> None:
    assert run(capsys, "act", path, "Ash", "explore", "E09")[0] == 0
    code, _, err = run(capsys, "discover", path, "--card", "DI02")
    assert code == 1 and "asks for a die (dexterity 6+): roll it at the table" in err
    data = js(capsys, "discover", path, "--card", "DI02", "--die", "5")
    assert "rolled 5" in data["summary"]


def test_every_day_action_of_the_pack_has_a_cli_verb_and_a_day_panel_control(
        path: str) -> None:
    """Rulebook: Day Actions. Each action named in the pack's action costs (and Build
    Structure, whose cost is on each card) is a verb of ``companion act`` and an action
    the Day panel turns into a control."""
    from companion.ui.views.day import DIALOGS, PANEL_ROWS, PROCEDURES

    with operations.open_campaign(Path(path)) as campaign:
        named = set(campaign.content.rules.action_costs.model_dump()) - {
            "move_obstructed_extra"}
    named |= {"build_structure", "pass"}
    assert named - set(VERBS.values()) == set()
    from companion.operations.day import ActionOption
    from companion.ui.views.day import action_rows

    for action in sorted(named):
        target = "1:drying-rack" if action == "build_structure" else "here"
        rows = action_rows("Ash", [ActionOption(action, f"{action}: 1 energy", 1, target)])
        if action in PANEL_ROWS:  # laid out by the panel itself (token choice, Pass)
            assert rows == []
            continue
        assert len(rows) == 1 and rows[0].enabled, action
        assert rows[0].operation is not None, f"{action} has no Day-panel control"
        assert action in PROCEDURES or action in DIALOGS or rows[0].operation in (
            "move", "gather_water", "prepare_shelter"), action


def test_explore_a_new_tray_from_the_cli(capsys: Any, path: str) -> None:
    # Rulebook: Actions > Explore; Populating a Terrain Tray.
    assert run(capsys, "act", path, "Ash", "explore", "E05")[0] == 0
    assert run(capsys, "discover", path)[0] == 0
    assert run(capsys, "act", path, "Bryn", "pass")[0] == 0
    trays = [a for a in js(capsys, "actions", path, "Ash")["actions"]
             if a["action"] == "explore_tray"]
    assert [t["target"] for t in trays] == [str(n) for n in range(1, len(trays) + 1)]
    assert trays and all(t["cost"] == 2 for t in trays)
    code, _, err = run(capsys, "act", path, "Ash", "tray", str(len(trays) + 1))
    assert code == 1 and f"1 to {len(trays)}" in err
    data = js(capsys, "act", path, "Ash", "tray", "1")
    assert "explored a new Emberfen Lowlands tray" in data["summary"]
    assert energies(capsys, path)["Ash"] == 1


def test_exceeding_item_limits_prompt_at_a_terminal(capsys: Any, path: str,
                                                    monkeypatch: Any) -> None:
    assert run(capsys, "effect", path, "Ash", "item stone-knife", "item sling",
               "item pine-torch")[0] == 0
    answers = iter(["3", "1"])
    monkeypatch.setattr("sys.stdin.isatty", lambda: True)
    monkeypatch.setattr("builtins.input", lambda prompt="": next(answers))
    code, out, err = run(capsys, "exchange", "excess", path, "Ash")
    assert code == 0, err
    assert "3. Pine Torch" in out and "1. to Bryn" in out
    assert "Ash had no room and gave the Pine Torch to Bryn" in out


def test_building_structures_materials_paid_by_another_character(capsys: Any,
                                                                  path: str) -> None:
    assert run(capsys, "act", path, "Ash", "outpost", "plains", "--outpost-name", "Hearth",
               "--contribute", "Bryn=2")[0] == 0
    assert run(capsys, "effect", path, "Ash", "gain wood 2", "gain fiber 1")[0] == 0
    assert run(capsys, "effect", path, "Bryn", "gain fiber 1")[0] == 0
    code, _, err = run(capsys, "act", path, "Bryn", "structure", "drying-rack", "--pay",
                       "Ash=1,x")
    assert code == 1 and "NAME=POS,POS" in err
    data = js(capsys, "act", path, "Bryn", "structure", "drying-rack", "--pay", "Ash=1,2",
              "--token", "1")
    assert "unprocessed wood from Ash" in data["summary"]
    assert "unprocessed fiber from Bryn" in data["summary"]
    listing = js(capsys, "exchange", "list", path, "Ash")
    assert listing["bag"] == ["unprocessed fiber"]


@pytest.mark.parametrize(("command", "feature", "kind"),
                         [("forage", "plains", "foraging"), ("fish", "river", "fishing")])
def test_activities_have_their_own_commands_too(capsys: Any, path: str, command: str,
                                                feature: str, kind: str) -> None:
    code, out, err = run(capsys, command, path, "Ash", feature, "--json")
    assert code == 0, err
    assert json.loads(out)["procedure"]["kind"] == kind


def test_exceeding_item_limits_asked_at_once_at_a_terminal(capsys: Any, path: str,
                                                           monkeypatch: Any) -> None:
    answers = iter(["1", "1"])
    monkeypatch.setattr("sys.stdin.isatty", lambda: True)
    monkeypatch.setattr("builtins.input", lambda prompt="": next(answers))
    code, out, err = run(capsys, "effect", path, "Ash", "item stone-knife", "item sling",
                         "item pine-torch")
    assert code == 0, err
    assert "Ash holds 3 hand items: choose one to give to Bryn." in out
    assert "Ash had no room and gave the Stone Knife to Bryn" in out
    monkeypatch.setattr("sys.stdin.isatty", lambda: False)
    assert js(capsys, "exchange", "list", path, "Bryn")["items"] == ["Stone Knife"]


@pytest.mark.parametrize(("dying", "living"), [("Bryn", "Ash"), ("Ash", "Bryn")])
def test_character_death_the_nights_journal_says_who_perished(
        capsys: Any, path: str, dying: str, living: str) -> None:
    """Rulebook: Character Death: a character incapacitated (5 major injuries fill the 5
    health slots of a two-character game) perishes at the Night; the journal says so."""
    for _ in range(5):
        js(capsys, "effect", path, dying, "suffer major_injury")
    js(capsys, "act", path, "Ash", "pass")
    js(capsys, "act", path, "Bryn", "pass")
    data = js(capsys, "night", path, "--choice", "1", "--app")
    assert data["procedure"] is None
    night = js(capsys, "journal", "list", path, "--limit", "1")["events"][0]["text"]
    assert night.startswith("The Night ends. ")
    assert night.count(f"{dying} perished and becomes a legend.") == 1  # once, not twice
    assert f"{living} perished" not in night
    names = [c["name"] for c in js(capsys, "characters", path)["characters"]]
    assert names == [living]


def test_actions_explore_new_tray_labels_are_the_explore_dialogs_words(
        capsys: Any, path: str) -> None:
    """Rulebook: Actions > Explore; Populating a Terrain Tray: `actions` names each new
    tray as the Valley tab's placements list does (region, facing, the way in), never
    grid coordinates."""
    import re

    from companion.operations.exploration import legal_placements

    assert run(capsys, "act", path, "Ash", "explore", "E05")[0] == 0
    assert run(capsys, "discover", path)[0] == 0
    assert run(capsys, "act", path, "Bryn", "pass")[0] == 0
    trays = [a for a in js(capsys, "actions", path, "Ash")["actions"]
             if a["action"] == "explore_tray"]
    campaign = operations.open_campaign(Path(path))
    try:
        expected = [f"Explore a new {t.label}" for t in legal_placements(campaign, "Ash")]
    finally:
        campaign.close()
    assert [t["label"].rsplit(": ", 1)[0] for t in trays] == expected
    for tray in trays:
        # Issue 27 item 8: where it lies from the character's hex, by name.
        assert re.match(r"Explore a new Emberfen Lowlands tray [a-z -]+ of Otter Bend",
                        tray["label"]), tray["label"]
        assert not re.search(r"\(-?\d+, -?\d+\)", tray["label"]), tray["label"]


@pytest.fixture
def windgate(capsys: Any, tmp_path: Path) -> str:
    """Thornspire's first tray (T01 Windgate: plains, cave, mountain), The Long Thaw,
    Bryn in T01: the mountain's bag holds 2 sunstone then 3 cloudstone chips."""
    p = str(tmp_path / "ember.stonesaga")
    js(capsys, "campaign", "new", "The Ember Folk", "--players", "2", "--file", p,
       "--seed", "7")
    js(capsys, "valley", "setup", p, "thornspire", "--tiles", "T02", "T05")
    js(capsys, "challenge", "start", p, "C1")
    js(capsys, "character", "create", p, "--name", "Bryn", "--player", "P2", "--dice", "2",
       "3", "3", "2", "1", "--assign", "might=2,dexterity=3,awareness=3,conviction=2",
       "--trait", "intrepid", "--trait", "wise", "--mantle", "pathfinder", "--hex", "T01")
    return p


@pytest.mark.parametrize(("typed", "pulled"), [
    ("sunstone", "sunstone (sun)"),
    ("CLOUDSTONE", "cloudstone (cloud)"),
    ("cloudstone (cloud)", "cloudstone (cloud)"),
    ("1", "sunstone (sun)"),    # number 1 listed, not the chip keyed "1"
    ("2", "sunstone (sun)"),    # number 2 listed is a sunstone; key "2" is a cloudstone
    ("3", "cloudstone (cloud)"),
])
def test_mining_a_chip_pulled_at_the_table_typed_by_material_or_listed_number(
        capsys: Any, windgate: str, typed: str, pulled: str) -> None:
    """Rulebook: Mining, step 4: the chip pulled from the bag at the table is typed by
    its material or by the number the prompt lists it under."""
    data = js(capsys, "act", windgate, "Bryn", "mine", "mountain", "--choice", typed)
    log = data["procedure"]["log"]
    assert log[-1].endswith(f"pull a chip from the bag (5 inside): {pulled}"), log


def test_mining_the_chip_prompt_says_what_may_be_typed(capsys: Any, windgate: str) -> None:
    code, out, _ = run(capsys, "act", windgate, "Bryn", "mine", "mountain")
    assert code == 0
    assert "  1. sunstone (sun)\n  2. sunstone (sun)\n  3. cloudstone (cloud)" in out
    assert "type the chip you pulled (its material, e.g. 'clay', or its number in this " \
           "list)" in out


@pytest.mark.parametrize(("flags", "energy", "said"), [
    ((), 0, "; replaces Bryn, who perished: enters with 0 energy in a hex with shelter"),
    (("--replacement",), 0, "; replaces Bryn, who perished: enters with 0 energy in a hex "
                            "with shelter"),
    (("--starting",), 5, ""),
])
def test_character_death_character_create_after_a_death_from_the_cli(
        capsys: Any, path: str, flags: tuple[str, ...], energy: int, said: str) -> None:
    """Rulebook: Character Death: Bryn perished at the Night and the society is short of
    its 2 characters, so the next character made replaces her (0 energy, a hex with
    shelter) unless the group says it is a starting character."""
    for _ in range(5):
        js(capsys, "effect", path, "Bryn", "suffer major_injury")
    js(capsys, "act", path, "Ash", "pass")
    js(capsys, "act", path, "Bryn", "pass")
    js(capsys, "night", path, "--choice", "1", "--app")
    campaign = operations.open_campaign(Path(path))
    try:
        from companion.operations.effects import apply_effects

        apply_effects(campaign, name="Ash", effects=[{"do": "place", "token": "shelter"}])
    finally:
        campaign.close()
    data = js(capsys, "character", "create", path, "--name", "Cael", "--dice", "6", "5", "4",
              "3", "1", "--assign", "might=6,dexterity=5,awareness=4,conviction=3",
              "--trait", "cunning", "--mantle", "stormcaller", "--hex", "E01", *flags)
    assert data["summary"].endswith(f"Cunning){said}")
    cael = next(c for c in js(capsys, "characters", path)["characters"] if c["name"] == "Cael")
    assert (cael["energy"], cael["hex_id"]) == (energy, "E01")


def test_effect_words_place_boost_and_mark_from_the_cli(capsys: Any, path: str) -> None:
    """The CLI reads the Apply Effects dialog's words (issue 26): place fire, shelter and
    2 lore in Ash's hex, a major might boost (2), the mark 'spiral'."""
    from companion import operations
    from companion.content.schema.base import Ability
    from companion.operations.state import load_game

    data = js(capsys, "effect", path, "Ash", "place fire", "place shelter", "place lore 2",
              "boost might major", "mark spiral", "--source", "Codex outcome 220")
    assert "Codex outcome 220" in data["summary"]
    campaign = operations.open_campaign(Path(path))
    try:
        with campaign.file.read() as session:
            game = load_game(session, campaign.content)
        ash = game.character("Ash")
        assert ash.hex in game.tokens.fires and ash.hex in game.tokens.shelters
        assert game.tokens.lore[ash.hex] == 2
        assert ash.boosts[Ability.MIGHT] == (2,) and ash.marks == ("spiral",)
    finally:
        campaign.close()
    code, _, err = run(capsys, "effect", path, "Ash", "place bonfire")
    assert code == 1 and "Place lore, fire or shelter" in err


def test_overlays_outposts_the_player_chooses_the_overlay_from_the_cli(
        capsys: Any, path: str) -> None:
    """Rulebook: Overlays > Outposts: "Choose an outpost overlay that suits that outpost"."""
    code, _, err = run(capsys, "act", path, "Ash", "outpost", "plains", "--outpost-name",
                       "Hearth", "--contribute", "Bryn=2", "--overlay", "OP9")
    assert code == 1 and "the outpost overlay 'OP9' is not free" in err
    data = js(capsys, "act", path, "Ash", "outpost", "plains", "--outpost-name", "Hearth",
              "--contribute", "Bryn=2", "--overlay", "Stilt Houses")
    assert data["summary"].startswith("Ash built the outpost Hearth over the plains "
                                      "(overlay OP2)")


def test_day_actions_no_exchange_while_a_discovery_card_is_due_from_the_cli(
        capsys: Any, path: str) -> None:
    """Rulebook: Day Actions (exchanges before or after an action); Actions > Move."""
    assert run(capsys, "effect", path, "Ash", "gain wood 1")[0] == 0
    assert run(capsys, "act", path, "Ash", "move", "E09")[0] == 0
    code, _, err = run(capsys, "exchange", "give", path, "Ash", "Bryn", "--token", "1")
    assert code == 1 and "Ash must draw a Discovery card first (arrived in E09)" in err
