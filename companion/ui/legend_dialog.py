"""Legends and Mantle Power: a character's legend cards and mantle power (Rulebook:
Characters > Legends: Gaining Legend Cards, Using Legend Cards; Continuing Play >
Mantle Power).

Opened from the character sheet or the Play menu. Writes only through
``Host.run_operation`` (``operations.legends``); a refusal is shown there and
changes nothing. Legend cards used in a test or contest are chosen in the Ability Test
dialog instead.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6 import QtWidgets
from PySide6.QtCore import Qt

from companion.ui.play_dialogs.play_dialog import PlayDialog, show, wrapped

if TYPE_CHECKING:
    from companion.ui.host import Host


def legend_line(card: Any) -> str:
    """"Ash — might 6, dexterity 6 ...; traits intrepid; marks —" for a legend card."""
    abilities = ", ".join(f"{a.title()} {v}" for a, v in card.abilities.items())
    return (f"{card.name} — {abilities}; traits {', '.join(card.traits) or 'none'}"
            + (f"; marks {', '.join(card.marks)}" if card.marks else ""))


class LegendDialog(PlayDialog):
    """Gain (draw or choose), use and return legend cards; unlock, take up and use
    mantle powers."""

    title = "Legends and Mantle Power"

    def __init__(self, window: Host, character: str | None = None) -> None:
        super().__init__(window)
        self.character = self.character_combo(character)
        self.character.currentIndexChanged.connect(self.refresh)
        form = QtWidgets.QFormLayout()
        form.addRow("Character:", self.character)
        self.body.addLayout(form)

        legends_box = QtWidgets.QGroupBox("Legend cards (past characters of the society)")
        grid = QtWidgets.QGridLayout(legends_box)
        self.held = QtWidgets.QListWidget()
        self.held.setAccessibleName("Legend cards held")
        self.pool = QtWidgets.QListWidget()
        self.pool.setAccessibleName("Unassigned legend cards")
        for widget in (self.held, self.pool):
            widget.setWordWrap(True)  # a legend's line is long: wrap it, no side scrolling
            widget.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        grid.addWidget(QtWidgets.QLabel("Held beside the mantle board:"), 0, 0)
        grid.addWidget(QtWidgets.QLabel("Unassigned legends of the society:"), 0, 1)
        grid.addWidget(self.held, 1, 0)
        grid.addWidget(self.pool, 1, 1)
        self.use_as = QtWidgets.QComboBox()
        self.use_as.setAccessibleName("Count as having")
        self.use_button = QtWidgets.QPushButton("&Use")
        self.use_button.setAccessibleName("Use the legend card")
        self.use_button.clicked.connect(self.use)
        self.return_button = QtWidgets.QPushButton("&Return")
        self.return_button.setAccessibleName("Return the legend card")
        self.return_button.clicked.connect(self.return_card)
        use_row = QtWidgets.QHBoxLayout()
        use_row.addWidget(QtWidgets.QLabel("Count as having:"))
        use_row.addWidget(self.use_as, 1)
        use_row.addWidget(self.use_button)
        use_row.addWidget(self.return_button)
        grid.addLayout(use_row, 2, 0)
        self.draw_button = QtWidgets.QPushButton("&Draw at Random")
        self.draw_button.clicked.connect(self.draw)
        self.choose_button = QtWidgets.QPushButton("C&hoose Selected")
        self.choose_button.clicked.connect(self.choose)
        gain_row = QtWidgets.QHBoxLayout()
        gain_row.addWidget(self.draw_button)
        gain_row.addWidget(self.choose_button)
        gain_row.addStretch(1)
        grid.addLayout(gain_row, 2, 1)
        self.legend_note = wrapped(
            "Gain a legend card when an ability says to draw or choose one. Use it once — "
            "its ability value in a test or contest (Ability Test dialog), or one of its "
            "traits or marks when an effect checks for it — and it returns to the "
            "unassigned legends.")
        grid.addWidget(self.legend_note, 3, 0, 1, 2)
        # Rulebook: Fillable Cards: an effect says to write a mark on a character card or
        # on the Legend side; a legend's marks count when an effect checks for one.
        self.mark_text = QtWidgets.QLineEdit()
        self.mark_text.setAccessibleName("Mark to write")
        self.mark_text.setPlaceholderText("the mark, as the card draws it (e.g. spiral)")
        self.mark_on = QtWidgets.QComboBox()
        self.mark_on.setAccessibleName("Card to write the mark on")
        self.mark_button = QtWidgets.QPushButton("&Write Mark")
        self.mark_button.setAccessibleName("Write the mark")
        self.mark_button.clicked.connect(self.write_mark)
        mark_row = QtWidgets.QHBoxLayout()
        mark_row.addWidget(QtWidgets.QLabel("Write the mark:"))
        mark_row.addWidget(self.mark_text, 1)
        mark_row.addWidget(QtWidgets.QLabel("on"))
        mark_row.addWidget(self.mark_on, 1)
        mark_row.addWidget(self.mark_button)
        grid.addLayout(mark_row, 4, 0, 1, 2)
        self.held.currentRowChanged.connect(self._fill_use_as)
        self.body.addWidget(legends_box, 1)

        power_box = QtWidgets.QGroupBox("Mantle power")
        power_form = QtWidgets.QFormLayout(power_box)
        self.slotted = wrapped()
        self.slotted.setAccessibleName("Mantle power slotted")
        self.use_power_button = QtWidgets.QPushButton("Use &Mantle Power")
        self.use_power_button.clicked.connect(self.use_power)
        slotted_row = QtWidgets.QHBoxLayout()
        slotted_row.addWidget(self.slotted, 1)
        slotted_row.addWidget(self.use_power_button)
        self.powers = QtWidgets.QComboBox()
        self.powers.setAccessibleName("Unlocked powers of this mantle")
        self.take_button = QtWidgets.QPushButton("&Take Up")
        self.take_button.clicked.connect(self.take_power)
        take_row = QtWidgets.QHBoxLayout()
        take_row.addWidget(self.powers, 1)
        take_row.addWidget(self.take_button)
        self.locked = QtWidgets.QComboBox()
        self.locked.setAccessibleName("Mantle powers not yet unlocked")
        self.unlock_button = QtWidgets.QPushButton("Un&lock")
        self.unlock_button.clicked.connect(self.unlock_power)
        unlock_row = QtWidgets.QHBoxLayout()
        unlock_row.addWidget(self.locked, 1)
        unlock_row.addWidget(self.unlock_button)
        power_form.addRow("Slotted:", slotted_row)
        power_form.addRow("Take up:", take_row)
        power_form.addRow("Society unlocks:", unlock_row)
        self.body.addWidget(power_box)
        self.refresh()
        self.resize(820, 520)

    # -- reading -------------------------------------------------------------------------

    def name(self) -> str:
        return str(self.character.currentData() or "")

    def refresh(self) -> None:
        from companion import operations

        self.sync_characters(self.character)
        name = self.name()
        cards = operations.legend_cards(self.campaign)
        self.held.clear()
        self.pool.clear()
        for card in cards:
            item = QtWidgets.QListWidgetItem(f"{card.id}. {legend_line(card)}")
            item.setData(Qt.ItemDataRole.UserRole, card)
            if card.held_by == name:
                self.held.addItem(item)
            elif card.held_by is None:
                self.pool.addItem(item)
        if not self.held.count():
            self.held.addItem(f"{name or 'This character'} holds no legend card.")
        if not self.pool.count():
            self.pool.addItem("No unassigned legend: the society cannot gain one now."
                              if cards else "No legends yet: a character who perishes "
                                            "or ages out becomes one.")
        self.held.setCurrentRow(0)
        self._fill_use_as()
        self.mark_on.clear()
        if name:
            self.mark_on.addItem(f"{name}'s character card", ("name", name))
        for card in cards:
            self.mark_on.addItem(f"the legend of {card.name} (card {card.id})",
                                 ("legend", card.id))
        self._fill_powers(name)

    def _card(self, widget: QtWidgets.QListWidget) -> Any:
        item = widget.currentItem()
        return item.data(Qt.ItemDataRole.UserRole) if item is not None else None

    def _fill_use_as(self, *_: object) -> None:
        self.use_as.clear()
        card = self._card(self.held)
        if card is None:
            self.use_as.setEnabled(False)
            return
        self.use_as.setEnabled(True)
        for trait in card.traits:
            name = self.content.traits[trait].name if trait in self.content.traits else trait
            self.use_as.addItem(f"the trait {name}", ("trait", trait))
        for mark in card.marks:
            self.use_as.addItem(f"the mark {mark}", ("mark", mark))

    def _fill_powers(self, name: str) -> None:
        from companion.operations.legends import unlocked_mantle_powers

        unlocked = set(unlocked_mantle_powers(self.campaign))
        self.powers.clear()
        self.locked.clear()
        character = self.campaign.character_detail(name) if name else None
        power = (self.content.mantle_powers.get(character.mantle_power)
                 if character is not None and character.mantle_power else None)
        self.slotted.setText(f"{power.name}: {power.text}" if power else "none slotted")
        self.use_power_button.setEnabled(power is not None)
        for pid, card in self.content.mantle_powers.items():
            mantle = self.content.mantles.get(card.mantle)
            label = f"{card.name} ({mantle.name if mantle else card.mantle}): {card.text}"
            if pid not in unlocked:
                self.locked.addItem(label, pid)
            elif character is not None and character.mantle == card.mantle:
                self.powers.addItem(label, pid)
        if not self.powers.count():
            self.powers.addItem("No unlocked power of this mantle", None)
        self.take_button.setEnabled(self.powers.currentData() is not None)
        self.unlock_button.setEnabled(self.locked.count() > 0)

    # -- writing -------------------------------------------------------------------------

    def draw(self) -> None:
        from companion import operations

        self.run(operations.gain_legend, name=self.name())

    def choose(self) -> None:
        from companion import operations

        card = self._card(self.pool)
        if card is None:
            self.run(operations.gain_legend, name=self.name(), legend=0)
            return
        self.run(operations.gain_legend, name=self.name(), legend=card.id)

    def use(self) -> None:
        from companion import operations

        card = self._card(self.held)
        what = self.use_as.currentData()
        if card is None or what is None:
            self.run(operations.use_legend, name=self.name(), legend=0, trait="?")
            return
        kind, value = what
        self.run(operations.use_legend, name=self.name(), legend=card.id,
                 **{kind: value})

    def write_mark(self) -> None:
        """Write the typed mark on the card chosen (``legends.write_mark``)."""
        from companion.operations.legends import write_mark

        target = self.mark_on.currentData()
        kind, value = target if target is not None else ("name", None)
        if self.run(write_mark, mark=self.mark_text.text(), **{kind: value}):
            self.mark_text.clear()

    def return_card(self) -> None:
        from companion import operations

        card = self._card(self.held)
        self.run(operations.return_legend, name=self.name(),
                 legend=card.id if card is not None else 0)

    def take_power(self) -> None:
        from companion import operations

        self.run(operations.choose_mantle_power, name=self.name(),
                 power=str(self.powers.currentData()))

    def use_power(self) -> None:
        from companion import operations

        self.run(operations.use_mantle_power, name=self.name())

    def unlock_power(self) -> None:
        from companion import operations

        self.run(operations.unlock_mantle_power, power=str(self.locked.currentData()))


def open_legends(window: Host, character: str | None = None) -> QtWidgets.QDialog | None:
    """Legends and Mantle Power… (Play menu, character sheet)."""
    return show(LegendDialog(window, character)) if window.campaign else None
