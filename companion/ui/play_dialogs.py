"""The "play" dialogs the table uses between procedures: card effects read at the table,
ability tests, processing, and the challenge lifecycle (start, end, goals, a new epoch,
ageing and healing between games).

Each dialog collects input with Qt's own widgets and writes only through
``Host.run_operation``; a refusal is shown there and leaves the dialog open. Each
has one entry function taking the main window (``open_effects(window)`` ...), which shows
it modeless and returns it.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QButtonGroup,
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QRadioButton,
    QScrollArea,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from companion.rules import effect_words
from companion.rules.effect_words import EFFECT_WORDS
from companion.ui.widgets import heading

if TYPE_CHECKING:
    from companion.operations import Changes
    from companion.ui.host import Host

WARN = "color: #a3231b; font-weight: bold;"


def _wrapped(text: str = "") -> QLabel:
    label = QLabel(text)
    label.setWordWrap(True)
    return label


def _checkable(text: str, data: object, *, checked: bool = False,
               enabled: bool = True) -> QListWidgetItem:
    item = QListWidgetItem(text)
    flags = Qt.ItemFlag.ItemIsUserCheckable | Qt.ItemFlag.ItemIsSelectable
    if enabled:
        flags |= Qt.ItemFlag.ItemIsEnabled
    item.setFlags(flags)
    item.setCheckState(Qt.CheckState.Checked if checked else Qt.CheckState.Unchecked)
    item.setData(Qt.ItemDataRole.UserRole, data)
    return item


def _checked(widget: QListWidget) -> list[Any]:
    return [widget.item(i).data(Qt.ItemDataRole.UserRole) for i in range(widget.count())
            if widget.item(i).checkState() == Qt.CheckState.Checked]


def _check(widget: QListWidget, data: object, checked: bool = True) -> None:
    for i in range(widget.count()):
        if widget.item(i).data(Qt.ItemDataRole.UserRole) == data:
            widget.item(i).setCheckState(Qt.CheckState.Checked if checked
                                         else Qt.CheckState.Unchecked)
            return
    raise KeyError(data)


class PlayDialog(QDialog):
    """What every play dialog shares: the window, the content, a result line, Close."""

    title = ""

    def __init__(self, window: Host) -> None:
        super().__init__(window)
        self.window_ = window
        assert window.campaign is not None
        self.content = window.campaign.content
        self.setWindowTitle(self.title)
        self.result_label = _wrapped()
        self.result_label.setAccessibleName("Result")
        self.result_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.result_label.hide()  # shown with the first operation's summary
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        self.buttons.rejected.connect(self.reject)
        self.body = QVBoxLayout()
        layout = QVBoxLayout(self)
        layout.addLayout(self.body, 1)
        layout.addWidget(self.result_label)
        layout.addWidget(self.buttons)
        window.campaign_changed.connect(self._campaign_changed)

    @property
    def campaign(self) -> Any:
        return self.window_.campaign

    def action_button(self, text: str) -> QPushButton:
        """The dialog's main button, beside Close."""
        button = self.buttons.addButton(text, QDialogButtonBox.ButtonRole.ActionRole)
        button.setDefault(True)
        return button

    def character_combo(self, character: str | None = None) -> QComboBox:
        combo = QComboBox()
        combo.setAccessibleName("Character")
        for summary in self.campaign.characters():
            combo.addItem(summary.name, summary.name)
        if character is not None and combo.findData(character) >= 0:
            combo.setCurrentIndex(combo.findData(character))
        return combo

    def sync_characters(self, combo: QComboBox) -> None:
        """Offer the characters in play again when they changed (one perished or aged
        out while the dialog was open), keeping the choice when it is still there."""
        names = [s.name for s in self.campaign.characters()]
        if [combo.itemData(i) for i in range(combo.count())] == names:
            return
        chosen = combo.currentData()
        combo.blockSignals(True)
        combo.clear()
        for name in names:
            combo.addItem(name, name)
        if chosen in names:
            combo.setCurrentIndex(names.index(chosen))
        combo.blockSignals(False)

    def run(self, operation: Any, **kwargs: Any) -> Changes | None:
        """Run ``operation`` through the window; show its summary when applied."""
        changes = self.window_.run_operation(operation, **kwargs)
        if changes is not None:
            self.result_label.setText(changes.summary)
            self.result_label.show()
        return changes

    def _campaign_changed(self, changes: object) -> None:
        if self.campaign is not None and self.isVisible():
            self.refresh()

    def refresh(self) -> None:
        """Re-read what the dialog shows (after any operation)."""

    def item_name(self, item: str) -> str:
        card = self.content.items.get(item)
        return card.name if card is not None else item

    def resource_name(self, resource: str) -> str:
        found = self.content.materials.get(resource) or self.content.foods.get(resource)
        return found.name if found is not None else resource


def _show(dialog: QDialog) -> QDialog:
    dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    dialog.show()
    return dialog


# --- effects read at the table ------------------------------------------------------------

# The CLI and this dialog share one vocabulary of words (companion.rules.effect_words).
EFFECT_KINDS: tuple[tuple[str, str], ...] = tuple((w.do, w.label) for w in EFFECT_WORDS)
SIGNED = set(effect_words.SIGNED)
WITH_AMOUNT = set(effect_words.WITH_AMOUNT)


class EffectsDialog(PlayDialog):
    """Build effects from the vocabulary (a card read at the table) and apply them
    together to one character: ``operations.effects.apply_effects``."""

    title = "Apply Effects"

    def __init__(self, window: Host, character: str | None = None) -> None:
        super().__init__(window)
        self.character = self.character_combo(character)
        self.source = QLineEdit()
        self.source.setAccessibleName("Source")
        self.source.setPlaceholderText("e.g. Forage card: Thorn thicket")
        self.kind = QComboBox()
        self.kind.setAccessibleName("Effect")
        for key, text in EFFECT_KINDS:
            self.kind.addItem(text, key)
        self.resource = QComboBox()
        self.resource.setAccessibleName("Resource")
        for material in self.content.materials.values():
            self.resource.addItem(f"{material.name} (material)", material.id)
        for food in self.content.foods.values():
            self.resource.addItem(f"{food.name} ({str(food.kind.value)} food)"
                                  if food.kind.value != "water" else food.name, food.id)
        self.amount = QSpinBox()
        self.amount.setAccessibleName("Amount")
        self.token = QComboBox()
        self.token.setAccessibleName("Health token")
        from companion.content.schema.base import Ability, HealthToken

        for token in HealthToken:
            self.token.addItem(token.value.replace("_", " ").capitalize(), token.value)
        self.item = QComboBox()
        self.item.setAccessibleName("Item")
        for card in self.content.items.values():
            self.item.addItem(f"{card.name} ({card.slot.value})", card.id)
        self.place = QComboBox()
        self.place.setAccessibleName("Token to place")
        for token_name in ("lore", "fire", "shelter"):
            self.place.addItem(token_name.title(), token_name)
        self.ability = QComboBox()
        self.ability.setAccessibleName("Ability")
        for ability in Ability:
            self.ability.addItem(ability.value.title(), ability.value)
        self.major = QCheckBox("Major boost (+2)")
        self.outcome = QLineEdit()
        self.outcome.setAccessibleName("Codex outcome")
        self.outcome.setPlaceholderText("three digits, e.g. 104")
        self.outcome.setMaxLength(3)
        self.mark = QLineEdit()
        self.mark.setAccessibleName("Mark")
        self.mark.setPlaceholderText("as the card draws it, e.g. spiral")

        self.form = QFormLayout()
        self.form.addRow("Character:", self.character)
        self.form.addRow("Source:", self.source)
        self.form.addRow("Effect:", self.kind)
        self.form.addRow("Resource:", self.resource)
        self.form.addRow("Token:", self.token)
        self.form.addRow("Item:", self.item)
        self.form.addRow("Place:", self.place)
        self.form.addRow("Ability:", self.ability)
        self.form.addRow("", self.major)
        self.form.addRow("Outcome:", self.outcome)
        self.form.addRow("Mark:", self.mark)
        self.form.addRow("Amount:", self.amount)
        self.add_button = QPushButton("Add to the list ↓")
        self.add_button.clicked.connect(self.add_effect)
        self.form_note = _wrapped()
        self.form_note.setStyleSheet(WARN)
        self.list = QListWidget()
        self.list.setAccessibleName("Effects to apply together")
        self.remove_button = QPushButton("Remove selected")
        self.remove_button.clicked.connect(self.remove_selected)
        self.effects: list[dict[str, Any]] = []

        builder = QGroupBox("One effect")
        builder_layout = QVBoxLayout(builder)
        builder_layout.addLayout(self.form)
        self.preview = _wrapped()
        self.preview.setAccessibleName("The effect in the form")
        builder_layout.addWidget(self.preview)
        builder_layout.addWidget(self.add_button)
        builder_layout.addWidget(self.form_note)
        builder_layout.addWidget(_wrapped(
            "Amounts are signed for energy, lore, activity and unrest (−1 loses one). "
            "Effects apply to the character chosen above, in one undoable step; the "
            "source is written in the journal with them."))
        builder_layout.addStretch(1)
        listed = QGroupBox("Effects to apply together")
        listed_layout = QVBoxLayout(listed)
        listed_layout.addWidget(self.list, 1)
        listed_layout.addWidget(self.remove_button)
        listed_layout.addWidget(_wrapped(
            "A test needs a die: resolve it with Ability Test, then apply its success or "
            "failure effects here."))
        columns = QHBoxLayout()
        columns.addWidget(builder, 1)
        columns.addWidget(listed, 1)
        self.body.addLayout(columns)
        self.apply_button = self.action_button("Apply")
        self.apply_button.clicked.connect(self.apply)
        self.kind.currentIndexChanged.connect(self._kind_changed)
        for combo in (self.resource, self.token, self.item, self.place, self.ability):
            combo.currentIndexChanged.connect(self._show_preview)
        self.amount.valueChanged.connect(self._show_preview)
        self.outcome.textChanged.connect(self._show_preview)
        self.mark.textChanged.connect(self._show_preview)
        self.major.toggled.connect(self._show_preview)
        self._kind_changed()
        self._refresh_list()
        self.resize(860, 480)

    def choose_kind(self, kind: str) -> None:
        self.kind.setCurrentIndex(self.kind.findData(kind))

    def choose_resource(self, resource: str) -> None:
        self.resource.setCurrentIndex(self.resource.findData(resource))

    def _kind_changed(self) -> None:
        kind = str(self.kind.currentData())
        visible = {self.resource: kind in ("gain", "lose"), self.token: kind == "suffer",
                   self.item: kind == "gain_item", self.place: kind == "place",
                   self.ability: kind == "boost", self.major: kind == "boost",
                   self.outcome: kind == "read", self.mark: kind == "mark",
                   self.amount: kind in WITH_AMOUNT}
        for widget, shown in visible.items():
            self.form.setRowVisible(widget, shown)
        # each effect starts at 1: an amount left over from another kind misleads
        self.amount.setRange(-20, 20) if kind in SIGNED else self.amount.setRange(1, 20)
        self.amount.setValue(1)
        self.form_note.clear()
        self._show_preview()

    def _show_preview(self, *_: object) -> None:
        self.preview.setText(f"In the form: {self.describe(self.current_effect())}")

    def current_effect(self) -> dict[str, Any]:
        """The effect the form describes, as the vocabulary's data."""
        kind = str(self.kind.currentData())
        effect: dict[str, Any] = {"do": kind}
        if kind in ("gain", "lose"):
            effect["resource"] = self.resource.currentData()
        elif kind == "suffer":
            effect["token"] = self.token.currentData()
        elif kind == "gain_item":
            effect["item"] = self.item.currentData()
        elif kind == "place":
            effect["token"] = self.place.currentData()
        elif kind == "boost":
            effect["ability"] = self.ability.currentData()
            effect["major"] = self.major.isChecked()
        elif kind == "read":
            effect["outcome"] = self.outcome.text().strip()
        elif kind == "mark":
            effect["mark"] = self.mark.text().strip()
        if kind in WITH_AMOUNT:
            effect["amount"] = self.amount.value()
        return effect

    def describe(self, effect: dict[str, Any]) -> str:
        """One effect in game words, with the pack's names."""
        kind, amount = effect["do"], effect.get("amount", 1)
        if kind in ("gain", "lose"):
            return f"{kind} {amount} {self.resource_name(effect['resource'])}"
        if kind == "suffer":
            return f"suffer {amount} {effect['token'].replace('_', ' ')}"
        if kind == "gain_item":
            return f"gain the item {self.item_name(effect['item'])}"
        if kind == "place":
            return f"place {amount} {effect['token']} token(s) in the hex"
        if kind == "boost":
            return f"{'major' if effect['major'] else 'minor'} boost on {effect['ability']}"
        if kind == "read":
            return f"read Codex outcome {effect['outcome']}"
        if kind == "mark":
            return f"write the mark {effect['mark'] or '…'} on the character card"
        return f"{kind} {amount:+d}"

    def add_effect(self) -> bool:
        """Add the form's effect to the list (checked against the vocabulary first)."""
        from pydantic import ValidationError

        from companion.rules.effects import effects_from_data

        effect = self.current_effect()
        if effect["do"] in SIGNED and effect["amount"] == 0:
            self.form_note.setText("An amount of 0 changes nothing.")
            return False
        if effect["do"] == "mark" and not effect["mark"]:
            self.form_note.setText("Type the mark to write, as the card draws it.")
            return False
        try:
            effects_from_data([effect])
        except ValidationError as exc:
            self.form_note.setText("Not in the effect vocabulary: " +
                                   "; ".join(str(e["msg"]) for e in exc.errors()[:2]))
            return False
        self.form_note.clear()
        self.effects.append(effect)
        self._refresh_list()
        return True

    def remove_selected(self) -> None:
        row = self.list.currentRow()
        if 0 <= row < len(self.effects):
            del self.effects[row]
            self._refresh_list()

    def _refresh_list(self) -> None:
        self.list.clear()
        for number, effect in enumerate(self.effects, 1):
            self.list.addItem(f"{number}. {self.describe(effect)}")
        if not self.effects:
            hint = QListWidgetItem("(nothing yet: Apply takes the effect in the form)")
            hint.setFlags(Qt.ItemFlag.NoItemFlags)
            self.list.addItem(hint)
        self.remove_button.setEnabled(bool(self.effects))

    def apply(self) -> None:
        """Apply the listed effects (or, with an empty list, the form's effect)."""
        from companion.operations.effects import apply_effects

        if not self.effects and not self.add_effect():
            return
        changes = self.run(apply_effects, name=str(self.character.currentData()),
                           effects=list(self.effects), source=self.source.text().strip())
        if changes is not None:
            self.effects.clear()
            self._refresh_list()


def open_effects(window: Host, character: str | None = None) -> QDialog | None:
    """Apply Effects… (Play menu)."""
    return _show(EffectsDialog(window, character)) if window.campaign else None


# --- ability tests ------------------------------------------------------------------------


class AbilityTestDialog(PlayDialog):
    """A test (Rulebook: Basic Concepts > Tests): 1d6 + ability + boosts + the card's
    trait bonuses or penalties, die typed or rolled: ``operations.challenge.ability_test``."""

    title = "Ability Test"

    def __init__(self, window: Host, character: str | None = None) -> None:
        super().__init__(window)
        from companion.content.schema.base import Ability

        self.character = self.character_combo(character)
        self.ability = QComboBox()
        self.ability.setAccessibleName("Ability")
        for ability in Ability:
            self.ability.addItem(ability.value.title(), ability.value)
        self.difficulty = QSpinBox()
        self.difficulty.setRange(1, 30)
        self.difficulty.setValue(8)
        self.difficulty.setAccessibleName("Difficulty")
        self.typed = QRadioButton("Typed from the table:")
        self.rolled = QRadioButton("Rolled by the app")
        self.typed.setChecked(True)
        group = QButtonGroup(self)
        group.addButton(self.typed)
        group.addButton(self.rolled)
        self.die = QSpinBox()
        self.die.setRange(1, 6)
        self.die.setValue(4)
        self.die.setAccessibleName("Die")
        die_row = QHBoxLayout()
        die_row.addWidget(self.typed)
        die_row.addWidget(self.die)
        die_row.addWidget(self.rolled)
        die_row.addStretch(1)
        self.rolled.toggled.connect(lambda on: self.die.setEnabled(not on))

        traits_box = QGroupBox("Trait bonuses (+) and penalties (−) the card lists")
        traits_grid = QGridLayout(traits_box)
        self.traits: dict[str, QSpinBox] = {}
        self.trait_labels: dict[str, QLabel] = {}
        for row, trait in enumerate(self.content.traits.values()):
            label = QLabel(trait.name)
            spin = QSpinBox()
            spin.setRange(-6, 6)
            spin.setAccessibleName(f"{trait.name} modifier")
            spin.valueChanged.connect(self._preview)
            traits_grid.addWidget(label, row // 2, (row % 2) * 2)
            traits_grid.addWidget(spin, row // 2, (row % 2) * 2 + 1)
            self.traits[trait.id] = spin
            self.trait_labels[trait.id] = label

        # Rulebook: Legends > Using Legend Cards: a held card lends its ability value or
        # one of its traits, then returns to the unassigned legends.
        self.legend = QComboBox()
        self.legend.setAccessibleName("Legend card")
        self.legend_use = QComboBox()
        self.legend_use.setAccessibleName("Use the legend card for")
        legend_row = QHBoxLayout()
        legend_row.addWidget(self.legend, 1)
        legend_row.addWidget(QLabel("for"))
        legend_row.addWidget(self.legend_use, 1)
        # Rulebook: Behemoths > Contests (D16): the same roll against the behemoth's value.
        self.contest = QCheckBox("A contest against the behemoth's")
        self.contest.setAccessibleName("Contest")
        self.behemoth_value = QSpinBox()
        self.behemoth_value.setRange(0, 20)
        self.behemoth_value.setValue(6)
        self.behemoth_value.setAccessibleName("Behemoth's ability value")
        self.behemoth_boosts = QSpinBox()
        self.behemoth_boosts.setRange(0, 6)
        self.behemoth_boosts.setAccessibleName("Behemoth's boosts on that ability")
        contest_row = QHBoxLayout()
        contest_row.addWidget(self.contest)
        contest_row.addWidget(QLabel("value"))
        contest_row.addWidget(self.behemoth_value)
        contest_row.addWidget(QLabel("+ boosts"))
        contest_row.addWidget(self.behemoth_boosts)
        contest_row.addStretch(1)
        self.contest.toggled.connect(self._contest_toggled)
        self.legend.currentIndexChanged.connect(self._fill_legend_use)
        self.character.currentIndexChanged.connect(self._fill_legends)

        form = QFormLayout()
        form.addRow("Character:", self.character)
        form.addRow("Ability:", self.ability)
        form.addRow("Difficulty:", self.difficulty)
        form.addRow("Die (1d6):", die_row)
        form.addRow("Legend card:", legend_row)
        form.addRow("Contest:", contest_row)
        self.preview = _wrapped()
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


def open_ability_test(window: Host, character: str | None = None) -> QDialog | None:
    """Ability Test… (Play menu)."""
    return _show(AbilityTestDialog(window, character)) if window.campaign else None


# --- processing ---------------------------------------------------------------------------


class ProcessDialog(PlayDialog):
    """Process (Rulebook: Processing & Crafting > Processing): flip chosen tokens, each
    using the icons it needs from the character's items (the energy icon costs 1 energy
    each): ``operations.day.process``."""

    title = "Process"

    def __init__(self, window: Host, character: str | None = None) -> None:
        super().__init__(window)
        self.character = self.character_combo(character)
        self.character.currentIndexChanged.connect(self.refresh)
        self.tokens = QListWidget()
        self.tokens.setAccessibleName("Tokens to process")
        self.tokens.itemChanged.connect(self._tally)
        self.available = _wrapped()
        self.available.setAccessibleName("Icons available")
        self.tally = _wrapped()
        self.tally.setAccessibleName("Icons needed")
        form = QFormLayout()
        form.addRow("Character:", self.character)
        self.body.addLayout(form)
        self.body.addWidget(QLabel("Unprocessed tokens in the bag (tick those to flip):"))
        self.body.addWidget(self.tokens, 1)
        self.body.addWidget(self.available)
        self.body.addWidget(self.tally)
        self.process_button = self.action_button("Process")
        self.process_button.clicked.connect(self.process)
        self.refresh()
        self.resize(620, 400)

    def _icon_name(self, icon: str) -> str:
        if icon == "energy":
            return "Energy (1 energy)"
        found = self.content.icons.get(icon)
        return found.name if found is not None else icon

    def _icons_text(self, icons: Counter[str]) -> str:
        return ", ".join(f"{self._icon_name(i)}" + (f" ×{n}" if n > 1 else "")
                         for i, n in icons.items()) or "none"

    def refresh(self) -> None:
        from companion.operations.day import _processing_needs

        name = str(self.character.currentData() or "")
        self.needs = {k: [str(i) for i in v] for k, v in _processing_needs(self.campaign).items()}
        self.tokens.blockSignals(True)
        self.tokens.clear()
        self.pool: Counter[str] = Counter()
        self.bag: tuple[Any, ...] = ()
        if name:
            character = self.campaign.character_detail(name)
            for index, token in enumerate(character.bag):
                if str(token.side) != "unprocessed":
                    continue
                needs = self.needs.get(token.name, [])
                # In words, not "#4 Shell — needs Grinding" (issue 27 item 22).
                icons = self._icons_text(Counter(needs))
                text = (f"{self.resource_name(token.name)} (token {index + 1} in the bag): "
                        + ("processing needs no icon" if icons == "none" else
                           f"processing needs {icons}"))
                self.tokens.addItem(_checkable(text, index))
            sources = []
            for item, _ in character.items:
                card = self.content.items.get(str(item))
                if card is not None and card.provides:
                    self.pool.update(str(i) for i in card.provides)
                    given = self._icons_text(Counter(map(str, card.provides)))
                    sources.append(f"{card.name} ({given})")
            self.available.setText(
                f"Icons from {name}'s items: {self._icons_text(self.pool)}"
                + (f" — from {'; '.join(sources)}" if sources else "")
                + ". Each icon serves one token.")
            self.bag = character.bag
        if not self.tokens.count():
            self.tokens.addItem(QListWidgetItem("(no unprocessed tokens)"))
        self.tokens.blockSignals(False)
        self._tally()

    def chosen(self) -> list[int]:
        return [int(i) for i in _checked(self.tokens) if i is not None]

    def check_token(self, index: int, checked: bool = True) -> None:
        _check(self.tokens, index, checked)

    def _tally(self, *_: object) -> None:
        chosen = self.chosen()
        wanted: Counter[str] = Counter()
        for index in chosen:
            wanted.update(self.needs.get(self.bag[index].name, []))
        energy = wanted.pop("energy", 0)
        short = {i: n - self.pool[i] for i, n in wanted.items() if n > self.pool[i]}
        cost = self.content.rules.action_costs.process + energy
        if not chosen:
            self.tally.setText("Tick the tokens to flip.")
            self.tally.setStyleSheet("")
        elif short:
            self.tally.setText("Not enough icons: short of " + self._icons_text(Counter(short))
                               + ".")
            self.tally.setStyleSheet(WARN)
        else:
            self.tally.setText(f"Needs {self._icons_text(wanted)}: all available. "
                               f"Processing costs {cost} energy.")
            self.tally.setStyleSheet("")
        self.process_button.setEnabled(bool(chosen))

    def process(self) -> None:
        from companion.operations.day import process

        self.run(process, name=str(self.character.currentData()), tokens=self.chosen())


def open_processing(window: Host, character: str | None = None) -> QDialog | None:
    """Process… (Play menu)."""
    return _show(ProcessDialog(window, character)) if window.campaign else None


# --- the challenge lifecycle --------------------------------------------------------------


class StartChallengeDialog(PlayDialog):
    """Choose and set up the next challenge (Rulebook: Set Up > Select Challenge): only
    the eligible ones are offered, with the priority rule explained."""

    title = "Start a Challenge"

    def __init__(self, window: Host) -> None:
        super().__init__(window)
        self.explanation = _wrapped()
        self.explanation.setAccessibleName("Priority rule")
        self.choices = QListWidget()
        self.choices.setAccessibleName("Eligible challenges")
        self.choices.currentRowChanged.connect(self._describe)
        self.card = _wrapped()
        self.card.setAccessibleName("Challenge card")
        # A card from the box the app doesn't know yet is typed from the card in hand
        # (issue 25 part 5): ui/challenge_card_form.py.
        self.unknown_button = QPushButton("A Challenge Card the App Doesn't Know Yet…")
        self.unknown_button.setAccessibleName("A challenge card the app doesn't know yet")
        self.unknown_button.clicked.connect(self.enter_unknown)
        self.unknown_note = _wrapped()
        unknown_row = QHBoxLayout()
        unknown_row.addWidget(self.unknown_note, 1)
        unknown_row.addWidget(self.unknown_button)
        self.body.addWidget(self.explanation)
        self.body.addWidget(QLabel("Challenges the group may choose now:"))
        self.body.addWidget(self.choices, 1)
        self.body.addWidget(self.card)
        self.body.addLayout(unknown_row)
        # Rulebook: Determine Starting Hex and Place Characters: in an existing valley
        # each character begins in the starting hex or any hex with an outpost; Mantle >
        # Mantle Board: each player chooses a mantle at the start of each challenge;
        # Continuing Play > Mantle Power: after the first challenge, then a power.
        from companion.operations.legends import unlocked_mantle_powers
        from companion.operations.setup import mantle_powers_offered

        self.placements: dict[str, QComboBox] = {}
        self.mantles: dict[str, QComboBox] = {}
        self.powers: dict[str, QComboBox] = {}
        self.places_box = QGroupBox("Each character begins (full energy, unharmed, no "
                                    "boosts) in the mantle chosen")
        grid = QGridLayout(self.places_box)
        hexes = self.campaign.starting_hexes()
        self.later = mantle_powers_offered(self.campaign)
        self.unlocked = unlocked_mantle_powers(self.campaign) if self.later else []
        headers = ["", "Where", "Mantle"] + (["Mantle power"] if self.later else [])
        for column, text in enumerate(headers):
            header = QLabel(text)
            bold = header.font()
            bold.setBold(True)
            header.setFont(bold)
            grid.addWidget(header, 0, column)
        for row, summary in enumerate(self.campaign.characters(), 1):
            name = summary.name
            grid.addWidget(QLabel(f"{name}:"), row, 0)
            combo = QComboBox()
            combo.setAccessibleName(f"Where {name} begins")
            for number, tile in enumerate(hexes):
                combo.addItem(f"{tile} — {'starting hex' if number == 0 else 'outpost'}",
                              tile)
            combo.setVisible(bool(hexes))
            grid.addWidget(combo, row, 1)
            self.placements[name] = combo
            mantle = QComboBox()
            mantle.setAccessibleName(f"{name}'s mantle")
            for card in self.content.mantles.values():
                mantle.addItem(card.name, card.id)
            worn = self.campaign.character_detail(name).mantle
            if worn is not None and mantle.findData(worn) >= 0:
                mantle.setCurrentIndex(mantle.findData(worn))
            grid.addWidget(mantle, row, 2)
            self.mantles[name] = mantle
            if self.later:
                power = QComboBox()
                power.setAccessibleName(f"{name}'s mantle power")
                grid.addWidget(power, row, 3)
                self.powers[name] = power
                mantle.currentIndexChanged.connect(
                    lambda _=0, n=name: self._offer_powers(n))
                self._offer_powers(name)
        grid.setColumnStretch(1, 1)
        self.mantle_note = _wrapped(
            "Each mantle is for one character each game. Mantle powers are chosen from the "
            "second challenge on, after the mantles." if not self.later else
            "Each mantle is for one character each game. A power must belong to the "
            "mantle chosen; it can also be chosen later, until someone acts.")
        grid.addWidget(self.mantle_note, len(self.mantles) + 1, 0, 1, len(headers))
        self.places_box.setVisible(bool(self.mantles))
        self.body.addWidget(self.places_box)
        self.start_button = self.action_button("Start Challenge")
        self.start_button.clicked.connect(self.start)
        self.refresh()
        self.resize(680, 520)

    def _offer_powers(self, name: str) -> None:
        """The unlocked powers of the mantle chosen for ``name``."""
        combo, mantle = self.powers[name], self.mantles[name].currentData()
        combo.clear()
        combo.addItem("(none)", None)
        for power in self.unlocked:
            card = self.content.mantle_powers.get(power)
            if card is not None and str(card.mantle) == mantle:
                combo.addItem(card.name, card.id)
        combo.setEnabled(combo.count() > 1)

    def refresh(self) -> None:
        from sqlmodel import select

        from companion.operations.setup import eligible_challenges
        from companion.store import models

        status = self.campaign.status()
        self.choices.clear()
        if status.challenge_id:
            self.explanation.setText(f"The challenge '{status.challenge_name}' is being "
                                     "played: end it first.")
            self.explanation.setStyleSheet(WARN)
            hint = QListWidgetItem("(none while a challenge is being played)")
            hint.setFlags(Qt.ItemFlag.NoItemFlags)
            self.choices.addItem(hint)
            self.start_button.setEnabled(False)
            self.unknown_button.setEnabled(False)
            return
        self.explanation.setStyleSheet("")
        eligible = eligible_challenges(self.campaign)
        from companion.operations.setup import unknown_looming

        self.unknown = unknown_looming(self.campaign)
        self.unknown_note.setText(
            "Looming, typed from the last outcome, card not entered yet: "
            + ", ".join(self.unknown) + "." if self.unknown else
            "A challenge card from your box that is not listed? Type it from the card.")
        self.unknown_button.setEnabled(True)
        with self.campaign.file.read() as session:
            looming = [r.challenge_id for r in session.exec(select(models.LoomingChallenge))]
        game = status.games_this_epoch + 1
        waiting = [c for c in dict.fromkeys(looming) if c not in eligible]
        text = (f"Epoch {status.epoch}: this will be game {game} of the epoch. Priority rule: "
                f"if every looming challenge's priority is above {game}, any of them may be "
                "chosen; otherwise the one(s) with priority closest to 1 must be.")
        if waiting:
            text += " Looming but not eligible now: " + ", ".join(
                self._label(c) for c in waiting) + "."
        if not eligible:
            text += " No challenge looms: an ended challenge names the looming ones."
        self.explanation.setText(text)
        for challenge in eligible:
            item = QListWidgetItem(self._label(challenge))
            item.setData(Qt.ItemDataRole.UserRole, challenge)
            self.choices.addItem(item)
        if eligible:
            self.choices.setCurrentRow(0)
        self.start_button.setEnabled(bool(eligible))

    def _label(self, challenge: str) -> str:
        card = self.content.challenges.get(challenge)
        return f"{card.name} (priority {card.priority})" if card else challenge

    def _describe(self, row: int) -> None:
        item = self.choices.item(row)
        card = self.content.challenges.get(item.data(Qt.ItemDataRole.UserRole)) if item else None
        self.card.setText(card.text if card else "")

    def choose(self, challenge: str) -> None:
        for row in range(self.choices.count()):
            if self.choices.item(row).data(Qt.ItemDataRole.UserRole) == challenge:
                self.choices.setCurrentRow(row)
                return
        raise KeyError(challenge)

    def start_choices(self) -> dict[str, dict[str, str]]:
        """Where each character begins, their mantles and powers, as chosen here."""
        return {"placements": {n: str(c.currentData()) for n, c in self.placements.items()
                               if c.currentData() is not None},
                "mantles": {n: str(c.currentData()) for n, c in self.mantles.items()},
                "mantle_powers": {n: str(c.currentData()) for n, c in self.powers.items()
                                  if c.currentData() is not None}}

    def start(self) -> None:
        from companion.operations.setup import start_challenge

        item = self.choices.currentItem()
        if item is None:
            return
        if self.run(start_challenge, challenge=item.data(Qt.ItemDataRole.UserRole),
                    **self.start_choices()):
            self.accept()

    def enter_unknown(self) -> Any:
        """Open the form for a challenge card the app doesn't know yet (the first
        looming id typed from the last outcome filled in); the challenge starts from it
        with the places and mantles chosen here."""
        from companion.ui.challenge_card_form import open_challenge_card

        self.card_form = open_challenge_card(
            self.window_, card_id=next(iter(getattr(self, "unknown", [])), ""),
            start_choices=self.start_choices, parent=self)
        if self.card_form is not None:
            self.card_form.accepted.connect(self.accept)
        return self.card_form


def open_start_challenge(window: Host) -> QDialog | None:
    """Start Challenge… (Play menu)."""
    return _show(StartChallengeDialog(window)) if window.campaign else None


class EndChallengeDialog(PlayDialog):
    """End the challenge (Rulebook: Continuing Play; Retaining Supplies, D13): the outcome
    entry, what each character retains (up to 5 items and 5 materials), and the looming
    challenges to set aside: ``operations.challenge.end_challenge``."""

    title = "End the Challenge"

    def __init__(self, window: Host) -> None:
        super().__init__(window)
        limits = self.content.rules.retained_supplies
        self.limits = (limits.items, limits.materials)
        self.heading = heading("")
        self.outcome = QLineEdit()
        self.outcome.setAccessibleName("Outcome entry")
        self.outcome.setPlaceholderText("the outcome entry the challenge card names, e.g. 112")
        self.outcome.textChanged.connect(self._validate)
        # The card names its outcome (issue 27 item 7): filled in when the app knows the
        # card, typed from the card otherwise (issue 25 part 5).
        self.outcome_source = _wrapped()
        self.outcome_source.setAccessibleName("Where the outcome comes from")
        outcome_row = QHBoxLayout()
        outcome_row.addWidget(self.outcome)
        outcome_row.addWidget(self.outcome_source, 1)
        form = QFormLayout()
        form.addRow("Outcome entry:", outcome_row)
        self.items: dict[str, QListWidget] = {}
        self.materials: dict[str, QListWidget] = {}
        self.counts: dict[str, QLabel] = {}
        holder = QWidget()
        self.people = QHBoxLayout(holder)
        self.people.setContentsMargins(0, 0, 0, 0)
        scroll = QScrollArea()
        scroll.setWidget(holder)
        scroll.setWidgetResizable(True)
        retain = QGroupBox(f"Retained supplies: up to {self.limits[0]} items and "
                           f"{self.limits[1]} material tokens each")
        QVBoxLayout(retain).addWidget(scroll)
        self.looming = QListWidget()
        self.looming.setAccessibleName("Looming challenges")
        for card in self.content.challenges.values():
            self.looming.addItem(_checkable(f"{card.name} (priority {card.priority})",
                                            card.id))
        rows = min(6, max(1, self.looming.count()))
        self.looming.setMaximumHeight(self.looming.sizeHintForRow(0) * rows +
                                      2 * self.looming.frameWidth() + 4)
        self.other_looming = QLineEdit()
        self.other_looming.setAccessibleName("Other looming challenges")
        self.other_looming.setPlaceholderText(
            "e.g. C4, C7 (cards the app doesn't know: entered when started)")
        looming_box = QGroupBox("Looming challenges the outcome names (set aside for the "
                                "next game)")
        looming_layout = QVBoxLayout(looming_box)
        looming_layout.addWidget(self.looming)
        others = QHBoxLayout()
        others_label = QLabel("Others, by the id on their cards:")
        others_label.setBuddy(self.other_looming)
        others.addWidget(others_label)
        others.addWidget(self.other_looming, 1)
        looming_layout.addLayout(others)
        self.note = _wrapped(
            "Also: unfinished epoch goals are set aside for the next game of the epoch; vital "
            "and sealed goals leave play; activity resets; fire, shelter and lore tokens "
            "leave the valley; the behemoth goes back to the box (what the society learned "
            "of it stays in the Journal). Every item and token not retained goes back to "
            "the box. Next game, each character begins with full energy (less 1 at unrest "
            "6+), unharmed, and takes up what they retained.")
        self.problem = _wrapped()
        self.problem.setStyleSheet(WARN)
        self.body.addWidget(self.heading)
        self.body.addLayout(form)
        # The looming list above everything that grows or shrinks: below the retained
        # supplies it moved when the outcome's hint disappeared, and a tick landed on
        # the wrong challenge (issue 27 item 11).
        self.body.addWidget(looming_box)
        self.body.addWidget(retain, 1)
        self.body.addWidget(self.note)
        self.body.addWidget(self.problem)
        self.end_button = self.action_button("End Challenge")
        self.end_button.clicked.connect(self.end)
        self._build_people()
        self.resize(900, 680)

    def _build_people(self) -> None:
        status = self.campaign.status()
        self.playing = status.challenge_name
        self.heading.setText(f"Ending: {status.challenge_name}" if status.challenge_name
                             else "No challenge is being played")
        from companion.operations.challenge_cards import card_outcome

        named = card_outcome(self.campaign, status.challenge_id)
        if named:
            self.outcome.setText(named)
            self.outcome_source.setText(f"The challenge card names entry {named}; it is "
                                        "read in the Codex when the challenge ends.")
        elif status.challenge_id:
            self.outcome_source.setText("Type the outcome entry printed on the challenge "
                                        "card; it is read in the Codex when it ends.")
        for summary in self.campaign.characters():
            name = summary.name
            character = self.campaign.character_detail(name)
            box = QGroupBox(name)
            layout = QVBoxLayout(box)
            items = QListWidget()
            items.setAccessibleName(f"{name}'s items to retain")
            for item, _ in character.items:
                items.addItem(_checkable(self.item_name(str(item)), str(item)))
            materials = QListWidget()
            materials.setAccessibleName(f"{name}'s material tokens to retain")
            for index, token in enumerate(character.bag):
                if str(token.kind) == "material":
                    side = str(token.side)
                    materials.addItem(_checkable(
                        f"#{index + 1} {self.resource_name(token.name)} ({side})", index))
            for widget in (items, materials):
                widget.itemChanged.connect(self._validate)
                widget.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
            count = QLabel()
            layout.addWidget(QLabel("Items:"))
            layout.addWidget(items if items.count() else QLabel("  none held"))
            layout.addWidget(QLabel("Material tokens:"))
            layout.addWidget(materials if materials.count() else QLabel("  none held"))
            layout.addWidget(count)
            layout.addStretch(1)
            self.people.addWidget(box)
            self.items[name], self.materials[name], self.counts[name] = items, materials, count
        self._validate()

    def check_item(self, name: str, item: str, checked: bool = True) -> None:
        _check(self.items[name], item, checked)

    def check_material(self, name: str, index: int, checked: bool = True) -> None:
        _check(self.materials[name], index, checked)

    def check_looming(self, challenge: str, checked: bool = True) -> None:
        _check(self.looming, challenge, checked)

    def retained(self) -> dict[str, tuple[list[str], list[int]]]:
        """name -> (item ids, bag positions) for the characters who retain anything."""
        kept = {}
        for name in self.items:
            items, tokens = _checked(self.items[name]), _checked(self.materials[name])
            if items or tokens:
                kept[name] = ([str(i) for i in items], [int(t) for t in tokens])
        return kept

    def _validate(self, *_: object) -> None:
        problems = []
        for name in self.items:
            items, tokens = len(_checked(self.items[name])), len(_checked(self.materials[name]))
            self.counts[name].setText(f"Retains {items} of {self.limits[0]} items, {tokens} "
                                      f"of {self.limits[1]} materials")
            over = items > self.limits[0] or tokens > self.limits[1]
            self.counts[name].setStyleSheet(WARN if over else "")
            if over:
                problems.append(f"{name} retains more than {self.limits[0]} items or "
                                f"{self.limits[1]} material tokens.")
        if not self.playing:
            problems.append("No challenge is being played.")
        elif not self.outcome.text().strip():
            problems.append("Type the outcome entry the challenge names.")
        self.problem.setText(" ".join(problems))
        self.problem.setVisible(bool(problems))
        self.end_button.setEnabled(not problems)

    def looming_chosen(self) -> list[str]:
        """The looming challenges ticked, then those typed by the id on their cards."""
        typed = [t.strip() for t in self.other_looming.text().replace(";", ",").split(",")]
        return list(dict.fromkeys([*_checked(self.looming), *(t for t in typed if t)]))

    def end(self) -> None:
        from companion.operations.challenge import end_challenge

        number = self.outcome.text().strip()
        changes = self.run(end_challenge, outcome=number, retained=self.retained(),
                           looming=self.looming_chosen())
        if changes is not None:
            self.outcome_read = read_outcome_after_end(self.window_, number)
            self.accept()


def read_outcome_after_end(window: Host, number: str) -> Any:
    """The ended challenge's outcome goes to the Codex: read it (its own operation,
    ``challenge_cards.read_challenge_outcome``), then show it in the Codex outcome
    dialog, which offers its effects (or, for an outcome the app doesn't know, asks what
    it did and remembers it): ``ui.codex_outcome.show_outcome``. Returns that dialog
    (None when the number is not an entry)."""
    from companion.operations import Refused
    from companion.operations.challenge_cards import read_challenge_outcome
    from companion.operations.codex import parse_request
    from companion.ui.codex_outcome import show_outcome

    try:
        if parse_request(number).kind != "outcome":
            return None
    except Refused:
        return None
    if window.run_operation(read_challenge_outcome, number=number) is None:
        return None
    return show_outcome(window, number)


def open_end_challenge(window: Host) -> QDialog | None:
    """End Challenge… (Play menu)."""
    return _show(EndChallengeDialog(window)) if window.campaign else None


GOAL_STATES = {"vital": "vital goal", "epoch": "epoch goal", "sealed": "sealed goal",
               "set_aside": "set aside (returns next game of the epoch)",
               "completed": "completed"}


class RetainedAndRuinsDialog(PlayDialog):
    """Between and during games: retained supplies a successor inherits (Rulebook:
    Retaining Supplies, D13; each claimed once) and an outpost that becomes a ruin when an
    effect says so (Rulebook: Overlays > Outposts > Ruins)."""

    title = "Retained Supplies and Ruins"

    def __init__(self, window: Host) -> None:
        super().__init__(window)
        supplies_box = QGroupBox("Retained supplies waiting to be taken up")
        supplies = QVBoxLayout(supplies_box)
        self.supplies = QListWidget()
        self.supplies.setAccessibleName("Retained supplies")
        self.taker = self.character_combo()
        self.taker.setAccessibleName("Who takes them up")
        self.claim_button = QPushButton("&Take Up")
        self.claim_button.clicked.connect(self.claim)
        row = QHBoxLayout()
        row.addWidget(QLabel("Taken up by:"))
        row.addWidget(self.taker, 1)
        row.addWidget(self.claim_button)
        supplies.addWidget(_wrapped(
            "A character takes up what they retained when the next challenge starts; "
            "what a legend retained goes to their player's next character."))
        supplies.addWidget(self.supplies, 1)
        supplies.addLayout(row)
        ruin_box = QGroupBox(
            "An outpost becomes a ruin, or loses a structure (when an effect says so)")
        ruin = QFormLayout(ruin_box)
        self.outposts = QComboBox()
        self.outposts.setAccessibleName("Outpost")
        self.reason = QLineEdit()
        self.reason.setAccessibleName("Why")
        self.reason.setPlaceholderText("the event or outcome, e.g. Activity 14: a storm")
        self.ruin_button = QPushButton("&Ruin It")
        self.ruin_button.clicked.connect(self.ruin)
        ruin.addRow("Outpost:", self.outposts)
        ruin.addRow("Because:", self.reason)
        ruin.addRow("", self.ruin_button)
        self.structures = QComboBox()
        self.structures.setAccessibleName("Structure")
        self.remove_button = QPushButton("Re&move Structure")
        self.remove_button.clicked.connect(self.remove_structure)
        self.outposts.currentIndexChanged.connect(self._list_structures)
        erase = QHBoxLayout()
        erase.addWidget(self.structures, 1)
        erase.addWidget(self.remove_button)
        ruin.addRow("Structure:", erase)
        self.body.addWidget(supplies_box, 1)
        self.body.addWidget(ruin_box)
        self.refresh()
        self.resize(640, 480)

    def refresh(self) -> None:
        from companion.operations.challenge import retained_supplies
        from companion.ui.widgets import read_game

        self.supplies.clear()
        for supply in retained_supplies(self.campaign):
            things = [str(i) for i in supply["items"]]  # type: ignore[attr-defined]
            things += [str(m) for m in supply["materials"]]  # type: ignore[attr-defined]
            item = QListWidgetItem(f"{supply['character']} ({supply['player']}) retained: "
                                   f"{', '.join(things) or 'nothing'}")
            item.setData(Qt.ItemDataRole.UserRole, supply["number"])
            self.supplies.addItem(item)
        if self.supplies.count():
            self.supplies.setCurrentRow(0)
        else:
            self.supplies.addItem("Nothing waits to be taken up.")
        self.claim_button.setEnabled(self.supplies.currentItem() is not None and
                                     self.supplies.currentItem().data(
                                         Qt.ItemDataRole.UserRole) is not None)
        self.outposts.clear()
        for outpost in read_game(self.campaign).outposts:
            if str(outpost.status) == "active":
                self.outposts.addItem(f"{outpost.name} ({outpost.hex})", outpost.name)
        self.ruin_button.setEnabled(self.outposts.count() > 0)
        if not self.outposts.count():
            self.outposts.addItem("No active outpost", None)
        self._list_structures()

    def _list_structures(self) -> None:
        """The structures on the chosen outpost's card (one may be removed by an effect)."""
        from companion.ui.widgets import read_game

        self.structures.clear()
        chosen = self.outposts.currentData()
        names = self.campaign.content.structures
        for outpost in read_game(self.campaign).outposts:
            if outpost.name == chosen:
                for structure in outpost.structures:
                    self.structures.addItem(
                        names[structure].name if structure in names else structure, structure)
        self.remove_button.setEnabled(self.structures.count() > 0)

    def claim(self) -> None:
        from companion.operations.challenge import claim_retained

        item = self.supplies.currentItem()
        if item is None or item.data(Qt.ItemDataRole.UserRole) is None:
            return
        self.run(claim_retained, name=str(self.taker.currentData()),
                 supply=int(item.data(Qt.ItemDataRole.UserRole)))

    def ruin(self) -> None:
        from companion.operations.challenge import ruin_outpost

        if self.outposts.currentData() is None:
            return
        if self.run(ruin_outpost, outpost=str(self.outposts.currentData()),
                    reason=self.reason.text().strip()):
            self.reason.clear()


    def remove_structure(self) -> None:
        from companion.operations.challenge import remove_structure

        if self.outposts.currentData() is None or self.structures.currentData() is None:
            return
        if self.run(remove_structure, outpost=str(self.outposts.currentData()),
                    structure=str(self.structures.currentData()),
                    reason=self.reason.text().strip()):
            self.reason.clear()


def open_retained_and_ruins(window: Host) -> QDialog | None:
    """Retained Supplies and Ruins… (Play menu)."""
    return _show(RetainedAndRuinsDialog(window)) if window.campaign else None


class GoalsDialog(PlayDialog):
    """The goals in play; complete one (its card goes beneath the challenge). Sealed goals
    are shown as "sealed goal" only: their text stays unread (spoilers)."""

    title = "Goals"

    def __init__(self, window: Host) -> None:
        super().__init__(window)
        self.goals = QListWidget()
        self.goals.setAccessibleName("Goals")
        self.goals.setWordWrap(True)
        self.goals.currentRowChanged.connect(self._selected)
        # Not "Goals the society has met": the list holds the goals still in play too.
        self.body.addWidget(QLabel("Goals in play, and those met (select one in play):"))
        self.body.addWidget(self.goals, 1)
        self.complete_button = self.action_button("Complete Goal")
        self.complete_button.clicked.connect(self.complete)
        self.refresh()
        self.resize(620, 420)

    def goal_text(self, goal: str, state: str) -> str:
        if state == "sealed":
            return "Sealed goal — not yet revealed"
        card = self.content.goals.get(goal) or self.content.set_aside_goals.get(goal)
        name = card.name if card is not None else goal
        said: str = str(getattr(card, "text", "") or "") if card is not None else ""
        text = f": {said}" if said else ""
        return f"{name} — {GOAL_STATES.get(state, state)}{text}"

    def refresh(self) -> None:
        self.goals.clear()
        for goal, state in self.campaign.goals_in_play():
            item = QListWidgetItem(self.goal_text(goal, state))
            item.setData(Qt.ItemDataRole.UserRole, goal)
            if state not in ("vital", "epoch", "sealed"):
                item.setFlags(Qt.ItemFlag.NoItemFlags)
            self.goals.addItem(item)
        if not self.goals.count():
            self.goals.addItem(QListWidgetItem("(no goals: start a challenge)"))
        self._selected()

    def choose(self, goal: str) -> None:
        for row in range(self.goals.count()):
            if self.goals.item(row).data(Qt.ItemDataRole.UserRole) == goal:
                self.goals.setCurrentRow(row)
                return
        raise KeyError(goal)

    def _selected(self, *_: object) -> None:
        item = self.goals.currentItem()
        self.complete_button.setEnabled(item is not None and bool(
            item.flags() & Qt.ItemFlag.ItemIsEnabled) and
            item.data(Qt.ItemDataRole.UserRole) is not None)

    def complete(self) -> None:
        from companion.operations.challenge import complete_goal

        item = self.goals.currentItem()
        if item is not None and item.data(Qt.ItemDataRole.UserRole):
            self.run(complete_goal, goal=str(item.data(Qt.ItemDataRole.UserRole)))


def open_goals(window: Host) -> QDialog | None:
    """Goals… (Play menu)."""
    return _show(GoalsDialog(window)) if window.campaign else None


class NewEpochDialog(PlayDialog):
    """A new epoch begins (only between challenges): the game count starts again and
    set-aside epoch goals lapse."""

    title = "New Epoch"

    def __init__(self, window: Host) -> None:
        super().__init__(window)
        self.heading = heading("")
        self.text = _wrapped()
        self.body.addWidget(self.heading)
        self.body.addWidget(self.text)
        self.body.addStretch(1)
        self.epoch_button = self.action_button("Begin the New Epoch")
        self.epoch_button.clicked.connect(self.begin)
        self.refresh()
        self.resize(520, 260)

    def refresh(self) -> None:
        status = self.campaign.status()
        lapse = [g for g, s in self.campaign.goals_in_play() if s == "set_aside"]
        self.heading.setText(f"Epoch {status.epoch} → epoch {status.epoch + 1}")
        if status.challenge_id:
            self.text.setText(f"The challenge '{status.challenge_name}' is being played: an "
                              "epoch changes only between challenges. End it first.")
            self.text.setStyleSheet(WARN)
            self.epoch_button.setEnabled(False)
            return
        self.text.setStyleSheet("")
        self.text.setText(
            f"{status.games_this_epoch} game(s) were played this epoch; the count starts "
            f"again. {len(lapse)} set-aside epoch goal(s) lapse.")
        self.epoch_button.setEnabled(True)

    def begin(self) -> None:
        from companion.operations.challenge import new_epoch

        if self.run(new_epoch):
            self.accept()


def open_new_epoch(window: Host) -> QDialog | None:
    """New Epoch… (Play menu)."""
    return _show(NewEpochDialog(window)) if window.campaign else None


class AgeingDialog(PlayDialog):
    """Between games: age a character (young → old → legend) and degrade a health token
    (major → minor, minor removed)."""

    title = "Age and Heal"

    def __init__(self, window: Host, character: str | None = None) -> None:
        super().__init__(window)
        self.character = self.character_combo(character)
        self.character.currentIndexChanged.connect(self.refresh)
        self.age = QLabel()
        self.age.setAccessibleName("Age")
        self.age_button = QPushButton()
        self.age_button.clicked.connect(self.age_character)
        self.health = QListWidget()
        self.health.setAccessibleName("Health tokens")
        self.degrade_button = QPushButton("Degrade the selected token")
        self.degrade_button.clicked.connect(self.degrade)
        self.health.currentRowChanged.connect(
            lambda row: self.degrade_button.setEnabled(row >= 0 and bool(self._tokens)))
        form = QFormLayout()
        form.addRow("Character:", self.character)
        form.addRow("Age:", self.age)
        form.addRow("", self.age_button)
        self.body.addLayout(form)
        self.body.addWidget(QLabel("Health tokens (major → minor, minor → removed):"))
        self.body.addWidget(self.health, 1)
        self.body.addWidget(self.degrade_button)
        self._tokens: list[str] = []
        self.refresh()
        self.resize(520, 420)

    def _names(self) -> list[str]:
        return [c.name for c in self.campaign.characters()]

    def refresh(self) -> None:
        current = self.character.currentData()
        names = self._names()
        if [self.character.itemData(i) for i in range(self.character.count())] != names:
            self.character.blockSignals(True)
            self.character.clear()
            for name in names:
                self.character.addItem(name, name)
            if current in names:
                self.character.setCurrentIndex(names.index(current))
            self.character.blockSignals(False)
        name = self.character.currentData()
        self.health.clear()
        self._tokens = []
        if not name:
            self.age.setText("no character")
            self.age_button.setEnabled(False)
            self.degrade_button.setEnabled(False)
            return
        character = self.campaign.character_detail(str(name))
        age = str(character.age.value if hasattr(character.age, "value") else character.age)
        self.age.setText(age.title())
        self.age_button.setEnabled(True)
        self.age_button.setText(f"Age {name}: young → old" if age == "young" else
                                f"Age {name}: old → legend (leaves play as a legend)")
        self._tokens = [str(t) for t in character.health]
        for number, token in enumerate(self._tokens, 1):
            self.health.addItem(f"{number}. {token.replace('_', ' ')}")
        if not self._tokens:
            self.health.addItem(QListWidgetItem("(no injury or disease tokens)"))
        self.degrade_button.setEnabled(False)

    def age_character(self) -> None:
        from companion.operations.challenge import age_character

        self.run(age_character, name=str(self.character.currentData()))

    def degrade(self) -> None:
        from companion.operations.challenge import degrade_token

        row = self.health.currentRow()
        if 0 <= row < len(self._tokens):
            self.run(degrade_token, name=str(self.character.currentData()), index=row)


def open_ageing(window: Host, character: str | None = None) -> QDialog | None:
    """Age and Heal… (Play menu)."""
    return _show(AgeingDialog(window, character)) if window.campaign else None
