"""``act NAME forage plains --at-table LINE``: a feature action of the owner's box played
with the real cards, what it gave recorded (issue 25 part 3; Rulebook: Feature Actions)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.box_campaign import make_box_campaign
from tests.cli.helpers import run as cli


def test_feature_actions_forage_at_the_table_from_the_cli(tmp_path: Path, capsys: Any) -> None:
    path = tmp_path / "box.stonesaga"
    make_box_campaign(path).close()
    code, out, err = cli(capsys, "actions", str(path), "Ash", "--json")
    assert code == 0, err
    forage = next(a for a in json.loads(out)["actions"] if a["action"] == "forage")
    assert forage["refusal"] and forage["at_table"] is True
    code, out, err = cli(capsys, "act", str(path), "Ash", "forage", "plains", "--at-table",
                         "gain 2 root, unrest +1", "--card", "FP03", "--json")
    assert code == 0, err
    summary = json.loads(out)["summary"]
    assert "Ash foraged at the plains (FP03), played at the table" in summary
    code, out, err = cli(capsys, "content", "recorded", str(path), "--json")
    assert code == 0, err
    assert any(r["card"] == "FP03" for r in json.loads(out)["recorded"])
    # Not a way around the rules: a feature not in the hex is refused, nothing changes.
    code, _out, err = cli(capsys, "act", str(path), "Ash", "forage", "forest", "--at-table",
                          "gain 2 root")
    assert code == 1 and err.startswith("refused: ")
    code, _out, err = cli(capsys, "act", str(path), "Ash", "water", "--at-table", "gain 2 root")
    assert code == 1 and "--at-table is for forage, fish, mine and delve" in err
