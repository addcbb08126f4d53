"""What happened at the table, recorded in one line (issue 25 part 3, issue 27 item 10).

A card the app does not know, or a step an engine cannot lay out, need not stop the
table. The group resolves it with the real card and types what it did, in the effect
words (:mod:`companion.rules.effect_line`): "gain 2 meat Ash, lore +1".

- :func:`record_what_happened` is one undoable operation: the effects are applied and
  journalled (kind ``table.record``) with the card's id. With a procedure in progress
  it is that procedure's "We resolved this at the table":

  - the Night, at a Night card draw: the draw is answered with the card resolved at
    the table (``rules.night.table_card``); the recorded effects fall where the card's
    would have, and the Night goes on with its remaining steps and its end (and its
    end hooks: the behemoth's activation) exactly as after a known card;
  - the Night at any other step: refused: nothing there needs a card, so the step is
    answered in the app;
  - an activity or an encounter (foraging, fishing, delving, mining, a behemoth's):
    it ends here; the recorded line is its whole outcome (on the character doing it
    unless the line names another), and the app's tally so far is not applied (the
    journal says so).

- :func:`recorded_cards` lists what was recorded with a card's id and not undone, for
  "Save as a card"; :func:`card_from_record` gives the card form's start for one.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlmodel import Session, col, select

from companion.operations.changes import Changes, Refused
from companion.operations.core import Campaign
from companion.rules.effect_line import (
    SOCIETY_EFFECTS,
    LineEffect,
    describe_line,
    parse_effect_line,
)
from companion.rules.errors import IllegalAction
from companion.rules.game import Game
from companion.store import models

RECORD_KIND = "table.record"
"""The journal kind of a line recorded at the table."""


@dataclass(frozen=True)
class RecordedCard:
    """A card resolved at the table and recorded as effects (not undone)."""

    event_id: int
    """The journal event that recorded it."""
    kind: str
    """The card's kind (``forage_cards``, ``night_cards`` ...), or "" if not said."""
    card: str
    """The card's id as printed ("" when the table did not say)."""
    line: str
    """What was typed."""
    effects: tuple[LineEffect, ...]
    when: str


# --- reading a line ---------------------------------------------------------------------------


def _names(campaign: Campaign) -> tuple[list[str], dict[str, str], dict[str, str]]:
    content = campaign.content
    resources: dict[str, str] = {}
    for table in (content.materials, content.foods):
        for key, thing in table.items():
            resources[str(key)] = str(key)
            resources.setdefault(str(getattr(thing, "name", "") or key), str(key))
    items = {str(k): str(k) for k in content.items}
    items.update({str(getattr(i, "name", "") or k): str(k) for k, i in content.items.items()})
    characters = [c.name for c in campaign.characters()]
    return characters, resources, items


def read_line(campaign: Campaign, line: str, *, new_materials: bool = False
              ) -> tuple[LineEffect, ...]:
    """``line`` read with the campaign's characters, resources and items; Refused in
    game words, naming the part that does not read. A material the pack lacks is
    refused (:class:`MissingFromPack`) unless ``new_materials`` (a preview, which says
    so: :func:`materials_to_enter`)."""
    from companion.rules.effects import effects_from_data

    characters, resources, items = _names(campaign)
    try:
        found = parse_effect_line(line, characters=characters, resources=resources,
                                  items=items)
    except IllegalAction as exc:
        raise Refused(str(exc)) from exc
    if not new_materials:
        _refuse_new_materials(campaign, found)
    for each in found:
        try:
            effects_from_data([dict(each.effect)])
        except ValueError as exc:  # pydantic: an unknown resource or item
            what = each.effect.get("resource") or each.effect.get("item") or each.effect
            raise Refused(f"'{what}' is not a resource or item of this campaign "
                          f"(e.g. {', '.join(sorted(resources)[:4])}).") from exc
    return found


def materials_to_enter(campaign: Campaign, found: Sequence[LineEffect]) -> tuple[str, ...]:
    """The resources ``found`` gains or loses that the pack does not know ("gain 1
    reed" in a box whose pack has no reed yet): material tokens to enter first."""
    content = campaign.content
    return tuple(dict.fromkeys(
        str(e.effect["resource"]) for e in found
        if e.effect.get("do") in ("gain", "lose") and e.effect.get("resource")
        and str(e.effect["resource"]) not in content.materials
        and str(e.effect["resource"]) not in content.foods))


def preview_line(campaign: Campaign, line: str) -> str:
    """What ``line`` will do, in game words, for a "Will apply" preview; Refused in game
    words when it does not read. A material the pack lacks is not refused here: applying
    the line offers its token first (issue 36 item 2), and the preview says so."""
    from companion.rules.effect_line import describe_line

    effects = read_line(campaign, line, new_materials=True)
    return describe_line(effects) + "".join(
        f" ({m}: a material token your pack does not know yet; you enter it first)"
        for m in materials_to_enter(campaign, effects))


def _refuse_new_materials(campaign: Campaign, found: Sequence[LineEffect]) -> None:
    """A line naming a material the pack does not know is refused naming it, so its
    token is entered on the spot and the line applied after (issue 36 item 2)."""
    from companion.operations.changes import MissingFromPack, missing_materials_hint

    new = materials_to_enter(campaign, found)
    if new:
        raise MissingFromPack(missing_materials_hint(new), materials=new)


def completion_words(campaign: Campaign) -> list[str]:
    """What the record line offers as it is typed (effect words with examples, the
    campaign's resources, items and characters)."""
    from companion.rules.effect_line import completions

    characters, resources, items = _names(campaign)
    return completions(characters=characters,
                       resources=sorted({*campaign.content.materials,
                                         *campaign.content.foods}),
                       items=sorted(str(k) for k in campaign.content.items))


# --- applying it ------------------------------------------------------------------------------


def apply_line(campaign: Campaign, game: Game, effects: Sequence[LineEffect],
               default: str | None) -> tuple[Game, list[str]]:
    """``effects`` on ``game``: the society's on the society, the rest on the character
    named (else ``default``). Refused when an effect needs a character and none is
    named (and there is no default)."""
    from companion.operations.effects import (
        SOCIETY_STEPS,
        apply_outcome,
        apply_society_effects,
        society_step,
        tokens,
    )
    from companion.rules.effects import Tally, effects_from_data

    notes: list[str] = []
    for each in effects:
        parsed = effects_from_data([dict(each.effect)])
        if parsed[0].do == "read":
            notes.append(f"Read Codex outcome {parsed[0].outcome}.")
            continue
        if parsed[0].do in SOCIETY_STEPS:  # the society's, whoever is named
            stepped = society_step(game, parsed[0])
            if stepped is None or stepped[0] == game:
                said = stepped[1] if stepped else f"for the table: {describe_line([each])}"
                notes.append(f"{said[0].upper()}{said[1:]}.")
            game = stepped[0] if stepped else game
            continue
        if parsed[0].do in ("lore", "activity", "unrest") and each.who is None:
            game, _said = apply_society_effects(campaign, game, parsed)
            continue
        who = each.who or default
        if who is None:
            names = ", ".join(c.name for c in game.characters) or "no one"
            raise Refused(f"Say who: '{dict(each.effect).get('do')}' falls on a character "
                          f"({names}), e.g. 'gain 2 meat Ash'.")
        tally = Tally().apply(parsed, tokens(campaign))
        game, more = apply_outcome(campaign, game, game.character(who).name, tally.outcome())
        notes += more
    return game, notes


def default_line(game: Game, character: str | None) -> str | None:
    if character:
        return game.character(character).name
    return game.characters[0].name if len(game.characters) == 1 else None


def record_what_happened(campaign: Campaign, *, line: str, card: str = "", kind: str = "",
                         character: str | None = None) -> Changes:
    """Apply ``line`` (what a card, or a step, did at the table) and journal it with the
    card's id ``card`` (of ``kind``), in one undoable operation. With a procedure in
    progress, it is resolved at the table (see the module's docstring); a Discovery due
    is drawn and resolved by this (its character the default); ``character``
    is whom unnamed effects fall on (default: the procedure's actor, or the only
    character)."""
    from companion.operations.procedure_row import procedure_row

    effects = read_line(campaign, line)
    record: dict[str, Any] = {"card": card.strip(), "kind": kind, "line": line.strip(),
                              "effects": [e.as_data() for e in effects]}
    what = f"the {_word(kind)} {card.strip()}" if card.strip() else "what happened"
    with campaign.write(RECORD_KIND, f"Recorded {what} at the table", record=record) \
            as session:
        row = procedure_row(session)
        if row is not None:
            return _in_procedure(campaign, session, effects, record, character)
        from companion.operations.state import load_game, save_game

        due = _discovery_due(session) if kind in ("", "discovery_cards") else None
        if due is not None:  # the Discovery due is drawn and resolved at the table
            record["kind"] = "discovery_cards"
            character = character or str(due.state.get("character") or "") or None
            session.delete(due)
        before = load_game(session, campaign.content)
        after, notes = apply_line(campaign, before, effects, default_line(before, character))
        save_game(session, campaign.content, before, after)
        text = f"Recorded {what} at the table: {describe_line(effects)}" + \
            "".join(f" {n}" for n in notes)
        if due is not None:
            text += f" (the Discovery {character} was due to draw)"
        session.info["journal_text"] = text
    return Changes(summary=text, characters=True, society=True, journal=True, valley=True)


def _discovery_due(session: Session) -> models.ProcedureState | None:
    """The Discovery waiting to be drawn (Rulebook: Valley Decks > Discovery), if any."""
    from companion.operations.procedure_row import DISCOVERY_DUE

    return session.exec(select(models.ProcedureState).where(
        models.ProcedureState.kind == DISCOVERY_DUE)).first()


def _word(kind: str) -> str:
    from companion.content.user_pack import kind_word

    return kind_word(kind) if kind else "card"


def _in_procedure(campaign: Campaign, session: Session, effects: Sequence[LineEffect],
                  record: dict[str, Any], character: str | None) -> Changes:
    """Resolve the procedure in progress at the table (inside the open write)."""
    from companion.operations import procedures
    from companion.operations.typed_cards import card_kind

    row, procedure = procedures.load(campaign, session)
    saved = dict(row.state)
    kind = str(saved.get("kind", ""))
    record["procedure"] = kind
    if procedure.is_finished():
        raise Refused("The procedure has nothing left to ask: continue it to end it.")
    step = procedure.step()
    record["kind"] = record["kind"] or card_kind(kind, step) or ""
    card = record["card"] or "a card"
    if kind == "night":
        if character:  # unnamed effects on a character fall on the one chosen
            effects = [e if e.who or e.effect.get("do") in SOCIETY_EFFECTS else
                       LineEffect(character, e.effect) for e in effects]
        return _night_card(campaign, session, row, procedure, step, effects, card)
    actor = character or saved.get("actor")
    from companion.operations.state import load_game, save_game

    session.delete(row)
    session.flush()
    before = load_game(session, campaign.content)
    default = default_line(before, actor) if actor or before.characters else None
    after, notes = apply_line(campaign, before, effects, default)
    save_game(session, campaign.content, before, after)
    title = kind.replace("_", " ").capitalize()
    drawn = f" (the {_word(record['kind'])} {record['card']})" if record["card"] else ""
    text = (f"{title} resolved at the table{drawn}: {describe_line(effects)}. "
            "What the app had tallied so far was not applied.") + \
        "".join(f" {n}" for n in notes)
    if kind in ("behemoth_encounter", "activation"):
        text += " The behemoth stays as it was: set it on the behemoth panel if it changed."
    session.info["journal_text"] = text
    done = procedures.FinishedProcedure(kind=kind, actor=saved.get("actor"),
                                        procedure=procedure,
                                        log=(*saved.get("log", []),
                                             f"Resolved at the table{drawn}: "
                                             f"{describe_line(effects)}"),
                                        summary=text)
    return Changes(summary=text, procedure=True, characters=True, society=True, journal=True,
                   valley=True, detail=done)


def _night_card(campaign: Campaign, session: Session, row: models.ProcedureState,
                procedure: Any, step: Any, effects: Sequence[LineEffect], card: str
                ) -> Changes:
    """The Night's draw answered with the card resolved at the table; the Night goes on
    (Rulebook: Night Phase: Draw Night Cards, then Increase Activity and the rest)."""
    from companion.operations import procedures
    from companion.rules.night import table_card
    from companion.rules.procedure import Decider

    if step.decider is not Decider.CARD:
        raise Refused(f"'{step.prompt}' needs no card: answer it here. \"We resolved this "
                      "at the table\" answers a Night card draw.")
    choice = table_card(card, [e.as_data() for e in effects])
    line = f"{step.prompt.rstrip('.')}: {card}, resolved at the table ({describe_line(effects)})"
    text, finished = procedures.take_step(campaign, session, row, procedure.apply(choice),
                                           line)
    session.info["journal_text"] = text
    return Changes(summary=text, procedure=True, characters=True, society=True,
                   journal=True, valley=True, detail=finished)


# --- what was recorded, and saving it as a card -----------------------------------------------


def recorded_cards(campaign: Campaign) -> list[RecordedCard]:
    """Every line recorded at the table with a card's id and not undone, newest first
    (where "Save as a card" finds them: My Cards ▸ Recorded at the table, ``content
    recorded``)."""
    with campaign.file.read() as session:
        rows = session.exec(select(models.JournalEvent).where(
            models.JournalEvent.kind == RECORD_KIND,
            col(models.JournalEvent.undone).is_(False)).order_by(
                col(models.JournalEvent.id).desc())).all()
        found = []
        for event in rows:
            record = (event.payload or {}).get("record") or {}
            if not record.get("card"):
                continue
            found.append(RecordedCard(
                int(event.id or 0), str(record.get("kind") or ""), str(record["card"]),
                str(record.get("line") or ""),
                tuple(LineEffect.of_data(e) for e in record.get("effects") or []),
                event.time.strftime("%Y-%m-%d %H:%M")))
    return found


def find_record(campaign: Campaign, event_id: int) -> RecordedCard:
    """The recorded card of journal event ``event_id``; Refused if there is none."""
    for record in recorded_cards(campaign):
        if record.event_id == int(event_id):
            return record
    raise Refused(f"Journal entry {event_id} recorded no card at the table (or was undone): "
                  "see 'content recorded'.")


def card_from_record(record: RecordedCard, kind: str | None = None) -> tuple[str, dict[str, Any]]:
    """(kind, the card form's start) for ``record``: its id, its effects where the
    kind's cards have effects, and the line as its text where they have text."""
    from companion.content.schema.pack import KIND_MODELS

    kind = kind or record.kind or "discovery_cards"
    if kind not in KIND_MODELS:
        raise Refused(f"No kind of card '{kind}'.")
    fields = KIND_MODELS[kind].model_fields
    data: dict[str, Any] = {"id": record.card}
    if "effects" in fields:
        data["effects"] = [dict(e.effect) for e in record.effects]
    if "text" in fields:
        data["text"] = f"Recorded at the table: {record.line}"
    return kind, data


def save_record_as_card(campaign: Campaign, *, event_id: int,
                        data: Mapping[str, Any] | None = None, kind: str | None = None
                        ) -> Changes:
    """"Save as a card": the card recorded by journal event ``event_id`` written into the
    owner's pack (``data`` over what the record gives: the form's fields), through
    :func:`companion.operations.cards.enter_card` (one undoable operation)."""
    from companion.operations.cards import enter_card

    record = find_record(campaign, event_id)
    kind, start = card_from_record(record, kind)
    return enter_card(campaign, kind=kind, data={**start, **dict(data or {})})


def recorded_summary(records: Sequence[RecordedCard]) -> list[dict[str, Any]]:
    """JSON-safe rows for the CLI."""
    return [{"event": r.event_id, "kind": r.kind, "card": r.card, "line": r.line,
             "effects": [e.as_data() for e in r.effects], "when": r.when} for r in records]
