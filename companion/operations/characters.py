"""Character operations (Rulebook: Characters): rolling and creating characters.

Dice are rolled by the app (the campaign's seeded generator, persisted) or typed from the
table; either way the values go through the same rules.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from sqlmodel import col, select

from companion.content.schema.base import Ability
from companion.operations.changes import Changes, Refused
from companion.operations.core import Campaign
from companion.operations.state import HexIndex, character_to_row, load_game, read_legends
from companion.rules import creation
from companion.store import models


def roll_dice(campaign: Campaign, *, count: int, purpose: str) -> Changes:
    """Roll ``count`` dice with the campaign's seeded generator (in-app play).

    The roll is journalled, so the same campaign replays the same dice, and
    ``Changes.detail`` holds the values.
    """
    if not 1 <= count <= 10:
        raise Refused(f"roll 1 to 10 dice, not {count}")
    with campaign.write("dice.roll", f"Rolled {count} dice for {purpose}") as session:
        chance, row = campaign.chance(session)
        values = chance.roll(count)
        campaign.save_chance(chance, row)
    return Changes(summary=f"Rolled {' '.join(map(str, values))} for {purpose}",
                   journal=True, detail=values)


def known_id(content: Any, kind: str, typed: str) -> str | None:
    """The id of the trait or mantle ``typed`` (``kind`` "traits" or "mantles"): its id
    or its name, in any case; a mantle also without "Mantle of the". None when the
    content does not know it."""
    entries: Any = getattr(content, kind)
    wanted = " ".join(str(typed).split()).casefold()
    for entry in entries.values():
        names = {str(entry.id).casefold(), str(entry.name).casefold()}
        if kind == "mantles":
            names.add(str(entry.name).casefold().removeprefix("mantle of the "))
        if wanted in names:
            return str(entry.id)
    return None


def _unknown(kind: str, typed: str) -> Refused:
    word = kind.removesuffix("s")
    return Refused(f"Your pack knows no {word} '{typed}': type it from your box (New "
                   f"Character's 'Type another {word}…'; in the terminal, --new-{word} "
                   f"\"{typed}\").")


def _join_challenge_log(session: Any, society: models.Society, name: str) -> None:
    """A character made while a challenge is played plays in it: the Challenge Log's
    entry for it names them (Rulebook: Using the Journal > Challenge Log)."""
    if not society.current_challenge_id:
        return
    entry = session.exec(select(models.ChallengeLogEntry).where(
        models.ChallengeLogEntry.challenge_id == society.current_challenge_id,
        col(models.ChallengeLogEntry.finished).is_(False)).order_by(
        col(models.ChallengeLogEntry.id).desc())).first()
    if entry is not None and name not in entry.characters:
        entry.characters = [*entry.characters, name]


def create_character(
    campaign: Campaign,
    *,
    name: str,
    player: str,
    rolled: Sequence[int],
    removed: int,
    assignment: Mapping[Ability | str, int],
    traits: Sequence[str],
    mantle: str | None = None,
    hex_tile: str | None = None,
    after_death: bool | None = None,
) -> Changes:
    """Create a character (Rulebook: Character Creation, steps 1-4).

    ``rolled`` are the five dice (typed from the table, or from :func:`roll_dice`),
    ``removed`` the position of the die left out, ``assignment`` the kept dice by ability.
    A starting character begins in the starting hex or a hex with an outpost;
    ``after_death``: a character made after a death enters with 0 energy in a hex that
    has shelter (Rulebook: Character Death; hardcore solo: the starting hex or an
    outpost's, D19). ``after_death`` None: inferred, a replacement when a character
    perished during this challenge and the society is short of its character count.
    The campaign's character count is enforced (D8).
    """
    content = campaign.content
    if mantle is not None:  # by id or by name, as the board prints it
        mantle = known_id(content, "mantles", mantle) or _raise(_unknown("mantles", mantle))
    traits = [known_id(content, "traits", t) or _raise(_unknown("traits", t)) for t in traits]
    names = {a.value for a in Ability}
    unknown = [str(a) for a in assignment if str(a) not in names]
    if unknown:
        raise Refused(f"There is no ability '{unknown[0]}': assign the kept dice to might, "
                      "dexterity, awareness and conviction.")
    known_traits = [t for t in content.traits] or None
    starting = campaign.starting_hexes()
    with campaign.write("character.create", f"{name.strip()} joined the society") as session:
        settings = session.get(models.Campaign, 1) or models.Campaign()
        society = session.get(models.Society, 1) or models.Society()
        game = load_game(session, content)
        hardcore = settings.solo_variant == "hardcore"
        perished = perished_this_challenge(campaign, session, society)
        if after_death is None:
            after_death = bool(perished) and \
                len(game.characters) < (settings.character_count or 2)
        replacement = after_death and not hardcore
        allowed, sheltered = replacement_hexes(campaign, game, starting) if replacement \
            else (list(starting), True)
        creation.check_placement(
            hex_tile, allowed=allowed, replacement=replacement,
            name=name.strip() or "the character", sheltered=sheltered)
        character = creation.create_character(
            content.rules, name=name, player=player, rolled=rolled, removed=removed,
            assignment={Ability(a): v for a, v in assignment.items()}, traits=traits,
            mantle=mantle, character_count=settings.character_count or 2,
            in_game=game.characters, legends=read_legends(session),
            available_traits=known_traits, hardcore=settings.solo_variant == "hardcore",
            unrest=society.unrest, starting_energy=0 if after_death else None, hex=hex_tile,
        )
        if hex_tile is not None and HexIndex.read(session).row(hex_tile) is None:
            raise Refused(f"Hex {hex_tile} is not in the valley.")
        row = models.Character(name=character.name, player=character.player)
        character_to_row(character, row, HexIndex.read(session))
        session.add(row)
        _join_challenge_log(session, society, character.name)
    abilities = ", ".join(f"{a.value.title()} {v}" for a, v in character.abilities.items())
    # Rulebook: Character Death: say why the newcomer enters with 0 energy.
    replaces = (f"; replaces {_names(perished)}, who perished: enters with 0 energy in "
                f"{'a hex with shelter' if replacement and sheltered else character.hex}"
                if after_death and perished else
                "; made after a death: enters with 0 energy" if after_death else "")
    # The traits as the sheet names them, "Wise", not "wise" (issue 36 item 13).
    traits = ", ".join(content.traits[t].name if t in content.traits else str(t).title()
                       for t in character.traits)
    return Changes(
        summary=f"{character.name} joined the society ({abilities}; {traits}){replaces}",
        characters=True, journal=True, detail=character,
    )


def perished_this_challenge(campaign: Campaign, session: Any, society: models.Society
                            ) -> list[str]:
    """Characters of the challenge being played who perished (Rulebook: Character Death:
    "when a character perishes during the game"): legends whose health track was full
    (each incapacitated character perishes), not those who aged out."""
    if not society.current_challenge_id:
        return []
    health_max = campaign.track_maxima(session.get(models.Campaign, 1) or models.Campaign())[0]
    entry = session.exec(select(models.ChallengeLogEntry).where(
        models.ChallengeLogEntry.challenge_id == society.current_challenge_id,
        col(models.ChallengeLogEntry.finished).is_(False)).order_by(
        col(models.ChallengeLogEntry.id).desc())).first()
    if entry is None:
        return []
    legends = {row.name for row in session.exec(select(models.Character).where(
        models.Character.status == "legend")).all() if len(row.health) >= health_max > 0}
    return [name for name in entry.characters if name in legends]


def replacement_due(campaign: Campaign) -> list[str]:
    """Who perished this challenge when the society is short of its character count: a
    character made now replaces them (0 energy, a hex with shelter); else empty."""
    with campaign.file.read() as session:
        settings = session.get(models.Campaign, 1) or models.Campaign()
        society = session.get(models.Society, 1) or models.Society()
        in_play = len(session.exec(select(models.Character).where(
            col(models.Character.status) != "legend")).all())
        perished = perished_this_challenge(campaign, session, society)
    return perished if in_play < (settings.character_count or 2) else []


def _raise(refusal: Refused) -> str:
    raise refusal


def _names(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def character_names(campaign: Campaign) -> list[str]:
    """Names of the characters in play, in creation order."""
    with campaign.file.read() as session:
        rows = session.exec(select(models.Character).where(
            col(models.Character.status) != "legend").order_by(col(models.Character.id))).all()
        return [r.name for r in rows]


def replacement_hexes(campaign: Campaign, game: Any, starting: Sequence[str]
                      ) -> tuple[list[str], bool]:
    """Where a character made after a death may enter, and whether those hexes have
    shelter: the hexes with shelter; with none, the starting hex or an outpost's (reading
    D22, ``rules.character_death.no_shelter_entry``)."""
    return creation.replacement_entry(
        entry_hexes(campaign, game, starting, after_death=True), starting,
        campaign.content.rules.character_death.no_shelter_entry)


def entry_hexes(campaign: Campaign, game: Any, starting: Sequence[str], *,
                after_death: bool) -> list[str]:
    """Where a new character may enter the valley: the starting hex or a hex with an
    active outpost (Rulebook: Set Up); after a death, a hex that has shelter (Rulebook:
    Character Death): a shelter token, or a structure that grants shelter while
    structures work (unrest below 16, D10)."""
    if not after_death:
        return list(starting)
    from companion.operations.night_cards import structure_shelter_hexes

    return sorted({*game.tokens.shelters, *structure_shelter_hexes(campaign, game)})
