"""The New Campaign wizard's first pages: the society (name, players, characters, solo
variant; reading D8), the content pack, the region of the starting hex and the first
challenge; and the problem line every page of the wizard shows (what is wrong, in game
words)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6 import QtWidgets
from PySide6.QtCore import Qt

if TYPE_CHECKING:
    from companion.ui.new_campaign_wizard import NewCampaignWizard


MAX_CHARACTERS = 4
SOLO_CHOICES = (
    ("none", "Not solo"),
    ("multi", "Multi-character solo (one player, 2 to 4 characters)"),
    ("hardcore", "Hardcore solo (one player, one character)"),
)


class ErrorLabel(QtWidgets.QLabel):
    """The page's message: what is wrong, in game words. Never colour alone: it starts
    with a warning sign and is read out by screen readers."""

    def __init__(self) -> None:
        super().__init__()
        self.setWordWrap(True)
        self.setObjectName("wizardError")
        self.setAccessibleName("Problem")
        self.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByKeyboard |
                                     Qt.TextInteractionFlag.TextSelectableByMouse)
        self.hide()

    def show_problem(self, text: str) -> None:
        from companion.ui import theme

        self.setText(f"⚠ {text}")
        colour = "#ff8a80" if theme.is_dark() else "#a3231b"  # 7:1 on either background
        self.setStyleSheet(f"QLabel {{ color: {colour}; font-weight: bold; }}")
        self.setAccessibleDescription(text)
        self.show()

    def clear_problem(self) -> None:
        self.setText("")
        self.hide()


def refusal_sentence(exc: BaseException) -> str:
    """A refusal's text with a capital letter and a full stop (rules messages are
    lower-case clauses: "choose a trait for the character")."""
    text = str(exc).strip()
    if text and text[0].islower():
        text = text[0].upper() + text[1:]
    if text and text[-1] not in ".!?":
        text += "."
    return text


class WizardPage(QtWidgets.QWizardPage):
    """A page of the New Campaign wizard: the wizard it reads the other pages through
    (``wiz``), its title and what it asks."""

    def __init__(self, wizard: NewCampaignWizard, title: str, subtitle: str) -> None:
        super().__init__()
        self.wiz = wizard
        self.setTitle(title)
        self.setSubTitle(subtitle)


class SocietyPage(WizardPage):
    """Society name, players, characters and solo variant (reading D8)."""

    def __init__(self, wizard: NewCampaignWizard) -> None:
        super().__init__(
            wizard, "Your society",
            "Name the society and say who plays. The number of characters "
            "sets their health and energy.")
        self.society = QtWidgets.QLineEdit()
        self.society.setAccessibleName("Society name")
        self.society.setPlaceholderText("e.g. The Ember Folk")
        self.players = QtWidgets.QSpinBox()
        self.players.setRange(1, 4)
        self.players.setValue(2)
        self.players.setAccessibleName("Players")
        self.solo = QtWidgets.QComboBox()
        self.solo.setAccessibleName("Solo variant")
        self.characters = QtWidgets.QComboBox()
        self.characters.setAccessibleName("Characters")
        self.note = QtWidgets.QLabel()
        self.note.setWordWrap(True)
        self.error = ErrorLabel()
        form = QtWidgets.QFormLayout()
        form.addRow("&Society name:", self.society)
        form.addRow("&Players:", self.players)
        form.addRow("S&olo variant:", self.solo)
        form.addRow("&Characters:", self.characters)
        layout = QtWidgets.QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.note)
        layout.addWidget(self.error)
        layout.addStretch(1)
        self.players.valueChanged.connect(self._players_changed)
        self.solo.currentIndexChanged.connect(self._fill_characters)
        self.society.textChanged.connect(lambda _: self.error.clear_problem())
        self._players_changed()

    def _players_changed(self) -> None:
        current = self.solo.currentData()
        self.solo.blockSignals(True)
        self.solo.clear()
        for key, text in SOLO_CHOICES:
            if (key == "none") != (self.players.value() == 1):
                self.solo.addItem(text, key)
        index = self.solo.findData(current)
        self.solo.setCurrentIndex(max(index, 0))
        self.solo.setEnabled(self.solo.count() > 1)
        self.solo.blockSignals(False)
        self._fill_characters()

    def allowed_characters(self) -> list[int]:
        """The character counts the rules allow with these players and solo variant."""
        from companion.operations import Refused
        from companion.operations.files import check_new_campaign

        rules = self.wiz.content().rules
        allowed = []
        for count in range(1, MAX_CHARACTERS + 1):
            try:
                check_new_campaign(rules, players=self.players.value(), characters=count,
                                   solo=str(self.solo.currentData()))
            except Refused:
                continue
            allowed.append(count)
        return allowed

    def _fill_characters(self) -> None:
        current = self.characters.currentData()
        self.characters.blockSignals(True)
        self.characters.clear()
        allowed = self.allowed_characters()
        for count in allowed:
            self.characters.addItem(f"{count} character{'s' if count > 1 else ''}", count)
        index = self.characters.findData(current)
        self.characters.setCurrentIndex(index if index >= 0 else 0)
        self.characters.blockSignals(False)
        players = self.players.value()
        if players == 2:
            self.note.setText("Two players field 2 characters, or 4 (two each).")
        elif players == 1:
            self.note.setText("One player plays multi-character solo (2 to 4 characters) "
                              "or hardcore solo (a single character, tougher tracks).")
        else:
            self.note.setText(f"{players} players need at least {players} characters.")
        self.error.clear_problem()

    def validatePage(self) -> bool:  # noqa: N802 (Qt's name)
        from companion.operations import Refused
        from companion.operations.files import check_new_campaign

        if not self.society.text().strip():
            self.error.show_problem("A society needs a name.")
            self.society.setFocus()
            return False
        try:
            check_new_campaign(self.wiz.content().rules, players=self.players.value(),
                               characters=int(self.characters.currentData() or 0),
                               solo=str(self.solo.currentData()))
        except Refused as refusal:
            self.error.show_problem(refusal_sentence(refusal))
            return False
        self.error.clear_problem()
        return True


class ContentPage(WizardPage):
    """The content pack (with the packs it extends) the campaign is played with."""

    def __init__(self, wizard: NewCampaignWizard) -> None:
        super().__init__(
            wizard, "Content pack",
            "The cards, hexes and challenges the campaign uses. A pack that "
            "extends another brings that one too.")
        self.packs = QtWidgets.QListWidget()
        self.packs.setAccessibleName("Content packs")
        self.details = QtWidgets.QLabel()
        self.details.setWordWrap(True)
        self.details.setAccessibleName("Pack details")
        self.error = ErrorLabel()
        label = QtWidgets.QLabel("&Packs found (shipped, yours, and the folders in Settings):")
        label.setBuddy(self.packs)
        layout = QtWidgets.QVBoxLayout(self)
        layout.addWidget(label)
        layout.addWidget(self.packs, 1)
        layout.addWidget(self.details)
        layout.addWidget(self.error)
        self.packs.currentItemChanged.connect(self._describe)

    def initializePage(self) -> None:  # noqa: N802
        from companion.content import ContentError, discover_packs

        if self.packs.count():
            return
        try:
            manifests = discover_packs(self.wiz.extra_content)
        except ContentError as exc:
            self.error.show_problem(f"A content pack could not be read:\n{exc}")
            manifests = []
        from companion.operations.box import BOX_PACK, KIND_WORDS, RULES_PACK, SAMPLE_PACK

        # My own box first, then the sample (the demo), then packs of the owner's making;
        # the rules pack alone is what both build on, not a campaign's choice.
        order = {BOX_PACK: 0, SAMPLE_PACK: 1}
        for manifest in sorted(manifests, key=lambda m: (order.get(m.id, 2), m.name)):
            if manifest.id == RULES_PACK:
                continue
            kind = {BOX_PACK: "box", SAMPLE_PACK: "sample"}.get(manifest.id)
            item = QtWidgets.QListWidgetItem(KIND_WORDS[kind] if kind else
                                             f"{manifest.name} ({manifest.id} {manifest.version})")
            item.setData(Qt.ItemDataRole.UserRole, manifest)
            self.packs.addItem(item)
            if manifest.id == self.wiz.pack_id:
                self.packs.setCurrentItem(item)
        if self.packs.currentItem() is None and self.packs.count():
            self.packs.setCurrentRow(0)

    def _describe(self) -> None:
        item = self.packs.currentItem()
        manifest = item.data(Qt.ItemDataRole.UserRole) if item else None
        if manifest is None:
            self.details.setText("")
            return
        extends = f" Extends the pack '{manifest.extends}'." if manifest.extends else ""
        if manifest.extends == "stonesaga-rules":  # the one rules file: said in words
            extends = " It plays by the rulebook's rules."
        self.details.setText(f"{manifest.description or manifest.name}{extends}")
        self.error.clear_problem()

    def pack_id(self) -> str | None:
        item = self.packs.currentItem()
        manifest = item.data(Qt.ItemDataRole.UserRole) if item else None
        return str(manifest.id) if manifest is not None else None

    def validatePage(self) -> bool:  # noqa: N802
        from companion.operations import Refused
        from companion.operations.files import check_new_campaign

        pack = self.pack_id()
        if pack is None:
            self.error.show_problem("Choose a content pack.")
            return False
        try:
            content = self.wiz.load_pack(pack)
            society = self.wiz.society_page
            check_new_campaign(content.rules, players=society.players.value(),
                               characters=self.wiz.character_count(),
                               solo=str(society.solo.currentData()))
        except Refused as refusal:
            self.error.show_problem(refusal_sentence(refusal))
            return False
        self.wiz.pack_id = pack
        self.error.clear_problem()
        return True

    def nextId(self) -> int:  # noqa: N802
        # My own box: its valley begins from the tiles on the table (box_wizard_page).
        if self.pack_id() == "box":
            return int(self.wiz.box_valley_id)
        return int(self.wiz.region_id)


class RegionPage(WizardPage):
    """The region of the starting hex (Rulebook: Set Up > Determine Starting Hex)."""

    def __init__(self, wizard: NewCampaignWizard) -> None:
        super().__init__(
            wizard, "Starting region",
            "The valley begins with the region's starting hex and two more "
            "hexes of that region, face down (the app draws them).")
        self.region = QtWidgets.QComboBox()
        self.region.setAccessibleName("Region of the starting hex")
        self.start = QtWidgets.QLabel()
        self.start.setWordWrap(True)
        self.start.setAccessibleName("Starting hex")
        form = QtWidgets.QFormLayout(self)
        form.addRow("&Region:", self.region)
        form.addRow("Starting hex:", self.start)
        self.region.currentIndexChanged.connect(self._describe)

    def initializePage(self) -> None:  # noqa: N802
        content = self.wiz.content()
        current = self.region.currentData()
        self.region.blockSignals(True)
        self.region.clear()
        for region in content.regions.values():
            self.region.addItem(region.name, region.id)
        self.region.setCurrentIndex(max(0, self.region.findData(current)))
        self.region.blockSignals(False)
        self._describe()

    def _describe(self) -> None:
        region = self.region.currentData()
        if region is None:
            self.start.setText("")
            return
        try:
            tile = self.wiz.content().starting_hex(region)
        except (KeyError, ValueError):
            self.start.setText("This region has no starting hex in the pack.")
            return
        name = getattr(tile, "name", "") or ""
        self.start.setText(f"{tile.id}{' — ' + name if name else ''}")

    def validatePage(self) -> bool:  # noqa: N802
        return self.region.currentData() is not None


class ChallengePage(WizardPage):
    """The first challenge (Rulebook: Set Up > Select Challenge)."""

    def __init__(self, wizard: NewCampaignWizard) -> None:
        super().__init__(
            wizard, "The first challenge",
            "Before the first game every challenge of the pack looms; the "
            "group chooses among those with priority closest to 1.")
        self.challenges = QtWidgets.QListWidget()
        self.challenges.setAccessibleName("Eligible challenges")
        self.details = QtWidgets.QLabel()
        self.details.setWordWrap(True)
        self.error = ErrorLabel()
        label = QtWidgets.QLabel("&Challenges you may choose:")
        label.setBuddy(self.challenges)
        layout = QtWidgets.QVBoxLayout(self)
        layout.addWidget(label)
        layout.addWidget(self.challenges, 1)
        layout.addWidget(self.details)
        layout.addWidget(self.error)
        self.challenges.currentItemChanged.connect(self._describe)

    def eligible(self) -> list[str]:
        """What ``operations.eligible_challenges`` answers for a campaign just founded."""
        from companion.rules import challenge as challenge_rules
        from companion.rules.ids import ChallengeId

        content = self.wiz.content()
        looming = [challenge_rules.LoomingChallenge(ChallengeId(c.id), c.priority)
                   for c in content.challenges.values()]
        return list(challenge_rules.eligible_challenges(looming, 1))

    def initializePage(self) -> None:  # noqa: N802
        content = self.wiz.content()
        current = self.challenge_id()
        self.challenges.clear()
        for cid in self.eligible():
            card = content.challenges[cid]
            item = QtWidgets.QListWidgetItem(f"{card.name} (priority {card.priority})")
            item.setData(Qt.ItemDataRole.UserRole, cid)
            self.challenges.addItem(item)
            if cid == current:
                self.challenges.setCurrentItem(item)
        if self.challenges.currentItem() is None and self.challenges.count():
            self.challenges.setCurrentRow(0)

    def _describe(self) -> None:
        cid = self.challenge_id()
        card = self.wiz.content().challenges.get(cid) if cid else None
        text = ""
        if card is not None:
            for attr in ("text", "description", "story"):
                text = str(getattr(card, attr, "") or "")
                if text:
                    break
            goals = len(getattr(card, "vital_goals", ()) or ())
            text = (text + "\n" if text else "") + \
                f"{goals} vital goal{'s' if goals != 1 else ''}."
        self.details.setText(text)
        self.error.clear_problem()

    def challenge_id(self) -> str | None:
        item = self.challenges.currentItem()
        return str(item.data(Qt.ItemDataRole.UserRole)) if item else None

    def validatePage(self) -> bool:  # noqa: N802
        if self.challenge_id() is None:
            self.error.show_problem("Choose the challenge of the first game.")
            return False
        return True
