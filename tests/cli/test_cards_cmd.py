"""``companion content add-card`` / ``remove-card`` / ``my-cards``, and entering an
unknown card during ``companion step``: every kind a table draws is entered from the
terminal, then drawn by id and by name."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from companion import operations, paths
from companion.operations import behemoth as bh
from companion.operations import procedures as run
from companion.operations.activities import start_foraging
from companion.store import models
from tests.cli.helpers import run as cli
from tests.cli.helpers import walk_typed
from tests.operations.test_cards import to_delve as reach_delving
from tests.operations.test_cards import to_mine as reach_mining
from tests.operations.test_cards import to_night as reach_night


def card_yaml(path: Path, kind: str, template: str, **changes: Any) -> str:
    """A sample card's YAML with another id (and name), as an owner would type it."""
    with operations.open_campaign(path) as campaign:
        table = getattr(campaign.content, kind)
        card = table.get(template) or next(iter(table.values()))
        data = card.model_dump(mode="json", exclude_defaults=True) | changes
    return yaml.safe_dump(data, sort_keys=False)


def reach_fishing(c: Any) -> None:
    run.start_fishing(c, name="Ash", feature="river")


def reach_foraging(c: Any) -> None:
    start_foraging(c, name="Ash", feature="forest")


def reach_encounter(c: Any) -> None:
    bh.set_up_behemoth(c, behemoth="rimeback")
    bh.start_encounter(c, name="Bryn")


# kind, typed kind, reach the step, template, changes, what the table types
KINDS = [
    ("fishing_cards", "fishing", reach_fishing, "FI01", {"id": "FX91"}, "fx91"),
    ("forage_cards", "forage-cards", reach_foraging, "FO01", {"id": "FOX8"}, "FOX8"),
    ("delving_cards", "delving_cards", reach_delving, "DV01", {"id": "DVX8"}, "dvx8"),
    ("night_cards", "night", reach_night, "N01", {"id": "NX91", "name": "Frost Hare"},
     "frost hare"),
    ("reaction_cards", "reaction_cards", reach_encounter, "RBR1",
     {"id": "RBX8", "behemoth": "rimeback"}, "rbx8"),
]


@pytest.mark.parametrize(("kind", "typed_kind", "reach", "template", "changes", "typed"),
                         KINDS, ids=[k[0] for k in KINDS])
@pytest.mark.parametrize("source", ["file", "stdin"])
def test_add_card_then_draw_it_at_the_table_by_name_or_id(
        tmp_path: Path, capsys: Any, monkeypatch: Any, kind: str, typed_kind: str,
        reach: Any, template: str, changes: dict[str, Any], typed: str, source: str) -> None:
    path = tmp_path / "c.stonesaga"
    operations.create_demo_campaign(path).close()
    text = card_yaml(path, kind, template, **changes)
    if source == "file":
        (tmp_path / "card.yaml").write_text(text, encoding="utf-8")
        args = [str(tmp_path / "card.yaml")]
    else:
        monkeypatch.setattr("sys.stdin", io.StringIO(text))
        args = []
    code, out, err = cli(capsys, "content", "add-card", "sample", typed_kind, *args, "--json")
    assert code == 0, err
    added = json.loads(out)
    assert (added["pack"], added["kind"], added["ids"]) == ("sample-mine", kind, [changes["id"]])
    with operations.open_campaign(path) as campaign:
        reach(campaign)
    code, out, err = cli(capsys, "step", str(path), "--choice", typed, "--json")
    assert code == 0, err
    log = json.loads(out)["procedure"]["log"] if json.loads(out)["procedure"] else []
    with operations.open_campaign(path) as campaign:
        events = [e.text for e in campaign.journal()]
    assert any(changes["id"] in line for line in [*log, *events]) or \
        any(changes.get("name", "\0") in line for line in [*log, *events])


def test_a_material_added_while_mining_is_not_a_chip_in_the_bag(
        tmp_path: Path, capsys: Any) -> None:
    """Rulebook: Mining > Step 4 (D14): the material joins the own pack, but the bag
    Step 1 filled gains no chip of it, so typing it is refused in words."""
    path = tmp_path / "c.stonesaga"
    operations.create_demo_campaign(path).close()
    (tmp_path / "card.yaml").write_text(card_yaml(
        path, "materials", "clay", id="umber", name="Burnt Umber"), encoding="utf-8")
    with operations.open_campaign(path) as campaign:
        reach_mining(campaign)
    code, _out, err = cli(capsys, "content", "add-card", "sample", "materials",
                          str(tmp_path / "card.yaml"))
    assert code == 0, err
    code, _out, err = cli(capsys, "step", str(path), "--choice", "Burnt Umber")
    assert code == 1 and "Traceback" not in err
    assert "The bag holds no umber now: sunstone, riverstone, clay, clay, clay." in err


@pytest.mark.parametrize("kind", ["instinct_cards", "secret_cards"])
def test_behemoth_cards_added_are_dealt_by_name(tmp_path: Path, capsys: Any, kind: str) -> None:
    path = tmp_path / "c.stonesaga"
    operations.create_demo_campaign(path).close()
    (tmp_path / "card.yaml").write_text(card_yaml(
        path, kind, "", id="RBZ8", name="Long Memory", behemoth="rimeback"), encoding="utf-8")
    assert cli(capsys, "content", "add-card", "sample", kind, str(tmp_path / "card.yaml"))[0] == 0
    word = kind.split("_")[0]
    other = "secret" if word == "instinct" else "instinct"
    with operations.open_campaign(path) as campaign:
        other_id = next(c.id for c in getattr(campaign.content, f"{other}_cards").values()
                        if c.behemoth == "rimeback")
    code, _out, err = cli(capsys, "behemoth", "setup", str(path), "rimeback",
                          f"--{word}", "long memory", f"--{other}", other_id, "--lair", "E01")
    assert code == 0, err
    with operations.open_campaign(path) as campaign, campaign.file.read() as session:
        from sqlmodel import select

        row = session.exec(select(models.BehemothState)).one()
        assert (row.instinct_card if word == "instinct" else row.secret_card) == "RBZ8"


def test_add_card_that_does_not_fit_names_the_field_and_writes_nothing(
        tmp_path: Path, capsys: Any) -> None:
    path = tmp_path / "c.stonesaga"
    operations.create_demo_campaign(path).close()
    text = card_yaml(path, "night_cards", "N01", id="NX92", activity=-1)
    (tmp_path / "bad.yaml").write_text(text, encoding="utf-8")
    code, _out, err = cli(capsys, "content", "add-card", "sample", "night",
                          str(tmp_path / "bad.yaml"))
    assert code == 1
    assert "activity: Input should be greater than or equal to 0" in err
    assert "not saved" in err and "Traceback" not in err
    assert not (paths.user_content_dir() / "sample-mine" / "night_cards.yaml").exists()


@pytest.mark.parametrize(("argv", "message"), [
    (["nosuchpack", "night"], "no pack 'nosuchpack'"),
    (["sample", "dragons"], "no kind of card 'dragons'"),
])
def test_add_card_refusals(tmp_path: Path, capsys: Any, argv: list[str], message: str) -> None:
    (tmp_path / "c.yaml").write_text("id: X1\n", encoding="utf-8")
    code, _out, err = cli(capsys, "content", "add-card", *argv, str(tmp_path / "c.yaml"))
    assert code == 1 and message in err


def test_my_cards_lists_and_remove_card_deletes(tmp_path: Path, capsys: Any) -> None:
    path = tmp_path / "c.stonesaga"
    operations.create_demo_campaign(path).close()
    (tmp_path / "card.yaml").write_text(card_yaml(
        path, "discovery_cards", "", id="DX40", name="Flint Seam"), encoding="utf-8")
    cli(capsys, "content", "add-card", "sample", "discovery", str(tmp_path / "card.yaml"))
    code, out, _ = cli(capsys, "content", "my-cards", "--json")
    pack = json.loads(out)["packs"][0]
    assert (pack["id"], pack["version"], pack["problems"]) == ("sample-mine", "1.0.1", [])
    assert pack["cards"] == [{"kind": "discovery_cards", "id": "DX40", "name": "Flint Seam",
                              "where": "sample-mine/discovery_cards.yaml:2"}]
    code, out, _ = cli(capsys, "content", "remove-card", "sample-mine", "discovery", "DX40")
    assert code == 0 and "removed" in out
    code, out, _ = cli(capsys, "content", "my-cards", "--json")
    assert json.loads(out)["packs"][0]["cards"] == []


def test_step_offers_to_enter_an_unknown_card(tmp_path: Path, capsys: Any) -> None:
    path = tmp_path / "c.stonesaga"
    operations.create_demo_campaign(path).close()
    text = card_yaml(path, "fishing_cards", "FI01")
    body = [line for line in text.splitlines() if not line.startswith("id:")]
    # Enter at "Just record what it did?" goes on to entering it (issue 25 part 3).
    with operations.open_campaign(path) as campaign:
        reach_fishing(campaign)
        walk_typed(campaign, "FX93", "", "y", *body, "", "app", "app")
        view = run.in_progress(campaign)
        assert view is not None and view.log[0] == "Step 1: draw the stock card: FX93"
    out = capsys.readouterr().out
    assert "FX93 is not a fishing card this campaign knows. Enter it now?" in out
    assert "Entered the fishing card FX93" in out


def test_step_enter_card_option_for_scripts(tmp_path: Path, capsys: Any) -> None:
    path = tmp_path / "c.stonesaga"
    operations.create_demo_campaign(path).close()
    (tmp_path / "card.yaml").write_text(card_yaml(path, "fishing_cards", "FI01", id="FX94"),
                                        encoding="utf-8")
    with operations.open_campaign(path) as campaign:
        reach_fishing(campaign)
    code, out, err = cli(capsys, "step", str(path), "--enter-card", str(tmp_path / "card.yaml"),
                         "--choice", "fx94", "--json")
    assert code == 0, err
    assert json.loads(out)["procedure"]["log"][0] == "Step 1: draw the stock card: FX94"


def discovery_due(tmp_path: Path) -> Path:
    """A demo campaign, closed, where Ash explored a hex: a Discovery card is due."""
    path = tmp_path / "c.stonesaga"
    with operations.create_demo_campaign(path) as campaign:
        explore = next(o for o in operations.available_actions(campaign, "Ash")
                       if o.action == "explore")
        operations.move(campaign, name="Ash", to_hex=explore.target)
        assert operations.discovery_due(campaign) is not None
    return path


@pytest.mark.parametrize("how", ["add-card", "enter-card"])
def test_a_discovery_card_entered_from_the_terminal_is_drawn_by_name(
        tmp_path: Path, capsys: Any, how: str) -> None:
    path = discovery_due(tmp_path)
    (tmp_path / "card.yaml").write_text(card_yaml(
        path, "discovery_cards", "", id="DX80", name="Hidden Spring", effects=[]),
        encoding="utf-8")
    if how == "add-card":
        assert cli(capsys, "content", "add-card", "sample", "discovery",
                   str(tmp_path / "card.yaml"))[0] == 0
        argv = ["--card", "hidden SPRING"]
    else:
        argv = ["--enter-card", str(tmp_path / "card.yaml")]
    code, out, err = cli(capsys, "discover", str(path), *argv, "--json")
    assert code == 0, err
    assert "DX80" in json.loads(out)["summary"]
    with operations.open_campaign(path) as campaign:
        assert operations.discovery_due(campaign) is None


def test_discovery_refuses_an_unknown_card_without_a_traceback(tmp_path: Path,
                                                               capsys: Any) -> None:
    path = tmp_path / "c.stonesaga"
    with operations.create_demo_campaign(path) as campaign:
        explore = next(o for o in operations.available_actions(campaign, "Ash")
                       if o.action == "explore")
        operations.move(campaign, name="Ash", to_hex=explore.target)
    code, _out, err = cli(capsys, "discover", str(path), "--card", "Nowhere")
    # Issue 27 item 10: not in the campaign's content, and the two ways on.
    assert code == 1 and "Nowhere is not a Discovery card of this campaign (Sample pack)" in err
    assert "--enter-card FILE" in err and "record PATH" in err and "--card Nowhere" in err


def test_a_broken_own_pack_is_reported_and_the_campaign_still_opens(
        tmp_path: Path, capsys: Any) -> None:
    path = tmp_path / "c.stonesaga"
    operations.create_demo_campaign(path).close()
    (tmp_path / "card.yaml").write_text(card_yaml(
        path, "discovery_cards", "", id="DX90", name="Tar Pit"), encoding="utf-8")
    cli(capsys, "content", "add-card", "sample", "discovery", str(tmp_path / "card.yaml"))
    broken = paths.user_content_dir() / "sample-mine" / "discovery_cards.yaml"
    broken.write_text(broken.read_text(encoding="utf-8") + "  - id: [\n", encoding="utf-8")
    code, out, err = cli(capsys, "status", str(path), "--json")
    assert code == 0 and json.loads(out)["status"]["society_name"]
    assert "warning: your own cards were left out" in err
    assert "sample-mine/discovery_cards.yaml:" in err
