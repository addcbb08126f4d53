"""What a procedure in progress looks like on the table, one panel per kind.

Contract: ``panel_for(kind)`` returns a :class:`ProcedurePanel`; the dialog calls
``show_procedure(procedure)`` with the procedure object restored read-only by
:func:`load_procedure` (never written). Fishing and mining lay out their cards, chips
and dice; foraging draws its tableau (and the cards on offer), delving its path of
cards; any other kind shows its ``describe()`` text. Panels show only what the
procedure holds: nothing is drawn or guessed for display.

One module per procedure's panel (``fishing``, ``mining``, ``foraging``, ``delving``),
above the shared ``panel`` base and the painted ``board`` two of them draw on; this
package face is the registry and keeps every public name importable from here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtGui import QFont

from companion.ui.procedure_panels.board import Board, BoardItem
from companion.ui.procedure_panels.delving import DelveBoard, DelveCardView, DelvingPanel
from companion.ui.procedure_panels.fishing import FishingPanel
from companion.ui.procedure_panels.foraging import (
    ROW_NAMES,
    CardView,
    ForagingPanel,
    SpotView,
    TableauBoard,
)
from companion.ui.procedure_panels.mining import MiningPanel
from companion.ui.procedure_panels.panel import (
    ProcedurePanel,
    cell_texts,
    effects_text,
    fill_table,
    heading,
    make_table,
    scaled_font,
    use_font,
)

if TYPE_CHECKING:
    from companion.operations import Campaign

__all__ = [
    "ROW_NAMES",
    "Board",
    "BoardItem",
    "CardView",
    "DelveBoard",
    "DelveCardView",
    "DelvingPanel",
    "FishingPanel",
    "ForagingPanel",
    "MiningPanel",
    "ProcedurePanel",
    "SpotView",
    "TableauBoard",
    "cell_texts",
    "effects_text",
    "fill_table",
    "heading",
    "load_procedure",
    "make_table",
    "panel_for",
    "scaled_font",
    "use_font",
]

PANELS: dict[str, type[ProcedurePanel]] = {
    "fishing": FishingPanel,
    "mining": MiningPanel,
    "foraging": ForagingPanel,
    "delving": DelvingPanel,
}
"""The panel of each kind of procedure that has one of its own."""


def load_procedure(campaign: Campaign) -> Any | None:
    """The procedure in progress as its rules object (read-only), or None."""
    from companion.operations import Refused, procedures

    try:
        return procedures.current(campaign)
    except Refused:
        return None


def panel_for(kind: str, font: QFont | None = None) -> ProcedurePanel:
    """The panel that lays out a procedure of ``kind``, in ``font``."""
    return PANELS.get(kind, ProcedurePanel)(font)
