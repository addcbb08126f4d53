"""``companion import FILE`` and ``companion export --web-journal`` for the web app
"Stonesaga Campaign Journal" (its argument parsing lives with the other campaign
commands in ``campaign_cmd``; these run the web-journal side).

    companion import journal.json new.stonesaga  # a new campaign, and a report
    companion import journal.json                # ... in the campaigns folder
    companion import journal.json --into old.stonesaga --preview
    companion import journal.json --into old.stonesaga --section codes=theirs \
        --section notes=skip   # (default for each section: newer, the Journal's rule)
    companion export old.stonesaga --web-journal journal.json

``--json`` prints the report (or the preview) as JSON: ``{"format": 1, "import": {...}}``
with per section ``added``, ``conflicts``, ``already_there`` and ``choice`` (and, in a
report, ``kept_here``, ``taken_from_the_journal`` and ``deleted``), and per differing
entry what the merge does (``outcomes``).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from companion.cli.campaign_command import emit, open_campaign
from companion.cli.terminal import refuse


def is_web_journal(src: Path) -> bool:
    """Whether ``src`` is a web-journal file (see ``store.webjournal``)."""
    from companion.store.webjournal import is_web_journal_file

    return is_web_journal_file(src)


def parse_choices(values: list[str]) -> dict[str, str]:
    """``["codes=theirs", "notes=skip"]`` -> a choice per section (refused if unknown)."""
    from companion.operations import Refused
    from companion.operations.webjournal import CHOICES, SECTIONS

    choices = {}
    for value in values:
        key, _, choice = value.partition("=")
        if key not in SECTIONS or choice not in CHOICES:
            raise Refused(f"'{value}' is not a section choice: write SECTION=CHOICE with a "
                          f"section of {', '.join(SECTIONS)} and a choice of "
                          f"{', '.join(CHOICES)}.")
        choices[key] = choice
    return choices


def _plan_text(plan: Any, choices: dict[str, str]) -> str:
    from companion.operations import webjournal

    lines = [f"Importing {plan.source.name} ({plan.document.shape}) would:"]
    for s in plan.summary(choices):
        if s.added or s.conflicts or s.already:
            lines.append(f"  {s.title} [{s.key}={s.choice}]: {s.added} new, {s.conflicts} "
                         f"differing, {s.already} already there -> {s.home}")
    for item in plan.conflicts():
        choice = choices.get(item.section, webjournal.DEFAULT_CHOICE)
        lines.append(f"  differs: {item.label} ({item.detail}) -> {item.outcome(choice)}")
    for what in plan.not_imported():
        lines.append(f"  not imported: {what}")
    lines.append("Choose per section with --section KEY=newer|add|theirs|skip (newer: the "
                 "newer copy of each entry wins, as the Journal merges).")
    return "\n".join(lines)


def run_import(args: argparse.Namespace) -> int:
    """Import a web-journal file: into a new campaign (``dest``) or ``--into`` one."""
    from companion import operations
    from companion.operations import webjournal

    src = Path(args.src)
    try:
        choices = parse_choices(args.section)
        if args.into:
            with operations.open_campaign(Path(args.into), extra_content=[
                    Path(p) for p in args.content]) as campaign:
                plan = webjournal.preview(campaign, src)
                if args.preview:
                    emit(args, {"preview": plan.to_dict(choices)}, _plan_text(plan, choices))
                    return 0
                changes = webjournal.apply(campaign, plan, choices)
                report = changes.detail
        else:
            if args.preview:
                raise operations.Refused("--preview needs --into CAMPAIGN (a new campaign "
                                         "takes everything).")
            from companion import paths

            # No file named: a new campaign in the campaigns folder, named after the file.
            dest = Path(args.dest) if args.dest else \
                paths.campaigns_dir() / f"{src.stem}{paths.CAMPAIGN_SUFFIX}"
            campaign, report = webjournal.import_new(
                src, dest, extra_content=[Path(p) for p in args.content])
            campaign.close()
    except operations.Refused as exc:
        return refuse(exc)
    assert isinstance(report, webjournal.ImportReport)
    emit(args, {"import": report.to_dict()}, "\n".join(report.lines()))
    return 0


def run_export(args: argparse.Namespace) -> int:
    """Write the campaign as a web-journal version 5 file (the newest the Journal reads)."""
    from companion import operations
    from companion.operations import webjournal_export

    try:
        with open_campaign(args) as campaign:
            counts = webjournal_export.export_web_journal(campaign, Path(args.web_journal))
    except operations.Refused as exc:
        return refuse(exc)
    text = f"Wrote {args.web_journal} for the Stonesaga Campaign Journal: " + ", ".join(
        f"{n} {what}" for what, n in counts.items() if n)
    emit(args, {"exported": args.web_journal, "web_journal": counts}, text)
    return 0

