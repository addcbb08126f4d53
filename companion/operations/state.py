"""Between the campaign file's rows and the rules' values.

``load_game`` reads the rows a Day action needs into a :class:`companion.rules.game.Game`;
``save_game`` writes back only what an action changed (the store journals every row it
touches, so writing unchanged values would make undo records noisy).

Hexes: the rules name a hex by its tile id (each tile is placed once per valley); the
file keys ``valley_hex`` rows by integer id. Outposts: the rules name them by the row id
as a string.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, cast

from sqlmodel import Session, col, select

from companion.content import Content
from companion.content.schema.base import Ability, HealthToken, Slot
from companion.operations.changes import Refused
from companion.rules import creation
from companion.rules.character import Age, Character
from companion.rules.game import Day, Game, Phase
from companion.rules.ids import (
    CharacterName,
    CultureAbilityId,
    EventId,
    FeatureId,
    HexId,
    ItemId,
    LegendId,
    MantleId,
    MantlePowerId,
    Mark,
    OutpostId,
    PlayerName,
    StructureId,
    Trait,
)
from companion.rules.legends import Legend
from companion.rules.outposts import Outpost, OutpostStatus
from companion.rules.resources import BagToken, Side, TokenKind
from companion.rules.society import Society
from companion.rules.valley import HexTokens
from companion.store import models

DAY_PROCEDURE = "day"
ABILITIES = tuple(Ability)


# --- tokens and characters ------------------------------------------------------------


def token_from_json(data: Mapping[str, Any]) -> BagToken:
    """A bag token from its JSON form ``{"kind", "id", "side", "large"}``."""
    return BagToken(TokenKind(data["kind"]), str(data["id"]), Side(data["side"]),
                    bool(data.get("large", False)))


def token_to_json(token: BagToken) -> dict[str, Any]:
    """The JSON form of a bag token."""
    data: dict[str, Any] = {"kind": token.kind.value, "id": token.name,
                            "side": token.side.value}
    if token.large:
        data["large"] = True
    return data


@dataclass(frozen=True)
class HexIndex:
    """Both ways between ``valley_hex`` row ids and tile ids."""

    tile_of: Mapping[int, str]
    row_of: Mapping[str, int]

    @classmethod
    def read(cls, session: Session) -> HexIndex:
        rows = session.exec(select(models.ValleyHex)).all()
        tile_of = {r.id: r.tile_id for r in rows if r.id is not None and r.tile_id}
        return cls(tile_of, {t: i for i, t in tile_of.items()})

    def tile(self, row_id: int | None) -> HexId | None:
        return HexId(self.tile_of[row_id]) if row_id is not None and row_id in self.tile_of \
            else None

    def row(self, tile: str | None) -> int | None:
        return self.row_of.get(tile) if tile else None


def character_from_row(row: models.Character, campaign: models.Campaign, content: Content,
                       hexes: HexIndex, held_legends: tuple[LegendId, ...] = ()) -> Character:
    """The rules' view of a character row."""
    hardcore = campaign.solo_variant == "hardcore"
    health_max, energy_max = creation.starting_scale(
        content.rules, campaign.character_count or 2, hardcore=hardcore)
    return Character(
        name=CharacterName(row.name),
        player=PlayerName(row.player),
        age=Age(row.age) if row.status != "legend" else Age.LEGEND,
        abilities={a: int(getattr(row, a.value)) for a in ABILITIES},
        traits=tuple(Trait(t) for t in row.traits),
        health_max=health_max,
        energy_max=energy_max,
        energy=row.energy,
        mantle=MantleId(row.mantle) if row.mantle else None,
        mantle_power=MantlePowerId(row.mantle_power) if row.mantle_power else None,
        marks=tuple(Mark(m) for m in row.marks),
        health=tuple(HealthToken(t) for t in row.health),
        boosts={Ability(a): tuple(v) for a, v in row.boosts.items() if v},
        items=tuple((ItemId(i["item"]), Slot(i["slot"])) for i in row.items),
        bag=tuple(token_from_json(t) for t in row.bag),
        hex=hexes.tile(row.hex_id),
        legends=held_legends,
        track_rules=creation.track_rules(content.rules, hardcore=hardcore),
    )


def _set(row: Any, name: str, value: Any) -> None:
    if getattr(row, name) != value:
        setattr(row, name, value)


def character_to_row(character: Character, row: models.Character, hexes: HexIndex) -> None:
    """Write a character's changed fields into its row."""
    _set(row, "name", character.name)
    _set(row, "player", character.player)
    if character.age is Age.LEGEND:
        _set(row, "status", "legend")
    else:
        _set(row, "age", character.age.value)
        _set(row, "status", "incapacitated" if character.incapacitated else "active")
    for ability in ABILITIES:
        _set(row, ability.value, character.abilities[ability])
    _set(row, "traits", list(character.traits))
    _set(row, "mantle", character.mantle)
    _set(row, "mantle_power", character.mantle_power)
    _set(row, "marks", list(character.marks))
    _set(row, "health", [t.value for t in character.health])
    _set(row, "energy", character.energy)
    _set(row, "boosts", {a.value: list(v) for a, v in character.boosts.items() if v})
    _set(row, "items", [{"item": i, "slot": s.value} for i, s in character.items])
    _set(row, "bag", [token_to_json(t) for t in character.bag])
    _set(row, "hex_id", hexes.row(character.hex))


# --- the society and the day ------------------------------------------------------------


def society_from_rows(session: Session, campaign: models.Campaign) -> Society:
    row = session.get(models.Society, 1) or models.Society()
    return Society(
        unrest=row.unrest,
        activity=row.activity,
        lore=row.lore,
        triggered_events=frozenset(EventId(e) for e in row.triggered_events),
        mantle_powers=frozenset(
            MantlePowerId(p.power_id) for p in session.exec(select(models.MantlePower)).all()
        ),
        culture_abilities=tuple(
            CultureAbilityId(c.ability_id or c.name)
            for c in session.exec(select(models.CultureAbility)).all()
        ),
        delving_unlocked=campaign.delving_unlocked,
    )


def society_to_rows(session: Session, campaign: models.Campaign, content: Content,
                    before: Society, after: Society) -> None:
    row = session.get(models.Society, 1)
    assert row is not None, "every campaign file has its society row"
    _set(row, "unrest", after.unrest)
    _set(row, "activity", after.activity)
    _set(row, "lore", after.lore)
    _set(row, "triggered_events", sorted(after.triggered_events))
    _set(campaign, "delving_unlocked", after.delving_unlocked)
    for power in sorted(after.mantle_powers - before.mantle_powers):
        known = content.mantle_powers.get(power)
        session.add(models.MantlePower(power_id=power, mantle=known.mantle if known else "",
                                       epoch=campaign.epoch))
    for ability in after.culture_abilities[len(before.culture_abilities):]:
        session.add(models.CultureAbility(ability_id=ability, name=ability,
                                          epoch=campaign.epoch))


def day_from_rows(session: Session) -> tuple[Day, models.ProcedureState | None]:
    row = session.exec(
        select(models.ProcedureState).where(models.ProcedureState.kind == DAY_PROCEDURE)
    ).first()
    if row is None:
        return Day(), None
    data = row.state
    return Day(
        phase=Phase(data.get("phase", "day")),
        last_actor=CharacterName(data["last_actor"]) if data.get("last_actor") else None,
        passed=frozenset(CharacterName(n) for n in data.get("passed", [])),
        acted=frozenset(CharacterName(n) for n in data.get("acted", [])),
        investigated=frozenset(CharacterName(n) for n in data.get("investigated", [])),
    ), row


def day_to_rows(session: Session, day: Day, row: models.ProcedureState | None) -> None:
    state = {"phase": day.phase.value, "last_actor": day.last_actor,
             "passed": sorted(day.passed), "acted": sorted(day.acted),
             "investigated": sorted(day.investigated)}
    if row is None:
        session.add(models.ProcedureState(kind=DAY_PROCEDURE, state=state))
    else:
        _set(row, "state", state)


# --- hex tokens and outposts -------------------------------------------------------------


def tokens_from_rows(session: Session, hexes: HexIndex) -> HexTokens:
    shelters: set[HexId] = set()
    fires: set[HexId] = set()
    lore: dict[HexId, int] = {}
    for token in session.exec(select(models.HexToken)).all():
        tile = hexes.tile(token.hex_id)
        if tile is None:
            continue
        if token.kind == "shelter":
            shelters.add(tile)
        elif token.kind == "fire":
            fires.add(tile)
        elif token.kind == "lore":
            lore[tile] = lore.get(tile, 0) + token.count
    return HexTokens(frozenset(shelters), frozenset(fires), lore)


def tokens_to_rows(session: Session, hexes: HexIndex, after: HexTokens) -> None:
    wanted: dict[tuple[int, str], int] = {}
    for kind, tiles in (("shelter", after.shelters), ("fire", after.fires)):
        for tile in tiles:
            wanted[(hexes.row_of[tile], kind)] = 1
    for tile, count in after.lore.items():
        wanted[(hexes.row_of[tile], "lore")] = count
    for token in session.exec(select(models.HexToken)).all():
        key = (token.hex_id, token.kind)
        if key not in wanted:
            session.delete(token)
            continue
        _set(token, "count", wanted.pop(key))
    for (hex_row, kind), count in sorted(wanted.items()):
        session.add(models.HexToken(hex_id=hex_row, kind=kind, count=count))


def outposts_from_rows(session: Session, content: Content, hexes: HexIndex) -> tuple[Outpost, ...]:
    structures: dict[int, list[str]] = {}
    for s in session.exec(select(models.OutpostStructure)
                          .order_by(col(models.OutpostStructure.id))).all():
        structures.setdefault(s.outpost_id, []).append(s.structure_id)
    result = []
    for row in session.exec(select(models.Outpost).order_by(col(models.Outpost.id))).all():
        tile = hexes.tile(row.hex_id)
        hex_tile = content.hexes.get(tile) if tile else None
        covers = (dict(hex_tile.sections.items()).get(row.section)  # type: ignore[call-overload]
                  if hex_tile and row.section else None)
        result.append(Outpost(
            id=OutpostId(str(row.id)), name=row.name, epoch=row.epoch_built,
            hex=tile or HexId(""), covers=FeatureId(covers or ""),
            status=OutpostStatus(row.status), category=row.category,
            structures=tuple(StructureId(s) for s in structures.get(row.id or 0, [])),
        ))
    return tuple(result)


def load_game(session: Session, content: Content) -> Game:
    """Everything a Day action needs, from the rows.

    A read session keeps what it read until the file is next written (issue 37: the
    views refreshed after one click read the game once, not once each); the file's
    ``data_version`` tells of a write through another connection."""
    cache = session.info.get("read_cache")
    if cache is None:
        return _read_game(session, content)
    version = session.connection().exec_driver_sql("PRAGMA data_version").scalar()
    kept = cache.get(GAME_KEPT)
    if kept is not None and kept[0] is content and kept[1] == version:
        return cast(Game, kept[2])
    game = _read_game(session, content)
    cache[GAME_KEPT] = (content, version, game)
    return game


ROWS_KEPT = "game_rows"
"""``session.info`` key: the rows a write session's ``load_game`` read (the campaign,
the society, the characters in play by name), for ``save_game``."""

GAME_KEPT = "game"
"""The read cache's key of the game last read (with the content and data version)."""


def _read_game(session: Session, content: Content) -> Game:
    campaign = session.get(models.Campaign, 1) or models.Campaign()
    hexes = HexIndex.read(session)
    held: dict[int, list[LegendId]] = {}
    for legend in session.exec(select(models.Legend)).all():
        if legend.assigned_to_id is not None:
            held.setdefault(legend.assigned_to_id, []).append(LegendId(str(legend.id)))
    rows = session.exec(
        select(models.Character).where(col(models.Character.status).in_(
            ["active", "incapacitated"])).order_by(col(models.Character.id))
    ).all()
    characters = tuple(
        character_from_row(r, campaign, content, hexes, tuple(held.get(r.id or 0, ())))
        for r in rows
    )
    day, _ = day_from_rows(session)
    if not session.info.get("read_only", False):
        # Kept for save_game in the same transaction (issue 37: one read of the game per
        # operation): the session holds its rows only weakly, and would read them again.
        session.info[ROWS_KEPT] = (campaign, session.get(models.Society, 1),
                                   {r.name: r for r in rows})
    return Game(characters=characters, society=society_from_rows(session, campaign), day=day,
                tokens=tokens_from_rows(session, hexes),
                outposts=outposts_from_rows(session, content, hexes))


MANTLE_POWER_WINDOW = "mantle_power_window"
"""``Campaign.settings`` key: the challenge at whose start mantle powers may be chosen
(Continuing Play > Mantle Power: "At the start of any Challenge after the first one, after
players choose mantles"); set by ``setup.start_challenge``, gone once the Day is under way."""


def under_way(day: Day) -> bool:
    """Someone has acted or passed, or the Night has come: the challenge has begun."""
    return bool(day.phase is Phase.NIGHT or day.last_actor or day.passed or day.acted)


def close_mantle_power_window(campaign: models.Campaign) -> None:
    """The start of the challenge is over: no more mantle powers until the next one."""
    if MANTLE_POWER_WINDOW in (campaign.settings or {}):
        campaign.settings = {k: v for k, v in campaign.settings.items()
                             if k != MANTLE_POWER_WINDOW}


def mantle_power_id(content: Content, typed: str) -> MantlePowerId:
    """A mantle power typed by id or card name, in any case."""
    for card in content.mantle_powers.values():
        if typed.strip().casefold() in (card.id.casefold(), card.name.casefold()):
            return MantlePowerId(card.id)
    raise Refused(f"There is no mantle power '{typed}' in the content pack.")


def slot_power(content: Content, session: Session, name: str, power: MantlePowerId) -> str:
    """Slot an unlocked power of ``name``'s mantle (Continuing Play > Mantle Power); the
    journal's words. The caller checks that this is the moment to."""
    from companion.rules import society as society_rules
    from companion.rules.errors import IllegalAction

    card = content.mantle_powers[power]
    before = load_game(session, content)
    try:
        character = before.character(name)
    except IllegalAction as exc:
        raise Refused(f"There is no character {name} in play.") from exc
    mantle = content.mantles.get(card.mantle)
    if power not in before.society.mantle_powers:
        raise Refused(f"The society has not unlocked {card.name} yet.")
    if character.mantle != str(card.mantle):
        worn = content.mantles.get(character.mantle or "")
        raise Refused(f"{card.name} is a power of the {mantle.name if mantle else ''} "
                      f"mantle; {name} wears "
                      f"{'the ' + worn.name + ' mantle' if worn else 'no mantle'}.")
    after = before.with_characters(society_rules.choose_mantle_power(
        before.society, character,
        society_rules.MantlePowerFacts(power, card.mantle)))  # type: ignore[arg-type]
    save_game(session, content, before, after)
    return f"{name} takes up the mantle power {card.name}."


def save_game(session: Session, content: Content, before: Game, after: Game) -> Game:
    """Write back what changed between ``before`` and ``after`` (characters by name).

    Whatever raised activity or unrest, the events and goals it reaches are settled
    first (Rulebook: Activity Events; Unrest): the game written is returned.
    """
    from companion.operations.society_events import settle_society

    after = settle_society(session, content, before, after)
    kept = session.info.get(ROWS_KEPT)
    campaign = kept[0] if kept else session.get(models.Campaign, 1)
    assert campaign is not None
    hexes = HexIndex.read(session)
    rows = kept[2] if kept else {}
    if any(c.name not in rows for c in after.characters):  # one the operation added
        rows = {r.name: r for r in session.exec(select(models.Character)).all()
                if r.status != "legend"}
    old = {c.name: c for c in before.characters}
    for character in after.characters:
        if old.get(character.name) != character:
            character_to_row(character, rows[character.name], hexes)
    if after.society != before.society:
        society_to_rows(session, campaign, content, before.society, after.society)
    if after.day != before.day:
        _, day_row = day_from_rows(session)
        day_to_rows(session, after.day, day_row)
        if under_way(after.day):
            close_mantle_power_window(campaign)
    if after.tokens != before.tokens:
        tokens_to_rows(session, hexes, after.tokens)
    if after.outposts != before.outposts:
        outposts_to_rows(session, content, hexes, before.outposts, after.outposts)
    return after


OUTPOST_OVERLAY = "outpost_overlay"
"""``session.info`` key: the outpost overlay the player chose for the outpost being built."""


def free_outpost_overlays(session: Session, content: Content) -> list[tuple[str, str]]:
    """(id, name) of the outpost overlays not yet in the valley (Rulebook: Overlays >
    Outposts: "Choose an outpost overlay that suits that outpost")."""
    used = {o.overlay_id for o in session.exec(select(models.Overlay)).all()}
    return [(o.id, o.name) for o in content.overlays.values()
            if o.kind.value == "outpost" and o.id not in used]


def _new_outpost_row(session: Session, content: Content, hexes: HexIndex,
                     outpost: Outpost) -> models.Outpost:
    """A new outpost: its card, and its overlay over the covered section (Rulebook:
    Overlays > Outposts: choose an outpost overlay, record its ID on the card)."""
    tile = content.hexes.get(outpost.hex)
    section = next((k for k, f in tile.sections.items() if str(f) == outpost.covers), None) \
        if tile else None
    used = {o.overlay_id for o in session.exec(select(models.Overlay)).all()}
    # "Choose an outpost overlay that suits that outpost": the player's choice
    # (``build_outpost(overlay=...)``), else the first one free.
    overlay = session.info.pop(OUTPOST_OVERLAY, None) or next(
        (o.id for o in content.overlays.values()
         if o.kind.value == "outpost" and o.id not in used), None)
    hex_row = hexes.row(outpost.hex)
    row = models.Outpost(name=outpost.name, category=outpost.category,
                         status=outpost.status.value, epoch_built=outpost.epoch,
                         hex_id=hex_row, section=section, overlay_id=overlay)
    session.add(row)
    if hex_row is not None and section is not None and overlay is not None:
        session.add(models.Overlay(hex_id=hex_row, section=section, overlay_id=overlay,
                                   kind="outpost"))
    session.flush()
    return row


def outposts_to_rows(session: Session, content: Content, hexes: HexIndex,
                     before: tuple[Outpost, ...], after: tuple[Outpost, ...]) -> None:
    """Add new outposts, update changed ones and their structures."""
    old = {o.id: o for o in before}
    for outpost in after:
        previous = old.get(outpost.id)
        if previous == outpost:
            continue
        row = session.get(models.Outpost, int(outpost.id)) if previous else None
        if row is None:
            row = _new_outpost_row(session, content, hexes, outpost)
        _set(row, "name", outpost.name)
        _set(row, "status", outpost.status.value)
        _set(row, "category", outpost.category)
        assert row.id is not None
        existing = session.exec(select(models.OutpostStructure).where(
            models.OutpostStructure.outpost_id == row.id)).all()
        kept = list(existing)
        for structure_row in existing:
            if structure_row.structure_id not in outpost.structures:
                session.delete(structure_row)
                kept.remove(structure_row)
        have = [s.structure_id for s in kept]
        for structure in outpost.structures:
            if structure in have:
                have.remove(structure)
            else:
                session.add(models.OutpostStructure(outpost_id=row.id, structure_id=structure))


# --- legends ------------------------------------------------------------------------------------


def legend_of(row: models.Legend) -> Legend:
    """A legend card's row, as the rules see it."""
    return Legend(LegendId(str(row.id)), row.name,
                  {Ability(a): v for a, v in row.abilities.items()},
                  tuple(Trait(t) for t in row.traits), tuple(Mark(m) for m in row.marks))


def character_in_play(session: Session, name: str) -> models.Character:
    """The row of the character ``name`` in play (Refused if there is none)."""
    row = session.exec(select(models.Character).where(
        models.Character.name == name, col(models.Character.status) != "legend")).first()
    if row is None:
        raise Refused(f"There is no character {name} in play.")
    return row


def held_legend(session: Session, name: str, legend: int
                ) -> tuple[models.Character, models.Legend]:
    """The character ``name`` and the legend card number ``legend`` they hold (Refused,
    naming what they hold, when they do not hold it)."""
    row = character_in_play(session, name)
    card = session.get(models.Legend, legend)
    if card is None or card.assigned_to_id != row.id:
        held = [r.name for r in session.exec(select(models.Legend).where(
            models.Legend.assigned_to_id == row.id)).all()]
        raise Refused(f"{name} holds no legend card number {legend}"
                      + (f"; {name} holds {', '.join(held)}" if held
                         else f"; {name} holds no legend card"))
    return row, card


def legend_for_test(session: Session, name: str, legend: int | None) -> Legend | None:
    """The held legend a test or contest uses (checked): a challenge's tests, the
    behemoth's contests."""
    if legend is None:
        return None
    _, card = held_legend(session, name, legend)
    return legend_of(card)


def release_legend(session: Session, legend: int | None) -> None:
    """After a legend card is used it returns to the unassigned legends."""
    if legend is None:
        return
    card = session.get(models.Legend, legend)
    if card is not None:
        card.assigned_to_id = None


def read_legends(session: Session) -> list[Legend]:
    """Every legend card of the campaign, as the rules see it."""
    return [legend_of(r) for r in session.exec(select(models.Legend)).all()]


def record_legend(session: Session, legend: Character) -> None:
    """A character who perished leaves play as a legend (Rulebook: Character Death)."""
    row = session.exec(select(models.Character).where(models.Character.name == legend.name,
                                                      models.Character.status != "legend")
                       ).first()
    if row is None:
        return
    row.status = "legend"
    campaign_row = session.get(models.Campaign, 1)
    session.add(models.Legend(
        character_id=row.id, name=legend.name,
        abilities={a.value: v for a, v in legend.abilities.items()},
        traits=list(legend.traits), marks=list(legend.marks),
        epoch=campaign_row.epoch if campaign_row else 1))
