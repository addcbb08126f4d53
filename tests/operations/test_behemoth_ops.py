"""The behemoth through the operations: set-up (typed and app-drawn), refusals that
change nothing, learning its habits and secret (D18), a whole activation, encounter and
contest (D16) with typed dice, the end-of-Night hook, and undo step by step."""

from __future__ import annotations

from fractions import Fraction

import pytest

from companion import operations
from companion.operations import Campaign, Refused
from companion.operations import behemoth as bh  # registers its kinds and Night hook
from companion.operations import procedures as run
from companion.rules.procedure import Decider
from companion.store import models


def lair_overlays(campaign: Campaign) -> list[models.Overlay]:
    from sqlmodel import select

    with campaign.file.read() as session:
        return [o for o in session.exec(select(models.Overlay)).all() if o.kind == "lair"]


def ash(campaign: Campaign) -> object:
    return next(c for c in campaign.characters() if c.name == "Ash")


def spread(campaign: Campaign) -> None:
    """Ash explores E05 (2 energy); Bryn stays in E01."""
    operations.move(campaign, name="Ash", to_hex="E05")


# --- set up ------------------------------------------------------------------------------


def test_set_up_typed_writes_the_row_and_the_lair(demo: Campaign) -> None:
    changes = bh.set_up_behemoth(demo, behemoth="rimeback", instinct="RBI2", secret="RBS1",
                                 lair_hex="E01", lair_section="b")
    assert changes.behemoth and changes.valley
    view = bh.behemoth_view(demo)
    assert view is not None
    assert (view.hex, view.lair, view.instinct, view.instinct_name) == (
        "E01", ("E01", "b"), "RBI2", "Territorial")
    assert view.secret is None and view.habits is None  # face down, not learned
    assert view.reaction_deck == 12 and not view.reaction_ordered  # the table shuffled
    assert [o.overlay_id for o in lair_overlays(demo)] == ["rimeback-lair"]
    assert "Rimeback is set up" in demo.journal(limit=1)[0].text


def test_set_up_drawn_by_the_app(demo: Campaign) -> None:
    spread(demo)
    bh.set_up_behemoth(demo, behemoth="rimeback")
    view = bh.behemoth_view(demo)
    assert view is not None
    assert view.instinct in ("RBI1", "RBI2", "RBI3")
    assert view.hex in ("E01", "E05") and view.lair[0] == view.hex
    assert view.reaction_ordered  # the app shuffled the deck
    assert "drawn by the app" in demo.journal(limit=1)[0].text


@pytest.mark.parametrize("kwargs, message", [
    ({"behemoth": "nobody"}, "no behemoth 'nobody'"),
    ({"behemoth": "rimeback", "instinct": "RBS1"}, "not one of Rimeback's Instinct"),
    ({"behemoth": "rimeback", "secret": "RBI1"}, "not one of Rimeback's Secret"),
    ({"behemoth": "rimeback", "lair_hex": "E05"}, "explored hex with no overlays"),
    ({"behemoth": "rimeback", "lair_hex": "E09"}, "explored hex with no overlays"),
])
def test_set_up_refusals_change_nothing(demo: Campaign, kwargs: dict, message: str) -> None:
    events = len(demo.journal())
    with pytest.raises(Refused, match=message):
        bh.set_up_behemoth(demo, **kwargs)
    assert bh.behemoth_view(demo) is None
    assert lair_overlays(demo) == []
    assert len(demo.journal()) == events


def test_a_second_set_up_is_refused(demo: Campaign) -> None:
    spread(demo)
    bh.set_up_behemoth(demo, behemoth="rimeback", instinct="RBI1", secret="RBS1",
                       lair_hex="E01")
    with pytest.raises(Refused, match="set up already"):
        bh.set_up_behemoth(demo, behemoth="rimeback", lair_hex="E05")
    assert len(lair_overlays(demo)) == 1


def test_a_lair_target_is_placed_at_set_up(demo: Campaign) -> None:
    bh.set_up_behemoth(demo, behemoth="rimeback", instinct="RBI3", secret="RBS1",
                       lair_hex="E01")
    view = bh.behemoth_view(demo)
    assert view is not None and view.target == "hex E01"


# --- the preview ------------------------------------------------------------------------------


def test_preview_probabilities_sum_to_one(demo: Campaign) -> None:
    spread(demo)
    bh.set_up_behemoth(demo, behemoth="rimeback", instinct="RBI1", secret="RBS1",
                       lair_hex="E01")
    bh.set_target(demo, target="Ash")
    view = bh.behemoth_view(demo)
    assert view is not None
    assert sum(view.end_hexes.values()) == Fraction(1)
    assert all(isinstance(p, Fraction) for p in view.end_hexes.values())
    assert view.reach["Ash"] == Fraction(1)  # 1d6+1 always pays E05's value
    assert view.reach["Bryn"] == Fraction(0)
    data = bh.behemoth_overlay_data(demo)
    assert data is not None and data["target"] == "E05"
    assert data["end_odds"] == {"E05": 1.0}


def test_target_refusal(demo: Campaign) -> None:
    bh.set_up_behemoth(demo, behemoth="rimeback", instinct="RBI1", secret="RBS1",
                       lair_hex="E01")
    with pytest.raises(Refused, match="neither"):
        bh.set_target(demo, target="Nobody")


# --- habits and secret (D18) -----------------------------------------------------------------


def night_until_the_offer(campaign: Campaign, limit: int = 200) -> object | None:
    """Pass everyone, begin the Night and answer it (first option, app for chance) until
    the Night offers the behemoth's habits or secret; None if it never does."""
    for name in ("Ash", "Bryn"):
        if name not in operations.whose_turn(campaign)["passed"]:
            operations.pass_turn(campaign, name=name)
    run.start_night(campaign)
    for _ in range(limit):
        view = run.in_progress(campaign)
        if view is None or view.kind != "night":
            return None
        step = view.step
        assert step is not None
        if step.prompt.startswith("The behemoth is near"):
            return step
        run.advance(campaign, choice=step.options[0] if step.decider is Decider.PLAYER
                    else None)
    raise AssertionError("the Night did not end")


@pytest.mark.parametrize("what", ["habits", "secret"])
def test_behemoths_habits_and_secret_are_never_learned_during_the_day(
        demo: Campaign, what: str) -> None:
    bh.set_up_behemoth(demo, behemoth="rimeback", instinct="RBI2", secret="RBS2",
                       lair_hex="E01")
    operations.gain_lore(demo, amount=11)
    learn = bh.learn_habits if what == "habits" else bh.learn_secret
    with pytest.raises(Refused, match=f"Rimeback's {what} (are|is) learned only at the end "
                                      "of a Night"):
        learn(demo)
    view = bh.behemoth_view(demo)
    assert view is not None and not view.habits_learned and not view.secret_learned
    assert "only at the end of a Night" in (view.learn_habits_refusal or "")
    assert demo.status().lore == 11


def test_behemoths_learning_needs_the_lore(demo: Campaign) -> None:
    bh.set_up_behemoth(demo, behemoth="rimeback", instinct="RBI2", secret="RBS2",
                       lair_hex="E01")
    view = bh.behemoth_view(demo)
    assert view is not None and "costs 4" in (view.learn_habits_refusal or "")
    with pytest.raises(Refused, match="0 lore; learning the behemoth's habits costs 4"):
        bh.learn_habits(demo)
    # With no lore the Night's end offers nothing.
    assert night_until_the_offer(demo) is None


def test_behemoths_habits_and_secret_learned_at_the_end_of_a_night(demo: Campaign) -> None:
    bh.set_up_behemoth(demo, behemoth="rimeback", instinct="RBI2", secret="RBS2",
                       lair_hex="E01")
    operations.gain_lore(demo, amount=12)
    step = night_until_the_offer(demo)
    assert step is not None and set(step.options) == {"habits", "secret", "done"}
    # The Night keeps its own lore until it ends; the offer says how much there is.
    lore = int(step.prompt.split("(lore ", 1)[1].split(")", 1)[0])
    run.advance(demo, choice="habits")
    run.advance(demo, choice="secret")
    # The Night ends here (the behemoth's activation follows as its own procedure).
    assert run.in_progress(demo).kind != "night"
    view = bh.behemoth_view(demo)
    assert view is not None and view.habits == "220" and view.habits_learned
    assert view.secret is not None and view.secret["id"] == "RBS2"
    assert demo.status().lore == lore - 4 - 7
    with pytest.raises(Refused, match="already learned"):
        bh.learn_habits(demo)


def test_behemoths_learning_at_night_needs_the_behemoth_near(demo: Campaign) -> None:
    # Both characters two hexes or more from its hex: the Night offers nothing.
    bh.set_up_behemoth(demo, behemoth="rimeback", instinct="RBI2", secret="RBS2",
                       lair_hex="E01")
    spread(demo)  # Ash in E05, next to E01: near enough (D18)
    operations.gain_lore(demo, amount=10)
    with pytest.raises(Refused, match="only at the end of a Night"):
        bh.learn_habits(demo, name="Ash")
    assert night_until_the_offer(demo) is not None


# --- a whole activation, encounter and contest ----------------------------------------------


def test_activation_encounter_and_contest_with_typed_dice(demo: Campaign) -> None:
    spread(demo)
    bh.set_up_behemoth(demo, behemoth="rimeback", instinct="RBI1", secret="RBS2",
                       lair_hex="E01")
    bh.set_target(demo, target="Ash")
    bh.start_activation(demo)
    view = run.in_progress(demo)
    assert view is not None and view.kind == "behemoth_activation"
    assert view.step is not None and view.step.decider is Decider.DICE
    summary = run.advance(demo, choice=(3,)).summary
    assert "4 movement points" in summary and "It encounters Ash" in summary
    view = run.in_progress(demo)
    assert view is not None and (view.kind, view.actor) == ("behemoth_encounter", "Ash")
    assert bh.behemoth_view(demo).hex == "E05"  # type: ignore[union-attr]
    run.advance(demo, choice="RB3")  # awareness 9
    summary = run.advance(demo, choice=(6,)).summary  # Ash: awareness 5 + 6 = 11
    assert "11 against 9: success" in summary
    assert run.in_progress(demo) is None
    assert demo.status().lore == 2  # success: gain 2 lore


def learned_at_a_night_before(campaign: Campaign) -> None:
    """The secret was learned at the end of an earlier Night (set on its row: the Night
    that learns it is tested above)."""
    from sqlmodel import select

    with campaign.write("test", "the secret learned at an earlier Night") as session:
        row = session.exec(select(models.BehemothState)).first()
        assert row is not None
        row.secret_learned = True
        session.add(row)


def test_a_defeat_injures_and_a_secret_names_its_codex_entry(demo: Campaign) -> None:
    bh.set_up_behemoth(demo, behemoth="rimeback", instinct="RBI2", secret="RBS2",
                       lair_hex="E01")
    learned_at_a_night_before(demo)
    bh.start_activation(demo)  # no target: it stays, and meets both characters in E01
    view = run.in_progress(demo)
    assert view is not None and view.actor == "Ash"
    assert bh.behemoth_view(demo).pending_encounters == ("Bryn",)  # type: ignore[union-attr]
    run.advance(demo, choice="RB1")  # might 12
    summary = run.advance(demo, choice=(1,)).summary  # Ash: 6 + 1 = 7: lower by 5
    assert "defeat" in summary and "Read Codex Moon RB1" in summary
    assert ash(demo).health  # type: ignore[attr-defined]
    view = run.in_progress(demo)
    assert view is not None and view.actor == "Bryn"
    run.advance(demo, choice="RB4")
    run.advance(demo, choice=(5,))  # conviction 5 + 5 = 10: stalemate, lose 1 energy
    assert run.in_progress(demo) is None
    bryn = next(c for c in demo.characters() if c.name == "Bryn")
    assert bryn.energy == 4


def test_encounter_by_hand_with_the_app_drawing(demo: Campaign) -> None:
    bh.set_up_behemoth(demo, behemoth="rimeback")
    bh.start_encounter(demo, name="Bryn")
    for _ in range(20):
        if run.in_progress(demo) is None:
            break
        run.advance(demo)
    assert run.in_progress(demo) is None
    view = bh.behemoth_view(demo)
    assert view is not None and not view.reaction_ordered  # shuffled back


def test_activation_without_a_behemoth_is_refused(demo: Campaign) -> None:
    with pytest.raises(Refused, match="No behemoth is in play"):
        bh.start_activation(demo)


# --- the end of the Night -----------------------------------------------------------------------


def play_out(campaign: Campaign, prefer: str | None = None, limit: int = 300) -> list[str]:
    lines = []
    for _ in range(limit):
        view = run.in_progress(campaign)
        if view is None or view.kind != "night":
            return lines
        step = view.step
        assert step is not None
        choice = None
        if step.decider is Decider.PLAYER:
            choice = prefer if prefer in step.options else step.options[0]
        lines.append(run.advance(campaign, choice=choice).summary)
    raise AssertionError("the Night did not end")


def test_the_night_offers_learning_and_its_end_begins_the_activation(demo: Campaign) -> None:
    bh.set_up_behemoth(demo, behemoth="rimeback", instinct="RBI2", secret="RBS3",
                       lair_hex="E01")
    operations.gain_lore(demo, amount=8)
    operations.pass_turn(demo, name="Ash")
    operations.pass_turn(demo, name="Bryn")
    run.start_night(demo)
    lines = play_out(demo, prefer="secret")
    assert "The behemoth activates" in lines[-1]
    view = bh.behemoth_view(demo)
    assert view is not None and view.secret_learned
    assert view.secret is not None and view.secret["id"] == "RBS3"
    # RBI2 with no target: it stays in E01 and meets Ash there; the encounter is next.
    progress = run.in_progress(demo)
    assert progress is not None and progress.kind == "behemoth_encounter"


def test_undo_goes_back_step_by_step(demo: Campaign) -> None:
    spread(demo)
    bh.set_up_behemoth(demo, behemoth="rimeback", instinct="RBI1", secret="RBS2",
                       lair_hex="E01")
    bh.set_target(demo, target="Ash")
    bh.start_activation(demo)
    run.advance(demo, choice=(3,))
    run.advance(demo, choice="RB3")
    run.advance(demo, choice=(6,))
    assert demo.status().lore == 2
    operations.undo(demo)  # the contest die
    assert demo.status().lore == 0
    assert run.in_progress(demo).kind == "behemoth_encounter"  # type: ignore[union-attr]
    operations.undo(demo)  # the card
    operations.undo(demo)  # the movement roll: back in E01, activation in progress
    assert run.in_progress(demo).kind == "behemoth_activation"  # type: ignore[union-attr]
    assert bh.behemoth_view(demo).hex == "E01"  # type: ignore[union-attr]
    operations.undo(demo)  # the activation's start
    assert run.in_progress(demo) is None
    operations.undo(demo)  # the target token
    assert bh.behemoth_view(demo).target is None  # type: ignore[union-attr]
    operations.undo(demo)  # the set-up
    assert bh.behemoth_view(demo) is None and lair_overlays(demo) == []
    operations.redo(demo)
    assert bh.behemoth_view(demo) is not None and len(lair_overlays(demo)) == 1


def test_card_effects_apply_what_they_can_and_journal_the_rest(demo: Campaign) -> None:
    from companion.operations.state import load_game
    from companion.rules.effects import effects_from_data

    with demo.file.read() as session:
        game = load_game(session, demo.content)
    effects = effects_from_data([
        {"do": "gain_item", "item": "stone-knife"}, {"do": "lore", "amount": -3},
        {"do": "unrest", "amount": 1}, {"do": "suffer", "token": "minor_injury"},
        {"do": "read", "outcome": "104"}, {"do": "boost", "ability": "might"},
    ])
    after, notes = bh.apply_effects(demo, game, "Ash", effects)
    ash_after = after.character("Ash")
    assert ash_after.health and after.society.unrest == game.society.unrest + 1
    assert ash_after.boosts
    assert "stone-knife" in [item for item, _slot in ash_after.items]
    assert "Read Codex outcome 104." in notes
    assert any("lore" in n for n in notes)  # 0 lore: the spend is not activated


def test_a_behemoth_that_cannot_activate_does_not_stop_the_night(demo: Campaign) -> None:
    bh.set_up_behemoth(demo, behemoth="rimeback", instinct="RBI2", secret="RBS3",
                       lair_hex="E01")
    with demo.file.transaction("test", "a card from an older pack") as session:
        from sqlmodel import select

        session.exec(select(models.BehemothState)).one().instinct_card = "OLD1"
    operations.pass_turn(demo, name="Ash")
    operations.pass_turn(demo, name="Bryn")
    run.start_night(demo)
    lines = play_out(demo)
    assert "could not activate" in lines[-1] and "OLD1" in lines[-1]
    assert run.in_progress(demo) is None


def test_an_encounter_resumes_after_reopening(tmp_path: object) -> None:
    from pathlib import Path

    path = Path(str(tmp_path)) / "r.stonesaga"
    campaign = operations.create_demo_campaign(path)
    bh.set_up_behemoth(campaign, behemoth="rimeback", instinct="RBI2", secret="RBS3",
                       lair_hex="E01")
    bh.start_activation(campaign)  # it stays and meets Ash, then Bryn
    run.advance(campaign, choice="RB7")
    campaign.close()
    with operations.open_campaign(path) as again:
        view = run.in_progress(again)
        assert view is not None and view.actor == "Ash" and len(view.log) == 1
        assert bh.behemoth_view(again).pending_encounters == ("Bryn",)  # type: ignore[union-attr]
        run.advance(again, choice=(2,))
        view = run.in_progress(again)
        assert view is not None and view.actor == "Bryn"
