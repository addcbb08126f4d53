"""Headless legend cards, mantle powers, tests and contests (Rulebook: Characters >
Legends; Continuing Play > Mantle Power; Basic Concepts > Tests; Behemoths > Contests).

    companion legend list PATH
    companion legend draw PATH NAME            # an ability says: draw a legend card
    companion legend choose PATH NAME NUMBER   # an ability says: choose a legend card
    companion legend use PATH NAME NUMBER --trait T | --mark M
    companion legend return PATH NAME NUMBER
    companion legend mark PATH MARK --character NAME | --legend NUMBER
    companion mantle-power unlock|choose|use PATH ...
    companion test PATH NAME ABILITY DIFFICULTY [--die N] [--legend N [--trait T]]
    companion contest PATH NAME ABILITY BEHEMOTH_VALUE [--boost 1 ...] [--die N] ...

Each calls one operation; refusals print ``refused: <reason>`` and change nothing.
"""

from __future__ import annotations

import argparse
import dataclasses
from typing import Any

from companion.cli.campaign_command import command_family, on_campaign, with_path


def _run(args: argparse.Namespace, call: Any) -> int:
    return on_campaign(args, call, _with_detail)


def _with_detail(changes: Any) -> tuple[dict[str, Any], str]:
    """The summary, and the operation's detail (a test's or contest's dice) in the JSON."""
    data: dict[str, Any] = {"summary": changes.summary}
    detail = changes.detail
    if dataclasses.is_dataclass(detail) and not isinstance(detail, type):
        data["detail"] = dataclasses.asdict(detail)
    elif detail is not None:
        data["detail"] = detail
    return data, changes.summary


def _modifiers(pairs: list[str]) -> dict[str, int]:
    from companion.operations import Refused

    out: dict[str, int] = {}
    for pair in pairs:
        trait, _, value = pair.partition("=")
        try:
            out[trait.strip()] = int(value)
        except ValueError:
            raise Refused(f"Give a trait modifier as trait=N (e.g. wise=+1); got '{pair}'."
                          ) from None
    return out


def cmd_legend_list(args: argparse.Namespace) -> int:
    from companion import operations

    return on_campaign(args, operations.legend_cards, _legends)


def _legends(cards: Any) -> tuple[dict[str, Any], str]:
    lines = [f"{c.id:>3}  {c.name:<12} "
             + ", ".join(f"{a} {v}" for a, v in c.abilities.items())
             + f"; traits {', '.join(c.traits) or '—'}; marks {', '.join(c.marks) or '—'}"
             + f"  [{('held by ' + c.held_by) if c.held_by else 'unassigned'}]"
             for c in cards]
    return ({"legends": [dataclasses.asdict(c) for c in cards]},
            "\n".join(lines) or "The society has no legends yet.")


def cmd_legend(args: argparse.Namespace) -> int:
    from companion import operations

    calls = {
        "draw": lambda c: operations.gain_legend(c, name=args.name),
        "choose": lambda c: operations.gain_legend(c, name=args.name, legend=args.number),
        "use": lambda c: operations.use_legend(c, name=args.name, legend=args.number,
                                               trait=args.trait, mark=args.mark,
                                               reason=args.reason),
        "return": lambda c: operations.return_legend(c, name=args.name, legend=args.number),
        "mark": lambda c: _write_mark(c, args),
    }
    return _run(args, calls[args.legend_command])


def _write_mark(campaign: Any, args: argparse.Namespace) -> Any:
    from companion.operations.legends import write_mark

    return write_mark(campaign, mark=args.mark, name=args.character, legend=args.legend,
                      reason=args.reason)


def cmd_mantle_power(args: argparse.Namespace) -> int:
    from companion import operations

    calls = {
        "unlock": lambda c: operations.unlock_mantle_power(c, power=args.power),
        "choose": lambda c: operations.choose_mantle_power(c, name=args.name, power=args.power),
        "use": lambda c: operations.use_mantle_power(c, name=args.name),
    }
    return _run(args, calls[args.power_command])


def cmd_test(args: argparse.Namespace) -> int:
    from companion.operations.challenge import ability_test

    return _run(args, lambda c: ability_test(
        c, name=args.name, ability=args.ability, difficulty=args.difficulty, die=args.die,
        trait_modifiers=_modifiers(args.modifier), legend=args.legend,
        legend_trait=args.trait))


def cmd_contest(args: argparse.Namespace) -> int:
    from companion.operations.challenge import contest

    return _run(args, lambda c: contest(
        c, name=args.name, ability=args.ability, behemoth_value=args.behemoth_value,
        behemoth_boosts=args.boost, die=args.die, trait_modifiers=_modifiers(args.modifier),
        legend=args.legend, legend_trait=args.trait))


def _legend_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--die", type=int, help="the die rolled at the table (default: the "
                                                "app rolls)")
    parser.add_argument("--modifier", action="append", default=[], metavar="TRAIT=N",
                        help="a trait bonus or penalty the card lists (repeatable)")
    parser.add_argument("--legend", type=int, metavar="NUMBER",
                        help="use a held legend card (its ability value, or --trait)")
    parser.add_argument("--trait", help="with --legend: count as having this trait of it")


def register(sub: Any) -> None:
    """Add ``legend``, ``mantle-power``, ``test`` and ``contest``."""
    legend_sub = command_family(sub, "legend", "legend cards: list, draw, choose, use, return",
                                "legend_command")
    with_path(legend_sub.add_parser("list", help="the society's legend cards")) \
        .set_defaults(func=cmd_legend_list)
    draw = with_path(legend_sub.add_parser(
        "draw", help="draw an unassigned legend card at random"))
    draw.add_argument("name")
    draw.set_defaults(func=cmd_legend)
    for verb, text in (("choose", "choose an unassigned legend card"),
                       ("return", "return a held legend card to the unassigned ones")):
        parser = with_path(legend_sub.add_parser(verb, help=text))
        parser.add_argument("name")
        parser.add_argument("number", type=int, help="the card's number ('legend list')")
        parser.set_defaults(func=cmd_legend)
    use = with_path(legend_sub.add_parser(
        "use", help="count as having a trait or mark of a held legend card"))
    use.add_argument("name")
    use.add_argument("number", type=int)
    what = use.add_mutually_exclusive_group(required=True)
    what.add_argument("--trait")
    what.add_argument("--mark")
    use.add_argument("--reason", default="", help="the effect that checks for it")
    use.set_defaults(func=cmd_legend)
    mark = with_path(legend_sub.add_parser(
        "mark", help="write a mark on a character card or a legend card (when an effect "
                     "says so)"))
    mark.add_argument("mark", help="the mark, as the card draws it (e.g. spiral)")
    on = mark.add_mutually_exclusive_group(required=True)
    on.add_argument("--character", metavar="NAME", help="on this character's card")
    on.add_argument("--legend", type=int, metavar="NUMBER",
                    help="on this legend card ('legend list')")
    mark.add_argument("--reason", default="", help="the effect that says so")
    mark.set_defaults(func=cmd_legend)

    power_sub = command_family(sub, "mantle-power", "unlock, choose and use mantle powers",
                               "power_command")
    unlock = with_path(power_sub.add_parser("unlock", help="the society unlocks a power"))
    unlock.add_argument("power")
    unlock.set_defaults(func=cmd_mantle_power)
    choose = with_path(power_sub.add_parser(
        "choose", help="a character slots an unlocked power of their mantle"))
    choose.add_argument("name")
    choose.add_argument("power")
    choose.set_defaults(func=cmd_mantle_power)
    use_power = with_path(power_sub.add_parser("use", help="use the slotted power"))
    use_power.add_argument("name")
    use_power.set_defaults(func=cmd_mantle_power)

    test = with_path(sub.add_parser("test", help="an ability test (1d6 + ability + boosts)"))
    test.add_argument("name")
    test.add_argument("ability")
    test.add_argument("difficulty", type=int)
    _legend_options(test)
    test.set_defaults(func=cmd_test)

    contest = with_path(sub.add_parser("contest", help="a contest against a behemoth"))
    contest.add_argument("name")
    contest.add_argument("ability")
    contest.add_argument("behemoth_value", type=int)
    contest.add_argument("--boost", type=int, action="append", default=[],
                         help="a boost token on the behemoth's ability (1 or 2; repeatable)")
    _legend_options(contest)
    contest.set_defaults(func=cmd_contest)
