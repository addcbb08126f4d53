"""Break each kind of field in a copy of the sample pack: the error names the file, the
line and the field path, and every problem is reported at once."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from companion.content import ContentError, ContentIssue, load_content
from tests.content.conftest import RULES, edit, line_of

# (file, text to replace, replacement, field path the issue names, message fragment,
#  text whose line the issue points at; None: the replaced line)
BREAKAGES = [
    ("materials.yaml", "right: blue circle 4", "right: blue circle 10",
     "materials.0.unprocessed.edges.right.count", "less than or equal to 9", None),
    ("materials.yaml", "right: blue circle 4", "right: teal circle 4",
     "materials.0.unprocessed.edges.right.colour", "grey", None),
    ("materials.yaml", "right: blue circle 4", "right: blue blob 1",
     "materials.0.unprocessed.edges.right.shape", "diamond", None),
    ("materials.yaml", "category: mineral", "category: metal",
     "materials.0.category", "animal", None),
    ("materials.yaml", "process_icons: [cut]", "process_icons: [saw]",
     "materials.0.unprocessed.process_icons.0", "no icon with id 'saw'", None),
    ("materials.yaml", "name: Flint", "nmae: Flint", "materials.0.nmae", "unknown field", None),
    ("materials.yaml", "id: sinew", "id: flint", "materials.1", "defined twice", None),
    ("crafting.yaml", "code: '1410'", "code: '0410'", "crafting.1", "cannot begin with 0", None),
    ("crafting.yaml", "code: '1410'", "code: 0410", "crafting.1", "cannot begin with 0", None),
    ("crafting.yaml", "item: stone-knife", "item: stone-knif", "crafting.1.item",
     "no item with id 'stone-knif'", None),
    ("crafting.yaml", "code: '1410', item: stone-knife", "code: '1410', item: stone-knife, "
     "dead_end: true", "crafting.1", "exactly one", None),
    ("fishing.yaml", "- {size: 1, lines: [red]}", "- {size: 3, lines: [red]}",
     "fishing_cards.0.water.0.size", "less than or equal to 2", None),
    ("fishing.yaml", "red: '+3'", "red: '/3'", "fishing_cards.0.modifiers.red", "'+Y'", None),
    ("valley.yaml", "  starting: true\n", "", "regions.0", "0 starting hexes",
     "- id: emberfen"),
    ("valley.yaml", "outpost_technology: wood-tech", "outpost_technology: wood-tec",
     "features.0.outpost_technology", "no icon with id 'wood-tec'", None),
    ("valley.yaml", "region: emberfen", "region: emberfenn", "hexes.0.region",
     "no region with id", None),
    ("night.yaml", "type: solo", "type: duo", "night_cards.0.type", "'solo'", None),
    ("night.yaml", "omens: [cloud, moon]", "omens: [cloudy, moon]", "night_cards.0.omens.0",
     "'cloud'", None),
    ("../rules/rules.yaml", "  fish: 2 ", "  fish: -2 ", "action_costs.fish",
     "greater than or equal to 0", None),
    ("../rules/rules.yaml", "epoch_goal: quelling-the-embers", "epoch_goal: calming",
     "unrest_thresholds.0.epoch_goal", "no goal with id 'calming'", None),
    ("challenges.yaml", "{threshold: 6, type: event", "{threshold: 6, until: 9, type: event",
     "challenges.0.events.0", "ongoing event has a range", None),
    ("challenges.yaml", "vital_goals: [G-first-hearth", "vital_goals: [G-hidden-spring",
     "challenges.0.vital_goals.0", "is set aside", None),
    ("behemoth.yaml", "lair: rimeback-lair", "lair: OP1", "behemoths.0.lair",
     "not of kind lair", None),
    ("delving.yaml", "paths: {left: fang", "paths: {left: claw", "delving_cards.0.paths.left",
     "no delving card shows the icon 'claw'", None),
    ("forage.yaml", "front: [animal-path, nut-bush", "front: [animal-path, grain-bush",
     "forage_cards.0.rows.front.1.object", "does not appear in the forest deck", None),
    ("codex.yaml", "number: '100'", "number: '10a'", "codex_outcomes.0.number", "pattern",
     None),
    ("items.yaml", "slot: hand", "slot: pocket", "items.0.slot", "'hand'", None),
    ("items.yaml", "materials: {wood: 2, fiber: 1}", "materials: {wood: 2, fibre: 1}",
     "structures.0.cost.materials.fibre", "no material with id 'fibre'", None),
    ("characters.yaml", "mantle: hearthkeeper", "mantle: hearthkeep",
     "mantle_powers.0.mantle", "no mantle with id", None),
    ("discovery.yaml", "{do: lore, amount: 1}", "{do: lure, amount: 1}",
     "discovery_cards.3.effects.0", "does not match any of the expected tags", None),
    ("discovery.yaml", "{do: read, outcome: '109'}", "{do: read, outcome: '108'}",
     "discovery_cards.5.effects.0.outcome", "no Codex outcome with id '108'", None),
    ("discovery.yaml", "{do: lore, amount: 1}", "{do: lore}", "discovery_cards.3.effects.0.amount",
     "required field is missing", None),
    ("characters.yaml", "- id: might", "- id: mite", "abilities.0.id", "'might'", None),
    ("characters.yaml", "- id: cloud", "- id: rain", "omens.0.id", "'comet'", None),
    ("valley.yaml", "kind: technology", "kind: tech", "icons.0.kind", "'technology'", None),
    ("valley.yaml", "kind: outpost", "kind: camp", "overlays.0.kind", "'lair'", None),
    ("valley.yaml", "sections: {a: plains, b: river, c: forest}",
     "sections: {a: plains, b: river}", "hexes.0.sections", "sections a, b and c", None),
    ("materials.yaml", "kind: perishable", "kind: rotten", "foods.0.kind", "'tough'", None),
    ("forage.yaml", "decks: [plains]", "decks: [tundra]", "forage_objects.2.decks.0", "'forest'",
     None),
    ("forage.yaml", "yields: bone", "yields: bones", "forage_bonuses.0.yields",
     "no material, food or water with id 'bones'", None),
    ("behemoth.yaml", "{might: 12, ", "{", "behemoths.0.abilities", "a value for each ability",
     None),
    ("behemoth.yaml", "movement: {dice: 1, modifier: 1}", "movement: {dice: -1, modifier: 1}",
     "instinct_cards.0.movement.dice", "greater than or equal to 0", None),
    ("behemoth.yaml", "  omen: sun", "  omen: sunny", "secret_cards.0.omen", "'sun'", None),
    ("behemoth.yaml", "contest: might", "contest: strength", "reaction_cards.0.contest",
     "'might'", None),
    ("challenges.yaml", "set_aside: true", "set_aside: perhaps", "goals.6.set_aside",
     "valid boolean", None),
    ("codex.yaml", "component: E01", "component: Z99", "codex_omen_entries.0.component",
     "no component with id 'Z99'", None),
]


@pytest.mark.parametrize(
    ("file", "old", "new", "path", "message", "at"), BREAKAGES,
    ids=[f"{b[0]}:{b[3]}:{b[4][:20]}" for b in BREAKAGES],
)
def test_broken_field_is_reported_with_file_line_and_path(
    sample_copy: Path, file: str, old: str, new: str, path: str, message: str, at: str | None
) -> None:
    # The rules file is the rules pack's, which the sample extends: its copy shadows it.
    rules_copy = sample_copy.parent / "rules"
    shutil.copytree(RULES, rules_copy)
    target = (sample_copy / file).resolve()
    line = edit(target, old, new)
    if at is not None:
        line = line_of(target, at)
    with pytest.raises(ContentError) as caught:
        load_content("sample", extra_dirs=[sample_copy, rules_copy])
    issues = caught.value.issues
    matching = [i for i in issues if i.path == path and message in i.message]
    assert matching, "\n".join(str(i) for i in issues)
    issue = matching[0]
    assert issue.file == target
    assert issue.line == line
    assert str(issue).startswith(f"{target.parent.name}/{target.name}:{line}: {path}: ")


def test_every_problem_is_reported_at_once(sample_copy: Path) -> None:
    edit(sample_copy / "items.yaml", "slot: hand", "slot: pocket")
    edit(sample_copy / "night.yaml", "type: solo", "type: duo")
    edit(sample_copy / "crafting.yaml", "item: stone-knife", "item: nothing")
    with pytest.raises(ContentError) as caught:
        load_content("sample", extra_dirs=[sample_copy])
    text = str(caught.value)
    assert "3 problems" in text
    for fragment in ("sample/items.yaml:", "sample/night.yaml:", "sample/crafting.yaml:"):
        assert fragment in text


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("items: [\n  {id: x\n", "YAML syntax"),
        ("items: []\nitems: []\n", "appears twice"),
        ("- just\n- a list\n", "mapping of component kinds"),
        ("items: 3\n", "a list of entries"),
        ("items:\n  - !!python/object:os.system {}\n", "YAML syntax"),
        ("night_cards:\n  - &a [*a]\n", "night_cards.0"),
        ("items:\n  - {id: [1, 2], name: x}\n", "items.0.id"),
    ],
)
def test_bad_documents_are_content_errors(sample_copy: Path, text: str, message: str) -> None:
    (sample_copy / "extra.yaml").write_text(text, encoding="utf-8")
    with pytest.raises(ContentError) as caught:
        load_content("sample", extra_dirs=[sample_copy])
    assert any(message in str(issue) for issue in caught.value.issues), str(caught.value)
    assert all(issue.file.name == "extra.yaml" for issue in caught.value.issues)


def test_unreadable_file_is_a_content_error(sample_copy: Path) -> None:
    (sample_copy / "binary.yaml").write_bytes(b"\xff\xfe\x00bad")
    with pytest.raises(ContentError, match="cannot read"):
        load_content("sample", extra_dirs=[sample_copy])


def test_yaml_1_1_words_stay_strings(sample_copy: Path) -> None:
    (sample_copy / "extra.yaml").write_text(
        "traits:\n  - {id: 'no-trait', name: No}\n  - {id: on-trait, name: On}\n"
        "  - {id: yes-trait, name: yes, text: 1:20}\n",
        encoding="utf-8",
    )
    content = load_content("sample", extra_dirs=[sample_copy])
    assert content.traits["no-trait"].name == "No"
    assert content.traits["on-trait"].name == "On"
    assert content.traits["yes-trait"].text == "1:20"


def test_missing_pack_and_broken_manifest(tmp_path: Path) -> None:
    with pytest.raises(ContentError, match="no pack with id 'nope'"):
        load_content("nope")
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "pack.yaml").write_text("id: broken\nname: Broken\n", encoding="utf-8")
    with pytest.raises(ContentError) as caught:
        load_content("broken", extra_dirs=[broken])
    assert "broken/pack.yaml:1: version: required field is missing" in str(caught.value)


def test_circular_extends(tmp_path: Path) -> None:
    for name, parent in (("a", "b"), ("b", "a")):
        (tmp_path / name).mkdir()
        (tmp_path / name / "pack.yaml").write_text(
            f"id: {name}\nname: {name}\nversion: '1'\nextends: {parent}\n", encoding="utf-8")
    with pytest.raises(ContentError, match="circle"):
        load_content("a", extra_dirs=[tmp_path])


def test_file_in_a_subfolder_is_named_inside_its_pack(sample_copy: Path) -> None:
    (sample_copy / "cards").mkdir()
    (sample_copy / "cards" / "more.yaml").write_text("items:\n  - {id: x, name: X, slot: hat}\n",
                                                    encoding="utf-8")
    with pytest.raises(ContentError) as caught:
        load_content("sample", extra_dirs=[sample_copy])
    assert [str(i) for i in caught.value.issues] == [
        "sample/cards/more.yaml:2: items.0.slot: Input should be 'hand', 'body' or 'gear'"
    ]


def test_issue_str_format() -> None:
    issue = ContentIssue(Path("/x/mypack/items.yaml"), 12, "items.3.slot", "bad slot")
    assert str(issue) == "mypack/items.yaml:12: items.3.slot: bad slot"
    assert str(ContentIssue(Path("/x/mypack/items.yaml"), None, "", "m")) == "mypack/items.yaml: m"
