"""Crafting (Rulebook: Processing & Crafting > Crafting Items; Using the Codex >
Crafting Entries): laying two material tokens, looking the code up, and remembering what
the society found so nobody tries a pair twice.

What the society knows lives in ``code_record`` rows (a recipe found, a dead end, or an
imported entry not yet confirmed): the crafting explorer classifies codes with those
records only, never with the Codex itself, so it spoils nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sqlmodel import Session, select

from companion.content.schema.base import PipColour
from companion.content.schema.world import CraftingEntry
from companion.operations.changes import Changes, Refused
from companion.operations.core import Campaign
from companion.operations.facts import item_facts
from companion.operations.procedure_row import procedure_in_progress
from companion.operations.state import load_game, save_game
from companion.rules import crafting as crafting_rules
from companion.rules import day as day_rules
from companion.rules import inventory
from companion.rules.crafting import CraftingCode, Discovery, MaterialFace, Orientation
from companion.rules.errors import IllegalAction
from companion.rules.game import Game
from companion.rules.ids import ItemId
from companion.rules.procedure import Outcome
from companion.rules.resources import BagToken, Side, TokenKind
from companion.store import models


@dataclass(frozen=True)
class HeldMaterial:
    """A material token a character holds, as the crafting explorer sees it."""

    character: str
    index: int
    """Its position in the character's bag."""
    face: MaterialFace


def _face(campaign: Campaign, token: BagToken) -> MaterialFace:
    material = campaign.content.materials.get(token.name)
    if token.kind is not TokenKind.MATERIAL or material is None:
        raise IllegalAction(f"{token.name} is not a material token: only materials craft")
    return MaterialFace.of(material, processed=token.side is Side.PROCESSED)


def held_materials(campaign: Campaign, names: Sequence[str] | None = None) -> list[HeldMaterial]:
    """Material tokens in the bags of ``names`` (default: every character in play)."""
    with campaign.file.read() as session:
        game = load_game(session, campaign.content)
    held = []
    for character in game.characters:
        if names is not None and character.name not in names:
            continue
        for index, token in enumerate(character.bag):
            if token.kind is TokenKind.MATERIAL and token.name in campaign.content.materials:
                held.append(HeldMaterial(character.name, index, _face(campaign, token)))
    return held


def _known(session: Session) -> dict[str, models.CodeRecord]:
    return {r.code: r for r in session.exec(select(models.CodeRecord)).all()}


KNOWN_WORDS = {"item": "item", "dead_end": "dead end", "untried": "untried",
               "no_entry": "tried: no entry in the Codex"}
"""What the society knows of a code, in the players' words, by discovery kind."""


def _tried_without_entry(records: dict[str, models.CodeRecord]) -> set[str]:
    """Codes the society crafted and the Codex had no entry for (recorded provisional,
    ``no_entry``): tried, so never shown as untried."""
    return {code for code, r in records.items()
            if r.status == "provisional" and (r.data or {}).get("no_entry")}


def _record_lookup(records: dict[str, models.CodeRecord]) -> crafting_rules.Lookup:
    """What the society has found, as the rules' lookup (never the Codex itself)."""
    def lookup(code: CraftingCode) -> CraftingEntry | None:
        record = records.get(str(code))
        if record is None or record.status == "provisional":
            return None
        if record.status == "null":
            return CraftingEntry(colour=code.colour, code=code.digits, dead_end=True)
        return CraftingEntry(colour=code.colour, code=code.digits, item_name=record.name or "?")

    return lookup


def crafting_explorer(campaign: Campaign, names: Sequence[str] | None = None
                      ) -> list[Discovery]:
    """Every code the materials at hand can make, in every orientation, and whether the
    society knows it as an item, a dead end, or has not tried it yet. A material is
    paired with itself where two of its tokens (same side up) are held."""
    faces = [h.face for h in held_materials(campaign, names)]
    with campaign.file.read() as session:
        records = _known(session)
    pairs = crafting_rules.pairs_at_hand(faces)
    return crafting_rules.explore_pairs(pairs, _record_lookup(records),
                                        campaign.content.rules.crafting.pip_colours,
                                        _tried_without_entry(records),
                                        campaign.content.rules.crafting.lead_only_colours)


def find_material(campaign: Campaign, text: str) -> str:
    """The id of the pack material ``text`` names (its id or its name, any case)."""
    materials = campaign.content.materials
    if text in materials:
        return text
    wanted = text.strip().lower()
    for material in materials.values():
        if wanted in (material.id.lower(), material.name.lower()):
            return material.id
    raise Refused(f"No material called {text!r} in this campaign's content: "
                  f"{', '.join(sorted(m.name for m in materials.values()))}.")


def _both_sides(campaign: Campaign, material: str) -> list[MaterialFace]:
    token = campaign.content.materials[material]
    return [MaterialFace.of(token, processed=side) for side in (False, True)]


def explore_materials(campaign: Campaign, first: str, second: str | None = None
                      ) -> list[Discovery]:
    """The crafting explorer over any materials the society knows, held or not: every
    code ``first`` makes with ``second`` (or, without it, with every material, itself
    included), each material with either side up, in every orientation; classified
    by what the society has found, never by the Codex."""
    a = find_material(campaign, first)
    partners = [find_material(campaign, second)] if second else \
        list(campaign.content.materials)
    pairs = [(x, y) for other in partners for x in _both_sides(campaign, a)
             for y in _both_sides(campaign, other)]
    with campaign.file.read() as session:
        records = _known(session)
    return crafting_rules.explore_pairs(pairs, _record_lookup(records),
                                        campaign.content.rules.crafting.pip_colours,
                                        _tried_without_entry(records),
                                        campaign.content.rules.crafting.lead_only_colours)


def pair_codes(campaign: Campaign, left: str, right: str, *, left_processed: bool = False,
               right_processed: bool = False) -> list[tuple[Orientation, CraftingCode, str]]:
    """Every code two materials make in every orientation, with what the society knows
    of it ('item: …', 'dead end', 'tried: no entry in the Codex', 'untried')."""
    content = campaign.content
    if left not in content.materials or right not in content.materials:
        raise Refused("Choose two materials of the content pack.")
    a = MaterialFace.of(content.materials[left], processed=left_processed)
    b = MaterialFace.of(content.materials[right], processed=right_processed)
    with campaign.file.read() as session:
        records = _known(session)
    lookup, tried = _record_lookup(records), _tried_without_entry(records)
    result = []
    for orientation, code in crafting_rules.all_codes(
            a, b, content.rules.crafting.lead_only_colours):
        entry = lookup(code)
        kind = "no_entry" if entry is None and str(code) in tried else \
            "untried" if entry is None else "dead_end" if entry.dead_end else "item"
        known = f"item: {entry.item_name}" if entry is not None and kind == "item" \
            else KNOWN_WORDS[kind]
        result.append((orientation, code, known))
    return result


def _laying(campaign: Campaign, session: Session, *, name: str, left: int,
            left_rotation: int, right: int, right_rotation: int
            ) -> tuple[Game, Game, Orientation, CraftingCode]:
    """The Craft action up to reading the Codex: (the game before, the game with the
    action taken, the laying, its code); refused as Craft is (an activity in progress,
    not two tokens of the bag, tokens that do not combine, no energy)."""
    content = campaign.content
    if procedure_in_progress(session) not in (None, "night"):
        raise Refused("An activity is in progress: finish it first.")
    before = load_game(session, content)
    character = before.character(name)
    if left == right or not (0 <= left < len(character.bag) and
                             0 <= right < len(character.bag)):
        raise IllegalAction(f"choose two different tokens from {character.name}'s bag")
    orientation = Orientation(_face(campaign, character.bag[left]), left_rotation % 4,
                              _face(campaign, character.bag[right]), right_rotation % 4)
    code = orientation.code(content.rules.crafting.lead_only_colours)
    game, _character = day_rules.take_action(content.rules, before, name, "Craft",
                                             content.rules.action_costs.craft)
    return before, game, orientation, code


def laid_code(campaign: Campaign, *, name: str, left: int, left_rotation: int, right: int,
              right_rotation: int) -> CraftingCode:
    """The code ``name``'s two tokens read laid so, if Craft would take them now (refused
    as :func:`craft` is: no energy, tokens that do not combine ...); nothing changes."""
    try:
        with campaign.file.read() as session:
            return _laying(campaign, session, name=name, left=left,
                           left_rotation=left_rotation, right=right,
                           right_rotation=right_rotation)[3]
    except IllegalAction as exc:
        raise Refused(str(exc)) from exc


def owners_word_needed(campaign: Campaign, code: CraftingCode) -> bool:
    """Whether Craft must first ask what the owner's Codex says for ``code``: a "My own
    box" campaign plays without the box's Codex, so a code its own pack has not
    remembered yet (an item, a dead end, or that the book has no entry) is read in the
    book at the table (Rulebook: Using the Codex > Crafting Entries)."""
    if campaign.kind != "box":
        return False
    found = campaign.content.crafting.lookup(code.colour, code.digits)
    return found.entry is None


def owners_question(code: CraftingCode) -> str:
    """What Craft asks of the table for a code the owner's pack has not remembered."""
    return (f"{code.label} ({code}) is not in the app's copy of your Codex yet: read it "
            "in the Codex's crafting entries and say what it makes (the item: its name, "
            "kind and what it does, typed once) or that the Codex has no entry for it. "
            "The app remembers it, then crafts (in the terminal: --codex-says "
            "'NAME; SLOT; WHAT IT DOES' or --no-entry).")


def craft(campaign: Campaign, *, name: str, left: int, left_rotation: int, right: int,
          right_rotation: int) -> Changes:
    """Craft (a Day action): lay two of ``name``'s material tokens (bag positions) side
    by side, each turned 0-3 quarter turns, read the code and look it up in the Codex.

    An item goes to the character; beyond its slots the player then chooses which item
    goes to whom (:func:`companion.operations.day.settle_excess`, D11). The code, item
    or dead end, is remembered by the society. In a "My own box" campaign a code its
    own pack does not remember is refused, asking what the owner's Codex says
    (:func:`owners_word_needed`; ``codex_crafting.craft_from_codex`` takes the answer).
    """
    with campaign.write("craft", "craft") as session:
        text, outcome = craft_laid(campaign, session, name=name, left=left,
                                   left_rotation=left_rotation, right=right,
                                   right_rotation=right_rotation)
    return Changes(summary=text, characters=True, journal=True, detail=outcome)


def craft_laid(campaign: Campaign, session: Session, *, name: str, left: int,
               left_rotation: int, right: int, right_rotation: int
               ) -> tuple[str, Outcome]:
    """Inside an open write: the Craft action (:func:`craft`), with the energy spent only
    once the Codex has said what the code makes. Returns (the journal's sentence, the
    rules' outcome)."""
    content = campaign.content
    before, game, orientation, code = _laying(
        campaign, session, name=name, left=left, left_rotation=left_rotation, right=right,
        right_rotation=right_rotation)
    if owners_word_needed(campaign, code):
        raise Refused(owners_question(code))
    character = game.character(name)
    found = content.crafting.lookup(code.colour, code.digits)
    # A code the owner's Codex has no entry for (remembered) crafts as no entry.
    entry = None if found.no_entry_known else found.entry
    outcome = crafting_rules.craft(
        character.name, orientation, entry,
        consume_on_dead_end=content.rules.crafting.consume_on_dead_end,
        consume_on_no_entry=content.rules.crafting.consume_on_no_entry,
        lead_only=content.rules.crafting.lead_only_colours,
        item_names={i: item.name for i, item in content.items.items()},
        material_names={m: material.name for m, material in content.materials.items()})
    if outcome.extra.get("consumed"):
        character, _ = inventory.take_tokens(character, sorted({left, right}))
    facts = item_facts(campaign)
    for item in outcome.items:
        # Exceeding Item Limits (D11): held now; the player then chooses what goes.
        character = inventory.hold_item(character, facts[ItemId(item)])
    game = game.with_characters(character)
    save_game(session, content, before, game)
    _remember(session, code, outcome.extra.get("result"), found, character.name)
    from companion.operations.effects import excess_notes

    text = " ".join([*outcome.log, *excess_notes(campaign, game, character.name)])
    session.info["journal_text"] = text
    return text, outcome


def _remember(session: Session, code: CraftingCode, result: object, found: object,
              who: str) -> None:
    record = _known(session).get(str(code))
    if result == "unknown":
        # Tried, and the pack's Codex has no entry: recorded as a provisional code (the
        # journal's word for a code noted but not confirmed), so it is not lost.
        if record is None:
            session.add(models.CodeRecord(code=str(code), status="provisional",
                                          data={"found_by": who, "no_entry": True}))
        elif record.status == "provisional" and not (record.data or {}).get("no_entry"):
            # an unverified code (imported) now tried: mark it, so it no longer reads
            # as untried (a new dict, so the JSON column sees the change)
            record.data = {**(record.data or {}), "no_entry": True, "found_by": who}
        return
    if result not in ("item", "dead_end"):
        return
    item = getattr(found, "item", None)
    name = item.name if item is not None else getattr(getattr(found, "entry", None),
                                                        "item_name", "")
    status = "recipe" if result == "item" else "null"
    if record is None:
        session.add(models.CodeRecord(code=str(code), status=status, name=name or "",
                                      data={"found_by": who}))
    elif record.status != status:
        record.status = status
        record.name = name or record.name


def colour_letter(colour: PipColour | str) -> str:
    """The letter(s) that always accompany a pip colour (colour-blind players): "R",
    "Gn" for green."""
    return crafting_rules.COLOUR_LETTERS[PipColour(colour)]
