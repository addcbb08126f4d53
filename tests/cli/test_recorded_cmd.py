"""The terminal's ways past an unknown card and a Codex outcome (issue 25 parts 3-4,
issue 27 items 6 and 10): the refusal names ``--enter-card FILE`` and ``--record``;
``step --record``, ``record``, ``content recorded`` / ``save-record`` and ``codex
outcome --apply / --effects``, each with ``--json``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from companion import operations
from companion.operations import procedures as run
from companion.operations.activities import start_foraging
from tests.cli.helpers import run as cli
from tests.cli.helpers import walk_typed
from tests.cli.test_cards_cmd import discovery_due


def foraging(tmp_path: Path) -> Path:
    path = tmp_path / "c.stonesaga"
    with operations.create_demo_campaign(path) as campaign:
        start_foraging(campaign, name="Ash", feature="forest")
    return path


def test_unknown_card_refusal_names_the_packs_and_both_flags(tmp_path: Path,
                                                             capsys: Any) -> None:
    path = foraging(tmp_path)
    code, out, err = cli(capsys, "step", str(path), "--choice", "FF99", "--json")
    assert code == 1
    refused = json.loads(out)["refused"]
    assert "FF99 is not a forest forage card of this campaign (Sample" in refused
    assert "--enter-card FILE" in refused and "--record" in refused
    assert "--record" in err


def test_step_record_resolves_the_card_at_the_table(tmp_path: Path, capsys: Any) -> None:
    """Rulebook: Foraging, resolved with the real card; the activity ends with it."""
    path = foraging(tmp_path)
    code, out, err = cli(capsys, "step", str(path), "--record", "gain 2 meat, lore +1",
                         "--card", "FF99", "--json")
    assert code == 0, err
    assert json.loads(out)["procedure"] is None
    code, out, err = cli(capsys, "content", "recorded", str(path), "--json")
    assert code == 0, err
    rows = json.loads(out)["recorded"]
    assert [(r["card"], r["kind"]) for r in rows] == [("FF99", "forage_cards")]
    code, out, _ = cli(capsys, "content", "recorded", str(path))
    assert "forage card FF99: gain 2 meat, lore +1" in out


def test_record_a_discovery_and_save_it_as_a_card(tmp_path: Path, capsys: Any) -> None:
    """Rulebook: Valley Decks > Discovery: a card the app does not know, recorded, then
    saved into the owner's pack with its id and effects."""
    path = discovery_due(tmp_path)
    code, out, err = cli(capsys, "record", str(path), "gain 1 wood, lore +1", "--card",
                         "DI99", "--json")
    assert code == 0, err
    assert "DI99" in json.loads(out)["summary"]
    with operations.open_campaign(path) as campaign:
        assert operations.discovery_due(campaign) is None
        event = campaign.journal(limit=1)[0].id
    (tmp_path / "more.yaml").write_text("name: Wild Boar\n", encoding="utf-8")
    code, out, err = cli(capsys, "content", "save-record", str(path), str(event),
                         str(tmp_path / "more.yaml"), "--json")
    assert code == 0, err
    assert json.loads(out)["card"] == "DI99"
    with operations.open_campaign(path) as campaign:
        card = campaign.content.discovery_cards["DI99"]
        assert card.name == "Wild Boar" and card.effects[0].do == "gain"


def test_record_refuses_a_line_that_does_not_read(tmp_path: Path, capsys: Any) -> None:
    path = foraging(tmp_path)
    code, out, err = cli(capsys, "step", str(path), "--record", "fly away", "--json")
    assert code == 1 and "'fly away'" in json.loads(out)["refused"]
    with operations.open_campaign(path) as campaign:
        assert run.in_progress(campaign) is not None


def test_codex_outcome_apply_and_record(tmp_path: Path, capsys: Any) -> None:
    """Rulebook: Using the Codex > Outcomes: shown, applied; one the Codex lacks is
    typed once and remembered."""
    path = tmp_path / "c.stonesaga"
    operations.create_demo_campaign(path).close()
    code, out, _ = cli(capsys, "codex", "outcome", str(path), "100")
    assert code == 0 and "--apply" in out
    code, out, err = cli(capsys, "codex", "outcome", str(path), "100", "--apply", "--json")
    assert code == 0, err
    assert json.loads(out)["outcome"]["effects"] == ["gain 1 lore"]
    code, out, _ = cli(capsys, "codex", "outcome", str(path), "999", "--apply", "--json")
    assert code == 1 and "type what it did" in json.loads(out)["refused"]
    code, out, err = cli(capsys, "codex", "outcome", str(path), "999", "--effects",
                         "lore +2", "--json")
    assert code == 0, err
    assert json.loads(out)["outcome"]["recorded"] is True
    code, out, _ = cli(capsys, "codex", "outcome", str(path), "999")
    assert "lore +2" in out
    code, out, _ = cli(capsys, "content", "my-cards", "--json")
    assert "codex_outcomes" not in out  # sealed: never listed


def test_interactive_step_offers_to_record_the_unknown_card(tmp_path: Path,
                                                            capsys: Any) -> None:
    path = foraging(tmp_path)
    with operations.open_campaign(path) as campaign:
        walk_typed(campaign, "FF99", "gain 2 meat, lore +1")
        assert run.in_progress(campaign) is None
    out = capsys.readouterr().out
    assert "Just record what FF99 did at the table" in out
    assert "Foraging resolved at the table (the forage card FF99)" in out
