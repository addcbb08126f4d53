"""``companion challenge start --enter-card`` / the card flags, and ``challenge end``
taking the outcome the card names (Rulebook: Set Up > Select Challenge; Continuing
Play; issue 25 part 5, issue 27 item 7)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companion import operations
from tests.cli.helpers import run_json as run


def test_continuing_play_end_reads_the_cards_outcome_in_the_codex(
        capsys: Any, demo_path: str) -> None:
    code, data, _ = run(capsys, "challenge", "end", demo_path, "--looming", "C2",
                        "--looming", "C41", "--json")
    assert code == 0 and data["outcome"] == "301"
    assert "outcome 301" in data["summary"]
    assert data["codex"]["found"] and "Frost in the Fur (C2)" in data["codex"]["text"]


def test_set_up_a_card_typed_from_a_yaml_file(capsys: Any, demo_path: str,
                                              tmp_path: Path) -> None:
    run(capsys, "challenge", "end", demo_path, "--looming", "C41")
    card = tmp_path / "c41.yaml"
    card.write_text(
        "id: C41\nname: The Salt Wind\npriority: 2\nstarting_omen: cloud\n"
        "vital_goals: ['Salt the Meat: Hold 4 meat at the end of a Night.']\n"
        "events: ['5 societal The folk quarrel: unrest 1', '19 immediate Winter comes.']\n"
        "outcome: 412\n", encoding="utf-8")
    code, data, err = run(capsys, "challenge", "start", demo_path, "--enter-card",
                          str(card), "--json")
    assert code == 0, err
    assert data["challenge"] == "C41" and data["goals"] == ["G-salt-the-meat"]
    assert "The challenge 'The Salt Wind' begins" in data["summary"]
    code, text, _ = run(capsys, "challenge", "end", demo_path)
    assert code == 0 and "outcome 412" in text  # the card named it
    assert "No entry 412 in the Codex" in text  # the sample Codex lacks it: said so


def test_set_up_a_card_typed_with_flags(capsys: Any, demo_path: str) -> None:
    run(capsys, "challenge", "end", demo_path, "--looming", "C42")
    code, text, err = run(
        capsys, "challenge", "start", demo_path, "--card-id", "C42", "--name", "Ash Fall",
        "--priority", "1", "--omen", "comet", "--vital", "First Hearth",
        "--epoch", "Dark Skies: Survive three Nights with a fire lit.",
        "--event", "4 event Ash falls: place fire", "--event", "8..12 ongoing Grey days",
        "--event", "15 immediate The sky clears.", "--outcome", "77")
    assert code == 0, err
    assert "Entered the challenge card Ash Fall (C42) and 1 goal card" in text
    code, data, _ = run(capsys, "status", demo_path, "--json")
    assert data["status"]["challenge_id"] == "C42"


@pytest.mark.parametrize(("argv", "message"), [
    (("--card-id", "C43", "--name", "X"), "needs --priority, --omen, --vital, --event"),
    (("--card-id", "C43", "--name", "X", "--priority", "1", "--omen", "sun", "--vital",
      "A: b", "--event", "3 flood"), "'flood' is not an event type"),
    (("--card-id", "C43", "--name", "X", "--priority", "1", "--omen", "sun", "--vital",
      "A: b", "--event", "3 event", "--outcome", "12345"), "up to three digits"),
    (("--enter-card", "/nonexistent/card.yaml"), "Could not read the card file"),
    ((), "Name the challenge to start"),
])
def test_set_up_typed_card_refusals(capsys: Any, demo_path: str, argv: tuple[str, ...],
                                    message: str) -> None:
    run(capsys, "challenge", "end", demo_path, "--looming", "C43")
    code, data, err = run(capsys, "challenge", "start", demo_path, *argv, "--json")
    assert code == 1 and message in err and "Traceback" not in err
    assert data["ok"] is False


def test_continuing_play_end_says_or_applies_the_outcome(capsys: Any, demo_path: str,
                                                          tmp_path: Path) -> None:
    """Issue 27 item 6 at the terminal: ended without --apply, the answer says how to act
    on the outcome (text and JSON alike); with --apply its effect (lore +1) is applied."""
    copy = str(tmp_path / "copy.stonesaga")
    Path(copy).write_bytes(Path(demo_path).read_bytes())
    code, data, _ = run(capsys, "challenge", "end", demo_path, "--json")
    assert code == 0 and "codex outcome PATH 301 --apply" in data["codex"]["next"]
    with operations.open_campaign(Path(copy)) as campaign:
        lore = campaign.status().lore
    code, data, _ = run(capsys, "challenge", "end", copy, "--apply", "--json")
    assert code == 0 and "next" not in data["codex"] and data["codex"]["applied"]
    with operations.open_campaign(Path(copy)) as campaign:
        assert campaign.status().lore == lore + 1
