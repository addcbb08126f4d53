"""Foraging and delving as procedures (Rulebook: Foraging; Delving; D1, D4, D17).

They plug into :mod:`companion.operations.procedures`: each begins as a Day action that
pays its cost, runs step by step (saved after every step), and writes its result when
it ends. Both engines hold the character, whose boosts their tests use and degrade.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from sqlmodel import Session

from companion.operations.changes import Changes
from companion.operations.core import Campaign
from companion.operations.effects import apply_outcome, tokens
from companion.operations.facts import feature_facts, hex_features
from companion.operations.procedure_row import Kind, begin
from companion.operations.state import load_game, save_game
from companion.operations.valley import load_valley, save_valley
from companion.rules import day as day_rules
from companion.rules import exploration
from companion.rules.delving import DelvingProcedure, exit_hexes
from companion.rules.errors import IllegalAction
from companion.rules.foraging import ForagingProcedure, harvest_cap
from companion.rules.ids import HexId
from companion.rules.outposts import FeatureAction
from companion.rules.procedure import Procedure


def begin_activity(campaign: Campaign, session: Session, name: str, feature: str,
                   action: FeatureAction) -> tuple[Any, Any]:
    """Check the feature is here and usable, pay the action; returns (the game before,
    the character after paying)."""
    game = load_game(session, campaign.content)
    character = game.character(name)
    if feature not in hex_features(campaign, game, character.hex):
        raise IllegalAction(f"there is no usable {feature} in {character.name}'s hex")
    after = day_rules.feature_action(campaign.content.rules, game, name, action,
                                     feature_facts(campaign, feature))
    save_game(session, campaign.content, game, after)
    return game, after.character(name)


def refuse_missing(campaign: Campaign, action: str, feature: str) -> None:
    """My own box: an activity whose deck the pack holds no card of yet is refused."""
    from companion.operations.box import missing_deck

    lacking = missing_deck(campaign.content, action, feature)
    if lacking is not None:
        raise lacking


def start_foraging(campaign: Campaign, *, name: str, feature: str) -> Changes:
    """Forage at a forest or plains (Rulebook: Foraging, steps 1-5; D1)."""
    content = campaign.content
    spec = next((a for a in content.features[feature].actions
                 if a.action.value == "forage"), None) if feature in content.features else None
    with campaign.write("foraging.start", "foraging") as session:
        if spec is None or spec.deck is None:
            raise IllegalAction(f"no one forages at a {feature}")
        game, character = begin_activity(campaign, session, name, feature,
                                          FeatureAction.FORAGE)
        refuse_missing(campaign, "forage", feature)
        items = [content.items[i] for i, _ in character.items if i in content.items]
        procedure = ForagingProcedure.start(
            character, spec.deck.value, content.forage_deck(spec.deck.value),
            content.forage_objects, content.forage_bonuses, content.rules.foraging,
            tokens(campaign), cap=harvest_cap(content.rules.foraging, items))
        begin(session, "foraging", procedure, actor=character.name, feature=feature)
        spent = game.character(name).energy - character.energy
        session.info["journal_text"] = (f"{character.name} began foraging in the {feature} "
                                        f"({spent} energy)")
    return Changes(summary=f"{name} began foraging in the {feature}", procedure=True,
                   characters=True)


def start_delving(campaign: Campaign, *, name: str, feature: str) -> Changes:
    """Delve at a cave or chasm (Rulebook: Delving; D4: locked until a game effect opens
    it, D17: depth costs and exits)."""
    content = campaign.content
    with campaign.write("delving.start", "delving") as session:
        game, character = begin_activity(campaign, session, name, feature,
                                          FeatureAction.DELVE)
        refuse_missing(campaign, "delve", feature)
        valley = load_valley(session)
        assert character.hex is not None
        procedure = DelvingProcedure.start(
            character, content.delving_cards.values(), content.rules.delving, character.hex,
            exit_hexes(valley, content, character.hex), tokens(campaign))
        begin(session, "delving", procedure, actor=character.name, feature=feature)
        spent = game.character(name).energy - character.energy
        session.info["journal_text"] = (f"{character.name} began delving at the {feature} "
                                        f"of {character.hex} ({spent} energy)")
    return Changes(summary=f"{name} began delving", procedure=True, characters=True)


def _restore_foraging(campaign: Campaign, session: Session, saved: dict[str, Any]
                      ) -> Procedure:
    return ForagingProcedure.from_state(saved["procedure"])


def _restore_delving(campaign: Campaign, session: Session, saved: dict[str, Any]) -> Procedure:
    return DelvingProcedure.from_state(saved["procedure"])


def _finish(campaign: Campaign, session: Session, procedure: Procedure,
            saved: dict[str, Any]) -> str:
    before = load_game(session, campaign.content)
    actor = saved["actor"]
    # The engine's tests used and degraded the character's boosts.
    tested = getattr(procedure, "character", None)
    game = before
    if tested is not None:
        game = game.with_characters(replace(game.character(actor), boosts=tested.boosts))
    outcome = procedure.outcome()
    game, notes = apply_outcome(campaign, game, actor, outcome)
    exit_hex = outcome.extra.get("exit_hex") if outcome.extra else None
    if exit_hex:
        game = game.with_characters(replace(game.character(actor), hex=HexId(exit_hex)))
        if outcome.extra.get("explore"):
            valley = load_valley(session)
            save_valley(session, valley, exploration.reveal(campaign.content, valley,
                                                            HexId(exit_hex)))
        notes.append(f"{actor} comes out at {exit_hex}.")
    save_game(session, campaign.content, before, game)
    # The whole outcome, not its last lines (issue 20: results kept in view).
    return f"{actor} finished {procedure.kind}: " + " ".join([*outcome.log, *notes])


KINDS = {"foraging": Kind(_restore_foraging, _finish),
         "delving": Kind(_restore_delving, _finish)}
"""Foraging's and delving's kinds of procedure, as the procedure registry rebuilds them."""
