"""The challenge lifecycle: starting a challenge and ending it (with its outcome)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6 import QtWidgets
from PySide6.QtCore import Qt

from companion.ui.widgets import heading

from .play_dialog import WARN, PlayDialog, check, checkable, checked, show, wrapped

if TYPE_CHECKING:
    from companion.ui.host import Host


class StartChallengeDialog(PlayDialog):
    """Choose and set up the next challenge (Rulebook: Set Up > Select Challenge): only
    the eligible ones are offered, with the priority rule explained."""

    title = "Start a Challenge"

    def __init__(self, window: Host) -> None:
        super().__init__(window)
        self.explanation = wrapped()
        self.explanation.setAccessibleName("Priority rule")
        self.choices = QtWidgets.QListWidget()
        self.choices.setAccessibleName("Eligible challenges")
        self.choices.currentRowChanged.connect(self._describe)
        self.card = wrapped()
        self.card.setAccessibleName("Challenge card")
        # A card from the box the app doesn't know yet is typed from the card in hand
        # (issue 25 part 5): ui/challenge_card_form.py.
        self.unknown_button = QtWidgets.QPushButton("A Challenge Card the App Doesn't Know Yet…")
        self.unknown_button.setAccessibleName("A challenge card the app doesn't know yet")
        self.unknown_button.clicked.connect(self.enter_unknown)
        self.unknown_note = wrapped()
        unknown_row = QtWidgets.QHBoxLayout()
        unknown_row.addWidget(self.unknown_note, 1)
        unknown_row.addWidget(self.unknown_button)
        self.body.addWidget(self.explanation)
        self.body.addWidget(QtWidgets.QLabel("Challenges the group may choose now:"))
        self.body.addWidget(self.choices, 1)
        self.body.addWidget(self.card)
        self.body.addLayout(unknown_row)
        # Rulebook: Determine Starting Hex and Place Characters: in an existing valley
        # each character begins in the starting hex or any hex with an outpost; Mantle >
        # Mantle Board: each player chooses a mantle at the start of each challenge;
        # Continuing Play > Mantle Power: after the first challenge, then a power.
        from companion.operations.legends import unlocked_mantle_powers
        from companion.operations.setup import mantle_powers_offered

        self.placements: dict[str, QtWidgets.QComboBox] = {}
        self.mantles: dict[str, QtWidgets.QComboBox] = {}
        self.powers: dict[str, QtWidgets.QComboBox] = {}
        self.places_box = QtWidgets.QGroupBox("Each character begins (full energy, unharmed, no "
                                              "boosts) in the mantle chosen")
        grid = QtWidgets.QGridLayout(self.places_box)
        hexes = self.campaign.starting_hexes()
        self.later = mantle_powers_offered(self.campaign)
        self.unlocked = unlocked_mantle_powers(self.campaign) if self.later else []
        headers = ["", "Where", "Mantle"] + (["Mantle power"] if self.later else [])
        for column, text in enumerate(headers):
            header = QtWidgets.QLabel(text)
            bold = header.font()
            bold.setBold(True)
            header.setFont(bold)
            grid.addWidget(header, 0, column)
        for row, summary in enumerate(self.campaign.characters(), 1):
            name = summary.name
            grid.addWidget(QtWidgets.QLabel(f"{name}:"), row, 0)
            combo = QtWidgets.QComboBox()
            combo.setAccessibleName(f"Where {name} begins")
            for number, tile in enumerate(hexes):
                combo.addItem(f"{tile} — {'starting hex' if number == 0 else 'outpost'}",
                              tile)
            combo.setVisible(bool(hexes))
            grid.addWidget(combo, row, 1)
            self.placements[name] = combo
            mantle = QtWidgets.QComboBox()
            mantle.setAccessibleName(f"{name}'s mantle")
            for card in self.content.mantles.values():
                mantle.addItem(card.name, card.id)
            worn = self.campaign.character_detail(name).mantle
            if worn is not None and mantle.findData(worn) >= 0:
                mantle.setCurrentIndex(mantle.findData(worn))
            grid.addWidget(mantle, row, 2)
            self.mantles[name] = mantle
            if self.later:
                power = QtWidgets.QComboBox()
                power.setAccessibleName(f"{name}'s mantle power")
                grid.addWidget(power, row, 3)
                self.powers[name] = power
                mantle.currentIndexChanged.connect(
                    lambda _=0, n=name: self._offer_powers(n))
                self._offer_powers(name)
        grid.setColumnStretch(1, 1)
        self.mantle_note = wrapped(
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
            hint = QtWidgets.QListWidgetItem("(none while a challenge is being played)")
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
            item = QtWidgets.QListWidgetItem(self._label(challenge))
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


def open_start_challenge(window: Host) -> QtWidgets.QDialog | None:
    """Start Challenge… (Play menu)."""
    return show(StartChallengeDialog(window)) if window.campaign else None


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
        self.outcome = QtWidgets.QLineEdit()
        self.outcome.setAccessibleName("Outcome entry")
        self.outcome.setPlaceholderText("the outcome entry the challenge card names, e.g. 112")
        self.outcome.textChanged.connect(self._validate)
        # The card names its outcome (issue 27 item 7): filled in when the app knows the
        # card, typed from the card otherwise (issue 25 part 5).
        self.outcome_source = wrapped()
        self.outcome_source.setAccessibleName("Where the outcome comes from")
        outcome_row = QtWidgets.QHBoxLayout()
        outcome_row.addWidget(self.outcome)
        outcome_row.addWidget(self.outcome_source, 1)
        form = QtWidgets.QFormLayout()
        form.addRow("Outcome entry:", outcome_row)
        self.items: dict[str, QtWidgets.QListWidget] = {}
        self.materials: dict[str, QtWidgets.QListWidget] = {}
        self.counts: dict[str, QtWidgets.QLabel] = {}
        holder = QtWidgets.QWidget()
        self.people = QtWidgets.QHBoxLayout(holder)
        self.people.setContentsMargins(0, 0, 0, 0)
        scroll = QtWidgets.QScrollArea()
        scroll.setWidget(holder)
        scroll.setWidgetResizable(True)
        retain = QtWidgets.QGroupBox(f"Retained supplies: up to {self.limits[0]} items and "
                                     f"{self.limits[1]} material tokens each")
        QtWidgets.QVBoxLayout(retain).addWidget(scroll)
        self.looming = QtWidgets.QListWidget()
        self.looming.setAccessibleName("Looming challenges")
        for card in self.content.challenges.values():
            self.looming.addItem(checkable(f"{card.name} (priority {card.priority})",
                                            card.id))
        rows = min(6, max(1, self.looming.count()))
        self.looming.setMaximumHeight(self.looming.sizeHintForRow(0) * rows +
                                      2 * self.looming.frameWidth() + 4)
        self.other_looming = QtWidgets.QLineEdit()
        self.other_looming.setAccessibleName("Other looming challenges")
        self.other_looming.setPlaceholderText(
            "e.g. C4, C7 (cards the app doesn't know: entered when started)")
        looming_box = QtWidgets.QGroupBox("Looming challenges the outcome names (set aside for the "
                                          "next game)")
        looming_layout = QtWidgets.QVBoxLayout(looming_box)
        looming_layout.addWidget(self.looming)
        others = QtWidgets.QHBoxLayout()
        others_label = QtWidgets.QLabel("Others, by the id on their cards:")
        others_label.setBuddy(self.other_looming)
        others.addWidget(others_label)
        others.addWidget(self.other_looming, 1)
        looming_layout.addLayout(others)
        self.note = wrapped(
            "Also: unfinished epoch goals are set aside for the next game of the epoch; vital "
            "and sealed goals leave play; activity resets; fire, shelter and lore tokens "
            "leave the valley; the behemoth goes back to the box (what the society learned "
            "of it stays in the Journal). Every item and token not retained goes back to "
            "the box. Next game, each character begins with full energy (less 1 at unrest "
            "6+), unharmed, and takes up what they retained.")
        self.problem = wrapped()
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
            box = QtWidgets.QGroupBox(name)
            layout = QtWidgets.QVBoxLayout(box)
            items = QtWidgets.QListWidget()
            items.setAccessibleName(f"{name}'s items to retain")
            for item, _ in character.items:
                items.addItem(checkable(self.item_name(str(item)), str(item)))
            materials = QtWidgets.QListWidget()
            materials.setAccessibleName(f"{name}'s material tokens to retain")
            for index, token in enumerate(character.bag):
                if str(token.kind) == "material":
                    side = str(token.side)
                    materials.addItem(checkable(
                        f"#{index + 1} {self.resource_name(token.name)} ({side})", index))
            for widget in (items, materials):
                widget.itemChanged.connect(self._validate)
                widget.setSelectionMode(QtWidgets.QAbstractItemView.SelectionMode.NoSelection)
            count = QtWidgets.QLabel()
            layout.addWidget(QtWidgets.QLabel("Items:"))
            layout.addWidget(items if items.count() else QtWidgets.QLabel("  none held"))
            layout.addWidget(QtWidgets.QLabel("Material tokens:"))
            layout.addWidget(materials if materials.count() else QtWidgets.QLabel("  none held"))
            layout.addWidget(count)
            layout.addStretch(1)
            self.people.addWidget(box)
            self.items[name], self.materials[name], self.counts[name] = items, materials, count
        self._validate()

    def check_item(self, name: str, item: str, checked: bool = True) -> None:
        check(self.items[name], item, checked)

    def check_material(self, name: str, index: int, checked: bool = True) -> None:
        check(self.materials[name], index, checked)

    def check_looming(self, challenge: str, checked: bool = True) -> None:
        check(self.looming, challenge, checked)

    def retained(self) -> dict[str, tuple[list[str], list[int]]]:
        """name -> (item ids, bag positions) for the characters who retain anything."""
        kept = {}
        for name in self.items:
            items, tokens = checked(self.items[name]), checked(self.materials[name])
            if items or tokens:
                kept[name] = ([str(i) for i in items], [int(t) for t in tokens])
        return kept

    def _validate(self, *_: object) -> None:
        problems = []
        for name in self.items:
            items, tokens = len(checked(self.items[name])), len(checked(self.materials[name]))
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
        return list(dict.fromkeys([*checked(self.looming), *(t for t in typed if t)]))

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


def open_end_challenge(window: Host) -> QtWidgets.QDialog | None:
    """End Challenge… (Play menu)."""
    return show(EndChallengeDialog(window)) if window.campaign else None
