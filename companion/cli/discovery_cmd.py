"""``companion discovery PATH``: draw the Discovery card due after a move (Rulebook:
Actions > Move; Explore; Valley Decks > Discovery).

``--card`` is the card the table drew, by id or by name (any case); without it the app
draws from the campaign's shuffled Discovery deck. ``--enter-card FILE`` first enters a
Discovery card the campaign does not know (YAML) into your own pack, then draws it.
"""

from __future__ import annotations

import argparse
from typing import Any

from companion.cli.campaign_cmd import _emit, _open, _refused, _with_path


def cmd_discovery(args: argparse.Namespace) -> int:
    import yaml

    from companion import operations
    from companion.cli.cards_cmd import _read_yaml, enter_from_yaml

    try:
        with _open(args) as campaign:
            card = args.card
            for source in args.enter_card or []:
                try:
                    data = _read_yaml(source)
                except (OSError, UnicodeDecodeError, ValueError, yaml.YAMLError) as exc:
                    raise operations.Refused(f"--enter-card: {exc}") from exc
                entered = enter_from_yaml(campaign, "discovery_cards", data, None)
                card = card or str(entered.detail)
                if not args.json:
                    print(entered.summary)
            changes = operations.draw_discovery(campaign, name=args.name, card=card)
    except operations.Refused as exc:
        return _refused(exc)
    _emit(args, {"summary": changes.summary}, changes.summary)
    return 0


def register(sub: Any) -> None:
    """Add ``companion discovery`` to the ``companion`` parser."""
    parser = _with_path(sub.add_parser(
        "discovery", help="draw the Discovery card due (typed by id or name, or by the app)"))
    parser.add_argument("--card", metavar="ID-OR-NAME",
                        help="the card the table drew (default: the app draws)")
    parser.add_argument("--name", metavar="CHARACTER",
                        help="who draws (default: the character the Discovery names)")
    parser.add_argument("--enter-card", action="append", metavar="FILE",
                        help="a Discovery card the campaign does not know, as YAML")
    parser.set_defaults(func=cmd_discovery)
