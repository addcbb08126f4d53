"""Day view: whose turn it is, and for each character the Day actions they can take in
their hex with the energy each costs (Rulebook: Game Structure > Day Phase; Actions).

Every button runs one operation through ``Host.run_operation``. Actions that are
not allowed now stay visible, disabled, with the reason as text. Foraging, fishing,
mining and delving are walked by the activity procedures, which are not built yet: they
are shown with their cost but disabled, never with a made-up result.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from companion.ui.views import wants
from companion.ui.widgets import heading, read_game

if TYPE_CHECKING:
    from companion.operations.day import ActionOption
    from companion.rules.character import Character
    from companion.rules.game import Game
    from companion.ui.host import Host

PROCEDURES = {"forage": "foraging", "fish": "fishing", "mine": "mining", "delve": "delving"}
"""Actions handed off to activity procedures, run in the procedure dialog."""

ACTIVITY = "activity"
"""ActionRow.operation for an activity: its kwargs name the kind, character and feature."""


@dataclass(frozen=True)
class ActionRow:
    """One action as the Day panel shows it."""

    text: str
    """The button text, with the energy cost."""
    enabled: bool
    reason: str
    """Why it is disabled ("" when enabled)."""
    operation: str | None
    """The operation the button runs ('move', 'gather_water', 'prepare_shelter')."""
    kwargs: tuple[tuple[str, str], ...] = ()


def action_rows(name: str, options: list[ActionOption]) -> list[ActionRow]:
    """What the panel shows for ``options`` (no window needed)."""
    rows = []
    kwargs: tuple[tuple[str, str], ...]
    for option in options:
        if option.action in PROCEDURES:
            kwargs = (("kind", PROCEDURES[option.action]), ("name", name),
                      ("feature", option.target or ""))
            rows.append(ActionRow(option.label, option.refusal is None, option.refusal or "",
                                  ACTIVITY, kwargs))
            continue
        if option.action in ("move", "explore"):
            operation, kwargs = "move", (("name", name), ("to_hex", option.target or ""))
        elif option.action in ("gather_water", "prepare_shelter"):
            operation, kwargs = option.action, (("name", name),)
        else:
            rows.append(ActionRow(option.label, False,
                                  "this action is not in the companion yet", None))
            continue
        rows.append(ActionRow(option.label, option.refusal is None, option.refusal or "",
                              operation, kwargs))
    return rows


def turn_text(turn: dict[str, Any]) -> str:
    """The panel's header: who may act, who has passed, who acted last."""
    if turn.get("phase") != "day":
        return f"It is the {turn.get('phase')} phase: Day actions wait for the next Day."
    may_act = ", ".join(turn["may_act"]) or "nobody"
    passed = ", ".join(turn["passed"]) or "nobody"
    last = turn["last_actor"] or "nobody yet"
    return f"May act now: {may_act}. Passed: {passed}. Acted last: {last}."


def character_state(character: Character, turn: dict[str, Any]) -> str:
    """One character's place in the turn order, in words."""
    if character.incapacitated:
        return "incapacitated"
    if character.name in turn["passed"]:
        return "has passed"
    if character.name in turn["may_act"]:
        return "may act"
    if character.name == turn["last_actor"]:
        return "acted last: waits for the others"
    return "cannot act now"


class DayView(QWidget):
    """The Day tab."""

    def __init__(self, window: Host) -> None:
        super().__init__()
        self.window_ = window
        self.title = heading("Day phase")
        self.turn = QLabel()
        self.turn.setWordWrap(True)
        self.turn.setAccessibleName("Whose turn")
        self.turn.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        note = QLabel("Characters take turns, one action at a time; nobody acts twice in a "
                      "row unless everyone else has passed (Rulebook: Day Phase).")
        note.setWordWrap(True)
        self.body = QWidget()
        self.body_layout = QVBoxLayout(self.body)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setWidget(self.body)
        layout = QVBoxLayout(self)
        layout.addWidget(self.title)
        layout.addWidget(self.turn)
        layout.addWidget(note)
        layout.addWidget(scroll, 1)
        self.boxes: dict[str, QGroupBox] = {}
        self.buttons: dict[str, list[QPushButton]] = {}
        self.reasons: dict[str, list[QLabel]] = {}
        window.campaign_changed.connect(self.on_changed)

    def on_changed(self, changes: object) -> None:
        if self.window_.campaign is None:
            return
        if any(wants(changes, f) for f in ("characters", "valley", "society", "outposts",
                                           "procedure", "challenge")):
            self.refresh()

    def refresh(self) -> None:
        from companion import operations

        campaign = self.window_.campaign
        assert campaign is not None
        while self.body_layout.count():
            item = self.body_layout.takeAt(0)
            widget = item.widget() if item is not None else None
            if widget is not None:
                widget.hide()  # deleteLater waits for the event loop; never paint both
                widget.deleteLater()
        self.boxes.clear()
        self.buttons.clear()
        self.reasons.clear()
        game = read_game(campaign)
        turn = operations.whose_turn(campaign)
        self.turn.setText(turn_text(turn))
        if not game.characters:
            self.body_layout.addWidget(QLabel("No characters in play: create them in the "
                                              "Characters tab."))
        due = operations.discovery_due(campaign)
        if due is not None:
            self.body_layout.addWidget(self._discovery_row(due))
        self.body_layout.addWidget(self._night_row(turn))
        for character in game.characters:
            box = self._character_box(character, game, turn)
            self.body_layout.addWidget(box)
        self.body_layout.addStretch(1)

    def _character_box(self, character: Character, game: Game, turn: dict[str, Any]) -> QGroupBox:
        from companion import operations

        campaign = self.window_.campaign
        assert campaign is not None
        name = character.name
        box = QGroupBox(f"{name} ({character.player}) — {character.energy}/"
                        f"{character.energy_max} energy — hex {character.hex or 'not placed'}"
                        f" — {character_state(character, turn)}")
        box.setAccessibleName(f"{name}'s actions")
        grid = QGridLayout(box)
        grid.setColumnStretch(1, 1)
        self.boxes[name] = box
        self.buttons[name] = []
        self.reasons[name] = []
        rows = action_rows(name, operations.available_actions(campaign, name))
        for row in rows:
            self._add_row(grid, name, row.text, row.enabled, row.reason,
                          self._runner(row.operation, dict(row.kwargs)))
        self._add_revives(grid, character, game, turn)
        can_pass = name not in turn["passed"] and turn.get("phase") == "day"
        self._add_row(grid, name, "Pass for the rest of the Day", can_pass,
                      "" if can_pass else f"{name} has already passed",
                      self._runner("pass_turn", {"name": name}))
        return box

    def _add_revives(self, grid: QGridLayout, character: Character, game: Game,
                     turn: dict[str, Any]) -> None:
        """Revive, when a character in the hex is incapacitated (Rulebook: Actions >
        Revive): pick the token to degrade."""
        campaign = self.window_.campaign
        assert campaign is not None
        cost = campaign.content.rules.action_costs.revive
        for patient in game.characters:
            if (patient.name == character.name or not patient.incapacitated
                    or patient.hex != character.hex):
                continue
            tokens = QComboBox()
            tokens.setAccessibleName(f"{patient.name}'s token to degrade")
            for index, token in enumerate(patient.health):
                tokens.addItem(f"{index + 1}: {str(token).replace('_', ' ')}", index)
            if character.name not in turn["may_act"]:
                reason = f"{character.name} cannot act now ({character_state(character, turn)})"
            elif character.energy < cost:
                reason = f"{character.name} has {character.energy} energy; Revive costs {cost}"
            else:
                reason = ""

            def revive(patient_name: str = patient.name, combo: QComboBox = tokens) -> None:
                from companion.operations import revive as revive_op

                self.window_.run_operation(revive_op, name=character.name,
                                           target=patient_name,
                                           token=int(combo.currentData() or 0))

            tokens.setEnabled(not reason)
            self._add_row(grid, character.name, f"Revive {patient.name}: {cost} energy",
                          not reason, reason or "degrades the chosen token", revive,
                          extra=tokens)

    def _runner(self, operation: str | None, kwargs: dict[str, Any]) -> Callable[[], None]:
        def run() -> None:
            from companion import operations

            if operation == ACTIVITY:
                from companion.ui.procedure_dialog import start_activity

                start_activity(self.window_, kwargs["kind"], kwargs["name"], kwargs["feature"])
            elif operation is not None:
                self.window_.run_operation(getattr(operations, operation), **kwargs)
        return run

    def _night_row(self, turn: dict[str, Any]) -> QWidget:
        """End the Day: when everyone has passed, the Night begins (or resumes)."""
        from companion.operations import procedures

        campaign = self.window_.campaign
        assert campaign is not None
        busy = procedures.in_progress(campaign)
        row = QWidget()
        line = QHBoxLayout(row)
        line.setContentsMargins(0, 0, 0, 0)
        if busy is not None:
            button = QPushButton(f"&Continue the {busy.kind.replace('_', ' ')}…")
            button.clicked.connect(self._continue)
            reason = f"{busy.kind.replace('_', ' ').capitalize()} in progress: " \
                     f"{busy.step.prompt if busy.step else 'finished'}"
        else:
            waiting = [n for n in turn["may_act"] if n not in turn["passed"]]
            button = QPushButton("Begin the &Night…")
            button.clicked.connect(self._begin_night)
            button.setEnabled(not waiting and turn.get("phase") == "day")
            reason = ("Everyone has passed: the Night can begin." if button.isEnabled() else
                      f"The Night begins once {', '.join(waiting)} "
                      f"{'passes' if len(waiting) == 1 else 'pass'}.")
        button.setAccessibleName(button.text().replace("&", ""))
        self.night_button = button
        label = QLabel(reason)
        label.setWordWrap(True)
        line.addWidget(button)
        line.addWidget(label, 1)
        return row

    def _discovery_row(self, due: dict[str, Any]) -> QWidget:
        """On arrival a Discovery card is due (Rulebook: Actions > Move; Explore): drawn
        by the app, or typed from the table."""
        from PySide6.QtWidgets import QLineEdit

        from companion import operations

        name = str(due.get("character", ""))
        box = QGroupBox(f"Discovery due: {name} arrived in {due.get('hex', '?')}")
        box.setAccessibleName("Discovery due")
        line = QHBoxLayout(box)
        draw = QPushButton("Draw in the &app")
        draw.setAccessibleName("Draw the Discovery card in the app")
        typed = QLineEdit()
        typed.setPlaceholderText("or the card id drawn at the table")
        typed.setAccessibleName("Discovery card drawn at the table")
        use = QPushButton("&Use this card")
        draw.clicked.connect(lambda _=False: self.window_.run_operation(
            operations.draw_discovery, name=name))
        use.clicked.connect(lambda _=False: typed.text().strip() and self.window_.run_operation(
            operations.draw_discovery, name=name, card=typed.text().strip()))
        line.addWidget(draw)
        line.addWidget(typed, 1)
        line.addWidget(use)
        self.discovery_draw = draw
        return box

    def _begin_night(self) -> None:
        from companion.ui.procedure_dialog import start_night

        start_night(self.window_)

    def _continue(self) -> None:
        from companion.ui.procedure_dialog import open_procedure

        open_procedure(self.window_)

    def _add_row(self, grid: QGridLayout, name: str, text: str, enabled: bool, reason: str,
                 slot: Callable[[], None], extra: QWidget | None = None) -> QPushButton:
        button = QPushButton(text)
        button.setAccessibleName(text)
        button.setEnabled(enabled)
        button.setToolTip(reason or text)
        button.clicked.connect(lambda _=False: slot())
        label = QLabel(reason)
        label.setWordWrap(True)
        label.setAccessibleName(f"Why: {text}")
        if not enabled:
            label.setStyleSheet("QLabel { font-style: italic; }")
        row = grid.rowCount()
        grid.addWidget(button, row, 0)
        if extra is None:
            grid.addWidget(label, row, 1)
        else:
            holder = QWidget()
            line = QHBoxLayout(holder)
            line.setContentsMargins(0, 0, 0, 0)
            line.addWidget(extra)
            line.addWidget(label, 1)
            grid.addWidget(holder, row, 1)
        self.buttons[name].append(button)
        self.reasons[name].append(label)
        return button

    def button(self, name: str, starts: str) -> QPushButton:
        """The first of ``name``'s buttons whose text starts with ``starts`` (for tests)."""
        return next(b for b in self.buttons[name] if b.text().startswith(starts))
