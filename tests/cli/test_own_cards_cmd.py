"""``companion status`` and ``companion content adopt``: the cards a campaign carries
(issue 24), as seen from a computer whose data folder lacks them or holds another
version."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from companion import operations
from companion.content import user_pack
from companion.operations import cards
from tests.cli.helpers import run as cli


def entered(tmp_path: Path) -> Path:
    path = tmp_path / "c.stonesaga"
    with operations.create_demo_campaign(path) as campaign:
        data = next(iter(campaign.content.discovery_cards.values())).model_dump(mode="json")
        cards.enter_card(campaign, kind="discovery_cards",
                         data=data | {"id": "DX01", "name": "Bones"})
    return path


def test_status_and_adopt_on_a_computer_without_the_cards(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    path = entered(tmp_path)
    monkeypatch.setenv("COMPANION_HOME", str(tmp_path / "laptop"))
    code, out, err = cli(capsys, "status", str(path))
    assert code == 0
    assert "your own cards: 1 carried by this campaign, 1 not in this computer's pack" in out
    assert "note: This campaign carries 1 card your pack on this computer lacks" in err
    assert f"companion content adopt {path}" in err
    code, out, err = cli(capsys, "status", str(path), "--json")
    assert json.loads(out)["status"]["own_cards"] == {"carried": 1, "missing": ["DX01"],
                                                      "edited": []}
    code, out, err = cli(capsys, "content", "adopt", str(path))
    assert code == 0, err
    assert "Added to your pack on this computer: Discovery card DX01 (Bones)" in out
    own = user_pack.find_user_pack("sample-mine")
    assert own is not None and [e.id for e in user_pack.entries(own.folder)] == ["DX01"]
    code, out, err = cli(capsys, "content", "adopt", str(path))
    assert code == 1 and "already has every card" in err
    code, out, err = cli(capsys, "status", str(path))
    assert "your own cards: 1 carried by this campaign\n" in out and "note:" not in err


def test_a_card_edited_here_is_said_and_adopt_edited_writes_the_campaigns_version(
        tmp_path: Path, capsys: Any) -> None:
    path = entered(tmp_path)
    own = user_pack.find_user_pack("sample-mine")
    assert own is not None
    (entry,) = user_pack.entries(own.folder)
    user_pack.add_card(own.folder, "discovery_cards", dict(entry.data) | {"name": "Skull"},
                       replace="DX01")
    code, out, err = cli(capsys, "status", str(path))
    assert "1 different in this computer's pack" in out
    assert "the campaign keeps the version it played with: Discovery card DX01 (Bones)" \
        in err
    code, out, err = cli(capsys, "content", "adopt", str(path), "--edited", "--json")
    assert code == 0 and json.loads(out)["edited"] == []
    (entry,) = user_pack.entries(own.folder)
    assert entry.name == "Bones"
