"""The journal's sections through the operations (Rulebook: Using the Journal; Continuing
Play): each write is one journal event and undoes cleanly; one search finds everything."""

from __future__ import annotations

import io

import pytest
from PIL import Image
from sqlmodel import select

from companion import operations
from companion.operations import Campaign, Refused
from companion.operations import journal as j
from companion.store import models


def png(colour: str = "red", size: tuple[int, int] = (40, 30)) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", size, colour).save(out, format="PNG")
    return out.getvalue()


def last_kind(campaign: Campaign) -> str:
    return campaign.journal(limit=1)[0].kind


# --- Challenge Log ------------------------------------------------------------------------


def test_challenge_log_records_the_outcome_entry_and_undoes(demo: Campaign) -> None:
    [line] = j.challenge_log(demo)
    assert (line.epoch, line.challenge_name, line.outcome_entry) == (1, "The Long Thaw", None)
    changes = j.record_outcome(demo, entry_id=line.id, outcome="entry 14")
    assert changes.summary == "Challenge Log: 'The Long Thaw' ended with entry 014"
    assert j.challenge_log(demo)[0].outcome_entry == "014"
    assert last_kind(demo) == "journal.challenge_log"
    operations.undo(demo)
    assert j.challenge_log(demo)[0].outcome_entry is None


def test_challenge_log_characters_and_refusals(demo: Campaign) -> None:
    [line] = j.challenge_log(demo)
    j.set_challenge_characters(demo, entry_id=line.id, characters=["Ash", " Bryn ", ""])
    assert j.challenge_log(demo)[0].characters == ("Ash", "Bryn")
    with pytest.raises(Refused, match="three-digit"):
        j.record_outcome(demo, entry_id=line.id, outcome="1044")
    with pytest.raises(Refused, match="no challenge 99"):
        j.record_outcome(demo, entry_id=99, outcome="104")


# --- Culture --------------------------------------------------------------------------------


def test_culture_lists_add_edit_remove_each_undoable(demo: Campaign) -> None:
    events = demo.file.event_count()
    j.add_culture_entry(demo, category="taboos", text="Never eat the white fish")
    j.add_culture_entry(demo, category="pigments", text="Red ochre")
    page = j.culture(demo)
    [taboo] = page.lists["taboos"]
    assert page.lists["pigments"][0].text == "Red ochre" and page.lists["knowledge"] == ()
    j.edit_culture_entry(demo, entry_id=taboo.id, text="Never eat the pale fish")
    assert j.culture(demo).lists["taboos"][0].text == "Never eat the pale fish"
    j.remove_culture_entry(demo, entry_id=taboo.id)
    assert j.culture(demo).lists["taboos"] == ()
    assert demo.file.event_count() == events + 4
    operations.undo(demo)
    assert j.culture(demo).lists["taboos"][0].text == "Never eat the pale fish"
    operations.undo(demo)
    assert j.culture(demo).lists["taboos"][0].text == "Never eat the white fish"


def test_culture_list_entries_are_not_culture_abilities(demo: Campaign) -> None:
    j.add_culture_entry(demo, category="knowledge", text="K03 Star lore")
    operations.add_culture_ability(demo, name="Smoke Signals")
    page = j.culture(demo)
    assert [a.text for a in page.abilities] == ["Smoke Signals"]
    assert demo.status().culture == ("Smoke Signals",)
    with pytest.raises(Refused, match="no list 'songs'"):
        j.add_culture_entry(demo, category="songs", text="x")
    with pytest.raises(Refused, match="needs some text"):
        j.add_culture_entry(demo, category="taboos", text="  ")


# --- Decks -----------------------------------------------------------------------------------


def test_deck_changes_add_edit_remove_and_undo(demo: Campaign) -> None:
    j.add_deck_change(demo, deck="Night", card_id="N07", change="removed", note="burned")
    [line] = j.deck_changes(demo)
    assert (line.deck, line.card_id, line.change, line.note, line.epoch) == \
        ("Night", "N07", "removed", "burned", 1)
    j.edit_deck_change(demo, change_id=line.id, deck="Night", card_id="N08", change="removed")
    assert j.deck_changes(demo)[0].card_id == "N08"
    j.remove_deck_change(demo, change_id=line.id)
    assert j.deck_changes(demo) == []
    operations.undo(demo)
    operations.undo(demo)
    assert j.deck_changes(demo)[0].card_id == "N07"
    with pytest.raises(Refused, match="one of added"):
        j.add_deck_change(demo, deck="Night", card_id="N01", change="shuffled")


# --- Primal Cave Wall ---------------------------------------------------------------------------


def test_cave_wall_image_is_stored_as_a_bounded_png_and_undo_restores_it(demo: Campaign) -> None:
    big = png("blue", (3000, 1500))
    changes = j.add_cave_wall_illustration(demo, title="The great hunt",
                                           marks=["Spiral", "hand", "spiral"], image=big)
    new_id = changes.detail
    assert isinstance(new_id, int)
    [line] = j.cave_wall(demo)
    assert line.marks == ("Spiral", "hand") and line.has_image
    stored = j.cave_wall_image(demo, new_id)
    assert stored is not None and stored.startswith(b"\x89PNG")
    assert max(Image.open(io.BytesIO(stored)).size) == j.MAX_IMAGE_SIDE
    j.edit_cave_wall_illustration(demo, illustration_id=new_id, marks=["eye"], image=None)
    assert j.cave_wall(demo)[0].marks == ("eye",) and not j.cave_wall(demo)[0].has_image
    j.remove_cave_wall_illustration(demo, illustration_id=new_id)
    assert j.cave_wall(demo) == []
    operations.undo(demo)
    operations.undo(demo)
    assert j.cave_wall_image(demo, new_id) == stored
    assert [line.title for line in j.cave_wall(demo, mark="SPIRAL")] == ["The great hunt"]
    assert j.cave_wall(demo, mark="eye") == []


def test_cave_wall_refuses_what_is_not_an_image_or_has_no_mark(demo: Campaign) -> None:
    with pytest.raises(Refused, match="not an image"):
        j.add_cave_wall_illustration(demo, title="x", marks=["m"], image=b"not a picture")
    with pytest.raises(Refused, match="at least one mark"):
        j.add_cave_wall_illustration(demo, title="x", marks=[" "])
    assert j.cave_wall(demo) == []


# --- entries, legends, valley map --------------------------------------------------------------


def test_free_text_entry_has_time_and_author(demo: Campaign) -> None:
    j.write_entry(demo, text="Bryn saw a white stag.", author="Player 2")
    entry = j.entries(demo)[0]
    assert (entry.text, entry.author) == ("Bryn saw a white stag.", "Player 2")
    assert entry.when[:4].isdigit()
    operations.undo(demo)
    assert j.entries(demo)[0].undone


def test_valley_map_is_the_journal_grid(demo: Campaign) -> None:
    grid = j.valley_map(demo)
    tiles = {t for row in grid for t in row if t}
    assert "E01" in tiles and len(grid) >= 2


def test_legends_lineage_across_generations() -> None:
    line = j.LegendLine
    lines = [
        line(1, "Ash", 1, 1, "Cedar", 3, None, (), ()),
        line(2, "Cedar", 2, 3, "Dara", 5, None, (), ()),
        line(3, "Bryn", 1, 2, None, None, None, (), ()),
    ]
    assert j.lineages(lines) == [["Ash", "Cedar", "Dara"], ["Bryn"]]


def test_legends_read_from_the_file(demo: Campaign) -> None:
    with demo.write("test.legend", "a legend") as session:
        ash = session.exec(select(models.Character).where(models.Character.name == "Ash")).one()
        session.add(models.Legend(character_id=ash.id, name="Ash the Elder", epoch=1,
                                  succeeded_by_id=ash.id, marks=["spiral"]))
    [legend] = j.legends(demo)
    assert (legend.name, legend.succeeded_by) == ("Ash the Elder", "Ash")


# --- search ----------------------------------------------------------------------------


def test_search_finds_text_marks_and_ids_across_sections(demo: Campaign) -> None:
    j.add_cave_wall_illustration(demo, title="First fire", marks=["flame-eye"])
    j.add_deck_change(demo, deck="Encounter", card_id="EN12", change="added")
    j.write_entry(demo, text="The flame-eye watched us", author="Player 1")
    by_section = {h.section for h in j.search(demo, "flame-eye")}
    assert by_section == {"cave_wall", "entries", "history"}
    assert [h.section for h in j.search(demo, "EN12", sections=["decks"])] == ["decks"]
    assert [h.title for h in j.search(demo, "E01", sections=["valley"])] == ["Hex E01"]
    assert j.search(demo, "   ") == []
    with pytest.raises(Refused, match="Unknown journal section"):
        j.search(demo, "x", sections=["nope"])


def test_search_like_wildcards_are_literal(demo: Campaign) -> None:
    j.write_entry(demo, text="100% sure")
    assert len(j.search(demo, "100%", sections=["entries"])) == 1
    assert j.search(demo, "%", sections=["decks"]) == []
    assert j.search(demo, "_", sections=["entries"]) == []


def test_search_filters_by_epoch_and_challenge(demo: Campaign) -> None:
    j.add_deck_change(demo, deck="Night", card_id="N07", change="removed")
    with demo.write("test.epoch", "epoch 2") as session:
        row = session.get(models.Campaign, 1)
        assert row is not None
        row.epoch = 2
    j.add_deck_change(demo, deck="Night", card_id="N09", change="added")
    assert [h.text for h in j.search(demo, "N0", sections=["decks"], epoch=1)] == \
        ["N07 removed"]
    assert [h.text for h in j.search(demo, "N0", sections=["decks"], epoch=2)] == \
        ["N09 added"]
    # Challenge filter: the log and the history during that challenge only.
    hits = j.search(demo, "N07", challenge="C1")
    assert {h.section for h in hits} == {"history"}
    assert j.search(demo, "N07", challenge="C2") == []
    assert [h.section for h in j.search(demo, "Long Thaw", sections=["challenges"],
                                        challenge="C1")] == ["challenges"]
    # The founding happened before any challenge, in epoch 1.
    assert j.search(demo, "was founded", epoch=1)
    assert j.search(demo, "was founded", challenge="C1") == []


def test_search_is_limited(demo: Campaign) -> None:
    for n in range(5):
        j.write_entry(demo, text=f"tally {n}")
    hits = j.search(demo, "tally", sections=["entries"], limit=3)
    assert [h.text for h in hits] == ["tally 4", "tally 3", "tally 2"]


def test_valley_map_hides_face_down_hexes(demo: Campaign) -> None:
    # Rulebook: Using the Journal: the Valley Map records the ID of each hex explored; a
    # face-down hex's ID is not known at the table.
    grid = j.valley_map(demo)
    cells = [t for row in grid for t in row if t]
    assert cells.count("?") == 2 and "E01" in cells



def test_challenge_log_names_the_characters_made_after_it_began(demo: Campaign) -> None:
    # Rulebook: Using the Journal > Challenge Log: the characters used in the challenge.
    # The demo (like the new-campaign wizard) starts the challenge, then makes Ash and
    # Bryn: the log named nobody ("Characters: —").
    [line] = j.challenge_log(demo)
    assert line.characters == ("Ash", "Bryn")
