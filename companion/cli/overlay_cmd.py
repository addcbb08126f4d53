"""``companion overlay PATH --hex ID --section A|B|C --overlay ID``: a game effect places an
overlay on one section of an explored hex (Rulebook: Valley > Overlays), as the Valley
tab's "Place overlay" does. Without ``--overlay`` it lists the overlays a game effect may
place and where they are already.
"""

from __future__ import annotations

import argparse
from typing import Any

from companion.cli.campaign_command import emit, open_campaign, with_path
from companion.cli.terminal import refuse


def cmd_overlay(args: argparse.Namespace) -> int:
    from companion import operations
    from companion.operations.exploration import overlay_choices, place_overlay

    try:
        with open_campaign(args) as campaign:
            if args.overlay is None:
                rows = overlay_choices(campaign)
                lines = [f"{r['id']}: {r['name']}"
                         + (f" (on {r['placed_on']})" if r["placed_on"] else "")
                         for r in rows] or ["No overlay here is placed by a game effect."]
                emit(args, {"overlays": rows}, "\n".join(lines))
                return 0
            if args.hex is None or args.section is None:
                return refuse(operations.Refused(
                    "say which hex (--hex) and section (--section A, B or C) it covers"))
            changes = place_overlay(campaign, hex_id=args.hex, section=args.section,
                                    overlay=args.overlay)
    except operations.Refused as exc:
        return refuse(exc)
    emit(args, {"summary": changes.summary, "hex": args.hex,
                 "section": args.section.lower(), "overlay": args.overlay}, changes.summary)
    return 0


def register(sub: Any) -> None:
    """Add ``companion overlay`` to the ``companion`` parser."""
    parser = with_path(sub.add_parser(
        "overlay", help="a game effect places an overlay on a section of an explored hex "
        "(without --overlay: list the overlays it may place)"))
    parser.add_argument("--hex", help="the explored hex's tile id")
    parser.add_argument("--section", help="the section it covers: A, B or C")
    parser.add_argument("--overlay", help="the overlay's id (see the list)")
    parser.set_defaults(func=cmd_overlay)
