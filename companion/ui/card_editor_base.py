"""What every editor of the card form shares (:mod:`companion.ui.card_form`): the value
of a field left out, a field's label, the editor's protocol, and a list of parts with
Add and Remove; apart so that the one-line effects editor
(:mod:`companion.ui.effects_line_editor`) builds on them without importing the form."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QGroupBox, QHBoxLayout, QPushButton, QVBoxLayout, QWidget

MISSING: Any = object()
"""An editor's value when the field is left out (the schema's default applies)."""

NONE_TEXT = "(none)"


def words(name: str) -> str:
    """A field name as a label: ``min_depth`` -> "Min depth"."""
    return name.replace("_", " ").capitalize()


class Editor(QWidget):
    """An editor of one value; ``value()`` is MISSING when the field is left out."""

    def value(self) -> Any:
        raise NotImplementedError

    def set_value(self, value: Any) -> None:
        raise NotImplementedError

    def child(self, key: str | int) -> Editor | None:
        """The editor of a part of this value (for pointing at a field's error)."""
        return None

    def unread(self) -> str | None:
        """What this editor itself cannot read (a typed line that does not parse), in
        game words; None when it reads. The form will not save while one says so."""
        return None

    def mark(self, message: str | None) -> None:
        """Show (or clear) a problem with this value."""
        self.setToolTip(message or "")
        self.setStyleSheet("" if message is None else
                           "QLineEdit, QComboBox, QSpinBox, QPlainTextEdit "
                           "{ border: 2px solid #c0392b; }")


Lookup = Callable[[str], Mapping[str, str]]
"""Component kind -> {id: name} of the content (for references)."""


class RowsEditor(Editor):
    """A list of parts, one row each, with Add and Remove."""

    def __init__(self, make: Callable[[], Editor], noun: str) -> None:
        super().__init__()
        self.make = make
        self.rows: list[Editor] = []
        self.holders: list[QWidget] = []
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.rows_layout = QVBoxLayout()
        layout.addLayout(self.rows_layout)
        self.add_button = QPushButton(f"Add {noun}")
        self.add_button.setObjectName("addRow")
        self.add_button.setAutoDefault(False)
        self.add_button.clicked.connect(lambda: self.add_row())
        row = QHBoxLayout()
        row.addWidget(self.add_button)
        row.addStretch(1)
        layout.addLayout(row)

    def add_row(self, value: Any = MISSING) -> Editor:
        editor = self.make()
        holder = QWidget()
        line = QHBoxLayout(holder)
        line.setContentsMargins(0, 0, 0, 0)
        frame = QGroupBox()
        inner = QVBoxLayout(frame)
        inner.setContentsMargins(6, 6, 6, 6)
        inner.addWidget(editor)
        line.addWidget(frame, 1)
        remove = QPushButton("Remove")
        remove.setAutoDefault(False)
        remove.setObjectName("removeRow")
        remove.clicked.connect(lambda: self._remove(editor, holder))
        line.addWidget(remove, 0, Qt.AlignmentFlag.AlignTop)
        self.rows_layout.addWidget(holder)
        self.rows.append(editor)
        self.holders.append(holder)
        if value is not MISSING:
            editor.set_value(value)
        return editor

    def _remove(self, editor: Editor, holder: QWidget) -> None:
        self.holders.pop(self.rows.index(editor))
        self.rows.remove(editor)
        holder.hide()
        holder.deleteLater()

    def value(self) -> Any:
        values = [v for v in (e.value() for e in self.rows) if v is not MISSING]
        return values if values else MISSING

    def set_value(self, value: Any) -> None:
        for editor, holder in list(zip(self.rows, self.holders, strict=True)):
            self._remove(editor, holder)
        for item in value or () if value is not MISSING else ():
            self.add_row(item)

    def child(self, key: str | int) -> Editor | None:
        return self.rows[key] if isinstance(key, int) and 0 <= key < len(self.rows) else None
