"""Codex outcomes the app can act on, spoiler-safe (issue 25 part 4, issue 27 item 6;
Rulebook: Using the Codex > Outcomes).

"Read outcome 220" (a step, a card's ``{do: read, outcome: 220}``, the End Challenge
dialog, the Codex dialog) comes here:

- :func:`outcome_entry` shows outcome N only (never a list): its text, its effects in
  words, whether the app can apply them, and whether it was recorded at the table;
- :func:`resolve_outcome` is ONE undoable operation: it applies N's effects (e.g. "gain
  1 lore"); when the content lacks N, the group types what it did (an effect line,
  :mod:`companion.rules.effect_line`), which is applied and remembered under N in the
  owner's pack as a Codex outcome (carried in the campaign file like every own card),
  so that the next time N is read the app knows it. Remembered outcomes are Codex
  entries: sealed, never listed, shown only when their number is read.

An effect that needs a choice the app cannot make (a test, a boost of the player's
choice) is flagged (:attr:`OutcomeEntry.needs`): the table resolves it and types what it
did instead.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.operations.changes import Changes, Refused
from companion.operations.core import Campaign
from companion.rules.effect_line import LineEffect, describe_line

RECORDED = "Recorded at the table: "
"""How an outcome remembered from the table begins its text."""


@dataclass(frozen=True)
class OutcomeEntry:
    """Outcome N, as the app can show it."""

    number: str
    """Three digits: "220"."""
    known: bool
    """Whether the campaign's content has it (printed, or recorded at the table)."""
    text: str
    effects: tuple[str, ...]
    """Its effects in game words ("gain 1 lore")."""
    needs: str
    """Why its effects cannot be applied as they are ("" if they can)."""
    recorded: bool
    """Remembered from the table (the owner's pack), not printed in a pack."""
    needs_character: bool
    """Some effect falls on a character: say whom."""

    @property
    def applicable(self) -> bool:
        return self.known and bool(self.effects) and not self.needs


def number_of(number: str | int) -> str:
    """``220``, ``"220"``, ``"entry 220"`` -> ``"220"``; Refused otherwise."""
    from companion.operations.codex import parse_request

    asked = parse_request(str(number))
    if asked.kind != "outcome":
        raise Refused(f"An outcome is a three-digit number, like 104; not {number!r}.")
    return asked.key


def outcome_entry(campaign: Campaign, number: str | int) -> OutcomeEntry:
    """Outcome ``number`` as the app can show and apply it (reveals that one only)."""
    from companion.rules.effects import describe_effect

    key = number_of(number)
    entry = campaign.content.codex.outcome(key)
    if entry is None:
        return OutcomeEntry(key, False, "", (), "", False, False)
    needs = ""
    for effect in entry.effects:
        if effect.do == "test":
            needs = "it asks for a test: roll it at the table, then type what it did"
        elif effect.do == "boost" and getattr(effect, "ability", None) is None:
            needs = "it asks for a boost of the player's choice: type which (boost might)"
        elif effect.do in ("read", "unlock") and effect.do == "unlock" and \
                getattr(effect, "flag", "") != "delving":
            needs = f"it unlocks {effect.flag}: the table decides what that opens"
    personal = any(e.do not in ("lore", "activity", "unrest", "read", "unlock", "culture")
                   for e in entry.effects)
    return OutcomeEntry(key, True, entry.text.removeprefix(RECORDED) if
                        entry.text.startswith(RECORDED) else entry.text,
                        tuple(describe_effect(e) for e in entry.effects), needs,
                        entry.text.startswith(RECORDED), personal)


def resolve_outcome(campaign: Campaign, *, number: str | int, line: str = "",
                    character: str | None = None) -> Changes:
    """Act on Codex outcome ``number`` in one undoable operation.

    - The content has it and ``line`` is empty: its effects are applied (those on a
      character fall on ``character``, or on the only character); refused, saying why,
      when it has none or needs a choice (:attr:`OutcomeEntry.needs`).
    - ``line`` given (what the outcome did, typed at the table): it is applied; when
      the content lacks the outcome, it is remembered under ``number`` in the owner's
      pack (a Codex outcome, carried in the campaign file) for the next time.
    - The content lacks it and ``line`` is empty: refused, asking what it did.
    """
    from companion.operations.campaign_packs import CampaignContent
    from companion.operations.cards import carry_own_card
    from companion.operations.recorded import apply_line, default_line, read_line
    from companion.operations.state import load_game, save_game
    from companion.operations.typed_cards import pack_names

    shown = outcome_entry(campaign, number)
    key = shown.number
    entry = campaign.content.codex.outcome(key)
    if line.strip():
        effects = read_line(campaign, line)
    elif entry is None:
        raise Refused(f"Outcome {key} is not in this campaign's Codex "
                      f"({pack_names(campaign.content)}): read it in the book and type "
                      "what it did (e.g. 'lore +1, gain 2 meat Ash'); the app remembers it "
                      "for the next time.")
    elif not entry.effects:
        raise Refused(f"Outcome {key} has no effects the app can apply: do what it says "
                      "at the table, or type what it did.")
    elif shown.needs:
        raise Refused(f"Outcome {key} cannot be applied as it is: {shown.needs}.")
    else:
        effects = tuple(LineEffect(None, e.model_dump(mode="json", exclude_defaults=True))
                        for e in entry.effects)
    remember = entry is None
    copy = None
    if remember:
        from companion.operations.cards import write_own_card

        data = {"number": key, "text": f"{RECORDED}{line.strip()}",
                "effects": [dict(e.effect) for e in effects]}
        _own, _card, copy = write_own_card(campaign, "codex_outcomes", data)
    said = describe_line(effects)
    text = f"Codex outcome {key}: {said}" + \
        (" (recorded at the table; remembered in your own pack)" if remember else "")
    before_content = CampaignContent.of(campaign)
    try:
        with campaign.write("codex.apply", text, entry=key, remembered=remember) as session:
            before = load_game(session, campaign.content)
            after, notes = apply_line(campaign, before, effects,
                                      default_line(before, character))
            save_game(session, campaign.content, before, after)
            if copy is not None:
                carry_own_card(campaign, session, copy)
            text += "".join(f" {n}" for n in notes)
            session.info["journal_text"] = text
    except Refused:
        before_content.apply(campaign)
        if copy is not None:  # the pack keeps no outcome the campaign did not take
            _forget(campaign, copy)
        raise
    return Changes(summary=text, characters=True, society=True, journal=True, valley=True,
                   detail=outcome_entry(campaign, key))


def _forget(campaign: Campaign, copy: object) -> None:
    import contextlib

    from companion.content import ContentError
    from companion.content import user_pack as packs

    pack = packs.find_user_pack(getattr(copy, "pack_id", ""))
    if pack is None:
        return
    with contextlib.suppress(ContentError):  # the pack stays as it is
        packs.delete_card(pack.folder, "codex_outcomes", str(getattr(copy, "card_id", "")),
                          extra_dirs=campaign.extra_content)
