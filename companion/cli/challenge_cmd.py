"""Headless challenge lifecycle (Rulebook: Continuing Play; Retaining Supplies;
Looming Challenges & Epoch Goals; Overlays > Outposts > Ruins; reading D13).

    companion challenge end PATH [OUTCOME] [--retain NAME:ITEM,...:BAG,...] [--looming C2]
                                            # OUTCOME: the card's, when the app knows it;
                                            # then the outcome is read in the Codex
    companion challenge start PATH --enter-card FILE   # a card the app doesn't know yet
    companion challenge start PATH --card-id C9 --name NAME --priority 2 --omen sun
        --vital "Name: text" [--epoch "Name: text"] --event "6 immediate Text: unrest 1"
        [--outcome 412] [--text TEXT]
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

from companion.cli.campaign_command import command_family, on_campaign, with_path
from companion.cli.terminal import refuse


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
    """End the challenge; then the outcome entry goes to the Codex (its reveal shown)."""
    from companion import operations
    from companion.operations.challenge import end_challenge
    from companion.operations.challenge_cards import read_challenge_outcome

    def call(campaign: Any) -> tuple[Any, str, Any, str | None]:
        changes = end_challenge(campaign, outcome=args.outcome,
                                retained=parse_retain(args.retain), looming=args.looming)
        number = _logged_outcome(campaign)
        reveal: Any = None
        if number:
            try:
                reveal = read_challenge_outcome(campaign, number=number).detail
            except operations.Refused:  # not an entry number: recorded as typed
                reveal = None
        applied = _act_on_outcome(args, campaign, number) if reveal is not None else None
        return changes, number, reveal, applied

    return on_campaign(args, call, _ended)


def _ended(ended: tuple[Any, str, Any, str | None]) -> tuple[dict[str, Any], str]:
    """What ``challenge end`` prints: the summary, then the outcome read in the Codex."""
    changes, number, reveal, applied = ended
    data: dict[str, Any] = {"summary": changes.summary, "outcome": number}
    text = changes.summary
    if reveal is not None:
        data["codex"] = {"label": reveal.label, "found": reveal.found, "text": reveal.text}
        text += f"\n{reveal.title}: {reveal.text}"
        if applied is not None:
            data["codex"]["applied"] = applied
            text += f"\n{applied}"
        else:  # not acted on yet: what to type next, in the text and the JSON alike
            from companion.cli.journal_cmd import outcome_hint

            data["codex"]["next"] = outcome_hint(number, reveal.found)
            text += "\n" + data["codex"]["next"]
    return data, text


def _act_on_outcome(args: argparse.Namespace, campaign: Any, number: str) -> str | None:
    """``challenge end --apply`` / ``--effects LINE``: the outcome's effects applied (or,
    for an outcome the app doesn't know, what it did, remembered under its number), as
    ``codex outcome N --apply`` does: its own undoable operation after the end. A refusal
    here leaves the challenge ended and says why (``codex outcome`` can be run again)."""
    from companion import operations
    from companion.operations.codex_outcomes import resolve_outcome

    if not (args.apply or args.effects):
        return None
    try:
        return resolve_outcome(campaign, number=number, line=args.effects or "",
                               character=args.character).summary
    except operations.Refused as exc:
        return f"The outcome was not applied: {exc}"


def _logged_outcome(campaign: Any) -> str:
    """The outcome entry the Challenge Log recorded for the challenge just ended."""
    from sqlmodel import col, select

    from companion.store import models

    with campaign.file.read() as session:
        row = session.exec(select(models.ChallengeLogEntry).order_by(
            col(models.ChallengeLogEntry.id).desc())).first()
    return str(row.outcome_entry or "") if row is not None else ""


def cmd_challenge_start(args: argparse.Namespace) -> int:
    """``challenge start ID``: a challenge the campaign's content holds."""
    from companion import operations

    def call(campaign: Any) -> Any:
        return operations.start_challenge(
            campaign, challenge=args.challenge,
            placements=_pairs(args.place, "NAME=HEX, e.g. Ash=E01"),
            mantles=_pairs(args.mantle, "NAME=MANTLE, e.g. Ash=Pathfinder"),
            mantle_powers=_pairs(args.mantle_power, "NAME=POWER, e.g. Ash=MP1"))

    return on_campaign(args, call)


def cmd_challenge_start_any(args: argparse.Namespace) -> int:
    """``challenge start``: a challenge by id, or a card the app doesn't know yet typed
    from the card (``--enter-card FILE`` or the card flags)."""
    typed = args.enter_card or args.card_id
    if not typed:
        if not args.challenge:
            from companion.operations import Refused

            return refuse(Refused("Name the challenge to start (its id), or enter a card "
                                    "the app doesn't know yet with --enter-card FILE or "
                                    "--card-id."))
        return cmd_challenge_start(args)
    return _start_typed(args)


def _pairs(typed: list[str], example: str) -> dict[str, str]:
    from companion.operations import Refused

    split = [p.split("=", 1) for p in typed]
    if any(len(p) != 2 for p in split):
        raise Refused(f"Write each as {example}.")
    return {n.strip(): v.strip() for n, v in split}


def _typed_card(args: argparse.Namespace, campaign: Any) -> tuple[dict[str, Any],
                                                                  list[dict[str, Any]]]:
    from pathlib import Path

    from companion.content import yamlio
    from companion.operations import Refused
    from companion.operations.challenge_cards import challenge_from_file, challenge_from_typed

    if args.enter_card:
        try:
            source = Path(args.enter_card).read_text(encoding="utf-8")
            data = yamlio.load(source)
        except OSError as exc:
            raise Refused(f"Could not read the card file: {exc}") from exc
        except Exception as exc:  # noqa: BLE001 - YAML errors of any kind, said plainly
            raise Refused(f"The card file is not YAML: {exc}") from exc
        return challenge_from_file(campaign.content, data)
    missing = [flag for flag, value in (("--name", args.name), ("--priority", args.priority),
                                        ("--omen", args.omen), ("--vital", args.vital),
                                        ("--event", args.event)) if value in (None, [])]
    if missing:
        raise Refused(f"A challenge card typed from the box needs {', '.join(missing)} "
                      "(as the card prints them).")
    return challenge_from_typed(
        campaign.content, id=args.card_id, name=args.name, priority=args.priority,
        starting_omen=args.omen, vital_goals=args.vital, epoch_goals=args.epoch,
        events=args.event, outcome=args.card_outcome, text=args.text or "")


def _start_typed(args: argparse.Namespace) -> int:
    from companion.operations.challenge_cards import start_typed_challenge

    def call(campaign: Any) -> tuple[Any, dict[str, Any], list[dict[str, Any]]]:
        card, goals = _typed_card(args, campaign)
        return start_typed_challenge(
            campaign, card=card, goals=goals,
            placements=_pairs(args.place, "NAME=HEX, e.g. Ash=E01"),
            mantles=_pairs(args.mantle, "NAME=MANTLE, e.g. Ash=Pathfinder"),
            mantle_powers=_pairs(args.mantle_power, "NAME=POWER, e.g. Ash=MP1")), card, goals

    return on_campaign(args, call, lambda started: (
        {"summary": started[0].summary, "challenge": started[1]["id"],
         "goals": [g["id"] for g in started[2]], "card": started[1]}, started[0].summary))


def cmd_challenge_retained(args: argparse.Namespace) -> int:
    from companion.operations.challenge import retained_supplies

    return on_campaign(args, retained_supplies, _retained)


def _retained(rows: list[dict[str, Any]]) -> tuple[dict[str, Any], str]:
    text = "\n".join(f"{r['number']:>3}  {r['character']} ({r['player']}): items "
                     f"{', '.join(r['items']) or '—'}; materials "
                     f"{', '.join(r['materials']) or '—'}" for r in rows)
    return {"retained": rows}, text or "No retained supplies wait to be claimed."


def cmd_challenge_claim(args: argparse.Namespace) -> int:
    from companion.operations.challenge import claim_retained

    return on_campaign(args, lambda c: claim_retained(c, name=args.name, supply=args.number))


def cmd_challenge_goal(args: argparse.Namespace) -> int:
    from companion.operations.challenge import complete_goal

    return on_campaign(args, lambda c: complete_goal(c, goal=args.goal))


def cmd_epoch_new(args: argparse.Namespace) -> int:
    from companion.operations.challenge import new_epoch

    return on_campaign(args, new_epoch)


def cmd_outpost_ruin(args: argparse.Namespace) -> int:
    from companion.operations.challenge import ruin_outpost

    return on_campaign(args, lambda c: ruin_outpost(c, outpost=args.outpost, reason=args.reason))


def cmd_outpost_remove_structure(args: argparse.Namespace) -> int:
    from companion.operations.challenge import remove_structure

    return on_campaign(args, lambda c: remove_structure(c, outpost=args.outpost,
                                                 structure=args.structure, reason=args.reason))


def cmd_age(args: argparse.Namespace) -> int:
    from companion.operations.challenge import age_character

    return on_campaign(args, lambda c: age_character(c, name=args.name))


def cmd_heal(args: argparse.Namespace) -> int:
    from companion.operations.challenge import degrade_token

    return on_campaign(args, lambda c: degrade_token(c, name=args.name, index=args.token - 1))


def cmd_odds(args: argparse.Namespace) -> int:
    from companion.operations.odds import advice

    return on_campaign(args, advice, _odds)


def _odds(report: Any) -> tuple[dict[str, Any], str]:
    if report is None:
        return {"odds": None}, "No procedure in progress has odds to show."
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
    return {"odds": data}, "\n".join(lines)


def add_card_options(start: argparse.ArgumentParser) -> None:
    """``challenge start``'s way in for a challenge card the app doesn't know yet."""
    start.add_argument("--enter-card", metavar="FILE",
                       help="a challenge card the app doesn't know yet, as YAML: id, name, "
                            "priority, starting_omen, vital_goals ('Name: text'), "
                            "epoch_goals, events ('6 immediate Text: unrest 1'), outcome, "
                            "text; saved into your own pack, then started")
    start.add_argument("--card-id", metavar="ID",
                       help="or type the card with flags: the id printed on it")
    start.add_argument("--name", help="the card's name")
    start.add_argument("--priority", type=int, help="its priority value")
    start.add_argument("--omen", help="its starting omen (sun, moon, stars, cloud, comet)")
    start.add_argument("--vital", action="append", default=[], metavar="'NAME: TEXT'",
                       help="a vital goal (a known goal by name or id; repeatable)")
    start.add_argument("--epoch", action="append", default=[], metavar="'NAME: TEXT'",
                       help="an epoch goal (repeatable)")
    start.add_argument("--event", action="append", default=[],
                       metavar="'THRESHOLD TYPE TEXT: EFFECTS'",
                       help="an activity-track event, e.g. '6 immediate Floods: unrest 1', "
                            "'16..20 ongoing Cold nights: energy -1' (repeatable)")
    start.add_argument("--outcome", dest="card_outcome", metavar="ENTRY",
                       help="the outcome entry the card names for End Challenge")
    start.add_argument("--text", help="the card's text (default: its name)")
    start.set_defaults(func=cmd_challenge_start_any)


def register_challenge_verbs(challenge_sub: Any,
                             start: argparse.ArgumentParser | None = None) -> None:
    """Add ``end``, ``retained``, ``claim`` and ``goal`` to the ``challenge`` command,
    and ``start``'s options for a card typed from the box."""
    if start is not None:
        add_card_options(start)
    end = with_path(challenge_sub.add_parser(
        "end", help="end the challenge: outcome, retained supplies, looming challenges"))
    end.add_argument("outcome", nargs="?", default=None,
                     help="the outcome entry the challenge card names (default: the one "
                          "the card names, when the app knows the card)")
    end.add_argument("--retain", action="append", default=[], metavar="NAME:ITEMS:BAG",
                     help="what a character retains (up to 5 items and 5 materials), e.g. "
                          "'Ash:Stone Knife:1,2' (items by name, any case; bag positions "
                          "from 1; 'Ash:' retains nothing; repeatable)")
    end.add_argument("--looming", action="append", default=[], metavar="CHALLENGE",
                     help="a looming challenge the outcome names, by the id on its card "
                          "(one the app doesn't know yet is entered when started; "
                          "repeatable)")
    end.add_argument("--apply", action="store_true",
                     help="apply the outcome's effects after ending (one more undoable "
                          "operation, as 'codex outcome N --apply')")
    end.add_argument("--effects", metavar="LINE",
                     help="what the outcome did, typed from the book ('lore +1'): "
                          "applied, and remembered if the Codex lacks it")
    end.add_argument("--character", help="whom the outcome's effects on a character fall on")
    end.set_defaults(func=cmd_challenge_end)
    with_path(challenge_sub.add_parser(
        "retained", help="retained supplies waiting to be claimed")) \
        .set_defaults(func=cmd_challenge_retained)
    claim = with_path(challenge_sub.add_parser(
        "claim", help="a character takes up retained supplies (or a successor inherits)"))
    claim.add_argument("name")
    claim.add_argument("number", type=int, help="the number 'challenge retained' shows")
    claim.set_defaults(func=cmd_challenge_claim)
    goal = with_path(challenge_sub.add_parser(
        "goal", help="a goal in play is completed: its reward is applied"))
    goal.add_argument("goal", help="the goal's name or id, e.g. 'First Hearth'")
    goal.set_defaults(func=cmd_challenge_goal)


def register(sub: Any) -> None:
    """Add ``epoch``, ``outpost``, ``age``, ``heal`` and ``odds``."""
    epoch_sub = command_family(sub, "epoch", "begin a new epoch", "epoch_command")
    with_path(epoch_sub.add_parser("new", help="a new epoch begins (between challenges)")) \
        .set_defaults(func=cmd_epoch_new)
    outpost_sub = command_family(sub, "outpost", "outposts: ruin, remove-structure",
                                 "outpost_command")
    ruin = with_path(outpost_sub.add_parser(
        "ruin", help="an outpost becomes a ruin (when an effect says so)"))
    ruin.add_argument("outpost", help="the outpost's name")
    ruin.add_argument("--reason", default="", help="the effect that ruins it")
    ruin.set_defaults(func=cmd_outpost_ruin)
    erase = with_path(outpost_sub.add_parser(
        "remove-structure", help="erase a structure from an outpost (when an effect says so)"))
    erase.add_argument("outpost", help="the outpost's name")
    erase.add_argument("structure", help="the structure's name")
    erase.add_argument("--reason", default="", help="the effect that removes it")
    erase.set_defaults(func=cmd_outpost_remove_structure)
    age = with_path(sub.add_parser("age", help="a character grows old, or ages out into a "
                                                "legend (between games)"))
    age.add_argument("name")
    age.set_defaults(func=cmd_age)
    heal = with_path(sub.add_parser("heal", help="degrade one injury or disease token "
                                                  "(major to minor, minor removed)"))
    heal.add_argument("name")
    heal.add_argument("token", type=int, help="which health token (1 = the first)")
    heal.set_defaults(func=cmd_heal)
    with_path(sub.add_parser("odds", help="the exact odds of the step in progress")) \
        .set_defaults(func=cmd_odds)
