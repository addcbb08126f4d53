"""Enter a material token in a minute (Rulebook: Tokens > Material Tokens; Processing &
Crafting > Crafting Items; issue 25 part 6).

The token is drawn as it is set (the crafting dialog's :class:`TokenFace`, with QPainter:
a square token, the pips of each edge in their colour, with the colour's letter), with
each edge's colour and count beside that edge: 0 (the null pip) to 9 pips, one of the
rules file's pip colours, or a bare edge. Both sides: the unprocessed one (with the arrow)
and the processed one. "Save Material" writes it into the owner's own pack, one
undoable operation (``operations.material_tokens.add_material``); the form then empties
for the next token. The crafting explorer reads codes with it at once.

Entry points: Content ▸ Enter a Material Token…, and the Crafting dialog.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QColor, QIcon, QPixmap
from PySide6.QtWidgets import (
    QButtonGroup,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QRadioButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from companion.ui import fit
from companion.ui.token_face import PIP_STYLE, TokenFace

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from companion.ui.host import Host

WARN = "color: #a3231b; font-weight: bold;"
BARE = "bare"
CATEGORIES = (("vegetable", "Vegetable (plant)"), ("animal", "Animal"),
              ("mineral", "Mineral"), ("rare", "Rare"))


def _swatch(colour: str) -> QIcon:
    pixmap = QPixmap(14, 14)
    pixmap.fill(QColor(PIP_STYLE.get(colour, ("#ffffff",))[0]))
    return QIcon(pixmap)


class EdgeControl(QWidget):
    """One edge's pips: a colour (or bare) and a count, 0 to 9."""

    def __init__(self, edge: str, colours: tuple[str, ...], parent: QWidget | None = None
                 ) -> None:
        super().__init__(parent)
        self.edge = edge
        self.colour = QComboBox()
        self.colour.setAccessibleName(f"{edge.capitalize()} edge colour")
        self.colour.addItem("bare edge", BARE)
        for colour in colours:
            self.colour.addItem(_swatch(colour), colour, colour)
        self.count = QSpinBox()
        self.count.setRange(0, 9)
        self.count.setValue(1)
        self.count.setAccessibleName(f"{edge.capitalize()} edge pips")
        self.count.setToolTip("0 is the null pip: it reads as zero and cannot begin a code")
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(QLabel(f"{edge.capitalize()}:"))
        layout.addWidget(self.colour)
        layout.addWidget(self.count)
        self.colour.currentIndexChanged.connect(self._enable)
        self._enable()

    def _enable(self) -> None:
        self.count.setEnabled(self.colour.currentData() != BARE)

    def pip(self) -> tuple[str, int] | None:
        colour = self.colour.currentData()
        return None if colour == BARE else (str(colour), self.count.value())

    def set_pip(self, colour: str | None, count: int = 1) -> None:
        self.colour.setCurrentIndex(max(0, self.colour.findData(colour or BARE)))
        self.count.setValue(count)


class MaterialTokenDialog(QDialog):
    """A material token's name, category, size and the pips of both sides, set on its
    picture. ``needed``: the id a card or a typed line names a material by that the
    pack does not know yet (entered on the spot, issue 36 item 2): the token is saved
    under it, and the dialog closes once it is."""

    entered = Signal(str)
    """The id of a material token saved from the dialog."""

    def __init__(self, window: Host, parent: QWidget | None = None, *,
                 needed: str | None = None) -> None:
        super().__init__(parent or window)
        from companion.operations.material_tokens import EDGES, SIDES, pip_colours

        self.window_ = window
        self.needed = needed
        assert window.campaign is not None
        colours = pip_colours(window.campaign.content)
        self.setWindowTitle("Enter a Material Token" if needed is None else
                            f"Enter the material token {needed}")
        self.sides: dict[str, dict[str, tuple[str, int] | None]] = {
            side: dict.fromkeys(EDGES) for side in SIDES}
        self.side = "unprocessed"
        self.name = QLineEdit()
        self.name.setAccessibleName("Material name")
        self.name.setPlaceholderText("as the token names it, e.g. Glowing Moss")
        self.name.textChanged.connect(self._draw)
        self.category = QComboBox()
        self.category.setAccessibleName("Category")
        for value, text in CATEGORIES:
            self.category.addItem(text, value)
        self.token_size = QComboBox()
        self.token_size.setAccessibleName("Token size")
        self.token_size.addItem("Small", "small")
        self.token_size.addItem("Large", "large")
        self.token_size.currentIndexChanged.connect(self._draw)
        form = QFormLayout()
        form.addRow("Name:", self.name)
        kinds = QHBoxLayout()
        kinds.addWidget(self.category)
        kinds.addWidget(QLabel("Size:"))
        kinds.addWidget(self.token_size)
        kinds.addStretch(1)
        form.addRow("Category:", kinds)
        self.side_buttons = QButtonGroup(self)
        sides = QHBoxLayout()
        for side, text in (("unprocessed", "Unprocessed side (with the arrow)"),
                           ("processed", "Processed side")):
            button = QRadioButton(text)
            button.setAccessibleName(text)
            button.setChecked(side == self.side)
            button.toggled.connect(lambda on, s=side: self._side_toggled(on, s))
            self.side_buttons.addButton(button)
            sides.addWidget(button)
            setattr(self, f"{side}_button", button)
        sides.addStretch(1)
        form.addRow("Side:", sides)
        self.face = TokenFace(16.0, at_least=9.0)
        self.face.setAccessibleName("The token as set")
        self.edges = {edge: EdgeControl(edge, colours) for edge in EDGES}
        for control in self.edges.values():
            control.colour.currentIndexChanged.connect(self._changed)
            control.count.valueChanged.connect(self._changed)
        grid = QGridLayout()
        grid.addWidget(self.edges["top"], 0, 1, Qt.AlignmentFlag.AlignHCenter)
        grid.addWidget(self.edges["left"], 1, 0, Qt.AlignmentFlag.AlignVCenter)
        grid.addWidget(self.face, 1, 1)
        grid.addWidget(self.edges["right"], 1, 2, Qt.AlignmentFlag.AlignVCenter)
        grid.addWidget(self.edges["bottom"], 2, 1, Qt.AlignmentFlag.AlignHCenter)
        # The picture and its edges' controls stay together, centred in the dialog.
        centred = QHBoxLayout()
        centred.addStretch(1)
        centred.addLayout(grid)
        centred.addStretch(1)
        self.note = QLabel(f"Pip colours: {', '.join(colours)}. 0 is the null pip.")
        self.note.setWordWrap(True)
        self.problem = QLabel()
        self.problem.setWordWrap(True)
        self.problem.setStyleSheet(WARN)
        self.problem.setAccessibleName("Problem")
        self.problem.hide()
        self.result_label = QLabel()
        self.result_label.setWordWrap(True)
        self.result_label.setAccessibleName("Result")
        self.result_label.hide()
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        self.save_button = self.buttons.addButton("Save Material",
                                                  QDialogButtonBox.ButtonRole.ActionRole)
        self.save_button.setDefault(True)
        self.save_button.clicked.connect(self.save)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        if needed is not None:
            why = QLabel(f"What you typed names {needed}, a material token your pack does "
                         "not know yet. Set its pips as the token lies on the table: once "
                         "it is saved, the app goes on with what you typed.")
            why.setWordWrap(True)
            why.setObjectName("neededToken")
            layout.addWidget(why)
            self.name.setText(needed.replace("-", " ").capitalize())
            self.save_button.setText("Save Material and go on")
        layout.addLayout(form)
        layout.addLayout(centred, 1)
        layout.addWidget(self.note)
        layout.addWidget(self.problem)
        layout.addWidget(self.result_label)
        layout.addWidget(self.buttons)
        self.saved: list[str] = []
        """The ids of the materials saved from this dialog."""
        self._draw()
        fit.fit_resize(self, 780, 600)

    # -- the side shown ----------------------------------------------------------------

    def _side_toggled(self, on: bool, side: str) -> None:
        if on:
            self.show_side(side)

    def show_side(self, side: str) -> None:
        """Show and edit ``side`` ("unprocessed" or "processed")."""
        self.side = side
        button = getattr(self, f"{side}_button")
        if not button.isChecked():
            button.setChecked(True)
        for edge, control in self.edges.items():
            pip = self.sides[side][edge]
            for widget in (control.colour, control.count):
                widget.blockSignals(True)
            control.set_pip(pip[0] if pip else None, pip[1] if pip else 1)
            control._enable()
            for widget in (control.colour, control.count):
                widget.blockSignals(False)
        self._draw()

    def set_edge(self, edge: str, colour: str | None, count: int = 1,
                 side: str | None = None) -> None:
        """Set one edge through its controls (``side``: the one shown by default)."""
        if side is not None and side != self.side:
            self.show_side(side)
        self.edges[edge].set_pip(colour, count)

    def _changed(self, *_: object) -> None:
        for edge, control in self.edges.items():
            self.sides[self.side][edge] = control.pip()
        self._draw()

    def material(self) -> Any:
        """The token as set, as a pack material (None while it does not validate)."""
        from companion.content.schema.world import Material

        def side(pips: dict[str, tuple[str, int] | None]) -> dict[str, Any]:
            return {"edges": {e: {"colour": p[0], "count": p[1]}
                              for e, p in pips.items() if p is not None}}

        try:
            return Material.model_validate({
                "id": "token", "name": self.name.text().strip() or "?",
                "category": self.category.currentData(), "size": self.token_size.currentData(),
                "unprocessed": side(self.sides["unprocessed"]),
                "processed": side(self.sides["processed"])})
        except ValueError:
            return None

    def _draw(self, *_: object) -> None:
        from companion.rules.crafting import MaterialFace

        material = self.material()
        face = None if material is None else MaterialFace.of(
            material, processed=self.side == "processed")
        self.face.set_face(face, 0, f"{self.name.text().strip() or 'The token'} "
                           f"({self.side})", self.name.text().strip() or "?")

    # -- saving ------------------------------------------------------------------------

    def save(self) -> bool:
        """Enter the token into the owner's own pack; empty the form for the next one."""
        from companion.operations import Refused
        from companion.operations.material_tokens import add_material, material_from_typed

        campaign = self.window_.campaign
        assert campaign is not None
        typed: dict[str, Any] = {
            "name": self.name.text(), "category": str(self.category.currentData()),
            "size": str(self.token_size.currentData()),
            "unprocessed": self.sides["unprocessed"], "processed": self.sides["processed"]}
        try:
            material_from_typed(campaign.content, **typed)
        except Refused as refusal:
            self.problem.setText(str(refusal))
            self.problem.show()
            return False
        self.problem.hide()
        changes = self.window_.run_operation(add_material, **typed,
                                             material_id=self.needed)
        if changes is None:
            return False
        self.saved.append(str(changes.detail))
        self.entered.emit(str(changes.detail))
        if self.needed is not None:
            self.accept()
            return True
        count = len(campaign.content.materials)
        self.result_label.setText(f"{changes.summary}. The crafting explorer reads codes with "
                            f"it now ({count} materials known).")
        self.result_label.show()
        self.clear()
        return True

    def clear(self) -> None:
        """An empty token for the next one (category and size kept)."""
        self.name.clear()
        for side in self.sides:
            self.sides[side] = dict.fromkeys(self.sides[side])
        self.show_side("unprocessed")


def open_material_token(window: Host) -> MaterialTokenDialog | None:
    """Content ▸ Enter a Material Token… (modeless)."""
    if window.campaign is None:
        return None
    dialog = MaterialTokenDialog(window)
    dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    dialog.show()
    return dialog


def enter_tokens_then(window: Host, materials: Sequence[str], go_on: Callable[[], object],
                      *, parent: QWidget | None = None) -> MaterialTokenDialog | None:
    """Offer "enter this material token" for each of ``materials`` (ids a card or a line
    names that the pack lacks), one after the other, window-modal; once the last is
    saved, ``go_on()`` carries on with the card (issue 36 item 2). Cancelled, nothing
    more happens. Returns the first token's dialog."""
    if window.campaign is None or not materials:
        return None
    first, rest = materials[0], list(materials[1:])
    dialog = MaterialTokenDialog(window, parent, needed=first)
    dialog.setObjectName("tokenOnTheSpot")
    dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    dialog.setWindowModality(Qt.WindowModality.WindowModal)
    dialog.entered.connect(lambda _id: enter_tokens_then(window, rest, go_on, parent=parent)
                           if rest else go_on())
    dialog.open()
    return dialog
