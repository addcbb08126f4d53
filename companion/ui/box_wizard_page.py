"""The New Campaign wizard's page for "My own box": the valley begins from the tiles on
the table (Rulebook: Set Up > Determine Starting Hex and Place Characters: "place the
starting hex ... Then, select two more hexes corresponding to that region at random, and
place them, facedown").

The starting tile is typed once (its id, name and the terrain feature of each section)
into the owner's pack; the two face-down tiles are named by the ids printed on them.
Then, as for the sample, the first challenge (Rulebook: Set Up > Select Challenge): the
challenge card in hand typed once (:class:`BoxChallengePage`; one the owner's pack knows
already may be chosen), and the characters, whose traits and mantles the rules pack
offers (a trait or mantle the box prints beyond them is typed on the character's page).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QSpinBox,
)

from companion.ui.new_campaign_pages import WizardPage

if TYPE_CHECKING:
    from companion.content import Content

BOX_NEXT_STEPS = ("Every other card, tile and Codex entry of your box is typed once, as "
                  "it comes up in play; the app remembers it in your own pack.")
"""What a box campaign does after the wizard, in the summary."""

TYPE_THE_CARD = "The challenge card in hand (type it below)"
"""The challenge list's entry for a card the owner's pack does not know yet."""


class BoxValleyPage(WizardPage):
    """Starting region, the starting tile typed from the box, the two face-down tiles."""

    def __init__(self, wizard: Any) -> None:
        super().__init__(
            wizard, "Your valley's first tray",
            "Place the starting tile of your region and two tiles of that "
            "region face down, as the rulebook's Set Up says. Type what the "
            "starting tile shows once; the app learns it.")
        self.region = QComboBox()
        self.region.setAccessibleName("Region of the starting tile")
        self.tile = QLineEdit()
        self.tile.setAccessibleName("Id printed on the starting tile")
        self.tile.setPlaceholderText("the id printed on the tile")
        self.name = QLineEdit()
        self.name.setAccessibleName("Name printed on the starting tile")
        self.name.setPlaceholderText("as printed (may be left empty)")
        self.sections: list[QComboBox] = []
        form = QFormLayout(self)
        form.addRow("&Region:", self.region)
        form.addRow("Starting &tile:", self.tile)
        form.addRow("&Name:", self.name)
        for section in ("a", "b", "c"):
            combo = QComboBox()
            combo.setAccessibleName(f"Terrain feature in section {section.upper()}")
            self.sections.append(combo)
            form.addRow(f"Section &{section.upper()}:", combo)
        self.face_down = QLineEdit()
        self.face_down.setAccessibleName("Ids printed on the two face-down tiles")
        self.face_down.setPlaceholderText("two ids, e.g. 04 07")
        form.addRow("&Face-down tiles:", self.face_down)
        self.error = QLabel()
        self.error.setWordWrap(True)
        self.error.setStyleSheet("color: #b00020")
        form.addRow(self.error)

    def initializePage(self) -> None:  # noqa: N802
        content: Content = self.wiz.content()
        if self.region.count():
            return
        for region in content.regions.values():
            self.region.addItem(region.name, region.id)
        for combo in self.sections:
            combo.addItem("nothing (an empty section)", "none")
            for feature in content.features.values():
                combo.addItem(feature.name, feature.id)

    def starting_tile(self) -> dict[str, Any]:
        """The starting tile as typed (for :func:`companion.operations.tiles.type_tile`)."""
        return {"tile": self.tile.text().strip(), "region": str(self.region.currentData()),
                "name": self.name.text(),
                "sections": [str(c.currentData()) for c in self.sections],
                "starting": True}

    def face_down_tiles(self) -> list[str]:
        """The ids typed for the face-down tiles."""
        return self.face_down.text().replace(",", " ").split()

    def validatePage(self) -> bool:  # noqa: N802
        if not self.tile.text().strip():
            self.error.setText("Type the id printed on the starting tile.")
            return False
        if all(c.currentData() == "none" for c in self.sections):
            self.error.setText("The starting tile shows at least one terrain feature: "
                               "choose the feature of each section.")
            return False
        if len(self.face_down_tiles()) != 2:
            self.error.setText("Type the ids printed on the two face-down tiles.")
            return False
        self.error.setText("")
        return True

    def nextId(self) -> int:  # noqa: N802
        return int(self.wiz.box_challenge_id)


def _lines(edit: QPlainTextEdit, rows: int) -> None:
    edit.setFixedHeight(edit.fontMetrics().lineSpacing() * rows + 2 * edit.frameWidth() + 10)


class BoxChallengePage(WizardPage):
    """The first challenge of a box campaign (Rulebook: Set Up > Select Challenge): the
    card in hand, typed once (id, name, priority, starting omen, vital goals, the
    activity-track events, the outcome entry), or one the owner's pack knows."""

    def __init__(self, wizard: Any) -> None:
        super().__init__(
            wizard, "The first challenge",
            "Type the challenge card you play first, as it prints it: it is saved "
            "into your own pack with its goals and started.")
        self.known = QComboBox()
        self.known.setAccessibleName("Challenge card")
        self.card_id = QLineEdit()
        self.card_id.setAccessibleName("Card id")
        self.card_id.setPlaceholderText("as printed, e.g. C1")
        self.name = QLineEdit()
        self.name.setAccessibleName("Card name")
        self.priority = QSpinBox()
        self.priority.setRange(0, 99)
        self.priority.setAccessibleName("Priority")
        self.omen = QComboBox()
        self.omen.setAccessibleName("Starting omen")
        from companion.content.schema.base import Omen

        for omen in Omen:
            self.omen.addItem(omen.value.capitalize(), omen.value)
        self.vital = QPlainTextEdit()
        self.vital.setAccessibleName("Vital goals")
        self.vital.setPlaceholderText("one a line — Warm Hearth: Light a fire in the "
                                      "starting hex.")
        self.events = QPlainTextEdit()
        self.events.setAccessibleName("Activity-track events")
        self.events.setPlaceholderText("one a line — 20 immediate Winter comes: unrest 1")
        _lines(self.vital, 2)
        _lines(self.events, 3)
        self.outcome = QLineEdit()
        self.outcome.setAccessibleName("Outcome entry")
        self.outcome.setPlaceholderText("the entry it names for End Challenge, e.g. 301")
        self.error = QLabel()
        self.error.setWordWrap(True)
        self.error.setStyleSheet("color: #b00020")
        row = QHBoxLayout()
        for label, widget, stretch in (("&Id:", self.card_id, 1), ("&Name:", self.name, 3),
                                       ("&Priority:", self.priority, 0),
                                       ("&Omen:", self.omen, 0)):
            caption = QLabel(label)
            caption.setBuddy(widget)
            row.addWidget(caption)
            row.addWidget(widget, stretch)
        form = self.form = QFormLayout(self)
        form.addRow("&Challenge:", self.known)
        form.addRow(row)
        form.addRow("&Vital goals:", self.vital)
        form.addRow("Activity &events:", self.events)
        form.addRow("O&utcome entry:", self.outcome)
        form.addRow(self.error)
        self.known.currentIndexChanged.connect(self._typing)
        for edit in (self.card_id, self.name, self.outcome):
            edit.textChanged.connect(lambda _: self.error.setText(""))
        self.typed: tuple[dict[str, Any], list[dict[str, Any]]] | None = None

    def initializePage(self) -> None:  # noqa: N802
        content: Content = self.wiz.content()
        current = self.known.currentData()
        self.known.blockSignals(True)
        self.known.clear()
        self.known.addItem(TYPE_THE_CARD, None)
        for cid in self.wiz.challenge_page.eligible():  # the own pack's, by priority
            card = content.challenges[cid]
            self.known.addItem(f"{card.name} (priority {card.priority})", cid)
        self.known.setCurrentIndex(max(0, self.known.findData(current)))
        self.known.blockSignals(False)
        # A first box campaign knows no challenge: the card in hand is the only way.
        self.form.setRowVisible(self.known, self.known.count() > 1)
        self._typing()

    def _typing(self) -> None:
        typing = self.known.currentData() is None
        for widget in (self.card_id, self.name, self.priority, self.omen, self.vital,
                       self.events, self.outcome):
            widget.setEnabled(typing)
        self.error.setText("")

    def challenge_id(self) -> str | None:
        """The known challenge chosen, or None for the card typed here."""
        data = self.known.currentData()
        return str(data) if data is not None else None

    def typed_card(self) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """The typed card and its new goals, as the pack writes them (Refused in game
        words when something the card prints is missing or unreadable)."""
        from companion.operations import Refused
        from companion.operations.challenge_cards import challenge_from_typed

        if not self.card_id.text().strip() or not self.name.text().strip():
            raise Refused("Type the challenge card's id and name, as the card prints them.")

        def lines(edit: QPlainTextEdit) -> list[str]:
            return [line for line in edit.toPlainText().splitlines() if line.strip()]

        return challenge_from_typed(
            self.wiz.content(), id=self.card_id.text(), name=self.name.text(),
            priority=self.priority.value(), starting_omen=str(self.omen.currentData()),
            vital_goals=lines(self.vital), events=lines(self.events),
            outcome=self.outcome.text().strip() or None)

    def validatePage(self) -> bool:  # noqa: N802
        from companion.operations import Refused

        self.typed = None
        if self.challenge_id() is None:
            try:
                self.typed = self.typed_card()
            except Refused as refusal:
                self.error.setText(str(refusal))
                return False
        self.error.setText("")
        return True

    def challenge_name(self) -> str:
        """The first challenge's name, for the summary."""
        cid = self.challenge_id()
        if cid is not None:
            return str(self.wiz.content().challenges[cid].name)
        return str(self.typed[0]["name"]) if self.typed else ""

    def nextId(self) -> int:  # noqa: N802
        return int(self.wiz.character_page_ids[0])
