"""Issue 36 items 1 and 2 from the terminal, in a "My own box" campaign: crafting asks
what the owner's Codex says (``--codex-says`` / ``--no-entry``), remembers it and
crafts; a material a typed line names that the pack lacks is refused naming ``material
add``, and the line goes through once the token is entered (Rulebook: Processing &
Crafting > Crafting Items; Using the Codex > Crafting Entries; Tokens > Material
Tokens). The tokens and the item are the community's (tests/fixtures)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.box_campaign import make_box_campaign
from tests.cli.helpers import run_json as run
from tests.community_tokens import community_token, journal_recipe


def edge_args(token: dict[str, Any]) -> list[str]:
    """``material add``'s edge options for a community token."""
    out = []
    for side, option in (("unprocessed", "--edge"), ("processed", "--processed-edge")):
        for edge, (colour, count) in token[side].items():
            out += [option, f"{edge}={colour} {count}"]
    return out


@pytest.fixture
def box_path(tmp_path: Path, capsys: Any) -> str:
    """A box campaign whose pack knows Quartz and Quill, one of each in Ash's bag."""
    path = tmp_path / "box.stonesaga"
    make_box_campaign(path).close()
    for name in ("Quartz", "Quill"):
        token = community_token(name)
        code, _, err = run(capsys, "material", "add", str(path), name, "--category",
                           token["category"], *edge_args(token))
        assert code == 0, err
    code, _, err = run(capsys, "effect", str(path), "Ash", "gain quartz 1", "gain quill 1")
    assert code == 0, err
    return str(path)


def test_crafting_items_codex_says_from_the_terminal(capsys: Any, box_path: str) -> None:
    code, data, err = run(capsys, "act", box_path, "Ash", "craft", "--token", "1", "--token",
                          "2", "--turns", "0", "2", "--json")
    assert code == 1 and data["ok"] is False
    assert "Grey 5610 (G5610) is not in the app's copy of your Codex yet" in err
    rope = journal_recipe("IT29")
    says = f"{rope['name']}; gear; {rope['notes']}; {rope['id']}"
    code, data, err = run(capsys, "act", box_path, "Ash", "craft", "--token", "1", "--token",
                          "2", "--turns", "0", "2", "--codex-says", says, "--json")
    assert code == 0, err
    assert "Ash crafts Rope." in data["summary"]
    code, data, _ = run(capsys, "codes", box_path, "--json")
    assert code == 0


def test_crafting_items_no_entry_from_the_terminal(capsys: Any, box_path: str) -> None:
    code, data, err = run(capsys, "craft", box_path, "Ash", "1", "2", "--right-turns", "2",
                          "--no-entry", "--json")
    assert code == 0, err
    assert "The Codex has no entry for it: nothing is crafted." in data["summary"]
    code, _, err = run(capsys, "craft", box_path, "Ash", "1", "2", "--no-entry",
                       "--codex-says", "Rope")
    assert code == 1 and "either" in err


def test_material_tokens_a_new_material_named_at_the_table(capsys: Any, box_path: str) -> None:
    """Issue 36 item 2: Forage "at the table" gaining reed, which the pack lacks: refused
    naming the token and ``material add``; entered, the same command goes through."""
    argv = ["act", box_path, "Ash", "forage", "plains", "--at-table", "gain 1 reed",
            "--card", "FP07"]
    code, _, err = run(capsys, *argv)
    assert code == 1
    assert "reed: a material token your pack does not know yet" in err
    assert "companion material add PATH 'reed'" in err
    code, out, err = run(capsys, "material", "add", box_path, "Reed", "--edge", "left=yellow 4")
    assert code == 0 and "Entered the material token reed (Reed)" in out, err
    code, _, err = run(capsys, *argv)
    assert code == 0, err
