"""Between games: retained supplies and ruins, goals, a new epoch, ageing and healing."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6 import QtWidgets
from PySide6.QtCore import Qt

from companion.ui.widgets import heading

from .play_dialog import WARN, PlayDialog, show, wrapped

if TYPE_CHECKING:
    from companion.ui.host import Host


GOAL_STATES = {"vital": "vital goal", "epoch": "epoch goal", "sealed": "sealed goal",
               "set_aside": "set aside (returns next game of the epoch)",
               "completed": "completed"}


class RetainedAndRuinsDialog(PlayDialog):
    """Between and during games: retained supplies a successor inherits (Rulebook:
    Retaining Supplies, D13; each claimed once) and an outpost that becomes a ruin when an
    effect says so (Rulebook: Overlays > Outposts > Ruins)."""

    title = "Retained Supplies and Ruins"

    def __init__(self, window: Host) -> None:
        super().__init__(window)
        supplies_box = QtWidgets.QGroupBox("Retained supplies waiting to be taken up")
        supplies = QtWidgets.QVBoxLayout(supplies_box)
        self.supplies = QtWidgets.QListWidget()
        self.supplies.setAccessibleName("Retained supplies")
        self.taker = self.character_combo()
        self.taker.setAccessibleName("Who takes them up")
        self.claim_button = QtWidgets.QPushButton("&Take Up")
        self.claim_button.clicked.connect(self.claim)
        row = QtWidgets.QHBoxLayout()
        row.addWidget(QtWidgets.QLabel("Taken up by:"))
        row.addWidget(self.taker, 1)
        row.addWidget(self.claim_button)
        supplies.addWidget(wrapped(
            "A character takes up what they retained when the next challenge starts; "
            "what a legend retained goes to their player's next character."))
        supplies.addWidget(self.supplies, 1)
        supplies.addLayout(row)
        ruin_box = QtWidgets.QGroupBox(
            "An outpost becomes a ruin, or loses a structure (when an effect says so)")
        ruin = QtWidgets.QFormLayout(ruin_box)
        self.outposts = QtWidgets.QComboBox()
        self.outposts.setAccessibleName("Outpost")
        self.reason = QtWidgets.QLineEdit()
        self.reason.setAccessibleName("Why")
        self.reason.setPlaceholderText("the event or outcome, e.g. Activity 14: a storm")
        self.ruin_button = QtWidgets.QPushButton("&Ruin It")
        self.ruin_button.clicked.connect(self.ruin)
        ruin.addRow("Outpost:", self.outposts)
        ruin.addRow("Because:", self.reason)
        ruin.addRow("", self.ruin_button)
        self.structures = QtWidgets.QComboBox()
        self.structures.setAccessibleName("Structure")
        self.remove_button = QtWidgets.QPushButton("Re&move Structure")
        self.remove_button.clicked.connect(self.remove_structure)
        self.outposts.currentIndexChanged.connect(self._list_structures)
        erase = QtWidgets.QHBoxLayout()
        erase.addWidget(self.structures, 1)
        erase.addWidget(self.remove_button)
        ruin.addRow("Structure:", erase)
        self.body.addWidget(supplies_box, 1)
        self.body.addWidget(ruin_box)
        self.refresh()
        self.resize(640, 480)

    def refresh(self) -> None:
        from companion.operations.challenge import retained_supplies
        from companion.ui.widgets import read_game

        self.supplies.clear()
        for supply in retained_supplies(self.campaign):
            things = [str(i) for i in supply["items"]]  # type: ignore[attr-defined]
            things += [str(m) for m in supply["materials"]]  # type: ignore[attr-defined]
            item = QtWidgets.QListWidgetItem(
                f"{supply['character']} ({supply['player']}) retained: "
                f"{', '.join(things) or 'nothing'}")
            item.setData(Qt.ItemDataRole.UserRole, supply["number"])
            self.supplies.addItem(item)
        if self.supplies.count():
            self.supplies.setCurrentRow(0)
        else:
            self.supplies.addItem("Nothing waits to be taken up.")
        self.claim_button.setEnabled(self.supplies.currentItem() is not None and
                                     self.supplies.currentItem().data(
                                         Qt.ItemDataRole.UserRole) is not None)
        self.outposts.clear()
        for outpost in read_game(self.campaign).outposts:
            if str(outpost.status) == "active":
                self.outposts.addItem(f"{outpost.name} ({outpost.hex})", outpost.name)
        self.ruin_button.setEnabled(self.outposts.count() > 0)
        if not self.outposts.count():
            self.outposts.addItem("No active outpost", None)
        self._list_structures()

    def _list_structures(self) -> None:
        """The structures on the chosen outpost's card (one may be removed by an effect)."""
        from companion.ui.widgets import read_game

        self.structures.clear()
        chosen = self.outposts.currentData()
        names = self.campaign.content.structures
        for outpost in read_game(self.campaign).outposts:
            if outpost.name == chosen:
                for structure in outpost.structures:
                    self.structures.addItem(
                        names[structure].name if structure in names else structure, structure)
        self.remove_button.setEnabled(self.structures.count() > 0)

    def claim(self) -> None:
        from companion.operations.challenge import claim_retained

        item = self.supplies.currentItem()
        if item is None or item.data(Qt.ItemDataRole.UserRole) is None:
            return
        self.run(claim_retained, name=str(self.taker.currentData()),
                 supply=int(item.data(Qt.ItemDataRole.UserRole)))

    def ruin(self) -> None:
        from companion.operations.challenge import ruin_outpost

        if self.outposts.currentData() is None:
            return
        if self.run(ruin_outpost, outpost=str(self.outposts.currentData()),
                    reason=self.reason.text().strip()):
            self.reason.clear()


    def remove_structure(self) -> None:
        from companion.operations.challenge import remove_structure

        if self.outposts.currentData() is None or self.structures.currentData() is None:
            return
        if self.run(remove_structure, outpost=str(self.outposts.currentData()),
                    structure=str(self.structures.currentData()),
                    reason=self.reason.text().strip()):
            self.reason.clear()


def open_retained_and_ruins(window: Host) -> QtWidgets.QDialog | None:
    """Retained Supplies and Ruins… (Play menu)."""
    return show(RetainedAndRuinsDialog(window)) if window.campaign else None


class GoalsDialog(PlayDialog):
    """The goals in play; complete one (its card goes beneath the challenge). Sealed goals
    are shown as "sealed goal" only: their text stays unread (spoilers)."""

    title = "Goals"

    def __init__(self, window: Host) -> None:
        super().__init__(window)
        self.goals = QtWidgets.QListWidget()
        self.goals.setAccessibleName("Goals")
        self.goals.setWordWrap(True)
        self.goals.currentRowChanged.connect(self._selected)
        # Not "Goals the society has met": the list holds the goals still in play too.
        self.body.addWidget(QtWidgets.QLabel("Goals in play, and those met (select one in play):"))
        self.body.addWidget(self.goals, 1)
        self.complete_button = self.action_button("Complete Goal")
        self.complete_button.clicked.connect(self.complete)
        self.refresh()
        self.resize(620, 420)

    def goal_text(self, goal: str, state: str) -> str:
        if state == "sealed":
            return "Sealed goal — not yet revealed"
        card = self.content.goals.get(goal) or self.content.set_aside_goals.get(goal)
        name = card.name if card is not None else goal
        said: str = str(getattr(card, "text", "") or "") if card is not None else ""
        text = f": {said}" if said else ""
        return f"{name} — {GOAL_STATES.get(state, state)}{text}"

    def refresh(self) -> None:
        self.goals.clear()
        for goal, state in self.campaign.goals_in_play():
            item = QtWidgets.QListWidgetItem(self.goal_text(goal, state))
            item.setData(Qt.ItemDataRole.UserRole, goal)
            if state not in ("vital", "epoch", "sealed"):
                item.setFlags(Qt.ItemFlag.NoItemFlags)
            self.goals.addItem(item)
        if not self.goals.count():
            self.goals.addItem(QtWidgets.QListWidgetItem("(no goals: start a challenge)"))
        self._selected()

    def choose(self, goal: str) -> None:
        for row in range(self.goals.count()):
            if self.goals.item(row).data(Qt.ItemDataRole.UserRole) == goal:
                self.goals.setCurrentRow(row)
                return
        raise KeyError(goal)

    def _selected(self, *_: object) -> None:
        item = self.goals.currentItem()
        self.complete_button.setEnabled(item is not None and bool(
            item.flags() & Qt.ItemFlag.ItemIsEnabled) and
            item.data(Qt.ItemDataRole.UserRole) is not None)

    def complete(self) -> None:
        from companion.operations.challenge import complete_goal

        item = self.goals.currentItem()
        if item is not None and item.data(Qt.ItemDataRole.UserRole):
            self.run(complete_goal, goal=str(item.data(Qt.ItemDataRole.UserRole)))


def open_goals(window: Host) -> QtWidgets.QDialog | None:
    """Goals… (Play menu)."""
    return show(GoalsDialog(window)) if window.campaign else None


class NewEpochDialog(PlayDialog):
    """A new epoch begins (only between challenges): the game count starts again and
    set-aside epoch goals lapse."""

    title = "New Epoch"

    def __init__(self, window: Host) -> None:
        super().__init__(window)
        self.heading = heading("")
        self.text = wrapped()
        self.body.addWidget(self.heading)
        self.body.addWidget(self.text)
        self.body.addStretch(1)
        self.epoch_button = self.action_button("Begin the New Epoch")
        self.epoch_button.clicked.connect(self.begin)
        self.refresh()
        self.resize(520, 260)

    def refresh(self) -> None:
        status = self.campaign.status()
        lapse = [g for g, s in self.campaign.goals_in_play() if s == "set_aside"]
        self.heading.setText(f"Epoch {status.epoch} → epoch {status.epoch + 1}")
        if status.challenge_id:
            self.text.setText(f"The challenge '{status.challenge_name}' is being played: an "
                              "epoch changes only between challenges. End it first.")
            self.text.setStyleSheet(WARN)
            self.epoch_button.setEnabled(False)
            return
        self.text.setStyleSheet("")
        self.text.setText(
            f"{status.games_this_epoch} game(s) were played this epoch; the count starts "
            f"again. {len(lapse)} set-aside epoch goal(s) lapse.")
        self.epoch_button.setEnabled(True)

    def begin(self) -> None:
        from companion.operations.challenge import new_epoch

        if self.run(new_epoch):
            self.accept()


def open_new_epoch(window: Host) -> QtWidgets.QDialog | None:
    """New Epoch… (Play menu)."""
    return show(NewEpochDialog(window)) if window.campaign else None


class AgeingDialog(PlayDialog):
    """Between games: age a character (young → old → legend) and degrade a health token
    (major → minor, minor removed)."""

    title = "Age and Heal"

    def __init__(self, window: Host, character: str | None = None) -> None:
        super().__init__(window)
        self.character = self.character_combo(character)
        self.character.currentIndexChanged.connect(self.refresh)
        self.age = QtWidgets.QLabel()
        self.age.setAccessibleName("Age")
        self.age_button = QtWidgets.QPushButton()
        self.age_button.clicked.connect(self.age_character)
        self.health = QtWidgets.QListWidget()
        self.health.setAccessibleName("Health tokens")
        self.degrade_button = QtWidgets.QPushButton("Degrade the selected token")
        self.degrade_button.clicked.connect(self.degrade)
        self.health.currentRowChanged.connect(
            lambda row: self.degrade_button.setEnabled(row >= 0 and bool(self._tokens)))
        form = QtWidgets.QFormLayout()
        form.addRow("Character:", self.character)
        form.addRow("Age:", self.age)
        form.addRow("", self.age_button)
        self.body.addLayout(form)
        self.body.addWidget(QtWidgets.QLabel("Health tokens (major → minor, minor → removed):"))
        self.body.addWidget(self.health, 1)
        self.body.addWidget(self.degrade_button)
        self._tokens: list[str] = []
        self.refresh()
        self.resize(520, 420)

    def _names(self) -> list[str]:
        return [c.name for c in self.campaign.characters()]

    def refresh(self) -> None:
        current = self.character.currentData()
        names = self._names()
        if [self.character.itemData(i) for i in range(self.character.count())] != names:
            self.character.blockSignals(True)
            self.character.clear()
            for name in names:
                self.character.addItem(name, name)
            if current in names:
                self.character.setCurrentIndex(names.index(current))
            self.character.blockSignals(False)
        name = self.character.currentData()
        self.health.clear()
        self._tokens = []
        if not name:
            self.age.setText("no character")
            self.age_button.setEnabled(False)
            self.degrade_button.setEnabled(False)
            return
        character = self.campaign.character_detail(str(name))
        age = str(character.age.value if hasattr(character.age, "value") else character.age)
        self.age.setText(age.title())
        self.age_button.setEnabled(True)
        self.age_button.setText(f"Age {name}: young → old" if age == "young" else
                                f"Age {name}: old → legend (leaves play as a legend)")
        self._tokens = [str(t) for t in character.health]
        for number, token in enumerate(self._tokens, 1):
            self.health.addItem(f"{number}. {token.replace('_', ' ')}")
        if not self._tokens:
            self.health.addItem(QtWidgets.QListWidgetItem("(no injury or disease tokens)"))
        self.degrade_button.setEnabled(False)

    def age_character(self) -> None:
        from companion.operations.challenge import age_character

        self.run(age_character, name=str(self.character.currentData()))

    def degrade(self) -> None:
        from companion.operations.challenge import degrade_token

        row = self.health.currentRow()
        if 0 <= row < len(self._tokens):
            self.run(degrade_token, name=str(self.character.currentData()), index=row)


def open_ageing(window: Host, character: str | None = None) -> QtWidgets.QDialog | None:
    """Age and Heal… (Play menu)."""
    return show(AgeingDialog(window, character)) if window.campaign else None
