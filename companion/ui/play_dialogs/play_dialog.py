"""What every play dialog shares: the window, the content, a result line, Close; and the
small widgets they build their forms from (wrapped labels, checkable lists)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6 import QtWidgets
from PySide6.QtCore import Qt

if TYPE_CHECKING:
    from companion.operations import Changes
    from companion.ui.host import Host


WARN = "color: #a3231b; font-weight: bold;"


def wrapped(text: str = "") -> QtWidgets.QLabel:
    label = QtWidgets.QLabel(text)
    label.setWordWrap(True)
    return label


def checkable(text: str, data: object, *, checked: bool = False,
               enabled: bool = True) -> QtWidgets.QListWidgetItem:
    item = QtWidgets.QListWidgetItem(text)
    flags = Qt.ItemFlag.ItemIsUserCheckable | Qt.ItemFlag.ItemIsSelectable
    if enabled:
        flags |= Qt.ItemFlag.ItemIsEnabled
    item.setFlags(flags)
    item.setCheckState(Qt.CheckState.Checked if checked else Qt.CheckState.Unchecked)
    item.setData(Qt.ItemDataRole.UserRole, data)
    return item


def checked(widget: QtWidgets.QListWidget) -> list[Any]:
    return [widget.item(i).data(Qt.ItemDataRole.UserRole) for i in range(widget.count())
            if widget.item(i).checkState() == Qt.CheckState.Checked]


def check(widget: QtWidgets.QListWidget, data: object, checked: bool = True) -> None:
    for i in range(widget.count()):
        if widget.item(i).data(Qt.ItemDataRole.UserRole) == data:
            widget.item(i).setCheckState(Qt.CheckState.Checked if checked
                                         else Qt.CheckState.Unchecked)
            return
    raise KeyError(data)


class PlayDialog(QtWidgets.QDialog):
    """What every play dialog shares: the window, the content, a result line, Close."""

    title = ""

    def __init__(self, window: Host) -> None:
        super().__init__(window)
        self.window_ = window
        assert window.campaign is not None
        self.content = window.campaign.content
        self.setWindowTitle(self.title)
        self.result_label = wrapped()
        self.result_label.setAccessibleName("Result")
        self.result_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.result_label.hide()  # shown with the first operation's summary
        self.buttons = QtWidgets.QDialogButtonBox(QtWidgets.QDialogButtonBox.StandardButton.Close)
        self.buttons.rejected.connect(self.reject)
        self.body = QtWidgets.QVBoxLayout()
        layout = QtWidgets.QVBoxLayout(self)
        layout.addLayout(self.body, 1)
        layout.addWidget(self.result_label)
        layout.addWidget(self.buttons)
        window.campaign_changed.connect(self._campaign_changed)

    @property
    def campaign(self) -> Any:
        return self.window_.campaign

    def action_button(self, text: str) -> QtWidgets.QPushButton:
        """The dialog's main button, beside Close."""
        button = self.buttons.addButton(text, QtWidgets.QDialogButtonBox.ButtonRole.ActionRole)
        button.setDefault(True)
        return button

    def character_combo(self, character: str | None = None) -> QtWidgets.QComboBox:
        combo = QtWidgets.QComboBox()
        combo.setAccessibleName("Character")
        for summary in self.campaign.characters():
            combo.addItem(summary.name, summary.name)
        if character is not None and combo.findData(character) >= 0:
            combo.setCurrentIndex(combo.findData(character))
        return combo

    def sync_characters(self, combo: QtWidgets.QComboBox) -> None:
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


def show(dialog: QtWidgets.QDialog) -> QtWidgets.QDialog:
    dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    dialog.show()
    return dialog
