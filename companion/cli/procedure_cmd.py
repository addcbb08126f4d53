"""Walking a procedure in the terminal: ``companion night PATH``, ``companion fish``,
``companion mine``, ``companion forage``, ``companion delve``, ``companion step``.

Interactive by default: each step is printed with its options and read from standard
input (an empty answer on a dice or card step lets the app roll or draw). For scripts:
``--choice`` answers steps in order (``app`` lets the app answer a chance step),
``--app`` lets the app answer every chance step, and ``--json`` prints where the
procedure stands instead of prompting. Every answer is saved at once, so a walk can stop
anywhere and continue later.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import Any

from companion.cli.campaign_command import emit, on_campaign, open_campaign, with_path
from companion.cli.terminal import refuse, say


def _view_data(view: Any) -> dict[str, Any]:
    if view is None:
        return {"procedure": None}
    step = view.step
    return {"procedure": {
        "kind": view.kind, "actor": view.actor, "description": view.description,
        "log": list(view.log),
        "step": None if step is None else {
            "prompt": step.prompt, "decider": step.decider.value, "count": step.count,
            "options": list(step.options),
            "labels": {k: v for k, v in step.labels.items()},
        },
    }}


def _parse(step: Any, answer: str) -> Any:
    """A typed answer as a choice: dice as numbers, an option by key or by its number."""
    from companion.rules.procedure import Decider

    answer = answer.strip()
    if step.decider is not Decider.PLAYER and answer in ("", "app"):
        return None
    if step.decider is Decider.DICE:
        try:
            return tuple(int(d) for d in answer.replace(",", " ").split())
        except ValueError:
            return answer
    if step.decider is Decider.CHIP and answer.isdigit() and 1 <= int(answer) <= len(
            step.options):
        # A chip's key is hidden (its place in the bag): a number is always the number
        # the prompt lists, so "1" is the first chip listed, never the chip keyed "1".
        return step.options[int(answer) - 1]
    if answer.isdigit() and answer not in step.options and 1 <= int(answer) <= len(
            step.options):
        return step.options[int(answer) - 1]
    return answer


def step_prompt(step: Any, *, whole: bool = True) -> str:
    """What a step asks, and how to answer it in the terminal; ``whole``: the app holds
    the deck drawn here whole and may draw from it (issue 36 item 4)."""
    from companion.rules.procedure import Decider

    lines = [step.prompt]
    if step.decider is Decider.DICE:
        lines.append(f"  type {step.count} dice (e.g. 6 4 3 1), or press Enter to roll in the app")
    elif step.decider is Decider.PLAYER or len(step.options) > 1:
        # A card step with one option is a deck's known top card: not named before the
        # draw (issue 20, spoilers).
        for number, option in enumerate(step.options, 1):
            lines.append(f"  {number}. {step.labels.get(option, option)}")
    if step.decider is Decider.CHIP:
        lines.append("  type the chip you pulled (its material, e.g. 'clay', or its number "
                     "in this list), or press Enter to pull in the app")
    elif step.decider not in (Decider.DICE, Decider.PLAYER) and not whole:
        lines.append("  type the card you drew from the box (its id or name)")
    elif step.decider not in (Decider.DICE, Decider.PLAYER):
        lines.append("  type the card you drew (its id or name), or press Enter to draw in "
                     "the app")
    return "\n".join(lines)


def walk(campaign: Any, args: argparse.Namespace, read: Callable[[], str] | None = None) -> int:
    """Answer steps until the procedure ends or the answers run out."""
    from companion import operations
    from companion.operations import procedures
    from companion.rules.procedure import Decider

    _enter_cards(campaign, args)  # --enter-card: cards drawn that the campaign lacks
    if getattr(args, "record", None):  # --record: resolved at the table, in one line
        from companion.operations import recorded

        try:
            done = recorded.record_what_happened(campaign, line=args.record,
                                                 card=args.card or "",
                                                 character=args.character)
        except operations.Refused as exc:
            return refuse(exc, **_view_data(procedures.in_progress(campaign))
                          if args.json else {})
        if not args.json:
            say(done.summary)
    queued = list(args.choice or [])
    while (view := procedures.in_progress(campaign)) is not None:
        step = view.step
        if step is None:  # nothing left to ask: the procedure ends now
            try:
                ended = operations.procedures.advance(campaign)
            except operations.Refused as exc:
                return refuse(exc)
            if not args.json:
                say(ended.summary)
            continue
        if queued:
            choice = _parse(step, queued.pop(0))
        elif args.app and step.decider is not Decider.PLAYER:
            choice = None
        elif args.json or not sys.stdin.isatty() and read is None:
            break
        else:
            say(step_prompt(step, whole=_whole(campaign, view.kind, step)))
            try:
                choice = _parse(step, (read or input)())
            except EOFError:
                break
        try:
            changes = operations.procedures.advance(campaign, choice=choice)
        except operations.Refused as exc:
            hint = _hint(exc)
            if queued or args.json or read is None and not sys.stdin.isatty():
                return refuse(f"{exc} {hint}".strip(), **_view_data(view) if args.json
                              else {})
            say(f"refused: {exc} {hint}".rstrip(), err=True)
            if _offer_unknown_card(campaign, view.kind, step, choice, read or input):
                queued.insert(0, str(choice))  # play on with the card just entered
            continue
        if not args.json:
            say(changes.summary)
    left = procedures.in_progress(campaign)
    emit(args, _view_data(left),
          "The procedure is finished." if left is None or left.step is None else
          step_prompt(left.step, whole=_whole(campaign, left.kind, left.step))
          + "\n(saved: continue with 'companion step')")
    return 0


def _whole(campaign: Any, procedure_kind: str, step: Any) -> bool:
    """Whether the app holds whole the deck ``step`` draws from (else: the box's)."""
    from companion.operations.box import deck_is_whole
    from companion.operations.cards import card_kind

    kind = card_kind(procedure_kind, step)
    return kind is None or kind == "materials" or deck_is_whole(campaign.content, kind)


def _hint(exc: Exception) -> str:
    """The terminal's ways on after an unknown card's refusal (its flags)."""
    from companion.operations.cards import UnknownCard

    return UnknownCard.cli_hint if isinstance(exc, UnknownCard) else ""


def _offer_unknown_card(campaign: Any, procedure_kind: str, step: Any, choice: Any,
                        read: Callable[[], str]) -> bool:
    """A card typed at a card step that the campaign does not know: offer to enter it."""
    from companion.cli.cards_cmd import offer_card
    from companion.operations import Refused, cards, recorded

    kind = cards.card_kind(procedure_kind, step)
    if kind is None or not isinstance(choice, str) or cards.is_known(campaign, kind, choice):
        return False
    say(f"Just record what {choice} did at the table instead of entering it? Type its "
        "effects in one line (e.g. 'gain 2 meat Ash, lore +1'), or press Enter to enter it:")
    line = read().strip()
    if not line:
        return offer_card(campaign, kind, choice, read)
    try:
        say(recorded.record_what_happened(campaign, line=line, card=choice, kind=kind).summary)
    except Refused as exc:
        refuse(exc)
    return False


def _enter_cards(campaign: Any, args: argparse.Namespace) -> None:
    """``--enter-card FILE``: enter the card(s) in FILE as the kind the current step
    draws, before answering it."""
    import yaml

    from companion.cli.cards_cmd import enter_from_yaml, read_yaml
    from companion.operations import Refused, cards, procedures

    for source in getattr(args, "enter_card", None) or []:
        view = procedures.in_progress(campaign)
        kind = cards.card_kind(view.kind, view.step) if view is not None else None
        if kind is None:
            raise Refused("--enter-card: the step in progress draws no card")
        try:
            data = read_yaml(source)
        except (OSError, UnicodeDecodeError, ValueError, yaml.YAMLError) as exc:
            raise Refused(f"--enter-card: {exc}") from exc
        for item in data if isinstance(data, list) else [data]:
            changes = enter_from_yaml(campaign, kind, item, None)
            if not args.json:
                say(changes.summary)


def with_walk(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    with_path(parser)
    parser.add_argument("--choice", action="append", metavar="ANSWER",
                        help="answer the next step (repeatable; 'app' = the app draws)")
    parser.add_argument("--app", action="store_true",
                        help="let the app answer every dice, card and chip step")
    parser.add_argument("--enter-card", action="append", metavar="FILE",
                        help="a card drawn that the campaign does not know, as YAML: "
                             "entered into your own pack before the step is answered")
    parser.add_argument("--record", metavar="EFFECTS",
                        help="we resolved this at the table: what it did, in one line "
                             "('gain 2 meat Ash, lore +1'); a Night card draw is answered "
                             "with it, an activity ends with it as its outcome")
    parser.add_argument("--card", metavar="ID",
                        help="with --record: the card drawn at the table, as printed")
    parser.add_argument("--character", metavar="NAME",
                        help="with --record: whom unnamed effects fall on (default: the "
                             "one doing the activity)")
    return parser


def start_then_walk(args: argparse.Namespace, start: Callable[[Any], Any] | None) -> int:
    from companion import operations

    try:
        with open_campaign(args) as campaign:
            if start is not None:
                changes = start(campaign)
                if not args.json:
                    say(changes.summary)
            return walk(campaign, args)
    except operations.Refused as exc:
        return refuse(exc)


def cmd_night(args: argparse.Namespace) -> int:
    from companion import operations
    from companion.operations import procedures

    def start(campaign: Any) -> Any:
        view = procedures.in_progress(campaign)
        if view is not None and view.kind == "night":
            return operations.Changes(summary="The Night goes on.")
        return procedures.start_night(campaign)

    return start_then_walk(args, start)


def start_activity(campaign: Any, name: str, action: str, feature: str) -> Any:
    """Start foraging, fishing, mining or delving (``action``: forage, fish, mine, delve)."""
    from companion.operations import activities, procedures

    starts = {"forage": activities.start_foraging, "fish": procedures.start_fishing,
              "mine": procedures.start_mining, "delve": activities.start_delving}
    return starts[action](campaign, name=name, feature=feature)


def _activity_command(action: str) -> Callable[[argparse.Namespace], int]:
    """``companion fish|mine|forage|delve PATH NAME FEATURE``: start it, then walk it."""
    def run(args: argparse.Namespace) -> int:
        return start_then_walk(args, lambda c: start_activity(c, args.name, action,
                                                              args.feature))

    return run


def cmd_step(args: argparse.Namespace) -> int:
    return start_then_walk(args, None)


def cmd_record(args: argparse.Namespace) -> int:
    """``companion record PATH EFFECTS``: a card resolved at the table outside a
    procedure (a Discovery card), or the procedure in progress resolved at the table."""
    from companion.operations import recorded

    def call(campaign: Any) -> tuple[Any, str]:
        changes = recorded.record_what_happened(
            campaign, line=args.effects, card=args.card or "", kind=args.kind or "",
            character=args.character)
        newest = recorded.recorded_cards(campaign)[:1] if args.card else []
        kind = newest[0].kind if newest else args.kind or ""  # a Discovery due: its kind
        return changes, kind

    return on_campaign(args, call, lambda done: (
        {"summary": done[0].summary, "card": args.card or "", "kind": done[1]},
        done[0].summary))


def register(sub: Any) -> None:
    """Add the procedure commands to the ``companion`` parser."""
    with_walk(sub.add_parser("night", help="walk the Night phase (starts it if needed)")) \
        .set_defaults(func=cmd_night)
    for name, words in (("fish", "fish at a lake, river or wetlands"),
                        ("mine", "mine at a cave, chasm, dried flats, moraine or mountain"),
                        ("forage", "forage at a forest or plains"),
                        ("delve", "delve at a cave or chasm")):
        parser = with_walk(sub.add_parser(name, help=words))
        parser.add_argument("name", help="the character")
        parser.add_argument("feature", help="the feature of the hex")
        parser.set_defaults(func=_activity_command(name))
    with_walk(sub.add_parser("step", help="answer the procedure in progress")) \
        .set_defaults(func=cmd_step)
    record = with_path(sub.add_parser(
        "record", help="just record what happened at the table (a card the app does not "
                       "know): its effects in one line, applied and journalled"))
    record.add_argument("effects", help="'gain 2 meat Ash, minor injury Ash, lore +1'")
    record.add_argument("--card", metavar="ID", help="the card's id as printed")
    record.add_argument("--kind", metavar="KIND",
                        help="its kind: discovery_cards, forage_cards, night_cards ...")
    record.add_argument("--character", metavar="NAME",
                        help="whom unnamed effects fall on")
    record.set_defaults(func=cmd_record)
