"""``companion map PATH --png OUT.png [--width N] [--grid]``: the valley map, headless.

Draws the valley as the GUI's map shows it into a PNG (offscreen: ``QT_QPA_PLATFORM`` is
set to ``offscreen`` when there is no display) and, with ``--grid``, prints the journal's
Valley Map (hex IDs in grid rows) and writes it next to the PNG as ``OUT.grid.txt``.
Without ``--png`` only the grid is printed.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

from companion.cli.campaign_command import emit, open_campaign, with_path
from companion.cli.terminal import refuse

DEFAULT_WIDTH = 1600


def _headless() -> None:
    """Render offscreen when no display is available (a server, CI, an SSH session)."""
    if os.environ.get("QT_QPA_PLATFORM"):
        return
    has_display = os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")
    if sys.platform.startswith("linux") and not has_display:
        os.environ["QT_QPA_PLATFORM"] = "offscreen"


def _map_view() -> Any:
    # The renderer is the GUI's own map (Qt), imported only when a PNG is asked for, as
    # companion.cli.gui imports the window only to launch it.
    from companion.ui import map_view  # lazily: the map is drawn with Qt

    return map_view


def write_png(campaign: Any, out: Path, *, width: int = DEFAULT_WIDTH) -> tuple[int, int]:
    """Render ``campaign``'s valley to ``out``; returns the image size."""
    _headless()
    width_, height = _map_view().render_valley_png(campaign, out, width=width)
    return int(width_), int(height)


def grid_text(campaign: Any) -> str:
    """The journal's Valley Map as text."""
    return str(_map_view().grid_text(campaign))


def cmd_map(args: argparse.Namespace) -> int:
    from companion import operations

    if args.width < 64:
        refuse("--width is at least 64 pixels")
        return 2
    try:
        with open_campaign(args) as campaign:
            data: dict[str, Any] = {}
            lines = []
            if args.png:
                size = write_png(campaign, Path(args.png), width=args.width)
                data.update(png=str(args.png), width=size[0], height=size[1])
                lines.append(f"wrote {args.png} ({size[0]}x{size[1]})")
            if args.grid or not args.png:
                grid = grid_text(campaign)
                data["grid"] = grid.splitlines()
                if args.png:
                    grid_file = Path(args.png).with_suffix(".grid.txt")
                    grid_file.write_text(grid + "\n", encoding="utf-8")
                    data["grid_file"] = str(grid_file)
                    lines.append(f"wrote {grid_file}")
                lines.append(grid)
    except operations.Refused as exc:
        return refuse(exc)
    except OSError as exc:
        return refuse(exc)
    emit(args, data, "\n".join(lines))
    return 0


def register(sub: Any) -> None:
    """Add ``companion map`` to the ``companion`` parser."""
    parser = with_path(sub.add_parser(
        "map", help="draw the valley map as a PNG and/or print the journal's grid of hex IDs"))
    parser.add_argument("--png", metavar="OUT.png", help="write the map to this PNG file")
    parser.add_argument("--width", type=int, default=DEFAULT_WIDTH,
                        help=f"image width in pixels (default {DEFAULT_WIDTH})")
    parser.add_argument("--grid", action="store_true",
                        help="also print the journal's Valley Map (and write OUT.grid.txt)")
    parser.set_defaults(func=cmd_map)
