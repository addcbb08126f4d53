"""A card's effects in the card form as ONE typed line (issue 36 item 5).

A Night card with a test took about 25 clicks in the structured editor (a "Does:" list
per step, nested for the test's success and failure). Here the effects are typed as the
card prints them, in the effect words "Just record what happened" reads plus the test
(:mod:`companion.rules.card_line`: "test awareness 7 success: lore +1 failure: unrest
+1"), with completion and a live "Will apply" line. **Step by step…** opens the
structured editor for what one line cannot say (a boost of the player's choice, an
unlock, a test in a test); a card whose effects one line can say opens as that line.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from PySide6.QtWidgets import QHBoxLayout, QPushButton, QVBoxLayout, QWidget

from companion.ui.card_editor_base import MISSING, Editor, Lookup, RowsEditor
from companion.ui.effect_line_edit import EffectLine, WillApply

INNER_EXAMPLE = "lore +1, gain 1 fish"
"""The example inside a step, where a test does not read."""


def _typed_names(known: Mapping[str, str]) -> dict[str, str]:
    """What a player may type for each id: the id and the name."""
    typed = {str(key): str(key) for key in known}
    typed.update({str(name): str(key) for key, name in known.items()})
    return typed


class EffectsLineEditor(RowsEditor):
    """A list of effects: one typed line, or (Step by step…) one row per effect."""

    def __init__(self, make: Callable[[], Editor], lookup: Lookup) -> None:
        from companion.rules.card_line import EXAMPLE, card_line_words

        super().__init__(make, "effect")
        resources, items = lookup("resources"), lookup("items")
        self.resources, self.items = _typed_names(resources), _typed_names(items)
        self.line = EffectLine(card_line_words(resources=sorted(resources),
                                               items=sorted(items)))
        self.line.setObjectName("effectsLine")
        self.line.setAccessibleName("Effects, in one line")
        self.line.setPlaceholderText(EXAMPLE)
        self.will_apply = WillApply(EXAMPLE)
        self.steps_button = QPushButton("Step by step…")
        self.steps_button.setObjectName("effectsStepByStep")
        self.steps_button.setAutoDefault(False)
        self.steps_button.setToolTip("One row per effect, for what one line cannot say "
                                     "(a boost of the player's choice, an unlock, a test "
                                     "inside a test).")
        self.steps_button.clicked.connect(self.step_by_step)
        top = QHBoxLayout()
        top.setContentsMargins(0, 0, 0, 0)
        top.addWidget(self.line, 1)
        top.addWidget(self.steps_button)
        self.line_box = QWidget()
        box = QVBoxLayout(self.line_box)
        box.setContentsMargins(0, 0, 0, 0)
        box.addLayout(top)
        box.addWidget(self.will_apply)
        layout = self.layout()
        assert isinstance(layout, QVBoxLayout)
        layout.insertWidget(0, self.line_box)
        layout.setSpacing(0)  # no gap below the line where the hidden rows would be
        self.line.textChanged.connect(lambda _text: self._preview())
        self._set_steps(False)

    def showEvent(self, event: Any) -> None:  # noqa: N802 (Qt's name)
        """Inside a step (a test's success or failure) a test does not read: the
        example is then plain effects."""
        parent = self.parentWidget()
        while parent is not None and type(parent).__name__ != "EffectEditor":
            parent = parent.parentWidget()
        if parent is not None and self.will_apply.example != INNER_EXAMPLE:
            self.line.setPlaceholderText(INNER_EXAMPLE)
            self.will_apply.example = INNER_EXAMPLE
            self._preview()
        super().showEvent(event)

    # -- the two ways -------------------------------------------------------------------

    def _set_steps(self, steps: bool) -> None:
        self.steps = steps
        self.line_box.setVisible(not steps)
        self.add_button.setVisible(steps)
        for holder in self.holders:
            holder.setVisible(steps)

    def step_by_step(self) -> None:
        """Open the structured editor with what the line says (a row per effect)."""
        effects = self.read() if self.line.text().strip() and self.unread() is None else []
        self._set_steps(True)
        for effect in effects:
            super().add_row(effect)
        if not effects and not self.rows:
            super().add_row()

    def add_row(self, value: Any = MISSING) -> Editor:
        """A row of the structured editor (the editor turns to Step by step)."""
        if not self.steps:
            self._set_steps(True)
        return super().add_row(value)

    # -- reading the line -----------------------------------------------------------------

    def read(self) -> list[dict[str, Any]]:
        """The line's effects (IllegalAction in game words when it does not read)."""
        from companion.rules.card_line import parse_card_line

        return parse_card_line(self.line.text(), resources=self.resources, items=self.items)

    def unread(self) -> str | None:
        """Why the line does not read (an unknown resource or item named), or None."""
        if self.steps or not self.line.text().strip():
            return None
        from companion.rules.errors import IllegalAction

        try:
            effects = self.read()
        except IllegalAction as exc:
            return str(exc)
        return self._unknown(effects)

    def _unknown(self, effects: Sequence[Mapping[str, Any]]) -> str | None:
        """An effect naming an item the content lacks, in words. A material the pack
        lacks is not refused here: saving the card offers its token on the spot
        (issue 36 item 2), and the preview says so (:meth:`_new_materials`)."""
        for effect in effects:
            if "item" in effect and self.items and str(effect["item"]) not in \
                    self.items.values():
                return (f"'{effect['item']}' is not an item your pack knows (e.g. "
                        f"{', '.join(sorted(set(self.items.values()))[:4])}).")
            for key in ("success", "failure"):
                inner = self._unknown(effect.get(key) or ())
                if inner:
                    return inner
        return None

    def _new_materials(self, effects: Sequence[Mapping[str, Any]]) -> list[str]:
        """The materials the line names that the pack lacks (entered on the spot)."""
        new: list[str] = []
        for effect in effects:
            name = str(effect.get("resource", ""))
            if name and self.resources and name not in self.resources.values() \
                    and name not in new:
                new.append(name)
            for key in ("success", "failure"):
                new += [m for m in self._new_materials(effect.get(key) or ()) if m not in new]
        return new

    def _preview(self) -> None:
        from companion.rules.card_line import describe_card_line

        self.mark(None)
        if not self.line.text().strip():
            self.will_apply.say_example()
            return
        problem = self.unread()
        if problem is not None:
            self.will_apply.refuse(problem)
            return
        try:
            effects = self.read()
            self.will_apply.say(describe_card_line(effects) + "".join(
                f" ({m}: a material token your pack does not know yet; you enter it "
                "first)" for m in self._new_materials(effects)))
        except (ValueError, TypeError) as exc:  # a step the schema refuses (a bad outcome)
            self.will_apply.refuse(str(exc).splitlines()[0])

    # -- the editor's protocol ----------------------------------------------------------------

    def value(self) -> Any:
        if self.steps:
            return super().value()
        if not self.line.text().strip() or self.unread() is not None:
            return MISSING
        return self.read() or MISSING

    def set_value(self, value: Any) -> None:
        from companion.rules.card_line import card_line_of

        effects = list(value) if value is not MISSING and value else []
        said = card_line_of([dict(e) for e in effects]) if all(
            isinstance(e, Mapping) for e in effects) else None
        super().set_value(MISSING)
        if said is None:  # one line cannot say it: the structured rows
            self._set_steps(True)
            super().set_value(effects)
            return
        self._set_steps(False)
        self.line.setText(said)
