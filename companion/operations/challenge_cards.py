"""Challenge cards from the box the app does not know yet, typed from the card in hand
(Rulebook: Set Up > Select Challenge, Set Up Challenge, Set Up Vital and Epoch Goals;
Continuing Play; issue 25 part 5).

A group that owns the real box draws challenge cards the campaign's content does not
have (a "my own box" campaign has none at all, or the typed id is not in the content).
The group types what the card prints: its id, name, priority and starting omen, its
vital and epoch goals (by name and text), the activity-track events (threshold, type,
text and effects in the effect words of :mod:`companion.rules.effect_words`) and the
outcome entry it names for End Challenge. :func:`start_typed_challenge` writes the card
and its goals into the owner's own pack (``<pack>-mine``, :mod:`companion.content.user_pack`),
carries them in the campaign file (:mod:`companion.operations.carried`) and starts the
challenge, in one undoable operation. The card is known from then on.

The typed forms are shared by the GUI's form and the CLI (``challenge start
--enter-card FILE`` or its flags): :func:`parse_event`, :func:`typed_goal`,
:func:`challenge_from_typed`, :func:`challenge_from_file`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from companion.content import Content
from companion.content.errors import ContentError
from companion.content.schema.base import Omen
from companion.content.schema.cards import Challenge, EventType
from companion.operations.changes import Changes, Refused
from companion.operations.core import Campaign
from companion.rules.errors import IllegalAction

EVENT_TYPES: tuple[str, ...] = tuple(t.value for t in EventType)
"""The activity-event types a challenge card prints (Rulebook: Tracks > Activity Events)."""

_EVENT = re.compile(r"^\s*(\d+)(?:\s*(?:\.\.|-|–|to)\s*(\d+))?\s+([A-Za-z]+)\b\s*(.*)$",
                    re.DOTALL)


def _fold(text: str) -> str:
    return " ".join(text.split()).casefold()


def parse_event(text: str) -> dict[str, Any]:
    """An activity event as typed: ``THRESHOLD TYPE [TEXT] [: EFFECT, EFFECT]``; an
    ongoing event gives its range, ``16..20 ongoing``.

    >>> event = parse_event("6 event Melt floods the lowlands: place lore")
    >>> event["threshold"], event["text"], event["effects"]
    (6, 'Melt floods the lowlands.', [{'do': 'place', 'token': 'lore'}])
    >>> parse_event("16..20 ongoing: energy -1")["until"]
    20
    """
    match = _EVENT.match(text)
    if not match:
        raise Refused(f"Could not read the event '{text.strip()}': write its threshold, "
                      f"type and text, e.g. '6 immediate Winter comes: unrest 2' "
                      f"(types: {', '.join(EVENT_TYPES)}; an ongoing one '16..20 ongoing').")
    kind = match[3].casefold()
    if kind not in EVENT_TYPES:
        raise Refused(f"'{match[3]}' is not an event type: {', '.join(EVENT_TYPES)} "
                      f"(in '{text.strip()}').")
    words, _, effects = match[4].partition(":")
    return event_entry(int(match[1]), kind, words,
                       [e for e in re.split(r"[,;]", effects) if e.strip()],
                       until=int(match[2]) if match[2] else None)


def event_entry(threshold: int, kind: str, text: str, effects: Sequence[str],
                until: int | None = None) -> dict[str, Any]:
    """One event as the pack writes it: the effects in the effect words ('gain wood 2',
    'unrest 1' ...); a blank text is the type's name, as the card shows a box."""
    from companion.rules import effect_words

    said = " ".join(text.split()).strip(" :")
    if said and said[-1] not in ".!?":
        said += "."
    entry: dict[str, Any] = {"threshold": threshold, "type": kind,
                             "text": said or f"{kind.capitalize()} event."}
    if until is not None:
        entry["until"] = until
    try:
        parsed = [effect_words.parse_effect(e.strip()) for e in effects if e.strip()]
    except IllegalAction as exc:
        raise Refused(f"The event at {threshold}: {exc}") from exc
    if parsed:
        entry["effects"] = parsed
    return entry


def _goal_id(content: Content, name: str, taken: set[str]) -> str:
    slug = re.sub(r"[^a-z0-9]+", "-", name.casefold()).strip("-") or "goal"
    base = f"G-{slug}"[:60]
    found, number = base, 2
    while found in taken or found in content.set_aside_goals:
        found, number = f"{base}-{number}", number + 1
    return found


def typed_goal(content: Content, typed: str | Mapping[str, Any], taken: set[str]
               ) -> tuple[str, dict[str, Any] | None]:
    """A goal as the card prints it: a goal the content knows (by id or name, any case)
    -> (its id, None); ``"Name: text"`` (or a mapping with name and text) -> (a new
    id, the goal to write). ``taken``: ids in use, updated."""
    if isinstance(typed, Mapping):
        name, text = str(typed.get("name") or "").strip(), str(typed.get("text") or "")
        wanted = str(typed.get("id") or "").strip()
    else:
        name, _, text = str(typed).partition(":")
        name, wanted = name.strip(), ""
    if not name and not wanted:
        raise Refused("A goal needs its name, as the goal card prints it (e.g. 'First "
                      "Hearth: Build an outpost with a drying rack.').")
    # A set-aside goal is sealed (never listed): the card names it by id.
    if wanted in content.set_aside_goals and not text.strip():
        return wanted, None
    for goal in content.goals.values():
        # The goal the app knows: named alone, or with the same text (a card typed again).
        if _fold(wanted or name) in (_fold(goal.id), _fold(goal.name)) and (
                not text.strip() or _fold(text) == _fold(goal.text)):
            return goal.id, None
    goal_id = wanted or _goal_id(content, name, taken)
    taken.add(goal_id)
    text = " ".join(text.split()) or name
    return goal_id, {"id": goal_id, "name": name or goal_id, "text": text}


def challenge_from_typed(content: Content, *, id: str, name: str, priority: int,
                         starting_omen: str, vital_goals: Sequence[Any],
                         epoch_goals: Sequence[Any] = (),
                         events: Sequence[str | Mapping[str, Any]] = (),
                         outcome: str | int | None = None, text: str = ""
                         ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The challenge card and the new goals it names, as the pack writes them, from what
    the card prints (goals as :func:`typed_goal` reads them; events as
    :func:`parse_event` reads them, or as mappings of the pack's form)."""
    omen = starting_omen.strip().casefold()
    if omen not in {o.value for o in Omen}:
        raise Refused(f"'{starting_omen}' is not an omen: the starting omen is one of "
                      f"{', '.join(o.value for o in Omen)}.")
    taken = set(content.goals)
    new_goals: list[dict[str, Any]] = []

    def goal_ids(typed: Sequence[Any]) -> list[str]:
        ids = []
        for one in typed:
            goal_id, goal = typed_goal(content, one, taken)
            if goal is not None:
                new_goals.append(goal)
            ids.append(goal_id)
        return ids

    vital, epoch = goal_ids(vital_goals), goal_ids(epoch_goals)
    if not vital:
        raise Refused("A challenge card names at least one vital goal: type it (name: text).")
    read = [parse_event(e) if isinstance(e, str) else dict(e) for e in events]
    if not read:
        raise Refused("A challenge card prints its activity-track events: type at least "
                      "one (e.g. '21 immediate Winter comes').")
    card: dict[str, Any] = {
        "id": id.strip(), "name": " ".join(name.split()), "priority": priority,
        "starting_omen": omen, "vital_goals": vital, "epoch_goals": epoch,
        "events": read, "text": " ".join(text.split()) or " ".join(name.split()) or "—"}
    number = str(outcome).strip() if outcome is not None else ""
    if number:
        if not number.isdigit() or len(number) > 3:
            raise Refused(f"The card's outcome entry is a number of up to three digits, "
                          f"like 112; not '{number}'.")
        card["outcome"] = f"{int(number):03d}"
    return card, new_goals


def challenge_from_file(content: Content, data: Any) -> tuple[dict[str, Any],
                                                                list[dict[str, Any]]]:
    """A challenge card from a YAML file (``challenge start --enter-card FILE``): the
    fields of :func:`challenge_from_typed` (``omen`` for ``starting_omen``; goals as
    ``"Name: text"``, ids or mappings; events as typed or as the pack writes them)."""
    if not isinstance(data, Mapping):
        raise Refused("The card file holds one challenge card: id, name, priority, "
                      "starting_omen, vital_goals, events (and epoch_goals, outcome, text).")
    missing = [k for k in ("id", "name", "priority", "vital_goals", "events")
               if k not in data]
    if not (data.get("starting_omen") or data.get("omen")):
        missing.append("starting_omen")
    if missing:
        raise Refused(f"The challenge card lacks {', '.join(missing)}.")
    try:
        priority = int(data["priority"])
    except (TypeError, ValueError):
        raise Refused(f"The priority is a number; got {data['priority']!r}.") from None
    listed = {k: data.get(k) or [] for k in ("vital_goals", "epoch_goals", "events")}
    if any(isinstance(v, (str, Mapping)) for v in listed.values()):
        listed = {k: [v] if isinstance(v, (str, Mapping)) else v for k, v in listed.items()}
    return challenge_from_typed(
        content, id=str(data["id"]), name=str(data["name"]), priority=priority,
        starting_omen=str(data.get("starting_omen") or data.get("omen")),
        vital_goals=listed["vital_goals"], epoch_goals=listed["epoch_goals"],
        events=listed["events"], outcome=data.get("outcome"), text=str(data.get("text") or ""))


def start_typed_challenge(campaign: Campaign, *, card: Mapping[str, Any],
                          goals: Sequence[Mapping[str, Any]] = (),
                          placements: Mapping[str, str] | None = None,
                          mantles: Mapping[str, str] | None = None,
                          mantle_powers: Mapping[str, str] | None = None) -> Changes:
    """A challenge card the app does not know, typed from the card in hand: write it and
    its new ``goals`` into the owner's own pack and start it (as
    :func:`~companion.operations.setup.start_challenge` does), in one undoable operation.

    Refused, changing nothing, when the card does not fit the pack's schema (each field
    named), when its id is already a known challenge (start that one), while a challenge
    is played, or when the priority rule does not allow it now.
    """
    from companion.content import user_pack as packs
    from companion.operations import carried
    from companion.operations.campaign_packs import CampaignContent, rebuild_content, record_packs
    from companion.operations.cards import content_error
    from companion.operations.setup import check_typed_choice, refuse_start, set_up_challenge

    try:
        for goal in goals:
            packs.validate_card("goals", dict(goal))
    except ContentError as exc:
        raise content_error(exc, "goal", "goals") from exc
    try:
        checked = packs.validate_card("challenges", dict(card))
    except ContentError as exc:
        raise content_error(exc, "challenge card", "challenges") from exc
    assert isinstance(checked, Challenge)
    challenge = checked
    known = campaign.content.challenges.get(challenge.id)
    if known is not None and known != challenge:
        raise Refused(f"The app knows the challenge {challenge.id} already ({known.name}): "
                      "start it by its id.")
    with campaign.file.read() as session:
        refuse_start(campaign, session)
        check_typed_choice(campaign, session, challenge)
    if known is not None:
        # The same card typed again (its start was refused after it was saved, e.g. a
        # mantle chosen twice): it is in the own pack already; start it.
        from companion.operations.setup import start_challenge

        return start_challenge(campaign, challenge=challenge.id, placements=placements,
                               mantles=mantles, mantle_powers=mantle_powers)
    try:
        own = packs.own_pack_for(campaign.content.packs, create=False)
        written = packs.add_card_sets(own, {"goals": [dict(g) for g in goals],
                                            "challenges": [dict(card)]},
                                      extra_dirs=campaign.extra_content)
    except ContentError as exc:
        raise content_error(exc, "challenge card", "challenges") from exc
    except OSError as exc:
        raise Refused(f"The challenge card could not be written: {exc}") from exc
    pack = packs.find_user_pack(own.manifest.id)
    version = str(pack.manifest.version) if pack else ""
    copies = []
    for kind, models in written.items():
        for model in models:
            entry = packs.clean_entry(kind, model.model_dump(mode="json"))
            copies.append(carried.OwnCardCopy(own.manifest.id, kind, str(entry["id"]), entry,
                                              packs.card_digest(entry), version))
    before = CampaignContent.of(campaign)
    allowed = campaign.starting_hexes()
    shown = f"{challenge.name} ({challenge.id})"
    try:
        with campaign.write("challenge.start", f"The challenge '{challenge.name}' begins"
                            ) as session:
            for copy in copies:
                carried.put(session, copy)
            rebuild_content(campaign, session)
            record_packs(session, campaign.content)
            notes = set_up_challenge(campaign, session, campaign.content.challenges[
                challenge.id], allowed, placements=placements, mantles=mantles,
                mantle_powers=mantle_powers)
            new = len(goals)
            said = (f"Entered the challenge card {shown}"
                    + (f" and {new} goal card{'s' if new != 1 else ''}" if new else "")
                    + f" into {own.manifest.name}. The challenge '{challenge.name}' begins.")
            session.info["journal_text"] = " ".join([said, *notes])
    except Refused:
        # The card stays in the own pack (as a card entered for a refused step does): the
        # content takes it in, so the same card typed again starts (see above).
        before.apply(campaign)
        try:
            with campaign.file.read() as session:
                rebuild_content(campaign, session)
        except (Refused, ContentError):
            before.apply(campaign)
        raise
    return Changes(summary=" ".join([said, *notes]), society=True, challenge=True,
                   journal=True, characters=True, procedure=True, detail=challenge.id)


def card_outcome(campaign: Campaign, challenge: str | None) -> str | None:
    """The outcome entry the challenge card names for End Challenge (None when the app
    does not know the card, or the card names none: then it is typed from the card)."""
    card = campaign.content.challenges.get(challenge or "")
    return card.outcome if card is not None else None


def read_challenge_outcome(campaign: Campaign, *, number: str) -> Changes:
    """After End Challenge, the outcome entry the card named goes to the Codex: read it
    (one operation, journalled). The GUI and the CLI call this one function."""
    from companion.operations.codex import read_outcome

    return read_outcome(campaign, number=number)
