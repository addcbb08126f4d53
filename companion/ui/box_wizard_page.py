"""The New Campaign wizard's page for "My own box": the valley begins from the tiles on
the table (Rulebook: Set Up > Determine Starting Hex and Place Characters: "place the
starting hex ... Then, select two more hexes corresponding to that region at random, and
place them, facedown").

The starting tile is typed once (its id, name and the terrain feature of each section)
into the owner's pack; the two face-down tiles are named by the ids printed on them.
Challenges, characters' traits and mantles come from the cards in the box later (Content
▸ My Cards, the Characters tab, Play ▸ Start Challenge), each typed in as it comes up.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtWidgets import QComboBox, QFormLayout, QLabel, QLineEdit

from companion.ui.new_campaign_pages import WizardPage

if TYPE_CHECKING:
    from companion.content import Content

BOX_NEXT_STEPS = ("Then, from the cards in your box: enter the trait cards and mantles "
                  "you play with (Content ▸ My Cards), make the characters (the Characters "
                  "tab's New Character) and start the challenge (Play ▸ Start Challenge), "
                  "typing each card in once as it comes up.")
"""What a box campaign does after the wizard, in the summary."""


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
        return int(self.wiz.summary_id)
