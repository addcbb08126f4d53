"""The pip colours a pack uses are a list in its rules file (Rulebook: Processing &
Crafting > Crafting Items; Using the Codex > Crafting Entries: the colour sections)."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.content import ContentError, load_content
from companion.content.schema.base import PipColour
from companion.content.schema.world import Pip


def pack(tmp_path: Path, rules: str, extra: str = "") -> Path:
    folder = tmp_path / "five"
    folder.mkdir()
    (folder / "pack.yaml").write_text("id: five\nname: Five colours\nversion: '1'\n"
                                      "extends: sample\n", encoding="utf-8")
    (folder / "rules.yaml").write_text(rules, encoding="utf-8")
    if extra:
        (folder / "crafting.yaml").write_text(extra, encoding="utf-8")
    return folder


def test_the_default_list_is_the_eight_colours_of_the_box() -> None:
    content = load_content("sample")
    assert [c.value for c in content.rules.crafting.pip_colours] == [
        "red", "blue", "yellow", "purple", "grey", "green", "orange", "silver"]
    assert list(content.rules.crafting.pip_colours) == list(PipColour)


def test_a_colour_the_rules_file_does_not_list_is_reported_where_it_is_used(
        tmp_path: Path) -> None:
    folder = pack(tmp_path, "crafting:\n  pip_colours: [red, blue, yellow, purple, silver]\n",
                  "crafting:\n- {colour: green, code: '1111', dead_end: true}\n")
    with pytest.raises(ContentError) as caught:
        load_content("five", extra_dirs=[folder])
    issues = [str(i) for i in caught.value.issues]
    sample = Path(__file__).parents[2] / "content" / "sample" / "materials.yaml"
    line = next(n for n, text in enumerate(sample.read_text(encoding="utf-8").splitlines(), 1)
                if "{top: orange 5, right: grey 6" in text)  # slate, unprocessed
    assert f"sample/materials.yaml:{line}: materials.25.unprocessed.edges.top: orange is " \
        "not among the rules file's pip colours (red, blue, yellow, purple, silver)" in issues
    assert any(i.startswith("five/crafting.yaml:2: crafting.0.colour: green is not among")
               for i in issues), issues


def test_the_rules_file_orders_the_codex_sections(tmp_path: Path) -> None:
    from companion.rules.crafting import CraftingCode

    folder = pack(tmp_path, "crafting:\n  pip_colours: [silver, orange, grey, green, red, "
                            "blue, yellow, purple]\n")
    content = load_content("five", extra_dirs=[folder])
    colours = content.rules.crafting.pip_colours
    codes = [CraftingCode.parse(c) for c in ("R1111", "S2222", "G3333", "O4444")]
    assert [str(c) for c in sorted(codes, key=lambda c: c.sort_key_in(colours))] == [
        "S2222", "O4444", "G3333", "R1111"]


@pytest.mark.parametrize("rules", ["crafting:\n  pip_colours: []\n",
                                   "crafting:\n  pip_colours: [red, red]\n",
                                   "crafting:\n  pip_colours: [red, teal]\n"])
def test_a_broken_colour_list_is_refused(tmp_path: Path, rules: str) -> None:
    with pytest.raises(ContentError, match=r"five/rules.yaml:2: crafting.pip_colours"):
        load_content("five", extra_dirs=[pack(tmp_path, rules)])


@pytest.mark.parametrize(("text", "colour", "shape", "count"), [
    ("red diamond 1", PipColour.RED, "diamond", 1), ("Grey 6", PipColour.GREY, None, 6),
    ("gray 5", PipColour.GREY, None, 5), ("Green circle 9", PipColour.GREEN, "circle", 9),
    ("orange 0", PipColour.ORANGE, None, 0)])
def test_pips_as_the_box_and_the_community_write_them(text: str, colour: PipColour,
                                                      shape: str | None, count: int) -> None:
    pip = Pip.model_validate(text)
    assert (pip.colour, pip.shape, pip.count) == (colour, shape, count)
