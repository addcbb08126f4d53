"""The headless commands, called in-process through ``companion.cli.main``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from companion import __version__
from companion.cli import main
from tests.cli.helpers import run


def test_version(capsys: Any) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["--version"])
    assert exit_.value.code == 0
    assert capsys.readouterr().out.strip() == f"companion {__version__}"


def test_new_status_journal_undo_redo(tmp_path: Path, capsys: Any) -> None:
    path = tmp_path / "c.stonesaga"
    code, out, _ = run(capsys, "campaign", "new", "Hearth of Ash", "--players", "3",
                       "--file", str(path), "--seed", "1")
    assert code == 0 and path.exists()
    code, out, _ = run(capsys, "status", str(path), "--json")
    status = json.loads(out)["status"]
    assert status["society_name"] == "Hearth of Ash"
    assert (status["unrest"], status["activity"], status["lore"], status["epoch"]) == (0, 0, 0, 1)
    assert run(capsys, "journal", "add", str(path), "Found a cave of bones.")[0] == 0
    code, out, _ = run(capsys, "journal", "list", str(path), "--json")
    events = json.loads(out)["events"]
    assert events[0]["text"] == "Found a cave of bones." and not events[0]["undone"]
    code, out, _ = run(capsys, "undo", str(path))
    assert code == 0 and "Found a cave of bones." in out
    code, out, _ = run(capsys, "journal", "list", str(path), "--json")
    assert any(e["text"] == "Found a cave of bones." and e["undone"]
               for e in json.loads(out)["events"])
    code, out, _ = run(capsys, "redo", str(path))
    assert code == 0


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--players", "5"], "1 to 4 players"),
        (["--players", "2", "--characters", "3"], "2 characters, or 4"),
        (["--players", "2", "--solo", "hardcore"], "single character"),
    ],
)
def test_new_refuses_impossible_setups(tmp_path: Path, capsys: Any, args: list[str],
                                       message: str) -> None:
    path = tmp_path / "bad.stonesaga"
    code, _, err = run(capsys, "campaign", "new", "X", "--file", str(path), *args)
    assert code == 1 and message in err
    assert not path.exists()


def test_undo_with_nothing_to_undo_is_refused(tmp_path: Path, capsys: Any) -> None:
    path = tmp_path / "c.stonesaga"
    run(capsys, "campaign", "new", "Y", "--file", str(path))
    code, _, err = run(capsys, "undo", str(path))
    assert code == 1 and "nothing to undo" in err


def test_a_text_file_is_refused_and_left_alone(tmp_path: Path, capsys: Any) -> None:
    path = tmp_path / "notes.stonesaga"
    path.write_text("not a campaign")
    code, _, err = run(capsys, "status", str(path))
    assert code == 1 and err.startswith("refused:")
    assert path.read_text() == "not a campaign"


def test_export_import_round_trip(tmp_path: Path, capsys: Any) -> None:
    path = tmp_path / "c.stonesaga"
    run(capsys, "campaign", "new", "Z", "--file", str(path))
    run(capsys, "journal", "add", str(path), "An entry worth keeping.")
    out = tmp_path / "c.json"
    assert run(capsys, "export", str(path), str(out))[0] == 0
    copy = tmp_path / "copy.stonesaga"
    assert run(capsys, "import", str(out), str(copy))[0] == 0
    code, listing, _ = run(capsys, "journal", "list", str(copy), "--json")
    assert any(e["text"] == "An entry worth keeping." for e in json.loads(listing)["events"])


def test_check_and_backups(tmp_path: Path, capsys: Any) -> None:
    path = tmp_path / "c.stonesaga"
    run(capsys, "campaign", "new", "W", "--file", str(path))
    run(capsys, "status", str(path))  # opening takes a backup
    assert run(capsys, "check", str(path))[0] == 0
    code, out, _ = run(capsys, "backup", "list", str(path), "--json")
    assert code == 0 and json.loads(out)["backups"]


def test_smoke_paints_the_window_and_exits_zero(tmp_path: Path) -> None:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", COMPANION_HOME=str(tmp_path))
    done = subprocess.run([sys.executable, "-m", "companion", "--smoke"], env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "smoke ok" in done.stdout and "main window" in done.stdout


def test_play_commands_set_up_create_and_act(tmp_path: Path, capsys: Any) -> None:
    path = tmp_path / "p.stonesaga"
    run(capsys, "campaign", "new", "Players", "--file", str(path), "--seed", "3")
    assert run(capsys, "valley", "setup", str(path), "emberfen")[0] == 0
    assert run(capsys, "challenge", "start", str(path), "C1")[0] == 0
    code, out, err = run(capsys, "character", "create", str(path), "--name", "Ash",
                         "--dice", "6", "5", "4", "3", "1",
                         "--assign", "might=6,dexterity=5,awareness=4,conviction=3",
                         "--trait", "intrepid", "--hex", "E01", "--mantle", "hearthkeeper")
    assert code == 0, err
    code, out, _ = run(capsys, "actions", str(path), "Ash", "--json")
    actions = json.loads(out)["actions"]
    explore = next(a for a in actions if a["action"] == "explore")
    assert explore["cost"] == 2 and explore["refusal"] is None
    assert run(capsys, "act", str(path), "Ash", "explore", explore["target"])[0] == 0
    code, out, _ = run(capsys, "characters", str(path), "--json")
    assert json.loads(out)["characters"][0]["energy"] == 3
    code, _, err = run(capsys, "society", str(path), "spend-lore", "2")
    assert code == 1 and "has 0 lore" in err


def test_night_walks_with_choices_and_json_for_scripts(tmp_path: Path, capsys: Any) -> None:
    from companion import operations

    path = tmp_path / "n.stonesaga"
    operations.create_demo_campaign(path, seed=8).close()
    code, _, err = run(capsys, "night", str(path), "--json")
    assert code == 1 and "The Day goes on until Ash, Bryn pass" in err
    for name in ("Ash", "Bryn"):
        run(capsys, "act", str(path), name, "pass")
    code, out, _ = run(capsys, "night", str(path), "--json")
    state = json.loads(out)["procedure"]
    assert code == 0 and state["kind"] == "night" and state["step"]["options"]
    # Answer one step by option number, then let the app draw every card to the end.
    code, out, _ = run(capsys, "step", str(path), "--choice", "1", "--json")
    assert len(json.loads(out)["procedure"]["log"]) == 1
    for _ in range(40):
        code, out, _ = run(capsys, "step", str(path), "--app", "--choice", "1", "--json")
        if json.loads(out)["procedure"] is None:
            break
    assert json.loads(out)["procedure"] is None
    code, out, _ = run(capsys, "actions", str(path), "Ash", "--json")
    assert json.loads(out)["turn"]["may_act"] == ["Ash", "Bryn"]


def test_fishing_at_the_table_with_typed_cards_and_dice(tmp_path: Path, capsys: Any) -> None:
    from companion import operations

    path = tmp_path / "f.stonesaga"
    operations.create_demo_campaign(path, seed=8).close()
    code, out, err = run(capsys, "fish", str(path), "Ash", "river", "--choice", "FI01",
                         "--choice", "FI02", "--choice", "6 6 6 6", "--json")
    assert code == 0, err
    log = json.loads(out)["procedure"]["log"]
    assert log[0].endswith("FI01") and log[2].endswith("6 6 6 6")
    code, _, err = run(capsys, "step", str(path), "--choice", "99")
    assert code == 1 and "refused" in err


def test_save_points_and_undo_to_them(tmp_path: Path, capsys: Any) -> None:
    path = tmp_path / "s.stonesaga"
    run(capsys, "campaign", "new", "Points", "--file", str(path))
    run(capsys, "journal", "add", str(path), "kept")
    assert run(capsys, "savepoint", str(path), "before the Night")[0] == 0
    run(capsys, "journal", "add", str(path), "first after")
    run(capsys, "journal", "add", str(path), "second after")
    code, out, _ = run(capsys, "undo", str(path), "--to", "before the Night")
    assert code == 0 and "undid 2" in out
    code, out, _ = run(capsys, "journal", "list", str(path), "--json")
    live = [e["text"] for e in json.loads(out)["events"] if not e["undone"]]
    assert "kept" in live and "first after" not in live and "second after" not in live
    code, _, err = run(capsys, "undo", str(path), "--to", "nowhere")
    assert code == 1 and "no save point named 'nowhere'" in err


def test_effects_craft_and_codes(tmp_path: Path, capsys: Any) -> None:
    from companion import operations

    path = tmp_path / "c.stonesaga"
    operations.create_demo_campaign(path, seed=8).close()
    assert run(capsys, "effect", str(path), "Ash", "gain flint", "gain sinew",
               "--source", "a gift")[0] == 0
    code, out, _ = run(capsys, "codes", str(path), "Ash", "--json")
    assert {"code": "R1410", "known": "untried"}.items() <= next(
        c for c in json.loads(out)["codes"] if c["code"] == "R1410").items()
    code, out, err = run(capsys, "craft", str(path), "Ash", "1", "2")
    assert code == 0, err
    assert "Red 1410" in out or "R1410" in out


def test_screenshot_saves_the_painted_main_window(tmp_path: Path) -> None:
    out = tmp_path / "shot.png"
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", COMPANION_HOME=str(tmp_path))
    done = subprocess.run([sys.executable, "-m", "companion", "--screenshot", str(out)],
                          env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert not (tmp_path / "settings.ini").exists() or "companion-smoke" not in \
        (tmp_path / "settings.ini").read_text()  # a throw-away demo is not remembered


def test_the_night_card_prompt_does_not_name_the_top_card(tmp_path: Path) -> None:
    # Rulebook: Night Phase > Night Cards: the table draws the card; the prompt printed
    # at that step does not say which card is on top of the Night deck.
    from companion import operations
    from companion.cli.procedure_cmd import step_prompt
    from companion.operations import procedures
    from companion.rules.procedure import Decider

    campaign = operations.create_demo_campaign(tmp_path / "t.stonesaga", seed=8)
    try:
        for name in ("Ash", "Bryn"):
            operations.pass_turn(campaign, name=name)
        procedures.start_night(campaign)
        while (view := procedures.in_progress(campaign)) is not None and \
                view.step is not None and view.step.decider is not Decider.CARD:
            procedures.advance(campaign, choice=view.step.options[0])
        assert view is not None and view.step is not None
        top = view.step.options[0]
        text = step_prompt(view.step)
        assert top not in text and "type the card you drew" in text
    finally:
        campaign.close()


def test_issue24_an_undo_that_must_stop_says_which_step_and_what_to_do(
        tmp_path: Path, capsys: Any) -> None:
    """Issue 24 (c): ``companion undo`` that must stop names the step and the way back
    in game words; nothing is changed."""
    import sqlite3

    path = str(tmp_path / "c.stonesaga")
    assert run(capsys, "campaign", "new", "Reed", "--file", path)[0] == 0
    assert run(capsys, "journal", "add", path, "The thaw begins")[0] == 0
    assert run(capsys, "society", path, "unrest", "2")[0] == 0
    conn = sqlite3.connect(path)
    conn.execute("UPDATE society SET unrest = 5")  # no journal step wrote this
    conn.commit()
    conn.close()
    code, _, err = run(capsys, "undo", path)
    assert code == 1
    assert err.startswith("refused: Undo stops at “Unrest +2 to 2")
    assert "companion backup list, companion backup restore" in err
    assert "outside the journal" not in err


def test_issue24_a_night_with_nothing_to_ask_ends_at_once(tmp_path: Path, capsys: Any
                                                          ) -> None:
    """Found by the whole-campaign harness: when every character's health track is full
    of major injuries, the Night has nothing to ask; it was saved unfinishable ("no
    attribute 'prompt'" from ``night``, then "already finished" for ever). Rulebook:
    Night Phase; Character Death: it ends at once and each becomes a legend."""
    from companion import operations

    path = tmp_path / "d.stonesaga"
    operations.create_demo_campaign(path).close()
    p = str(path)
    for name in ("Ash", "Bryn"):
        for _ in range(5):
            assert run(capsys, "effect", p, name, "suffer major_injury")[0] == 0
        assert run(capsys, "act", p, name, "pass")[0] == 0
    code, out, err = run(capsys, "night", p, "--json")
    assert (code, err) == (0, "")
    assert json.loads(out)["procedure"] is None
    code, out, _ = run(capsys, "journal", "list", p, "--json", "--limit", "1")
    said = json.loads(out)["events"][0]["text"]
    assert said.startswith("Night falls. The Night ends.")
    assert "Ash perished and becomes a legend." in said
    assert run(capsys, "step", p, "--json")[1].count('"procedure": null') == 1


def night_begun(tmp_path: Path, capsys: Any) -> str:
    """A demo campaign whose characters both passed and whose Night began (not over)."""
    from companion import operations

    path = tmp_path / "d.stonesaga"
    operations.create_demo_campaign(path).close()
    p = str(path)
    for name in ("Ash", "Bryn"):
        assert run(capsys, "act", p, name, "pass")[0] == 0
    assert run(capsys, "night", p, "--json")[0] == 0
    return p


def test_issue24_steps_between_games_wait_for_the_night(tmp_path: Path, capsys: Any) -> None:
    """Found by the whole-campaign harness (seed 2003): a character aged out into a
    legend while the Night was in progress, and the Night's end then crashed writing
    them back (KeyError). Aging, a new challenge, its end and a new epoch come between
    games (Rulebook: End of Challenge); while the Night goes on they are refused and
    change nothing."""
    p = night_begun(tmp_path, capsys)
    for argv in (("age", p, "Ash"), ("challenge", "start", p, "C2"),
                 ("challenge", "end", p, "120"), ("epoch", "new", p)):
        before = run(capsys, "journal", "list", p, "--json")[1]
        code, _, err = run(capsys, *argv)
        assert code == 1, argv
        assert "waits until the night is over: finish it first" in err, err
        assert run(capsys, "journal", "list", p, "--json")[1] == before


def test_issue24_a_change_typed_during_the_night_is_refused_not_lost(
        tmp_path: Path, capsys: Any) -> None:
    """Found by the whole-campaign harness: an effect typed while the Night went on
    ("Ash gain 1 flint") was erased without a word when the Night ended, which writes
    every character as it saw them. It is refused, saying when it can be applied."""
    p = night_begun(tmp_path, capsys)
    before = run(capsys, "journal", "list", p, "--json")[1]
    for argv in (("effect", p, "Ash", "gain flint 1"), ("heal", p, "Ash", "1")):
        code, _, err = run(capsys, *argv)
        assert code == 1
        assert "The Night is in progress and its end writes every character" in err, err
    assert run(capsys, "journal", "list", p, "--json")[1] == before
    for _ in range(30):  # the Night to its end; then the effect is kept
        out = run(capsys, "step", p, "--app", "--choice", "1", "--json")[1]
        if '"procedure": null' in out:
            break
    assert run(capsys, "effect", p, "Ash", "gain flint 1")[0] == 0
    code, out, _ = run(capsys, "exchange", "list", p, "Ash", "--json")
    assert "unprocessed flint" in json.loads(out)["bag"]
