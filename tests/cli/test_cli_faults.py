"""Issue 24, Build item 4: the command line's faults found under bad input and fuzzing,
each reproduced before it was fixed.

- text from a file reaches the terminal with its control characters shown harmlessly
  (``--json`` stays exact);
- no traceback: deeply nested JSON or a 5,000-digit number given to ``import``, a dial
  turned by a number SQLite cannot hold, ``actions`` for a character not in the game, a
  reader of standard output gone away (``journal list | head``);
- under ``--json`` a refusal prints a JSON object saying why;
- a refused ``content add-card`` leaves the data folder as it was.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from companion import operations
from companion.cli import main
from companion.cli.terminal import shown
from tests.cli.helpers import run

REPO = Path(__file__).resolve().parents[2]
FIXTURES = REPO / "tests" / "operations" / "fixtures"

# A window title, a clipboard write (OSC 52), a clear screen, and the same clear screen
# as a C1 control (CSI, U+009B); a carriage return that would hide what came before.
HOSTILE = "\x1b]0;pwned\x07\x1b]52;c;ZXZpbA==\x07\x1b[2J\x9b2J\rgone"
RAW_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")



def assert_harmless(*texts: str) -> None:
    for text in texts:
        assert not RAW_CONTROL.search(text), repr(text)


def hostile_journal(tmp_path: Path) -> Path:
    """A web Campaign Journal file whose tribe name and note carry escape sequences."""
    data = json.loads((FIXTURES / "web-journal-v3.json").read_text(encoding="utf-8"))
    data["culture"]["tribeName"] = f"Reed{HOSTILE}"
    data["notePages"][0]["title"] = f"Willow{HOSTILE}"
    data["notePages"][0]["body"] = f"The willow roots{HOSTILE}"
    src = tmp_path / "hostile.json"
    src.write_text(json.dumps(data), encoding="utf-8")
    return src


@pytest.fixture
def hostile(tmp_path: Path, capsys: Any) -> Path:
    path = tmp_path / "hostile.stonesaga"
    code, _, err = run(capsys, "import", str(hostile_journal(tmp_path)), str(path))
    assert code == 0, err
    assert run(capsys, "journal", "add", str(path), f"willow entry{HOSTILE}")[0] == 0
    return path


@pytest.fixture
def campaign(tmp_path: Path) -> Path:
    """The demo campaign: Ash and Bryn on the Day of a first challenge."""
    path = tmp_path / "c.stonesaga"
    operations.create_demo_campaign(path, seed=8).close()
    return path


def strings(data: Any) -> list[str]:
    """Every string in decoded JSON."""
    if isinstance(data, str):
        return [data]
    if isinstance(data, dict):
        return [s for v in data.values() for s in strings(v)]
    if isinstance(data, list):
        return [s for v in data for s in strings(v)]
    return []


# --- control characters from files ---------------------------------------------------------


def test_shown_writes_controls_as_visible_text() -> None:
    assert shown("a\x1b[2Jb") == "a\\x1b[2Jb"
    assert shown("c\x9b2J\x7f\x00") == "c\\x9b2J\\x7f\\x00"
    assert shown("line\n\tindented é ✓") == "line\n\tindented é ✓"


def test_import_report_shows_escape_sequences_harmlessly(tmp_path: Path, capsys: Any) -> None:
    code, out, err = run(capsys, "import", str(hostile_journal(tmp_path)),
                         str(tmp_path / "new.stonesaga"))
    assert code == 0, err
    assert_harmless(out, err)
    assert "Reed\\x1b]0;pwned\\x07" in out


@pytest.mark.parametrize("command", [["status"], ["journal", "list"], ["search", "{path}",
                                                                          "willow"]])
def test_status_journal_search_show_escape_sequences_harmlessly(
    hostile: Path, capsys: Any, command: list[str]
) -> None:
    argv = [a.replace("{path}", str(hostile)) for a in command]
    if "{path}" not in command:
        argv.insert(len(command) if command[0] != "journal" else 2, str(hostile))
    code, out, err = run(capsys, *argv)
    assert code == 0, err
    assert_harmless(out, err)
    assert "\\x1b" in out  # the text is there, visible


@pytest.mark.parametrize("command", [["status"], ["journal", "list"], ["search", "{path}",
                                                                          "willow"]])
def test_json_output_keeps_the_text_exact(
    hostile: Path, capsys: Any, command: list[str]
) -> None:
    argv = [a.replace("{path}", str(hostile)) for a in command]
    if "{path}" not in command:
        argv.insert(len(command) if command[0] != "journal" else 2, str(hostile))
    code, out, err = run(capsys, *argv, "--json")
    assert code == 0, err
    assert any(HOSTILE in text for text in strings(json.loads(out)))


def test_the_command_line_prints_only_through_the_terminal_helper() -> None:
    """Every human-readable print path of the commands goes through companion.cli.terminal
    (the GUI launcher's prints are its own: numbers for the start-up bench, and the smoke
    line, which is shown())."""
    for module in (REPO / "companion" / "cli").glob("*.py"):
        if module.name in ("terminal.py", "gui.py"):
            continue
        source = module.read_text(encoding="utf-8")
        assert not re.search(r"(?<![\w.])(print|input)\(", source), module.name


# --- tracebacks --------------------------------------------------------------------------


@pytest.mark.parametrize(("text", "words"), [
    ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
    ('{"recipes": [' + "9" * 5000 + "]}", "number"),
    ('{"format": "x", "deep": ' + "[" * 100_000 + "]" * 100_000 + "}", "nested too deeply"),
    ('{"format": "x", "n": ' + "9" * 5000 + "}", "value no campaign has"),
], ids=["nested", "long-number", "nested-export", "long-number-export"])
def test_import_refuses_unreadable_json_in_words(
    tmp_path: Path, capsys: Any, text: str, words: str
) -> None:
    """The step that decides which importer reads the file (web journal or our export)."""
    src = tmp_path / "odd.json"
    src.write_text(text, encoding="utf-8")
    dest = tmp_path / "new.stonesaga"
    code, out, err = run(capsys, "import", str(src), str(dest))
    assert code == 1
    assert err.startswith("refused:") and words in err, err
    assert not dest.exists()


@pytest.mark.parametrize("track", ["unrest", "activity", "gain-lore"])
def test_a_dial_turned_past_what_can_be_recorded_is_refused(
    campaign: Path, capsys: Any, track: str
) -> None:
    """Rulebook: Tracks > Unrest, Activity, Lore: the dials have no top, but a number
    beyond what the campaign file can hold is refused and changes nothing: typed, it is
    a usage error; reached by an operation, it is rolled back and Refused."""
    with operations.open_campaign(campaign) as c:
        before = c.status()
    with pytest.raises(SystemExit) as exit_:
        main(["society", str(campaign), track, "9" * 23, "--json"])
    assert exit_.value.code == 2
    assert "too large" in json.loads(capsys.readouterr().out)["refused"]
    call = {"unrest": operations.change_unrest, "activity": operations.increase_activity,
            "gain-lore": operations.gain_lore}[track]
    with operations.open_campaign(campaign) as c, \
            pytest.raises(operations.Refused, match="too large"):
        call(c, amount=10**23)
    with operations.open_campaign(campaign) as c:
        assert c.status() == before


@pytest.mark.parametrize("argv", [
    ["search", "{path}", "river", "--epoch", "-" + "9" * 23],
    ["journal", "list", "{path}", "--limit", "9" * 23],
    ["backup", "restore", "{path}", "9" * 23],
])
def test_a_number_too_large_for_a_query_is_a_usage_error(
    campaign: Path, capsys: Any, argv: list[str]
) -> None:
    with pytest.raises(SystemExit) as exit_:
        main([a.replace("{path}", str(campaign)) for a in argv])
    assert exit_.value.code == 2
    assert "too large a number" in capsys.readouterr().err


@pytest.mark.parametrize("as_json", [False, True])
def test_actions_for_a_character_not_in_the_game(
    campaign: Path, capsys: Any, as_json: bool
) -> None:
    code, out, err = run(capsys, "actions", str(campaign), "Nobody",
                         *(["--json"] if as_json else []))
    assert code == 1
    assert "no character named Nobody" in err
    if as_json:
        assert "no character named Nobody" in json.loads(out)["refused"]
    else:
        assert out == ""


def test_a_reader_gone_away_is_not_a_refusal(campaign: Path) -> None:
    """``companion journal list | head``: the pipe's reader closes before the output is
    written. Nothing is said (the Python documentation's note on SIGPIPE)."""
    read_end, write_end = os.pipe()
    os.close(read_end)  # the reader is gone before anything is written
    try:
        done = subprocess.run(
            [sys.executable, "-m", "companion", "journal", "list", str(campaign)],
            stdout=write_end, stderr=subprocess.PIPE, text=True, cwd=REPO,
            env={**os.environ, "PYTHONPATH": str(REPO)}, check=False)
    finally:
        os.close(write_end)
    assert done.stderr == ""
    assert done.returncode == 1


# --- --json refusals -----------------------------------------------------------------------


@pytest.mark.parametrize("argv", [
    ["redo", "{path}"],                                     # an operation refuses
    ["journal", "list", "{missing}"],                         # the file is not there
    ["society", "{path}", "spend-lore", "300"],              # a rule refuses
    ["journal", "list", "{path}", "--limit", "many"],        # a usage error
    ["night", "{path}", "--choice", "nonsense"],             # a walk refuses an answer
], ids=["operation", "missing-file", "rule", "usage", "walk"])
def test_a_json_refusal_prints_a_json_object(
    campaign: Path, tmp_path: Path, capsys: Any, argv: list[str]
) -> None:
    filled = [a.replace("{path}", str(campaign)).replace(
        "{missing}", str(tmp_path / "missing.stonesaga")) for a in argv]
    if filled[0] == "night":  # the Night comes once everyone has passed
        for name in ("Ash", "Bryn"):
            assert run(capsys, "act", str(campaign), name, "pass")[0] == 0
    try:
        code = main([*filled, "--json"])
    except SystemExit as exit_:  # argparse's usage error
        code = exit_.code
    out, err = capsys.readouterr()
    assert code in (1, 2)
    data = json.loads(out)
    assert data["format"] == 1 and data["ok"] is False
    assert data["refused"] and data["refused"] in err.replace("refused: ", "")


def test_a_refused_add_card_leaves_the_data_folder_unchanged(
    capsys: Any, tmp_path: Path
) -> None:
    home = Path(os.environ["COMPANION_HOME"])
    assert run(capsys, "content", "my-cards")[0] == 0  # the data folder as a player has it

    def tree() -> dict[str, bytes | None]:
        return {str(p.relative_to(home)): p.read_bytes() if p.is_file() else None
                for p in sorted(home.rglob("*"))}

    before = tree()
    bad = tmp_path / "bad.yaml"
    bad.write_text("id: FX99\nname: Ghost carp\nnot_a_field: 3\n", encoding="utf-8")
    code, out, err = run(capsys, "content", "add-card", "sample", "fishing", str(bad),
                         "--json")
    assert code == 1
    assert json.loads(out)["refused"]
    assert tree() == before


def test_a_card_refused_at_the_table_leaves_no_pack_behind(campaign: Path) -> None:
    """The same through the operation the GUI's and the walk's card entry call."""
    home = Path(os.environ["COMPANION_HOME"])
    with operations.open_campaign(campaign) as c:
        before = sorted(str(p) for p in home.rglob("*"))
        from companion.operations import cards

        with pytest.raises(operations.Refused):
            cards.enter_card(c, kind="fishing_cards", data={"id": "FX98", "bogus": 1})
        assert sorted(str(p) for p in home.rglob("*")) == before


def test_character_death_no_night_without_a_character_in_play(
    campaign: Path, capsys: Any
) -> None:
    """Rulebook: Character Death (a player whose character is gone makes a new one) and
    Game Structure > Day Phase Ends: with every character aged out there is no Day to
    end. Found fuzzing: the Night began already finished, stayed in progress for ever,
    and 'night'/'step' failed with a traceback."""
    for name in ("Ash", "Bryn"):
        for _ in range(10):  # Rulebook: Aging: a character ages until they age out
            code, out, err = run(capsys, "age", str(campaign), name)
            assert code == 0, err
            if "ages out" in out:
                break
        assert "ages out" in out
    code, out, err = run(capsys, "night", str(campaign), "--json")
    assert code == 1
    assert "character create" in json.loads(out)["refused"]
    code, out, _ = run(capsys, "step", str(campaign), "--json")
    assert code == 0 and json.loads(out)["procedure"] is None


def test_character_creation_rolled_dice_keep_json_output_one_object(
    campaign: Path, capsys: Any
) -> None:
    """Rulebook: Character Creation (roll five dice). Found fuzzing: 'rolled: ...' was
    printed on standard output before the JSON object."""
    code, out, err = run(capsys, "character", "create", str(campaign), "--name", "Cara",
                         "--roll", "--json")
    assert code == 1
    assert json.loads(out)["refused"].startswith("Assign the kept dice")
    assert "rolled: " in err


def test_import_crafting_a_file_that_is_not_text(tmp_path: Path, capsys: Any) -> None:
    """Found fuzzing: bytes neither UTF-8 nor the Windows code page (0x81) were a
    UnicodeDecodeError traceback."""
    src = tmp_path / "red.csv"
    src.write_bytes(b"Code;Flavor Text;Game Text;Item Name\n1111;\x81\x8d;x;y\n")
    pack = tmp_path / "pack"
    code, out, err = run(capsys, "content", "import-crafting", str(src), "--pack", str(pack))
    assert code == 1
    assert "red.csv: cannot read the file" in err and "nothing imported" in err
    assert not pack.exists()


def test_store_warnings_show_controls_harmlessly(
    capsys: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A store warning names files (a backups folder, a campaign's name): its text too
    goes to the terminal through the helper."""
    import logging

    from companion.cli import campaign_cmd

    def warn(_args: Any) -> int:
        logging.getLogger("companion.store").warning("backups of a\x1b]0;x\x07.stonesaga")
        return 0

    monkeypatch.setattr(campaign_cmd, "cmd_status", warn)
    code, _, err = run(capsys, "status", "any.stonesaga")
    assert code == 0
    assert err == "warning: backups of a\\x1b]0;x\\x07.stonesaga\n"


def test_add_card_writes_a_list_of_cards_all_or_none(
    capsys: Any, tmp_path: Path, campaign: Path
) -> None:
    """'nothing is then written': a list whose second card does not fit wrote the first."""
    good = yaml_card(campaign, "FX71")
    both = tmp_path / "both.yaml"
    both.write_text(f"- {good}\n- id: FX72\n  bogus_field: 1\n", encoding="utf-8")
    code, _, err = run(capsys, "content", "add-card", "sample", "fishing", str(both))
    assert code == 1 and "was not saved" in err
    code, out, _ = run(capsys, "content", "my-cards", "--json")
    assert json.loads(out)["packs"] == []


def yaml_card(campaign: Path, card_id: str) -> str:
    """A sample fishing card under another id, as one flow-style YAML mapping."""
    with operations.open_campaign(campaign) as c:
        card = next(iter(c.content.fishing_cards.values()))
        data = card.model_dump(mode="json", exclude_defaults=True) | {"id": card_id}
    return json.dumps(data)
