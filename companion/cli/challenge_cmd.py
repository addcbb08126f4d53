"""Headless challenge lifecycle (Rulebook: Continuing Play; Retaining Supplies;
Looming Challenges & Epoch Goals; Overlays > Outposts > Ruins; reading D13).

    companion challenge end PATH OUTCOME [--retain NAME:ITEM,...:BAG,...] [--looming C2]
    companion challenge retained PATH
    companion challenge claim PATH NAME NUMBER
    companion challenge goal PATH GOAL          # a goal is completed; its reward applies
    companion epoch new PATH
    companion outpost ruin PATH OUTPOST [--reason TEXT]
    companion outpost remove-structure PATH OUTPOST STRUCTURE [--reason TEXT]
    companion age PATH NAME                 # young -> old -> legend
    companion heal PATH NAME N              # degrade health token N (1 = first)
    companion odds PATH                     # the odds of the step in progress

``challenge start`` lives with the other play commands (``--place NAME=HEX``).
Refusals print ``refused: <reason>`` and change nothing.
"""

from __future__ import annotations

import argparse
from typing import Any

from companion.cli.campaign_cmd import _emit, _open, _refused, _with_path


def _run(args: argparse.Namespace, call: Any) -> int:
    from companion import operations

    try:
        with _open(args) as campaign:
            changes = call(campaign)
    except operations.Refused as exc:
        return _refused(exc)
    _emit(args, {"summary": changes.summary}, changes.summary)
    return 0


def parse_retain(texts: list[str]) -> dict[str, tuple[list[str], list[int]]]:
    """``NAME:ITEM,ITEM:BAG,BAG`` (bag positions from 1) -> end_challenge's ``retained``."""
    from companion.operations import Refused

    out: dict[str, tuple[list[str], list[int]]] = {}
    for text in texts:
        name, colon, rest = text.partition(":")
        items, _, bag = rest.partition(":")
        if not colon:  # "Ash" alone would silently retain nothing
            raise Refused(f"Give what {name.strip() or 'a character'} retains as "
                          f"NAME:ITEM,ITEM:1,2 (bag positions from 1; 'NAME:' retains "
                          f"nothing); got '{text}'.")
        try:
            positions = [int(p) - 1 for p in bag.split(",") if p.strip()]
        except ValueError:
            raise Refused(f"Give what {name or 'a character'} retains as NAME:ITEM,ITEM:1,2 "
                          f"(bag positions from 1); got '{text}'.") from None
        if not name.strip() or any(p < 0 for p in positions):
            raise Refused(f"Give what a character retains as NAME:ITEM,ITEM:1,2 (bag "
                          f"positions from 1); got '{text}'.")
        out[name.strip()] = ([i.strip() for i in items.split(",") if i.strip()], positions)
    return out


def cmd_challenge_end(args: argparse.Namespace) -> int:
    from companion.operations.challenge import end_challenge

    return _run(args, lambda c: end_challenge(c, outcome=args.outcome,
                                              retained=parse_retain(args.retain),
                                              looming=args.looming))


def cmd_challenge_retained(args: argparse.Namespace) -> int:
    from companion import operations
    from companion.operations.challenge import retained_supplies

    try:
        with _open(args) as campaign:
            rows = retained_supplies(campaign)
    except operations.Refused as exc:
        return _refused(exc)
    text = "\n".join(f"{r['number']:>3}  {r['character']} ({r['player']}): items "
                     f"{', '.join(r['items']) or '—'}; materials "  # type: ignore[arg-type]
                     f"{', '.join(r['materials']) or '—'}" for r in rows)  # type: ignore[arg-type]
    _emit(args, {"retained": rows}, text or "No retained supplies wait to be claimed.")
    return 0


def cmd_challenge_claim(args: argparse.Namespace) -> int:
    from companion.operations.challenge import claim_retained

    return _run(args, lambda c: claim_retained(c, name=args.name, supply=args.number))


def cmd_challenge_goal(args: argparse.Namespace) -> int:
    from companion.operations.challenge import complete_goal

    return _run(args, lambda c: complete_goal(c, goal=args.goal))


def cmd_epoch_new(args: argparse.Namespace) -> int:
    from companion.operations.challenge import new_epoch

    return _run(args, new_epoch)


def cmd_outpost_ruin(args: argparse.Namespace) -> int:
    from companion.operations.challenge import ruin_outpost

    return _run(args, lambda c: ruin_outpost(c, outpost=args.outpost, reason=args.reason))


def cmd_outpost_remove_structure(args: argparse.Namespace) -> int:
    from companion.operations.challenge import remove_structure

    return _run(args, lambda c: remove_structure(c, outpost=args.outpost,
                                                 structure=args.structure, reason=args.reason))


def cmd_age(args: argparse.Namespace) -> int:
    from companion.operations.challenge import age_character

    return _run(args, lambda c: age_character(c, name=args.name))


def cmd_heal(args: argparse.Namespace) -> int:
    from companion.operations.challenge import degrade_token

    return _run(args, lambda c: degrade_token(c, name=args.name, index=args.token - 1))


def cmd_odds(args: argparse.Namespace) -> int:
    from companion import operations
    from companion.operations.odds import advice

    try:
        with _open(args) as campaign:
            report = advice(campaign)
    except operations.Refused as exc:
        return _refused(exc)
    if report is None:
        _emit(args, {"odds": None}, "No procedure in progress has odds to show.")
        return 0
    lines = [report.title]
    for table in report.tables:
        lines.append(f"  {table.caption}: " + " | ".join(table.headers))
        lines += ["    " + "  ".join(cell.text for cell in row) for row in table.rows]
    lines += [f"  {note}" for note in report.notes]
    data = {"title": report.title, "notes": list(report.notes),
            "chances": {k: str(v) for k, v in report.chances.items()},
            "tables": [{"caption": t.caption, "headers": list(t.headers),
                        "rows": [[c.text for c in row] for row in t.rows]}
                       for t in report.tables]}
    _emit(args, {"odds": data}, "\n".join(lines))
    return 0


def register_challenge_verbs(challenge_sub: Any) -> None:
    """Add ``end``, ``retained``, ``claim`` and ``goal`` to the ``challenge`` command."""
    end = _with_path(challenge_sub.add_parser(
        "end", help="end the challenge: outcome, retained supplies, looming challenges"))
    end.add_argument("outcome", help="the outcome entry the challenge card names")
    end.add_argument("--retain", action="append", default=[], metavar="NAME:ITEMS:BAG",
                     help="what a character retains (up to 5 items and 5 materials), e.g. "
                          "'Ash:Stone Knife:1,2' (items by name, any case; bag positions "
                          "from 1; 'Ash:' retains nothing; repeatable)")
    end.add_argument("--looming", action="append", default=[], metavar="CHALLENGE",
                     help="a looming challenge the outcome names (repeatable)")
    end.set_defaults(func=cmd_challenge_end)
    _with_path(challenge_sub.add_parser(
        "retained", help="retained supplies waiting to be claimed")) \
        .set_defaults(func=cmd_challenge_retained)
    claim = _with_path(challenge_sub.add_parser(
        "claim", help="a character takes up retained supplies (or a successor inherits)"))
    claim.add_argument("name")
    claim.add_argument("number", type=int, help="the number 'challenge retained' shows")
    claim.set_defaults(func=cmd_challenge_claim)
    goal = _with_path(challenge_sub.add_parser(
        "goal", help="a goal in play is completed: its reward is applied"))
    goal.add_argument("goal", help="the goal's name or id, e.g. 'First Hearth'")
    goal.set_defaults(func=cmd_challenge_goal)


def register(sub: Any) -> None:
    """Add ``epoch``, ``outpost``, ``age``, ``heal`` and ``odds``."""
    epoch = sub.add_parser("epoch", help="begin a new epoch")
    epoch_sub = epoch.add_subparsers(dest="epoch_command", required=True)
    _with_path(epoch_sub.add_parser("new", help="a new epoch begins (between challenges)")) \
        .set_defaults(func=cmd_epoch_new)
    outpost = sub.add_parser("outpost", help="outposts: ruin, remove-structure")
    outpost_sub = outpost.add_subparsers(dest="outpost_command", required=True)
    ruin = _with_path(outpost_sub.add_parser(
        "ruin", help="an outpost becomes a ruin (when an effect says so)"))
    ruin.add_argument("outpost", help="the outpost's name")
    ruin.add_argument("--reason", default="", help="the effect that ruins it")
    ruin.set_defaults(func=cmd_outpost_ruin)
    erase = _with_path(outpost_sub.add_parser(
        "remove-structure", help="erase a structure from an outpost (when an effect says so)"))
    erase.add_argument("outpost", help="the outpost's name")
    erase.add_argument("structure", help="the structure's name")
    erase.add_argument("--reason", default="", help="the effect that removes it")
    erase.set_defaults(func=cmd_outpost_remove_structure)
    age = _with_path(sub.add_parser("age", help="a character grows old, or ages out into a "
                                                "legend (between games)"))
    age.add_argument("name")
    age.set_defaults(func=cmd_age)
    heal = _with_path(sub.add_parser("heal", help="degrade one injury or disease token "
                                                  "(major to minor, minor removed)"))
    heal.add_argument("name")
    heal.add_argument("token", type=int, help="which health token (1 = the first)")
    heal.set_defaults(func=cmd_heal)
    _with_path(sub.add_parser("odds", help="the exact odds of the step in progress")) \
        .set_defaults(func=cmd_odds)
