"""The packs after issue 25: ONE rules file (the rules pack), which the sample pack and
"My own box" both extend; the box holds the rulebook's vocabulary and nothing of the
sample (Rulebook: Valley > Regions; Terrain Features; Feature Actions)."""

from __future__ import annotations

from companion.content import load_content
from companion.paths import shipped_content_dir


def test_one_rules_file_for_every_pack() -> None:
    shipped = shipped_content_dir()
    assert sorted(p.parent.name for p in shipped.glob("*/rules.yaml")) == ["rules"]
    sample, box = load_content("sample"), load_content("box")
    assert sample.rules == box.rules
    assert [p.id for p in box.packs] == ["stonesaga-rules", "box"]


def test_rulebook_regions_the_box_has_the_rulebook_s_words_and_no_sample_content() -> None:
    box = load_content("box")
    assert [r.name for r in box.regions.values()] == ["Verdant Vale", "Skyreach Plateaus"]
    assert all(r.tiles == 10 for r in box.regions.values())  # "ten tiles for two regions"
    assert [f.name for f in box.features.values()] == [
        "Forest", "Plains", "Dried Flats", "Cave", "Lake", "River", "Wetlands", "Moraine",
        "Chasm", "Mountain"]
    assert {i.kind.value for i in box.icons.values()} == {"technology", "processing"}
    counts = box.counts()
    for kind in ("hexes", "materials", "items", "structures", "forage_cards",
                 "fishing_cards", "delving_cards", "discovery_cards", "night_cards",
                 "challenges", "codex_outcomes", "behemoths", "mantle_powers"):
        assert counts.get(kind, 0) == 0, kind
    # The features the rules alone know have no chips or fishing outcomes of the sample.
    assert not box.features["cave"].mining_chips and box.features["lake"].fishing is None


def test_character_creation_steps_2_3_the_rules_pack_offers_the_rulebook_s_traits_and_mantles(
) -> None:
    """Rulebook: Character Creation, Step 2 ("the traits available by default") and Step
    3 ("the mantles available are"): a box campaign makes characters from the first
    evening (issue 36 item 3); the sample's own mantles stand instead of them."""
    box, sample = load_content("box"), load_content("sample")
    assert [t.name for t in box.traits.values()] == [
        "Cunning", "Intrepid", "Indomitable", "Resourceful", "Wise"]
    assert [m.name for m in box.mantles.values()] == [
        "Mantle of the Mystic", "Mantle of the Seeker", "Mantle of the Storyteller",
        "Mantle of the Wanderer"]
    assert list(sample.traits) == list(box.traits)  # the sample's texts over the same ids
    assert list(sample.mantles) == ["hearthkeeper", "pathfinder", "loreweaver", "stormcaller"]


def test_the_sample_loads_as_before_over_the_rules_pack() -> None:
    sample = load_content("sample")
    assert len(sample.hexes) == 20 and list(sample.regions) == ["emberfen", "thornspire"]
    assert list(sample.icons)[:3] == ["wood-tech", "water-tech", "stone-tech"]
    assert sample.features["cave"].mining_chips  # the sample's own chips
    assert sample.goals["quelling-the-embers"].reward  # the sample's goal, over the rules'


def test_rulebook_food_tokens_the_box_knows_the_foods_the_rulebook_names() -> None:
    """Rulebook: Tokens > Food Tokens, Water Tokens; Night Phase > Degrade ("fish, meat,
    mushrooms, and roots"): a card recorded at the table ("gain 2 meat Ash") or typed
    from the box names them, so the rules pack has them. Tough foods (grain, nuts) need
    the processing icons printed on the box's tokens: the sample gives them."""
    box, sample = load_content("box"), load_content("sample")
    assert {f.id: f.kind.value for f in box.foods.values()} == {
        "fish": "perishable", "meat": "perishable", "mushroom": "perishable",
        "root": "perishable", "water": "water"}
    assert all(box.foods[f] == sample.foods[f] for f in box.foods)
