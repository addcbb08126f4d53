"""Headless play commands: set up a game, create characters, take Day actions, turn the
society's dials. Each calls one operation; refusals print ``refused: <reason>`` on
stderr and exit 1, and change nothing.
"""

from __future__ import annotations

import argparse
import dataclasses
from typing import Any

from companion.cli.campaign_cmd import _emit, _open, _refused, _with_path


def _run(args: argparse.Namespace, call: Any) -> int:
    """Open the campaign, run ``call(campaign)`` -> Changes, print its summary."""
    from companion import operations

    try:
        with _open(args) as campaign:
            changes = call(campaign)
    except operations.Refused as exc:
        return _refused(exc)
    detail = changes.detail
    data: dict[str, Any] = {"summary": changes.summary}
    if isinstance(detail, tuple | list):
        data["detail"] = list(detail)
    _emit(args, data, changes.summary)
    return 0


def _assignment(text: str) -> dict[str, int]:
    pairs = [p.split("=", 1) for p in text.split(",") if p.strip()]
    try:
        return {k.strip(): int(v) for k, v in pairs}
    except ValueError as exc:
        raise argparse.ArgumentTypeError(
            "give abilities as might=6,dexterity=5,awareness=4,conviction=3") from exc


def cmd_character_create(args: argparse.Namespace) -> int:
    from companion import operations

    def call(campaign: Any) -> Any:
        dice = args.dice
        if args.roll:
            dice = operations.roll_dice(campaign, count=5, purpose=f"{args.name}'s abilities"
                                        ).detail
            print(f"rolled: {' '.join(map(str, dice))}")
        if not dice:
            raise operations.Refused("Give the five dice (--dice) or let the app --roll.")
        if args.assign is None:
            raise operations.Refused("Assign the kept dice with --assign "
                                     "might=N,dexterity=N,awareness=N,conviction=N.")
        return operations.create_character(
            campaign, name=args.name, player=args.player, rolled=tuple(dice),
            removed=args.drop - 1, assignment=args.assign, traits=args.trait,
            mantle=args.mantle, hex_tile=args.hex, after_death=args.replacement)

    return _run(args, call)


def cmd_characters(args: argparse.Namespace) -> int:
    from companion import operations

    try:
        with _open(args) as campaign:
            rows = campaign.characters()
    except operations.Refused as exc:
        return _refused(exc)
    text = "\n".join(
        f"{c.name:<12} M{c.might} D{c.dexterity} A{c.awareness} C{c.conviction}  "
        f"energy {c.energy_text:<5} {c.health_text:<28} hex {c.hex_id or '-':<5} "
        f"{', '.join(c.traits)}" for c in rows) or "no characters"
    _emit(args, {"characters": [dataclasses.asdict(c) for c in rows]}, text)
    return 0


def cmd_actions(args: argparse.Namespace) -> int:
    from companion import operations

    try:
        with _open(args) as campaign:
            options = operations.available_actions(campaign, args.name)
            turn = operations.whose_turn(campaign)
    except operations.Refused as exc:
        return _refused(exc)
    lines = [f"may act: {', '.join(turn['may_act']) or 'no one'}; "
             f"passed: {', '.join(turn['passed']) or 'no one'}"]
    lines += [f"{'  ' if o.refusal is None else 'x '}{o.action:<15} {o.label}"
              + (f"  ({o.refusal})" if o.refusal else "") for o in options]
    _emit(args, {"turn": turn, "actions": [dataclasses.asdict(o) for o in options]},
          "\n".join(lines))
    return 0


ACTIONS = ("move", "explore", "water", "shelter", "pass")


def cmd_act(args: argparse.Namespace) -> int:
    from companion import operations

    def call(campaign: Any) -> Any:
        if args.action in ("move", "explore"):
            if not args.target:
                raise operations.Refused(f"{args.action} needs the hex to go to")
            return operations.move(campaign, name=args.name, to_hex=args.target)
        if args.action == "water":
            return operations.gather_water(campaign, name=args.name)
        if args.action == "shelter":
            return operations.prepare_shelter(campaign, name=args.name)
        return operations.pass_turn(campaign, name=args.name)

    return _run(args, call)


def cmd_society(args: argparse.Namespace) -> int:
    from companion import operations

    calls = {
        "unrest": lambda c: operations.change_unrest(c, amount=args.amount, reason=args.reason),
        "activity": lambda c: operations.increase_activity(c, amount=args.amount,
                                                           reason=args.reason),
        "gain-lore": lambda c: operations.gain_lore(c, amount=args.amount, reason=args.reason),
        "spend-lore": lambda c: operations.spend_lore(c, amount=args.amount,
                                                      reason=args.reason),
    }
    return _run(args, calls[args.track])


def cmd_valley_setup(args: argparse.Namespace) -> int:
    from companion import operations

    return _run(args, lambda c: operations.set_up_valley(c, region=args.region,
                                                         face_down=args.tiles or None))


def cmd_challenge_start(args: argparse.Namespace) -> int:
    from companion import operations

    def call(campaign: Any) -> Any:
        pairs = [p.split("=", 1) for p in args.place]
        if any(len(p) != 2 for p in pairs):
            raise operations.Refused("Place a character as NAME=HEX, e.g. Ash=E01.")
        return operations.start_challenge(campaign, challenge=args.challenge,
                                          placements={n.strip(): h.strip() for n, h in pairs})

    return _run(args, call)


def cmd_effect(args: argparse.Namespace) -> int:
    from companion.operations.effects import apply_effects, parse_effect

    return _run(args, lambda c: apply_effects(
        c, name=args.name, effects=[parse_effect(e) for e in args.effect], source=args.source))


def cmd_craft(args: argparse.Namespace) -> int:
    from companion.operations.crafting import craft

    return _run(args, lambda c: craft(c, name=args.name, left=args.left - 1,
                                      left_rotation=args.left_turns, right=args.right - 1,
                                      right_rotation=args.right_turns))


def cmd_codes(args: argparse.Namespace) -> int:
    from companion import operations
    from companion.operations.crafting import crafting_explorer

    try:
        with _open(args) as campaign:
            found = crafting_explorer(campaign, args.names or None)
    except operations.Refused as exc:
        return _refused(exc)
    rows = [{"code": str(d.code), "known": d.kind.value, "item": d.item,
             "ways": [str(o) for o in d.orientations]} for d in found]
    text = "\n".join(f"{r['code']}  {r['known']:<8} {r['item'] or '':<20} {r['ways'][0]}"
                     for r in rows) or "no two materials at hand combine"
    _emit(args, {"codes": rows}, text)
    return 0


def register(sub: Any) -> None:
    """Add the play commands to the ``companion`` parser."""
    character = sub.add_parser("character", help="create characters")
    character_sub = character.add_subparsers(dest="character_command", required=True)
    create = _with_path(character_sub.add_parser(
        "create", help="create a character (Rulebook: Character Creation)"))
    create.add_argument("--name", required=True)
    create.add_argument("--player", default="Player 1")
    dice = create.add_mutually_exclusive_group()
    dice.add_argument("--dice", type=int, nargs=5, metavar="D", help="five dice from the table")
    dice.add_argument("--roll", action="store_true", help="let the app roll the five dice")
    create.add_argument("--drop", type=int, default=5,
                        help="which die (1-5) to leave out (default: the fifth)")
    create.add_argument("--assign", type=_assignment,
                        help="might=N,dexterity=N,awareness=N,conviction=N")
    create.add_argument("--trait", action="append", default=[], help="a trait (repeatable)")
    create.add_argument("--mantle")
    create.add_argument("--hex", help="starting hex tile id")
    create.add_argument("--replacement", action="store_true",
                        help="made after a death: enters with 0 energy in a hex with shelter")
    create.set_defaults(func=cmd_character_create)

    _with_path(sub.add_parser("characters", help="the characters in play")) \
        .set_defaults(func=cmd_characters)

    actions = _with_path(sub.add_parser("actions", help="what a character can do here"))
    actions.add_argument("name")
    actions.set_defaults(func=cmd_actions)

    act = _with_path(sub.add_parser("act", help="take a Day action"))
    act.add_argument("name")
    act.add_argument("action", choices=ACTIONS)
    act.add_argument("target", nargs="?", help="the hex for move/explore")
    act.set_defaults(func=cmd_act)

    society = _with_path(sub.add_parser("society", help="turn the society's dials"))
    society.add_argument("track", choices=["unrest", "activity", "gain-lore", "spend-lore"])
    society.add_argument("amount", type=int)
    society.add_argument("--reason", default="")
    society.set_defaults(func=cmd_society)

    effect = _with_path(sub.add_parser(
        "effect", help="apply effects read at the table ('gain wood 2', 'suffer minor_injury')"))
    effect.add_argument("name")
    effect.add_argument("effect", nargs="+")
    effect.add_argument("--source", default="", help="the card or Codex entry")
    effect.set_defaults(func=cmd_effect)

    craft = _with_path(sub.add_parser("craft", help="lay two material tokens and craft"))
    craft.add_argument("name")
    craft.add_argument("left", type=int, help="bag position (1 = first) of the left token")
    craft.add_argument("right", type=int, help="bag position of the right token")
    craft.add_argument("--left-turns", type=int, default=0, help="quarter turns (0-3)")
    craft.add_argument("--right-turns", type=int, default=0, help="quarter turns (0-3)")
    craft.set_defaults(func=cmd_craft)

    codes = _with_path(sub.add_parser("codes", help="the crafting explorer: every code the "
                                                    "materials at hand make"))
    codes.add_argument("names", nargs="*", help="characters (default: the whole group)")
    codes.set_defaults(func=cmd_codes)

    valley = sub.add_parser("valley", help="set up the valley")
    valley_sub = valley.add_subparsers(dest="valley_command", required=True)
    setup = _with_path(valley_sub.add_parser("setup", help="place the first terrain tray"))
    setup.add_argument("region")
    setup.add_argument("--tiles", nargs="*", help="the face-down tiles drawn at the table")
    setup.set_defaults(func=cmd_valley_setup)

    challenge = sub.add_parser("challenge", help="choose and set up a challenge")
    challenge_sub = challenge.add_subparsers(dest="challenge_command", required=True)
    start = _with_path(challenge_sub.add_parser("start"))
    start.add_argument("challenge")
    start.add_argument("--place", action="append", default=[], metavar="NAME=HEX",
                       help="where a carried-over character begins (default: the starting "
                            "hex; or a hex with an outpost)")
    start.set_defaults(func=cmd_challenge_start)
    from companion.cli.challenge_cmd import register_challenge_verbs

    register_challenge_verbs(challenge_sub)  # end, retained, claim

