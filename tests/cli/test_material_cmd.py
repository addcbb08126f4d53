"""``companion material add``: a material token's edge pips from the terminal, into the
own pack, explored at once with ``codes --material`` (Rulebook: Tokens > Material
Tokens; Processing & Crafting > Crafting Items; issue 25 part 6)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.cli.helpers import run_json as run


def test_crafting_items_two_tokens_from_the_terminal_then_their_codes(
        capsys: Any, demo_path: str) -> None:
    code, data, err = run(capsys, "material", "add", demo_path, "Glowing Moss",
                          "--edge", "left=blue 2", "--edge", "top=Yellow 1",
                          "--processed-edge", "bottom=grey 0", "--json")
    assert code == 0, err
    assert data["material"]["id"] == "glowing-moss"
    assert data["material"]["unprocessed"]["edges"]["left"] == {"colour": "blue", "count": 2}
    assert data["material"]["processed"]["edges"]["bottom"]["count"] == 0
    code, text, err = run(capsys, "material", "add", demo_path, "Salt Crust",
                          "--category", "mineral", "--size", "large", "--edge",
                          "left=red 1", "--edge", "right=blue 4", "--edge", "top=yellow 2")
    assert code == 0 and "Salt Crust" in text, err
    code, data, _ = run(capsys, "codes", demo_path, "--material", "Glowing Moss", "--with",
                        "Salt Crust", "--json")
    assert code == 0 and data["codes"]


@pytest.mark.parametrize(("argv", "message"), [
    (("--edge", "left=pink 2"), "pink is not a pip colour of the rules file"),
    (("--edge", "left=red 12"), "0 to 9 pips, not 12"),
    (("--edge", "red 2"), "EDGE=COLOUR COUNT"),
    (("--category", "wooden"), "animal, mineral, vegetable"),
])
def test_material_tokens_refused_from_the_terminal(capsys: Any, demo_path: str,
                                                    argv: tuple[str, ...],
                                                    message: str) -> None:
    code, data, err = run(capsys, "material", "add", demo_path, "Salt Crust", *argv,
                          "--json")
    assert code == 1 and message in err and data["ok"] is False
