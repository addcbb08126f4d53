"""The character sheet: one character's card and mantle board (Rulebook: Characters;
Mantle).

The ``*_slots`` / ``*_lines`` functions turn the rules' ``Character`` into what the
sheet shows; they need no window, so tests call them directly.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QFormLayout,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from companion.ui.widgets import Slot, SlotRow, heading

if TYPE_CHECKING:
    from companion.rules.character import Character

TOKEN_TEXT = {
    "minor_injury": ("Minor\ninjury", "Minor injury"),
    "major_injury": ("Major\ninjury", "Major injury"),
    "minor_disease": ("Minor\ndisease", "Minor disease"),
    "major_disease": ("Major\ndisease", "Major disease"),
}
SIDE_TEXT = {"unprocessed": "unprocessed", "processed": "processed", "fresh": "fresh",
             "fermented": "fermented", "plain": ""}


def health_slots(character: Character) -> list[Slot]:
    """The health track: tokens in the order suffered, then empty slots."""
    slots = []
    for number, token in enumerate(character.health, 1):
        short, long = TOKEN_TEXT.get(str(token), (str(token), str(token)))
        slots.append(Slot(short, str(token), f"Health slot {number}: {long}"))
    for number in range(len(character.health) + 1, character.health_max + 1):
        slots.append(Slot("empty", "", f"Health slot {number}: empty"))
    return slots


def health_summary(character: Character) -> str:
    """The health track in words, with the incapacitated state."""
    if not character.health:
        text = f"Unharmed: {character.health_max} empty slots"
    else:
        names = Counter(TOKEN_TEXT.get(str(t), ("", str(t)))[1].lower()
                        for t in character.health)
        text = ", ".join(f"{n} {name}" for name, n in names.items())
        text += f" ({len(character.health)} of {character.health_max} slots)"
    if character.incapacitated:
        text += ". Incapacitated: cannot take actions until revived"
    return text


def energy_slots(character: Character) -> list[Slot]:
    """The energy track: filled slots for the energy held, then empty ones."""
    return [
        Slot(str(n), "energy" if n <= character.energy else "",
             f"Energy slot {n}: {'energy' if n <= character.energy else 'empty'}")
        for n in range(1, character.energy_max + 1)
    ]


def boost_slots(character: Character, ability: Any) -> list[Slot]:
    """Boost tokens above one ability: minor shows 1, major shows 2."""
    return [Slot(f"+{face}", "boost_major" if face >= 2 else "boost_minor",
                 f"{'Major' if face >= 2 else 'Minor'} boost (+{face})")
            for face in character.boosts.get(ability, ())]


def item_lines(character: Character, content: Any) -> list[tuple[str, str]]:
    """(slot heading, what fills it) for hand, body and gear, free slots counted."""
    lines = []
    for slot, size in content.rules.item_slots.items():
        held = [content.items[i].name if i in content.items else str(i)
                for i, s in character.items if s == slot]
        free = max(0, size - len(held))
        parts = held + ([f"{free} free" if held else f"{free} free (empty)"] if free else [])
        lines.append((f"{str(slot).title()} ({len(held)}/{size})", ", ".join(parts)))
    return lines


def bag_lines(character: Character, content: Any) -> list[tuple[str, str]]:
    """(kind, tokens) of the bag: materials by side, food fresh/fermented, water."""
    groups: dict[str, Counter[str]] = {}
    headings = {"material": "Materials", "perishable_food": "Perishable food",
                "tough_food": "Tough food", "water": "Water"}
    for token in character.bag:
        kind = str(token.kind)
        if kind == "water":
            label = "water"
        else:
            table = content.materials if kind == "material" else content.foods
            name = table[token.name].name if token.name in table else token.name
            side = SIDE_TEXT.get(str(token.side), str(token.side))
            label = f"{name} ({side}{', large' if token.large else ''})"
        groups.setdefault(kind, Counter())[label] += 1
    lines = []
    for kind, title in headings.items():
        counts = groups.get(kind)
        if counts and kind == "water":
            total = sum(counts.values())
            lines.append((title, f"{total} token{'s' if total > 1 else ''}"))
        elif counts:
            lines.append((title, ", ".join(f"{label} ×{n}" if n > 1 else label
                                          for label, n in counts.items())))
    if not lines:
        lines.append(("Bag", "empty"))
    return lines


class CharacterSheet(QWidget):
    """One character's sheet, beside the Characters table."""

    legends_requested = Signal(str)
    """The player asked for this character's legend cards and mantle power."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setAccessibleName("Character sheet")
        self.title = heading("")
        self.title.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.subtitle = QLabel()
        self.subtitle.setWordWrap(True)
        # Rulebook: Legends; Mantle Power: the sheet opens the legend cards' dialog.
        self.legends_button = QPushButton("&Legends and Mantle Power…")
        self.legends_button.setAccessibleName("Legends and mantle power")
        self.legends_button.clicked.connect(
            lambda: self.legends_requested.emit(self.character.name if self.character else ""))
        self.no_selection = QLabel("Select a character in the table to see their sheet.")
        self.no_selection.setWordWrap(True)

        self.abilities_box = QGroupBox("Abilities and boosts")
        self.ability_grid = QGridLayout(self.abilities_box)
        self.ability_values: dict[str, QLabel] = {}
        self.boost_rows: dict[str, SlotRow] = {}
        from companion.content.schema.base import Ability

        for row, ability in enumerate(Ability):
            name = QLabel(ability.value.title())
            value = heading("", 1.1)
            value.setAccessibleName(ability.value.title())
            boosts = SlotRow(f"{ability.value.title()} boosts")
            self.ability_grid.addWidget(name, row, 0)
            self.ability_grid.addWidget(value, row, 1)
            self.ability_grid.addWidget(boosts, row, 2)
            self.ability_values[ability.value] = value
            self.boost_rows[ability.value] = boosts
        self.ability_grid.setColumnStretch(2, 1)
        self.boost_note = QLabel()
        self.boost_note.setWordWrap(True)
        self.ability_grid.addWidget(self.boost_note, len(Ability), 0, 1, 3)

        self.tracks_box = QGroupBox("Mantle: health and energy")
        tracks = QFormLayout(self.tracks_box)
        self.health = SlotRow("Health track")
        self.health_text = QLabel()
        self.health_text.setWordWrap(True)
        self.incapacitated = QLabel("Incapacitated")
        self.incapacitated.setStyleSheet(
            "QLabel { background: #a3231b; color: #ffffff; padding: 2px 6px; "
            "border-radius: 3px; font-weight: bold; }")
        self.incapacitated.setAccessibleName("Incapacitated")
        health_row = QHBoxLayout()
        health_row.addWidget(self.health)
        health_row.addWidget(self.incapacitated)
        health_row.addStretch(1)
        self.energy = SlotRow("Energy track")
        self.energy_text = QLabel()
        tracks.addRow("Health:", health_row)
        tracks.addRow("", self.health_text)
        tracks.addRow("Energy:", self.energy)
        tracks.addRow("", self.energy_text)

        self.details_box = QGroupBox("Traits, mantle, items and bag")
        self.details = QFormLayout(self.details_box)
        self.details.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)

        layout = QVBoxLayout(self)
        layout.addWidget(self.title)
        layout.addWidget(self.subtitle)
        layout.addWidget(self.legends_button, 0, Qt.AlignmentFlag.AlignLeft)
        layout.addWidget(self.no_selection)
        columns = QHBoxLayout()
        left = QVBoxLayout()
        left.addWidget(self.abilities_box)
        left.addWidget(self.tracks_box)
        left.addStretch(1)
        right = QVBoxLayout()
        right.addWidget(self.details_box)
        right.addStretch(1)
        columns.addLayout(left, 1)
        columns.addLayout(right, 1)
        layout.addLayout(columns)
        layout.addStretch(1)
        self.character: Character | None = None
        self.show_character(None, None)

    def show_character(self, character: Character | None, content: Any) -> None:
        """Show ``character`` (``None``: the "select a character" note)."""
        self.character = character
        for widget in (self.abilities_box, self.tracks_box, self.details_box, self.title,
                       self.subtitle, self.legends_button):
            widget.setVisible(character is not None)
        self.no_selection.setVisible(character is None)
        if character is None:
            return
        self.title.setText(character.name)
        status = "incapacitated" if character.incapacitated else "active"
        self.subtitle.setText(
            f"Played by {character.player} · {str(character.age).title()} · {status} · "
            f"Hex: {character.hex or 'not placed'}")
        for ability, label in self.ability_values.items():
            key = next(a for a in character.abilities if str(a) == ability)
            label.setText(str(character.abilities[key]))
            boosts = boost_slots(character, key)
            self.boost_rows[ability].set_slots(
                boosts, ", ".join(s.tooltip for s in boosts) or "no boosts")
            self.boost_rows[ability].setVisible(bool(boosts))
        any_boost = any(character.boosts.values())
        self.boost_note.setText("Boost tokens sit beside the ability: minor +1, major +2."
                                if any_boost else "No boost tokens (minor +1, major +2).")
        self.health.set_slots(health_slots(character), health_summary(character))
        self.health_text.setText(health_summary(character))
        self.incapacitated.setVisible(character.incapacitated)
        self.energy.set_slots(energy_slots(character),
                              f"{character.energy} of {character.energy_max} energy")
        self.energy_text.setText(f"{character.energy} of {character.energy_max} energy")
        self._fill_details(character, content)

    def _fill_details(self, character: Character, content: Any) -> None:
        while self.details.rowCount():
            self.details.removeRow(0)
        traits = ", ".join(content.traits[t].name if t in content.traits else str(t)
                           for t in character.traits)
        mantle = content.mantles.get(character.mantle) if character.mantle else None
        power = (content.mantle_powers.get(character.mantle_power)
                 if character.mantle_power else None)
        rows: list[tuple[str, str]] = [
            ("Traits:", traits or "none"),
            ("Mantle:", mantle.name if mantle else (character.mantle or "none")),
            ("Mantle power:", f"{power.name}: {power.text}" if power else
             (character.mantle_power or "none slotted")),
        ]
        # Rulebook: Fillable Cards: marks written on the card (Legends and Mantle Power…
        # writes one by hand; effects with the 'mark' step write them too).
        rows.append(("Marks:", ", ".join(character.marks) or "none"))
        rows += [(f"{title}:", text) for title, text in item_lines(character, content)]
        rows += [(f"{title}:", text) for title, text in bag_lines(character, content)]
        rows.append(("Hex:", character.hex or "not placed"))
        for title, text in rows:
            self.add_detail(title, text)

    def add_detail(self, title: str, text: str) -> None:
        """One more row of the details box (e.g. the legend cards held)."""
        value = QLabel(text)
        value.setWordWrap(True)
        value.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        value.setAccessibleName(title.rstrip(":"))
        self.details.addRow(title, value)

    def detail_text(self, title: str) -> str:
        """The text of the details row titled ``title`` (for tests)."""
        for row in range(self.details.rowCount()):
            label = self.details.itemAt(row, QFormLayout.ItemRole.LabelRole)
            field = self.details.itemAt(row, QFormLayout.ItemRole.FieldRole)
            if label and field and label.widget().text() == title:  # type: ignore[union-attr]
                return str(field.widget().text())  # type: ignore[union-attr]
        return ""
