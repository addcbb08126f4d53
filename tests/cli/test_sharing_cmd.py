"""Issue 38 at the command line: share, join, sync, list and settle a conflict."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.cli.helpers import run, run_json


def test_issue38_two_machines_share_play_apart_settle_and_end_the_same(
        tmp_path: Path, capsys: Any) -> None:
    ana, bryn, folder = tmp_path / "ana.stonesaga", tmp_path / "b" / "bryn.stonesaga", \
        tmp_path / "Shared"
    folder.mkdir()
    assert run(capsys, "campaign", "new", "--file", str(ana), "Ember")[0] == 0
    code, out, _ = run(capsys, "share", str(ana), str(folder), "--name", "Ana's laptop")
    assert code == 0 and "Ana's laptop" in out
    code, data, _ = run_json(capsys, "join", str(folder), "--file", str(bryn), "--name",
                             "Bryn's laptop", "--json")
    assert code == 0 and data["words"] == "Up to date"
    assert run(capsys, "society", str(ana), "unrest", "2")[0] == 0
    assert run(capsys, "society", str(bryn), "unrest", "1")[0] == 0
    assert run(capsys, "journal", "add", str(bryn), "Bryn's note")[0] == 0
    code, data, _ = run_json(capsys, "sync", str(ana), "--json")
    assert code == 0 and data["words"] == "1 conflict to settle"
    assert data["applied"].get("Bryn's laptop", 0) >= 1  # the note, and one unrest
    assert "1 conflict to settle" in run(capsys, "sync", str(bryn))[1]
    code, out, _ = run(capsys, "sync", str(bryn), "--conflicts")
    assert code == 0 and out.startswith("1. ") and "Unrest" in out
    code, data, _ = run_json(capsys, "sync", str(bryn), "--settle", "1", "--side", "theirs",
                             "--json")
    assert code == 0 and data["conflicts"] == 0
    run(capsys, "sync", str(ana))
    exports = []
    for name, path in (("a", ana), ("b", bryn)):
        out_file = tmp_path / f"{name}.json"
        assert run(capsys, "export", str(path), str(out_file))[0] == 0
        exports.append(out_file.read_bytes())
    assert exports[0] == exports[1]


def test_issue38_sync_of_a_campaign_never_shared_is_refused_in_words(
        tmp_path: Path, capsys: Any) -> None:
    path = tmp_path / "alone.stonesaga"
    run(capsys, "campaign", "new", "--file", str(path), "Alone")
    code, _, err = run(capsys, "sync", str(path))
    assert code == 1 and "not shared" in err
    code, _, err = run(capsys, "sync", str(path), "--settle", "1")
    assert code == 1 and "--side" in err


def test_issue38_share_and_join_without_a_name_say_how_to_give_the_machine_one(
        tmp_path: Path, capsys: Any) -> None:
    """Without --name a machine goes by its host name, which tells the others little in a
    conflict ("On vm: …"); the command says how to name it, and naming it says nothing
    more."""
    ana, bryn, folder = tmp_path / "ana.stonesaga", tmp_path / "bryn.stonesaga", \
        tmp_path / "Shared"
    folder.mkdir()
    run(capsys, "campaign", "new", "--file", str(ana), "Ember")
    code, out, _ = run(capsys, "share", str(ana), str(folder))
    assert code == 0 and f"companion sync {ana} --name" in out
    code, out, _ = run(capsys, "join", str(folder), "--file", str(bryn))
    assert code == 0 and f"companion sync {bryn} --name" in out
    code, out, _ = run(capsys, "sync", str(bryn), "--name", "Bryn's laptop")
    assert code == 0
    code, data, _ = run_json(capsys, "join", str(folder), "--file",
                             str(tmp_path / "cai.stonesaga"), "--name", "Cai's", "--json")
    assert code == 0 and "--name" not in str(data)
