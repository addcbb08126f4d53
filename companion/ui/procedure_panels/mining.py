"""The mining panel: the bag of chips, the chips drawn and the current omen (Rulebook:
Mining)."""

from __future__ import annotations

from collections import Counter
from typing import Any

from PySide6.QtGui import QFont
from PySide6.QtWidgets import QLabel, QVBoxLayout

import companion.ui.procedure_panels.panel as panel


class MiningPanel(panel.ProcedurePanel):
    """The bag of chips, the chips drawn and the current omen (Rulebook: Mining)."""

    def build(self, layout: QVBoxLayout, font: QFont) -> None:
        self.header = QLabel()
        self.header.setWordWrap(True)
        self.header.setFont(panel.scaled_font(font, 1.1, bold=True))
        layout.addWidget(self.header)
        self.bag_title = panel.heading("In the bag", font)
        layout.addWidget(self.bag_title)
        self.bag = panel.make_table(["Chip", "Count", "Omen effect", "If the omen matches"],
                              stretch=[2, 3])
        layout.addWidget(self.bag)
        self.drawn_title = panel.heading("Drawn so far", font)
        layout.addWidget(self.drawn_title)
        self.drawn = QLabel()
        self.drawn.setWordWrap(True)
        layout.addWidget(self.drawn)
        layout.addStretch(1)

    def show_procedure(self, procedure: Any) -> None:
        p = procedure
        omens = ", ".join(o.value for o in p.omens) or "none"
        self.header.setText(
            f"{p.character} mines at the {p.feature}.   Current omen: {omens}.   "
            f"Chips pulled: {len(p.drawn)} of at most {p.max_draws}.")
        counts = Counter(c.label() for c in p.bag)
        first: dict[str, Any] = {}
        for chip in p.bag:
            first.setdefault(chip.label(), chip)
        rows = []
        for label, chip in first.items():
            rows.append([label, str(counts[label]), panel.effects_text(chip.effects)
                         if chip.effects else "", panel.effects_text(chip.match_effects)
                         if chip.match_effects else ""])
        self.bag_title.setText(f"In the bag: {len(p.bag)} chips")
        panel.fill_table(self.bag, rows)
        self.bag.setVisible(bool(rows))
        self.drawn.setText("\n".join(p.tally.log) or "Nothing yet.")
