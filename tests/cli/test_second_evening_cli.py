"""Issue 36 items 3 and 4 from the terminal (the real box, second evening):

- item 3: ``character create`` in a "My own box" campaign takes the rulebook's traits and
  mantles by name (Rulebook: Character Creation, Steps 2-3), and ``--new-trait`` /
  ``--new-mantle`` type one the box prints beyond them, remembered in the owner's pack;
- item 4: a deck the app does not hold whole is never drawn by the app: ``discover``
  without ``--card`` and ``step --app`` refuse in game words, and nothing changes.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.box_campaign import make_box_campaign
from tests.cli.helpers import run

DICE = ("--dice", "6", "5", "4", "3", "1",
        "--assign", "might=6,dexterity=5,awareness=4,conviction=3", "--hex", "01")


@pytest.fixture
def box(tmp_path: Path) -> str:
    path = tmp_path / "box.stonesaga"
    make_box_campaign(path, characters=False).close()
    return str(path)


def js(capsys: Any, *argv: str) -> dict[str, Any]:
    code, out, err = run(capsys, *argv, "--json")
    assert code == 0, err
    data: dict[str, Any] = json.loads(out)
    return data


def test_item_3_character_create_takes_the_rulebook_s_trait_and_mantle_by_name(
        capsys: Any, box: str) -> None:
    made = js(capsys, "character", "create", box, "--name", "Ash", *DICE,
              "--trait", "Wise", "--mantle", "Seeker")
    assert "Ash joined the society" in made["summary"]
    (ash,) = js(capsys, "characters", box)["characters"]
    assert ash["traits"] == ["wise"] and ash["mantle"] == "Mantle of the Seeker"


def test_item_3_a_trait_and_mantle_the_box_prints_are_typed_once_and_remembered(
        capsys: Any, box: str) -> None:
    code, _, err = run(capsys, "character", "create", box, "--name", "Ash", *DICE,
                       "--trait", "Stubborn", "--mantle", "Seeker")
    assert code == 1 and "knows no trait 'Stubborn'" in err and "--new-trait" in err
    assert "Traceback" not in err
    assert js(capsys, "characters", box)["characters"] == []  # nothing changed
    js(capsys, "character", "create", box, "--name", "Ash", *DICE,
       "--new-trait", "Stubborn", "--new-mantle", "Mantle of the Hearth")
    (ash,) = js(capsys, "characters", box)["characters"]
    assert ash["traits"] == ["stubborn"] and ash["mantle"] == "Mantle of the Hearth"
    # Remembered: the next character takes it by name.
    js(capsys, "character", "create", box, "--name", "Bryn", *DICE, "--trait", "stubborn",
       "--mantle", "Mystic")


def test_item_4_the_terminal_never_draws_from_a_deck_the_app_holds_in_part(
        capsys: Any, tmp_path: Path) -> None:
    """``discover`` without ``--card`` and ``step --app`` at a Night card draw are refused
    in game words: the box's Discovery and Night decks are drawn at the table."""
    import yaml

    from companion import operations
    from companion.operations.cards import enter_card
    from companion.paths import shipped_content_dir

    path = tmp_path / "box.stonesaga"
    box = make_box_campaign(path)
    sample = shipped_content_dir() / "sample"
    night = yaml.safe_load((sample / "night.yaml").read_text(encoding="utf-8"))
    enter_card(box, kind="night_cards", data={**night["night_cards"][0], "id": "N77"})
    enter_card(box, kind="discovery_cards", data={
        "id": "D77", "name": "Old Bones", "text": "Gain 1 lore.",
        "effects": [{"do": "lore", "amount": 1}]})
    operations.pass_turn(box, name="Ash")
    operations.pass_turn(box, name="Bryn")
    box.close()
    code, _, err = run(capsys, "discover", str(path), "Ash")
    assert code == 1 and "holds only the Discovery cards you typed" in err
    code, out, err = run(capsys, "night", str(path), "--choice", "might", "--choice", "might",
                         "--choice", "Ash", "--app")
    assert code == 1 and "holds only the Night cards you typed" in err, out
    assert "Traceback" not in err
    code, out, _ = run(capsys, "step", str(path), "--choice", "N77", "--app")
    assert code == 0, out
    journal = json.loads(run(capsys, "journal", "list", str(path), "--json")[1])["events"]
    said = " ".join(e["text"] for e in journal)
    assert "shuffled" not in said and "The Night ends" in said
