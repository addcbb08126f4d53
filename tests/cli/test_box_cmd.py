"""``companion campaign new --box`` and the valley typed from the table (issue 25 parts 1
and 2; issue 27 items 8 and 9), headless and with ``--json`` (Rulebook: Set Up; Valley >
Hexes; Actions > Explore)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from companion import operations
from tests.box_campaign import make_box_campaign
from tests.cli.helpers import run


def js(capsys: Any, *argv: str) -> Any:
    code, out, err = run(capsys, *argv, "--json")
    assert code == 0, err
    return json.loads(out)


def test_rulebook_set_up_campaign_new_box_then_the_starting_tile(capsys: Any,
                                                                 tmp_path: Path) -> None:
    path = str(tmp_path / "box.stonesaga")
    made = js(capsys, "campaign", "new", "The Box Folk", "--box", "--file", path)
    assert made["kind"] == "box" and made["packs"] == ["stonesaga-rules", "box"]
    assert js(capsys, "status", path)["status"]["kind"] == "box"
    code, out, _ = run(capsys, "status", path)
    assert code == 0 and "My own box — the app learns it as you play" in out
    code, _, err = run(capsys, "valley", "setup", path, "verdant-vale", "--tiles", "4", "7")
    assert code == 1 and "Type the starting tile of Verdant Vale first" in err
    typed = js(capsys, "valley", "tile", path, "1", "--region", "Verdant Vale", "--name",
               "Mossy Ford", "--sections", "plains", "River", "none", "--omen", "sun:b",
               "--starting")
    assert "Mossy Ford" in typed["summary"]
    js(capsys, "valley", "setup", path, "verdant-vale", "--tiles", "4", "7")
    campaign = operations.open_campaign(Path(path))
    try:
        assert [h.tile_id for h in campaign.valley()[0].hexes] == ["1", "4", "7"]
        assert campaign.content.hexes["1"].starting
    finally:
        campaign.close()
    sample = js(capsys, "campaign", "new", "Demo Folk", "--file", str(tmp_path / "s.stonesaga"))
    assert sample["kind"] == "sample"


def test_rulebook_explore_face_down_tiles_stay_unnamed_in_actions_json(capsys: Any,
                                                                      tmp_path: Path) -> None:
    where = tmp_path / "d.stonesaga"
    operations.create_demo_campaign(where).close()
    hidden = ["E09", "E05"]  # the demo's face-down tiles (seed 2026)
    code, out, _ = run(capsys, "actions", str(where), "Ash", "--json")
    assert code == 0 and not any(tile in out for tile in hidden)
    explores = [a for a in json.loads(out)["actions"] if a["action"] == "explore"]
    assert {a["target"] for a in explores} == {"north-east", "south-east"}
    assert all(a["label"].startswith("Explore the unexplored hex ") for a in explores)
    trays = [a for a in json.loads(out)["actions"] if a["action"] == "explore_tray"]
    assert trays and all(len(a["places"]) == 3 for a in trays)
    assert all(" of Ashen Ford" in a["label"] and "," not in a["label"].split(" of ")[0]
               for a in trays)
    # The way it lies is what 'act ... explore' takes.
    code, out, err = run(capsys, "act", str(where), "Ash", "explore", "north-east")
    assert code == 0, err


def test_rulebook_explore_a_box_tray_typed_and_flipped_from_the_cli(capsys: Any,
                                                                    tmp_path: Path) -> None:
    where = tmp_path / "box.stonesaga"
    make_box_campaign(where).close()
    trays = [a for a in js(capsys, "actions", str(where), "Ash")["actions"]
             if a["action"] == "explore_tray"]
    code, _, err = run(capsys, "act", str(where), "Ash", "tray", "1", "--tiles", "21", "22",
                       "23", "--flipped", "22")
    assert code == 1 and "not in your pack yet" in err
    js(capsys, "valley", "tile", str(where), "22", "--region", "verdant-vale",
       "--sections", "forest", "lake", "none")
    done = js(capsys, "act", str(where), "Ash", "tray", "1", "--tiles", "21", "22", "23",
              "--flipped", "22")
    assert "flipped 22" in done["summary"] and trays[0]["label"]
