"""Ability Test: a test of one ability, rolled in the app or typed from the table."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6 import QtWidgets

from companion.ui.widgets import heading

from .play_dialog import PlayDialog, show, wrapped

if TYPE_CHECKING:
    from companion.ui.host import Host


class AbilityTestDialog(PlayDialog):
    """A test (Rulebook: Basic Concepts > Tests): 1d6 + ability + boosts + the card's
    trait bonuses or penalties, die typed or rolled: ``operations.challenge.ability_test``."""

    title = "Ability Test"

    def __init__(self, window: Host, character: str | None = None) -> None:
        super().__init__(window)
        from companion.content.schema.base import Ability

        self.character = self.character_combo(character)
        self.ability = QtWidgets.QComboBox()
        self.ability.setAccessibleName("Ability")
        for ability in Ability:
            self.ability.addItem(ability.value.title(), ability.value)
        self.difficulty = QtWidgets.QSpinBox()
        self.difficulty.setRange(1, 30)
        self.difficulty.setValue(8)
        self.difficulty.setAccessibleName("Difficulty")
        self.typed = QtWidgets.QRadioButton("Typed from the table:")
        self.rolled = QtWidgets.QRadioButton("Rolled by the app")
        self.typed.setChecked(True)
        group = QtWidgets.QButtonGroup(self)
        group.addButton(self.typed)
        group.addButton(self.rolled)
        self.die = QtWidgets.QSpinBox()
        self.die.setRange(1, 6)
        self.die.setValue(4)
        self.die.setAccessibleName("Die")
        die_row = QtWidgets.QHBoxLayout()
        die_row.addWidget(self.typed)
        die_row.addWidget(self.die)
        die_row.addWidget(self.rolled)
        die_row.addStretch(1)
        self.rolled.toggled.connect(lambda on: self.die.setEnabled(not on))

        traits_box = QtWidgets.QGroupBox("Trait bonuses (+) and penalties (−) the card lists")
        traits_grid = QtWidgets.QGridLayout(traits_box)
        self.traits: dict[str, QtWidgets.QSpinBox] = {}
        self.trait_labels: dict[str, QtWidgets.QLabel] = {}
        for row, trait in enumerate(self.content.traits.values()):
            label = QtWidgets.QLabel(trait.name)
            spin = QtWidgets.QSpinBox()
            spin.setRange(-6, 6)
            spin.setAccessibleName(f"{trait.name} modifier")
            spin.valueChanged.connect(self._preview)
            traits_grid.addWidget(label, row // 2, (row % 2) * 2)
            traits_grid.addWidget(spin, row // 2, (row % 2) * 2 + 1)
            self.traits[trait.id] = spin
            self.trait_labels[trait.id] = label

        # Rulebook: Legends > Using Legend Cards: a held card lends its ability value or
        # one of its traits, then returns to the unassigned legends.
        self.legend = QtWidgets.QComboBox()
        self.legend.setAccessibleName("Legend card")
        self.legend_use = QtWidgets.QComboBox()
        self.legend_use.setAccessibleName("Use the legend card for")
        legend_row = QtWidgets.QHBoxLayout()
        legend_row.addWidget(self.legend, 1)
        legend_row.addWidget(QtWidgets.QLabel("for"))
        legend_row.addWidget(self.legend_use, 1)
        # Rulebook: Behemoths > Contests (D16): the same roll against the behemoth's value.
        self.contest = QtWidgets.QCheckBox("A contest against the behemoth's")
        self.contest.setAccessibleName("Contest")
        self.behemoth_value = QtWidgets.QSpinBox()
        self.behemoth_value.setRange(0, 20)
        self.behemoth_value.setValue(6)
        self.behemoth_value.setAccessibleName("Behemoth's ability value")
        self.behemoth_boosts = QtWidgets.QSpinBox()
        self.behemoth_boosts.setRange(0, 6)
        self.behemoth_boosts.setAccessibleName("Behemoth's boosts on that ability")
        contest_row = QtWidgets.QHBoxLayout()
        contest_row.addWidget(self.contest)
        contest_row.addWidget(QtWidgets.QLabel("value"))
        contest_row.addWidget(self.behemoth_value)
        contest_row.addWidget(QtWidgets.QLabel("+ boosts"))
        contest_row.addWidget(self.behemoth_boosts)
        contest_row.addStretch(1)
        self.contest.toggled.connect(self._contest_toggled)
        self.legend.currentIndexChanged.connect(self._fill_legend_use)
        self.character.currentIndexChanged.connect(self._fill_legends)

        form = QtWidgets.QFormLayout()
        form.addRow("Character:", self.character)
        form.addRow("Ability:", self.ability)
        form.addRow("Difficulty:", self.difficulty)
        form.addRow("Die (1d6):", die_row)
        form.addRow("Legend card:", legend_row)
        form.addRow("Contest:", contest_row)
        self.preview = wrapped()
        self.preview.setAccessibleName("What the test adds up to")
        self.breakdown = heading("", 1.3)
        self.breakdown.setWordWrap(True)
        self.breakdown.setAccessibleName("Breakdown")
        self.body.addLayout(form)
        self.body.addWidget(traits_box)
        self.body.addWidget(self.preview)
        self.body.addWidget(self.breakdown)
        self.body.addStretch(1)
        self.test_button = self.action_button("Test")
        self.test_button.clicked.connect(self.test)
        for signal in (self.character.currentIndexChanged, self.ability.currentIndexChanged,
                       self.difficulty.valueChanged, self.die.valueChanged):
            signal.connect(self._preview)
        self.rolled.toggled.connect(self._preview)
        self._fill_legends()
        self._contest_toggled(False)
        self._preview()
        self.resize(660, 500)

    def refresh(self) -> None:
        self.sync_characters(self.character)
        self._fill_legends()
        self._preview()

    def _fill_legends(self, *_: object) -> None:
        from companion.operations.legends import held_legends

        name = str(self.character.currentData() or "")
        chosen = self.legend.currentData()
        self.legend.blockSignals(True)
        self.legend.clear()
        self.legend.addItem("none", None)
        for card in held_legends(self.campaign, name) if name else []:
            self.legend.addItem(f"{card.name} (card {card.id})", card)
        found = next((i for i in range(self.legend.count())
                      if chosen is not None and getattr(self.legend.itemData(i), "id", None)
                      == chosen.id), 0)
        self.legend.setCurrentIndex(found)
        self.legend.setEnabled(self.legend.count() > 1)
        self.legend.blockSignals(False)
        self._fill_legend_use()

    def _fill_legend_use(self, *_: object) -> None:
        self.legend_use.clear()
        card = self.legend.currentData()
        self.legend_use.setEnabled(card is not None)
        if card is None:
            return
        self.legend_use.addItem("its ability value", None)
        for trait in card.traits:
            name = self.content.traits[trait].name if trait in self.content.traits else trait
            self.legend_use.addItem(f"counting as {name}", trait)
        self._preview()

    def _contest_toggled(self, on: bool) -> None:
        self.behemoth_value.setEnabled(on)
        self.behemoth_boosts.setEnabled(on)
        self.difficulty.setEnabled(not on)
        self.test_button.setText("Contest" if on else "Test")
        self._preview()

    def _preview(self, *_: object) -> None:
        name = str(self.character.currentData() or "")
        if not name:
            return
        character = self.campaign.character_detail(name)
        ability = next(a for a in character.abilities if str(a) == self.ability.currentData())
        value = character.abilities[ability]
        boosts = sum(character.boosts.get(ability, ()))
        held = {str(t) for t in character.traits}
        card = self.legend.currentData() if hasattr(self, "legend_use") else None
        if card is not None:
            lent = self.legend_use.currentData()
            if lent is None:
                value = card.abilities.get(str(ability), value)
            else:
                held.add(str(lent))
        for trait, label in self.trait_labels.items():
            label.setText(self.content.traits[trait].name +
                          (f" ({name} has it)" if trait in held else ""))
            font = label.font()
            font.setBold(trait in held)
            label.setFont(font)
        modifier = sum(s.value() for t, s in self.traits.items() if t in held)
        die = "the die" if self.rolled.isChecked() else str(self.die.value())
        contest = hasattr(self, "contest") and self.contest.isChecked()
        against = (f"the behemoth's {self.behemoth_value.value()} + "
                   f"{self.behemoth_boosts.value()}" if contest
                   else str(self.difficulty.value()))
        self.preview.setText(
            f"Adds up: {die} + {self.ability.currentText().lower()} {value} + boosts {boosts} + "
            f"traits {modifier:+d} against {against} (boosts used are "
            "degraded). Only the traits the character has count"
            + (f"; the legend of {card.name} returns to the unassigned legends."
               if card is not None else "."))

    def test(self) -> None:
        from companion.operations.challenge import ability_test, contest

        modifiers = {t: s.value() for t, s in self.traits.items() if s.value()}
        card = self.legend.currentData()
        common: dict[str, Any] = dict(
            name=str(self.character.currentData()), ability=str(self.ability.currentData()),
            die=None if self.rolled.isChecked() else self.die.value(),
            trait_modifiers=modifiers, legend=card.id if card is not None else None,
            legend_trait=self.legend_use.currentData() if card is not None else None)
        if self.contest.isChecked():
            boosts = self.behemoth_boosts.value()
            faces = [2] * (boosts // 2) + [1] * (boosts % 2)
            changes = self.run(contest, behemoth_value=self.behemoth_value.value(),
                               behemoth_boosts=faces, **common)
            if changes is not None:
                outcome: Any = changes.detail
                self.breakdown.setText(
                    f"Die {outcome.test.die} + {str(outcome.test.ability)} "
                    f"{outcome.test.ability_value} + boosts {outcome.test.boosts} + traits "
                    f"{outcome.test.modifier:+d} = {outcome.test.total} against "
                    f"{outcome.behemoth_score}: {outcome.outcome.value}")
            return
        changes = self.run(ability_test, difficulty=self.difficulty.value(), **common)
        if changes is None:
            return
        result: Any = changes.detail
        total = result.total
        verdict = "succeeds" if total >= self.difficulty.value() else "fails"
        self.breakdown.setText(
            f"Die {result.die} + {str(result.ability)} {result.ability_value} + boosts "
            f"{result.boosts} + traits {result.modifier:+d} = {total} against "
            f"{self.difficulty.value()}: {verdict}")


def open_ability_test(window: Host, character: str | None = None) -> QtWidgets.QDialog | None:
    """Ability Test… (Play menu)."""
    return show(AbilityTestDialog(window, character)) if window.campaign else None


# --- processing ---------------------------------------------------------------------------
