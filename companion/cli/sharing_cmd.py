"""Headless sharing of one campaign between machines (issue 38), the GUI's File ▸ Share
Campaign… and Join a Shared Campaign…, and the status bar's sync:

    companion share CAMPAIGN FOLDER [--name "Bryn's laptop"]
    companion join FOLDER [--file PATH] [--name NAME]
    companion sync CAMPAIGN [--json] [--name NAME]
    companion sync CAMPAIGN --conflicts
    companion sync CAMPAIGN --settle N --side here|theirs
"""

from __future__ import annotations

import argparse
import dataclasses
from pathlib import Path
from typing import Any

from companion.cli.campaign_command import emit, on_campaign, with_path
from companion.cli.terminal import refuse


def _report(report: Any) -> tuple[dict[str, Any], str]:
    data = dataclasses.asdict(report)
    data["offline_since"] = (report.offline_since.isoformat()
                             if report.offline_since is not None else None)
    lines = [report.words]
    if report.published:
        lines.append(f"{report.published} change(s) of this machine written to the folder")
    if report.deferred:
        lines.append(report.deferred)
    if report.waiting:
        lines.append(f"{report.waiting} change(s) wait for earlier ones still on their way")
    lines += [f"warning: {line}" for line in (*report.newer, *report.refused)]
    return data, "\n".join(lines)


def _conflicts(found: list[Any]) -> tuple[dict[str, Any], str]:
    data = {"conflicts": [dataclasses.asdict(c) for c in found]}
    if not found:
        return data, "No conflict to settle."
    lines = [f"{c.number}. {c.words}" for c in found]
    lines.append("Settle one with: companion sync CAMPAIGN --settle N --side here|theirs")
    return data, "\n".join(lines)


def _naming_hint(args: argparse.Namespace, machine_name: str, campaign: str) -> str:
    """Without --name the machine goes by this computer's host name ("vm"), which tells
    the others little in a conflict ("On vm: …"): say how to give it a real one."""
    if args.name:
        return ""
    return (f"\nThe others see this machine as \"{machine_name}\" (this computer's name). "
            f"To call it something they will know, run: companion sync {campaign} "
            "--name \"Bryn's laptop\"")


def cmd_share(args: argparse.Namespace) -> int:
    from companion.operations import sharing

    def shown(status: Any) -> tuple[dict[str, Any], str]:
        return ({"folder": str(status.folder), "machine": status.machine,
                 "machine_name": status.machine_name},
                f"Shared through {status.folder} as {status.machine_name}. Play on; every "
                "change is written there, and the others' are taken in by 'companion sync'."
                + _naming_hint(args, status.machine_name, args.path))

    return on_campaign(args, lambda c: sharing.share(c, Path(args.folder),
                                                     machine_name=args.name), shown)


def cmd_join(args: argparse.Namespace) -> int:
    from companion import operations
    from companion.operations import sharing

    try:
        campaign = sharing.join(Path(args.folder), Path(args.file) if args.file else None,
                                machine_name=args.name,
                                extra_content=[Path(p) for p in args.content])
    except operations.Refused as exc:
        return refuse(exc)
    path = campaign.path
    status = sharing.sharing_status(campaign)
    campaign.close()
    words = status.words if status else "Up to date"
    machine_name = status.machine_name if status else ""
    emit(args, {"path": str(path), "words": words},
         f"Joined: the campaign is {path} ({words})."
         + _naming_hint(args, machine_name, str(path)))
    return 0


def cmd_sync(args: argparse.Namespace) -> int:
    from companion.operations import sharing

    if args.settle is not None:
        if args.side is None:
            from companion import operations

            return refuse(operations.Refused("Say which side to keep: --side here or "
                                             "--side theirs."))
        return on_campaign(args, lambda c: sharing.settle(c, args.settle, args.side,
                                                          during_procedure="merge"),
                           _report)
    if args.conflicts:
        return on_campaign(args, sharing.conflicts, _conflicts)

    def run(campaign: Any) -> Any:
        if args.name:
            sharing.set_machine_name(campaign, args.name)
        # Asked for at the terminal: merged even during a procedure, and said so.
        return sharing.sync(campaign, during_procedure="merge")

    return on_campaign(args, run, _report)


def register(sub: Any) -> None:
    share = with_path(sub.add_parser(
        "share", help="share a campaign through a folder the group's sync tool keeps in "
        "step (Syncthing, Dropbox, Drive, OneDrive, a USB stick)"))
    share.add_argument("folder", help="the shared folder (never put the campaign file "
                                      "itself there)")
    share.add_argument("--name", help="this machine's name, as the others see it "
                                      "(\"Bryn's laptop\")")
    share.set_defaults(func=cmd_share)

    join = sub.add_parser("join", help="make this machine's copy of a campaign shared "
                                       "in a folder")
    join.add_argument("folder", help="the shared folder")
    join.add_argument("--file", metavar="PATH", help="the new campaign file (default: in "
                                                     "the data folder)")
    join.add_argument("--name", help="this machine's name, as the others see it")
    join.add_argument("--json", action="store_true", help="machine-readable output")
    join.add_argument("--content", action="append", default=[], metavar="PATH",
                      help="an extra content pack folder")
    join.set_defaults(func=cmd_join)

    sync = with_path(sub.add_parser(
        "sync", help="write this machine's changes to the shared folder and take in the "
        "others'; list or settle conflicts"))
    sync.add_argument("--name", help="rename this machine, as the others see it")
    sync.add_argument("--conflicts", action="store_true",
                      help="list the conflicts to settle, both sides in words")
    sync.add_argument("--settle", type=int, metavar="N", help="settle conflict N")
    sync.add_argument("--side", choices=("here", "theirs"),
                      help="the side a settled conflict keeps")
    sync.set_defaults(func=cmd_sync)
