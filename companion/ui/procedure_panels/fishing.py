"""The fishing panel: stock, water, dice and outcome (Rulebook: Fishing)."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QLabel, QTableWidget, QVBoxLayout, QWidget

import companion.ui.procedure_panels.panel as panel


class FishingPanel(panel.ProcedurePanel):
    """Stock, water, dice and outcome of a fishing activity (Rulebook: Fishing)."""

    def build(self, layout: QVBoxLayout, font: QFont) -> None:
        self.terrain = QLabel()
        self.terrain.setWordWrap(True)
        layout.addWidget(self.terrain)
        self.stock_title = panel.heading("Stock: not drawn yet", font)
        layout.addWidget(self.stock_title)
        self.stock = panel.make_table(["Line", "Base", "Contents", "Outcome", "Final", "Collected"],
                                stretch=[2])
        layout.addWidget(self.stock)
        self.water_title = panel.heading("Water: not drawn yet", font)
        layout.addWidget(self.water_title)
        self.water = panel.make_table(["Location", "Holds", "Lines", "Dice placed", "Struck"],
                                stretch=[3])
        layout.addWidget(self.water)
        self.dice = QLabel()
        self.dice.setFont(panel.scaled_font(font, 1.1, bold=True))
        layout.addWidget(self.dice)
        self.results_title = panel.heading("What happened", font)
        layout.addWidget(self.results_title)
        self.results = QLabel()
        self.results.setWordWrap(True)
        self.results.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.results)
        layout.addStretch(1)

    def in_focus(self, procedure: Any) -> QWidget | None:
        """Once the dice are rolled, the strike locations they go on and strike from
        (with a larger text only the stock showed while the dice were placed; issue 27
        item 13)."""
        return self.water if getattr(procedure, "dice", None) is not None and \
            not self.water.isHidden() else None

    def show_procedure(self, procedure: Any) -> None:
        p = procedure
        terrain = p.fishing
        choice = " (choose one)" if terrain.bonus_choice and len(terrain.bonus) > 1 else ""
        self.terrain.setText(
            f"{p.character} fishes at the {p.terrain}. Bonus here: "
            f"{panel.effects_text(terrain.bonus)}{choice}. "
            f"Mishap: {panel.effects_text(terrain.mishap)}.")
        outcome = p.card(p.outcome_card) if p.outcome_card else None
        self.show_card(self.stock_title, self.stock, "Stock", p.stock,
                       self.stock_rows(p, outcome) if p.stock else [])
        self.show_card(self.water_title, self.water, "Water", p.water,
                       self.water_rows(p) if p.water else [],
                       f"   ·   Outcome: {p.outcome_card}" if outcome else "")
        if p.dice is not None:
            placed = sum(len(x) for x in p.placed)
            left = min(len(p.dice), sum(loc.size for loc in p.locations)) - placed
            self.dice.setText("Dice rolled: " + "  ".join(map(str, p.dice))
                              + (f"   ({left} still to place)" if left > 0 else ""))
        else:
            self.dice.setText(f"Dice: {p.dice_count} to roll")
        log = [line for line in p.tally.log
               if not line.startswith(("Stock:", "Water:", "Outcome:", "Rolled", "Placed"))]
        self.results_title.setVisible(bool(log))
        self.results.setText("\n".join(log))

    @staticmethod
    def show_card(title: QLabel, table: QTableWidget, name: str, card: str | None,
                  rows: list[list[str]], more: str = "") -> None:
        """The stock or the water card: its table under its id, or no table until drawn."""
        if card:
            title.setText(f"{name}: {card}{more}")
            panel.fill_table(table, rows)
            table.show()
        else:
            title.setText(f"{name}: not drawn yet")
            table.hide()

    @staticmethod
    def stock_rows(p: Any, outcome: Any) -> list[list[str]]:
        """Each line of the stock card: its base, contents, the outcome's modifier."""
        rows = []
        for line, target in p.card(p.stock).targets.items():
            modifier = outcome.modifiers[line] if outcome is not None else None
            rows.append([
                line.value,
                str(target.difficulty),
                panel.effects_text(target.contents),
                modifier_text(modifier) if modifier is not None else "not drawn",
                str(modifier.apply(target.difficulty)) if modifier is not None else "",
                "yes" if line in p.collected else "",
            ])
        return rows

    @staticmethod
    def water_rows(p: Any) -> list[list[str]]:
        """Each strike location of the water card: its size, lines and dice placed."""
        rows = []
        for index, location in enumerate(p.locations):
            placed = p.placed[index] if index < len(p.placed) else ()
            rows.append([
                str(index + 1),
                f"{location.size} {'die' if location.size == 1 else 'dice'}",
                ", ".join(line.value for line in location.lines),
                " + ".join(map(str, placed)) + (f" = {sum(placed)}" if len(placed) > 1
                                                 else ""),
                "yes" if index in p.struck else "",
            ])
        return rows


def modifier_text(modifier: Any) -> str:
    """A fishing outcome's modifier in words: its sign and value, then anything extra."""
    text = f"{modifier.op}{modifier.value}"
    return f"{text} {modifier.extra}" if modifier.extra else text
