"""Legend cards and mantle powers at the table (Rulebook: Characters > Legends: Gaining
Legend Cards, Using Legend Cards; Continuing Play > Mantle Power).

A legend card is a past character. When an ability says so, a character draws one at
random (the app's seeded generator) or chooses one from the society's unassigned legends
and keeps it beside the mantle board; it is used once (its ability value in a test or a
contest, or one of its traits or marks when an effect checks for it) and then returns to
the unassigned legends. Mantle powers are unlocked by the society, slotted by a character
of the matching mantle, and used as their card says.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from sqlmodel import Session, col, select

from companion.operations import state
from companion.operations.changes import Changes, Refused
from companion.operations.core import Campaign
from companion.operations.state import load_game, save_game
from companion.rules import legends as legend_rules
from companion.rules.ids import LegendId, Mark, Trait
from companion.store import models


@dataclass(frozen=True)
class LegendCard:
    """A legend card as the table sees it."""

    id: int
    """The card's number in the campaign file (``legend list`` shows it)."""
    name: str
    """The name the character bore."""
    abilities: dict[str, int]
    """Might, dexterity, awareness, conviction."""
    traits: tuple[str, ...]
    """Its traits."""
    marks: tuple[str, ...]
    """Marks written on it."""
    held_by: str | None
    """The character holding it; None: unassigned."""


def legend_cards(campaign: Campaign) -> list[LegendCard]:
    """Every legend card of the society, oldest first, and who holds it."""
    with campaign.file.read() as session:
        names = {r.id: r.name for r in session.exec(select(models.Character)).all()}
        rows = session.exec(select(models.Legend).order_by(col(models.Legend.id))).all()
        return [LegendCard(r.id or 0, r.name, dict(r.abilities), tuple(r.traits),
                           tuple(r.marks),
                           names.get(r.assigned_to_id) if r.assigned_to_id else None)
                for r in rows]


def held_legends(campaign: Campaign, name: str) -> list[LegendCard]:
    """The legend cards ``name`` holds."""
    return [c for c in legend_cards(campaign) if c.held_by == name]


def _pool(session: Session) -> tuple[list[models.Legend], legend_rules.LegendPool]:
    rows = session.exec(select(models.Legend).where(
        col(models.Legend.assigned_to_id).is_(None)).order_by(col(models.Legend.id))).all()
    return list(rows), legend_rules.LegendPool(tuple(LegendId(str(r.id)) for r in rows))


def gain_legend(campaign: Campaign, *, name: str, legend: int | None = None) -> Changes:
    """An ability tells ``name`` to draw a legend card (``legend`` None: shuffle the
    unassigned legends and draw one with the app's seeded generator) or to choose one
    (``legend``: its number). Refused when the society has no unassigned legend.
    """
    how = "draws" if legend is None else "chooses"
    with campaign.write("legend.gain", f"{name} {how} a legend card") as session:
        row = state.character_in_play(session, name)
        before = load_game(session, campaign.content)
        character = before.character(name)
        rows, pool = _pool(session)
        if legend is None:
            if not pool.unassigned:
                raise Refused("The society has no unassigned legend card to draw.")
            chance, rng = campaign.chance(session)
            pick = chance.shuffle(list(range(len(pool.unassigned))))[0]
            campaign.save_chance(chance, rng)
            pool, character = legend_rules.draw_legend(pool, character, pick)
        else:
            known = session.get(models.Legend, legend)
            if known is not None and known.assigned_to_id is not None:
                holder = session.get(models.Character, known.assigned_to_id)
                raise Refused(f"The legend of {known.name} is held by "
                              f"{holder.name if holder else 'another character'}.")
            if known is None:
                raise Refused(f"The society has no legend card number {legend}.")
            pool, character = legend_rules.choose_legend(pool, character,
                                                         LegendId(str(legend)))
        gained = next(r for r in rows if LegendId(str(r.id)) == character.legends[-1])
        gained.assigned_to_id = row.id
        text = f"{name} {how} the legend of {gained.name}"
        session.info["journal_text"] = text
    return Changes(summary=text, characters=True, journal=True, detail=gained.id)


def use_legend(campaign: Campaign, *, name: str, legend: int, trait: str | None = None,
               mark: str | None = None, reason: str = "") -> Changes:
    """``name`` uses a held legend card to count as having one of its traits or marks,
    when an effect checks for it; the card returns to the unassigned legends
    (Rulebook: Using Legend Cards). Tests and contests use it through their own
    operations (its ability value)."""
    if (trait is None) == (mark is None):
        raise Refused("Use a legend card for one of its traits or one of its marks.")
    with campaign.write("legend.use", "legend used") as session:
        _, card = state.held_legend(session, name, legend)
        facts = state.legend_of(card)
        if trait is not None and Trait(trait) not in facts.traits:
            raise Refused(f"The legend of {card.name} does not have the trait {trait} "
                          f"(it has {', '.join(facts.traits) or 'no traits'}).")
        if mark is not None and Mark(mark) not in facts.marks:
            raise Refused(f"The legend of {card.name} bears no mark {mark}"
                          + (f" (it bears {', '.join(facts.marks)})." if facts.marks
                             else "."))
        card.assigned_to_id = None
        what = f"the trait {trait}" if trait is not None else f"the mark {mark}"
        text = (f"{name} uses the legend of {card.name} to count as having {what}"
                + (f" ({reason})" if reason else "") + "; the card returns to the "
                "unassigned legends")
        session.info["journal_text"] = text
    return Changes(summary=text, characters=True, journal=True)


def return_legend(campaign: Campaign, *, name: str, legend: int) -> Changes:
    """Return a held legend card to the unassigned legends (after using it at the table)."""
    with campaign.write("legend.return", "legend returned") as session:
        _, card = state.held_legend(session, name, legend)
        card.assigned_to_id = None
        text = f"{name} returns the legend of {card.name} to the unassigned legends"
        session.info["journal_text"] = text
    return Changes(summary=text, characters=True, journal=True)


# --- marks written on a card (Rulebook: Fillable Cards) -------------------------------------


def write_mark(campaign: Campaign, *, mark: str, name: str | None = None,
               legend: int | None = None, reason: str = "") -> Changes:
    """Write ``mark`` on ``name``'s character card or on legend card number ``legend``
    (Rulebook: Fillable Cards: "players may be instructed to write or draw things on
    their Character card" or "on the Legend side"). A legend card's marks count when an
    effect checks for a mark (Using Legend Cards); a character's go with it to its legend
    card. Card effects and Codex outcomes write marks with the ``mark`` effect."""
    from companion.operations.effects import write_mark as written

    mark = " ".join(mark.split())
    if not mark:
        raise Refused("Say which mark is written, as the card draws it (e.g. spiral).")
    if (name is None) == (legend is None):
        raise Refused("Write the mark on one card: a character's card or a legend card.")
    why = f" ({reason})" if reason else ""
    with campaign.write("mark.write", "a mark is written") as session:
        if name is not None:
            state.character_in_play(session, name)
            before = load_game(session, campaign.content)
            character = before.character(name)
            if Mark(mark) in character.marks:
                raise Refused(f"{name}'s card already bears the mark {mark}.")
            save_game(session, campaign.content, before,
                      before.with_characters(written(character, mark)))
            text = f"The mark {mark} is written on {name}'s character card{why}"
        else:
            card = session.get(models.Legend, legend)
            if card is None:
                raise Refused(f"The society has no legend card number {legend}.")
            if mark in card.marks:
                raise Refused(f"The legend of {card.name} already bears the mark {mark}.")
            card.marks = [*card.marks, mark]
            session.add(card)
            text = f"The mark {mark} is written on the legend of {card.name}{why}"
        session.info["journal_text"] = text
    return Changes(summary=text, characters=True, journal=True)


# --- mantle powers --------------------------------------------------------------------------


def choose_mantle_power(campaign: Campaign, *, name: str, power: str) -> Changes:
    """Slot an unlocked mantle power of the character's mantle, only "At the start of any
    Challenge after the first one, after players choose mantles" (Continuing Play >
    Mantle Power): once the challenge has begun with its mantles and before the first
    Day is under way (no one has acted or passed)."""
    from companion.operations.state import MANTLE_POWER_WINDOW, mantle_power_id, slot_power

    chosen = mantle_power_id(campaign.content, power)
    with campaign.write("mantle_power.choose", "mantle power chosen") as session:
        society = session.get(models.Society, 1)
        settings = session.get(models.Campaign, 1)
        current = society.current_challenge_id if society else None
        if current is None:
            raise Refused("A mantle power is chosen at the start of a challenge, after the "
                          "mantles: start the next challenge first.")
        window = (settings.settings or {}).get(MANTLE_POWER_WINDOW) if settings else None
        if window != current:
            played = len(session.exec(select(models.ChallengeLogEntry)).all())
            if played <= 1:
                raise Refused("This is the society's first challenge: mantle powers are "
                              "chosen at the start of the challenges after it.")
            raise Refused("The challenge is under way: a mantle power is chosen only at the "
                          "start of a challenge, after the mantles, before anyone acts.")
        text = slot_power(campaign.content, session, name, chosen).rstrip(".")
        session.info["journal_text"] = text
    return Changes(summary=text, characters=True, journal=True)


def use_mantle_power(campaign: Campaign, *, name: str) -> Changes:
    """``name`` uses the slotted mantle power: its effects are applied to the character
    (a lore cost is refused when the society cannot pay it); what the effect vocabulary
    cannot say is read out for the table."""
    from companion.operations.effects import apply_effects

    character = campaign.character_detail(name)
    if character.mantle_power is None:
        raise Refused(f"{name} has no mantle power slotted.")
    card = campaign.content.mantle_powers.get(character.mantle_power)
    if card is None:
        raise Refused(f"The mantle power {character.mantle_power} is not in the content pack.")
    cost = sum(-e.amount for e in card.effects if e.do == "lore" and e.amount < 0)
    if cost > campaign.status().lore:
        raise Refused(f"The society has {campaign.status().lore} lore; {card.name} costs "
                      f"{cost}.")
    steps = [e.model_dump(exclude_defaults=True) | {"do": e.do} for e in card.effects]
    if steps and all(s["do"] != "test" for s in steps):
        changes = apply_effects(campaign, name=name, effects=steps,
                                source=f"mantle power {card.name}")
        return replace(changes, summary=f"{name} uses {card.name}: {changes.summary}")
    with campaign.write("mantle_power.use", "mantle power used") as session:
        text = f"{name} uses {card.name}: {card.text}"
        session.info["journal_text"] = text
    return Changes(summary=text, journal=True)


def unlocked_mantle_powers(campaign: Campaign) -> list[str]:
    """Ids of the mantle powers the society has unlocked."""
    with campaign.file.read() as session:
        return sorted(load_game(session, campaign.content).society.mantle_powers)
