"""Apply Effects: card effects read at the table, built from the effect vocabulary."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6 import QtWidgets
from PySide6.QtCore import Qt

from companion.rules import effect_words
from companion.rules.effect_words import EFFECT_WORDS

from .play_dialog import WARN, PlayDialog, show, wrapped

if TYPE_CHECKING:
    from companion.ui.host import Host


# --- effects read at the table ------------------------------------------------------------

# The CLI and this dialog share one vocabulary of words (companion.rules.effect_words).
EFFECT_KINDS: tuple[tuple[str, str], ...] = tuple((w.do, w.label) for w in EFFECT_WORDS)
SIGNED = set(effect_words.SIGNED)
WITH_AMOUNT = set(effect_words.WITH_AMOUNT)


def typed_combo(name: str, placeholder: str) -> QtWidgets.QComboBox:
    """A list to pick from that also takes a name typed as a card prints it."""
    combo = QtWidgets.QComboBox()
    combo.setAccessibleName(name)
    combo.setEditable(True)
    combo.setInsertPolicy(QtWidgets.QComboBox.InsertPolicy.NoInsert)
    line = combo.lineEdit()
    if line is not None:
        line.setPlaceholderText(placeholder)
    return combo


class EffectsDialog(PlayDialog):
    """Build effects from the vocabulary (a card read at the table) and apply them
    together to one character: ``operations.effects.apply_effects``."""

    title = "Apply Effects"

    def __init__(self, window: Host, character: str | None = None) -> None:
        super().__init__(window)
        self.character = self.character_combo(character)
        self.source = QtWidgets.QLineEdit()
        self.source.setAccessibleName("Source")
        self.source.setPlaceholderText("e.g. Forage card: Thorn thicket")
        self.kind = QtWidgets.QComboBox()
        self.kind.setAccessibleName("Effect")
        for key, text in EFFECT_KINDS:
            self.kind.addItem(text, key)
        self.resource = typed_combo("Resource", "or type a new material, e.g. Reed")
        self.amount = QtWidgets.QSpinBox()
        self.amount.setAccessibleName("Amount")
        self.token = QtWidgets.QComboBox()
        self.token.setAccessibleName("Health token")
        from companion.content.schema.base import Ability, HealthToken

        for token in HealthToken:
            self.token.addItem(token.value.replace("_", " ").capitalize(), token.value)
        # Items and materials the pack knows, or one typed as the card names it: its
        # card or token is entered on the spot (issue 36 items 1 and 2; a box's pack
        # knows none at first, which left "gain the item None").
        self.item = typed_combo("Item", "type the item's name, e.g. Rope")
        self._fill_known()
        self.place = QtWidgets.QComboBox()
        self.place.setAccessibleName("Token to place")
        for token_name in ("lore", "fire", "shelter"):
            self.place.addItem(token_name.title(), token_name)
        self.ability = QtWidgets.QComboBox()
        self.ability.setAccessibleName("Ability")
        for ability in Ability:
            self.ability.addItem(ability.value.title(), ability.value)
        self.major = QtWidgets.QCheckBox("Major boost (+2)")
        self.outcome = QtWidgets.QLineEdit()
        self.outcome.setAccessibleName("Codex outcome")
        self.outcome.setPlaceholderText("three digits, e.g. 104")
        self.outcome.setMaxLength(3)
        self.mark = QtWidgets.QLineEdit()
        self.mark.setAccessibleName("Mark")
        self.mark.setPlaceholderText("as the card draws it, e.g. spiral")
        self.culture = QtWidgets.QLineEdit()
        self.culture.setAccessibleName("Culture ability")
        self.culture.setPlaceholderText("as the card or the Codex names it")

        self.form = QtWidgets.QFormLayout()
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
        self.form.addRow("Culture ability:", self.culture)
        self.form.addRow("Amount:", self.amount)
        self.add_button = QtWidgets.QPushButton("Add to the list ↓")
        self.add_button.clicked.connect(self.add_effect)
        self.form_note = wrapped()
        self.form_note.setStyleSheet(WARN)
        self.list = QtWidgets.QListWidget()
        self.list.setAccessibleName("Effects to apply together")
        self.remove_button = QtWidgets.QPushButton("Remove selected")
        self.remove_button.clicked.connect(self.remove_selected)
        self.effects: list[dict[str, Any]] = []

        builder = QtWidgets.QGroupBox("One effect")
        builder_layout = QtWidgets.QVBoxLayout(builder)
        builder_layout.addLayout(self.form)
        self.preview = wrapped()
        self.preview.setAccessibleName("The effect in the form")
        builder_layout.addWidget(self.preview)
        builder_layout.addWidget(self.add_button)
        builder_layout.addWidget(self.form_note)
        builder_layout.addWidget(wrapped(
            "Amounts are signed for energy, lore, activity and unrest (−1 loses one). "
            "Effects apply to the character chosen above, in one undoable step; the "
            "source is written in the journal with them."))
        builder_layout.addStretch(1)
        listed = QtWidgets.QGroupBox("Effects to apply together")
        listed_layout = QtWidgets.QVBoxLayout(listed)
        listed_layout.addWidget(self.list, 1)
        listed_layout.addWidget(self.remove_button)
        listed_layout.addWidget(wrapped(
            "A test needs a die: resolve it with Ability Test, then apply its success or "
            "failure effects here."))
        columns = QtWidgets.QHBoxLayout()
        columns.addWidget(builder, 1)
        columns.addWidget(listed, 1)
        self.body.addLayout(columns)
        self.apply_button = self.action_button("Apply")
        self.apply_button.clicked.connect(self.apply)
        self.kind.currentIndexChanged.connect(self._kind_changed)
        for combo in (self.resource, self.token, self.item, self.place, self.ability):
            combo.currentIndexChanged.connect(self._show_preview)
        for combo in (self.resource, self.item):
            combo.editTextChanged.connect(self._show_preview)
        self.amount.valueChanged.connect(self._show_preview)
        self.outcome.textChanged.connect(self._show_preview)
        self.mark.textChanged.connect(self._show_preview)
        self.culture.textChanged.connect(self._show_preview)
        self.major.toggled.connect(self._show_preview)
        self._kind_changed()
        self._refresh_list()
        self.resize(860, 480)

    def choose_kind(self, kind: str) -> None:
        self.kind.setCurrentIndex(self.kind.findData(kind))

    def choose_resource(self, resource: str) -> None:
        self.resource.setCurrentIndex(self.resource.findData(resource))

    def _fill_known(self) -> None:
        """The pack's materials, foods and items (again after one is entered here)."""
        campaign = self.campaign
        if campaign is not None:
            self.content = campaign.content
        for combo in (self.resource, self.item):
            combo.blockSignals(True)
            combo.clear()
        for material in self.content.materials.values():
            self.resource.addItem(f"{material.name} (material)", material.id)
        for food in self.content.foods.values():
            self.resource.addItem(f"{food.name} ({str(food.kind.value)} food)"
                                  if food.kind.value != "water" else food.name, food.id)
        for card in self.content.items.values():
            self.item.addItem(f"{card.name} ({card.slot.value})", card.id)
        for combo in (self.resource, self.item):
            combo.blockSignals(False)

    def _chosen(self, combo: QtWidgets.QComboBox, known: Any) -> str:
        """The id of what ``combo`` shows: the entry picked, one of ``known`` typed by
        id or name, or the text typed (a new one)."""
        import re

        text = combo.currentText().strip()
        if combo.currentIndex() >= 0 and combo.itemText(combo.currentIndex()) == text:
            return str(combo.currentData())
        squeeze = re.sub(r"[\s_-]+", "", text).casefold()
        for key, thing in known.items():
            if squeeze in (re.sub(r"[\s_-]+", "", str(key)).casefold(),
                           re.sub(r"[\s_-]+", "", thing.name).casefold()):
                return str(key)
        return text

    def _enter_new(self, effect: dict[str, Any], then: Any) -> bool:
        """An item or material the pack lacks, typed here: its card (or token) is
        entered on the spot, then it is chosen and ``then()`` goes on; True when one was
        opened."""
        import re

        from companion.ui.card_entry import enter_card_form
        from companion.ui.material_token import enter_tokens_then

        def chosen(combo: QtWidgets.QComboBox, key: str) -> None:
            self._fill_known()
            combo.setCurrentIndex(combo.findData(key))
            then()

        if effect["do"] == "gain_item" and effect["item"] not in self.content.items:
            self.form_note.setText(f"{effect['item']} is new to your pack: enter its item "
                                   "card (opened), then it goes on.")
            self.new_form = enter_card_form(
                self.window_, "items", parent=self, initial={
                    "id": re.sub(r"[^a-z0-9]+", "-", effect["item"].casefold()).strip("-")
                    or "item", "name": effect["item"]},
                on_saved=lambda item: chosen(self.item, item))
            return True
        resource = str(effect.get("resource", ""))
        if effect["do"] in ("gain", "lose") and resource not in self.content.materials \
                and resource not in self.content.foods:
            material = re.sub(r"[^a-z0-9]+", "-", resource.casefold()).strip("-")
            self.form_note.setText(f"{resource} is new to your pack: enter its material "
                                   "token (opened), then it goes on.")
            enter_tokens_then(self.window_, [material],
                              lambda: chosen(self.resource, material), parent=self)
            return True
        return False

    def _kind_changed(self) -> None:
        kind = str(self.kind.currentData())
        visible = {self.resource: kind in ("gain", "lose"), self.token: kind == "suffer",
                   self.item: kind == "gain_item", self.place: kind == "place",
                   self.ability: kind == "boost", self.major: kind == "boost",
                   self.outcome: kind == "read", self.mark: kind == "mark",
                   self.culture: kind == "culture", self.amount: kind in WITH_AMOUNT}
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
            effect["resource"] = self._chosen(self.resource, {**self.content.materials,
                                                              **self.content.foods})
        elif kind == "suffer":
            effect["token"] = self.token.currentData()
        elif kind == "gain_item":
            effect["item"] = self._chosen(self.item, self.content.items)
        elif kind == "place":
            effect["token"] = self.place.currentData()
        elif kind == "boost":
            effect["ability"] = self.ability.currentData()
            effect["major"] = self.major.isChecked()
        elif kind == "read":
            effect["outcome"] = self.outcome.text().strip()
        elif kind == "mark":
            effect["mark"] = self.mark.text().strip()
        elif kind == "unlock":
            effect["flag"] = "delving"  # the one flag an effect opens (D4)
        elif kind == "culture":
            effect["ability"] = " ".join(self.culture.text().split())
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
            return f"gain the item {self.item_name(effect['item'])}" + (
                "" if effect["item"] in self.content.items else " (new: its card first)") \
                if effect["item"] else "gain an item (type its name)"
        if kind == "place":
            return f"place {amount} {effect['token']} token(s) in the hex"
        if kind == "boost":
            return f"{'major' if effect['major'] else 'minor'} boost on {effect['ability']}"
        if kind == "read":
            return f"read Codex outcome {effect['outcome']}"
        if kind == "mark":
            return f"write the mark {effect['mark'] or '…'} on the character card"
        if kind == "unlock":
            return "unlock Delving"
        if kind == "culture":
            return f"culture ability: {effect['ability'] or '…'}"
        return f"{kind} {amount:+d}"

    def add_effect(self, then: Any = None) -> bool:
        """Add the form's effect to the list (checked against the vocabulary first); an
        item or material typed that the pack lacks is entered first, then ``then()``
        (by default: add it)."""
        from pydantic import ValidationError

        from companion.rules.effects import effects_from_data

        effect = self.current_effect()
        if effect["do"] in SIGNED and effect["amount"] == 0:
            self.form_note.setText("An amount of 0 changes nothing.")
            return False
        if effect["do"] == "mark" and not effect["mark"]:
            self.form_note.setText("Type the mark to write, as the card draws it.")
            return False
        if effect["do"] == "culture" and not effect["ability"]:
            self.form_note.setText("Type the culture ability, as the card or the Codex "
                                   "names it.")
            return False
        if effect["do"] in ("gain_item", "gain", "lose") and \
                not effect.get("item", effect.get("resource")):
            self.form_note.setText("Choose one, or type its name as the card names it.")
            return False
        if self._enter_new(effect, then or self.add_effect):
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
            hint = QtWidgets.QListWidgetItem("(nothing yet: Apply takes the effect in the form)")
            hint.setFlags(Qt.ItemFlag.NoItemFlags)
            self.list.addItem(hint)
        self.remove_button.setEnabled(bool(self.effects))

    def apply(self) -> None:
        """Apply the listed effects (or, with an empty list, the form's effect)."""
        from companion.operations.effects import apply_effects

        if not self.effects and not self.add_effect(then=self.apply):
            return
        changes = self.run(apply_effects, name=str(self.character.currentData()),
                           effects=list(self.effects), source=self.source.text().strip())
        if changes is not None:
            self.effects.clear()
            self._refresh_list()


def open_effects(window: Host, character: str | None = None) -> QtWidgets.QDialog | None:
    """Apply Effects… (Play menu)."""
    return show(EffectsDialog(window, character)) if window.campaign else None


# --- ability tests ------------------------------------------------------------------------
