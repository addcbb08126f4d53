"""An unknown card, two ways, and "We resolved this at the table" (issue 25 part 3,
issue 27 item 10): the refusal names the packs and the ways on; "Just record what
happened" applies one line of effects, journalled with the card's id, and the procedure
goes on (the Night's remaining steps and end still run); "Save as a card" turns the
record into a card of the owner's pack."""

from __future__ import annotations

import pytest

from companion import operations
from companion.operations import Campaign, Refused, recorded
from companion.operations import procedures as run
from companion.operations.activities import start_foraging
from companion.operations.cards import UnknownCard
from companion.rules.procedure import Decider
from tests.operations.test_cards import step, to_night


def ash(campaign: Campaign) -> operations.queries.CharacterDetail:
    return campaign.character_detail("Ash")


def test_unknown_forage_card_refusal_names_packs_and_both_ways(demo: Campaign) -> None:
    start_foraging(demo, name="Ash", feature="forest")
    assert step(demo).decider is Decider.CARD
    with pytest.raises(UnknownCard) as refused:
        run.advance(demo, choice="FF99")
    message = str(refused.value)
    assert "FF99 is not a forest forage card of this campaign (The rules of Stonesaga, " \
           "Sample" in message
    assert "Enter this card…" in message and "Just record what happened" in message
    assert refused.value.kind == "forage_cards" and refused.value.typed == "FF99"
    assert "--enter-card FILE" in UnknownCard.cli_hint and "--record" in UnknownCard.cli_hint


def test_record_a_forage_card_ends_the_activity_with_its_effects(demo: Campaign) -> None:
    """Rulebook: Foraging: the card resolved at the table; its outcome is the line."""
    start_foraging(demo, name="Ash", feature="forest")
    lore = demo.status().lore
    changes = recorded.record_what_happened(demo, line="gain 2 meat, lore +1", card="FF99")
    assert run.in_progress(demo) is None
    assert "FF99" in changes.summary and "resolved at the table" in changes.summary
    assert demo.status().lore == lore + 1
    assert sum(1 for t in ash(demo).bag if "meat" in str(t).casefold()) >= 2
    records = recorded.recorded_cards(demo)
    assert [(r.card, r.kind) for r in records] == [("FF99", "forage_cards")]
    assert demo.journal(limit=1)[0].kind == recorded.RECORD_KIND
    operations.undo(demo)  # one undoable operation: the forage is back at its card step
    assert run.in_progress(demo) is not None and recorded.recorded_cards(demo) == []


def test_record_a_night_card_passes_the_draw_and_the_night_goes_on(demo: Campaign) -> None:
    """Rulebook: Night Phase: Draw Night Cards, then Increase Activity and the rest: the
    recorded card stands in the drawn card's place; the remaining steps and the end
    still run."""
    to_night(demo)
    unrest = demo.status().unrest
    changes = recorded.record_what_happened(demo, line="minor injury Ash, unrest +1",
                                            card="N99")
    assert "Ash suffers 1 minor injury" in changes.summary or run.in_progress(demo)
    assert [(r.card, r.kind) for r in recorded.recorded_cards(demo)] == [("N99", "night_cards")]
    while (now := run.in_progress(demo)) is not None:  # the rest of the Night, in the app
        assert now.step is not None
        if now.step.decider is Decider.CARD:  # a second hex's card: recorded too
            recorded.record_what_happened(demo, line="lore +1", card="N98")
            continue
        run.advance(demo, choice=now.step.options[0] if now.step.decider is Decider.PLAYER
                    else None)
    assert demo.status().unrest >= unrest + 1
    assert any("minor" in str(h) for h in ash(demo).health)
    assert any(e.text.startswith("The Night ends") for e in demo.journal(limit=5))


def test_night_step_without_a_card_is_answered_in_the_app(demo: Campaign) -> None:
    operations.pass_turn(demo, name="Ash")
    operations.pass_turn(demo, name="Bryn")
    run.start_night(demo)
    assert step(demo).decider is not Decider.CARD
    with pytest.raises(Refused, match="needs no card"):
        recorded.record_what_happened(demo, line="lore +1")


def test_record_outside_a_procedure_names_who_or_is_refused(demo: Campaign) -> None:
    with pytest.raises(Refused, match="Say who"):
        recorded.record_what_happened(demo, line="gain 2 meat", card="DI99",
                                      kind="discovery_cards")
    changes = recorded.record_what_happened(demo, line="gain 2 meat Bryn, activity +1",
                                            card="DI99", kind="discovery_cards")
    assert "Discovery card DI99" in changes.summary


def test_a_line_that_does_not_read_changes_nothing(demo: Campaign) -> None:
    start_foraging(demo, name="Ash", feature="forest")
    with pytest.raises(Refused, match="'gain 2 unobtainium'|unobtainium"):
        recorded.record_what_happened(demo, line="gain 2 unobtainium", card="FF99")
    with pytest.raises(Refused, match="'fly away'"):
        recorded.record_what_happened(demo, line="lore +1, fly away", card="FF99")
    assert run.in_progress(demo) is not None


def test_save_as_a_card_fills_the_form_with_id_and_effects(demo: Campaign) -> None:
    recorded.record_what_happened(demo, line="gain 2 meat Ash, lore +1", card="DI99",
                                  kind="discovery_cards")
    record = recorded.recorded_cards(demo)[0]
    kind, start = recorded.card_from_record(record)
    assert kind == "discovery_cards" and start["id"] == "DI99"
    assert start["effects"][0] == {"do": "gain", "resource": "meat", "amount": 2}
    changes = recorded.save_record_as_card(demo, event_id=record.event_id,
                                           data={"name": "Wild Boar"})
    assert changes.detail == "DI99"
    assert "DI99" in demo.content.discovery_cards


# --- Codex outcomes (issue 25 part 4, issue 27 item 6; Rulebook: Using the Codex) --------


def test_outcome_the_content_has_is_shown_and_applied(demo: Campaign) -> None:
    from companion.operations import codex_outcomes

    entry = codex_outcomes.outcome_entry(demo, 100)
    assert entry.known and entry.applicable and entry.effects == ("gain 1 lore",)
    lore = demo.status().lore
    codex_outcomes.resolve_outcome(demo, number="100")
    assert demo.status().lore == lore + 1
    operations.undo(demo)
    assert demo.status().lore == lore


def test_outcome_on_a_character_needs_whom(demo: Campaign) -> None:
    from companion.operations import codex_outcomes

    assert codex_outcomes.outcome_entry(demo, 103).needs_character
    with pytest.raises(Refused, match="Say who"):
        codex_outcomes.resolve_outcome(demo, number=103)
    codex_outcomes.resolve_outcome(demo, number=103, character="Bryn")


def test_unknown_outcome_is_asked_applied_and_remembered_sealed(demo: Campaign) -> None:
    from companion.content import user_pack
    from companion.operations import codex_outcomes

    assert not codex_outcomes.outcome_entry(demo, 999).known
    with pytest.raises(Refused, match="not in this campaign's Codex"):
        codex_outcomes.resolve_outcome(demo, number=999)
    lore = demo.status().lore
    codex_outcomes.resolve_outcome(demo, number=999, line="lore +2")
    assert demo.status().lore == lore + 2
    again = codex_outcomes.outcome_entry(demo, "999")
    assert again.known and again.recorded and again.text == "lore +2"
    # In the owner's pack, carried by the campaign file, and never listed.
    assert ("codex_outcomes", "999") in {k[1:] for k in demo.own_cards}
    assert "codex_outcomes" in user_pack.SEALED_KINDS
    codex_outcomes.resolve_outcome(demo, number=999)  # known now: applied as remembered
    assert demo.status().lore == lore + 4


def test_a_night_card_recorded_for_a_chosen_character(demo: Campaign) -> None:
    """Rulebook: Night Phase > Night Cards: the card's effects fall on whom the table
    says (the dialog's "Who"), the society's on the society."""
    to_night(demo)
    recorded.record_what_happened(demo, line="minor injury, lore +1", card="N97",
                                  character="Bryn")
    while (now := run.in_progress(demo)) is not None and now.step is not None:
        if now.step.decider is Decider.CARD:
            recorded.record_what_happened(demo, line="lore +1", card="N96")
            continue
        run.advance(demo, choice=now.step.options[0] if now.step.decider is Decider.PLAYER
                    else None)
    assert any("minor" in str(h) for h in demo.character_detail("Bryn").health)
