"""The My cards window (menu Content ▸ My Cards…): the user's own packs and the cards
in them, to enter, edit, delete and check, with each problem as ``file:line``.

Contracts:

- :func:`open_my_cards` shows the window (one per main window; non-blocking).
- A change to the pack the open campaign plays with goes through
  ``operations.cards.enter_card`` (new or edited card) or the user-pack writer then
  ``operations.cards.reload_content`` (a deletion): the campaign plays on with it at
  once, no restart, and records the pack versions it now uses.
- :func:`offer_fix` is called when a campaign opens: if its own pack is broken (the
  campaign then plays with the pack it extends), it says which file and line and offers
  to open this window.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QMessageBox,
    QPushButton,
    QSplitter,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from companion.ui.fit import fit_resize
from companion.ui.widgets import note_label

if TYPE_CHECKING:
    from companion.content.user_pack import PackEntry, UserPack
    from companion.ui.host import Host

ENTRY_ROLE = Qt.ItemDataRole.UserRole


class MyCardsWindow(QDialog):
    """The user's packs and cards: enter, edit, delete, check."""

    def __init__(self, window: Host) -> None:
        from companion.content.user_pack import DRAWN_KINDS, TABLE_KINDS

        super().__init__(window)
        self.window_ = window
        self.setModal(False)
        self.setWindowTitle("My Cards")
        self.setObjectName("myCardsWindow")
        layout = QVBoxLayout(self)
        intro = note_label("Cards you entered at the table, in packs of your own. Each pack "
                           "extends a pack a campaign plays with; a change here takes effect "
                           "in the open campaign at once.")
        top_row = QHBoxLayout()
        top_row.addWidget(intro, 1)
        # Cards the table recorded as effects ("Just record what happened"): saved here
        # as cards of the owner's pack (issue 25 part 3).
        self.recorded_button = QPushButton("Recorded at the &table…")
        self.recorded_button.setObjectName("recordedAtTable")
        self.recorded_button.setToolTip("Cards recorded as effects at the table: save one "
                                        "as a card, its id and effects filled in")
        self.recorded_button.clicked.connect(self.show_recorded)
        top_row.addWidget(self.recorded_button)
        layout.addLayout(top_row)
        splitter = QSplitter(Qt.Orientation.Vertical)
        self.tree = QTreeWidget()
        self.tree.setObjectName("myCardsTree")
        self.tree.setAccessibleName("Your packs and their cards")
        self.tree.setHeaderLabels(["Card", "Name", "Where"])
        self.tree.setAlternatingRowColors(True)
        self.tree.itemActivated.connect(lambda _item, _col: self.edit())
        self.tree.currentItemChanged.connect(lambda *_: self._enable())
        splitter.addWidget(self.tree)
        bottom = QWidget()
        bottom_layout = QVBoxLayout(bottom)
        bottom_layout.setContentsMargins(0, 0, 0, 0)
        self.problems_label = QLabel("Problems:")
        bottom_layout.addWidget(self.problems_label)
        self.problems = QListWidget()
        self.problems.setObjectName("myCardsProblems")
        self.problems.setAccessibleName("Problems in your packs")
        self.problems.setWordWrap(True)
        bottom_layout.addWidget(self.problems)
        splitter.addWidget(bottom)
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 1)
        layout.addWidget(splitter, 1)
        buttons = QHBoxLayout()
        self.kind = QComboBox()
        self.kind.setAccessibleName("Kind of card to enter")
        for kind, word in (DRAWN_KINDS | TABLE_KINDS).items():  # my own box: traits too
            self.kind.addItem(word[0].upper() + word[1:], kind)
        self.new_button = QPushButton("&New Card…")
        self.new_button.clicked.connect(self.new_card)
        self.edit_button = QPushButton("&Edit…")
        self.edit_button.clicked.connect(self.edit)
        self.delete_button = QPushButton("&Delete")
        self.delete_button.clicked.connect(self.delete)
        self.validate_button = QPushButton("&Check Packs")
        self.validate_button.setToolTip("Load every pack of yours and list each problem")
        self.validate_button.clicked.connect(self.validate)
        close = QPushButton("&Close")
        close.setAutoDefault(False)
        close.clicked.connect(self.close)
        for widget in (self.kind, self.new_button, self.edit_button, self.delete_button):
            buttons.addWidget(widget)
        buttons.addStretch(1)
        buttons.addWidget(self.validate_button)
        buttons.addWidget(close)
        layout.addLayout(buttons)
        fit_resize(self, 1000, 640)  # within a laptop at any text size (issue 27 item 13)
        self.refresh()

    def show_recorded(self) -> QDialog | None:
        """My Cards ▸ Recorded at the table: the cards recorded as effects, each savable
        as a card (``ui.table_record.RecordedCardsDialog``)."""
        from companion.ui.table_record import RecordedCardsDialog

        if self.window_.campaign is None:
            return None
        dialog = RecordedCardsDialog(self.window_, parent=self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.finished.connect(lambda _code: self.refresh())
        dialog.open()
        return dialog

    # -- reading ----------------------------------------------------------------------------

    def refresh(self) -> None:
        """List the packs and their cards again (after any change)."""
        from companion.content import user_pack as packs

        self.tree.clear()
        for pack in packs.user_packs():
            m = pack.manifest
            top = QTreeWidgetItem([m.name, f"{m.id} {m.version}",
                                   f"extends {m.extends}" if m.extends else ""])
            top.setData(0, ENTRY_ROLE, pack)
            font = top.font(0)
            font.setBold(True)
            top.setFont(0, font)
            self.tree.addTopLevelItem(top)
            for entry in packs.entries(pack.folder):
                if entry.kind in packs.SEALED_KINDS:  # the Codex stays secret
                    continue
                item = QTreeWidgetItem([f"{packs.kind_word(entry.kind)} {entry.id}",
                                        entry.name, entry.where])
                item.setData(0, ENTRY_ROLE, entry)
                top.addChild(item)
            top.setExpanded(True)
        if self.tree.topLevelItemCount() == 0:
            self.tree.addTopLevelItem(QTreeWidgetItem(
                ["No packs of your own yet: a card entered at the table starts one."]))
        for column in range(3):
            self.tree.resizeColumnToContents(column)
        self._enable()

    def selected(self) -> PackEntry | None:
        """The card selected, if a card (not a pack) is."""
        from companion.content.user_pack import PackEntry

        item = self.tree.currentItem()
        data = item.data(0, ENTRY_ROLE) if item is not None else None
        return data if isinstance(data, PackEntry) else None

    def _pack_of(self, entry: PackEntry) -> UserPack | None:
        from companion.content import user_pack as packs

        return next((p for p in packs.user_packs() if p.folder == entry.file.parent), None)

    def _enable(self) -> None:
        has_card = self.selected() is not None
        self.edit_button.setEnabled(has_card)
        self.delete_button.setEnabled(has_card)
        self.new_button.setEnabled(self.window_.campaign is not None)

    def validate(self) -> int:
        """Load every pack of the user's; list each problem as ``file:line``. Returns
        how many were found."""
        from companion.content import user_pack as packs

        self.problems.clear()
        campaign = self.window_.campaign
        extra = campaign.extra_content if campaign is not None else ()
        found = 0
        for pack in packs.user_packs():
            for issue in dict.fromkeys(str(i) for i in packs.check_pack(pack.folder, extra)):
                self.problems.addItem(issue)
                found += 1
        if not found:
            self.problems.addItem("Every pack of yours loads: no problems.")
        self.problems_label.setText(f"Problems: {found}" if found else "Problems: none")
        return found

    def show_problem(self, error: Any) -> None:
        """List the problems of a ContentError (e.g. the one found when a campaign
        opened)."""
        self.problems.clear()
        for issue in error.issues:
            self.problems.addItem(str(issue))
        self.problems_label.setText(f"Problems: {len(error.issues)}")

    # -- changing ---------------------------------------------------------------------------

    def _in_play(self, pack: UserPack | None) -> bool:
        campaign = self.window_.campaign
        return campaign is not None and pack is not None and \
            pack.manifest.id in {p.id for p in campaign.content.packs}

    def _own(self, pack: UserPack | None) -> bool:
        campaign = self.window_.campaign
        return campaign is not None and pack is not None and \
            campaign.content.packs[-1].id == pack.manifest.id

    def new_card(self) -> QDialog | None:
        """Enter a card of the chosen kind into the open campaign's own pack."""
        from companion.ui.card_field import enter_card_form

        return enter_card_form(self.window_, str(self.kind.currentData()), parent=self,
                               on_saved=lambda _card: self.refresh())

    def edit(self) -> QDialog | None:
        """Edit the selected card in its form."""
        from companion.content import ContentError
        from companion.content import user_pack as packs
        from companion.operations import cards
        from companion.ui.card_field import content_lookup, enter_card_form
        from companion.ui.card_form import CardForm

        entry = self.selected()
        if entry is None:
            return None
        pack = self._pack_of(entry)
        if self._own(pack):
            return enter_card_form(self.window_, entry.kind, initial=entry.data,
                                   replace_id=entry.id, parent=self,
                                   on_saved=lambda _card: self.refresh())
        campaign = self.window_.campaign

        def save(data: dict[str, Any]) -> str | None:
            assert pack is not None
            try:
                packs.add_card(pack.folder, entry.kind, data, replace=entry.id,
                               extra_dirs=campaign.extra_content if campaign else ())
            except ContentError as exc:
                return "Not saved:\n" + "\n".join(str(i) for i in exc.issues)
            if self._in_play(pack):
                self.window_.run_operation(cards.reload_content)
            self.refresh()
            return None

        form = CardForm(entry.kind, parent=self, initial=entry.data, save=save,
                        lookup=content_lookup(campaign.content if campaign else None),
                        title=f"Edit the {packs.kind_word(entry.kind)} {entry.id}")
        form.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        form.open()
        return form

    def delete(self, *, confirm: bool = True) -> bool:
        """Delete the selected card (after asking); refused, with the problems, if
        something still refers to it."""
        from companion.content import ContentError
        from companion.content import user_pack as packs
        from companion.operations import cards

        entry = self.selected()
        if entry is None:
            return False
        word = packs.kind_word(entry.kind)
        if confirm and QMessageBox.question(
                self, "Delete the card", f"Delete the {word} {entry.id} "
                f"{entry.name} from your pack?") != QMessageBox.StandardButton.Yes:
            return False
        pack = self._pack_of(entry)
        campaign = self.window_.campaign
        try:
            packs.delete_card(entry.file.parent, entry.kind, entry.id,
                              extra_dirs=campaign.extra_content if campaign else ())
        except ContentError as exc:
            self.show_problem(exc)
            return False
        if self._in_play(pack):
            self.window_.run_operation(cards.reload_content)
        self.refresh()
        return True


def open_my_cards(window: Host) -> MyCardsWindow:
    """Show the My cards window (the one already open, if any)."""
    existing = [w for w in window.findChildren(MyCardsWindow)]
    dialog = existing[0] if existing else MyCardsWindow(window)
    dialog.refresh()
    dialog.show()
    dialog.raise_()
    dialog.activateWindow()
    return dialog


def offer_fix(window: Host) -> QMessageBox | None:
    """If the campaign just opened could not use the user's own pack, say which file
    and line, and offer the My cards window (non-blocking; returns the message box)."""
    campaign = window.campaign
    problem = getattr(campaign, "content_problem", None)
    if problem is None:
        return None
    lines = [str(issue) for issue in problem.issues[:6]]
    more = len(problem.issues) - len(lines)
    played = ("with the cards it carries over the pack your cards extend"
              if getattr(campaign, "own_cards", None) else
              "with the pack your cards extend, without your own cards")
    box = QMessageBox(QMessageBox.Icon.Warning, "Your cards could not be loaded",
                      f"The campaign opened {played}, because your pack has a problem:\n\n"
                      + "\n".join(lines) + (f"\n… and {more} more" if more > 0 else ""),
                      parent=window)
    box.setObjectName("brokenPackMessage")
    fix = box.addButton("Open My Cards", QMessageBox.ButtonRole.AcceptRole)
    box.addButton("Later", QMessageBox.ButtonRole.RejectRole)

    def clicked(button: Any) -> None:
        if button is fix:
            open_my_cards(window).show_problem(problem)

    box.buttonClicked.connect(clicked)
    box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    box.open()
    return box


def offer_carried(window: Host) -> QMessageBox | None:
    """If the campaign just opened carries cards this computer's pack lacks, or holds in
    another version, say which (it plays with its own versions) and offer to add the
    missing ones to this computer's pack (non-blocking; returns the message box)."""
    from companion.operations import own_cards

    campaign = window.campaign
    if campaign is None or not (campaign.cards_missing or campaign.cards_edited):
        return None
    report = own_cards.carried_report(campaign)
    text = []
    if report.missing:
        text.append(f"This campaign carries {len(report.missing)} "
                    f"{'card' if len(report.missing) == 1 else 'cards'} your pack on this "
                    "computer does not have. The campaign plays with "
                    f"{'it' if len(report.missing) == 1 else 'them'} all the same:\n"
                    + _listed(report.missing))
    if report.edited:
        text.append(f"{len(report.edited)} {'card is' if len(report.edited) == 1 else 'cards are'} "
                    "different in your pack on this computer. The campaign keeps the version "
                    "it played with:\n" + _listed(report.edited)
                    + "\nTo play with this computer's version, edit the card in My Cards.")
    box = QMessageBox(QMessageBox.Icon.Information, "Cards this campaign carries",
                      "\n\n".join(text), parent=window)
    box.setObjectName("carriedCardsMessage")
    add = None
    if report.missing:
        add = box.addButton("Add Them to My Pack", QMessageBox.ButtonRole.AcceptRole)
        add.setObjectName("adoptCards")
        add.setToolTip("Copy the cards this campaign carries into your pack on this "
                       "computer, so your other campaigns know them too")
    cards_button = box.addButton("Open My Cards", QMessageBox.ButtonRole.ActionRole)
    box.addButton("Not Now", QMessageBox.ButtonRole.RejectRole)

    def clicked(button: Any) -> None:
        if add is not None and button is add:
            window.run_operation(own_cards.adopt_cards)
        elif button is cards_button:
            open_my_cards(window)

    box.buttonClicked.connect(clicked)
    box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    box.open()
    return box


def _listed(cards: Any, at_most: int = 8) -> str:
    lines = [f"  • {card.shown}" for card in cards[:at_most]]
    if len(cards) > at_most:
        lines.append(f"  … and {len(cards) - at_most} more")
    return "\n".join(lines)
