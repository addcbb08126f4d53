"""The New Campaign wizard's page for one character (Rulebook: Character Creation, steps
1-4): name and player, five dice typed or rolled, the one removed, the assignment, the
traits and the mantle; and what the page collected (:class:`CharacterChoice`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from PySide6 import QtWidgets

from companion.ui import character_choices as choices
from companion.ui.new_campaign_pages import ErrorLabel, WizardPage, refusal_sentence
from companion.ui.widgets import (
    AbilityDice,
    check_assignment,
    die_box,
    fill_ability_combos,
    offer_second_trait,
)

if TYPE_CHECKING:
    from companion.ui.new_campaign_wizard import NewCampaignWizard


@dataclass
class CharacterChoice:
    """What one character page collected (checked by the rules)."""

    name: str
    player: str
    rolled: tuple[int, ...]
    removed: int
    assignment: dict[str, int]
    traits: list[str]
    mantle: str | None
    rolled_in_app: bool



class CharacterPage(AbilityDice, WizardPage):
    """One character (Rulebook: Character Creation, steps 1-4): name, player, five dice
    typed from the table or rolled in the app, the die left out, the abilities, traits
    (a second only if the abilities sum to 11 or less) and a mantle (each worn once)."""

    def __init__(self, wizard: NewCampaignWizard, number: int) -> None:
        super().__init__(wizard, f"Character {number + 1}",
                         "Character creation, steps 1-4: five dice (one left out), the "
                         "abilities, traits and a mantle.")
        self.number = number
        self.rolled_in_app = False
        self._rolls = 0
        self._filling = False
        self._leave_out_chosen = False
        self.name = QtWidgets.QLineEdit()
        self.name.setAccessibleName(f"Character {number + 1} name")
        self.name.setPlaceholderText("The character's name")
        self.player = QtWidgets.QComboBox()
        self.player.setAccessibleName("Player")

        self.dice_box = QtWidgets.QGroupBox("&Dice: type the five dice rolled at the table, "
                                            "or roll them in the app")
        self.dice_grid = QtWidgets.QGridLayout(self.dice_box)
        self.dice: list[QtWidgets.QSpinBox] = []
        self.leave_out = QtWidgets.QButtonGroup(self)
        self.roll_button = QtWidgets.QPushButton("&Roll in the App")
        self.roll_button.setAccessibleName("Roll the five dice in the app")
        self.roll_button.clicked.connect(self.roll_in_app)
        self.dice_source = QtWidgets.QLabel("Dice typed from the table.")
        self.dice_source.setAccessibleName("Where the dice came from")

        self.ability_box = QtWidgets.QGroupBox("&Abilities: assign the four kept dice")
        self.ability_form = QtWidgets.QFormLayout(self.ability_box)
        self.abilities: dict[str, QtWidgets.QComboBox] = {}
        self.assignment_note = QtWidgets.QLabel()
        self.assignment_note.setWordWrap(True)
        self.assignment_note.setAccessibleName("Assignment check")

        self.trait = QtWidgets.QComboBox()
        self.trait.setAccessibleName("Trait")
        self.second_trait = QtWidgets.QComboBox()
        self.second_trait.setAccessibleName("Second trait")
        self.trait_note = QtWidgets.QLabel()
        self.trait_note.setWordWrap(True)
        self.mantle = QtWidgets.QComboBox()
        self.mantle.setAccessibleName("Mantle")
        self.error = ErrorLabel()

        top = QtWidgets.QFormLayout()
        top.addRow("&Name:", self.name)
        top.addRow("&Player:", self.player)
        side = QtWidgets.QFormLayout()
        side.addRow("&Trait:", self.trait)
        side.addRow("S&econd trait:", self.second_trait)
        side.addRow(self.trait_note)
        side.addRow("&Mantle:", self.mantle)
        side_widget = QtWidgets.QWidget()
        side_widget.setLayout(side)
        columns = QtWidgets.QHBoxLayout()
        columns.addWidget(self.ability_box, 1)
        columns.addWidget(side_widget, 1)
        layout = QtWidgets.QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(self.dice_box)
        layout.addLayout(columns)
        layout.addWidget(self.error)
        self.name.textChanged.connect(lambda _: self.error.clear_problem())
        self._built_for: object = None
        for combo in (self.trait, self.second_trait):
            choices.offer_typing(combo, "traits", lambda name: self._type_new("traits", name))
        choices.offer_typing(self.mantle, "mantles", lambda name: self._type_new("mantles", name))

    # -- building for the chosen pack -------------------------------------------------

    def _build(self) -> None:
        content = self.wiz.content()
        if self._built_for is content:
            return
        self._built_for = content
        creation = content.rules.character_creation
        keep = (self.roll_button, self.dice_source)
        while self.dice_grid.count():
            item = self.dice_grid.takeAt(0)
            old = item.widget() if item is not None else None
            if old is not None and old not in keep:
                old.deleteLater()
        self.dice = []
        for button in self.leave_out.buttons():
            self.leave_out.removeButton(button)
        for n in range(creation.dice_rolled):
            spin = die_box(n)
            spin.valueChanged.connect(self._typed)
            radio = QtWidgets.QRadioButton("Leave out")
            radio.setAccessibleName(f"Leave out die {n + 1}")
            radio.toggled.connect(self._leave_out_toggled)
            self.leave_out.addButton(radio, n)
            caption = QtWidgets.QLabel(f"Die &{n + 1}")
            caption.setBuddy(spin)
            self.dice_grid.addWidget(caption, 0, n)
            self.dice_grid.addWidget(spin, 1, n)
            self.dice_grid.addWidget(radio, 2, n)
            self.dice.append(spin)
        self.dice_grid.addWidget(self.roll_button, 1, creation.dice_rolled)
        self.tab_through_dice(self.roll_button)
        self.roll_button.setEnabled(True)  # new dice: one roll for them
        self.dice_grid.addWidget(self.dice_source, 3, 0, 1, creation.dice_rolled + 1)
        while self.ability_form.rowCount():
            self.ability_form.removeRow(0)
        self.abilities = {}
        for ability in creation.abilities:
            combo = QtWidgets.QComboBox()
            combo.setAccessibleName(str(ability).title())
            combo.currentIndexChanged.connect(self._validate_assignment)
            self.ability_form.addRow(f"{str(ability).title()}:", combo)
            self.abilities[str(ability)] = combo
        self.assignment_note = QtWidgets.QLabel()
        self.assignment_note.setWordWrap(True)
        self.assignment_note.setAccessibleName("Assignment check")
        self.ability_form.addRow(self.assignment_note)
        self._fill_traits()
        self._leave_out_chosen = False
        self.rolled_in_app = False
        self._dice_changed()

    def initializePage(self) -> None:  # noqa: N802
        self._build()
        players = self.wiz.player_names()
        current = self.player.currentText()
        self.player.clear()
        self.player.addItems(players)
        default = players[self.number % len(players)]
        self.player.setCurrentText(current if current in players else default)
        self._fill_traits()
        self._fill_mantles()
        self.name.setFocus()

    # -- traits and mantles ------------------------------------------------------------

    def _fill_traits(self) -> None:
        entries = self.wiz.entries("traits")
        choices.fill(self.trait, "traits", entries)
        choices.fill(self.second_trait, "traits", entries, first=("No second trait", None))

    def _fill_mantles(self) -> None:
        """The mantles the characters before this one do not wear (each once)."""
        taken = {c.mantle for c in self.wiz.characters_before(self.number) if c.mantle}
        choices.fill(self.mantle, "mantles", self.wiz.entries("mantles"), leave_out=taken)
        if self.mantle.count() == 1:  # only "Type another mantle…": every one is worn
            self.mantle.insertItem(0, "No mantle free (every mantle is worn)", None)
            self.mantle.setCurrentIndex(0)

    def _type_new(self, kind: str, name: str) -> str | None:
        """A trait or mantle typed from the box: offered from now on (entered into the
        owner's pack at Finish); its id, or None when refused (said on the page)."""
        from companion.operations import Refused

        try:
            new_id = self.wiz.type_entry(kind, name)
        except Refused as refusal:
            self.error.show_problem(refusal_sentence(refusal))
            return None
        if kind == "traits":
            self._fill_traits()
            self._validate_assignment()
        else:
            self._fill_mantles()
        return new_id

    # -- dice --------------------------------------------------------------------------

    def set_dice(self, values: Sequence[int], *, in_app: bool = False) -> None:
        """Fill the dice (typed or rolled) and reset the die left out and abilities."""
        for spin, value in zip(self.dice, values, strict=False):
            spin.blockSignals(True)
            spin.setValue(int(value))
            spin.blockSignals(False)
        self._leave_out_chosen = False
        self.rolled_in_app = in_app
        self._show_source()
        self._dice_changed()

    def roll_in_app(self) -> None:
        """Roll with the generator seeded from the campaign's seed (reproducible)."""
        from companion.rules.chance import Chance

        self._rolls += 1
        chance = Chance(f"{self.wiz.seed}:creation:{self.number}:{self._rolls}")
        self.set_dice(chance.roll(len(self.dice)), in_app=True)
        # One roll per character: the dice stand as rolled.
        self.roll_button.setEnabled(False)
        for spin in self.dice:
            spin.setReadOnly(True)

    def _typed(self) -> None:
        self.rolled_in_app = False
        self._show_source()
        self._dice_changed()

    def _show_source(self) -> None:
        self.dice_source.setText("Dice rolled in the app." if self.rolled_in_app
                                 else "Dice typed from the table.")

    def _fill_abilities(self) -> None:
        fill_ability_combos(list(self.abilities.values()), self.kept())
        self._validate_assignment()


    def _validate_assignment(self) -> None:
        check = check_assignment(
            self.kept(), list(self.assignment().values()),
            self.wiz.content().rules.character_creation.second_trait_max_sum,
            self.rolled())
        self.assignment_note.setText(check.note)
        offer_second_trait(self.trait, self.second_trait, check.second_trait)
        self.trait_note.setText(check.trait_note)
        self.error.clear_problem()

    def traits(self) -> list[str]:
        chosen = [t for t in [choices.chosen(self.trait)] if t]
        second = choices.chosen(self.second_trait)
        if self.second_trait.isEnabled() and second:
            chosen.append(second)
        return chosen

    def choice(self) -> CharacterChoice:
        return CharacterChoice(
            name=self.name.text().strip(), player=self.player.currentText(),
            rolled=tuple(self.rolled()), removed=self.removed(), assignment=self.assignment(),
            traits=self.traits(), mantle=choices.chosen(self.mantle),
            rolled_in_app=self.rolled_in_app)

    def nextId(self) -> int:  # noqa: N802
        if self.number + 1 < self.wiz.character_count():
            return self.wiz.character_page_ids[self.number + 1]
        return self.wiz.summary_id

    def validatePage(self) -> bool:  # noqa: N802
        from companion.ui.widgets import NO_DICE_YET

        if any(value < 1 for value in self.rolled()):
            self.error.show_problem(NO_DICE_YET)
            return False
        try:
            self.wiz.check_character(self.number, self.choice())
        except Exception as exc:  # IllegalAction or Refused: both say why in game words
            from companion.operations import Refused
            from companion.rules.errors import IllegalAction

            if not isinstance(exc, IllegalAction | Refused):
                raise
            self.error.show_problem(refusal_sentence(exc))
            return False
        self.error.clear_problem()
        return True
