"""The New Campaign wizard (File ▸ New Campaign; offered on first start beside the demo).

Pages: the society (name, players, characters, solo variant; reading D8), the content
pack, the region of the starting hex, the first challenge, one page per character
(Rulebook: Character Creation, steps 1-4), then a summary with the file to create.

Contract:

- Every page checks its input with the rules (``check_new_campaign``,
  ``rules.creation.create_character``, ``rules.challenge.eligible_challenges``) and says
  what is wrong in game words on the page itself; Next stays put until it is right.
- Nothing is written until Finish. Finish runs the ordinary operations, each its own
  journalled transaction: ``new_campaign``, ``set_up_valley``, ``start_challenge``, then
  ``create_character`` for each character. If one refuses, the wizard shows why and
  stays open; the file made by this Finish is closed and deleted (only that one:
  ``new_campaign`` refuses a path that already exists).
- Dice "rolled in the app" here come from a generator seeded from the campaign's own seed
  (the wizard picks it and passes it to ``new_campaign``), so they are reproducible from
  the file; the values are journalled by ``create_character`` like typed dice.

After ``exec()`` is accepted, ``wizard.campaign`` is the open campaign and
``wizard.path`` its file; :func:`new_campaign` does that and shows it in the window.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QButtonGroup,
    QComboBox,
    QFileDialog,
    QFormLayout,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QMessageBox,
    QPushButton,
    QRadioButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
    QWizard,
    QWizardPage,
)

from companion.ui.widgets import (
    AbilityDice,
    check_assignment,
    die_box,
    fill_ability_combos,
    offer_second_trait,
)

if TYPE_CHECKING:
    from companion.content.model import Content
    from companion.operations import Campaign
    from companion.ui.host import Host

MAX_CHARACTERS = 4
SOLO_CHOICES = (
    ("none", "Not solo"),
    ("multi", "Multi-character solo (one player, 2 to 4 characters)"),
    ("hardcore", "Hardcore solo (one player, one character)"),
)


class _ErrorLabel(QLabel):
    """The page's message: what is wrong, in game words. Never colour alone: it starts
    with a warning sign and is read out by screen readers."""

    def __init__(self) -> None:
        super().__init__()
        self.setWordWrap(True)
        self.setObjectName("wizardError")
        self.setAccessibleName("Problem")
        self.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByKeyboard |
                                     Qt.TextInteractionFlag.TextSelectableByMouse)
        self.hide()

    def show_problem(self, text: str) -> None:
        from companion.ui import theme

        self.setText(f"⚠ {text}")
        colour = "#ff8a80" if theme.is_dark() else "#a3231b"  # 7:1 on either background
        self.setStyleSheet(f"QLabel {{ color: {colour}; font-weight: bold; }}")
        self.setAccessibleDescription(text)
        self.show()

    def clear_problem(self) -> None:
        self.setText("")
        self.hide()


def _message(exc: BaseException) -> str:
    """A refusal's text with a capital letter and a full stop (rules messages are
    lower-case clauses: "choose a trait for the character")."""
    text = str(exc).strip()
    if text and text[0].islower():
        text = text[0].upper() + text[1:]
    if text and text[-1] not in ".!?":
        text += "."
    return text


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


# -- pages -------------------------------------------------------------------------------


class SocietyPage(QWizardPage):
    """Society name, players, characters and solo variant (reading D8)."""

    def __init__(self, wizard: NewCampaignWizard) -> None:
        super().__init__()
        self.wiz = wizard
        self.setTitle("Your society")
        self.setSubTitle("Name the society and say who plays. The number of characters "
                         "sets their health and energy.")
        self.society = QLineEdit()
        self.society.setAccessibleName("Society name")
        self.society.setPlaceholderText("e.g. The Ember Folk")
        self.players = QSpinBox()
        self.players.setRange(1, 4)
        self.players.setValue(2)
        self.players.setAccessibleName("Players")
        self.solo = QComboBox()
        self.solo.setAccessibleName("Solo variant")
        self.characters = QComboBox()
        self.characters.setAccessibleName("Characters")
        self.note = QLabel()
        self.note.setWordWrap(True)
        self.error = _ErrorLabel()
        form = QFormLayout()
        form.addRow("&Society name:", self.society)
        form.addRow("&Players:", self.players)
        form.addRow("S&olo variant:", self.solo)
        form.addRow("&Characters:", self.characters)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.note)
        layout.addWidget(self.error)
        layout.addStretch(1)
        self.players.valueChanged.connect(self._players_changed)
        self.solo.currentIndexChanged.connect(self._fill_characters)
        self.society.textChanged.connect(lambda _: self.error.clear_problem())
        self._players_changed()

    def _players_changed(self) -> None:
        current = self.solo.currentData()
        self.solo.blockSignals(True)
        self.solo.clear()
        for key, text in SOLO_CHOICES:
            if (key == "none") != (self.players.value() == 1):
                self.solo.addItem(text, key)
        index = self.solo.findData(current)
        self.solo.setCurrentIndex(max(index, 0))
        self.solo.setEnabled(self.solo.count() > 1)
        self.solo.blockSignals(False)
        self._fill_characters()

    def allowed_characters(self) -> list[int]:
        """The character counts the rules allow with these players and solo variant."""
        from companion.operations import Refused
        from companion.operations.files import check_new_campaign

        rules = self.wiz.content().rules
        allowed = []
        for count in range(1, MAX_CHARACTERS + 1):
            try:
                check_new_campaign(rules, players=self.players.value(), characters=count,
                                   solo=str(self.solo.currentData()))
            except Refused:
                continue
            allowed.append(count)
        return allowed

    def _fill_characters(self) -> None:
        current = self.characters.currentData()
        self.characters.blockSignals(True)
        self.characters.clear()
        allowed = self.allowed_characters()
        for count in allowed:
            self.characters.addItem(f"{count} character{'s' if count > 1 else ''}", count)
        index = self.characters.findData(current)
        self.characters.setCurrentIndex(index if index >= 0 else 0)
        self.characters.blockSignals(False)
        players = self.players.value()
        if players == 2:
            self.note.setText("Two players field 2 characters, or 4 (two each).")
        elif players == 1:
            self.note.setText("One player plays multi-character solo (2 to 4 characters) "
                              "or hardcore solo (a single character, tougher tracks).")
        else:
            self.note.setText(f"{players} players need at least {players} characters.")
        self.error.clear_problem()

    def validatePage(self) -> bool:  # noqa: N802 (Qt's name)
        from companion.operations import Refused
        from companion.operations.files import check_new_campaign

        if not self.society.text().strip():
            self.error.show_problem("A society needs a name.")
            self.society.setFocus()
            return False
        try:
            check_new_campaign(self.wiz.content().rules, players=self.players.value(),
                               characters=int(self.characters.currentData() or 0),
                               solo=str(self.solo.currentData()))
        except Refused as refusal:
            self.error.show_problem(_message(refusal))
            return False
        self.error.clear_problem()
        return True


class ContentPage(QWizardPage):
    """The content pack (with the packs it extends) the campaign is played with."""

    def __init__(self, wizard: NewCampaignWizard) -> None:
        super().__init__()
        self.wiz = wizard
        self.setTitle("Content pack")
        self.setSubTitle("The cards, hexes and challenges the campaign uses. A pack that "
                         "extends another brings that one too.")
        self.packs = QListWidget()
        self.packs.setAccessibleName("Content packs")
        self.details = QLabel()
        self.details.setWordWrap(True)
        self.details.setAccessibleName("Pack details")
        self.error = _ErrorLabel()
        label = QLabel("&Packs found (shipped, yours, and the folders in Settings):")
        label.setBuddy(self.packs)
        layout = QVBoxLayout(self)
        layout.addWidget(label)
        layout.addWidget(self.packs, 1)
        layout.addWidget(self.details)
        layout.addWidget(self.error)
        self.packs.currentItemChanged.connect(self._describe)

    def initializePage(self) -> None:  # noqa: N802
        from companion.content import ContentError, discover_packs

        if self.packs.count():
            return
        try:
            manifests = discover_packs(self.wiz.extra_content)
        except ContentError as exc:
            self.error.show_problem(f"A content pack could not be read:\n{exc}")
            manifests = []
        from companion.operations.box import BOX_PACK, KIND_WORDS, RULES_PACK, SAMPLE_PACK

        # My own box first, then the sample (the demo), then packs of the owner's making;
        # the rules pack alone is what both build on, not a campaign's choice.
        order = {BOX_PACK: 0, SAMPLE_PACK: 1}
        for manifest in sorted(manifests, key=lambda m: (order.get(m.id, 2), m.name)):
            if manifest.id == RULES_PACK:
                continue
            kind = {BOX_PACK: "box", SAMPLE_PACK: "sample"}.get(manifest.id)
            item = QListWidgetItem(KIND_WORDS[kind] if kind else
                                   f"{manifest.name} ({manifest.id} {manifest.version})")
            item.setData(Qt.ItemDataRole.UserRole, manifest)
            self.packs.addItem(item)
            if manifest.id == self.wiz.pack_id:
                self.packs.setCurrentItem(item)
        if self.packs.currentItem() is None and self.packs.count():
            self.packs.setCurrentRow(0)

    def _describe(self) -> None:
        item = self.packs.currentItem()
        manifest = item.data(Qt.ItemDataRole.UserRole) if item else None
        if manifest is None:
            self.details.setText("")
            return
        extends = f" Extends the pack '{manifest.extends}'." if manifest.extends else ""
        if manifest.extends == "stonesaga-rules":  # the one rules file: said in words
            extends = " It plays by the rulebook's rules."
        self.details.setText(f"{manifest.description or manifest.name}{extends}")
        self.error.clear_problem()

    def pack_id(self) -> str | None:
        item = self.packs.currentItem()
        manifest = item.data(Qt.ItemDataRole.UserRole) if item else None
        return str(manifest.id) if manifest is not None else None

    def validatePage(self) -> bool:  # noqa: N802
        from companion.operations import Refused
        from companion.operations.files import check_new_campaign

        pack = self.pack_id()
        if pack is None:
            self.error.show_problem("Choose a content pack.")
            return False
        try:
            content = self.wiz.load_pack(pack)
            society = self.wiz.society_page
            check_new_campaign(content.rules, players=society.players.value(),
                               characters=self.wiz.character_count(),
                               solo=str(society.solo.currentData()))
        except Refused as refusal:
            self.error.show_problem(_message(refusal))
            return False
        self.wiz.pack_id = pack
        self.error.clear_problem()
        return True

    def nextId(self) -> int:  # noqa: N802
        # My own box: its valley begins from the tiles on the table (box_wizard_page).
        if self.pack_id() == "box":
            return int(self.wiz.box_valley_id)
        return int(self.wiz.region_id)


class RegionPage(QWizardPage):
    """The region of the starting hex (Rulebook: Set Up > Determine Starting Hex)."""

    def __init__(self, wizard: NewCampaignWizard) -> None:
        super().__init__()
        self.wiz = wizard
        self.setTitle("Starting region")
        self.setSubTitle("The valley begins with the region's starting hex and two more "
                         "hexes of that region, face down (the app draws them).")
        self.region = QComboBox()
        self.region.setAccessibleName("Region of the starting hex")
        self.start = QLabel()
        self.start.setWordWrap(True)
        self.start.setAccessibleName("Starting hex")
        form = QFormLayout(self)
        form.addRow("&Region:", self.region)
        form.addRow("Starting hex:", self.start)
        self.region.currentIndexChanged.connect(self._describe)

    def initializePage(self) -> None:  # noqa: N802
        content = self.wiz.content()
        current = self.region.currentData()
        self.region.blockSignals(True)
        self.region.clear()
        for region in content.regions.values():
            self.region.addItem(region.name, region.id)
        self.region.setCurrentIndex(max(0, self.region.findData(current)))
        self.region.blockSignals(False)
        self._describe()

    def _describe(self) -> None:
        region = self.region.currentData()
        if region is None:
            self.start.setText("")
            return
        try:
            tile = self.wiz.content().starting_hex(region)
        except (KeyError, ValueError):
            self.start.setText("This region has no starting hex in the pack.")
            return
        name = getattr(tile, "name", "") or ""
        self.start.setText(f"{tile.id}{' — ' + name if name else ''}")

    def validatePage(self) -> bool:  # noqa: N802
        return self.region.currentData() is not None


class ChallengePage(QWizardPage):
    """The first challenge (Rulebook: Set Up > Select Challenge)."""

    def __init__(self, wizard: NewCampaignWizard) -> None:
        super().__init__()
        self.wiz = wizard
        self.setTitle("The first challenge")
        self.setSubTitle("Before the first game every challenge of the pack looms; the "
                         "group chooses among those with priority closest to 1.")
        self.challenges = QListWidget()
        self.challenges.setAccessibleName("Eligible challenges")
        self.details = QLabel()
        self.details.setWordWrap(True)
        self.error = _ErrorLabel()
        label = QLabel("&Challenges you may choose:")
        label.setBuddy(self.challenges)
        layout = QVBoxLayout(self)
        layout.addWidget(label)
        layout.addWidget(self.challenges, 1)
        layout.addWidget(self.details)
        layout.addWidget(self.error)
        self.challenges.currentItemChanged.connect(self._describe)

    def eligible(self) -> list[str]:
        """What ``operations.eligible_challenges`` answers for a campaign just founded."""
        from companion.rules import challenge as challenge_rules
        from companion.rules.ids import ChallengeId

        content = self.wiz.content()
        looming = [challenge_rules.LoomingChallenge(ChallengeId(c.id), c.priority)
                   for c in content.challenges.values()]
        return list(challenge_rules.eligible_challenges(looming, 1))

    def initializePage(self) -> None:  # noqa: N802
        content = self.wiz.content()
        current = self.challenge_id()
        self.challenges.clear()
        for cid in self.eligible():
            card = content.challenges[cid]
            item = QListWidgetItem(f"{card.name} (priority {card.priority})")
            item.setData(Qt.ItemDataRole.UserRole, cid)
            self.challenges.addItem(item)
            if cid == current:
                self.challenges.setCurrentItem(item)
        if self.challenges.currentItem() is None and self.challenges.count():
            self.challenges.setCurrentRow(0)

    def _describe(self) -> None:
        cid = self.challenge_id()
        card = self.wiz.content().challenges.get(cid) if cid else None
        text = ""
        if card is not None:
            for attr in ("text", "description", "story"):
                text = str(getattr(card, attr, "") or "")
                if text:
                    break
            goals = len(getattr(card, "vital_goals", ()) or ())
            text = (text + "\n" if text else "") + \
                f"{goals} vital goal{'s' if goals != 1 else ''}."
        self.details.setText(text)
        self.error.clear_problem()

    def challenge_id(self) -> str | None:
        item = self.challenges.currentItem()
        return str(item.data(Qt.ItemDataRole.UserRole)) if item else None

    def validatePage(self) -> bool:  # noqa: N802
        if self.challenge_id() is None:
            self.error.show_problem("Choose the challenge of the first game.")
            return False
        return True


class CharacterPage(AbilityDice, QWizardPage):
    """One character (Rulebook: Character Creation, steps 1-4): name, player, five dice
    typed from the table or rolled in the app, the die left out, the abilities, traits
    (a second only if the abilities sum to 11 or less) and a mantle (each worn once)."""

    def __init__(self, wizard: NewCampaignWizard, number: int) -> None:
        super().__init__()
        self.wiz = wizard
        self.number = number
        self.rolled_in_app = False
        self._rolls = 0
        self._filling = False
        self._leave_out_chosen = False
        self.setTitle(f"Character {number + 1}")
        self.setSubTitle("Character creation, steps 1-4: five dice (one left out), the "
                         "abilities, traits and a mantle.")
        self.name = QLineEdit()
        self.name.setAccessibleName(f"Character {number + 1} name")
        self.name.setPlaceholderText("The character's name")
        self.player = QComboBox()
        self.player.setAccessibleName("Player")

        self.dice_box = QGroupBox("&Dice: type the five dice rolled at the table, "
                                  "or roll them in the app")
        self.dice_grid = QGridLayout(self.dice_box)
        self.dice: list[QSpinBox] = []
        self.leave_out = QButtonGroup(self)
        self.roll_button = QPushButton("&Roll in the App")
        self.roll_button.setAccessibleName("Roll the five dice in the app")
        self.roll_button.clicked.connect(self.roll_in_app)
        self.dice_source = QLabel("Dice typed from the table.")
        self.dice_source.setAccessibleName("Where the dice came from")

        self.ability_box = QGroupBox("&Abilities: assign the four kept dice")
        self.ability_form = QFormLayout(self.ability_box)
        self.abilities: dict[str, QComboBox] = {}
        self.assignment_note = QLabel()
        self.assignment_note.setWordWrap(True)
        self.assignment_note.setAccessibleName("Assignment check")

        self.trait = QComboBox()
        self.trait.setAccessibleName("Trait")
        self.second_trait = QComboBox()
        self.second_trait.setAccessibleName("Second trait")
        self.trait_note = QLabel()
        self.trait_note.setWordWrap(True)
        self.mantle = QComboBox()
        self.mantle.setAccessibleName("Mantle")
        self.error = _ErrorLabel()

        top = QFormLayout()
        top.addRow("&Name:", self.name)
        top.addRow("&Player:", self.player)
        side = QFormLayout()
        side.addRow("&Trait:", self.trait)
        side.addRow("S&econd trait:", self.second_trait)
        side.addRow(self.trait_note)
        side.addRow("&Mantle:", self.mantle)
        side_widget = QWidget()
        side_widget.setLayout(side)
        columns = QHBoxLayout()
        columns.addWidget(self.ability_box, 1)
        columns.addWidget(side_widget, 1)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(self.dice_box)
        layout.addLayout(columns)
        layout.addWidget(self.error)
        self.name.textChanged.connect(lambda _: self.error.clear_problem())
        self._built_for: object = None

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
            radio = QRadioButton("Leave out")
            radio.setAccessibleName(f"Leave out die {n + 1}")
            radio.toggled.connect(self._leave_out_toggled)
            self.leave_out.addButton(radio, n)
            caption = QLabel(f"Die &{n + 1}")
            caption.setBuddy(spin)
            self.dice_grid.addWidget(caption, 0, n)
            self.dice_grid.addWidget(spin, 1, n)
            self.dice_grid.addWidget(radio, 2, n)
            self.dice.append(spin)
        self.dice_grid.addWidget(self.roll_button, 1, creation.dice_rolled)
        self.roll_button.setEnabled(True)  # new dice: one roll for them
        self.dice_grid.addWidget(self.dice_source, 3, 0, 1, creation.dice_rolled + 1)
        while self.ability_form.rowCount():
            self.ability_form.removeRow(0)
        self.abilities = {}
        for ability in creation.abilities:
            combo = QComboBox()
            combo.setAccessibleName(str(ability).title())
            combo.currentIndexChanged.connect(self._validate_assignment)
            self.ability_form.addRow(f"{str(ability).title()}:", combo)
            self.abilities[str(ability)] = combo
        self.assignment_note = QLabel()
        self.assignment_note.setWordWrap(True)
        self.assignment_note.setAccessibleName("Assignment check")
        self.ability_form.addRow(self.assignment_note)
        self.trait.clear()
        self.second_trait.clear()
        self.second_trait.addItem("No second trait", None)
        for trait in content.traits.values():
            self.trait.addItem(trait.name, trait.id)
            self.second_trait.addItem(trait.name, trait.id)
            if getattr(trait, "text", ""):
                self.trait.setItemData(self.trait.count() - 1, trait.text,
                                       Qt.ItemDataRole.ToolTipRole)
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
        # Mantles worn by the characters before this one are not offered (each once).
        taken = {c.mantle for c in self.wiz.characters_before(self.number) if c.mantle}
        current_mantle = self.mantle.currentData()
        self.mantle.clear()
        for mantle in self.wiz.content().mantles.values():
            if mantle.id not in taken:
                self.mantle.addItem(mantle.name, mantle.id)
        if not self.mantle.count():
            self.mantle.addItem("No mantle free (every mantle is worn)", None)
        self.mantle.setCurrentIndex(max(0, self.mantle.findData(current_mantle)))
        self.name.setFocus()

    # -- dice --------------------------------------------------------------------------

    def rolled(self) -> list[int]:
        return [spin.value() for spin in self.dice]

    def removed(self) -> int:
        return max(0, self.leave_out.checkedId())

    def kept(self) -> list[int]:
        removed = self.removed()
        return [v for i, v in enumerate(self.rolled()) if i != removed]

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
        chosen = [str(self.trait.currentData())] if self.trait.currentData() else []
        second = self.second_trait.currentData()
        if self.second_trait.isEnabled() and second:
            chosen.append(str(second))
        return chosen

    def choice(self) -> CharacterChoice:
        return CharacterChoice(
            name=self.name.text().strip(), player=self.player.currentText(),
            rolled=tuple(self.rolled()), removed=self.removed(), assignment=self.assignment(),
            traits=self.traits(), mantle=self.mantle.currentData(),
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
            self.error.show_problem(_message(exc))
            return False
        self.error.clear_problem()
        return True


class SummaryPage(QWizardPage):
    """What will be created, and where; Finish creates it."""

    def __init__(self, wizard: NewCampaignWizard) -> None:
        super().__init__()
        self.wiz = wizard
        self.setTitle("Found the society")
        self.setSubTitle("Finish creates the campaign file: the first terrain tray, the "
                         "first challenge and the characters, each a journal entry.")
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        self.summary.setAccessibleName("Summary")
        self.summary.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByKeyboard |
                                             Qt.TextInteractionFlag.TextSelectableByMouse)
        self.path = QLineEdit()
        self.path.setAccessibleName("Campaign file")
        self.browse = QPushButton("&Browse…")
        self.browse.setAccessibleName("Choose where to save the campaign file")
        self.browse.clicked.connect(self.choose_path)
        self.error = _ErrorLabel()
        row = QHBoxLayout()
        row.addWidget(self.path, 1)
        row.addWidget(self.browse)
        label = QLabel("Campaign &file:")
        label.setBuddy(self.path)
        layout = QVBoxLayout(self)
        layout.addWidget(self.summary)
        layout.addWidget(label)
        layout.addLayout(row)
        layout.addWidget(self.error)
        layout.addStretch(1)
        self.setFinalPage(True)
        self.path.textChanged.connect(lambda _: self.error.clear_problem())
        self._suggested = ""

    def initializePage(self) -> None:  # noqa: N802
        from companion import paths

        self.summary.setText(self.wiz.summary_html())
        name = self.wiz.society_name()
        suggested = str(paths.campaigns_dir() / paths.campaign_file_name(name))
        if not self.path.text() or self.path.text() == self._suggested:
            self.path.setText(suggested)
        self._suggested = suggested

    def nextId(self) -> int:  # noqa: N802
        return -1  # the last page (my own box's valley page is added after it)

    def choose_path(self) -> None:
        from companion import paths

        chosen, _ = QFileDialog.getSaveFileName(
            self, "Save the new campaign as", self.path.text(),
            f"Stonesaga campaigns (*{paths.CAMPAIGN_SUFFIX})")
        if chosen:
            self.path.setText(chosen)

    def target(self) -> Path:
        from companion import paths

        text = self.path.text().strip()
        if not text.endswith(paths.CAMPAIGN_SUFFIX):
            text += paths.CAMPAIGN_SUFFIX
        return Path(text).expanduser()

    def validatePage(self) -> bool:  # noqa: N802
        if not self.path.text().strip():
            self.error.show_problem("Choose where to save the campaign file.")
            return False
        target = self.target()
        if target.exists():
            self.error.show_problem(f"{target} already exists; choose another name so "
                                    "no campaign is overwritten.")
            return False
        if not target.parent.is_dir():
            self.error.show_problem(f"The folder {target.parent} does not exist.")
            return False
        problem = self.wiz.create_campaign()
        if problem:
            self.error.show_problem(problem)
            return False
        return True


# -- the wizard ------------------------------------------------------------------------------


class NewCampaignWizard(QWizard):
    """File ▸ New Campaign as a wizard (see the module docstring for the contract)."""

    def __init__(self, parent: QWidget | None = None, *, extra_content: Sequence[Path] = (),
                 seed: int | None = None, pack_id: str = "sample") -> None:
        super().__init__(parent)
        self.setWindowTitle("New Campaign")
        self.setObjectName("newCampaignWizard")
        self.setWizardStyle(QWizard.WizardStyle.ClassicStyle)
        self.setOption(QWizard.WizardOption.NoBackButtonOnStartPage, True)
        self.extra_content = [Path(p) for p in extra_content]
        self.seed = seed if seed is not None else secrets.randbits(48)
        self.pack_id = pack_id
        self._packs: dict[str, Content] = {}
        self.campaign: Campaign | None = None
        self.path: Path | None = None
        self.society_page = SocietyPage(self)
        self.content_page = ContentPage(self)
        self.region_page = RegionPage(self)
        self.challenge_page = ChallengePage(self)
        self.character_pages = [CharacterPage(self, n) for n in range(MAX_CHARACTERS)]
        self.summary_page = SummaryPage(self)
        from companion.ui.box_wizard_page import BoxValleyPage

        self.box_valley_page = BoxValleyPage(self)
        self.addPage(self.society_page)
        self.addPage(self.content_page)
        self.region_id = self.addPage(self.region_page)
        self.addPage(self.challenge_page)
        self.character_page_ids = [self.addPage(p) for p in self.character_pages]
        self.summary_id = self.addPage(self.summary_page)
        self.box_valley_id = self.addPage(self.box_valley_page)
        self.resize(820, 640)

    # -- content -------------------------------------------------------------------------

    def load_pack(self, pack_id: str) -> Content:
        """The merged content of ``pack_id`` (cached); ``Refused`` if it does not load."""
        if pack_id not in self._packs:
            from companion.content import ContentError, load_content
            from companion.operations import Refused

            try:
                self._packs[pack_id] = load_content(pack_id, extra_dirs=tuple(self.extra_content))
            except ContentError as exc:
                raise Refused(f"The content pack '{pack_id}' could not be loaded:\n{exc}") \
                    from exc
            except KeyError as exc:
                raise Refused(f"The content pack '{pack_id}' is not installed.") from exc
        return self._packs[pack_id]

    def content(self) -> Content:
        """The content of the chosen pack."""
        return self.load_pack(self.pack_id)

    # -- what was chosen ----------------------------------------------------------------

    def society_name(self) -> str:
        return self.society_page.society.text().strip()

    def character_count(self) -> int:
        return int(self.society_page.characters.currentData() or 1)

    def player_names(self) -> list[str]:
        """The players as ``new_campaign`` names them."""
        return [f"Player {n}" for n in range(1, self.society_page.players.value() + 1)]

    def region(self) -> str:
        return str(self.region_page.region.currentData())

    def challenge(self) -> str:
        return str(self.challenge_page.challenge_id())

    def characters(self) -> list[CharacterChoice]:
        return [p.choice() for p in self.character_pages[: self.character_count()]]

    def characters_before(self, number: int) -> list[CharacterChoice]:
        return [p.choice() for p in self.character_pages[:number]]

    # -- checks -----------------------------------------------------------------------

    def check_character(self, number: int, choice: CharacterChoice) -> Any:
        """Check a character with the rules, against the characters before it (names
        unique, each mantle once). Raises ``IllegalAction`` or ``Refused``."""
        from companion.content.schema.base import Ability
        from companion.operations import Refused
        from companion.rules import creation

        content = self.content()
        if choice.mantle is not None and choice.mantle not in content.mantles:
            raise Refused(f"There is no mantle '{choice.mantle}' in the content pack.")
        earlier = [self._as_character(c) for c in self.characters_before(number)]
        return creation.create_character(
            content.rules, name=choice.name, player=choice.player, rolled=choice.rolled,
            removed=choice.removed,
            assignment={Ability(a): v for a, v in choice.assignment.items()},
            traits=choice.traits, mantle=choice.mantle,
            character_count=self.character_count(), in_game=earlier,
            available_traits=list(content.traits) or None,
            hardcore=self.society_page.solo.currentData() == "hardcore",
            hex=content.starting_hex(self.region()).id)

    def _as_character(self, choice: CharacterChoice) -> Any:
        from companion.content.schema.base import Ability
        from companion.rules import creation

        content = self.content()
        return creation.create_character(
            content.rules, name=choice.name or "?", player=choice.player,
            rolled=choice.rolled, removed=choice.removed,
            assignment={Ability(a): v for a, v in choice.assignment.items()},
            traits=choice.traits or [next(iter(content.traits))], mantle=choice.mantle,
            character_count=self.character_count(),
            hardcore=self.society_page.solo.currentData() == "hardcore")

    def summary_html(self) -> str:
        from html import escape

        content = self.content()
        if self.pack_id == "box":
            return self._box_summary_html()
        solo = dict(SOLO_CHOICES)[str(self.society_page.solo.currentData())]
        region = content.regions[self.region()]
        challenge = content.challenges[self.challenge()]
        lines = [
            f"<b>{escape(self.society_name())}</b>: {self.society_page.players.value()} "
            f"player(s), {self.character_count()} character(s); {escape(solo)}.",
            f"Content pack: {escape(self.pack_id)}. Starting region: {escape(region.name)} "
            f"(hex {escape(str(content.starting_hex(region.id).id))}).",
            f"First challenge: {escape(challenge.name)}.",
        ]
        for c in self.characters():
            abilities = ", ".join(f"{a.title()} {v}" for a, v in c.assignment.items())
            traits = ", ".join(content.traits[t].name for t in c.traits if t in content.traits)
            worn = content.mantles.get(c.mantle) if c.mantle else None
            mantle = worn.name if worn is not None else "none"
            how = "rolled in the app" if c.rolled_in_app else "typed from the table"
            lines.append(f"• <b>{escape(c.name)}</b> ({escape(c.player)}): {abilities}; "
                         f"{escape(traits)}; mantle {escape(mantle)} — dice {how}.")
        return "<br>".join(lines)

    def _box_summary_html(self) -> str:
        """My own box: the society, the first tray from the table, what comes next."""
        from html import escape

        from companion.operations.box import KIND_WORDS
        from companion.ui.box_wizard_page import BOX_NEXT_STEPS

        page = self.box_valley_page
        start = page.starting_tile()
        region = self.content().regions[start["region"]]
        return "<br>".join([
            f"<b>{escape(self.society_name())}</b>: {self.society_page.players.value()} "
            f"player(s), {self.character_count()} character(s).",
            f"{escape(KIND_WORDS['box'])}.",
            f"The valley begins in {escape(region.name)} with the starting tile "
            f"{escape(start['tile'])} and the face-down tiles "
            f"{escape(', '.join(page.face_down_tiles()))}.",
            escape(BOX_NEXT_STEPS)])

    def _create_box(self, campaign: Campaign) -> None:
        """My own box: the starting tile typed into the owner's pack, the first tray."""
        from companion import operations
        from companion.operations.tiles import type_tile

        page = self.box_valley_page
        start = page.starting_tile()
        if start["tile"] not in campaign.content.hexes:
            type_tile(campaign, **start)
        operations.set_up_valley(campaign, region=start["region"],
                                 face_down=page.face_down_tiles())

    # -- Finish ----------------------------------------------------------------------------

    def create_campaign(self) -> str | None:
        """Create the campaign with the operations; ``None`` on success, else why not.

        On a refusal the file this call created is closed and deleted.
        """
        from companion import operations
        from companion.rules.errors import IllegalAction

        target = self.summary_page.target()
        society = self.society_page
        campaign: Campaign | None = None
        created: list[Path] = []
        before = _siblings(target)
        try:
            campaign = operations.new_campaign(
                target, society_name=self.society_name(), players=society.players.value(),
                characters=self.character_count(), solo=str(society.solo.currentData()),
                pack_id=self.pack_id, seed=self.seed, extra_content=self.extra_content)
            created = [p for p in _siblings(target) if p not in before]
            if self.pack_id == "box":
                self._create_box(campaign)
                self.campaign, self.path = campaign, target
                return None
            start = operations.set_up_valley(campaign, region=self.region()).detail[0]  # type: ignore[index]
            if self.challenge() not in operations.eligible_challenges(campaign):
                raise operations.Refused(f"The challenge '{self.challenge()}' may not be "
                                         "chosen for the first game.")
            operations.start_challenge(campaign, challenge=self.challenge())
            for choice in self.characters():
                operations.create_character(
                    campaign, name=choice.name, player=choice.player, rolled=choice.rolled,
                    removed=choice.removed, assignment=choice.assignment,
                    traits=choice.traits, mantle=choice.mantle, hex_tile=start)
        except (operations.Refused, IllegalAction) as refusal:
            if campaign is not None:
                campaign.close()
                created = [p for p in _siblings(target) if p not in before] or created
                for path in created:
                    _remove(path)
            return f"The campaign was not created: {_message(refusal)}"
        self.campaign = campaign
        self.path = target
        return None


def _siblings(target: Path) -> set[Path]:
    """The campaign file and the files the store keeps beside it (-wal, -shm, lock,
    backups folder) that exist now."""
    folder = target.parent
    if not folder.is_dir():
        return set()
    return {p for p in folder.iterdir() if p.name.startswith(target.name) or
            p.name.startswith("." + target.name)}


def _remove(path: Path) -> None:
    import shutil

    if path.is_dir():
        shutil.rmtree(path, ignore_errors=True)
    else:
        path.unlink(missing_ok=True)


def new_campaign(window: Host) -> None:
    """File ▸ New Campaign: run the wizard, then show the new campaign in the window."""
    from companion import settings

    wizard = NewCampaignWizard(window, extra_content=settings.load().extra_content())
    if wizard.exec() != QWizard.DialogCode.Accepted or wizard.campaign is None:
        return
    assert wizard.path is not None
    window.show_created(wizard.campaign, wizard.path)


def welcome(window: Host, *, ask: bool = True) -> bool:
    """First start: the demo campaign is open; offer the wizard for the group's own.

    Returns whether the wizard was started. ``ask=False`` starts it without asking.
    """
    if ask:
        box = QMessageBox(window)
        box.setWindowTitle("Welcome to Stonesaga Companion")
        box.setIcon(QMessageBox.Icon.Information)
        box.setText("A demo campaign, The Ember Folk, is open for you to explore.")
        box.setInformativeText("Start your own campaign now? The wizard walks you through "
                               "the society, the first challenge and the characters. You "
                               "can also do it later with File ▸ New Campaign.")
        start = box.addButton("&Start a New Campaign…", QMessageBox.ButtonRole.AcceptRole)
        box.addButton("&Explore the Demo", QMessageBox.ButtonRole.RejectRole)
        box.setDefaultButton(start)
        box.exec()
        if box.clickedButton() is not start:
            return False
    new_campaign(window)
    return True
