"""What the owner's Codex says for a crafting code (issue 36 item 1; Rulebook: Processing
& Crafting > Crafting Items; Using the Codex > Crafting Entries).

A "My own box" campaign has no copy of the box's Codex. When two laid tokens read a code
the own pack has not remembered, Craft opens this dialog instead of reading "no entry":
the group reads the code in the book and says what it makes, an item (its name, the
kind of item, what it does, typed once; or an item the pack knows, picked by name), a
dead end, or that the Codex has no entry. **Remember and craft** remembers the answer in
the owner's pack and crafts, in one undoable operation
(``operations.codex_crafting.craft_from_codex``); the next time the code is known.
As the Codex outcome dialog (``ui/codex_outcome.py``): a refusal is said here and the
dialog stays open.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QButtonGroup,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QRadioButton,
    QVBoxLayout,
    QWidget,
)

from companion.ui.widgets import action_buttons, button, heading, line_edit, note_label

if TYPE_CHECKING:
    from companion.rules.crafting import CraftingCode
    from companion.ui.host import Host

ANSWERS = (("item", "It makes an &item"), ("dead_end", "A &dead end: it makes nothing"),
           ("no_entry", "&No entry for this code"))
"""What the Codex may say, as the radio buttons offer it."""


class CodexCraftingDialog(QDialog):
    """Asks what the owner's Codex says for ``code``, remembers it and crafts."""

    crafted = Signal(object)
    """The operation's Changes, once the craft was made."""

    def __init__(self, window: Host, code: CraftingCode, laid: Mapping[str, Any], *,
                 parent: QWidget | None = None) -> None:
        from companion.operations.codex_crafting import SLOTS

        super().__init__(parent or window)
        self.window_ = window
        self.code = code
        self.laid = dict(laid)
        campaign = window.campaign
        assert campaign is not None
        self.setObjectName("codexCrafting")
        self.setWindowTitle(f"Your Codex: {code.label}")
        layout = QVBoxLayout(self)
        layout.addWidget(heading(f"{code.label}  ({code})", 1.4))
        layout.addWidget(note_label(
            "The app has no copy of your box's Codex. Read this code in the Codex's "
            "crafting entries and say what it makes: the app remembers it in your own "
            "pack, then crafts. The action's energy is spent only now."))
        self.answers = QButtonGroup(self)
        self.buttons: dict[str, QRadioButton] = {}
        row = QHBoxLayout()
        for key, text in ANSWERS:
            radio = QRadioButton(text)
            radio.setObjectName(f"says_{key}")
            self.answers.addButton(radio)
            self.buttons[key] = radio
            row.addWidget(radio)
            radio.toggled.connect(self._shown)
        row.addStretch(1)
        layout.addLayout(row)
        self.form = QFormLayout()
        self.item = QComboBox()
        self.item.setEditable(True)
        self.item.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        self.item.setAccessibleName("The item, as its card names it")
        typed = self.item.lineEdit()
        if typed is not None:
            typed.setPlaceholderText("its name, e.g. Rope")
        for item_id, card in sorted(campaign.content.items.items(), key=lambda i: i[1].name):
            self.item.addItem(card.name, str(item_id))
        self.item.setCurrentIndex(-1)
        self.item.editTextChanged.connect(self._shown)
        self.form.addRow("&Item:", self.item)
        self.slot = QComboBox()
        self.slot.setAccessibleName("Kind of item: the slot it takes")
        for slot in SLOTS:
            self.slot.addItem(slot, slot)
        self.form.addRow("&Kind:", self.slot)
        self.does = line_edit("What the item does", "as its card says")
        self.form.addRow("What it &does:", self.does)
        self.card = line_edit("Item card id", "as printed, e.g. IT29 (optional)")
        self.form.addRow("&Card:", self.card)
        self.words = line_edit("The dead end's words", "as the Codex says (optional)")
        self.form.addRow("Its &words:", self.words)
        layout.addLayout(self.form)
        self.status = note_label(name="Why nothing was crafted yet")
        self.status.setObjectName("codexCraftingStatus")
        layout.addWidget(self.status)
        layout.addStretch(1)
        self.craft_button = button("&Remember and craft", self.apply)
        self.craft_button.setObjectName("rememberAndCraft")
        layout.addWidget(action_buttons(self, QDialogButtonBox.StandardButton.Cancel,
                                        self.craft_button,
                                        QDialogButtonBox.ButtonRole.AcceptRole))
        self.buttons["item"].setChecked(True)
        self._shown()
        self.item.setFocus()

    def _known_item(self) -> str | None:
        """The id of the pack's item the name field names, if it does."""
        from companion.operations.codex_crafting import find_item

        campaign = self.window_.campaign
        text = self.item.currentText().strip()
        return find_item(campaign, text) if campaign is not None and text else None

    def _shown(self, *_: object) -> None:
        """The fields the chosen answer needs (a known item needs no kind or words)."""
        making = self.buttons["item"].isChecked()
        new = making and self._known_item() is None
        self.form.setRowVisible(self.item, making)
        for field in (self.slot, self.does, self.card):
            self.form.setRowVisible(field, new)
        self.form.setRowVisible(self.words, self.buttons["dead_end"].isChecked())

    def says(self) -> Any:
        """The answer as the operation takes it."""
        from companion.operations.codex_crafting import CodexSays

        if self.buttons["no_entry"].isChecked():
            return CodexSays(no_entry=True)
        if self.buttons["dead_end"].isChecked():
            return CodexSays(dead_end=True, text=self.words.text())
        known = self._known_item()
        if known is not None:
            return CodexSays(item=known)
        return CodexSays(item=self.item.currentText(), slot=str(self.slot.currentData()),
                         text=self.does.text(), card=self.card.text())

    def apply(self) -> bool:
        """Remember the answer and craft (one operation); the dialog closes when it is
        done, else it says why and stays."""
        from companion.operations.codex_crafting import craft_from_codex
        from companion.ui.dialog_operation import apply_and_close

        if self.window_.campaign is None:
            return False
        says = self.says()
        return apply_and_close(self, self.window_, lambda campaign: craft_from_codex(
            campaign, **self.laid, says=says), say=self.status, refused="Not crafted",
            done=self.crafted)


def ask_the_codex(window: Host, code: CraftingCode, laid: Mapping[str, Any], *,
                  parent: QWidget | None = None) -> CodexCraftingDialog:
    """Open the question for ``code`` (window-modal, returned at once); ``crafted`` is
    emitted with the Changes once the answer is remembered and the craft made."""
    dialog = CodexCraftingDialog(window, code, laid, parent=parent)
    dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    dialog.setWindowModality(Qt.WindowModality.WindowModal)
    dialog.open()
    return dialog
