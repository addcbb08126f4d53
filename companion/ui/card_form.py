"""The form for entering (or editing) one card, built from the pack schema itself.

Contracts:

- :func:`editor_for` builds an editor for any pydantic field type: text, numbers,
  yes/no, a choice among an enum's values, a reference to another component (with
  completion over the campaign's content), a nested part of a card (a group), one part
  per line or edge (``dict[Enum, ...]``), lists of parts with Add/Remove, and card
  effects with a small structured editor (pick what the step does, then its fields).
  Whatever the schema cannot say goes in the card's ``text``, shown to the table.
- :class:`CardForm` (a dialog) edits one entry of a component kind. ``data()`` is the
  entry as YAML-ready data; **Save** validates it with the same pydantic model the
  loader uses and, if it does not fit, marks each field and says why, saving nothing.
  Saving itself is the caller's ``save(data)`` callable (an operation through the main
  window, or a write into a user pack); a refusal it raises is shown in the form,
  which stays open.

The form follows the schema: a field added to a card's model appears here unchanged.
"""

from __future__ import annotations

import types
import typing
from collections.abc import Callable, Mapping, Sequence
from enum import Enum
from typing import Any

from pydantic import BaseModel, ValidationError
from pydantic_core import PydanticUndefined
from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QCompleter,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QScrollArea,
    QSizePolicy,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from companion.content.schema.base import Ref
from companion.ui.card_editor_base import MISSING, NONE_TEXT, Editor, Lookup, RowsEditor, words
from companion.ui.effects_line_editor import EffectsLineEditor

__all__ = ["MISSING", "NONE_TEXT", "CardForm", "EffectEditor", "Editor", "EffectsLineEditor",
           "Lookup", "RowsEditor", "editor_for", "problems", "words"]

def _unwrap(annotation: Any) -> tuple[Any, bool]:
    """(the type without ``Annotated`` and ``None``, whether None is allowed)."""
    optional = False
    while True:
        origin = typing.get_origin(annotation)
        if origin is typing.Annotated:
            annotation = typing.get_args(annotation)[0]
            continue
        if origin in (typing.Union, types.UnionType):
            args = [a for a in typing.get_args(annotation) if a is not type(None)]
            optional = optional or len(args) < len(typing.get_args(annotation))
            if len(args) == 1:
                annotation = args[0]
                continue
        return annotation, optional


def _union_members(annotation: Any) -> list[type[BaseModel]] | None:
    """The models of a union of models (the effect steps), else None."""
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        members = list(typing.get_args(annotation))
        if all(isinstance(m, type) and issubclass(m, BaseModel) for m in members):
            return members
    return None


def _literal_values(annotation: Any) -> list[str] | None:
    if typing.get_origin(annotation) is typing.Literal:
        return [str(v) for v in typing.get_args(annotation)]
    if isinstance(annotation, type) and issubclass(annotation, Enum):
        return [str(m.value) for m in annotation]
    return None


def editor_for(annotation: Any, *, name: str = "", lookup: Lookup | None = None,
               default: Any = PydanticUndefined) -> Editor:
    """An editor for a field of type ``annotation``."""
    lookup = lookup or (lambda kind: {})
    base, optional = _unwrap(annotation)
    members = _union_members(base)
    if members is not None:
        return EffectEditor(members, lookup)
    origin = typing.get_origin(base)
    if origin in (tuple, list):
        args = [a for a in typing.get_args(base) if a is not Ellipsis]
        return list_editor(args[0] if args else str, lookup)
    if origin is dict:
        key, item = typing.get_args(base)
        keys = _literal_values(key)
        if keys is not None:
            return DictEditor(keys, item, lookup)
        return YamlEditor()
    values = _literal_values(base)
    if values is not None:
        return ChoiceEditor(values, optional=optional or default is not PydanticUndefined)
    if isinstance(base, type):
        if issubclass(base, BaseModel):
            return ModelEditor(base, lookup, optional=optional,
                               title=f"It has {words(name).lower()}" if optional else "")
        if issubclass(base, Ref):
            ref = RefEditor(lookup(base.kind), optional=optional)
            ref.kind = str(base.kind)
            return ref
        if base is bool:
            return BoolEditor()
        if base is int:
            return IntEditor(optional=optional)
        if base is str:
            return TextEditor(multiline=name == "text")
    return YamlEditor()


# --- simple values -----------------------------------------------------------------------------


class TextEditor(Editor):
    """A line of text (several lines for a card's text)."""

    def __init__(self, *, multiline: bool = False) -> None:
        super().__init__()
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.edit: QLineEdit | QPlainTextEdit
        if multiline:
            self.edit = QPlainTextEdit()
            self.edit.setTabChangesFocus(True)
            self.edit.setFixedHeight(self.edit.fontMetrics().lineSpacing() * 4 + 12)
            # As tall as its box: a taller holder centred the box far below its "Text:"
            # label (issue 27 item 18).
            self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)
        else:
            self.edit = QLineEdit()
        layout.addWidget(self.edit)
        self.setFocusProxy(self.edit)

    def text(self) -> str:
        edit = self.edit
        return edit.toPlainText() if isinstance(edit, QPlainTextEdit) else edit.text()

    def value(self) -> Any:
        text = self.text().strip()
        return text if text else MISSING

    def set_value(self, value: Any) -> None:
        text = "" if value is None or value is MISSING else str(value)
        if isinstance(self.edit, QPlainTextEdit):
            self.edit.setPlainText(text)
        else:
            self.edit.setText(text)


class IntEditor(Editor):
    """A whole number; an optional one may be left at "(none)"."""

    def __init__(self, *, optional: bool) -> None:
        super().__init__()
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.spin = QSpinBox()
        self.optional = optional
        self.spin.setRange(-1000 if optional else -999, 999)
        if optional:
            self.spin.setSpecialValueText(NONE_TEXT)
            self.spin.setValue(-1000)
        self.spin.setMinimumWidth(self.spin.fontMetrics().horizontalAdvance("0") * 10)
        layout.addWidget(self.spin)
        layout.addStretch(1)
        self.setFocusProxy(self.spin)

    def value(self) -> Any:
        if self.optional and self.spin.value() == self.spin.minimum():
            return MISSING
        return self.spin.value()

    def set_value(self, value: Any) -> None:
        if value is None or value is MISSING:
            self.spin.setValue(self.spin.minimum() if self.optional else 0)
        else:
            self.spin.setValue(int(value))


class BoolEditor(Editor):
    """Yes or no."""

    def __init__(self) -> None:
        super().__init__()
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.box = QCheckBox()
        layout.addWidget(self.box)
        layout.addStretch(1)
        self.setFocusProxy(self.box)

    def value(self) -> Any:
        return self.box.isChecked()

    def set_value(self, value: Any) -> None:
        self.box.setChecked(bool(value) and value is not MISSING)


class ChoiceEditor(Editor):
    """One of a fixed list (an omen, a line, an ability ...)."""

    def __init__(self, values: Sequence[str], *, optional: bool) -> None:
        super().__init__()
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.combo = QComboBox()
        if optional:
            self.combo.addItem(NONE_TEXT, MISSING)
        for value in values:
            self.combo.addItem(value.replace("_", " "), value)
        layout.addWidget(self.combo)
        layout.addStretch(1)
        self.setFocusProxy(self.combo)

    def value(self) -> Any:
        return self.combo.currentData()

    def set_value(self, value: Any) -> None:
        index = self.combo.findData(str(value.value if isinstance(value, Enum) else value))
        self.combo.setCurrentIndex(max(index, 0))


class RefEditor(Editor):
    """The id of another component, picked or typed (completion over id and name)."""

    def __init__(self, known: Mapping[str, str], *, optional: bool) -> None:
        super().__init__()
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.combo = QComboBox()
        self.combo.setEditable(True)
        self.combo.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        self.kind = ""  # the component kind it names (forage_objects ...)
        self.keys: dict[str, str] = {}
        self._fill(known)
        completer = QCompleter(self.combo.model(), self.combo)
        completer.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        completer.setFilterMode(Qt.MatchFlag.MatchContains)
        self.combo.setCompleter(completer)
        self.combo.setCurrentIndex(-1)
        self.combo.setEditText("")
        self.combo.setMinimumContentsLength(14)
        self.optional = optional
        layout.addWidget(self.combo, 1)
        self.setFocusProxy(self.combo)

    def value(self) -> Any:
        text = self.combo.currentText().strip()
        if not text:
            return MISSING
        return self.keys.get(text.casefold(), text)

    def _fill(self, known: Mapping[str, str]) -> None:
        self.combo.clear()
        self.keys = {}
        for key, name in known.items():
            label = key if name in ("", key) else f"{name} ({key})"
            self.combo.addItem(label, key)
            self.keys[label.casefold()] = key
            self.keys[key.casefold()] = key
            self.keys.setdefault(name.casefold(), key)

    def set_known(self, known: Mapping[str, str]) -> None:
        """Offer only ``known``; what is entered stays."""
        kept = self.value()
        self._fill(known)
        self.set_value(kept)

    def set_value(self, value: Any) -> None:
        if value is None or value is MISSING:
            self.combo.setCurrentIndex(-1)
            self.combo.setEditText("")
            return
        index = self.combo.findData(str(value))
        if index >= 0:
            self.combo.setCurrentIndex(index)
        else:
            self.combo.setEditText(str(value))


class YamlEditor(Editor):
    """Anything the form has no editor for, typed as YAML."""

    def __init__(self) -> None:
        super().__init__()
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.edit = QPlainTextEdit()
        self.edit.setPlaceholderText("as YAML, e.g. {river: 2, lake: 3}")
        self.edit.setFixedHeight(self.edit.fontMetrics().lineSpacing() * 3 + 12)
        layout.addWidget(self.edit)

    def value(self) -> Any:
        import yaml

        text = self.edit.toPlainText().strip()
        if not text:
            return MISSING
        try:
            return yaml.safe_load(text)
        except yaml.YAMLError:
            return text  # the schema then says what it expected

    def set_value(self, value: Any) -> None:
        import yaml

        self.edit.setPlainText("" if value is None or value is MISSING else
                               yaml.safe_dump(value, sort_keys=False).strip())


# --- parts of a card ---------------------------------------------------------------------------


class ModelEditor(Editor):
    """A part of a card with fields of its own (a group of editors)."""

    def __init__(self, model: type[BaseModel], lookup: Lookup, *, optional: bool = False,
                 skip: Sequence[str] = (), title: str = "", long_text: bool = True) -> None:
        super().__init__()
        self.model = model
        self.editors: dict[str, Editor] = {}
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.group: QGroupBox | None = None
        form_parent: QWidget = self
        if optional or title:
            self.group = QGroupBox(title)
            self.group.setCheckable(optional)
            if optional:
                self.group.setChecked(False)
            layout.addWidget(self.group)
            form_parent = self.group
        form = QFormLayout(form_parent) if form_parent is not self else QFormLayout()
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        if form_parent is self:
            layout.addLayout(form)
        # The free text comes last: the fields say what the app applies, the text the rest.
        fields = sorted(model.model_fields.items(), key=lambda item: item[0] == "text")
        for field_name, info in fields:
            if field_name in skip:
                continue
            editor = editor_for(info.annotation, name=field_name if long_text else "",
                                lookup=lookup, default=info.default)
            if info.default is not PydanticUndefined and info.default is not None and \
                    not isinstance(info.default, BaseModel | tuple):
                editor.set_value(info.default)
            elif isinstance(editor, IntEditor) and not editor.optional:
                # A count that starts at 1 (a difficulty) starts there in the form too.
                lowest = [getattr(m, "ge", None) for m in info.metadata]
                editor.set_value(next((v for v in lowest if v is not None), 0))
            editor.setObjectName(f"field_{field_name}")
            editor.setAccessibleName(words(field_name))
            label = QLabel(words(field_name) + ":")
            if info.description:
                label.setToolTip(info.description)
                editor.setToolTip(info.description)
            label.setBuddy(editor)
            form.addRow(label, editor)
            self.editors[field_name] = editor

    def value(self) -> Any:
        if self.group is not None and self.group.isCheckable() and not self.group.isChecked():
            return MISSING
        data = {}
        for name, editor in self.editors.items():
            value = editor.value()
            if value is not MISSING:
                data[name] = value
        return data

    def set_value(self, value: Any) -> None:
        if isinstance(value, BaseModel):
            value = value.model_dump(mode="json")
        present = isinstance(value, Mapping)
        if self.group is not None and self.group.isCheckable():
            self.group.setChecked(present)
        for name, editor in self.editors.items():
            if present and name in value:
                editor.set_value(value[name])

    def child(self, key: str | int) -> Editor | None:
        return self.editors.get(str(key))


class DictEditor(Editor):
    """One value per key of a fixed set (per fishing line, per edge, per ability)."""

    def __init__(self, keys: Sequence[str], item: Any, lookup: Lookup) -> None:
        super().__init__()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.editors: dict[str, Editor] = {}
        base, optional = _unwrap(item)
        nested = isinstance(base, type) and issubclass(base, BaseModel)
        form = QFormLayout()
        for key in keys:
            if nested:
                editor: Editor = ModelEditor(base, lookup, optional=optional,
                                             title=words(key))
                layout.addWidget(editor)
            else:
                editor = editor_for(item, lookup=lookup)
                form.addRow(words(key) + ":", editor)
            editor.setObjectName(f"key_{key}")
            self.editors[key] = editor
        if not nested:
            layout.addLayout(form)

    def value(self) -> Any:
        data = {}
        for key, editor in self.editors.items():
            value = editor.value()
            data[key] = None if value is MISSING else value
        return data

    def set_value(self, value: Any) -> None:
        if not isinstance(value, Mapping):
            return
        for key, editor in self.editors.items():
            editor.set_value(value.get(key))

    def child(self, key: str | int) -> Editor | None:
        return self.editors.get(str(key))


def _noun(class_name: str) -> str:
    """A model's name in words: ``StrikeLocation`` -> "strike location"."""
    import re

    return re.sub(r"(?<!^)([A-Z])", r" \1", class_name).lower()


def list_editor(item: Any, lookup: Lookup) -> Editor:
    """The editor of a list of ``item``s."""
    base, _optional = _unwrap(item)
    values = _literal_values(base)
    if values is not None:
        return ChecksEditor(values)
    if _union_members(base) is not None:  # effects: one typed line (issue 36 item 5)
        return EffectsLineEditor(lambda: editor_for(item, lookup=lookup), lookup)
    if isinstance(base, type) and issubclass(base, BaseModel):
        return RowsEditor(lambda: editor_for(item, lookup=lookup), _noun(base.__name__))
    if isinstance(base, type) and issubclass(base, Ref):
        return WordsEditor(lookup(base.kind))
    return WordsEditor({})


class ChecksEditor(Editor):
    """Any of a fixed list (the omens at a card's bottom)."""

    def __init__(self, values: Sequence[str]) -> None:
        super().__init__()
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.boxes: dict[str, QCheckBox] = {}
        self.order: list[str] = []
        for value in values:
            box = QCheckBox(value.replace("_", " "))
            box.setObjectName(f"check_{value}")
            layout.addWidget(box)
            self.boxes[value] = box
        layout.addStretch(1)

    def value(self) -> Any:
        chosen = [v for v, box in self.boxes.items() if box.isChecked()]
        # A card being edited keeps its own order (the order printed).
        chosen.sort(key=lambda v: self.order.index(v) if v in self.order else len(self.order))
        return chosen if chosen else MISSING

    def set_value(self, value: Any) -> None:
        self.order = [str(v) for v in value or ()] if value is not MISSING else []
        for key, box in self.boxes.items():
            box.setChecked(key in self.order)


class WordsEditor(Editor):
    """Several ids, separated by commas (completion offers the content's ids)."""

    def __init__(self, known: Mapping[str, str]) -> None:
        super().__init__()
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.edit = QLineEdit()
        self.edit.setPlaceholderText("ids separated by commas" + (
            ", e.g. " + ", ".join(list(known)[:3]) if known else ""))
        layout.addWidget(self.edit)
        self.setFocusProxy(self.edit)

    def value(self) -> Any:
        parts = [p.strip() for p in self.edit.text().split(",") if p.strip()]
        return parts if parts else MISSING

    def set_value(self, value: Any) -> None:
        items = [] if value is None or value is MISSING else list(value)
        self.edit.setText(", ".join(str(v) for v in items))


class EffectEditor(Editor):
    """One effect step: what it does (gain, suffer, test ...), then that step's fields."""

    def __init__(self, members: Sequence[type[BaseModel]], lookup: Lookup) -> None:
        super().__init__()
        self.lookup = lookup
        self.members = {self._tag(m): m for m in members}
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.do = QComboBox()
        # Its list drops below it, whole, wherever it stands (a Fusion popup opened over
        # the combo, placed by the item chosen: each nested one somewhere else).
        self.do.setStyleSheet("QComboBox { combobox-popup: 0; }")
        self.do.setMaxVisibleItems(len(members))
        self.do.setObjectName("effectKind")
        self.do.setAccessibleName("What the effect does")
        for tag, model in self.members.items():
            self.do.addItem(tag.replace("_", " "), tag)
            self.do.setItemData(self.do.count() - 1, (model.__doc__ or "").strip(),
                                Qt.ItemDataRole.ToolTipRole)
        top = QHBoxLayout()
        top.addWidget(QLabel("Does:"))
        top.addWidget(self.do)
        top.addStretch(1)
        layout.addLayout(top)
        self.fields: ModelEditor | None = None
        self.do.currentIndexChanged.connect(lambda _i: self._show())
        self._show()

    @staticmethod
    def _tag(model: type[BaseModel]) -> str:
        annotation = model.model_fields["do"].annotation
        return str(typing.get_args(annotation)[0])

    def _show(self) -> None:
        if self.fields is not None:
            self.fields.hide()
            self.fields.deleteLater()
        model = self.members[self.do.currentData()]
        self.fields = ModelEditor(model, self.lookup, skip=("do",), long_text=False)
        layout = self.layout()
        assert layout is not None
        layout.addWidget(self.fields)

    def value(self) -> Any:
        assert self.fields is not None
        data = self.fields.value()
        return {"do": self.do.currentData(), **data}

    def set_value(self, value: Any) -> None:
        if not isinstance(value, Mapping):
            return
        index = self.do.findData(str(value.get("do")))
        if index >= 0:
            self.do.setCurrentIndex(index)
        assert self.fields is not None
        self.fields.set_value({k: v for k, v in value.items() if k != "do"})

    def child(self, key: str | int) -> Editor | None:
        if key == self.do.currentData():
            return self  # pydantic names the step's kind in the error's location
        return self.fields.child(key) if self.fields is not None else None


# --- the dialog ----------------------------------------------------------------------------------


def problems(model: type[BaseModel], data: Any) -> list[tuple[tuple[str | int, ...], str]]:
    """Each problem of ``data`` as an entry of ``model``: (field location, why)."""
    from companion.content.errors import issue_message

    try:
        model.model_validate(data)
    except ValidationError as exc:
        return [(tuple(d["loc"]), issue_message(d)) for d in exc.errors(include_url=False)]
    except (ValueError, TypeError) as exc:
        return [((), str(exc))]
    return []


def _located(line: str) -> tuple[tuple[str | int, ...], str]:
    """A refusal's ``field.path: why`` as (location, why); ((), line) if it names no
    field of the card."""
    import re

    match = re.match(r"^\s*([a-z_]+(?:\.[\w-]+)*): (.*)$", line)
    if match is None or match[1] == "card":
        return (), line.strip()
    loc = tuple(int(p) if p.isdigit() else p for p in match[1].split("."))
    return loc, match[2]


def _shown(loc: Sequence[str | int]) -> str:
    return " › ".join(words(str(p)) if isinstance(p, str) else f"#{p + 1}" for p in loc)


class CardForm(QDialog):
    """Enter or edit one card of ``kind``; **Save** calls ``save(data)``."""

    def __init__(self, kind: str, *, parent: QWidget | None = None, lookup: Lookup | None = None,
                 initial: Mapping[str, Any] | None = None,
                 save: Callable[[dict[str, Any]], str | None] | None = None,
                 title: str = "") -> None:
        from companion.content.schema.pack import KIND_MODELS
        from companion.content.user_pack import kind_word

        super().__init__(parent)
        self.kind = kind
        self.model = KIND_MODELS[kind]
        self.save_callback = save
        self.saved: dict[str, Any] | None = None
        word = kind_word(kind)
        self.setWindowTitle(title or f"Enter a {word}")
        layout = QVBoxLayout(self)
        intro = QLabel(f"The {word} as printed. Whatever the fields cannot say, write in "
                       "its text: the table reads it when the card comes up.")
        intro.setWordWrap(True)
        layout.addWidget(intro)
        from companion.ui.card_decks import DeckScope

        self.scope = DeckScope(lookup or (lambda k: {}))  # a forage card: its deck's objects
        self.editor = ModelEditor(self.model, self.scope)
        self.editor.setObjectName("cardEditor")
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setWidget(self.editor)
        scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        layout.addWidget(scroll, 1)
        self.error = QLabel()
        self.error.setObjectName("formProblems")
        self.error.setWordWrap(True)
        self.error.setStyleSheet("color: #c0392b;")
        self.error.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.error.hide()
        layout.addWidget(self.error)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save
                                   | QDialogButtonBox.StandardButton.Cancel)
        self.save_button = buttons.button(QDialogButtonBox.StandardButton.Save)
        buttons.accepted.connect(self.try_save)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        if initial:
            self.editor.set_value(dict(initial))
        self.scope.watch(self.editor, kind)
        self.resize(720, 620)

    def data(self) -> dict[str, Any]:
        """The card as entered (fields left empty are left out)."""
        value = self.editor.value()
        return value if isinstance(value, dict) else {}

    def _mark(self, found: Sequence[tuple[tuple[str | int, ...], str]]) -> None:
        for each in self.findChildren(Editor):
            each.mark(None)
        for loc, message in found:
            editor: Editor = self.editor
            for part in loc:
                nxt = editor.child(part)
                if nxt is None or nxt is editor:
                    continue
                editor = nxt
            if editor is not self.editor:
                editor.mark(message)

    def show_problems(self, lines: Sequence[str]) -> None:
        """Say what is wrong under the form (the card was not saved)."""
        self.error.setText("Not saved:\n" + "\n".join(f"• {line}" for line in lines))
        self.error.show()

    def try_save(self) -> bool:
        """Validate; if the card fits, save it (the form closes); else say why."""
        unread = [(e, e.unread()) for e in self.editor.findChildren(Editor)
                  if e.isVisibleTo(self.editor) and e.unread()]
        for editor, why in unread:
            editor.mark(why)
        if unread:
            self.show_problems([f"Effects: {why}" for _, why in unread])
            return False
        data = self.data()
        found = problems(self.model, data)
        self._mark(found)
        if found:
            self.show_problems([f"{_shown(loc) or 'Card'}: {message}"
                                for loc, message in found])
            return False
        if self.save_callback is not None:
            refusal = self.save_callback(data)
            if refusal:
                found = [_located(line) for line in refusal.splitlines()[1:] if line.strip()]
                self._mark([f for f in found if f[0]])
                self.show_problems([f"{_shown(loc)}: {why}" if loc else why
                                    for loc, why in found] or [refusal])
                return False
        self.saved = data
        self.accept()
        return True
