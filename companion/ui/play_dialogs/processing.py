"""Process: turning materials and food into what a character needs."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from PySide6.QtWidgets import QDialog, QFormLayout, QLabel, QListWidget, QListWidgetItem

from .play_dialog import WARN, PlayDialog, check, checkable, checked, show, wrapped

if TYPE_CHECKING:
    from companion.ui.host import Host


class ProcessDialog(PlayDialog):
    """Process (Rulebook: Processing & Crafting > Processing): flip chosen tokens, each
    using the icons it needs from the character's items (the energy icon costs 1 energy
    each): ``operations.day.process``."""

    title = "Process"

    def __init__(self, window: Host, character: str | None = None) -> None:
        super().__init__(window)
        self.character = self.character_combo(character)
        self.character.currentIndexChanged.connect(self.refresh)
        self.tokens = QListWidget()
        self.tokens.setAccessibleName("Tokens to process")
        self.tokens.itemChanged.connect(self._tally)
        self.available = wrapped()
        self.available.setAccessibleName("Icons available")
        self.tally = wrapped()
        self.tally.setAccessibleName("Icons needed")
        form = QFormLayout()
        form.addRow("Character:", self.character)
        self.body.addLayout(form)
        self.body.addWidget(QLabel("Unprocessed tokens in the bag (tick those to flip):"))
        self.body.addWidget(self.tokens, 1)
        self.body.addWidget(self.available)
        self.body.addWidget(self.tally)
        self.process_button = self.action_button("Process")
        self.process_button.clicked.connect(self.process)
        self.refresh()
        self.resize(620, 400)

    def _icon_name(self, icon: str) -> str:
        if icon == "energy":
            return "Energy (1 energy)"
        found = self.content.icons.get(icon)
        return found.name if found is not None else icon

    def _icons_text(self, icons: Counter[str]) -> str:
        return ", ".join(f"{self._icon_name(i)}" + (f" ×{n}" if n > 1 else "")
                         for i, n in icons.items()) or "none"

    def refresh(self) -> None:
        from companion.operations.day import processing_needs

        name = str(self.character.currentData() or "")
        self.needs = {k: [str(i) for i in v] for k, v in processing_needs(self.campaign).items()}
        self.tokens.blockSignals(True)
        self.tokens.clear()
        self.pool: Counter[str] = Counter()
        self.bag: tuple[Any, ...] = ()
        if name:
            character = self.campaign.character_detail(name)
            for index, token in enumerate(character.bag):
                if str(token.side) != "unprocessed":
                    continue
                needs = self.needs.get(token.name, [])
                # In words, not "#4 Shell — needs Grinding" (issue 27 item 22).
                icons = self._icons_text(Counter(needs))
                text = (f"{self.resource_name(token.name)} (token {index + 1} in the bag): "
                        + ("processing needs no icon" if icons == "none" else
                           f"processing needs {icons}"))
                self.tokens.addItem(checkable(text, index))
            sources = []
            for item, _ in character.items:
                card = self.content.items.get(str(item))
                if card is not None and card.provides:
                    self.pool.update(str(i) for i in card.provides)
                    given = self._icons_text(Counter(map(str, card.provides)))
                    sources.append(f"{card.name} ({given})")
            self.available.setText(
                f"Icons from {name}'s items: {self._icons_text(self.pool)}"
                + (f" — from {'; '.join(sources)}" if sources else "")
                + ". Each icon serves one token.")
            self.bag = character.bag
        if not self.tokens.count():
            self.tokens.addItem(QListWidgetItem("(no unprocessed tokens)"))
        self.tokens.blockSignals(False)
        self._tally()

    def chosen(self) -> list[int]:
        return [int(i) for i in checked(self.tokens) if i is not None]

    def check_token(self, index: int, checked: bool = True) -> None:
        check(self.tokens, index, checked)

    def _tally(self, *_: object) -> None:
        chosen = self.chosen()
        wanted: Counter[str] = Counter()
        for index in chosen:
            wanted.update(self.needs.get(self.bag[index].name, []))
        energy = wanted.pop("energy", 0)
        short = {i: n - self.pool[i] for i, n in wanted.items() if n > self.pool[i]}
        cost = self.content.rules.action_costs.process + energy
        if not chosen:
            self.tally.setText("Tick the tokens to flip.")
            self.tally.setStyleSheet("")
        elif short:
            self.tally.setText("Not enough icons: short of " + self._icons_text(Counter(short))
                               + ".")
            self.tally.setStyleSheet(WARN)
        else:
            self.tally.setText(f"Needs {self._icons_text(wanted)}: all available. "
                               f"Processing costs {cost} energy.")
            self.tally.setStyleSheet("")
        self.process_button.setEnabled(bool(chosen))

    def process(self) -> None:
        from companion.operations.day import process

        self.run(process, name=str(self.character.currentData()), tokens=self.chosen())


def open_processing(window: Host, character: str | None = None) -> QDialog | None:
    """Process… (Play menu)."""
    return show(ProcessDialog(window, character)) if window.campaign else None


# --- the challenge lifecycle --------------------------------------------------------------
