"""Material tokens entered from the terminal (Rulebook: Tokens > Material Tokens;
Processing & Crafting > Crafting Items; issue 25 part 6), into the campaign's own pack:

    companion material add PATH NAME [--category vegetable] [--size small]
        [--edge left=blue 2 ...] [--processed-edge top=yellow 1 ...] [--json]

Each ``--edge`` is one edge of the unprocessed side (the one with the arrow): EDGE=COLOUR
COUNT, 0 (the null pip) to 9 pips, a colour of the rules file; an edge not given is bare.
The crafting explorer (``companion codes PATH --material A --with B``) reads codes with
it at once. Refusals print ``refused: <reason>`` and change nothing.
"""

from __future__ import annotations

import argparse
from typing import Any

from companion.cli.campaign_command import command_family, on_campaign, with_path


def cmd_material_add(args: argparse.Namespace) -> int:
    from companion.operations.material_tokens import add_material, edges_of

    def call(campaign: Any) -> tuple[Any, Any]:
        changes = add_material(campaign, name=args.name, category=args.category,
                               size=args.size, unprocessed=edges_of(args.edge),
                               processed=edges_of(args.processed_edge))
        card = campaign.content.materials[str(changes.detail)]
        return changes, card.model_dump(mode="json", exclude_defaults=True)

    return on_campaign(args, call, lambda added: (
        {"summary": added[0].summary, "material": added[1]}, added[0].summary))


def register(sub: Any) -> None:
    """Add ``material add``."""
    material_sub = command_family(sub, "material", "material tokens: enter one from the table",
                                  "material_command")
    add = with_path(material_sub.add_parser(
        "add", help="enter a material token (its edge pips) into your own pack"))
    add.add_argument("name", help="the material's name, as the token shows it")
    add.add_argument("--category", default="vegetable",
                     help="animal, mineral, vegetable (plant) or rare (default: vegetable)")
    add.add_argument("--size", default="small", choices=("small", "large"))
    add.add_argument("--edge", action="append", default=[], metavar="EDGE=COLOUR COUNT",
                     help="an edge of the unprocessed side, e.g. 'left=blue 2' "
                          "(top, right, bottom, left; 0-9 pips; repeatable)")
    add.add_argument("--processed-edge", action="append", default=[],
                     metavar="EDGE=COLOUR COUNT",
                     help="an edge of the processed side (repeatable)")
    add.set_defaults(func=cmd_material_add)
