"""Headless campaign commands: new, status, journal, undo/redo, backups, export/import,
check. They call the same operations as the GUI. ``--json`` output is documented in
docs/cli.md and stays stable: fields are only ever added.
"""

from __future__ import annotations

import argparse
import dataclasses
from pathlib import Path
from typing import Any

from companion.cli.campaign_command import command_family, emit, on_campaign, with_path
from companion.cli.terminal import refuse, say


def cmd_new(args: argparse.Namespace) -> int:
    from companion import operations, paths

    # The society's name may hold what no Windows file name may (':' '?', "CON"): the
    # default file name is made legal everywhere; --file is taken as given.
    path = (Path(args.file) if args.file
            else paths.campaigns_dir() / paths.campaign_file_name(args.name))
    try:
        campaign = operations.new_campaign(
            path, society_name=args.name, players=args.players, characters=args.characters,
            solo=args.solo, pack_id=_pack_of(args), seed=args.seed,
            extra_content=[Path(p) for p in args.content],
        )
    except operations.Refused as exc:
        return refuse(exc)
    from companion.operations.box import KIND_WORDS, campaign_kind

    with campaign:
        kind = campaign_kind(campaign.content)
        emit(args, {"path": str(campaign.path), "society": args.name, "kind": kind,
                     "packs": [p.id for p in campaign.content.packs]},
              f"Created {campaign.path} ({KIND_WORDS[kind]})")
    return 0


def _pack_of(args: argparse.Namespace) -> str:
    """The pack ``campaign new`` plays with: ``--box``, ``--pack ID`` or the sample."""
    from companion.operations.box import BOX_PACK, SAMPLE_PACK

    return BOX_PACK if getattr(args, "box", False) else (args.pack or SAMPLE_PACK)


def cmd_status(args: argparse.Namespace) -> int:
    def read(campaign: Any) -> tuple[Any, dict[str, Any], Any]:
        status = campaign.status()
        data = dataclasses.asdict(status)
        data["goals"] = _goals(campaign)
        from companion.operations.own_cards import carried_report

        cards = carried_report(campaign)
        data["own_cards"] = {"carried": cards.carried,
                             "missing": [c.card_id for c in cards.missing],
                             "edited": [c.card_id for c in cards.edited]}
        return status, data, cards

    return on_campaign(args, read, _status)


def _status(read: tuple[Any, dict[str, Any], Any]) -> tuple[dict[str, Any], str]:
    status, data, cards = read
    lines = [
        f"{status.society_name} — {status.kind_words}",
        f"epoch {status.epoch}, games this epoch "
        f"{status.games_this_epoch}",
        f"challenge: {status.challenge_name or 'none'}",
        f"omen: {', '.join(status.omens) or 'none'}",
        f"unrest {status.unrest}, activity {status.activity}, lore {status.lore}",
        f"characters {status.characters}, legends {status.legends}, "
        f"outposts {status.outposts}, journal events {status.journal_events}",
    ]
    if cards.carried:
        lines.append(f"your own cards: {cards.carried} carried by this campaign"
                     + (f", {len(cards.missing)} not in this computer's pack"
                        if cards.missing else "")
                        + (f", {len(cards.edited)} different in this computer's pack"
                           if cards.edited else ""))
    if data["goals"]:
        lines.append("goals: " + "; ".join(f"{g['name']} ({g['state'].replace('_', ' ')})"
                                           for g in data["goals"]))
    return {"status": data}, "\n".join(lines)


def _goals(campaign: Any) -> list[dict[str, str]]:
    """The goals in play and met (Rulebook: Set Up > Set Up Challenge): a sealed goal keeps
    its name unread."""
    out = []
    for goal, state in campaign.goals_in_play():
        card = campaign.content.goals.get(goal) or campaign.content.set_aside_goals.get(goal)
        name = "sealed goal" if state == "sealed" else (card.name if card else goal)
        out.append({"goal": goal, "name": name, "state": state})
    return out


def cmd_journal_add(args: argparse.Namespace) -> int:
    from companion import operations

    return on_campaign(args, lambda c: operations.add_journal_entry(
        c, text=args.text, author=args.author))


def _journal_lines(lines: Any) -> tuple[dict[str, Any], str]:
    text = "\n".join(
        f"{line.id:>6}  {line.when}  {line.kind:<16} {line.text}"
        + ("  (undone)" if line.undone else "")
        for line in lines
    )
    return {"events": [dataclasses.asdict(line) for line in lines]}, text


def cmd_journal_list(args: argparse.Namespace) -> int:
    return on_campaign(args, lambda c: c.journal(limit=args.limit), _journal_lines)


def _undo_redo(args: argparse.Namespace, which: str) -> int:
    from companion import operations

    operation = operations.undo if which == "undo" else operations.redo

    def call(campaign: Any) -> Any:
        if which == "undo" and getattr(args, "to", None):
            return operations.undo_to_save_point(campaign, name=args.to)
        return operation(campaign)

    return on_campaign(args, call)


def cmd_save_point(args: argparse.Namespace) -> int:
    from companion import operations

    return on_campaign(args, lambda c: operations.save_point(c, name=args.name))


def cmd_backup_list(args: argparse.Namespace) -> int:
    from companion import operations
    from companion.operations.backup_moments import describe_backups

    try:
        operations.list_backups(Path(args.path))  # refusals as before
        described = describe_backups(Path(args.path),
                                     extra_content=[Path(p) for p in args.content])
    except operations.Refused as exc:
        return refuse(exc)
    # Each backup by its game moment (challenge, Day or Night, last action) and the time
    # to the second (issue 27 item 12).
    rows = [{"number": n, **d.to_dict()} for n, d in enumerate(described, 1)]
    text = "\n".join(f"{n:>3}  {d.taken}  {d.moment.label()}  ({d.why}, "
                     f"{d.info.size / 1024:.0f} KiB)"
                     for n, d in enumerate(described, 1)) or "no backups"
    emit(args, {"backups": rows}, text)
    return 0


def cmd_backup_restore(args: argparse.Namespace) -> int:
    from companion import operations
    from companion.operations.backup_moments import describe_backups, mid_night_warning

    try:
        backups = describe_backups(Path(args.path),
                                   extra_content=[Path(p) for p in args.content])
        if not 1 <= args.number <= len(backups):
            return refuse(Exception(f"there is no backup number {args.number}; "
                                      f"'backup list' shows {len(backups)}"))
        chosen = backups[args.number - 1]
        warning = mid_night_warning(chosen)
        if warning:  # said first, before the file changes
            say(f"warning: {warning}", err=True)
        campaign = operations.restore_backup(Path(args.path), chosen.info)
        campaign.close()
    except operations.Refused as exc:
        return refuse(exc)
    emit(args, {"restored": str(chosen.info.path), "mid_night": chosen.moment.night},
          f"Restored backup {args.number} ({chosen.moment.label()}) into {args.path}")
    return 0


LARGE_EXPORT_ROWS = 100_000
"""Rows from which an export shows its progress even when standard error is no terminal."""
LARGE_IMPORT_BYTES = 32 * 2**20
"""Bytes from which an import shows its progress even when standard error is no terminal."""


def cmd_export(args: argparse.Namespace) -> int:
    from companion import operations

    if args.web_journal:
        from companion.cli import webjournal_cmd

        return webjournal_cmd.run_export(args)
    if not args.out:
        return refuse(operations.Refused("Name the export file (or --web-journal FILE)."))
    from companion.cli.progress import terminal_progress

    def export(campaign: Any) -> None:
        with terminal_progress("Exporting", large=LARGE_EXPORT_ROWS) as report:
            operations.export_campaign(campaign, Path(args.out), replace=args.force,
                                       report=report)

    return on_campaign(args, export,
                       lambda _: ({"exported": args.out}, f"Exported to {args.out}"))


def cmd_import(args: argparse.Namespace) -> int:
    from companion import operations
    from companion.cli import webjournal_cmd

    try:
        ours = operations.is_portable_import(Path(args.src))
    except operations.Refused as exc:
        return refuse(exc)
    if args.into or (not ours and webjournal_cmd.is_web_journal(Path(args.src))):
        return webjournal_cmd.run_import(args)
    if not args.dest:
        return refuse(operations.Refused("Name the new campaign file to import into."))
    from companion.cli.progress import terminal_progress

    try:
        with terminal_progress("Importing", large=LARGE_IMPORT_BYTES) as report:
            campaign = operations.import_campaign(
                Path(args.src), Path(args.dest), extra_content=[Path(p) for p in args.content],
                report=report)
        campaign.close()
    except operations.Refused as exc:
        return refuse(exc)
    emit(args, {"imported": args.dest}, f"Imported into {args.dest}")
    return 0


def cmd_check(args: argparse.Namespace) -> int:
    from companion import store

    report = store.check_campaign(Path(args.path))
    data = report.to_dict()
    emit(args, {"check": data}, "\n".join(f"{k}: {v}" for k, v in data.items()))
    return 0 if report.ok else 1


def register(sub: Any) -> None:
    """Add the campaign commands to the ``companion`` parser."""
    campaign_sub = command_family(sub, "campaign", "create campaigns", "campaign_command")
    new = campaign_sub.add_parser("new", help="create a new campaign file")
    new.add_argument("name", help="the society's name")
    new.add_argument("--players", type=int, default=2)
    new.add_argument("--characters", type=int, default=None,
                     help="character count (default: one per player)")
    new.add_argument("--solo", choices=["none", "multi", "hardcore"], default=None)
    new.add_argument("--file", help="where to write it (default: the campaigns folder)")
    kind = new.add_mutually_exclusive_group()
    kind.add_argument("--pack", default=None,
                      help="content pack id (default: sample, the demo campaign)")
    kind.add_argument("--box", action="store_true",
                      help="my own box: the rules alone; the app learns your box as you "
                           "play (tiles and cards are typed in once, as they come up)")
    new.add_argument("--seed", type=int, default=None, help="seed of the app's dice")
    new.add_argument("--json", action="store_true")
    new.add_argument("--content", action="append", default=[], metavar="PATH")
    new.set_defaults(func=_new_defaults)

    with_path(sub.add_parser("status", help="the dials and headline facts")) \
        .set_defaults(func=cmd_status)

    journal_sub = command_family(sub, "journal", "read or write the journal",
                                 "journal_command")
    add = with_path(journal_sub.add_parser("add", help="write a free-text entry"))
    add.add_argument("text")
    add.add_argument("--author")
    add.set_defaults(func=cmd_journal_add)
    listing = with_path(journal_sub.add_parser("list", help="newest events first"))
    listing.add_argument("--limit", type=int, default=50)
    listing.set_defaults(func=cmd_journal_list)

    undo = with_path(sub.add_parser("undo", help="undo the last operation"))
    undo.add_argument("--to", metavar="SAVE_POINT", help="undo everything after a save point")
    undo.set_defaults(func=lambda a: _undo_redo(a, "undo"))
    point = with_path(sub.add_parser("savepoint", help="name this point in the history"))
    point.add_argument("name")
    point.set_defaults(func=cmd_save_point)
    with_path(sub.add_parser("redo", help="redo the last undone operation")) \
        .set_defaults(func=lambda a: _undo_redo(a, "redo"))

    backup_sub = command_family(sub, "backup", "list or restore automatic backups",
                                "backup_command")
    with_path(backup_sub.add_parser("list")).set_defaults(func=cmd_backup_list)
    restore = with_path(backup_sub.add_parser("restore"))
    restore.add_argument("number", type=int, help="the number 'backup list' shows")
    restore.set_defaults(func=cmd_backup_restore)

    export = with_path(sub.add_parser("export", help="export to one portable file"))
    export.add_argument("out", nargs="?")
    export.add_argument("--web-journal", metavar="FILE",
                        help="write a file the web Stonesaga Campaign Journal imports")
    export.add_argument("--force", action="store_true",
                        help="replace OUT even if it is a file that is not an export")
    export.set_defaults(func=cmd_export)

    imp = sub.add_parser("import", help="import a portable export or a web journal file")
    imp.add_argument("src")
    imp.add_argument("dest", nargs="?", help="the new campaign file")
    imp.add_argument("--into", metavar="CAMPAIGN",
                     help="import a web journal file into this existing campaign")
    imp.add_argument("--preview", action="store_true",
                     help="with --into: only say what would be added, differ or be there")
    imp.add_argument("--section", action="append", default=[], metavar="KEY=CHOICE",
                     help="with --into: newer (default), add, theirs or skip for a section")
    imp.add_argument("--json", action="store_true")
    imp.add_argument("--content", action="append", default=[], metavar="PATH")
    imp.set_defaults(func=cmd_import)

    check = sub.add_parser("check", help="integrity check of a campaign file")
    check.add_argument("path")
    check.add_argument("--json", action="store_true")
    check.set_defaults(func=cmd_check)


def _new_defaults(args: argparse.Namespace) -> int:
    if args.solo is None:
        args.solo = "hardcore" if args.characters == 1 else (
            "multi" if args.players == 1 else "none")
    if args.characters is None:
        args.characters = 1 if args.solo == "hardcore" else max(args.players, 2)
    return cmd_new(args)
