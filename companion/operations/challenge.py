"""The challenge lifecycle and the characters' lives between games (Rulebook: Set Up;
Continuing Play; Using the Journal; Characters > Legends, Age; Basic Concepts > Tests).

Set-up lives in :mod:`companion.operations.setup`; this module ends a challenge (outcome
entry, retained supplies, looming challenges, unfinished epoch goals, tokens removed),
starts a new epoch, completes goals, ages characters into legends, and lets a character
draw, choose and use a legend card, and make an ability test.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from sqlmodel import Session, col, select

from companion.content import Content
from companion.content.schema.base import Ability
from companion.operations.changes import Changes, Refused
from companion.operations.core import Campaign
from companion.operations.facts import item_facts
from companion.operations.state import (
    legend_for_test,
    load_game,
    release_legend,
    save_game,
    token_from_json,
    token_to_json,
)
from companion.rules import challenge as challenge_rules
from companion.rules import checks, health
from companion.rules.character import Age
from companion.rules.errors import IllegalAction
from companion.rules.ids import GoalId, ItemId, StructureId, Trait
from companion.store import models

# --- ending a challenge ---------------------------------------------------------------------

_CARD_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")
"""The shape of an id printed on a card (the pack schema's ComponentId)."""


def end_challenge(campaign: Campaign, *, outcome: str | None = None,
                  retained: Mapping[str, tuple[Sequence[str], Sequence[int]]] | None = None,
                  looming: Sequence[str] = ()) -> Changes:
    """End the challenge being played (Rulebook: Continuing Play; Using the Journal).

    Records the outcome entry in the Challenge Log (``outcome``: as the card names it;
    None takes the one the challenge card in the content names); each character may
    retain up to 5 items and 5 material tokens (``retained``: name -> (item ids, bag
    positions), D13); the looming challenges named by the challenge's outcome are set
    aside for the next game (by id: one the content has no card for is typed from the
    Codex, and its card is entered when it is started); unfinished epoch goals are set
    aside; activity resets; fire, shelter and lore tokens leave the valley.
    """
    content = campaign.content
    looming = [c.strip() for c in looming if c.strip()]
    bad = [c for c in looming if c not in content.challenges and not _CARD_ID.fullmatch(c)]
    if bad:
        raise Refused(f"There is no challenge {', '.join(bad)}: a looming challenge is "
                      "named by the id printed on its card (e.g. C2).")
    if outcome is None:
        playing = campaign.status().challenge_id  # the card in play names its outcome
        known = content.challenges.get(playing or "")
        outcome = known.outcome if known is not None else None
        if playing and outcome is None:
            raise Refused("The app does not know which outcome this challenge card names: "
                          "type the outcome entry printed on the card.")
        outcome = outcome or ""
    with campaign.write("challenge.end", "challenge ends") as session:
        from companion.operations.procedure_row import refuse_during_procedure

        refuse_during_procedure(session, "The end of the challenge")
        society = session.get(models.Society, 1)
        settings = session.get(models.Campaign, 1)
        assert society is not None and settings is not None
        if not society.current_challenge_id:
            raise Refused("No challenge is being played.")
        card = content.challenges.get(society.current_challenge_id)
        before = load_game(session, content)
        game = before
        keeps = []
        for name, (items, tokens) in (retained or {}).items():
            character = game.character(name)
            wanted = [_held_item(campaign, character.name, [i for i, _ in character.items],
                                 typed) for typed in items]
            keep = challenge_rules.retain_supplies(content.rules, character, wanted, tokens)
            keeps.append(keep)
        table = _table(session, society.current_challenge_id)
        saga = challenge_rules.Saga(epoch=settings.epoch, log=(challenge_rules.LogEntry(
            settings.epoch, society.current_challenge_id, ()),))  # type: ignore[arg-type]
        _, game = challenge_rules.end_challenge(saga, game, outcome=outcome, looming=(),
                                                table=table, retained=keeps)
        save_game(session, content, before, game)
        _close_log(session, society.current_challenge_id, outcome.strip(),
                   [c.name for c in before.characters])
        _set_aside_goals(session)
        for keep in keeps:
            _store_retained(session, keep)
        behemoth = _behemoth_to_box(session, content)
        for challenge in looming:
            session.add(models.LoomingChallenge(challenge_id=challenge, epoch=settings.epoch))
        society.current_challenge_id = None
        name = card.name if card else "the challenge"
        kept = "; ".join(f"{k.character} retains {len(k.items)} item(s) and "
                         f"{len(k.materials)} material(s)" for k in keeps)
        session.info["journal_text"] = (
            f"{name} ends: outcome entry {outcome.strip()}"
            # the challenges by name, as their cards say (not "looming: C2"; issue 27)
            + (f"; looming challenges set aside for the next game: "
               f"{', '.join(_challenge_name(content, c) for c in looming)}" if looming else "")
            + (f"; {kept}" if kept else "")
            + "; everything else the characters carried goes back to the box; activity "
              "resets; fire, shelter and lore tokens leave the valley"
            + (f"; {behemoth} goes back to the box" if behemoth else ""))
    return Changes(summary=f"The challenge ends (outcome {outcome.strip()})", society=True,
                   challenge=True, characters=True, valley=True, journal=True, behemoth=True)


def _item_name(campaign: Campaign, item: str) -> str:
    card = campaign.content.items.get(item)
    return card.name if card is not None else item


def _material_name(campaign: Campaign, material: str) -> str:
    card = campaign.content.materials.get(material)
    return card.name if card is not None else material


def _held_item(campaign: Campaign, name: str, held: Sequence[ItemId], typed: str) -> ItemId:
    """The item ``typed`` by its card name or id (any case) among those ``name`` holds;
    refused in card names (Rulebook: Continuing Play > Retaining Supplies)."""
    wanted = typed.strip().casefold()
    for item in held:
        if wanted in (item.casefold(), _item_name(campaign, item).casefold()):
            return item
    names = ", ".join(_item_name(campaign, i) for i in held) or "no items"
    known = next((c.name for c in campaign.content.items.values()
                  if wanted in (c.id.casefold(), c.name.casefold())), typed.strip())
    raise Refused(f"{name} has no {known} to retain ({name} holds {names}).")


def _behemoth_to_box(session: Session, content: object) -> str | None:
    """The behemoth in play leaves the valley (its miniature, lair and tokens); what the
    society learned of it stays in the Journal, and it is set up again when a challenge
    calls for it (Rulebook: Behemoths > Behemoth Setup; Continuing Play)."""
    name = None
    for row in session.exec(select(models.BehemothState)).all():
        if row.hex_id is None:
            continue
        name = row.name or row.behemoth_id
        row.hex_id = None
        row.lair_hex_id = None
        row.target = {}
        row.boosts = {}
        row.reaction_deck = []
    for overlay in session.exec(select(models.Overlay).where(
            models.Overlay.kind == "lair")).all():
        session.delete(overlay)
    return name


def _table(session: Session, challenge: str) -> challenge_rules.ChallengeTable:
    goals = session.exec(select(models.GoalState)).all()
    by = {state: tuple(GoalId(g.goal_id) for g in goals if g.state == state)
          for state in ("vital", "sealed", "epoch", "completed")}
    return challenge_rules.ChallengeTable(challenge, by["vital"], by["sealed"],  # type: ignore[arg-type]
                                          by["epoch"], by["completed"])


def _close_log(session: Session, challenge: str, outcome: str, names: list[str]) -> None:
    entry = session.exec(select(models.ChallengeLogEntry).where(
        models.ChallengeLogEntry.challenge_id == challenge,
        col(models.ChallengeLogEntry.finished).is_(False))).first()
    if entry is None:
        return
    entry.outcome_entry = outcome
    entry.finished = True
    entry.characters = names


def _set_aside_goals(session: Session) -> None:
    # Continuing Play: unfinished epoch goals are set aside for the next game of the
    # epoch; vital and sealed goals of the challenge leave play.
    for goal in session.exec(select(models.GoalState)).all():
        if goal.state == "epoch":
            goal.state = "set_aside"
        elif goal.state in ("vital", "sealed"):
            session.delete(goal)


def _store_retained(session: Session, keep: challenge_rules.Retained) -> None:
    row = session.exec(select(models.Character).where(
        models.Character.name == keep.character, models.Character.status != "legend")).first()
    if row is None or row.id is None:
        return
    row.items = [i for i in row.items if i["item"] not in keep.items]
    session.add(models.RetainedSupply(character_id=row.id, items=list(keep.items),
                                      materials=[token_to_json(t)["id"] for t in keep.materials]))


def claim_retained(campaign: Campaign, *, name: str, supply: int) -> Changes:
    """Give retained supplies to the character who kept them, or bequeath them to the
    player's next character (Rulebook: Retaining Supplies, D13). Claimed once."""
    with campaign.write("challenge.retained", "retained supplies") as session:
        row = session.get(models.RetainedSupply, supply)
        if row is None:
            raise Refused(f"There are no retained supplies number {supply}.")
        text = _claim(campaign, session, row, name)
        session.info["journal_text"] = text
    return Changes(summary=text, characters=True, journal=True)


def _claim(campaign: Campaign, session: Session, row: models.RetainedSupply, name: str
           ) -> str:
    content = campaign.content
    if row.bequeathed_to_id is not None:
        raise Refused("Those retained supplies have already been claimed.")
    owner = session.get(models.Character, row.character_id)
    before = load_game(session, content)
    character = before.character(name)
    retained = challenge_rules.Retained(
        owner.player if owner else "", owner.name if owner else "",  # type: ignore[arg-type]
        tuple(ItemId(i) for i in row.items),
        tuple(token_from_json({"kind": "material", "id": m, "side": "unprocessed"})
              for m in row.materials))
    character = challenge_rules.claim_retained(content.rules, retained, character,
                                               item_facts(campaign))
    save_game(session, content, before, before.with_characters(character))
    target = session.exec(select(models.Character).where(
        models.Character.name == character.name,
        col(models.Character.status) != "legend")).first()
    row.bequeathed_to_id = target.id if target else None
    return (f"{character.name} takes up the supplies {owner.name if owner else ''} retained "
            f"({len(row.items)} item(s), {len(row.materials)} material(s))")


def claim_in_session(campaign: Campaign, session: Session, name: str) -> list[str]:
    """At the start of a game a character takes up the supplies they retained."""
    me = session.exec(select(models.Character).where(
        models.Character.name == name, col(models.Character.status) != "legend")).first()
    if me is None:
        return []
    rows = session.exec(select(models.RetainedSupply).where(
        models.RetainedSupply.character_id == me.id,
        col(models.RetainedSupply.bequeathed_to_id).is_(None))).all()
    return [_claim(campaign, session, row, name) + "." for row in rows]


def retained_supplies(campaign: Campaign) -> list[dict[str, object]]:
    """Supplies retained and not yet claimed: number, who kept them, their player,
    the items' and materials' card names (and their ids)."""
    with campaign.file.read() as session:
        out: list[dict[str, object]] = []
        for row in session.exec(select(models.RetainedSupply).where(
                col(models.RetainedSupply.bequeathed_to_id).is_(None))).all():
            owner = session.get(models.Character, row.character_id)
            # Player words: the cards' names; the ids stay for scripts.
            out.append({"number": row.id, "character": owner.name if owner else "",
                        "player": owner.player if owner else "",
                        "items": [_item_name(campaign, i) for i in row.items],
                        "materials": [_material_name(campaign, m) for m in row.materials],
                        "item_ids": list(row.items), "material_ids": list(row.materials)})
        return out


def _outpost_named(game: Any, outpost: str) -> Any:
    """The outpost typed as ``outpost`` (its name in any case, or its number)."""
    for candidate in game.outposts:
        if candidate.name.casefold() == outpost.strip().casefold() or \
                str(candidate.id) == outpost.strip():
            return candidate
    names = ", ".join(o.name for o in game.outposts) or "none"
    raise Refused(f"There is no outpost '{outpost}' (outposts: {names}).")


def ruin_outpost(campaign: Campaign, *, outpost: str, reason: str = "") -> Changes:
    """An outpost becomes a ruin when an effect says so (an outpost event, a Codex
    outcome): its status becomes "Ruin" and its structures return to the structure deck
    (Rulebook: Overlays > Outposts > Ruins)."""
    from companion.rules.outposts import make_ruin

    with campaign.write("outpost.ruin", "an outpost becomes a ruin") as session:
        before = load_game(session, campaign.content)
        target = _outpost_named(before, outpost)
        ruined, structures = make_ruin(target)
        after = replace(before, outposts=tuple(ruined if o.id == ruined.id else o
                                               for o in before.outposts))
        save_game(session, campaign.content, before, after)
        returned = [campaign.content.structures[s].name if s in campaign.content.structures
                    else s for s in structures]
        text = (f"{ruined.name} becomes a ruin" + (f" ({reason})" if reason else "")
                + (f"; {', '.join(returned)} return to the structure deck" if returned
                   else ""))
        session.info["journal_text"] = text
    return Changes(summary=text, valley=True, journal=True)


def remove_structure(campaign: Campaign, *, outpost: str, structure: str,
                     reason: str = "") -> Changes:
    """An effect removes a structure from an outpost: erase it from the outpost card
    (Rulebook: Overlays > Outposts: "When a structure is removed from an outpost, erase it
    from that card")."""
    from companion.rules.outposts import remove_structure as erase

    with campaign.write("outpost.remove_structure", "a structure is removed") as session:
        before = load_game(session, campaign.content)
        target = _outpost_named(before, outpost)
        structures = campaign.content.structures
        typed = structure.strip()
        known = next((s for s in target.structures if s == typed or (
            s in structures and structures[s].name.casefold() == typed.casefold())), typed)
        name = structures[known].name if known in structures else known
        try:
            erased = erase(target, StructureId(known))
        except IllegalAction:
            built = ", ".join(structures[s].name if s in structures else s
                              for s in target.structures) or "none"
            raise Refused(f"{target.name} has no {name} (its structures: {built}).") from None
        after = replace(before, outposts=tuple(erased if o.id == erased.id else o
                                               for o in before.outposts))
        save_game(session, campaign.content, before, after)
        text = (f"The {name} is erased from {erased.name}'s outpost card"
                + (f" ({reason})" if reason else ""))
        session.info["journal_text"] = text
    return Changes(summary=text, valley=True, journal=True)


def new_epoch(campaign: Campaign) -> Changes:
    """A new epoch begins: its game count starts again and old epoch goals lapse."""
    with campaign.write("epoch.new", "A new epoch begins") as session:
        from companion.operations.procedure_row import refuse_during_procedure

        refuse_during_procedure(session, "A new epoch")
        society = session.get(models.Society, 1)
        settings = session.get(models.Campaign, 1)
        assert society is not None and settings is not None
        if society.current_challenge_id:
            raise Refused("An epoch cannot change during a challenge.")
        settings.epoch += 1
        society.games_this_epoch = 0
        for goal in session.exec(select(models.GoalState)).all():
            if goal.state == "set_aside":
                session.delete(goal)
        session.info["journal_text"] = f"Epoch {settings.epoch} begins"
    return Changes(summary="A new epoch begins", society=True, challenge=True)


def complete_goal(campaign: Campaign, *, goal: str) -> Changes:
    """A goal in play is completed: its card goes beneath the challenge and its reward is
    applied (Rulebook: Set Up > Set Up Challenge; Set Up Vital and Epoch Goals).

    ``goal`` is the goal's id or its name, in any case."""
    from companion.operations.effects import apply_society_effects

    with campaign.write("goal.complete", "goal completed") as session:
        rows = session.exec(select(models.GoalState)).all()
        row = _goal_row(campaign, rows, goal)
        if row is None or row.state not in ("vital", "epoch", "sealed"):
            raise Refused(f"The goal '{goal}' is not in play"
                          + (f": goals in play are {names}." if (names := _goals_named(
                              campaign, rows)) else "."))
        row.state = "completed"
        card = campaign.content.goals.get(row.goal_id) or \
            campaign.content.set_aside_goals.get(row.goal_id)
        name = card.name if card is not None else row.goal_id
        text = f"Goal completed: {name}"
        reward = tuple(getattr(card, "reward", ()) or ())
        if reward:
            before = load_game(session, campaign.content)
            after, said = apply_society_effects(campaign, before, reward)
            save_game(session, campaign.content, before, after)
            text += f". Reward: {said}"
        session.info["journal_text"] = text
    return Changes(summary=text, challenge=True, society=True, characters=True, journal=True)


def _goal_name(campaign: Campaign, goal_id: str) -> str:
    card = campaign.content.goals.get(goal_id) or campaign.content.set_aside_goals.get(goal_id)
    return card.name if card is not None else goal_id


def _goal_row(campaign: Campaign, rows: Sequence[models.GoalState], goal: str
              ) -> models.GoalState | None:
    """The goal typed by id or by name (any case); a sealed goal only by its id."""
    wanted = goal.strip().casefold()
    for row in rows:
        if row.goal_id.casefold() == wanted or (
                row.state != "sealed" and _goal_name(campaign, row.goal_id).casefold() == wanted):
            return row
    return None


def _goals_named(campaign: Campaign, rows: Sequence[models.GoalState]) -> str:
    return ", ".join(_goal_name(campaign, r.goal_id) for r in rows
                     if r.state in ("vital", "epoch"))


# --- characters between games ---------------------------------------------------------------


def age_character(campaign: Campaign, *, name: str) -> Changes:
    """Age a character: young to old, old to legend (Rulebook: Key Character
    Information > Age; Legends)."""
    with campaign.write("character.age", "age") as session:
        from companion.operations.procedure_row import refuse_during_procedure

        refuse_during_procedure(session, "Aging")
        before = load_game(session, campaign.content)
        aged = health.age(before.character(name))
        if aged.age is Age.LEGEND:
            from companion.operations.state import record_legend

            save_game(session, campaign.content, before, replace(
                before, characters=tuple(c for c in before.characters if c.name != name)))
            record_legend(session, aged)
            text = f"{name} ages out and becomes a legend"
        else:
            save_game(session, campaign.content, before, before.with_characters(aged))
            text = f"{name} grows {aged.age.value}"
        session.info["journal_text"] = text
    return Changes(summary=text, characters=True, journal=True)


def degrade_token(campaign: Campaign, *, name: str, index: int) -> Changes:
    """Degrade one injury or disease token: major to minor, minor removed."""
    with campaign.write("character.degrade", "degrade") as session:
        from companion.operations.procedure_row import refuse_during_night

        refuse_during_night(session, "heal the token")
        before = load_game(session, campaign.content)
        character = before.character(name)
        if not 0 <= index < len(character.health):
            raise Refused(f"{name} has no health token {index + 1}.")
        token = character.health[index]
        after = before.with_characters(health.degrade(character, index))
        save_game(session, campaign.content, before, after)
        session.info["journal_text"] = f"{name}'s {token.value.replace('_', ' ')} degrades"
    return Changes(summary=f"{name}'s {token.value.replace('_', ' ')} degrades",
                   characters=True)


def ability_test(campaign: Campaign, *, name: str, ability: str, difficulty: int,
                 die: int | None = None,
                 trait_modifiers: Mapping[str, int] | None = None,
                 legend: int | None = None, legend_trait: str | None = None) -> Changes:
    """A test (Rulebook: Basic Concepts > Tests): 1d6 + ability + boosts + the card's
    trait bonuses or penalties, against ``difficulty``; boosts used are degraded. The die
    is typed from the table, or rolled by the app when ``die`` is None.

    ``legend``: a legend card the character holds (its number), used for its ability
    value, or to count as having ``legend_trait``; it then returns to the unassigned
    legends (Rulebook: Legends > Using Legend Cards)."""

    def resolve(character: Any, rolled: int, modifiers: dict[Trait, int], card: Any,
                trait: Trait | None) -> tuple[Any, Any, str]:
        result, character = checks.ability_test(character, Ability(ability), rolled,
                                                 trait_modifiers=modifiers, legend=card,
                                                 legend_trait=trait)
        verdict = "succeeds" if result.total >= difficulty else "fails"
        return result, character, (f"{name} tests {ability}: {result.die} + "
                                   f"{result.total - result.die} = {result.total} vs "
                                   f"{difficulty}: {verdict}")

    return _tested(campaign, "test", name=name, ability=ability, die=die,
                   trait_modifiers=trait_modifiers, legend=legend, legend_trait=legend_trait,
                   resolve=resolve)


def _tested(campaign: Campaign, kind: str, *, name: str, ability: str, die: int | None,
            trait_modifiers: Mapping[str, int] | None, legend: int | None,
            legend_trait: str | None, resolve: Callable[..., tuple[Any, Any, str]]
            ) -> Changes:
    """A test or a contest in one write: the die typed or rolled, a held legend card
    used (and returned to the unassigned legends), the character written back; ``resolve``
    applies the rule and gives (result, character, the journal's words)."""
    content = campaign.content
    if ability not in {a.value for a in Ability}:
        raise Refused(f"There is no ability '{ability}': {kind} might, dexterity, "
                      "awareness or conviction.")
    with campaign.write(kind, kind) as session:
        before = load_game(session, content)
        card = legend_for_test(session, name, legend)
        rolled = _die(campaign, session, die)
        result, character, text = resolve(
            before.character(name), rolled,
            {Trait(t): v for t, v in (trait_modifiers or {}).items()}, card,
            Trait(legend_trait) if legend_trait else None)
        save_game(session, content, before, before.with_characters(character))
        release_legend(session, legend)
        text += _legend_words(card, legend_trait)
        session.info["journal_text"] = text
    return Changes(summary=text, characters=True, detail=result)


def _die(campaign: Campaign, session: Session, die: int | None) -> int:
    if die is None:
        chance, rng = campaign.chance(session)
        rolled = chance.roll(1)[0]
        campaign.save_chance(chance, rng)
        return rolled
    if not 1 <= die <= 6:
        raise Refused(f"A die shows 1 to 6; got {die}.")
    return die


def _legend_words(card: object, trait: str | None) -> str:
    if card is None:
        return ""
    name = getattr(card, "name", "")
    how = f"counting as having the trait {trait}" if trait else "using its ability value"
    return f" (with the legend of {name}, {how}; the card returns to the unassigned legends)"


def contest(campaign: Campaign, *, name: str, ability: str, behemoth_value: int,
            behemoth_boosts: Sequence[int] = (), die: int | None = None,
            trait_modifiers: Mapping[str, int] | None = None,
            legend: int | None = None, legend_trait: str | None = None) -> Changes:
    """A contest against a behemoth's ability read at the table (Rulebook: Behemoths >
    Contests; D16): the character's test result against the behemoth's value plus its
    boosts; success, stalemate or defeat. A held legend card may be used as in a test."""

    def resolve(character: Any, rolled: int, modifiers: dict[Trait, int], card: Any,
                trait: Trait | None) -> tuple[Any, Any, str]:
        result, character, _ = checks.contest(
            campaign.content.rules, character, Ability(ability), rolled, behemoth_value,
            tuple(behemoth_boosts), trait_modifiers=modifiers, legend=card, legend_trait=trait)
        return result, character, (f"{name} contests {ability}: {result.test.die} + "
                                   f"{result.test.total - result.test.die} = "
                                   f"{result.test.total} against the behemoth's "
                                   f"{result.behemoth_score}: {result.outcome.value}")

    return _tested(campaign, "contest", name=name, ability=ability, die=die,
                   trait_modifiers=trait_modifiers, legend=legend, legend_trait=legend_trait,
                   resolve=resolve)


def _challenge_name(content: Content, challenge: str) -> str:
    """A challenge's name as its card prints it (its id when the content has no card)."""
    card = content.challenges.get(challenge)
    return str(card.name) if card is not None else f"{challenge} (a card to enter when it " \
        "is started)"
