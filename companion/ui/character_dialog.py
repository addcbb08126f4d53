"""Character creation (Rulebook: Characters > Character Creation, steps 1-4).

Five dice, typed from the table or rolled by the app (``operations.roll_dice``); one is
left out and the four kept dice are assigned to the abilities; one trait, or two when
the abilities sum to the pack's ``second_trait_max_sum`` or less; a mantle not already
worn; the starting hex or a hex with an outpost. The dialog calls
``operations.create_character`` through ``Host.run_operation``: a refusal is shown,
nothing changes, and the dialog stays open to fix it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6 import QtWidgets

from companion.ui import character_choices as choices
from companion.ui.widgets import (
    AbilityDice,
    check_assignment,
    die_box,
    fill_ability_combos,
    offer_second_trait,
    read_game,
)

if TYPE_CHECKING:
    from companion.operations import Changes
    from companion.ui.host import Host


def start_hexes(campaign: Any, game: Any) -> list[tuple[str, str]]:
    """(label, tile) of the hexes a new character may start in: the valley's starting
    hex(es) first, then every hex with an outpost (Rulebook: Set Up; Outposts)."""
    content = campaign.content
    tiles = [h.tile_id for tray in campaign.valley() for h in tray.hexes if h.explored]
    options = [(f"{t} — starting hex", t) for t in tiles
               if t in content.hexes and content.hexes[t].starting]
    for outpost in game.outposts:
        if outpost.hex and outpost.hex not in [t for _, t in options]:
            options.append((f"{outpost.hex} — outpost {outpost.name}", str(outpost.hex)))
    return options


class CharacterDialog(AbilityDice, QtWidgets.QDialog):
    """The New Character dialog."""

    def __init__(self, window: Host) -> None:
        super().__init__(window)
        assert window.campaign is not None
        self.window_ = window
        self.campaign = window.campaign
        self.created: str | None = None
        self.setWindowTitle("New Character")
        rules = self.campaign.content.rules
        self.creation = rules.character_creation
        game = read_game(self.campaign)

        self.name = QtWidgets.QLineEdit()
        self.name.setAccessibleName("Name")
        self.name.setPlaceholderText("The character's name")
        self.player = QtWidgets.QLineEdit(f"Player {len(game.characters) + 1}")
        self.player.setAccessibleName("Player")

        # Step 1: the dice.
        dice_box = QtWidgets.QGroupBox(
            "&Dice: type the five dice rolled at the table, or roll in the app")
        grid = QtWidgets.QGridLayout(dice_box)
        self.dice: list[QtWidgets.QSpinBox] = []
        self.leave_out = QtWidgets.QButtonGroup(self)
        for n in range(self.creation.dice_rolled):
            spin = die_box(n)
            spin.valueChanged.connect(self._dice_changed)
            radio = QtWidgets.QRadioButton("Leave out")
            radio.setAccessibleName(f"Leave out die {n + 1}")
            radio.toggled.connect(self._leave_out_toggled)
            self.leave_out.addButton(radio, n)
            grid.addWidget(QtWidgets.QLabel(f"Die {n + 1}"), 0, n)
            grid.addWidget(spin, 1, n)
            grid.addWidget(radio, 2, n)
            self.dice.append(spin)
        self.roll_button = QtWidgets.QPushButton("&Roll in the App")
        self.roll_button.setAccessibleName("Roll the five dice in the app")
        self.roll_button.clicked.connect(self.roll_in_app)
        grid.addWidget(self.roll_button, 1, self.creation.dice_rolled)
        self.tab_through_dice(self.roll_button)
        self._leave_out_chosen = False
        self._filling = False

        # Step 1: the abilities.
        ability_box = QtWidgets.QGroupBox("&Abilities: assign the four kept dice")
        ability_form = QtWidgets.QFormLayout(ability_box)
        self.abilities: dict[str, QtWidgets.QComboBox] = {}
        for ability in self.creation.abilities:
            combo = QtWidgets.QComboBox()
            combo.setAccessibleName(str(ability).title())
            combo.currentIndexChanged.connect(self._validate)
            ability_form.addRow(f"{str(ability).title()}:", combo)
            self.abilities[str(ability)] = combo
        self.assignment_note = QtWidgets.QLabel()
        self.assignment_note.setWordWrap(True)
        self.assignment_note.setAccessibleName("Assignment check")
        ability_form.addRow(self.assignment_note)

        # Steps 2-3: traits and mantle: the rules pack's, the owner's, or one typed now.
        self.trait = QtWidgets.QComboBox()
        self.trait.setAccessibleName("Trait")
        self.second_trait = QtWidgets.QComboBox()
        self.second_trait.setAccessibleName("Second trait")
        self.trait_note = QtWidgets.QLabel()
        self.trait_note.setWordWrap(True)
        self._worn = {str(c.mantle) for c in game.characters if c.mantle}
        self.mantle = QtWidgets.QComboBox()
        self.mantle.setAccessibleName("Mantle")
        self._fill_choices()
        for combo in (self.trait, self.second_trait):
            choices.offer_typing(combo, "traits", lambda name: self._type_new("traits", name))
        choices.offer_typing(self.mantle, "mantles", lambda name: self._type_new("mantles", name))
        self.hex = QtWidgets.QComboBox()
        self.hex.setAccessibleName("Starting hex")
        for label, tile in start_hexes(self.campaign, game):
            self.hex.addItem(label, tile)
        if not self.hex.count():
            self.hex.addItem("Not placed (the valley has no starting hex yet)", None)
        # Rulebook: Character Death: a new character made after a death enters play with
        # 0 energy in a hex that has shelter.
        self.replacement = QtWidgets.QCheckBox("Replaces a character who perished (0 energy, "
                                               "in a hex with shelter)")
        self.replacement.setAccessibleName("Replacement after a death")
        self.replacement.toggled.connect(self._fill_hexes)
        from companion.operations.characters import replacement_due

        perished = replacement_due(self.campaign)
        if perished:  # Character Death: offered, not silently a starting character
            self.replacement.setText(f"Replaces {' and '.join(perished)}, who perished "
                                     "(0 energy, in a hex with shelter)")
        self._start_hexes = [(label, tile) for label, tile in start_hexes(self.campaign, game)]

        form = QtWidgets.QFormLayout()
        form.addRow("&Name:", self.name)
        form.addRow("&Player:", self.player)
        traits_form = QtWidgets.QFormLayout()
        traits_form.addRow("&Trait:", self.trait)
        traits_form.addRow("&Second trait:", self.second_trait)
        traits_form.addRow(self.trait_note)
        traits_form.addRow("&Mantle:", self.mantle)
        traits_form.addRow("Starting &hex:", self.hex)
        traits_form.addRow(self.replacement)
        self.replacement.setChecked(bool(perished))

        self.buttons = QtWidgets.QDialogButtonBox(QtWidgets.QDialogButtonBox.StandardButton.Cancel)
        self.create_button = self.buttons.addButton(
            "&Create Character", QtWidgets.QDialogButtonBox.ButtonRole.AcceptRole)
        self.create_button.setDefault(True)
        self.buttons.accepted.connect(self.create_character)
        self.buttons.rejected.connect(self.reject)

        columns = QtWidgets.QHBoxLayout()
        columns.addWidget(ability_box, 1)
        side = QtWidgets.QWidget()
        side.setLayout(traits_form)
        columns.addWidget(side, 1)
        layout = QtWidgets.QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(dice_box)
        layout.addLayout(columns)
        # Room to spare goes below, so nothing above moves as the notes change length
        # (the dice row moved once every die was valid; issue 36 item 11).
        layout.addStretch(1)
        layout.addWidget(self.buttons)
        self._dice_changed()
        self.name.setFocus()

    # -- traits and mantles ------------------------------------------------------------

    def _fill_choices(self) -> None:
        """The traits and the mantles no character in play wears (each mantle once)."""
        content = self.campaign.content
        choices.fill(self.trait, "traits", content.traits.values())
        choices.fill(self.second_trait, "traits", content.traits.values(),
                     first=("No second trait", None))
        choices.fill(self.mantle, "mantles", content.mantles.values(), leave_out=self._worn)
        if self.mantle.count() == 1:  # only "Type another mantle…": every one is worn
            self.mantle.insertItem(0, "No mantle free (every mantle is worn)", None)
            self.mantle.setCurrentIndex(0)

    def _type_new(self, kind: str, name: str) -> str | None:
        """A trait or mantle typed from the box: remembered in the owner's pack (its own
        undo step), then offered; its id, or None when refused (the refusal is shown)."""
        from companion.operations.character_cards import add_mantle, add_trait

        op = add_trait if kind == "traits" else add_mantle
        changes = self.window_.run_operation(op, name=name)
        if not changes:
            return None
        self._fill_choices()
        if hasattr(self, "abilities"):
            self._validate()
        return str(changes.detail)

    # -- dice ----------------------------------------------------------------------

    def set_dice(self, values: list[int] | tuple[int, ...]) -> None:
        """Fill the five spin boxes (typed or rolled) and reset the assignment."""
        for spin, value in zip(self.dice, values, strict=False):
            spin.blockSignals(True)
            spin.setValue(int(value))
            spin.blockSignals(False)
        self._leave_out_chosen = False
        self._dice_changed()

    def roll_in_app(self) -> None:
        """Roll the dice with the campaign's seeded generator (journalled)."""
        from companion.operations import roll_dice

        results: list[Changes] = []

        def roll(campaign: Any, **kwargs: Any) -> Changes:
            changes = roll_dice(campaign, **kwargs)
            results.append(changes)
            return changes

        name = self.name.text().strip() or "a new character"
        if self.window_.run_operation(roll, count=self.creation.dice_rolled,
                                      purpose=f"{name}'s abilities") and results:
            self.set_dice(tuple(results[0].detail))  # type: ignore[arg-type]
            # One roll per character: the dice stand as rolled (Undo takes the roll back).
            self.roll_button.setEnabled(False)
            self.roll_button.setText("Rolled in the app")
            for spin in self.dice:
                spin.setReadOnly(True)

    def _fill_abilities(self) -> None:
        """Offer the kept values in every ability combo; assign them highest first."""
        fill_ability_combos(list(self.abilities.values()), self.kept())
        self._validate()

    # -- checks and creation ---------------------------------------------------------


    def _validate(self) -> None:
        check = check_assignment(self.kept(), list(self.assignment().values()),
                                 self.creation.second_trait_max_sum, self.rolled())
        self.assignment_note.setText(check.note)
        self.assignment_note.setStyleSheet(
            "" if check.ok else "QLabel { color: #a3231b; font-weight: bold; }")
        offer_second_trait(self.trait, self.second_trait, check.second_trait)
        self.trait_note.setText(check.trait_note)

    def _fill_hexes(self, replacement: bool) -> None:
        """The starting hex or an outpost's; after a death, the hexes with shelter."""
        from companion.operations.characters import replacement_hexes

        self.hex.clear()
        if replacement:
            game = read_game(self.campaign)
            starting = [tile for _, tile in self._start_hexes if tile is not None]
            hexes, sheltered = replacement_hexes(self.campaign, game, starting)
            # Rulebook: Character Death; with no shelter anywhere, the starting hex or an
            # outpost's (the pack's reading of the rule).
            for tile in hexes:
                self.hex.addItem(f"{tile} — has shelter" if sheltered else
                                 f"{tile} — no hex has shelter: starting hex or outpost",
                                 tile)
            if not self.hex.count():
                self.hex.addItem("No hex has shelter: prepare shelter first", None)
            return
        for label, tile in self._start_hexes:
            self.hex.addItem(label, tile)
        if not self.hex.count():
            self.hex.addItem("Not placed (the valley has no starting hex yet)", None)

    def traits(self) -> list[str]:
        chosen = [t for t in [choices.chosen(self.trait)] if t]
        second = choices.chosen(self.second_trait)
        if self.second_trait.isEnabled() and second:
            chosen.append(second)
        return chosen

    def create_character(self) -> None:
        """Create the character; on a refusal the dialog stays open."""
        from companion.operations import create_character

        if any(value < 1 for value in self.rolled()):
            from PySide6.QtWidgets import QMessageBox

            from companion.ui.widgets import NO_DICE_YET

            QMessageBox.warning(self, "Not allowed", NO_DICE_YET)
            return
        name = self.name.text().strip()
        ok = self.window_.run_operation(
            create_character, name=name, player=self.player.text().strip(),
            rolled=self.rolled(), removed=self.removed(), assignment=self.assignment(),
            traits=self.traits(), mantle=choices.chosen(self.mantle),
            hex_tile=self.hex.currentData(), after_death=self.replacement.isChecked())
        if ok:
            self.created = name
            self.accept()
