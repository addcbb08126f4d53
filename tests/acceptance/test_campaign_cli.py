"""Acceptance: a two-character campaign played through the command line with ``--json``
(issue 16, "Done when"). Every step runs ``companion.cli.main`` in-process, as a player
at a terminal would, and is checked against values computed by hand from the sample pack
(content/rules/rules.yaml) and the rulebook. The steps are the moments of one campaign, in
order; each test is one moment of play.

Two characters: the rules' character scale gives each 5 health and 5 energy (D8:
``{characters: 2, health: 5, energy: 5}``); action costs from ``action_costs``:
forage 2, fish 2, mine 2, delve 1, craft 1, move 1, build_outpost 4 (shared),
Drying Rack 1 (items.yaml). Deterministic: every card, chip and die is typed as drawn
at the table (``--choice``, ``--card``, ``--tiles``, ``--dice``) and the campaign's seed
(``--seed 7``) fixes the order of the Night deck, whose top card is then typed too.

Each test passes alone and in any order: it starts from a copy of the campaign as
the tests written before it leave it, played once per session by the ``ember`` story
(tests/acceptance/conftest.py), not from the test run before it."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.acceptance.table import SEED, Story, Table

# make test runs in parallel: the story's tests share one worker, so it is played once.
pytestmark = pytest.mark.xdist_group("ember")


@pytest.fixture
def table(ember: Story, request: pytest.FixtureRequest, tmp_path: Path) -> Table:
    return ember.before(request.function.__name__, tmp_path)


# --- Set Up -------------------------------------------------------------------------------


def test_set_up_a_new_society_the_thornspire_tray_and_the_long_thaw(table: Table) -> None:
    p = table.path
    assert table.js("campaign", "new", "The Ember Folk", "--players", "2", "--file", p,
                    "--seed", SEED)["society"] == "The Ember Folk"
    # Rulebook: Set Up > the first tray: the starting hex and the two face-down hexes drawn.
    assert table.js("valley", "setup", p, "thornspire", "--tiles", "T02", "T05")["detail"] \
        == ["T01", "T02", "T05"]
    # The Long Thaw's set-up: "Delving is open from the start" (challenges.yaml).
    assert table.js("challenge", "start", p, "C1")["summary"] \
        == "The challenge 'The Long Thaw' begins. Delving is open from the start."
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
        == "Ash joined the society (Might 6, Dexterity 5, Awareness 4, Conviction 3; Cunning)"
    assert table.js("character", "create", p, "--name", "Bryn", "--player", "P2",
                    "--dice", "2", "3", "3", "2", "1",
                    "--assign", "might=2,dexterity=3,awareness=3,conviction=2",
                    "--trait", "intrepid", "--trait", "wise", "--mantle", "pathfinder",
                    "--hex", "T01")["summary"] \
        == "Bryn joined the society (Might 2, Dexterity 3, Awareness 3, Conviction 2; " \
           "Intrepid, Wise)"
    chars = table.characters()
    assert {n: (c["energy"], c["energy_max"], c["health_max"], c["hex_id"], c["mantle"])
            for n, c in chars.items()} == {"Ash": (5, 5, 5, "T01", "Hearthkeeper"),
                                           "Bryn": (5, 5, 5, "T01", "Pathfinder")}


# --- Challenge 1, Day 1 in Windgate (T01: plains, cave, mountain) ---------------------------


def test_day_actions_the_costs_listed_are_the_pack_costs(table: Table) -> None:
    """Rulebook: Actions; `companion actions` lists each terrain's action with its cost."""
    listed = {(a["action"], a["target"]): a["cost"]
              for a in table.js("actions", table.path, "Ash")["actions"]}
    assert listed[("forage", "plains")] == 2
    assert listed[("mine", "cave")] == listed[("mine", "mountain")] == 2
    assert listed[("delve", "cave")] == 1
    assert listed[("build_outpost", "plains")] == 4
    assert listed[("prepare_shelter", "cave")] == 1
    assert listed[("pass", None)] == 0


def test_foraging_ash_builds_a_tableau_of_two_cards_then_harvests_a_root(
        table: Table) -> None:
    """Rulebook: Foraging, steps 1-4 in order, the cards typed as drawn at the table:
    step 1 draws FP04 and FP12 and FP04 begins the tableau; step 2 draws FP12 and FP11
    and FP12 is added; step 3 harvest; step 4 one root plant within reach.
    Energy 5 - 2 (forage) = 3."""
    data = table.js("act", table.path, "Ash", "forage", "plains",
                    "--choice", "FP04", "--choice", "FP12", "--choice", "FP04",
                    "--choice", "FP12", "--choice", "FP11", "--choice", "FP12",
                    "--choice", "harvest", "--choice", "FP04/front/3", "--choice", "done")
    assert data["procedure"] is None
    assert table.last_journal()[0] == (
        "Ash finished foraging: Drew FP04. Drew FP12. Added FP04 to the tableau; FP12 goes "
        "back into the deck. Drew FP12. Drew FP11. Added FP12 to the tableau; FP11 goes back "
        "into the deck. Harvesting. Chose Root Plant (FP04, front row). Gained root.")
    assert table.holdings("Ash")["bag"] == ["fresh root"]
    assert table.energy() == {"Ash": 3, "Bryn": 5}


def test_mining_bryn_pulls_a_sunstone_and_the_omen_matches(table: Table) -> None:
    """Rulebook: Mining: the mountain's chips; a sunstone pulled at the table; the sun omen
    of The Long Thaw matches it: 1 + 1 sunstone; then stop. Energy 5 - 2 (mine) = 3."""
    data = table.js("act", table.path, "Bryn", "mine", "mountain",
                    "--choice", "0", "--choice", "stop")  # chip 0 of the bag: a sunstone
    assert data["procedure"] is None
    assert table.holdings("Bryn")["bag"] == ["unprocessed sunstone", "unprocessed sunstone"]
    assert table.energy() == {"Ash": 3, "Bryn": 3}


def test_day_actions_characters_take_turns(table: Table) -> None:
    """Rulebook: Day Phase: characters alternate; Bryn acted last, Bryn waits."""
    assert table.refused("act", table.path, "Bryn", "mine", "cave", "--app") \
        == "Bryn has already taken the last action; Ash must act or pass first"


def test_crafting_items_flint_beside_sinew_reads_red_1410_a_stone_knife(
        table: Table) -> None:
    """Rulebook: Crafting Items: flint (left) beside sinew (right) reads Red 1410 (the
    rulebook's example; crafting.yaml: stone-knife). Energy 3 - 1 (craft) = 2."""
    p = table.path
    table.js("effect", p, "Ash", "gain flint 1", "gain sinew 1")  # a card read at the table
    assert table.holdings("Ash")["bag"] == ["fresh root", "unprocessed flint",
                                            "unprocessed sinew"]
    assert table.refused("act", p, "Ash", "craft", "--token", "1", "--token", "2") \
        == "root is not a material token: only materials craft"
    table.js("act", p, "Ash", "craft", "--token", "2", "--token", "3")
    held = table.holdings("Ash")
    assert held["items"] == ["Stone Knife"] and held["bag"] == ["fresh root"]
    assert table.energy() == {"Ash": 2, "Bryn": 3}


def test_building_an_outpost_bryn_and_ash_share_the_4_energy(table: Table) -> None:
    """Rulebook: Building an Outpost (D12: 4 energy shared by the characters in the hex):
    Ash contributes 1, Bryn the other 3. Bryn 3 - 3 = 0, Ash 2 - 1 = 1. The plains need
    no technology."""
    data = table.js("act", table.path, "Bryn", "outpost", "plains", "--outpost-name",
                    "Hearth", "--contribute", "Ash=1")
    assert data["summary"] == "Bryn built the outpost Hearth over the plains: 4 energy, " \
                              "3 from Bryn and 1 from Ash"
    assert table.energy() == {"Ash": 1, "Bryn": 0}
    assert table.status()["outposts"] == 1


def test_building_structures_ash_builds_a_drying_rack_at_hearth(table: Table) -> None:
    """Rulebook: Building Structures: Drying Rack costs 2 wood, 1 fiber and 1 energy
    (items.yaml); the materials are discarded. Ash 1 - 1 = 0."""
    p = table.path
    table.js("effect", p, "Ash", "gain wood 2", "gain fiber 1")  # a card read at the table
    data = table.js("act", p, "Ash", "structure", "Drying Rack")
    assert data["summary"] == "Ash built Drying Rack at Hearth (1 energy); discarded " \
                              "unprocessed wood from Ash, unprocessed wood from Ash, " \
                              "unprocessed fiber from Ash"
    assert table.holdings("Ash")["bag"] == ["fresh root"]
    assert table.energy() == {"Ash": 0, "Bryn": 0}


def test_goals_first_hearth_is_met_from_the_cli(table: Table) -> None:
    """Rulebook: Goals: 'First Hearth: Build an outpost with a drying rack', a vital goal
    of The Long Thaw, is met now; its reward is unrest -1 (0 stays 0)."""
    code, _, err = table.run("challenge", "goal", table.path, "G-first-hearth", "--json")
    assert code == 0, err
    assert ("G-first-hearth", "completed") in [
        (g["goal"], g["state"]) for g in table.status()["goals"]]


# --- Night 1 -------------------------------------------------------------------------------


def test_night_phase_rest_eat_and_starve_then_the_night_card(table: Table) -> None:
    """Rulebook: Night Phase > Rest (D9, two characters: automatic 2; food +1; starving:
    a minor injury). Ash eats the fresh root: 0 + 2 + 1 = 3. Bryn has no food: 0 + 2 = 2
    and a minor injury. The Night card drawn, Ember Storm (N06, group), adds 3 activity:
    0 + 3 = 3 (unrest 0 adds nothing)."""
    p = table.path
    table.js("act", p, "Bryn", "pass")
    table.js("act", p, "Ash", "pass")
    data = table.js("night", p, "--choice", "eat:0", "--choice", "Ash", "--choice", "N06")
    assert data["procedure"] is None
    assert table.last_journal()[0] == "The Night ends. Ash resolves Ember Storm. Bryn " \
                                      "resolves Ember Storm. Activity +3 from Night cards, " \
                                      "+0 from unrest: now 3. A new Day begins."
    chars = table.characters()
    assert {n: (c["energy"], c["health"]) for n, c in chars.items()} == {
        "Ash": (3, []), "Bryn": (2, ["minor_injury"])}
    assert (table.status()["activity"], table.status()["unrest"]) == (3, 0)


# --- Challenge 1, Day 2 ----------------------------------------------------------------------


def test_explore_ash_reveals_scree_steps_and_draws_a_discovery(table: Table) -> None:
    """Rulebook: Actions > Explore (2 energy): Ash 3 - 2 = 1; a Discovery card is due on
    arrival, typed as drawn at the table (DI06 Curious Fox, no test)."""
    p = table.path
    assert table.js("act", p, "Ash", "explore", "T02")["summary"] \
        == "Ash: Explore T02: 2 energy; a Discovery card is due"
    assert table.js("discover", p, "Ash", "--card", "DI06")["summary"].startswith(
        "Ash drew the Discovery Curious Fox (DI06)")
    assert table.energy() == {"Ash": 1, "Bryn": 2}
    assert table.characters()["Ash"]["hex_id"] == "T02"


def test_delving_bryn_finds_the_bone_pile_and_retraces(table: Table) -> None:
    """Rulebook: Delving (D4: 1 energy): DV03 Bone Pile gives 1 lore; Bryn retraces her
    path and comes out at T01. Bryn 2 - 1 = 1; lore 0 + 1 = 1."""
    data = table.js("act", table.path, "Bryn", "delve", "cave", "--choice", "DV03",
                    "--choice", "retrace")
    assert data["procedure"] is None
    assert table.last_journal()[0].endswith("Gain 1 lore. Bryn retraces their path. Bryn "
                                            "comes out at T01.")
    assert table.status()["lore"] == 1
    assert table.energy() == {"Ash": 1, "Bryn": 1}


def test_feature_actions_bryn_prepares_shelter_in_the_cave(table: Table) -> None:
    """Rulebook: Feature Actions > Prepare Shelter (1 energy): Bryn 1 - 1 = 0."""
    p = table.path
    table.js("act", p, "Ash", "pass")
    assert table.js("act", p, "Bryn", "shelter")["summary"] \
        == "Bryn prepared shelter in hex T01 (1 energy)"
    assert table.energy() == {"Ash": 1, "Bryn": 0}


def test_character_death_bryn_incapacitated_perishes_at_the_start_of_the_night(
        table: Table) -> None:
    """Rulebook: Health > Incapacitated; Night Phase: "each incapacitated character
    perishes" and becomes a Legend (Character Death). A rockfall read at the table deals
    Bryn 4 major injuries: 1 minor + 4 major fill her 5 health slots."""
    p = table.path
    for _ in range(4):
        table.js("effect", p, "Bryn", "suffer major_injury", "--source", "a rockfall")
    assert table.characters()["Bryn"]["status"] == "incapacitated"
    table.js("act", p, "Bryn", "pass")
    # Night 2: Ash, alone in T02 with no food, rests: 1 + 2 = 3 and starves (a minor
    # injury). Sky Fire (N18, group) adds 3 activity: 3 + 3 = 6, which reaches The Long
    # Thaw's event at 6+: "Melt floods the lowlands" places lore in each hex with
    # characters (its effect, applied as it fires).
    data = table.js("night", p, "--choice", "N18")
    assert data["procedure"] is None
    night = table.last_journal()[0]
    assert "Activity +3 from Night cards, +0 from unrest: now 6. Activity 6 reaches the " \
           "general event at 6." in night
    assert "Event: Activity 6: Melt floods the lowlands (lore placed in each hex with " \
           "characters)." in night
    assert table.status()["activity"] == 6
    chars = table.characters()
    assert list(chars) == ["Ash"]
    assert (chars["Ash"]["energy"], chars["Ash"]["health"]) == (3, ["minor_injury"])
    legends = table.js("legend", "list", p)["legends"]
    assert [(le["name"], le["traits"], le["held_by"]) for le in legends] == [
        ("Bryn", ["intrepid", "wise"], None)]


def test_character_death_the_journal_says_who_perished(table: Table) -> None:
    """Rulebook: Character Death: the Night's journal names who perished, once."""
    assert table.last_journal()[0].count("Bryn perished") == 1
    assert table.last_journal()[0].endswith("A new Day begins. Bryn perished and becomes a "
                                            "legend. Event: Activity 6: Melt floods the "
                                            "lowlands (lore placed in each hex with "
                                            "characters).")


def test_character_death_a_replacement_enters_with_0_energy_in_a_hex_with_shelter(
        table: Table) -> None:
    """Rulebook: Character Death: "their player creates a new character and places them
    in a hex that has shelter. The new character enters play with 0 energy." T01 has
    the shelter Bryn prepared; T02 has none. 4+4+3+3 = 14 > 11: one trait."""
    p = table.path
    cai = ["character", "create", p, "--name", "Cai", "--player", "P2",
           "--dice", "4", "4", "3", "3", "2",
           "--assign", "might=4,dexterity=4,awareness=3,conviction=3",
           "--trait", "wise", "--mantle", "loreweaver", "--replacement"]
    assert table.refused(*cai, "--hex", "T02") \
        == "Cai enters play in a hex that has shelter (T01); T02 has none"
    assert table.js(*cai, "--hex", "T01")["summary"] \
        == "Cai joined the society (Might 4, Dexterity 4, Awareness 3, Conviction 3; Wise)" \
           "; replaces Bryn, who perished: enters with 0 energy in a hex with shelter"
    chars = table.characters()
    assert {n: (c["energy"], c["hex_id"]) for n, c in chars.items()} == {
        "Ash": (3, "T02"), "Cai": (0, "T01")}


# --- Challenge 1, Day 3 ----------------------------------------------------------------------


def test_fishing_ash_strikes_three_fish_in_the_river_of_scree_steps(table: Table) -> None:
    """Rulebook: Fishing (D3: 2 energy): Ash 3 - 2 = 1. Stock FI03, water FI10, dice
    6 5 4 3 typed from the table; 6 and 5 at location 1 (red line), 4 and 3 at location
    3 (black line); outcome FI01. Red: 6+5 = 11 vs FI03 red 6, FI01 red +3 = 9: success,
    3 fish. Black: 4+3 = 7 vs 6 + 2 (mishap) = 8: failure, the mishap a minor injury."""
    data = table.js("act", table.path, "Ash", "fish", "river",
                    "--choice", "FI03", "--choice", "FI10", "--choice", "6 5 4 3",
                    "--choice", "1", "--choice", "1", "--choice", "3", "--choice", "3",
                    "--choice", "FI01", "--choice", "1/red", "--choice", "3/black")
    assert data["procedure"] is None
    assert table.last_journal()[0] == (
        "Ash finished fishing: Stock: FI03. Water: FI10 (3 strike locations). Rolled 6, 5, "
        "4, 3. Placed the 6 on location 1. Placed the 5 on location 1. Placed the 4 on "
        "location 3. Placed the 3 on location 3. Outcome: FI01. Location 1, red line: "
        "strike 11 vs difficulty 9: success, gain 3 fish. Location 3, black line: strike 7 "
        "vs difficulty 8: failure. Mishap: suffer 1 minor injury.")
    assert table.holdings("Ash")["bag"] == ["fresh fish"] * 3
    chars = table.characters()
    assert (chars["Ash"]["energy"], chars["Ash"]["health"]) == (
        1, ["minor_injury", "minor_injury"])


def test_mantle_exceeding_item_limits_ash_alone_must_lose_the_third_hand_item(
        table: Table) -> None:
    """Rulebook: Mantle > Item Slots; Exceeding Item Limits (D11: hand 2). A card read at
    the table gives Ash a Fishing Spear and a Sling: Stone Knife + 2 = 3 hand items > 2.
    Ash is alone in T02 (Cai is in T01), so no one has room: he acts again only once he
    chooses what is lost, and the journal says so."""
    p = table.path
    assert table.js("effect", p, "Ash", "item fishing-spear", "item sling")["summary"] \
        .endswith("Ash holds 3 hand items: choose one to lose (no one in the hex has room).")
    excess = table.holdings("Ash")["excess"]
    assert [(e["slot"], e["held"], e["limit"], e["room"]) for e in excess] == [
        ("hand", 3, 2, [])]
    assert table.refused("act", p, "Ash", "pass") \
        == "Ash holds 3 hand items: choose one to lose (no one in the hex has room)"
    assert table.refused("exchange", "excess", p, "Ash", "sling", "--to", "Cai") \
        == "Ash and Cai are not in the same hex"
    assert table.js("exchange", "excess", p, "Ash", "sling", "--lose")["summary"] \
        == "Ash had no room and lost the Sling (back to the item deck)"
    assert table.holdings("Ash")["items"] == ["Stone Knife", "Fishing Spear"]


def test_tracks_activity_a_card_raises_activity_to_10_and_the_societal_event_fires(
        table: Table) -> None:
    """Rulebook: Tracks > Activity (D7): activity raised by the dial (a card read at the
    table: +4) fires The Long Thaw's event at 10+, a societal one: "The elders argue",
    unrest +2. Activity 6 + 4 = 10; unrest 0 + 2 = 2 (below 6: no threshold)."""
    data = table.js("society", table.path, "activity", "4")
    assert data["summary"] == "Activity +4 to 10. Event: Activity 10: The elders argue " \
                              "(unrest +2)"
    status = table.status()
    assert (status["activity"], status["unrest"]) == (10, 2)
    assert not any(t["active"] for t in status["unrest_thresholds"])


# --- The end of challenge 1, challenge 2, a new epoch -----------------------------------------


def test_continuing_play_challenge_1_ends_supplies_retained_activity_reset(
        table: Table) -> None:
    """Rulebook: Continuing Play (D13). Ash holds 2 items (Stone Knife, Fishing Spear) and
    3 fresh fish (food, not a material token): both items are retained (2 <= 5 items,
    0 <= 5 materials),
    the fish go back to the box; activity 10 -> 0, unrest stays 2; outcome 104 names
    Frost in the Fur as the looming challenge."""
    p = table.path
    assert table.refused("challenge", "end", p, "104", "--retain",
                         "Ash:stone-knife,clay-pot:") \
        == "Ash has no Clay Pot to retain (Ash holds Stone Knife, Fishing Spear)."
    assert table.refused("challenge", "end", p, "104", "--retain", "Ash:stone-knife:1") \
        == "only material tokens are retained; fish is not one"
    assert table.js("challenge", "end", p, "104", "--retain",
                    "Ash:stone-knife,fishing-spear:",
                    "--looming", "C2")["summary"] == "The challenge ends (outcome 104)"
    # The end, then the outcome read in the Codex (the sample Codex has no entry 104).
    assert table.last_journal(2)[0] == "Codex: looked for entry 104; there is none"
    assert table.last_journal(2)[1] == (
        "The Long Thaw ends: outcome entry 104; looming challenges set aside for the next "
        "game: Frost in the Fur; Ash retains 2 item(s) and 0 "
        "material(s); everything else the characters carried goes back to the box; "
        "activity resets; fire, shelter and lore tokens leave the valley")
    status = table.status()
    assert (status["challenge_id"], status["activity"], status["games_this_epoch"],
            status["unrest"]) == (None, 0, 1, 2)
    assert (table.holdings("Ash")["items"], table.holdings("Ash")["bag"]) == ([], [])
    retained = table.js("challenge", "retained", p)["retained"]
    assert [(r["character"], r["items"], r["materials"]) for r in retained] == [
        ("Ash", ["Stone Knife", "Fishing Spear"], [])]
    assert retained[0]["item_ids"] == ["stone-knife", "fishing-spear"]
    assert len(retained[0]["items"]) <= 5 and len(retained[0]["materials"]) <= 5


def test_set_up_challenge_2_characters_start_rested_and_healed(table: Table) -> None:
    """Rulebook: Set Up, choosing a challenge (the looming one, C2); D13: full energy
    (5; unrest 2 < 6 takes nothing off), no injuries (Ash's two minor injuries gone),
    placed in the starting hex or a hex with an outpost (T01 has both); the retained
    supplies claimed once."""
    p = table.path
    assert table.refused("challenge", "start", p, "C3") \
        == "C3 cannot be chosen now; choose C2 (priority rule)"
    assert table.js("challenge", "start", p, "C2")["summary"] == (
        "The challenge 'Frost in the Fur' begins. Ash begins in T01 with 5 energy in the "
        "Hearthkeeper mantle. Cai begins in T01 with 5 energy in the Loreweaver mantle. "
        "Ash takes up the supplies Ash retained (2 item(s), "
        "0 material(s)).")
    chars = table.characters()
    assert {n: (c["energy"], c["health"], c["hex_id"]) for n, c in chars.items()} == {
        "Ash": (5, [], "T01"), "Cai": (5, [], "T01")}
    assert table.holdings("Ash")["items"] == ["Stone Knife", "Fishing Spear"]
    assert table.refused("challenge", "claim", p, "Ash", "1") \
        == "Those retained supplies have already been claimed."
    status = table.status()
    assert (status["challenge_id"], status["activity"], status["games_this_epoch"]) == (
        "C2", 0, 2)


def test_a_new_epoch_begins(table: Table) -> None:
    """Rulebook: Looming Challenges & Epoch Goals: Frost in the Fur ends naming Voices on
    the Ridge; the epoch changes only between challenges; epoch 1 -> 2, its game count
    starts again at 0, then 1 with C3. Unrest rose meanwhile by 4 (a card): 2 + 4 = 6,
    so (D10) Quelling the Embers is in play and characters begin C3 with 5 - 1 = 4
    energy."""
    p = table.path
    # Frost in the Fur's event at 5 (immediate): a card read at the table raises activity
    # 0 + 5 = 5, "Rimeback wakes. Set it up": Rimeback set up with the cards dealt at the
    # table; at the end of the challenge it goes back to the box (Rulebook: Continuing Play).
    assert table.js("society", p, "activity", "5")["summary"] == (
        "Activity +5 to 5. Event: Activity 5: Rimeback wakes. Set it up (read Codex "
        "outcome 223)")
    assert table.js("behemoth", "setup", p, "rimeback", "--instinct", "RBI2", "--secret",
                    "RBS1", "--lair", "T02", "--section", "a")["summary"] == (
        "Rimeback is set up: Instinct card RBI2 (Territorial), a Secret card face down, "
        "its lair in T02")
    assert table.js("behemoth", "show", p)["behemoth"]["hex"] == "T02"
    assert table.js("society", p, "unrest", "4")["summary"] \
        == "Unrest +4 to 6. Epoch goal in play: Quelling the Embers"
    assert [t["active"] for t in table.status()["unrest_thresholds"]] == [True, False, False]
    assert table.refused("epoch", "new", p) == "An epoch cannot change during a challenge."
    table.js("challenge", "end", p, "105", "--looming", "C3")
    assert table.last_journal(2)[1].endswith("Rimeback goes back to the box")
    assert table.js("behemoth", "show", p)["behemoth"] is None
    assert table.js("epoch", "new", p)["summary"] == "A new epoch begins"
    status = table.status()
    assert (status["epoch"], status["games_this_epoch"], status["challenge_id"]) == (2, 0, None)
    assert table.js("challenge", "start", p, "C3")["summary"] == (
        "The challenge 'Voices on the Ridge' begins. Ash begins in T01 with 4 energy in the "
        "Hearthkeeper mantle. Cai begins in T01 with 4 energy in the Loreweaver mantle.")
    assert table.energy() == {"Ash": 4, "Cai": 4}
    status = table.status()
    assert (status["epoch"], status["games_this_epoch"], status["challenge_id"]) == (2, 1, "C3")
