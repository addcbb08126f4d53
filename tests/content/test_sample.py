"""The shipped sample pack: it loads, is big enough to exercise every rule, and its
sealed parts (Codex, set-aside goals) can be looked up but not listed."""

from __future__ import annotations

from collections.abc import Mapping

import pytest

from companion.content import (
    KINDS,
    Content,
    CraftingResultKind,
    discover_packs,
    load_content,
)
from companion.content.schema.base import Omen, PipColour
from companion.content.schema.cards import EventType, NightType


@pytest.fixture(scope="module")
def content() -> Content:
    return load_content()


def test_sample_pack_is_discovered() -> None:
    assert "sample" in [m.id for m in discover_packs()]


MINIMUMS = [
    ("hexes", 20),
    ("fishing_cards", 12),
    ("delving_cards", 20),
    ("night_cards", 20),
    ("discovery_cards", 15),
    ("materials", 24),
    ("items", 15),
    ("structures", 8),
    ("instinct_cards", 3),
    ("secret_cards", 3),
    ("reaction_cards", 10),
    ("challenges", 3),
    ("crafting", 30),
    ("codex_outcomes", 40),
    ("codex_omen_entries", 40),
    ("features", 10),
]


@pytest.mark.parametrize(("kind", "minimum"), MINIMUMS)
def test_sample_pack_is_big_enough(content: Content, kind: str, minimum: int) -> None:
    assert content.counts()[kind] >= minimum


def test_every_kind_has_sample_data(content: Content) -> None:
    assert all(count > 0 for count in content.counts().values()), content.counts()
    assert set(content.counts()) == set(KINDS)


def test_two_regions_of_ten_with_one_starting_hex_each(content: Content) -> None:
    assert len(content.regions) == 2
    for region in content.regions:
        tiles = [t for t in content.hexes.values() if t.region == region]
        assert len(tiles) == 10
        assert content.starting_hex(region).starting


def test_forage_decks_exercise_every_object(content: Content) -> None:
    for deck, prey in (("forest", "large-prey"), ("plains", "small-prey")):
        cards = content.forage_deck(deck)
        assert len(cards) >= 12
        for row in ("front", "middle", "back"):
            spots = [s for card in cards for s in getattr(card.rows, row)]
            objects = {s.object for s in spots}
            assert {"predator", prey, "animal-path"} <= objects, (deck, row)
            assert any(s.bonus for s in spots), (deck, row)


def test_night_cards_cover_every_type(content: Content) -> None:
    assert {c.type for c in content.night_cards.values()} == set(NightType)


def test_challenges_have_goals_and_every_event_type(content: Content) -> None:
    types = {e.type for c in content.challenges.values() for e in c.events}
    assert {EventType.IMMEDIATE, EventType.SOCIETAL, EventType.OUTPOST,
            EventType.ONGOING} <= types
    assert all(c.vital_goals for c in content.challenges.values())


def test_rulebook_example_red_1410_is_a_recipe(content: Content) -> None:
    result = content.crafting.lookup("red", "1410")
    assert result.kind is CraftingResultKind.ITEM
    assert result.item is not None and result.item.id == "stone-knife"
    # reachable from two sample materials: flint's left/right, then sinew's left/right
    flint = content.materials["flint"].unprocessed
    sinew = content.materials["sinew"].unprocessed
    columns = [flint.edges["left"], flint.edges["right"], sinew.edges["left"],
               sinew.edges["right"]]
    assert all(p is not None for p in columns)
    assert "".join(str(p.count) for p in columns if p) == "1410"
    assert columns[0] is not None and columns[0].colour is PipColour.RED
    assert columns[1] is not None and columns[2] is not None
    assert (columns[1].colour, columns[1].shape) == (columns[2].colour, columns[2].shape)
    assert {content.materials["flint"].size, content.materials["sinew"].size} == {
        "large", "small"}


def test_crafting_lookup_dead_end_and_unknown(content: Content) -> None:
    assert content.crafting.lookup(PipColour.RED, "2224").kind is CraftingResultKind.DEAD_END
    assert content.crafting.lookup("silver", 4444).kind is CraftingResultKind.UNKNOWN


def test_codex_lookups(content: Content) -> None:
    outcome = content.codex.outcome(100)
    assert outcome is not None and outcome.number == "100"
    assert content.codex.outcome("999") is None
    entry = content.codex.omen_entry(Omen.CLOUD, "E01")
    assert entry is not None and entry.component == "E01"
    assert content.codex.omen_entry("sun", "E01") is None


def test_spoilers_are_not_listed(content: Content) -> None:
    # Nothing lists Codex text or set-aside goals; counts are fine.
    for sealed in (content.codex, content.crafting, content.set_aside_goals):
        assert not isinstance(sealed, Mapping)
        with pytest.raises(TypeError):
            iter(sealed)  # type: ignore[call-overload]
        assert "entry" not in repr(sealed).lower() or "sealed" in repr(sealed) or (
            "Codex" in repr(sealed))
    assert all(not goal.set_aside for goal in content.goals.values())
    assert len(content.set_aside_goals) == 3
    revealed = content.set_aside_goals.get("G-hidden-spring")
    assert revealed is not None and revealed.set_aside
    assert "Sunken Grotto" not in repr(content)


def test_rules_come_from_the_pack(content: Content) -> None:
    assert content.rules.action_costs.fish == 2
    assert [p.id for p in content.packs] == ["stonesaga-rules", "sample"]  # one rules file
    assert content.rules.unrest_thresholds[0].epoch_goal == "quelling-the-embers"


def test_content_is_immutable(content: Content) -> None:
    with pytest.raises(TypeError):
        content.items["x"] = content.items["sling"]  # type: ignore[index]
    with pytest.raises(AttributeError):
        content.rules = content.rules  # type: ignore[misc]
    with pytest.raises(ValueError):
        content.items["sling"].name = "Slingshot"  # type: ignore[misc]


def test_feature_action_costs_come_from_the_rules(content: Content) -> None:
    from companion.content.schema.base import FeatureAction

    lake = content.features["lake"]
    assert lake.action_cost(FeatureAction.FISH, content.rules) == content.rules.action_costs.fish
    assert lake.action_cost(FeatureAction.MINE, content.rules) is None
    assert content.features["plains"].open_terrain
    assert content.features["forest"].outpost_technology == "wood-tech"
    assert content.features["cave"].mining_chips.count("sunstone") == 2


def test_sample_mining_chips_have_an_omen_and_effects(content: Content) -> None:
    """Rulebook: Mining, step 4: every chip a feature lists shows an omen, an effect and a
    match effect (the pack gives them per material, ``Material.chip``)."""
    chip_materials = {m for f in content.features.values() for m in f.mining_chips}
    assert chip_materials == {"sunstone", "cloudstone", "clay", "riverstone"}
    for material in chip_materials:
        chip = content.materials[material].chip
        assert chip is not None, material
        assert chip.effects and chip.match_effects, material
    assert len({content.materials[m].chip.omen for m in chip_materials}) == 4  # type: ignore[union-attr]


def test_sample_rules_crafting_and_gather_water(content: Content) -> None:
    assert content.rules.crafting.consume_on_dead_end is True  # D20
    assert content.rules.gather_water == 2  # Rulebook: Feature Actions > Gather water
