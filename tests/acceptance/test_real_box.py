"""Acceptance: the first challenge of a "My own box" campaign (issue 25, "Done when"),
played through the terminal the way a group with the real box would: every tile, card
and Codex outcome typed as it comes up, nothing of the sample ever resolved.

Each test is one moment of play and builds its campaign by playing the moments before it
(``play``), so it passes alone and in any order. The table:

- Set Up: ``campaign new --box``; the starting tile 01 (Mossy Ford: plains, river, cave)
  and the face-down tiles 04 and 07 typed; the trait and mantle cards typed; Ash and
  Bryn made in 01; The First Thaw (C1) started from the card in hand (its vital goal,
  events and outcome 301 typed).
- Day 1: Ash explores north-east, flipping 04 (typed once: Reed Bank, forest and river)
  and draws the Discovery DI07, entered with the form; Bryn fishes at the river and the
  stock card drawn, FI03, is "just recorded"; Ash fishes at Reed Bank's river, the stock
  card FI13 entered with the form, and the rest resolved at the table; Bryn explores a
  new tray by its tiles 21 22 23, flipping 22 (Fern Hollow), and records the Discovery
  DI02.
- Night 1: both eat a fish; each draws a Night card from the box (N12, N05), recorded
  as what it did; the Night ends.
- Codex outcome 220, not in the content: what it did typed, applied, known when read
  again, never listed in My Cards.
- The challenge ends with the card's outcome 301 (typed, applied) naming C2, and C2
  (Deep Snow) starts, typed from its card.

Energy with two characters: 5 (D8); explore 2, fish 2, explore a tray 2 (rules.yaml);
Rest: automatic 2, +1 for food (D9).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import yaml

from companion.paths import shipped_content_dir
from tests.acceptance.table import Table
from tests.invariants.player import diff, game_rows, look, rows

SEED = "7"
SAMPLE_NAMES = ("Hot Spring", "Thin Ice", "Windgate", "Long Thaw", "Frost in the Fur")


class Box(Table):
    """The players' terminal, with a folder for the card files typed from the box."""

    def __init__(self, folder: Path) -> None:
        super().__init__(folder / "box.stonesaga")
        self.folder = folder
        self.start: dict[str, list[tuple[Any, ...]]] = {}

    def card_file(self, name: str, card: dict[str, Any]) -> str:
        """A card as typed into the form, saved as YAML (``--enter-card FILE``)."""
        out = self.folder / f"{name}.yaml"
        out.write_text(yaml.safe_dump(card, sort_keys=False), encoding="utf-8")
        return str(out)

    def add_card(self, kind: str, card: dict[str, Any]) -> dict[str, Any]:
        """Content ▸ My Cards ▸ a card entered (``content add-card box KIND FILE``)."""
        return self.js("content", "add-card", "box", kind, self.card_file(card["id"], card))

    def society(self) -> tuple[int, int, int]:
        status = self.status()
        return status["lore"], status["activity"], status["unrest"]

    def where(self) -> dict[str, tuple[int, str, list[str]]]:
        return {n: (c["energy"], c["hex_id"], c["health"]) for n, c in
                self.characters().items()}

    def bag(self, name: str) -> list[str]:
        return list(self.holdings(name)["bag"])

    def journal_texts(self, count: int = 40) -> list[str]:
        return self.last_journal(count)


def fishing_card(card_id: str, fish: tuple[int, int, int] = (1, 3, 2)) -> dict[str, Any]:
    """A fishing card laid out as the sample's first (its targets' contents: fish)."""
    card = yaml.safe_load((shipped_content_dir() / "sample" / "fishing.yaml").read_text(
        encoding="utf-8"))["fishing_cards"][0]
    for (_colour, target), amount in zip(card["targets"].items(), fish, strict=True):
        target["contents"] = [{"do": "gain", "resource": "fish", "amount": amount}]
    return {**card, "id": card_id}


RIVER = {"id": "river", "name": "River", "actions": [{"action": "gather_water"},
                                                     {"action": "fish"}],
         "open_terrain": False, "outpost_technology": "water-tech",
         "fishing": {"bonus": [{"do": "gain", "resource": "water"}],
                     "mishap": [{"do": "suffer", "token": "minor_injury"}]}}


# --- the moments of play, each building on the one before ----------------------------------


def set_up(box: Box) -> None:
    """Rulebook: Set Up; Character Creation; Select Challenge: everything typed."""
    p = box.path
    made = box.js("campaign", "new", "The Box Folk", "--box", "--file", p, "--seed", SEED)
    assert (made["kind"], made["packs"]) == ("box", ["stonesaga-rules", "box"])
    box.start = game_rows(look(Path(p)))
    assert "Type the starting tile of Verdant Vale first" in box.refused(
        "valley", "setup", p, "verdant-vale", "--tiles", "04", "07")
    box.js("valley", "tile", p, "01", "--region", "Verdant Vale", "--name", "Mossy Ford",
           "--sections", "plains", "river", "cave", "--starting")
    assert box.js("valley", "setup", p, "verdant-vale", "--tiles", "04", "07")["detail"] \
        == ["01", "04", "07"]
    box.add_card("traits", {"id": "brave", "name": "Brave", "text": "Typed from the card."})
    for mantle in ("pathfinder", "hearthkeeper"):
        box.add_card("mantles", {"id": mantle, "name": mantle.title(),
                                 "text": "Typed from the mantle board."})
    for number, (name, mantle) in enumerate((("Ash", "pathfinder"),
                                             ("Bryn", "hearthkeeper")), 1):
        box.js("character", "create", p, "--name", name, "--player", f"P{number}",
               "--dice", "6", "5", "4", "3", "1",
               "--assign", "might=6,dexterity=5,awareness=4,conviction=3",
               "--trait", "brave", "--mantle", mantle, "--hex", "01")
    box.js("challenge", "start", p, "--card-id", "C1", "--name", "The First Thaw",
           "--priority", "0", "--omen", "sun",
           "--vital", "Warm Hearth: Light a fire in the starting hex.",
           "--event", "5 societal The folk quarrel: unrest 1",
           "--event", "20 immediate Winter comes.", "--outcome", "301")


def day_explore_and_discover(box: Box) -> None:
    """Rulebook: Actions > Explore; Valley Decks > Discovery. Ash flips 04, typed once;
    the Discovery drawn, DI07, is a sample id: refused, then entered with the form."""
    p = box.path
    box.refused("act", p, "Ash", "explore", "north-east")  # 04 not typed yet
    box.js("valley", "tile", p, "04", "--region", "verdant-vale", "--name", "Reed Bank",
           "--sections", "forest", "river", "none")
    box.js("act", p, "Ash", "explore", "north-east")
    card = {"id": "DI07", "name": "Warm Spring", "text": "Steam rises from the rocks.",
            "effects": [{"do": "lore", "amount": 1}]}
    box.js("discover", p, "Ash", "--card", "DI07", "--enter-card",
           box.card_file("DI07", card))


def day_fishing(box: Box) -> None:
    """Rulebook: Fishing. The table enters the three fishing cards it owns so far and the
    river's bonus and mishap (D15) in My Cards; Bryn's stock card FI03 is just recorded;
    Ash's stock card FI13 is entered with the form, the rest resolved at the table."""
    p = box.path
    for card_id in ("FI11", "FI12", "FI14"):
        box.add_card("fishing_cards", fishing_card(card_id))
    box.add_card("features", RIVER)
    box.js("act", p, "Bryn", "fish", "river")
    box.js("step", p, "--record", "gain 2 fish Bryn, lore +1", "--card", "FI03")
    box.js("act", p, "Ash", "fish", "river")
    box.js("step", p, "--enter-card", box.card_file("FI13", fishing_card("FI13", (1, 2, 1))),
           "--choice", "FI13")
    box.js("step", p, "--choice", "FI11", "--choice", "6 5 4 3")
    box.js("step", p, "--record", "gain 1 fish Ash, energy -1 Ash")


def day_new_tray(box: Box) -> None:
    """Rulebook: Actions > Explore (a new tray): the tiles drawn at the table, the one
    flipped named (22, typed once); the Discovery DI02 recorded."""
    p = box.path
    box.js("valley", "tile", p, "22", "--region", "verdant-vale", "--name", "Fern Hollow",
           "--sections", "forest", "lake", "none")
    box.js("act", p, "Bryn", "tray", "1", "--tiles", "21", "22", "23", "--flipped", "22")
    box.js("record", p, "minor injury Bryn, activity +1", "--card", "DI02")


def night(box: Box) -> None:
    """Rulebook: Night Phase: Rest (eat), then each hex's Night card drawn from the box."""
    p = box.path
    box.js("act", p, "Ash", "pass")
    box.js("act", p, "Bryn", "pass")
    box.js("night", p, "--choice", "eat:0", "--choice", "eat:0")
    box.js("step", p, "--record", "energy -1, unrest +2", "--card", "N12",
           "--character", "Ash")
    box.js("step", p, "--record", "activity +2", "--card", "N05")


def codex_outcome(box: Box) -> None:
    """Rulebook: Using the Codex > Outcomes: 220 read in the book and typed."""
    box.js("codex", "outcome", box.path, "220", "--effects", "lore +1, gain 1 meat Ash")


def end_and_next(box: Box) -> None:
    """Rulebook: Continuing Play: End Challenge reads the card's outcome 301 (typed,
    naming the looming C2); C2 starts, typed from its card."""
    p = box.path
    box.js("challenge", "end", p, "--effects", "lore +2, unrest -1", "--looming", "C2")
    card = {"id": "C2", "name": "Deep Snow", "priority": 1, "starting_omen": "moon",
            "vital_goals": ["Salt the Meat: Hold 4 meat at the end of a Night."],
            "epoch_goals": ["Dark Skies: Survive three Nights with a fire lit."],
            "events": ["6 societal The folk quarrel: unrest 1", "18 immediate Winter comes."],
            "outcome": 412}
    box.js("challenge", "start", p, "--enter-card", box.card_file("C2", card))


MOMENTS = (set_up, day_explore_and_discover, day_fishing, day_new_tray, night,
           codex_outcome, end_and_next)


def play(tmp_path: Path, until: Any) -> Box:
    """A box campaign played up to (not including) the moment ``until``."""
    box = Box(tmp_path)
    for moment in MOMENTS:
        if moment is until:
            break
        moment(box)
    return box


def assert_no_sample(box: Box) -> None:
    """Nothing of the sample was ever resolved: no sample name in the journal."""
    texts = " ".join(box.journal_texts(500))
    assert not [n for n in SAMPLE_NAMES if n in texts]
    assert box.status()["packs"][:2] == ["stonesaga-rules 1.0.0", "box 1.0.0"]


# --- Set Up ---------------------------------------------------------------------------------


def test_set_up_the_box_s_tiles_cards_characters_and_first_challenge_typed(
        tmp_path: Path) -> None:
    box = play(tmp_path, day_explore_and_discover)
    p = box.path
    status = box.status()
    assert (status["kind"], status["challenge_id"], status["challenge_name"]) == (
        "box", "C1", "The First Thaw")
    assert status["goals"] == [{"goal": "G-warm-hearth", "name": "Warm Hearth",
                                "state": "vital"}]
    assert status["omens"] == ["sun"] and box.society() == (0, 0, 0)
    assert box.where() == {"Ash": (5, "01", []), "Bryn": (5, "01", [])}
    assert {n: c["mantle"] for n, c in box.characters().items()} == {
        "Ash": "Pathfinder", "Bryn": "Hearthkeeper"}
    # Face-down tiles stay unnamed: the Day's buttons say where they lie.
    code, out, _ = box.run("actions", p, "Ash", "--json")
    assert code == 0 and '"04"' not in out and '"07"' not in out
    explores = {a["target"] for a in json.loads(out)["actions"] if a["action"] == "explore"}
    assert explores == {"north-east", "south-east"}
    # A sample id typed where the box lacks it is refused, naming the box's packs.
    said = box.refused("challenge", "start", p, "C2")
    assert "Frost in the Fur" not in said
    assert_no_sample(box)


# --- Day 1 ----------------------------------------------------------------------------------


def test_day_a_face_down_tile_is_typed_once_when_flipped_and_dI07_is_not_the_sample_s(
        tmp_path: Path) -> None:
    box = play(tmp_path, day_explore_and_discover)
    p = box.path
    said = box.refused("act", p, "Ash", "explore", "north-east")
    assert "the tile 04 is not in your pack yet" in said
    box.js("valley", "tile", p, "04", "--region", "verdant-vale", "--name", "Reed Bank",
           "--sections", "forest", "river", "none")
    assert "already known" in box.refused("valley", "tile", p, "04", "--region",
                                          "verdant-vale", "--sections", "lake", "lake", "lake")
    box.js("act", p, "Ash", "explore", "north-east")
    assert box.where()["Ash"] == (3, "04", [])
    # DI07 is the sample's Hot Spring: the box refuses it, naming both ways on.
    said = box.refused("discover", p, "Ash", "--card", "DI07")
    assert said.startswith("DI07 is not a Discovery card of this campaign (My own box, "
                           "your own pack)")
    assert "--enter-card FILE" in said and "record PATH" in said
    card = {"id": "DI07", "name": "Warm Spring", "text": "Steam rises from the rocks.",
            "effects": [{"do": "lore", "amount": 1}]}
    drawn = box.js("discover", p, "Ash", "--card", "DI07", "--enter-card",
                   box.card_file("DI07", card))
    assert drawn["summary"].startswith("Ash drew the Discovery Warm Spring (DI07)")
    assert box.society() == (1, 0, 0)
    assert_no_sample(box)


def test_day_fishing_one_stock_card_just_recorded_one_entered_and_resolved_at_the_table(
        tmp_path: Path) -> None:
    box = play(tmp_path, day_fishing)
    p = box.path
    said = box.refused("act", p, "Bryn", "fish", "river")
    assert said.startswith("Your pack has no fishing cards yet")
    for card_id in ("FI11", "FI12", "FI14"):
        box.add_card("fishing_cards", fishing_card(card_id))
    assert "what fishing at the river gives and costs" in box.refused(
        "act", p, "Bryn", "fish", "river")
    box.add_card("features", RIVER)
    box.js("act", p, "Bryn", "fish", "river")
    # FI01 is a sample fishing card: never the sample's here.
    said = box.refused("step", p, "--choice", "FI01")
    assert "FI01 is not a fishing card of this campaign (My own box, your own pack)" in said
    assert "--record" in said
    done = box.js("step", p, "--record", "gain 2 fish Bryn, lore +1", "--card", "FI03")
    assert done["procedure"] is None
    assert box.journal_texts(1)[0] == ("Fishing resolved at the table (the fishing card "
                                       "FI03): Bryn: gain 2 fish; gain 1 lore. What the app "
                                       "had tallied so far was not applied.")
    assert box.bag("Bryn") == ["fresh fish", "fresh fish"] and box.society() == (2, 0, 0)
    assert [(r["card"], r["kind"], r["line"]) for r in box.js(
        "content", "recorded", p)["recorded"]] == [
        ("FI03", "fishing_cards", "gain 2 fish Bryn, lore +1")]
    # Ash: the stock card FI13 entered with the form, the water card FI11 and the dice
    # typed, then the rest resolved at the table.
    box.js("act", p, "Ash", "fish", "river")
    step = box.js("step", p, "--enter-card", box.card_file("FI13", fishing_card(
        "FI13", (1, 2, 1))), "--choice", "FI13")["procedure"]
    assert step["log"] == ["Step 1: draw the stock card: FI13"]
    step = box.js("step", p, "--choice", "FI11", "--choice", "6 5 4 3")["procedure"]
    assert step["step"]["prompt"].startswith("Step 4: place the 6")
    assert box.js("step", p, "--record", "gain 1 fish Ash, energy -1 Ash")["procedure"] \
        is None
    assert box.journal_texts(1)[0].startswith("Fishing resolved at the table: Ash: gain 1 "
                                              "fish; Ash: lose 1 energy.")
    assert box.where() == {"Ash": (0, "04", []), "Bryn": (3, "01", [])}
    assert box.bag("Ash") == ["fresh fish"]
    assert_no_sample(box)


def test_day_a_new_tray_by_its_tiles_with_the_flipped_one_named_and_a_recorded_discovery(
        tmp_path: Path) -> None:
    box = play(tmp_path, day_new_tray)
    p = box.path
    trays = [a for a in box.js("actions", p, "Bryn")["actions"]
             if a["action"] == "explore_tray"]
    assert trays[0]["places"] == ["beyond the north-west and south-west tiles",
                                  "north-west of Mossy Ford", "south-west of Mossy Ford"]
    assert "not in your pack yet" in box.refused(
        "act", p, "Bryn", "tray", "1", "--tiles", "21", "22", "23", "--flipped", "22")
    box.js("valley", "tile", p, "22", "--region", "verdant-vale", "--name", "Fern Hollow",
           "--sections", "forest", "lake", "none")
    done = box.js("act", p, "Bryn", "tray", "1", "--tiles", "21", "22", "23",
                  "--flipped", "22")
    assert done["detail"] == ["21", "22", "23"]
    assert "entered and flipped Fern Hollow (22) for 2 energy; a Discovery card is due" \
        in done["summary"]
    assert "(" not in done["summary"].split(": ")[0]  # no coordinates
    recorded = box.js("record", p, "minor injury Bryn, activity +1", "--card", "DI02")
    assert (recorded["card"], recorded["kind"]) == ("DI02", "discovery_cards")
    assert "DI02" in box.journal_texts(1)[0]
    assert box.where()["Bryn"] == (1, "22", ["minor_injury"])
    assert box.society() == (2, 1, 0)
    assert "DI02" in [r["card"] for r in box.js("content", "recorded", p)["recorded"]]
    assert_no_sample(box)


# --- Night 1 --------------------------------------------------------------------------------


def test_night_the_box_s_night_cards_recorded_as_effects_and_the_night_ends(
        tmp_path: Path) -> None:
    box = play(tmp_path, night)
    p = box.path
    box.js("act", p, "Ash", "pass")
    box.js("act", p, "Bryn", "pass")
    walk = box.js("night", p, "--choice", "eat:0", "--choice", "eat:0")["procedure"]
    assert walk["step"]["prompt"] == ("Ash draws the top card of the Night deck: draw it "
                                      "from the box and type it")
    assert box.refused("step", p, "--choice", "N06")  # the sample's Ember Storm: unknown
    walk = box.js("step", p, "--record", "energy -1, unrest +2", "--card", "N12",
                  "--character", "Ash")["procedure"]
    assert walk["step"]["prompt"].startswith("Bryn draws the top card of the Night deck")
    assert box.js("step", p, "--record", "activity +2", "--card", "N05")["procedure"] is None
    texts = box.journal_texts(2)
    assert texts[0].startswith("The Night ends. Bryn draws N05: resolved at the table. "
                               "Activity +2: now 3.") and "A new Day begins." in texts[0]
    assert "N12, resolved at the table (Ash: lose 1 energy; increase unrest by 2)" \
        in texts[1]
    # Rest: automatic 2 + a fish 1; Ash then loses 1 to N12.
    assert box.where() == {"Ash": (2, "04", []), "Bryn": (4, "22", ["minor_injury"])}
    assert box.society() == (2, 3, 2)
    recorded = {(r["card"], r["kind"]) for r in box.js("content", "recorded", p)["recorded"]}
    assert {("N12", "night_cards"), ("N05", "night_cards")} <= recorded
    assert_no_sample(box)


# --- The Codex ------------------------------------------------------------------------------


def test_codex_an_outcome_the_box_lacks_typed_applied_and_known_next_time(
        tmp_path: Path) -> None:
    box = play(tmp_path, codex_outcome)
    p = box.path
    said = box.refused("codex", "outcome", p, "220", "--apply")
    assert "Outcome 220 is not in this campaign's Codex" in said and "type what it did" in said
    done = box.js("codex", "outcome", p, "220", "--effects", "lore +1, gain 1 meat Ash")
    assert done["outcome"]["recorded"] is True
    assert done["applied"].startswith("Codex outcome 220: gain 1 lore; Ash: gain 1 meat")
    assert box.society() == (3, 3, 2) and "fresh meat" in box.bag("Ash")
    again = box.js("codex", "outcome", p, "220")["entry"]
    assert again["found"] and again["text"] == "Recorded at the table: lore +1, gain 1 meat Ash"
    code, listed, _ = box.run("content", "my-cards", "--json")
    assert code == 0 and "codex" not in listed and "gain 1 meat Ash" not in listed
    assert any("Codex outcome 220: gain 1 lore" in t for t in box.journal_texts(3))
    assert_no_sample(box)


# --- End Challenge, and the next ------------------------------------------------------------


def test_end_challenge_the_card_s_outcome_applied_and_the_next_challenge_typed(
        tmp_path: Path) -> None:
    box = play(tmp_path, end_and_next)
    p = box.path
    ended = box.js("challenge", "end", p, "--effects", "lore +2, unrest -1",
                   "--looming", "C2")
    assert ended["outcome"] == "301"  # from the card typed at Set Up
    assert ended["codex"]["applied"].startswith("Codex outcome 301: gain 2 lore; decrease "
                                                "unrest by 1")
    status = box.status()
    assert (status["challenge_id"], box.society()) == (None, (5, 0, 1))
    card = {"id": "C2", "name": "Deep Snow", "priority": 1, "starting_omen": "moon",
            "vital_goals": ["Salt the Meat: Hold 4 meat at the end of a Night."],
            "epoch_goals": ["Dark Skies: Survive three Nights with a fire lit."],
            "events": ["6 societal The folk quarrel: unrest 1", "18 immediate Winter comes."],
            "outcome": 412}
    started = box.js("challenge", "start", p, "--enter-card", box.card_file("C2", card))
    assert "The challenge 'Deep Snow' begins" in started["summary"]
    status = box.status()
    assert (status["challenge_id"], status["games_this_epoch"], status["omens"]) == (
        "C2", 2, ["moon"])
    assert [(g["goal"], g["state"]) for g in status["goals"]] == [
        ("G-salt-the-meat", "vital"), ("G-dark-skies", "epoch")]
    assert box.where() == {"Ash": (5, "01", []), "Bryn": (5, "01", [])}
    # 301 read again: known, as typed.
    assert box.js("codex", "outcome", p, "301")["entry"]["text"] == \
        "Recorded at the table: lore +2, unrest -1"
    assert_no_sample(box)


# --- The whole challenge: undo, redo, export and import -------------------------------------


def test_the_played_box_campaign_undoes_to_the_start_redoes_and_round_trips(
        tmp_path: Path) -> None:
    box = play(tmp_path, None)
    path = Path(box.path)
    end = game_rows(look(path))
    undone = 0
    while box.run("undo", box.path)[0] == 0:
        undone += 1
    assert "nothing to undo" in box.run("undo", box.path)[2]
    assert undone > 30 and game_rows(look(path)) == box.start, \
        diff(box.start, game_rows(look(path)))
    while box.run("redo", box.path)[0] == 0:
        pass
    assert game_rows(look(path)) == end, diff(end, game_rows(look(path)))
    first, second = tmp_path / "first.json", tmp_path / "second.json"
    copy = tmp_path / "imported.stonesaga"
    for argv in (("export", box.path, str(first)), ("import", str(first), str(copy)),
                 ("export", str(copy), str(second))):
        code, _, err = box.run(*argv)
        assert code == 0, err
    assert first.read_bytes() == second.read_bytes()
    assert rows(copy) == rows(path)
    assert Table(copy).status()["challenge_id"] == "C2"
