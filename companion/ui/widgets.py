"""Small widgets the views share: a track drawn as a row of slots, and reading the game.

Slots are QLabels styled with palette roles plus a few token colours, each with its own
text colour so the contrast holds in light and dark themes; sizes come from the font,
so everything scales with the system font.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSizePolicy,
    QSpinBox,
    QWidget,
)

if TYPE_CHECKING:
    from companion.operations import Campaign
    from companion.rules.game import Game

# Token colours: (background, text). Chosen for contrast with their own text colour.
STYLES: dict[str, tuple[str, str]] = {
    "minor_injury": ("#f6c9a0", "#000000"),
    "major_injury": ("#a3231b", "#ffffff"),
    "minor_disease": ("#cde4ab", "#000000"),
    "major_disease": ("#3f6b1f", "#ffffff"),
    "energy": ("#f2c12e", "#000000"),
    "filled": ("#5b7fa6", "#ffffff"),
    "reached": ("#c0392b", "#ffffff"),
    "fired": ("#7d5ba6", "#ffffff"),
    "boost_minor": ("#d9e7f5", "#000000"),
    "boost_major": ("#2f5d8a", "#ffffff"),
}


@dataclass(frozen=True)
class Slot:
    """One box of a track."""

    text: str
    """What the box shows (short)."""
    kind: str = ""
    """A key of ``STYLES`` for a filled box, or "" for an empty one."""
    tooltip: str = ""
    marked: bool = False
    """A threshold box: drawn with a heavier border."""


class SlotRow(QWidget):
    """A track as a row of boxes (health, energy, unrest ...).

    ``slots`` holds what each box shows; ``summary`` is read by screen readers.
    """

    def __init__(self, name: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setAccessibleName(name)
        self.boxes: list[QLabel] = []
        self.slots: list[Slot] = []
        self._layout = QHBoxLayout(self)
        self._layout.setContentsMargins(0, 0, 0, 0)
        self._layout.setSpacing(max(2, self.fontMetrics().height() // 6))
        self._layout.addStretch(1)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)

    def set_slots(self, slots: Sequence[Slot], summary: str = "") -> None:
        """Show ``slots``; ``summary`` is the accessible description of the whole track."""
        self.slots = list(slots)
        while len(self.boxes) < len(self.slots):
            box = QLabel()
            box.setAlignment(Qt.AlignmentFlag.AlignCenter)
            box.setWordWrap(True)
            self._layout.insertWidget(len(self.boxes), box)
            self.boxes.append(box)
        for box in self.boxes[len(self.slots):]:
            box.hide()
        metrics = self.fontMetrics()
        lines = [line for s in self.slots for line in s.text.split("\n")]
        pad = metrics.height() // 2 + 6
        width = max([metrics.horizontalAdvance("00"), *map(metrics.horizontalAdvance, lines)]) + pad
        rows = max((s.text.count("\n") + 1 for s in self.slots), default=1)
        height = metrics.height() * rows + pad
        for box, slot in zip(self.boxes, self.slots, strict=False):
            box.show()
            box.setText(slot.text)
            box.setToolTip(slot.tooltip or slot.text)
            box.setAccessibleName(slot.tooltip or slot.text)
            box.setFixedSize(width, height)
            border = "3px solid palette(text)" if slot.marked else "1px solid palette(mid)"
            if slot.kind:
                background, colour = STYLES[slot.kind]
                sheet = (f"QLabel {{ background: {background}; color: {colour}; "
                         f"border: {border}; border-radius: 3px; }}")
            else:
                style = border if slot.marked else "1px dashed palette(mid)"
                sheet = (f"QLabel {{ color: palette(text); border: {style}; "
                         "border-radius: 3px; }")
            if box.styleSheet() != sheet:  # a new style sheet restyles the box: slow
                box.setStyleSheet(sheet)
        self.setAccessibleDescription(summary)
        self.setToolTip(summary)

    def texts(self) -> list[str]:
        """The boxes' texts (for tests and screen readers)."""
        return [s.text for s in self.slots]

    def kinds(self) -> list[str]:
        """The boxes' kinds ("" for empty)."""
        return [s.kind for s in self.slots]


class ElidedLabel(QLabel):
    """One line of text, cut short with "…" where it does not fit (the whole of it in
    the tooltip); it never asks for more width than it is given. ``cut`` says whether
    it is cut short now."""

    cut = Signal(bool)

    def __init__(self, text: str = "") -> None:
        super().__init__()
        self.full_text = ""
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.setMinimumWidth(self.fontMetrics().averageCharWidth() * 8)
        self.set_full_text(text)

    def set_full_text(self, text: str) -> None:
        self.full_text = text
        self.setToolTip(text if text else "")
        self._elide()

    def is_cut(self) -> bool:
        """Whether part of the text is hidden."""
        return self.text() != " ".join(self.full_text.split())

    def _elide(self) -> None:
        # One line: a message of several lines showed its middle lines, so it seemed to
        # start mid-sentence (issue 36 item 12).
        line = " ".join(self.full_text.split())
        shown = self.fontMetrics().elidedText(line, Qt.TextElideMode.ElideRight,
                                              max(0, self.contentsRect().width()))
        if shown != self.text():
            self.setText(shown)
        self.cut.emit(self.is_cut())

    def resizeEvent(self, event: Any) -> None:  # noqa: N802 (Qt's name)
        super().resizeEvent(event)
        self._elide()


def read_game(campaign: Campaign) -> Game:
    """The game as the rules see it, read from the file (read only; the UI never writes
    outside operations)."""
    from companion.operations.state import load_game

    with campaign.file.read() as session:
        return load_game(session, campaign.content)


def heading(text: str, scale: float = 1.25) -> QLabel:
    """A bold label a little larger than the system font (scales with it)."""
    label = QLabel(text)
    font = label.font()
    if font.pointSizeF() > 0:
        font.setPointSizeF(font.pointSizeF() * scale)
    else:  # a system font given in pixels
        font.setPixelSize(round(font.pixelSize() * scale))
    font.setBold(True)
    label.setFont(font)
    return label


def note_label(text: str = "", *, name: str = "", selectable: bool = False) -> QLabel:
    """A label whose text wraps, named ``name`` for screen readers; ``selectable``: the
    mouse can select its text (to copy a result)."""
    label = QLabel(text)
    label.setWordWrap(True)
    if name:
        label.setAccessibleName(name)
    if selectable:
        label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    return label


def line_edit(name: str, placeholder: str = "") -> QLineEdit:
    """A one-line text field named ``name`` for screen readers, showing ``placeholder``
    while it is empty."""
    edit = QLineEdit()
    edit.setAccessibleName(name)
    if placeholder:
        edit.setPlaceholderText(placeholder)
    return edit


def button(text: str, clicked: Callable[[], object]) -> QPushButton:
    """A push button that calls ``clicked`` when pressed."""
    push = QPushButton(text)
    push.clicked.connect(clicked)
    return push


def row_of(first: QWidget, *rest: QWidget) -> QHBoxLayout:
    """A row whose first widget (a field, or a note) takes the width left, the others
    (its buttons) beside it at their own size."""
    row = QHBoxLayout()
    row.addWidget(first, 1)
    for widget in rest:
        row.addWidget(widget)
    return row


def action_buttons(dialog: QDialog, close: QDialogButtonBox.StandardButton,
                   action: QPushButton, role: QDialogButtonBox.ButtonRole, *,
                   default: bool = True) -> QDialogButtonBox:
    """A dialog's buttons: its ``action`` (the default button unless told otherwise) in
    ``role``, and ``close`` (Close or Cancel), which rejects the dialog."""
    buttons = QDialogButtonBox(close)
    action.setDefault(default)
    buttons.addButton(action, role)
    buttons.rejected.connect(dialog.reject)
    return buttons


# --- character creation (shared by the New Character dialog and the wizard) ---------------


def fill_ability_combos(combos: Sequence[QComboBox], kept: Sequence[int]) -> None:
    """Offer the kept dice in every ability combo, assigned highest first (Rulebook:
    Character Creation, step 1). Signals are held so one refill is one validation."""
    ordered = sorted(kept, reverse=True)
    choices = sorted(set(ordered), reverse=True)
    if any(value < 1 for value in kept):  # a die not typed or rolled yet: nothing to assign
        for combo in combos:
            combo.blockSignals(True)
            combo.clear()
            combo.blockSignals(False)
        return
    for combo, value in zip(combos, ordered, strict=False):
        combo.blockSignals(True)
        combo.clear()
        for choice in choices:
            combo.addItem(str(choice), choice)
        combo.setCurrentIndex(choices.index(value))
        combo.blockSignals(False)


@dataclass(frozen=True)
class AssignmentCheck:
    """Whether the abilities use exactly the kept dice, and what a second trait needs."""

    ok: bool
    """The four abilities use exactly the kept dice."""
    total: int
    """The abilities' sum."""
    note: str
    """The assignment in words (✓ or ⚠)."""
    second_trait: bool
    """A second trait is allowed (sum at most the pack's limit, Step 2)."""
    trait_note: str
    """Why a second trait is, or is not, allowed."""


NO_DICE_YET = "Type the five dice rolled at the table, or roll them in the app."


def die_box(number: int) -> QSpinBox:
    """A die of character creation: blank ("–") until it is typed or rolled, so the
    starting value is never taken for a roll (issue 20)."""
    spin = QSpinBox()
    spin.setRange(0, 6)
    spin.setSpecialValueText("–")
    spin.setValue(0)
    spin.setAccessibleName(f"Die {number + 1}")
    return spin


def check_assignment(kept: Sequence[int], values: Sequence[int],
                     second_trait_max_sum: int,
                     rolled: Sequence[int] = ()) -> AssignmentCheck:
    """Check an assignment of the kept dice (Rulebook: Character Creation, steps 1-2);
    ``rolled`` (all the dice) must all be typed or rolled first."""
    from collections import Counter

    if any(value < 1 for value in (*rolled, *kept)):
        return AssignmentCheck(False, 0, NO_DICE_YET, False,
                               "A second trait depends on the abilities' sum.")
    ok = Counter(values) == Counter(kept)
    kept_text = ", ".join(map(str, sorted(kept, reverse=True)))
    total = sum(values)
    note = (f"✓ Uses the kept dice {kept_text} (sum {total})." if ok else
            f"⚠ The abilities must use exactly the kept dice {kept_text}; "
            f"now {', '.join(map(str, values))}.")
    two = ok and total <= second_trait_max_sum
    trait_note = (f"Abilities sum to {total}: choose a second trait (Step 2)." if two else
                  "A second trait is taken only when the abilities sum to "
                  f"{second_trait_max_sum} or less.")
    return AssignmentCheck(ok, total, note, two, trait_note)


def offer_second_trait(first: Any, second: Any, required: bool) -> None:
    """Step 2: a second trait is part of a character whose abilities sum to 11 or less;
    when it becomes required and none is chosen, pre-select one other than the first
    (the player may change it). ``first``/``second`` are the trait combo boxes."""
    second.setEnabled(required)
    if not required:
        second.setCurrentIndex(0)
        return
    if second.currentData() is None:
        for index in range(second.count()):
            data = second.itemData(index)
            if data is not None and data != first.currentData():
                second.setCurrentIndex(index)
                return


class AbilityDice:
    """The dice half of character creation, shared by the New Character dialog and the
    wizard's character pages: the lowest die is left out until the player picks one,
    and the ability lists follow the kept dice. The class mixing it in provides
    ``dice``, ``leave_out`` (a QButtonGroup), ``abilities`` (ability -> QComboBox) and
    ``_fill_abilities()``, and sets ``_filling`` and ``_leave_out_chosen`` to False."""

    def rolled(self) -> list[int]:
        return [spin.value() for spin in self.dice]  # type: ignore[attr-defined]

    def tab_through_dice(self, then: Any) -> None:
        """Tab goes die to die, then to ``then``: typed dice landed in the wrong boxes as
        Tab stopped on a "Leave out" between them (issue 36 item 11)."""
        from PySide6.QtWidgets import QWidget

        dice = self.dice  # type: ignore[attr-defined]
        for first, after in zip(dice, [*dice[1:], then], strict=True):
            QWidget.setTabOrder(first, after)

    def removed(self) -> int:
        return max(0, int(self.leave_out.checkedId()))  # type: ignore[attr-defined]

    def kept(self) -> list[int]:
        removed = self.removed()
        return [v for i, v in enumerate(self.rolled()) if i != removed]

    def _leave_out_toggled(self, checked: bool) -> None:
        if checked and not self._filling:  # type: ignore[has-type]
            self._leave_out_chosen = True
            self._fill_abilities()  # type: ignore[attr-defined]

    def _dice_changed(self) -> None:
        if not self.dice:  # type: ignore[attr-defined]
            return
        if not self._leave_out_chosen:
            values = self.rolled()
            self._filling = True
            self.leave_out.button(values.index(min(values))).setChecked(True)  # type: ignore[attr-defined]
            self._filling = False
        self._fill_abilities()  # type: ignore[attr-defined]

    def assignment(self) -> dict[str, int]:
        """The die assigned to each ability, as chosen in the lists."""
        return {a: int(c.currentData() or 0)
                for a, c in self.abilities.items()}  # type: ignore[attr-defined]
