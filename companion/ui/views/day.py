"""Day view: whose turn it is, and for each character every Day action they can take in
their hex with the energy it costs (Rulebook: Game Structure > Day Phase; Day Actions;
Actions; Building an Outpost; Building Structures; Processing & Crafting).

Every button runs one operation through ``Host.run_operation`` or opens the dialog
that asks what the action needs (the outpost's name, the structure, the tokens). Actions
that are not allowed now stay visible, disabled, with the reason as text. Foraging,
fishing, mining and delving open the procedure dialog; exchanges and the choice of an
item beyond the mantle's slots have their own dialogs (``ui/day_dialogs.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QPoint, Qt, QTimer
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

from companion.ui.views import LORE, relevant
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

DIALOG = "dialog"
"""ActionRow.operation for an action that asks more first: kwargs name the dialog."""

DIALOGS = ("process", "craft", "build_outpost", "build_structure", "explore_tray")
"""Actions that open a dialog (tokens to process or craft, outpost name, structure), or
the Valley tab's new-tray controls (where the tray goes, the tiles drawn)."""

PANEL_ROWS = ("revive", "pass")
"""Actions the panel lays out itself (revive needs the token; pass ends the box)."""


@dataclass(frozen=True)
class ActionRow:
    """One action as the Day panel shows it."""

    text: str
    """The button text, with the energy cost."""
    enabled: bool
    reason: str
    """Why it is disabled ("" when enabled)."""
    operation: str | None
    """The operation the button runs ('move', 'gather_water', 'prepare_shelter'), or
    ACTIVITY / DIALOG."""
    kwargs: tuple[tuple[str, str], ...] = ()
    at_table: bool = False
    """An activity that may be played at the table and what it gave recorded (its
    "At the table…" button; ``operations.table_activity``)."""


def action_rows(name: str, options: list[ActionOption]) -> list[ActionRow]:
    """What the panel shows for ``options`` (no window needed).

    Structures are gathered into one "Build a structure at ..." row per outpost; its
    dialog lists each structure with its cost and what stands in the way.
    """
    rows = []
    kwargs: tuple[tuple[str, str], ...]
    structures: dict[str, list[ActionOption]] = {}
    trays = [o for o in options if o.action == "explore_tray"]
    for option in options:
        if option.action in PANEL_ROWS:
            continue
        if option.action == "explore_tray":
            if option is trays[0]:  # one row; the Valley tab shows where each tray goes
                places = f"{len(trays)} place{'s' if len(trays) != 1 else ''}"
                label = option.label.split(" tray", 1)[0] + f" tray ({places}): " \
                    + option.label.rsplit(": ", 1)[1] + "…"
                rows.append(ActionRow(label, option.refusal is None, option.refusal or "",
                                      DIALOG, (("dialog", "explore_tray"), ("name", name),
                                               ("target", option.target or "1"))))
            continue
        if option.action == "build_structure":
            outpost = (option.target or ":").split(":", 1)[0]
            if outpost not in structures:
                rows.append(ActionRow("", False, "", DIALOG,
                                      (("dialog", "build_structure"), ("name", name),
                                       ("target", outpost))))
            structures.setdefault(outpost, []).append(option)
            continue
        if option.action in PROCEDURES:
            kwargs = (("kind", PROCEDURES[option.action]), ("name", name),
                      ("feature", option.target or ""))
            operation = ACTIVITY
        elif option.action in DIALOGS:
            operation = DIALOG
            kwargs = (("dialog", option.action), ("name", name),
                      ("target", option.target or ""), ("cost", str(option.cost)))
        elif option.action in ("move", "explore"):
            operation, kwargs = "move", (("name", name), ("to_hex", option.target or ""))
        elif option.action in ("gather_water", "prepare_shelter"):
            operation, kwargs = option.action, (("name", name),)
        else:
            rows.append(ActionRow(option.label, False,
                                  "this action is not in the companion yet", None))
            continue
        # The dialog says the energy is shared by the hex; the button stays short.
        text = option.label.replace(", shared", "")
        rows.append(ActionRow(text + ("…" if operation == DIALOG else ""),
                              option.refusal is None, option.refusal or "", operation,
                              kwargs, option.at_table))
    return [_structure_row(row, structures) if row.text == "" else row for row in rows]


def _structure_row(row: ActionRow, structures: dict[str, list[ActionOption]]) -> ActionRow:
    """One row per outpost: disabled only when every structure is refused for the same
    reason (the character cannot act, the outpost is full); else the dialog shows what
    each structure still needs."""
    outpost = dict(row.kwargs)["target"]
    options = structures[outpost]
    label = options[0].label
    where = label.split(" at ", 1)[1].split(" (", 1)[0] if " at " in label else "the outpost"
    refusals = {o.refusal for o in options}
    if len(refusals) == 1 and None not in refusals:
        return replace(row, text=f"Build a structure at {where}…", enabled=False,
                       reason=options[0].refusal or "")
    ready = sum(1 for o in options if o.refusal is None)
    reason = "" if ready else "none can be built yet: the list says what each needs"
    return replace(row, text=f"Build a structure at {where}…", enabled=True, reason=reason)


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

    scrolls_itself = True
    """Its characters scroll below the turn line; the main window adds no scroll area
    around it (two nested scroll bars scrolled the tab bar away; issue 27 item 3)."""

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
        scroll.setObjectName("dayScroller")
        scroll.setWidgetResizable(True)
        scroll.setWidget(self.body)
        self.scroller = scroll
        bar = scroll.verticalScrollBar()
        bar.rangeChanged.connect(self._follow)  # the new boxes are laid out
        bar.actionTriggered.connect(self._stop_following)  # the player scrolls
        layout = QVBoxLayout(self)
        layout.addWidget(self.title)
        layout.addWidget(self.turn)
        layout.addWidget(note)
        layout.addWidget(scroll, 1)
        self.boxes: dict[str, QGroupBox] = {}
        self.buttons: dict[str, list[QPushButton]] = {}
        self.reasons: dict[str, list[QLabel]] = {}
        self.excess_buttons: dict[str, QPushButton] = {}
        self.waits: str | None = None
        """Why nobody can act now (the challenge ended; an activity left open)."""
        self.due_box: QWidget | None = None
        self.excess_boxes: list[QWidget] = []
        self.night_row: QWidget | None = None
        self.night_blocks = False
        """The Night row is what must happen next (an activity to go back to, the Night
        to begin, the next challenge to start)."""
        self.dialog: QWidget | None = None
        self.exchange_dialog: QWidget | None = None
        window.campaign_changed.connect(self.on_changed)

    def on_changed(self, changes: object) -> None:
        if self.window_.campaign is None:
            return
        if not relevant(changes, ("characters", "valley", "society", "outposts",
                                  "procedure", "challenge"), LORE):
            return
        if not self.isVisible() and not self._new_excess(changes) and \
                self.window_.defer(self, changes):
            return  # refreshed when its tab is shown (issue 37)
        waiting = set(self.excess_buttons)
        self.refresh()
        # An item beyond the slots was just gained (crafting, a card, an exchange):
        # the choice is asked at once (Rulebook: Mantle > Exceeding Item Limits).
        new = [n for n in self.excess_buttons if n not in waiting]
        if new:
            self.excess_buttons[new[0]].click()

    def _new_excess(self, changes: object) -> bool:
        """Whether an item beyond the slots was just gained: its choice is asked at once
        (Rulebook: Mantle > Exceeding Item Limits), even while the Day tab is not shown.
        Read only when a character's items may have been written."""
        written = getattr(changes, "written", None)
        if written is not None and not written.columns & {("character", "items"),
                                                           ("character", "*")}:
            return False
        from companion.operations.day import excess_items

        assert self.window_.campaign is not None
        return any(e.name not in self.excess_buttons
                   for e in excess_items(self.window_.campaign))

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
        from companion.operations.day import day_waits

        game = read_game(campaign)
        turn = operations.whose_turn(campaign)
        self.waits = day_waits(campaign)
        self.turn.setText(turn_text(turn) if self.waits is None else
                          f"Nobody can act now: {self.waits}.")
        self.due_box = None
        self.excess_boxes = []
        if not game.characters:
            self.body_layout.addWidget(QLabel("No characters in play: create them in the "
                                              "Characters tab."))
        due = operations.discovery_due(campaign)
        if due is not None:
            self.due_box = self._discovery_row(due)
            self.body_layout.addWidget(self.due_box)
        self.excess_buttons.clear()
        self._excess_rows()
        self.night_row = self._night_row(turn, bool(game.characters))
        self.body_layout.addWidget(self.night_row)
        for character in game.characters:
            box = self._character_box(character, game, turn)
            self.body_layout.addWidget(box)
        self.body_layout.addStretch(1)
        self._follow_turn(turn)

    def actor_box(self) -> QGroupBox | None:
        """The box of the character who may act now (the first of them), if any."""
        from companion import operations

        if self.window_.campaign is None:
            return None
        turn = operations.whose_turn(self.window_.campaign)
        if turn.get("phase") != "day":
            return None
        return next((self.boxes[n] for n in turn["may_act"]
                     if n in self.boxes and n not in turn["passed"]), None)

    def next_thing(self) -> QWidget | None:
        """What must happen next, kept in view: the Discovery card due, an item too many,
        the activity left open, the Night to begin (or the next challenge), else the box
        of the character who acts now (issue 36 item 7: the page scrolled to the next
        character while a Discovery was due above it, and "Begin the Night" out of
        view)."""
        if self.due_box is not None:
            return self.due_box
        if self.excess_boxes:
            return self.excess_boxes[0]
        if self.night_blocks:
            return self.night_row
        return self.actor_box()

    def _follow_turn(self, turn: dict[str, Any]) -> None:
        """Scroll what must happen next into view (issue 27 item 3; issue 36 item 7):
        after an action the next actor was often below the fold. The new boxes are
        placed by the event loop in steps; each step that changes the page's height
        scrolls again, until the player scrolls the page themselves."""
        self._follow_pending = True
        self._follow()
        QTimer.singleShot(0, self, self._follow)

    def _follow(self, *_: object) -> None:
        if not getattr(self, "_follow_pending", False):
            return
        box = self.next_thing()
        if box is None or box.isHidden():
            return
        bar = self.scroller.verticalScrollBar()
        top = box.mapTo(self.body, QPoint(0, 0)).y()
        seen = range(bar.value(), bar.value() + self.scroller.viewport().height())
        if top not in seen or top + box.height() - 1 not in seen:
            bar.setValue(max(0, top - 6))  # its top (name, energy, hex) at the top

    def _stop_following(self, *_: object) -> None:
        self._follow_pending = False

    def _character_box(self, character: Character, game: Game, turn: dict[str, Any]) -> QGroupBox:
        from companion import operations

        campaign = self.window_.campaign
        assert campaign is not None
        name = character.name
        # While the Day waits (the challenge ended, an activity left open) nobody may act,
        # as the turn line says: the box does not say "may act" beside disabled buttons.
        state = character_state(character, turn) if self.waits is None else "cannot act now"
        box = QGroupBox(f"{name} ({character.player}) — {character.energy}/"
                        f"{character.energy_max} energy — hex {character.hex or 'not placed'}"
                        f" — {state}")
        box.setAccessibleName(f"{name}'s actions")
        grid = QGridLayout(box)
        grid.setColumnStretch(1, 1)
        self.boxes[name] = box
        self.buttons[name] = []
        self.reasons[name] = []
        options = operations.available_actions(campaign, name)
        rows = action_rows(name, options)
        for row in rows:
            self._add_row(grid, name, row.text, row.enabled, row.reason,
                          self._runner(row.operation, dict(row.kwargs)),
                          self._at_table_button(row) if row.operation == ACTIVITY else None)
        self._add_revives(grid, character, game, turn)
        exchange = turn.get("phase") == "day" and character.hex is not None and \
            self.waits is None
        self._add_row(grid, name, "Exchange items and materials…", exchange,
                      "" if exchange else self.waits or "exchanges happen during the Day",
                      lambda: self._open_exchange(name))
        passing = next(o for o in options if o.action == "pass")
        self._add_row(grid, name, passing.label, passing.refusal is None,
                      passing.refusal or "", self._runner("pass_turn", {"name": name}))
        return box

    def _at_table_button(self, row: ActionRow) -> QPushButton:
        """"At the table…": the activity played with the real cards (my own box, before
        the pack knows them) and what it gave typed in one line (issue 25 part 3)."""
        kwargs = dict(row.kwargs)
        button = QPushButton("At the table…")
        button.setObjectName("atTable")
        button.setAccessibleName(f"{row.text}, played at the table")
        button.setEnabled(row.at_table)
        button.setToolTip("Play it with the real cards, then type what it gave: its cost is "
                          "paid and the effects applied in one step (Undo takes it back)")
        button.clicked.connect(lambda _=False: self.play_at_table(kwargs))
        return button

    def play_at_table(self, kwargs: dict[str, str]) -> QWidget:
        """Open the record dialog for an activity played at the table; kept in
        ``self.dialog`` for tests."""
        from functools import partial

        from companion.operations.table_activity import activity_at_table
        from companion.ui.table_record import RecordDialog

        action = next(a for a, kind in PROCEDURES.items() if kind == kwargs["kind"])
        name, feature = kwargs["name"], kwargs["feature"]
        dialog = RecordDialog(
            self.window_, kind="", actor=name, title=f"{name} plays it at the table",
            intro=(f"Play {name}'s {kwargs['kind']} at the {feature} with the real cards "
                   "(or bag), then type what it gave: effects in one line, separated by "
                   "commas. Its energy is paid as the rules say; the card's id, if you type "
                   "it, is kept so My Cards ▸ Recorded at the table can save it as a card."),
            parent=self.window(),
            operation=partial(activity_at_table, name=name, action=action, feature=feature))
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.dialog = dialog
        dialog.show()
        return dialog

    def _open_exchange(self, name: str) -> None:
        from companion.ui.day_dialogs import ExchangeDialog

        dialog = ExchangeDialog(self.window_, name)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.exchange_dialog = dialog
        dialog.show()

    def _open_dialog(self, kwargs: dict[str, Any]) -> None:
        """The dialog an action needs; kept in ``self.dialog`` (modeless) for tests."""
        from companion.ui import day_dialogs

        kind, name, target = kwargs["dialog"], kwargs["name"], kwargs.get("target", "")
        dialog: QWidget
        if kind == "craft":
            from companion.ui.crafting_dialog import open_crafting

            self.dialog = open_crafting(self.window_, name)
            return
        if kind == "explore_tray":
            self._explore_tray(name, int(target or 1))
            return
        if kind == "process":
            from companion.ui.play_dialogs import open_processing

            self.dialog = open_processing(self.window_, name)
            return
        if kind == "build_outpost":
            dialog = day_dialogs.BuildOutpostDialog(self.window_, name, target,
                                                    int(kwargs.get("cost", 0)))
        else:
            dialog = day_dialogs.BuildStructureDialog(self.window_, name, target)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.dialog = dialog
        dialog.show()

    def _explore_tray(self, name: str, number: int) -> None:
        """A new tray is placed on the map: the Valley tab shows the placements, this one
        chosen (Rulebook: Actions > Explore; Populating a Terrain Tray)."""
        from companion.ui.views.valley import ValleyView

        valley = self.window_.show_view("valley")
        if not isinstance(valley, ValleyView):
            return
        valley.character_combo.setCurrentText(name)
        valley.explore_button.setChecked(False)
        valley.explore_button.setChecked(True)
        if 0 < number <= valley.placements.count():
            valley.placements.setCurrentRow(number - 1)

    def _excess_rows(self) -> None:
        """Exceeding Item Limits: a character holding too many items chooses which goes
        before acting again (Rulebook: Mantle > Exceeding Item Limits)."""
        from companion.operations.day import excess_items
        from companion.ui.day_dialogs import ExcessDialog

        campaign = self.window_.campaign
        assert campaign is not None
        for excess in excess_items(campaign):
            box = QGroupBox(f"Too many items: {excess.name}")
            box.setAccessibleName(f"Too many items: {excess.name}")
            line = QHBoxLayout(box)
            label = QLabel(excess.text + ".")
            label.setWordWrap(True)
            choose = QPushButton("&Choose…")
            choose.setAccessibleName(f"Choose the item {excess.name} gives up")

            def open_choice(_: bool = False, e: Any = excess) -> None:
                dialog = ExcessDialog(self.window_, e.name, items=list(e.items),
                                      room=list(e.room), text=e.text)
                dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
                self.dialog = dialog
                dialog.show()

            choose.clicked.connect(open_choice)
            line.addWidget(label, 1)
            line.addWidget(choose)
            self.excess_buttons[excess.name] = choose
            self.excess_boxes.append(box)
            self.body_layout.addWidget(box)

    def _add_revives(self, grid: QGridLayout, character: Character, game: Game,
                     turn: dict[str, Any]) -> None:
        """Revive, when a character in the hex is incapacitated (Rulebook: Actions >
        Revive): pick the token to degrade."""
        from companion.rules.day import action_cost

        campaign = self.window_.campaign
        assert campaign is not None
        rules = campaign.content.rules
        # The cost charged: Hardcore Solo's first action of the Day costs less.
        cost = action_cost(rules, game, character.name, rules.action_costs.revive)
        for patient in game.characters:
            if (patient.name == character.name or not patient.incapacitated
                    or patient.hex != character.hex):
                continue
            tokens = QComboBox()
            tokens.setAccessibleName(f"{patient.name}'s token to degrade")
            for index, token in enumerate(patient.health):
                tokens.addItem(f"{index + 1}: {str(token).replace('_', ' ')}", index)
            if self.waits is not None:
                reason = self.waits
            elif character.name not in turn["may_act"]:
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
            elif operation == DIALOG:
                self._open_dialog(kwargs)
            elif operation is not None:
                if operation == "move" and not self._tile_typed(kwargs):
                    return
                self.window_.run_operation(getattr(operations, operation), **kwargs)
        return run

    def _tile_typed(self, kwargs: dict[str, Any]) -> bool:
        """A face-down tile of the box about to be flipped is typed once first (its
        name and features); False when the players cancel (Valley > Hexes)."""
        from companion.operations.tiles import tile_to_type
        from companion.ui.explore_tray import ask_tile

        campaign = self.window_.campaign
        due = tile_to_type(campaign, kwargs["name"], kwargs["to_hex"]) if campaign else None
        return due is None or ask_tile(self.window_, *due, parent=self)

    def _night_row(self, turn: dict[str, Any], anyone: bool = True) -> QWidget:
        """End the Day: when everyone has passed, the Night begins (or resumes); with
        nobody in play (``anyone`` false) there is no Day to end."""
        from companion.operations import procedures

        campaign = self.window_.campaign
        assert campaign is not None
        busy = procedures.in_progress(campaign)
        row = QWidget()
        line = QHBoxLayout(row)
        line.setContentsMargins(0, 0, 0, 0)
        self.night_blocks = True
        if busy is not None:
            button = QPushButton(f"&Continue the {busy.kind.replace('_', ' ')}…")
            button.clicked.connect(self._continue)
            reason = f"{busy.kind.replace('_', ' ').capitalize()} in progress: " \
                     f"{busy.step.prompt if busy.step else 'finished'}"
            if busy.kind != "night":  # left open: every Day action waits for it
                reason += ". Every Day action waits until it is finished."
        elif self.waits is not None:  # the challenge has ended
            button = QPushButton("Begin the &Night…")
            button.setEnabled(False)
            reason = self.waits[0].upper() + self.waits[1:] + "."
        elif not anyone:  # as start_night refuses it: nobody has passed, nobody is here
            button = QPushButton("Begin the &Night…")
            button.setEnabled(False)
            reason = "Nobody is in play yet: there is no Day to end."
        else:
            waiting = [n for n in turn["may_act"] if n not in turn["passed"]]
            button = QPushButton("Begin the &Night…")
            button.clicked.connect(self._begin_night)
            button.setEnabled(not waiting and turn.get("phase") == "day")
            self.night_blocks = button.isEnabled()
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
        from companion import operations
        from companion.ui.card_field import CardField

        name = str(due.get("character", ""))
        box = QGroupBox(f"Discovery due: {name} arrived in {due.get('hex', '?')}")
        box.setAccessibleName("Discovery due")
        line = QHBoxLayout(box)
        draw = QPushButton("Draw in the &app")
        draw.setAccessibleName("Draw the Discovery card in the app")
        typed = CardField(self.window_, "discovery_cards")  # id or name; or entered
        typed.show_all_cards()
        draw.clicked.connect(lambda _=False: self.window_.run_operation(
            operations.draw_discovery, name=name))
        # A card drawn at the table (typed, picked or entered): a test on it asks for the die.
        typed.chosen.connect(lambda card: self._use_discovery(name, card))
        line.addWidget(draw, 0, Qt.AlignmentFlag.AlignTop)
        line.addWidget(typed, 1)
        from companion.operations.box import deck_is_whole

        # Issue 36 item 4: the app draws only from a deck it holds whole.
        campaign = self.window_.campaign
        draw.setVisible(campaign is None or deck_is_whole(campaign.content, "discovery_cards"))
        self.discovery_draw = draw
        self.discovery_typed = typed
        self.discovery_use = typed.use_button
        return box

    def _use_discovery(self, name: str, card: str) -> None:
        """A card drawn at the table: a test on it asks for the die rolled at the table
        (Rulebook: Basic Concepts > Tests)."""
        from companion.operations.exploration import draw_discovery
        from companion.ui.day_dialogs import ask_discovery_die

        campaign = self.window_.campaign
        if not card or campaign is None:
            return
        rolls = ask_discovery_die(self, campaign, card, name)
        if rolls is not None:
            self.window_.run_operation(draw_discovery, name=name, card=card, rolls=rolls)

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
