"""Codex lookups, spoiler-safe (Rulebook: Using the Codex; Omen > Investigating Omens).

The Codex is secret: nothing here lists entries. Each lookup reveals only the one entry
asked for, and is an operation: the reveal is written in the journal (one event), and an
omen investigation is recorded in the Journal (an ``omen_investigation`` row: Using the
Journal, "record the omen and component IDs for any omens you investigate"). A lookup
that finds nothing says so, and is journalled too: the table knows it was asked.

Three ways in, as a game component words them:

- an outcome, "read entry 104": :func:`read_outcome`;
- an omen entry, "Cloud FO13": :func:`investigate_omen` (it must match a current omen;
  with a character named, at most one per character turn);
- a crafting entry, colour + code, "R1410": :func:`look_up_crafting`.

:func:`parse_request` reads any of those phrasings; :func:`look_up` dispatches.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from sqlmodel import select

from companion.content.model import CraftingResultKind
from companion.content.schema.base import Omen
from companion.operations.changes import Changes, Refused
from companion.operations.core import Campaign
from companion.rules.crafting import CraftingCode
from companion.rules.errors import IllegalAction
from companion.store import models

OMEN_WORDS = {o.value: o for o in Omen} | {"star": Omen.STARS}


@dataclass(frozen=True)
class CodexRequest:
    """What the player asked the Codex for."""

    kind: str
    """'outcome', 'omen' or 'crafting'."""
    key: str
    """The outcome number ("104"), the component ID ("FO13") or the code ("R1410")."""
    omen: Omen | None = None

    @property
    def label(self) -> str:
        if self.kind == "outcome":
            return f"entry {self.key}"
        if self.kind == "omen" and self.omen is not None:
            return f"{self.omen.value.capitalize()} {self.key}"
        return CraftingCode.parse(self.key).label


@dataclass(frozen=True)
class CodexReveal:
    """The one entry a lookup revealed (or that there was none)."""

    kind: str
    """'outcome', 'omen' or 'crafting'."""
    label: str
    """How the Codex names the entry: "Entry 104", "Cloud FO13", "Red 1410"."""
    found: bool
    title: str
    """A heading: the entry's label, or the item crafted."""
    text: str
    """The entry's text, or the sentence saying nothing was found."""


def parse_request(text: str) -> CodexRequest:
    """Read "104", "entry 104", "read entry 104", "Cloud FO13", "R1410", "Red 1410".

    >>> parse_request("read entry 7")
    CodexRequest(kind='outcome', key='007', omen=None)
    >>> parse_request("cloud fo13").label
    'Cloud FO13'
    >>> parse_request("b2132").key
    'B2132'
    """
    words = " ".join(text.strip().split())
    outcome = re.fullmatch(r"(?i)(?:read\s+)?(?:entry\s+)?#?(\d{1,3})", words)
    if outcome:
        return CodexRequest("outcome", f"{int(outcome[1]):03d}")
    omen = re.fullmatch(r"(?i)([a-z]+)\s+([A-Za-z0-9][A-Za-z0-9-]*)", words)
    if omen and omen[1].lower() in OMEN_WORDS:
        return CodexRequest("omen", omen[2].upper(), OMEN_WORDS[omen[1].lower()])
    try:
        return CodexRequest("crafting", str(CraftingCode.parse(words)))
    except (IllegalAction, ValueError):
        pass
    raise Refused(f"'{text.strip()}' is not a Codex entry: write an outcome (104), an omen "
                  "and a component ID (Cloud FO13) or a crafting code (R1410).")


def look_up(campaign: Campaign, *, request: str | CodexRequest,
            character: str | None = None) -> Changes:
    """Look up whatever ``request`` names; ``Changes.detail`` is the :class:`CodexReveal`."""
    asked = parse_request(request) if isinstance(request, str) else request
    if asked.kind == "outcome":
        return read_outcome(campaign, number=asked.key)
    if asked.kind == "omen":
        assert asked.omen is not None
        return investigate_omen(campaign, omen=asked.omen.value, component=asked.key,
                                character=character)
    return look_up_crafting(campaign, code=asked.key)


def read_outcome(campaign: Campaign, *, number: str | int) -> Changes:
    """"Read entry 104": reveal that outcome only (Using the Codex > Outcomes)."""
    asked = parse_request(str(number))
    if asked.kind != "outcome":
        raise Refused(f"An outcome is a three-digit number, like 104; not {number!r}.")
    entry = campaign.content.codex.outcome(asked.key)
    label = f"Entry {asked.key}"
    if entry is None:
        reveal = CodexReveal("outcome", label, False, label,
                             f"No entry {asked.key} in the Codex.")
        text = f"Codex: looked for entry {asked.key}; there is none"
    else:
        reveal = CodexReveal("outcome", label, True, label, entry.text)
        text = f"Codex: read entry {asked.key}"
    with campaign.write("codex.outcome", text, entry=asked.key, found=reveal.found):
        pass
    return Changes(summary=text, detail=reveal)


def _omen(word: str) -> Omen:
    omen = OMEN_WORDS.get(word.strip().lower())
    if omen is None:
        raise Refused(f"'{word}' is not an omen: cloud, comet, moon, stars or sun.")
    return omen


def investigate_omen(campaign: Campaign, *, omen: str, component: str,
                     character: str | None = None) -> Changes:
    """Investigate ``omen`` spotted on ``component`` (Rulebook: Omen > Investigating
    Omens): refused unless it matches a current omen (step 2); with ``character``, also
    refused if that character already investigated this turn. The omen and component
    IDs are recorded in the Journal; the entry, if there is one, is revealed (step 5)."""
    spotted = _omen(omen)
    component_id = component.strip()
    if not component_id:
        raise Refused("An investigation needs the component's ID (on the card or tile).")
    label = f"{spotted.value.capitalize()} {component_id.upper()}"
    with campaign.write("codex.omen", f"Investigated {label}") as session:
        current = campaign.current_omens(session)
        if spotted.value not in current:
            shown = ", ".join(o.capitalize() for o in current) or "none"
            raise Refused(f"{spotted.value.capitalize()} is not a current omen (current: "
                          f"{shown}): your investigation ends. Return later at a more "
                          "opportune time.")
        if character:
            from companion.operations.state import load_game, save_game
            from companion.rules import omens as omen_rules

            before = load_game(session, campaign.content)
            after, _ = omen_rules.investigate(before, character, spotted, component_id,
                                              frozenset(Omen(o) for o in current))
            save_game(session, campaign.content, before, after)
        codex = campaign.content.codex
        entry = codex.omen_entry(spotted, component_id) or \
            codex.omen_entry(spotted, component_id.upper())
        if entry is not None:
            component_id = str(entry.component)
            label = f"{spotted.value.capitalize()} {component_id}"
        campaign_row = session.get(models.Campaign, 1)
        session.add(models.OmenInvestigation(
            omen_id=spotted.value, component_id=component_id,
            epoch=campaign_row.epoch if campaign_row else 1,
            note=(f"{character}; " if character else "")
            + ("entry read" if entry is not None else "no entry")))
        who = f"{character} investigated" if character else "Investigated"
        if entry is None:
            text = f"{who} {label}: no entry — the investigation ends"
            reveal = CodexReveal("omen", label, False, label,
                                 f"No entry {label} — your investigation ends.")
        else:
            text = f"{who} {label}: read the omen entry"
            reveal = CodexReveal("omen", label, True, label, entry.text)
        session.info["journal_text"] = text
    return Changes(summary=text, characters=bool(character), detail=reveal)


def look_up_crafting(campaign: Campaign, *, code: str, colour: str | None = None) -> Changes:
    """Look up a crafting code ("R1410", or ``colour`` + "1410") in the Codex's crafting
    entries (Using the Codex > Crafting Entries); a code found is recorded with the
    society's crafting codes."""
    try:
        parsed = CraftingCode.parse(f"{colour} {code}" if colour else code)
    except (IllegalAction, ValueError) as exc:
        raise Refused(str(exc)) from exc
    result = campaign.content.crafting.lookup(parsed.colour, parsed.digits)
    label = parsed.label
    if result.kind is CraftingResultKind.UNKNOWN:
        said = f"No crafting entry {label} in the Codex."
        if campaign.kind == "box" and not result.no_entry_known:
            # My own box: the app holds only what the table has read (issue 36 item 1).
            said = (f"{label} is not in the app's copy of your Codex yet: read it in the "
                    "book. Craft asks what it says, and remembers it.")
        reveal = CodexReveal("crafting", label, False, label, said)
        status, name = None, ""
    elif result.kind is CraftingResultKind.DEAD_END:
        text = result.entry.text if result.entry and result.entry.text else "A dead end."
        if result.entry is not None and result.entry.dead_end_materials is not None:
            text += f" (The materials are {result.entry.dead_end_materials}.)"
        reveal = CodexReveal("crafting", label, True, f"{label}: nothing", text)
        status, name = "null", "dead end"
    else:
        item = result.item
        name = item.name if item is not None else (result.entry.item_name
                                                    if result.entry else label)
        body = [item.text] if item is not None and item.text else []
        if result.entry is not None and result.entry.text:
            body.append(result.entry.text)
        if item is None and result.entry is not None and result.entry.item_cards:
            body.append(f"Item card: {', '.join(result.entry.item_cards)}.")
        if result.entry is not None and not result.entry.verified:
            body.append("(An imported entry nobody has confirmed at the table yet.)")
        reveal = CodexReveal("crafting", label, True, f"{label}: {name}",
                             "\n\n".join(body) or name)
        status = "recipe"
    text = (f"Codex: looked up {label}: " + (name if reveal.found else "no entry"))
    with campaign.write("codex.crafting", text, code=str(parsed), found=reveal.found) \
            as session:
        if status is not None:
            known = session.exec(select(models.CodeRecord).where(
                models.CodeRecord.code == str(parsed))).first()
            if known is None:
                session.add(models.CodeRecord(code=str(parsed), status=status, name=name))
    return Changes(summary=text, detail=reveal)
