"""Move a campaign from the web app "Stonesaga Campaign Journal", and back.

Every field of the web app's file has a home here (``companion.store.webjournal`` reads
the file):

======================  ==============================================================
web journal             campaign
======================  ==============================================================
recipe codes            a ``code_record`` per code (status ``recipe``), named after the
                        item; ``data``: item card, material pairs, alternative pairs,
                        notes
null codes              ``code_record`` status ``null`` (a dead end), with its materials
provisional codes       ``code_record`` status ``provisional`` (unverified): card, name,
                        flavour and game text, source; beside a dead end or recipe of
                        the same code, in its ``data["unverified"]``
culture.tribeName       the society's name
structures, knowledge   the Culture page's lists (``note_page`` ``culture:<list>``):
cards, taboos,          "ST02 Fire Pit — notes"; mantle powers with their mantle:
pigments, mantlePowers  "Mantle of the Seeker: MA01 Far Sight — description"
culture.outposts        ``outpost`` (overlay tile, name, notes) and an
                        ``outpost_structure`` per structure built in it
behemoths               ``behemoth_state``: card, name, lair hex, lair overlay and zone,
                        demeanor (the dial; a demeanor in words opens the notes
                        "Demeanor: ..."), secrets as cards, notes
challengeRecord         the Challenge Log by epoch: card, name, status ("resolved" is
                        finished; version 3's outcome, "Fled" is not), goals completed,
                        notes; an epoch of "" is the campaign's current epoch
loomingChallenges       ``looming_challenge`` in the group's order: card, name,
                        prepare-by epoch (in words: "Prepare by: ..." opens the notes),
                        notes
investigations          omens investigated: omen, component (card) ID, notes
notePages               the journal's Note pages
codexEntries            ``codex_entry_read``: entry number, title, source, notes
caveWall                ``cave_wall_illustration`` with its pen ``strokes``
customMaterials         materials of the user's own pack (``<pack>-mine``, Content ▸ My
                        Cards), written by :func:`add_custom_materials`; what the pack
                        schema has no field for (image, notes, the processed form's
                        name, ``processing``) and materials that cannot be pack
                        materials yet wait in a side file (:func:`materials_file`).
                        Undo does not take pack cards back: the report and the journal
                        say so.
ids, updatedAt          ``web_journal_link`` (``webjournal_links``): the export
                        (``webjournal_export``) writes each entry back under its id
anything else           a note page "From the web journal: ..." with its original text
======================  ==============================================================

Importing is one journalled operation (kind ``import.web_journal``): undo takes all of
it back. Into an existing campaign, :func:`preview` first says per section what would
be added, what differs and what is already there, and for each difference what the
merge does: by default the Journal's own rule (``webjournal_merge``: the newer
``updatedAt`` wins, a deletion here or there being a copy with its time); the user may
keep ours or take the file's per section. The Journal's tombstones are kept and go back
with the export.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from sqlmodel import Session, SQLModel, col, select

from companion.operations.changes import Changes, Refused
from companion.operations.core import Campaign
from companion.operations.webjournal_codes import plan_codes
from companion.operations.webjournal_entries import (  # noqa: F401 (the import's API)
    CULTURE_KINDS,
    CULTURE_PREFIX,
    DEMEANOR_LINE,
    FINISHED_OUTCOMES,
    KEPT_PREFIX,
    PREPARE_LINE,
    code_text,
    content_name,
    culture_text,
    mantle_power_text,
    parse_culture_text,
    same_data,
    secret_text,
    split_line,
    split_notes,
    web_code,
    with_line,
)
from companion.operations.webjournal_links import WebOrigin, links_by_web_id, make_links
from companion.operations.webjournal_materials import (  # noqa: F401 (the import's API)
    WEB_MATERIALS_DIR,
    MaterialsOutcome,
    add_custom_materials,
    materials_file,
    materials_waiting,
    own_pack_id,
    pack_material,
    read_custom_materials,
    web_material_id,
)
from companion.operations.webjournal_merge import PREVIEW_SECTION, settle, tribe_newer
from companion.operations.webjournal_plan import CHOICES as CHOICES
from companion.operations.webjournal_plan import DEFAULT_CHOICE as DEFAULT_CHOICE
from companion.operations.webjournal_plan import HOMES as HOMES
from companion.operations.webjournal_plan import (
    MATERIALS_STAY,
    Planned,
    kept_item,
)
from companion.operations.webjournal_plan import SECTIONS as SECTIONS
from companion.operations.webjournal_plan import ImportPlan as ImportPlan
from companion.operations.webjournal_plan import ImportReport as ImportReport
from companion.operations.webjournal_plan import SectionSummary as SectionSummary
from companion.store import backups_dir, models
from companion.store import webjournal as fmt
from companion.store.campaign_file import build_new, link_new
from companion.store.durable import temp_beside
from companion.store.errors import CampaignFileError

# --- the journal's sections -----------------------------------------------------------


def _culture_key(kind: str, text: str) -> str:
    """What names one Culture line: a structure or knowledge card by its card ID (else
    its name), a taboo or pigment by its text."""
    entry = parse_culture_text(kind, text)
    return _fold(entry.get("cardId") or entry.get("name") or entry.get("text") or text)


def _plan_culture(doc: fmt.WebDocument, session: Session, items: list[Planned]) -> None:
    pages = session.exec(select(models.NotePage).where(
        col(models.NotePage.title).startswith(CULTURE_PREFIX))).all()
    web_kind = {v: k for k, v in CULTURE_KINDS.items()}
    have: dict[tuple[str, str], models.NotePage | None] = {}
    by_id = {p.id: p for p in pages}
    linked = links_by_web_id(session)
    positions: dict[str, int] = {}
    for page in pages:
        positions[page.title] = max(positions.get(page.title, 0), page.position)
        kind = web_kind.get(page.title[len(CULTURE_PREFIX):])
        if kind:
            have[(page.title, _culture_key(kind, page.text))] = page
    lines = [(e.kind, culture_text(e), e.raw, e.web_id) for e in doc.culture] + [
        ("mantlePowers", mantle_power_text(m), m.raw, m.web_id) for m in doc.mantle_powers]
    for kind, text, raw, web_id in lines:
        title = CULTURE_PREFIX + CULTURE_KINDS[kind]
        label = f"{fmt.section_words(kind)}: {text}"
        origin = WebOrigin(f"culture.{kind}", raw, web_id)
        link = linked.get((origin.section, web_id)) if web_id else None
        key = (title, _culture_key(kind, text))
        old = by_id.get(link.row_id) if link is not None and link.row_table == "note_page" \
            else have.get(key)
        if old is None:  # new (twice in the file: the Journal keeps both, so do we)
            have[key] = None
            positions[title] = positions.get(title, 0) + 1
            items.append(Planned("culture", label, "added", new_rows=[models.NotePage(
                title=title, text=text, position=positions[title])], origin=origin))
            continue
        if old.text == text:
            items.append(Planned("culture", label, "already there", origin=origin, row=old))
            continue

        def take(s: Session, row_id: int = old.id or 0, new_text: str = text) -> None:
            target = s.get(models.NotePage, row_id)
            if target is not None:
                target.text = new_text
        items.append(Planned("culture", label, "conflict",
                             f"ours: {old.text}; the file: {text}", replace=take,
                             origin=origin, row=old))


def _behemoth_row(b: fmt.WebBehemoth) -> models.BehemothState:
    return models.BehemothState(
        behemoth_id=b.card_id, name=b.name, lair_hex=b.lair_hex, demeanor=b.demeanor,
        secrets=[{"card_id": s.card_id, "name": s.name, "description": s.description}
                 for s in b.secrets], note=with_line(DEMEANOR_LINE, b.demeanor_text, b.notes),
        lair_overlay=b.lair_overlay, lair_zone=b.lair_zone)


def _lair_hex_of(session: Session) -> Any:
    """A behemoth row's lair hex as the Journal has it: its words, or its lair's tile."""
    tiles = {h.id: h.tile_id or "" for h in session.exec(select(models.ValleyHex)).all()}
    return lambda b: b.lair_hex or tiles.get(b.lair_hex_id, "")


_BEHEMOTH_FIELDS = ("behemoth_id", "name", "lair_hex", "demeanor", "secrets", "note",
                    "lair_overlay", "lair_zone")


def _plan_rows(section: str, rows: Iterable[tuple[str, SQLModel, WebOrigin | None]],
               table: type[SQLModel], key: Any, fields: Sequence[str], session: Session,
               items: list[Planned], shown: Any = None,
               read: Mapping[str, Any] | None = None) -> None:
    """Match each new row to an existing one: the row its Journal entry was linked to
    by an earlier import or export, else one with the same ``key(row)``; compare
    ``fields`` (the name as ``shown(row)`` shows it, when given: a row without a name
    of its own goes by its card's, as the export writes it)."""
    rows_here = session.exec(select(table)).all()
    existing = {key(r): r for r in rows_here}
    # Every row by its number, those sharing a key too (two note pages both called "Kim's
    # theories", made on two machines): an entry linked to the second was read as new.
    by_id = {getattr(r, "id", None): r for r in rows_here}
    linked = links_by_web_id(session)
    table_name = models.table_of(table).name
    for label, row, origin in rows:
        link = linked.get((origin.section, origin.web_id)) if origin and origin.web_id \
            else None
        old = by_id.get(link.row_id) if link is not None and link.row_table == table_name \
            else existing.get(key(row))
        if old is None:
            existing[key(row)] = row
            items.append(Planned(section, label, "added", new_rows=[row], origin=origin))
            continue
        def value(r: Any, name: str) -> Any:
            if read is not None and name in read:
                return read[name](r)
            return shown(r) if name == "name" and shown is not None else getattr(r, name)
        differing = [f for f in fields if not same_data(value(old, f), value(row, f))]
        if not differing:
            items.append(Planned(section, label, "already there", origin=origin,
                                 row=old if getattr(old, "id", None) else None))
            continue
        if any(old is i.new_rows[0] for i in items if i.new_rows):
            # Twice in the same file: the first one stands; the second is kept as a note.
            items.append(kept_item(f"{SECTIONS[section]}: {label} (second entry)",
                                    json.dumps(row.model_dump(exclude={"id"}),
                                               ensure_ascii=False, indent=2, default=str),
                                    origin))
            continue

        def take(s: Session, row_id: int = getattr(old, "id", 0) or 0,
                 new: SQLModel = row, names: Sequence[str] = differing) -> None:
            target = s.get(table, row_id)
            if target is not None:
                for name in names:
                    setattr(target, name, getattr(new, name))
        detail = "; ".join(f"{_field_words(f)}: ours {_show(getattr(old, f))}, the file "
                           f"{_show(getattr(row, f))}" for f in differing)
        items.append(Planned(section, label, "conflict", detail, replace=take,
                             origin=origin, row=old))


def _field_words(name: str) -> str:
    return {"note": "notes", "behemoth_id": "card", "challenge_id": "card",
            "outcome_entry": "outcome", "component_id": "card", "omen_id": "omen",
            "prepare_by": "prepare by epoch", "position": "order", "text": "text"}.get(
        name, name.replace("_", " "))


def _show(value: Any) -> str:
    if value in (None, "", [], {}):
        return "—"
    if isinstance(value, list):
        return ", ".join(v.get("name", "") if isinstance(v, dict) else str(v) for v in value)
    return str(value)


def _fold(text: str) -> str:
    return " ".join(text.split()).casefold()


STATUSES = ("current", "resolved", "looming")
"""Version 5's challenge statuses ("resolved": played to its end)."""


def _challenge_row(c: fmt.WebChallenge, content_challenges: Mapping[str, Any],
                   epoch_now: int) -> models.ChallengeLogEntry:
    """A challenge of the record. Version 5 says "current" or "resolved"; version 3 an
    outcome ("Won", "Fled": fled is not played to its end). A current challenge the
    Journal has no epoch for yet (``""``) is one of the epoch the campaign is in."""
    status = c.status.casefold()
    outcome = c.raw.get("outcome") if isinstance(c.raw.get("outcome"), str) else ""
    if status and status not in STATUSES:  # an outcome written in "status"
        outcome, status = outcome or c.status, ""
    outcome = outcome or None
    if outcome is not None and outcome.casefold() == "current":
        outcome = None
    finished = status == "resolved" or (
        outcome is not None and outcome.casefold() in FINISHED_OUTCOMES)
    return models.ChallengeLogEntry(
        epoch=c.epoch if c.epoch is not None else epoch_now,
        challenge_id=_challenge_id(c.card_id, c.name, content_challenges),
        name=c.name, outcome_entry=outcome, finished=finished, notes=c.notes,
        goals_completed=c.goals_completed)


def _challenge_id(card_id: str, name: str, content_challenges: Mapping[str, Any]) -> str:
    """The pack's challenge for a web card ID or name (so ``challenge start`` knows it);
    the card ID as written when the pack does not know it."""
    if card_id in content_challenges:
        return card_id
    for cid, card in content_challenges.items():
        if (card_id and cid.casefold() == card_id.casefold()) or (
                not card_id and name and _fold(getattr(card, "name", "")) == _fold(name)):
            return str(cid)
    return card_id


def _plan_outposts(doc: fmt.WebDocument, session: Session, items: list[Planned]) -> None:
    """Version 5's outposts: an outpost here (its overlay tile, name and notes) with a
    structure for each structure entry built in it (by the structure's card ID, else
    its name)."""
    structures = {c.web_id: c for c in doc.culture if c.kind == "structures" and c.web_id}
    rows: list[tuple[str, SQLModel, WebOrigin | None]] = []
    built: dict[int, list[str]] = {}
    for o in doc.outposts:
        outpost: SQLModel = models.Outpost(name=o.name, overlay_id=o.card_id or None, notes=o.notes,
                                 epoch_built=_epoch(session))
        built[id(outpost)] = [structures[sid].card_id or structures[sid].text
                              for sid in o.structures if sid in structures]
        rows.append((o.name or o.card_id, outpost,
                     WebOrigin("culture.outposts", o.raw, o.web_id)))
    start = len(items)
    _plan_rows("outposts", rows, models.Outpost, lambda r: _fold(r.overlay_id or r.name),
               ("name", "notes"), session, items)
    for item in items[start:]:
        if item.section != "outposts" or item.state != "added" or not item.new_rows:
            continue
        added = item.new_rows[0]

        def place(s: Session, row: SQLModel = added,
                  names: Sequence[str] = built.get(id(added), ())) -> SQLModel:
            s.add(row)
            s.flush()
            for name in names:
                s.add(models.OutpostStructure(outpost_id=getattr(row, "id", 0),
                                              structure_id=name))
            return row
        item.new_rows, item.place = [], place


def preview(campaign: Campaign, src: Path, document: fmt.WebDocument | None = None
            ) -> ImportPlan:
    """What importing ``src`` into ``campaign`` would add, what conflicts and what is
    already there. Raises :class:`Refused` (naming the field) for a bad file."""
    doc = document if document is not None else read(src)
    items: list[Planned] = []
    challenges = campaign.content.challenges
    with campaign.file.read() as session:
        plan_codes(doc, {r.code: r for r in session.exec(select(models.CodeRecord)).all()},
                    items)
        row = session.get(models.Campaign, 1)
        ours = row.society_name if row else ""
        tribe_conflict = ""
        if doc.tribe_name:
            if not ours:
                items.append(Planned("culture", f"Tribe name: {doc.tribe_name}", "added"))
            elif ours == doc.tribe_name:
                items.append(Planned("culture", f"Tribe name: {doc.tribe_name}",
                                     "already there"))
            else:
                tribe_conflict = f"ours: {ours}, the file: {doc.tribe_name}"
                items.append(Planned("culture", f"Tribe name: {doc.tribe_name}", "conflict",
                                     tribe_conflict, replace=_set_tribe(doc.tribe_name)))
        _plan_culture(doc, session, items)
        _plan_rows("behemoths", ((b.name or b.card_id, _behemoth_row(b),
                                  WebOrigin("behemoths", b.raw, b.web_id))
                                 for b in doc.behemoths),
                   models.BehemothState,
                   lambda r: _fold(r.behemoth_id or r.name), _BEHEMOTH_FIELDS, session, items,
                   lambda r: r.name or content_name(campaign.content.behemoths, r.behemoth_id),
                   # A behemoth set up in the valley has its lair on the map, not in
                   # words: its hex is what the export writes (webjournal_links).
                   read={"lair_hex": _lair_hex_of(session)})
        def challenge_name(r: Any) -> str:
            return str(r.name or content_name(challenges, r.challenge_id))
        now = _epoch(session)
        _plan_rows("challenges", ((f"Epoch {c.epoch or now}: {c.name or c.card_id}",
                                   _challenge_row(c, challenges, now),
                                   WebOrigin("challengeRecord", c.raw, c.web_id))
                                  for c in doc.challenges),
                   models.ChallengeLogEntry,
                   lambda r: (r.epoch, _fold(r.challenge_id or r.name)),
                   ("name", "outcome_entry", "finished", "notes", "goals_completed"),
                   session, items, challenge_name)
        base = max((r.position for r in session.exec(select(models.LoomingChallenge)).all()),
                   default=-1) + 1
        _plan_rows("looming", ((e.name or e.card_id, models.LoomingChallenge(
            challenge_id=_challenge_id(e.card_id, e.name, challenges), name=e.name,
            prepare_by=e.prepare_by, note=with_line(PREPARE_LINE, e.prepare_by_text, e.notes),
            position=base + i, epoch=_epoch(session)),
            WebOrigin("loomingChallenges", e.raw, e.web_id)) for i, e in enumerate(doc.looming)),
            models.LoomingChallenge, lambda r: _fold(r.challenge_id or r.name),
            ("name", "prepare_by", "note"), session, items, challenge_name)
        _plan_rows("investigations", ((f"{i.omen} {i.card_id}".strip(),
                                       models.OmenInvestigation(
                                           omen_id=i.omen, component_id=i.card_id,
                                           note=i.notes, epoch=_epoch(session)),
                                       WebOrigin("investigations", i.raw, i.web_id))
                                      for i in doc.investigations),
                   models.OmenInvestigation, lambda r: (_fold(r.omen_id), _fold(r.component_id)),
                   ("note",), session, items)
        _plan_rows("notes", ((n.title or "Untitled", models.NotePage(
            title=n.title, text=n.body), WebOrigin("notePages", n.raw, n.web_id))
            for n in doc.notes), models.NotePage, lambda r: r.title, ("text",), session, items)
        _plan_rows("codex", ((f"Entry {x.entry}" + (f" — {x.title}" if x.title else ""),
                              models.CodexEntryRead(
                                  entry=x.entry, title=x.title,
                                  source_category=x.source_category, source_id=x.source_id,
                                  notes=x.notes, epoch=now),
                              WebOrigin("codexEntries", x.raw, x.web_id)) for x in doc.codex),
                   models.CodexEntryRead, lambda r: (r.entry, _fold(r.source_id)),
                   ("title", "source_category", "notes"), session, items)
        _plan_rows("drawings", ((d.name or "Untitled", models.CaveWallIllustration(
            title=d.name, strokes=list(d.strokes), epoch=now),
            WebOrigin("caveWall", d.raw, d.web_id)) for d in doc.drawings),
            models.CaveWallIllustration, lambda r: (r.title, len(r.strokes)), ("strokes",),
            session, items)
        _plan_outposts(doc, session, items)
        kept_titles = {(p.title, p.text) for p in session.exec(select(models.NotePage).where(
            col(models.NotePage.title).startswith(KEPT_PREFIX))).all()}
    for left in doc.leftovers:
        item = kept_item(left.label, left.text, WebOrigin(
            f"top:{left.section}", {"id": f"top:{left.section}", "value": left.value}))
        page = item.new_rows[0]
        assert isinstance(page, models.NotePage)
        if (page.title, page.text) in kept_titles:
            item.state, item.new_rows = "already there", []
        items.append(item)
    for item in items:  # kept notes planned above (codes without a home) too
        if item.section == "kept" and item.state == "added":
            page = item.new_rows[0]
            if isinstance(page, models.NotePage) and (page.title, page.text) in kept_titles:
                item.state, item.new_rows = "already there", []
    with campaign.file.read() as session:
        # The Journal's own rule: the newer side of each entry wins.
        carried, side = settle(campaign, session, doc, items)
    culture_relink = True
    for item in items:
        if item.label.startswith("Tribe name: ") and item.state == "conflict":
            item.newer = tribe_newer(doc, side)
            culture_relink = item.newer == "theirs" or side.tribe_updated_at is None
            item.relink = False
    have = {m["name"].casefold() for m in read_custom_materials(own_pack_id(campaign))}
    have |= {m.name.casefold() for m in campaign.content.materials.values()}
    ids = set(campaign.content.materials)
    for material in doc.materials:
        state = "already there" if material.name.casefold() in have \
            or web_material_id(material.name) in ids else "added"
        items.append(Planned("materials", material.name, state, material=material))
    return ImportPlan(src, doc, items, doc.tribe_name, tribe_conflict, carried=carried,
                      culture_relink=culture_relink)


def _set_tribe(name: str) -> Any:
    def take(session: Session) -> None:
        row = session.get(models.Campaign, 1)
        if row is not None:
            row.society_name = name
    return take


def _epoch(session: Session) -> int:
    row = session.get(models.Campaign, 1)
    return row.epoch if row is not None else 1


def read(src: Path) -> fmt.WebDocument:
    """Read and check a web-journal file; :class:`Refused` names the field at fault."""
    try:
        return fmt.read_document(Path(src))
    except CampaignFileError as exc:
        raise Refused(str(exc)) from None


# --- applying ---------------------------------------------------------------------------


def apply(campaign: Campaign, plan: ImportPlan, choices: Mapping[str, str] | None = None
          ) -> Changes:
    """Import ``plan`` into ``campaign`` as one undoable operation.

    ``choices`` maps a section key to a key of :data:`CHOICES` (default "newer": where
    the file and the campaign differ, the newer copy of the entry wins, as in the
    Journal's own merge; a deletion, here or there, is a copy with its time).
    Custom materials are written into the user's own pack in the same operation (the
    campaign records the pack versions it now uses); undo does not take them back out
    of the pack, and the journal says so.
    """
    choices = dict(choices or {})
    bad = {k: v for k, v in choices.items() if k not in SECTIONS or v not in CHOICES}
    if bad:
        raise Refused("Unknown import choice " + ", ".join(f"{k}={v}" for k, v in bad.items())
                      + f": sections are {', '.join(SECTIONS)}; choices "
                      f"{', '.join(CHOICES)}.")
    with campaign.write("import.web_journal",
                        f"Imported the web journal {plan.source.name}",
                        source="web-journal", shape=plan.document.shape) as session:
        placed: list[tuple[WebOrigin, Any]] = []
        for item in plan.items:
            choice = choices.get(item.section, DEFAULT_CHOICE)
            if choice == "skip" or item.section == "materials":
                continue
            home, relink = _apply_item(session, plan, item, choice)
            if item.origin is not None and relink:
                placed.append((item.origin, home))
        # The Journal's tombstones the campaign keeps go back with the export.
        placed += [(origin, None) for origin in plan.carried
                   if choices.get(_section_of(origin.section)) != "skip"]
        if (plan.document.tribe_name or plan.named_after_file) \
                and choices.get("culture") != "skip" and (
                    plan.culture_relink or choices.get("culture") == "theirs"):
            # The tribe's name as the Journal had it ("" for a file without one, the
            # campaign then being named after the file: the export gives "" back).
            placed.append((WebOrigin("culture", {
                "id": "culture", "tribeName": plan.document.tribe_name,
                "updatedAt": plan.document.culture_updated_at,
                "namedAfterFile": plan.named_after_file}), None))
        session.flush()
        # Each entry keeps its Journal id and updatedAt: the export goes back under them.
        make_links(campaign, session, placed)
        wanted = [i.material for i in plan.items if i.section == "materials"
                  and i.state == "added" and i.material is not None]
        outcome = MaterialsOutcome()
        text = f"Imported the web journal {plan.source.name}"
        if wanted and choices.get("materials", DEFAULT_CHOICE) != "skip":
            outcome = add_custom_materials(campaign, session, wanted)
            if outcome.added:
                text += (f"; custom materials added to {outcome.pack}: "
                         f"{', '.join(outcome.added)}. {MATERIALS_STAY}")
                session.info["journal_text"] = text
    report = report_of(campaign, plan, choices, outcome)
    return Changes(summary=text, everything=True, detail=report)


def _apply_item(session: Session, plan: ImportPlan, item: Planned, choice: str
                ) -> tuple[Any, bool]:
    """Import one planned item with its section's ``choice``: (the row that is now its
    home, or None; whether its link takes the file's copy of the entry)."""
    if item.state == "added":
        if item.label.startswith("Tribe name: "):
            _set_tribe(plan.tribe_name)(session)
        for row in item.new_rows:
            session.add(row)
        home = item.place(session) if item.place else (
            item.new_rows[0] if item.new_rows else None)
        return home, True
    taken = item.takes_theirs(choice)
    result = item.replace(session) if taken else None
    if isinstance(result, SQLModel):
        return result, True
    if item.deletes and taken:
        return None, True  # the entry is the Journal's tombstone now
    row = item.row
    home = session.get(type(row), row.id) if row is not None \
        and getattr(row, "id", None) is not None else None
    return home, taken or item.relink


def _section_of(path: str) -> str:
    """The preview's section of a Journal section ("culture.taboos" -> "culture")."""
    if path.startswith("culture.") and path != "culture.outposts":
        return "culture"
    return PREVIEW_SECTION.get(path, "kept")


def report_of(campaign: Campaign, plan: ImportPlan, choices: Mapping[str, str],
              outcome: MaterialsOutcome | None = None) -> ImportReport:
    """Describe what the import did (``outcome``: what became of the custom materials)."""
    outcome = outcome or MaterialsOutcome()
    return ImportReport(
        source=str(plan.source), shape=plan.document.shape,
        sections=tuple(plan.summary(choices)),
        kept_as_notes=tuple(i.label for i in plan.items if i.section == "kept"
                            and i.state == "added" and choices.get("kept") != "skip"),
        not_imported=tuple(plan.not_imported()), materials_file=outcome.file,
        campaign=campaign.title, materials_waiting=outcome.waiting,
        materials_added=outcome.added, materials_already=outcome.already,
        materials_pack=outcome.pack, outcomes=tuple(plan.outcomes(choices)))


def import_into(campaign: Campaign, src: Path, choices: Mapping[str, str] | None = None
                ) -> ImportReport:
    """Import ``src`` into the open ``campaign`` (one undoable operation)."""
    changes = apply(campaign, preview(campaign, src), choices)
    assert isinstance(changes.detail, ImportReport)
    return changes.detail


def import_new(src: Path, dest: Path, *, extra_content: Sequence[Path] = ()
               ) -> tuple[Campaign, ImportReport]:
    """Create campaign ``dest`` from the web-journal file ``src`` and open it.

    The file is read and checked before anything is created: a refused file leaves no
    campaign file and no backups folder behind.
    """
    src, dest = Path(src), Path(dest).absolute()
    if dest.exists():
        raise Refused(f"{dest} already exists; choose a new file name.")
    document = read(src)
    if not dest.parent.is_dir():
        raise Refused(f"There is no folder {dest.parent} to save the campaign in.")
    # All or nothing: the whole campaign is built under a temporary name beside ``dest``
    # and linked into place at the end (a kill leaves only a temporary file, which the
    # next open in the folder removes; never an empty campaign at ``dest``).
    tmp = temp_beside(dest, "import")
    try:
        build_new(tmp)
    except CampaignFileError as exc:
        raise Refused(str(exc)) from None
    except (OSError, sqlite3.Error) as exc:
        raise Refused(f"Could not create {dest}: {exc}") from None
    try:
        campaign = Campaign.open(tmp, extra_content=extra_content, backups=False)
        try:
            with campaign.file.transaction("setup", "A campaign from the web journal") as session:
                row = session.get(models.Campaign, 1)
                if row is not None:
                    if not document.tribe_name:
                        row.society_name = src.stem
                    # The campaign goes on in the latest epoch the record reached.
                    row.epoch = max((c.epoch or 1 for c in document.challenges), default=1)
            report = _import_doc(campaign, src, document)
        finally:
            campaign.close()
        link_new(tmp, dest)
    except CampaignFileError as exc:
        raise Refused(str(exc)) from None
    finally:
        _remove_campaign(tmp)
    return Campaign.open(dest, extra_content=extra_content), report


def _import_doc(campaign: Campaign, src: Path, document: fmt.WebDocument) -> ImportReport:
    plan = preview(campaign, src, document)
    plan.named_after_file = "" if document.tribe_name else src.stem
    changes = apply(campaign, plan)
    assert isinstance(changes.detail, ImportReport)
    return changes.detail


def _remove_campaign(dest: Path) -> None:
    for leftover in (dest, dest.with_name(dest.name + "-wal"),
                     dest.with_name(dest.name + "-shm")):
        leftover.unlink(missing_ok=True)
    shutil.rmtree(backups_dir(dest), ignore_errors=True)


