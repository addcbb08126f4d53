"""Dialogs the Day panel opens: build an outpost or a structure, exchange items and
materials, and choose what goes when a mantle holds too many items (Processing and
Crafting open the Play menu's dialogs).

Rulebook: Valley > Building an Outpost; Processing & Crafting > Building Structures;
Game Structure > Day Actions (exchanges); Mantle > Exceeding Item Limits. Each dialog
runs one operation through ``Host.run_operation`` and stays open when it is
refused, so the player can change the choice.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
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
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from companion.ui.widgets import read_game

if TYPE_CHECKING:
    from companion.operations.core import Campaign
    from companion.rules.character import Character
    from companion.rules.game import Game
    from companion.ui.host import Host


def _crew(game: Game, name: str) -> list[Character]:
    """The other characters in ``name``'s hex who can still act (contributors)."""
    me = game.character(name)
    return [c for c in game.characters
            if c.name != me.name and c.hex == me.hex and me.hex is not None
            and not c.incapacitated]


def _checked(listing: QListWidget) -> list[int]:
    return [int(listing.item(i).data(Qt.ItemDataRole.UserRole))
            for i in range(listing.count())
            if listing.item(i).checkState() is Qt.CheckState.Checked]


def _fill_tokens(listing: QListWidget, tokens: list[tuple[int, str]]) -> None:
    listing.clear()
    for index, text in tokens:
        item = QListWidgetItem(f"{index + 1}. {text}")
        item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
        item.setCheckState(Qt.CheckState.Unchecked)
        item.setData(Qt.ItemDataRole.UserRole, index)
        listing.addItem(item)


class _Dialog(QDialog):
    """A dialog that runs an operation on OK and closes only when it was applied."""

    def __init__(self, window: Host, title: str) -> None:
        super().__init__(window)
        self.window_ = window
        self.setWindowTitle(title)
        campaign = window.campaign
        assert campaign is not None
        self.campaign: Campaign = campaign
        self.game = read_game(campaign)
        self.layout_ = QVBoxLayout(self)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                        | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self.run)
        self.buttons.rejected.connect(self.reject)

    def finish_layout(self) -> None:
        self.layout_.addWidget(self.buttons)

    def ok_button(self) -> QPushButton:
        button = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        assert button is not None
        return button

    def apply(self, operation: Any, **kwargs: Any) -> None:
        if self.window_.run_operation(operation, **kwargs):
            self.accept()

    def run(self) -> None:  # pragma: no cover - every dialog overrides it
        raise NotImplementedError


class _Contributions(QGroupBox):
    """Energy the other characters in the hex give to a building action (D12)."""

    def __init__(self, game: Game, name: str, cost: int) -> None:
        super().__init__("Energy from the others in the hex")
        self.cost = cost
        self.name = name
        self.builder_energy = game.character(name).energy
        form = QFormLayout(self)
        self.spins: dict[str, QSpinBox] = {}
        self.energies: dict[str, int] = {}
        for other in _crew(game, name):
            self.energies[other.name] = other.energy
            spin = QSpinBox()
            spin.setRange(0, min(other.energy, cost))
            spin.setAccessibleName(f"Energy from {other.name}")
            spin.setSuffix(f" of {other.energy}")
            spin.valueChanged.connect(self._update)
            form.addRow(f"{other.name}:", spin)
            self.spins[other.name] = spin
        if not self.spins:
            form.addRow(QLabel("Nobody else is in the hex: the builder pays it all."))
        self.share = QLabel()
        self.share.setAccessibleName("Builder's share")
        form.addRow(self.share)
        self._update()

    def set_cost(self, cost: int) -> None:
        self.cost = cost
        for other, spin in self.spins.items():
            spin.setMaximum(min(self.energies[other], cost))
        self._update()

    def given(self) -> dict[str, int]:
        return {n: s.value() for n, s in self.spins.items() if s.value()}

    def _update(self) -> None:
        left = max(0, self.cost - sum(self.given().values()))
        self.share.setText(f"{self.name} pays {left} of {self.cost} energy "
                           f"(has {self.builder_energy}).")


class BuildOutpostDialog(_Dialog):
    """Build an outpost over a feature of the hex (Rulebook: Building an Outpost; D12)."""

    def __init__(self, window: Host, name: str, feature: str, cost: int) -> None:
        super().__init__(window, "Build an outpost")
        self.name, self.feature = name, feature
        content = self.campaign.content
        words = content.features[feature].name.lower() if feature in content.features \
            else feature
        technology = content.features[feature].outpost_technology \
            if feature in content.features else None
        needs = ""
        if technology:
            icon = content.icons.get(technology)
            needs = f" It needs a {icon.name if icon else technology} item in the hex."
        intro = QLabel(f"{name} builds an outpost over the {words}: {cost} energy, shared by "
                       f"the characters in the hex. The outpost covers that section: its "
                       f"actions are no longer available.{needs}")
        intro.setWordWrap(True)
        self.outpost_name = QLineEdit()
        self.outpost_name.setAccessibleName("Outpost name")
        self.outpost_name.setPlaceholderText("the name written on the outpost card")
        # Rulebook: Overlays > Outposts: "Choose an outpost overlay that suits that outpost".
        from companion.operations.day import outpost_overlays

        self.overlay = QComboBox()
        self.overlay.setAccessibleName("Outpost overlay")
        for overlay_id, overlay_name in outpost_overlays(self.campaign):
            self.overlay.addItem(f"{overlay_name} ({overlay_id})", overlay_id)
        if not self.overlay.count():
            self.overlay.addItem("none left: the outpost is built without one", None)
        form = QFormLayout()
        form.addRow("Name:", self.outpost_name)
        form.addRow("Overlay:", self.overlay)
        self.contributions = _Contributions(self.game, name, cost)
        self.layout_.addWidget(intro)
        self.layout_.addLayout(form)
        self.layout_.addWidget(self.contributions)
        self.finish_layout()
        self.setMinimumWidth(480)

    def run(self) -> None:
        from companion import operations

        self.apply(operations.build_outpost, name=self.name, feature=self.feature,
                   outpost_name=self.outpost_name.text(),
                   contributions=self.contributions.given(),
                   overlay=self.overlay.currentData())


class BuildStructureDialog(_Dialog):
    """Build a structure at an outpost in the hex (Rulebook: Building Structures)."""

    def __init__(self, window: Host, name: str, outpost: str) -> None:
        super().__init__(window, "Build a structure")
        from companion.operations.day import available_actions

        self.name, self.outpost = name, outpost
        options = [o for o in available_actions(self.campaign, name)
                   if o.action == "build_structure" and (o.target or "").startswith(
                       f"{outpost}:")]
        site = self.game.outpost(outpost)  # type: ignore[arg-type]
        limit = self.campaign.content.rules.outposts.structure_limit
        built = [self.campaign.content.structures[s].name
                 if s in self.campaign.content.structures else s for s in site.structures]
        intro = QLabel(f"{site.name} has {len(built)} of {limit} structures"
                       + (f" ({', '.join(built)})" if built else "") + ". The materials are "
                       "discarded from the builder's bag first, then from the others in the "
                       "hex; the others may also give energy.")
        intro.setWordWrap(True)
        self.structure = QComboBox()
        self.structure.setAccessibleName("Structure")
        for option in options:
            structure_id = (option.target or "").split(":", 1)[1]
            self.structure.addItem(option.label, (structure_id, option.cost, option.refusal))
        self.why = QLabel()
        self.why.setWordWrap(True)
        self.why.setAccessibleName("Why not")
        first = options[0].cost if options else 0
        self.contributions = _Contributions(self.game, name, first)
        self.layout_.addWidget(intro)
        self.layout_.addWidget(QLabel("Structure to build:"))
        self.layout_.addWidget(self.structure)
        self.layout_.addWidget(self.why)
        self.layout_.addWidget(self.contributions)
        self.finish_layout()
        self.structure.currentIndexChanged.connect(self._chosen)
        self._chosen()
        self.setMinimumWidth(560)

    def _chosen(self) -> None:
        data = self.structure.currentData()
        if data is None:
            self.ok_button().setEnabled(False)
            return
        _, cost, refusal = data
        # The refusal counts the energy of the whole hex, so the builder's own may be
        # short when the others give theirs; any refusal listed means it cannot be built.
        self.why.setText(refusal or "Can be built now.")
        self.ok_button().setEnabled(refusal is None)
        self.contributions.set_cost(cost)

    def select(self, structure_id: str) -> None:
        """Choose a structure by id (tests, keyboard users)."""
        for index in range(self.structure.count()):
            if self.structure.itemData(index)[0] == structure_id:
                self.structure.setCurrentIndex(index)

    def run(self) -> None:
        from companion.operations import day as day_ops

        data = self.structure.currentData()
        if data is None:
            return
        self.apply(day_ops.build_structure, name=self.name, structure=data[0],
                   outpost=self.outpost, contributions=self.contributions.given())


def excess_form(text: str, items: list[tuple[str, str]], room: list[str]
                ) -> tuple[QLabel, QFormLayout, QComboBox, QComboBox]:
    """What too many items asks (Rulebook: Mantle > Exceeding Item Limits): ``text``,
    then the item that goes and the character with room it goes to."""
    intro = QLabel(text + ".")
    intro.setWordWrap(True)
    item = QComboBox()
    item.setAccessibleName("Item that goes")
    for item_id, item_name in items:
        item.addItem(item_name, item_id)
    to = QComboBox()
    to.setAccessibleName("Goes to")
    for other in room:
        to.addItem(f"to {other}", other)
    form = QFormLayout()
    form.addRow("Item:", item)
    form.addRow("Goes:", to)
    return intro, form, item, to


class ExcessDialog(_Dialog):
    """Too many items for the mantle's slots: which goes, and to whom (Rulebook: Mantle >
    Exceeding Item Limits). Lost only when no one in the hex has room."""

    def __init__(self, window: Host, name: str, *, items: list[tuple[str, str]],
                 room: list[str], text: str) -> None:
        super().__init__(window, "Too many items")
        self.name = name
        intro, form, self.item, self.to = excess_form(text, items, room)
        if not room:
            self.to.addItem("lost (back to the item deck): no one in the hex has room", "")
        self.layout_.addWidget(intro)
        self.layout_.addLayout(form)
        self.finish_layout()
        self.setMinimumWidth(420)

    def run(self) -> None:
        from companion.operations import day as day_ops

        self.apply(day_ops.settle_excess, name=self.name, item=str(self.item.currentData()),
                   to=str(self.to.currentData()) or None)


class ExchangeDialog(QDialog):
    """Exchanges before or after any Day action: items and materials with a character in
    the same hex, materials with an outpost's storage (Rulebook: Day Actions)."""

    def __init__(self, window: Host, name: str) -> None:
        super().__init__(window)
        self.window_ = window
        self.name = name
        self.setWindowTitle(f"Exchange: {name}")
        campaign = window.campaign
        assert campaign is not None
        self.campaign: Campaign = campaign
        intro = QLabel("Before or after any Day action a character may give items and "
                       "materials to others in the same hex, take them (with their player's "
                       "leave), and place or take materials in an outpost's storage. "
                       "Exchanges cost no energy.")
        intro.setWordWrap(True)
        self.who = QComboBox()
        self.who.setAccessibleName("Who exchanges")
        for character in read_game(campaign).characters:
            if character.hex is not None:
                self.who.addItem(character.name, character.name)
        self.who.setCurrentIndex(max(0, self.who.findData(name)))
        self.other = QComboBox()
        self.other.setAccessibleName("Exchange with")
        self.mine = QListWidget()
        self.mine.setAccessibleName(f"{name}'s bag")
        self.theirs = QListWidget()
        self.theirs.setAccessibleName("Their bag or store")
        self.my_items = QComboBox()
        self.my_items.setAccessibleName(f"{name}'s item to give")
        self.their_items = QComboBox()
        self.their_items.setAccessibleName("Their item to take")
        self.give_tokens = QPushButton("Give checked →")
        self.take_tokens = QPushButton("← Take checked")
        self.give_item = QPushButton("Give item →")
        self.take_item = QPushButton("← Take item")
        for button in (self.give_tokens, self.take_tokens, self.give_item, self.take_item):
            button.setAccessibleName(button.text().strip("→← "))
        self.mine_title = QLabel(f"{name}'s bag (check the tokens to give)")
        self.theirs_title = QLabel()
        grid = QGridLayout()
        grid.addWidget(self.mine_title, 0, 0)
        grid.addWidget(self.theirs_title, 0, 2)
        grid.addWidget(self.mine, 1, 0)
        middle = QVBoxLayout()
        middle.addStretch(1)
        middle.addWidget(self.give_tokens)
        middle.addWidget(self.take_tokens)
        middle.addStretch(1)
        grid.addLayout(middle, 1, 1)
        grid.addWidget(self.theirs, 1, 2)
        grid.addWidget(self.my_items, 2, 0)
        items_middle = QVBoxLayout()
        items_middle.addWidget(self.give_item)
        items_middle.addWidget(self.take_item)
        grid.addLayout(items_middle, 2, 1)
        grid.addWidget(self.their_items, 2, 2)
        top = QHBoxLayout()
        top.addWidget(QLabel("Who:"))
        top.addWidget(self.who)
        top.addWidget(QLabel("with:"))
        top.addWidget(self.other, 1)
        close = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        close.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addLayout(top)
        layout.addLayout(grid, 1)
        layout.addWidget(close)
        self.other.currentIndexChanged.connect(self.refresh)
        self.who.currentIndexChanged.connect(self._who_changed)
        self.give_tokens.clicked.connect(lambda _=False: self._tokens(give=True))
        self.take_tokens.clicked.connect(lambda _=False: self._tokens(give=False))
        self.give_item.clicked.connect(lambda _=False: self._item(give=True))
        self.take_item.clicked.connect(lambda _=False: self._item(give=False))
        self._fill_others()
        self.resize(720, 460)

    def _who_changed(self) -> None:
        self.name = str(self.who.currentData())
        self.setWindowTitle(f"Exchange: {self.name}")
        self.mine_title.setText(f"{self.name}'s bag (check the tokens to give)")
        self.mine.setAccessibleName(f"{self.name}'s bag")
        self.my_items.setAccessibleName(f"{self.name}'s item to give")
        self._fill_others()

    def _fill_others(self) -> None:
        from companion.operations.day import stores_here

        self.other.blockSignals(True)
        self.other.clear()
        self.other.blockSignals(False)
        game = read_game(self.campaign)
        for other in game.characters:
            me = game.character(self.name)
            if other.name != me.name and other.hex == me.hex and me.hex is not None:
                self.other.addItem(other.name, ("character", other.name))
        for store in stores_here(self.campaign, self.name):
            self.other.addItem(store.label[0].upper() + store.label[1:],
                               ("store", store.outpost_id))
        if self.other.count() == 0:
            self.other.addItem("nobody and no storage in the hex", None)
        self.refresh()

    def refresh(self) -> None:
        from companion.operations.day import item_name, storage_here

        game = read_game(self.campaign)
        me = game.character(self.name)
        _fill_tokens(self.mine, [(i, str(t)) for i, t in enumerate(me.bag)])
        self.my_items.clear()
        for item, slot in me.items:
            self.my_items.addItem(f"{item_name(self.campaign, item)} ({slot})", str(item))
        target = self.other.currentData()
        self.their_items.clear()
        is_character = target is not None and target[0] == "character"
        for button in (self.give_tokens, self.take_tokens):
            button.setEnabled(target is not None)
        for widget in (self.give_item, self.take_item, self.their_items):
            widget.setEnabled(is_character)
        if target is None:
            self.theirs.clear()
            self.theirs_title.setText("")
            return
        if is_character:
            other = game.character(target[1])
            self.theirs_title.setText(f"{other.name}'s bag")
            _fill_tokens(self.theirs, [(i, str(t)) for i, t in enumerate(other.bag)])
            for item, slot in other.items:
                self.their_items.addItem(f"{item_name(self.campaign, item)} ({slot})",
                                         str(item))
        else:
            stored = next(m for i, _, m in storage_here(self.campaign, self.name)
                          if i == target[1])
            self.theirs_title.setText(self.other.currentText())
            _fill_tokens(self.theirs, list(enumerate(stored)))
        self.give_item.setEnabled(is_character and self.my_items.count() > 0)
        self.take_item.setEnabled(is_character and self.their_items.count() > 0)

    def _tokens(self, *, give: bool) -> None:
        from companion.operations import day as day_ops

        target = self.other.currentData()
        if target is None:
            return
        kind, who = target
        chosen = _checked(self.mine if give else self.theirs)
        if kind == "character":
            giver, receiver = (self.name, who) if give else (who, self.name)
            self.window_.run_operation(day_ops.exchange_tokens, giver=giver,
                                       receiver=receiver, tokens=chosen)
        elif give:
            self.window_.run_operation(day_ops.store_materials, name=self.name, outpost=who,
                                       tokens=chosen)
        else:
            self.window_.run_operation(day_ops.retrieve_materials, name=self.name,
                                       outpost=who, tokens=chosen)
        self.refresh()

    def _item(self, *, give: bool) -> None:
        """Give or take an item; a receiver whose slot is full chooses at once which item
        goes and to whom (Exceeding Item Limits)."""
        from companion.operations import day as day_ops

        target = self.other.currentData()
        combo = self.my_items if give else self.their_items
        if target is None or target[0] != "character" or combo.currentData() is None:
            return
        giver, receiver = (self.name, target[1]) if give else (target[1], self.name)
        item = str(combo.currentData())
        game = read_game(self.campaign)
        rules = self.campaign.content.rules
        slot = next(s for i, s in game.character(giver).items if str(i) == item)
        taker = game.character(receiver)
        kwargs: dict[str, Any] = {}
        if taker.slots_used(slot) >= rules.item_slots.get(slot, 0):
            choice = self._choose_excess(game, giver, receiver, item, slot)
            if choice is None:
                return
            kwargs = {"excess": choice[0], "excess_to": choice[1]}
        self.window_.run_operation(day_ops.exchange_item, giver=giver, receiver=receiver,
                                   item=item, **kwargs)
        self.refresh()

    def _choose_excess(self, game: Game, giver: str, receiver: str, item: str, slot: Any
                       ) -> tuple[str, str | None] | None:
        from companion.operations.day import item_name

        taker = game.character(receiver)
        items = [(str(i), item_name(self.campaign, i)) for i, s in taker.items if s is slot]
        items.append((item, item_name(self.campaign, item)))
        rules = self.campaign.content.rules
        room = [giver] + [c.name for c in game.characters
                          if c.name not in (giver, receiver) and c.hex == taker.hex
                          and c.slots_used(slot) < rules.item_slots.get(slot, 0)]
        dialog = ExcessChoice(self, receiver, items, room,
                              f"{receiver} would hold {len(items)} {slot} items: choose one "
                              f"to give to {' or '.join(room)}")
        if dialog.exec() != QDialog.DialogCode.Accepted:
            return None
        return dialog.choice()


class ExcessChoice(QDialog):
    """The choice an exchange into a full slot asks for, before the exchange runs."""

    def __init__(self, parent: QWidget, name: str, items: list[tuple[str, str]],
                 room: list[str], text: str) -> None:
        super().__init__(parent)
        self.setWindowTitle("Too many items")
        intro, form, self.item, self.to = excess_form(text, items, room)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                   | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addLayout(form)
        layout.addWidget(buttons)
        self.setAccessibleName(f"{name}: too many items")

    def choice(self) -> tuple[str, str | None]:
        return str(self.item.currentData()), str(self.to.currentData()) or None


def open_exchange(window: Host, character: str | None = None) -> QDialog | None:
    """Exchange… (Play menu): for ``character``, else the first character in the valley."""
    if window.campaign is None:
        return None
    game = read_game(window.campaign)
    placed = [c.name for c in game.characters if c.hex is not None]
    name = character or (placed[0] if placed else None)
    if name is None:
        from PySide6.QtWidgets import QMessageBox

        QMessageBox.information(window, "Exchange", "No character is in the valley yet.")
        return None
    dialog = ExchangeDialog(window, name)
    dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    dialog.show()
    return dialog


def ask_discovery_die(parent: QWidget, campaign: Campaign, card: str, who: str
                      ) -> tuple[int, ...] | None:
    """A Discovery card drawn at the table with a test asks for the die rolled at the
    table (Rulebook: Basic Concepts > Tests): () when it has no test, None if cancelled."""
    from PySide6.QtWidgets import QInputDialog

    from companion.operations.exploration import discovery_stakes, discovery_tests

    tests = discovery_tests(campaign, card)
    if not tests:
        return ()
    # Who tests, which ability, the difficulty, and what success and failure do (issue 27
    # item 4): "asks for a test (dexterity 6+)" left the stakes to the card in hand.
    stakes = "\n".join(discovery_stakes(campaign, card, who)) or \
        f"{card} asks for a test ({', '.join(tests)})."
    die, ok = QInputDialog.getInt(
        parent, "Roll for the test", f"{stakes}\nThe die {who} rolled at the table:",
        1, 1, 6)
    return (die,) if ok else None
