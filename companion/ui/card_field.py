"""The one input for a card or chip drawn at the table, used by every step that draws.

Contracts:

- :class:`CardField` shows an editable list of the cards (or chips) that can come now,
  matched by id or name without regard to case, with completion (``QCompleter``).
  **Use this card** (or Enter) emits ``chosen(option)``: the option typed or picked, or
  the id of a card of the campaign's content the step did not list (the procedure
  runner then adds it to the deck: the table drew it); anything else as typed, so the
  rules' refusal names it. **Enter this card…** opens the card form for its kind
  (:mod:`companion.ui.card_form`, window-modal); saving runs
  ``operations.cards.enter_card`` and emits ``chosen`` with the new card's id, so the
  step goes on with it. **Just record what happened…** opens
  :class:`companion.ui.table_record.RecordDialog` for the card typed: its effects in one
  line, applied and journalled with its id; the step goes on as if it had been drawn
  and resolved (``operations.recorded``). A card typed that the campaign's content
  lacks is not sent to the rules: the field says so (naming the packs) with both ways
  on under it (issue 27 item 10).
- :func:`enter_card_form` opens the form for a kind and saves through the main window
  (also used by the My cards window); :func:`content_lookup` gives forms the content's
  ids and names (never the sealed Codex).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QCompleter,
    QDialog,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

if TYPE_CHECKING:
    from companion.ui.host import Host

from companion.ui.card_entry import SEALED, content_lookup, enter_card_form

__all__ = ["SEALED", "CardField", "content_lookup", "enter_card_form"]


class _FieldEdit(QLineEdit):
    """The card field's line edit: Return answers once. (A plain line edit passes the
    Return on, and an editable combo hands it back to its line edit: returnPressed
    twice.)"""

    def keyPressEvent(self, event: Any) -> None:  # noqa: N802 (Qt's name)
        super().keyPressEvent(event)
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            event.accept()


class CardField(QWidget):
    """A card or chip drawn at the table: typed or picked, or entered when unknown."""

    chosen = Signal(str)
    """The option (card id, or chip key) to answer the step with."""
    recorded = Signal(object)
    """The Changes of "Just record what happened" (the step is answered by it)."""

    def __init__(self, window: Host | None, kind: str | None, *, chip: bool = False,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.window_ = window
        self.kind = kind
        self.chip = chip
        self._keys: dict[str, str] = {}
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        row = QHBoxLayout()
        self.combo = QComboBox()
        self.combo.setEditable(True)
        self.combo.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        self.combo.setMinimumContentsLength(18)
        self.combo.setAccessibleName("Chip pulled at the table" if chip else
                                     "Card drawn at the table")
        completer = QCompleter(self.combo.model(), self.combo)
        completer.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        completer.setFilterMode(Qt.MatchFlag.MatchContains)
        completer.setCompletionMode(QCompleter.CompletionMode.PopupCompletion)
        edit = _FieldEdit()
        self.combo.setLineEdit(edit)
        self.combo.setCompleter(completer)  # after the line edit: it would drop it
        edit.returnPressed.connect(self.use)
        self.use_button = QPushButton("&Use this chip" if chip else "&Use this card")
        self.use_button.setObjectName("useCard")
        # Return in the field answers once (see _FieldEdit); the button never becomes
        # the dialog's default, or that Return would press it too.
        self.use_button.setAutoDefault(False)
        self.use_button.clicked.connect(self.use)
        row.addWidget(self.combo, 1)
        row.addWidget(self.use_button)
        layout.addLayout(row)
        self.enter_button = QPushButton("&Enter this chip…" if chip else "&Enter this card…")
        self.enter_button.setObjectName("enterCard")
        self.enter_button.setAutoDefault(False)
        self.enter_button.setToolTip("The card is not in the campaign's content: type it in "
                                     "as printed; it is saved in your own pack")
        self.enter_button.clicked.connect(self.enter)
        self.record_button = QPushButton("Just &record what happened…")
        self.record_button.setObjectName("recordCard")
        self.record_button.setAutoDefault(False)
        self.record_button.setToolTip("Resolve the card at the table and type what it did "
                                      "(e.g. gain 2 meat Ash, lore +1): applied, journalled "
                                      "with its id; save it as a card later")
        self.record_button.clicked.connect(self.record)
        self.unknown = QLabel()
        self.unknown.setObjectName("unknownCard")
        self.unknown.setWordWrap(True)
        self.unknown.setStyleSheet("color: palette(highlight); font-weight: bold;")
        self.unknown.hide()
        layout.addWidget(self.unknown)
        line = QHBoxLayout()
        line.addStretch(1)
        line.addWidget(self.enter_button)
        line.addWidget(self.record_button)
        layout.addLayout(line)
        self.enter_button.setVisible(self._can_enter())  # once it has a parent
        self.record_button.setVisible(self._can_enter())
        self.actor: str | None = None
        """Whom a recorded card's unnamed effects fall on by default."""
        self.combo.editTextChanged.connect(lambda _t: self._update_enter())

    # -- what can be drawn ---------------------------------------------------------------

    def _content_names(self) -> dict[str, str]:
        campaign = self.window_.campaign if self.window_ is not None else None
        if campaign is None or self.kind is None:
            return {}
        from companion.operations.cards import card_names

        return card_names(campaign.content, self.kind)

    def set_options(self, options: Sequence[str], labels: Mapping[str, str] | None = None,
                    extra: Sequence[str] = (), extra_labels: Mapping[str, str] | None = None
                    ) -> None:
        """The cards that can come now (``options``), then further cards the table may
        have drawn (``extra``); labels are what players read."""
        labels = labels or {}
        extra_labels = extra_labels or {}
        names = self._content_names()
        self.combo.clear()
        self._keys.clear()
        seen: set[str] = set()
        # In id order: the deck's own order (its top card first) would be a spoiler.
        everything = sorted({*options, *extra})
        for option in everything:
            label = labels.get(option) or extra_labels.get(option) or option
            if option in names and names[option] != option and names[option] not in label:
                label = f"{label} {names[option]}"
            if label in seen:  # identical chips: any of them is the same draw
                continue
            seen.add(label)
            self.combo.addItem(label, option)
            self._keys[label.casefold()] = option
            self._keys.setdefault(option.casefold(), option)
            if option in names:
                self._keys.setdefault(names[option].casefold(), option)
        self.combo.setCurrentIndex(-1)
        self.combo.setEditText("")
        edit = self.combo.lineEdit()
        assert edit is not None
        # An example only from several: a lone option is the deck's top card.
        example = (f", e.g. {everything[0]}" if len(everything) > 1 and not self.chip
                   else "")
        edit.setPlaceholderText("chip, by material" if self.chip else
                                f"card id or name{example}")
        self._update_enter()

    def show_all_cards(self) -> None:
        """List every card of the kind in the campaign's content (a Discovery draw)."""
        names = self._content_names()
        self.set_options(list(names), {k: f"{k} {v}" if v != k else k
                                       for k, v in names.items()})

    def text(self) -> str:
        """What is typed."""
        return self.combo.currentText().strip()

    def clear(self) -> None:
        self.combo.setCurrentIndex(-1)
        self.combo.setEditText("")

    def key(self) -> str | None:
        """The option the typed text names (by id, label or name, any case), else None."""
        text = " ".join(self.text().split()).casefold()
        if not text:
            return None
        if text in self._keys:
            return self._keys[text]
        campaign = self.window_.campaign if self.window_ is not None else None
        if campaign is not None and self.kind is not None:
            from companion.operations.cards import is_known, resolve_card_id

            if is_known(campaign, self.kind, self.text()):
                if self.chip:
                    return self.text()  # the runner matches a chip by its material
                return resolve_card_id(campaign.content, self.kind, self.text())
        return None

    def _can_enter(self) -> bool:
        return self.window_ is not None and self.kind is not None

    def _update_enter(self) -> None:
        self.enter_button.setVisible(self._can_enter())
        self.record_button.setVisible(self._can_enter())
        self.enter_button.setDefault(False)
        self.unknown.hide()

    # -- answering -------------------------------------------------------------------------

    def use(self) -> None:
        """Answer with the card typed or picked (an unknown one goes to the rules as
        typed: their refusal names it, and **Enter this card…** is at hand)."""
        text = self.text()
        if not text:
            return
        key = self.key()
        if key is None and self._is_unknown(text):
            self.say_unknown(text)
            return
        self.chosen.emit(key or text)

    def _is_unknown(self, text: str) -> bool:
        """Whether ``text`` names no card of the campaign's content (chips: the rules
        say which chips are in the bag)."""
        campaign = self.window_.campaign if self.window_ is not None else None
        if campaign is None or self.kind is None or self.chip:
            return False
        from companion.operations.cards import is_known

        return not is_known(campaign, self.kind, text)

    def say_unknown(self, text: str) -> None:
        """Say that ``text`` is not a card of this campaign, naming its packs, with the
        two ways on (the buttons under it) in view and the first one focused."""
        from companion.operations.cards import unknown_card

        campaign = self.window_.campaign if self.window_ is not None else None
        if campaign is None or self.kind is None:
            return
        self.unknown.setText(str(unknown_card(campaign, self.kind, text, deck=self.deck)))
        self.unknown.show()
        self.enter_button.setFocus()

    def enter(self) -> QDialog | None:
        """Open the form for a card of this kind, prefilled with what was typed; once
        saved, the step is answered with it."""
        if self.window_ is None or self.kind is None:
            return None
        typed = self.text() if self.key() is None else ""
        return enter_card_form(self.window_, self.kind, typed=typed, parent=self.window(),
                               on_saved=self.chosen.emit, deck=self.deck)

    deck = ""
    """The deck the step draws from, in players' words ("forest"), for the message."""

    def record(self) -> QDialog | None:
        """"Just record what happened": the record dialog for the card typed (window-
        modal); once recorded, ``recorded`` is emitted and the step has gone on."""
        if self.window_ is None or self.kind is None:
            return None
        from companion.ui.table_record import record_at_table

        typed = self.text() if self.key() is None else self.key() or ""
        dialog = record_at_table(self.window_, kind=self.kind, card=typed, actor=self.actor,
                                 parent=self.window())
        if dialog is not None:
            dialog.recorded.connect(self.recorded.emit)
        return dialog
