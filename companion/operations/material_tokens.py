"""Material tokens entered in a minute (Rulebook: Tokens > Material Tokens; Processing &
Crafting > Crafting Items; issue 25 part 6).

A group with the real box enters a material token as it lies on the table: its name,
category and size, and on each side (unprocessed, with the arrow; processed) the pips on
each of its four edges: a colour of the rules file's ``crafting.pip_colours`` and a
count from 0 (the null pip) to 9, or a bare edge. It goes into the owner's own pack as a
material (``operations.cards.enter_card``: one undoable operation, carried in the
campaign file), and the crafting explorer reads codes with it at once.

The GUI's token editor (``ui/material_token.py``) and the CLI (``companion material
add``) share :func:`material_from_typed` and :func:`parse_edge`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from companion.content import Content
from companion.content.schema.base import Edge
from companion.content.schema.world import MaterialCategory
from companion.operations.changes import Changes, Refused
from companion.operations.core import Campaign

EDGES: tuple[str, ...] = tuple(e.value for e in (Edge.TOP, Edge.RIGHT, Edge.BOTTOM, Edge.LEFT))
"""A token's four edges, clockwise from the top."""
SIDES = ("unprocessed", "processed")
MAX_PIPS = 9
"""Pips on one edge: 0 (the null pip) to 9, as a code's digits run."""

EdgePips = Mapping[str, "tuple[str, int] | None"]
"""edge -> (colour, count), or None for a bare edge."""


def pip_colours(content: Content) -> tuple[str, ...]:
    """The pip colours the rules file lists (its ``crafting.pip_colours``), in order."""
    return tuple(c.value for c in content.rules.crafting.pip_colours)


def parse_edge(text: str) -> tuple[str, tuple[str, int] | None]:
    """An edge as typed: ``left=blue 2``, ``top=yellow1``, ``right=red 0`` (the null
    pip), ``bottom=bare``.

    >>> parse_edge("left=Blue 2")
    ('left', ('blue', 2))
    >>> parse_edge("bottom=bare")
    ('bottom', None)
    """
    edge, equals, rest = text.partition("=")
    edge = edge.strip().casefold()
    if not equals or edge not in EDGES:
        raise Refused(f"Write an edge as EDGE=COLOUR COUNT, e.g. 'left=blue 2' (edges: "
                      f"{', '.join(EDGES)}; 'bare' for none); got '{text}'.")
    words = rest.strip().casefold()
    if words in ("", "bare", "none", "-"):
        return edge, None
    match = re.fullmatch(r"([a-z]+)\s*(\d+)", words)
    if not match:
        raise Refused(f"The {edge} edge is a colour and a count, e.g. 'blue 2'; got "
                      f"'{rest.strip()}'.")
    return edge, (match[1], int(match[2]))


def _side(content: Content, edges: EdgePips, side: str) -> dict[str, Any]:
    colours = pip_colours(content)
    out: dict[str, Any] = {}
    for edge, pip in edges.items():
        if edge not in EDGES:
            raise Refused(f"A token's edges are {', '.join(EDGES)}; not '{edge}'.")
        if pip is None:
            continue
        colour, count = pip[0].strip().casefold(), int(pip[1])
        colour = "grey" if colour == "gray" else colour
        if colour not in colours:
            raise Refused(f"The {side} side's {edge} edge: {colour} is not a pip colour of "
                          f"the rules file ({', '.join(colours)}).")
        if not 0 <= count <= MAX_PIPS:
            raise Refused(f"The {side} side's {edge} edge: an edge shows 0 to {MAX_PIPS} "
                          f"pips, not {count}.")
        out[edge] = {"colour": colour, "count": count}
    return {"edges": out}


def _material_id(content: Content, name: str) -> str:
    slug = re.sub(r"[^a-z0-9]+", "-", name.casefold()).strip("-") or "material"
    found, number = slug[:60], 2
    while found in content.materials or found in content.foods:
        found, number = f"{slug[:56]}-{number}", number + 1
    return found


def material_from_typed(content: Content, *, name: str, category: str = "vegetable",
                        size: str = "small", unprocessed: EdgePips | None = None,
                        processed: EdgePips | None = None, material_id: str | None = None
                        ) -> dict[str, Any]:
    """A material token as the own pack writes it, from what the token shows (Refused in
    the token's words when a colour, count, category or size does not fit)."""
    name = " ".join(name.split())
    if not name:
        raise Refused("A material token needs its name.")
    try:
        kind = MaterialCategory(category.strip().casefold())
    except ValueError:
        raise Refused(f"A material is animal, mineral, vegetable (plant) or rare; not "
                      f"'{category}'.") from None
    if size not in ("small", "large"):
        raise Refused(f"A material token is small or large; not '{size}'.")
    known = next((m for m in content.materials.values()
                  if m.name.casefold() == name.casefold()), None)
    if known is not None and material_id is None:
        raise Refused(f"The app knows the material {known.name} already.")
    return {"id": material_id if material_id is not None else _material_id(content, name),
            "name": name,
            "category": kind.value, "size": size,
            "unprocessed": _side(content, unprocessed or {}, "unprocessed"),
            "processed": _side(content, processed or {}, "processed")}


def add_material(campaign: Campaign, *, name: str, category: str = "vegetable",
                 size: str = "small", unprocessed: EdgePips | None = None,
                 processed: EdgePips | None = None, material_id: str | None = None
                 ) -> Changes:
    """Enter a material token into the owner's own pack (one undoable operation, the
    token carried in the campaign file); ``Changes.detail`` is its id. ``material_id``:
    the id a card or a typed line already names it by (entered on the spot, issue 36
    item 2), else one made from its name."""
    from companion.operations.cards import enter_card

    if material_id is not None and (material_id in campaign.content.materials or
                                    material_id in campaign.content.foods):
        raise Refused(f"Your pack knows {material_id} already.")
    data = material_from_typed(campaign.content, name=name, category=category, size=size,
                               unprocessed=unprocessed, processed=processed,
                               material_id=material_id)
    return enter_card(campaign, kind="materials", data=data)


def edges_of(typed: Sequence[str]) -> dict[str, tuple[str, int] | None]:
    """``--edge`` texts as edge -> pip (each edge once)."""
    out: dict[str, tuple[str, int] | None] = {}
    for text in typed:
        edge, pip = parse_edge(text)
        if edge in out:
            raise Refused(f"The {edge} edge is given twice.")
        out[edge] = pip
    return out
