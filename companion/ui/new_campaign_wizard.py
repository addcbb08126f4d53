"""The New Campaign wizard (File ▸ New Campaign; offered on first start beside the demo).

Pages: the society (name, players, characters, solo variant; reading D8), the content
pack, the region of the starting hex, the first challenge, one page per character
(Rulebook: Character Creation, steps 1-4), then a summary with the file to create.

Contract:

- Every page checks its input with the rules (``check_new_campaign``,
  ``rules.creation.create_character``, ``rules.challenge.eligible_challenges``) and says
  what is wrong in game words on the page itself; Next stays put until it is right.
- Nothing is written until Finish. Finish runs the ordinary operations, each its own
  journalled transaction: ``new_campaign``, ``set_up_valley``, ``start_challenge``, then
  ``create_character`` for each character. If one refuses, the wizard shows why and
  stays open; the file made by this Finish is closed and deleted (only that one:
  ``new_campaign`` refuses a path that already exists).
- Dice "rolled in the app" here come from a generator seeded from the campaign's own seed
  (the wizard picks it and passes it to ``new_campaign``), so they are reproducible from
  the file; the values are journalled by ``create_character`` like typed dice.

The pages live beside it: :mod:`companion.ui.new_campaign_pages` (society, content,
region, challenge), :mod:`companion.ui.character_wizard_page` (each character) and
:mod:`companion.ui.box_wizard_page` (the owner's box); the summary page is here.

After ``exec()`` is accepted, ``wizard.campaign`` is the open campaign and
``wizard.path`` its file; :func:`new_campaign` does that and shows it in the window.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6 import QtWidgets
from PySide6.QtCore import Qt

from companion.ui.character_wizard_page import CharacterChoice, CharacterPage
from companion.ui.new_campaign_pages import (
    MAX_CHARACTERS,
    SOLO_CHOICES,
    ChallengePage,
    ContentPage,
    ErrorLabel,
    RegionPage,
    SocietyPage,
    WizardPage,
    refusal_sentence,
)

if TYPE_CHECKING:
    from companion.content.model import Content
    from companion.operations import Campaign
    from companion.ui.host import Host

__all__ = ["MAX_CHARACTERS", "SOLO_CHOICES", "ChallengePage", "CharacterChoice",
           "CharacterPage", "ContentPage", "NewCampaignWizard", "RegionPage", "SocietyPage",
           "SummaryPage", "new_campaign", "welcome"]


class SummaryPage(WizardPage):
    """What will be created, and where; Finish creates it."""

    def __init__(self, wizard: NewCampaignWizard) -> None:
        super().__init__(
            wizard, "Found the society",
            "Finish creates the campaign file: the first terrain tray, the "
            "first challenge and the characters, each a journal entry.")
        self.summary = QtWidgets.QLabel()
        self.summary.setWordWrap(True)
        self.summary.setAccessibleName("Summary")
        self.summary.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByKeyboard |
                                             Qt.TextInteractionFlag.TextSelectableByMouse)
        self.path = QtWidgets.QLineEdit()
        self.path.setAccessibleName("Campaign file")
        self.browse = QtWidgets.QPushButton("&Browse…")
        self.browse.setAccessibleName("Choose where to save the campaign file")
        self.browse.clicked.connect(self.choose_path)
        self.error = ErrorLabel()
        row = QtWidgets.QHBoxLayout()
        row.addWidget(self.path, 1)
        row.addWidget(self.browse)
        label = QtWidgets.QLabel("Campaign &file:")
        label.setBuddy(self.path)
        layout = QtWidgets.QVBoxLayout(self)
        layout.addWidget(self.summary)
        layout.addWidget(label)
        layout.addLayout(row)
        layout.addWidget(self.error)
        layout.addStretch(1)
        self.setFinalPage(True)
        self.path.textChanged.connect(lambda _: self.error.clear_problem())
        self._suggested = ""

    def initializePage(self) -> None:  # noqa: N802
        from companion import paths

        self.summary.setText(self.wiz.summary_html())
        name = self.wiz.society_name()
        suggested = str(paths.campaigns_dir() / paths.campaign_file_name(name))
        if not self.path.text() or self.path.text() == self._suggested:
            self.path.setText(suggested)
        self._suggested = suggested

    def nextId(self) -> int:  # noqa: N802
        return -1  # the last page (my own box's valley page is added after it)

    def choose_path(self) -> None:
        from companion import paths

        chosen, _ = QtWidgets.QFileDialog.getSaveFileName(
            self, "Save the new campaign as", self.path.text(),
            f"Stonesaga campaigns (*{paths.CAMPAIGN_SUFFIX})")
        if chosen:
            self.path.setText(chosen)

    def target(self) -> Path:
        from companion import paths

        text = self.path.text().strip()
        if not text.endswith(paths.CAMPAIGN_SUFFIX):
            text += paths.CAMPAIGN_SUFFIX
        return Path(text).expanduser()

    def validatePage(self) -> bool:  # noqa: N802
        if not self.path.text().strip():
            self.error.show_problem("Choose where to save the campaign file.")
            return False
        target = self.target()
        if target.exists():
            self.error.show_problem(f"{target} already exists; choose another name so "
                                    "no campaign is overwritten.")
            return False
        if not target.parent.is_dir():
            self.error.show_problem(f"The folder {target.parent} does not exist.")
            return False
        problem = self.wiz.create_campaign()
        if problem:
            self.error.show_problem(problem)
            return False
        return True


# -- the wizard ------------------------------------------------------------------------------


class NewCampaignWizard(QtWidgets.QWizard):
    """File ▸ New Campaign as a wizard (see the module docstring for the contract)."""

    def __init__(self, parent: QtWidgets.QWidget | None = None, *,
                 extra_content: Sequence[Path] = (), seed: int | None = None,
                 pack_id: str = "sample") -> None:
        super().__init__(parent)
        self.setWindowTitle("New Campaign")
        self.setObjectName("newCampaignWizard")
        self.setWizardStyle(QtWidgets.QWizard.WizardStyle.ClassicStyle)
        self.setOption(QtWidgets.QWizard.WizardOption.NoBackButtonOnStartPage, True)
        self.extra_content = [Path(p) for p in extra_content]
        self.seed = seed if seed is not None else secrets.randbits(48)
        self.pack_id = pack_id
        self._packs: dict[str, Content] = {}
        self.campaign: Campaign | None = None
        self.path: Path | None = None
        self.society_page = SocietyPage(self)
        self.content_page = ContentPage(self)
        self.region_page = RegionPage(self)
        self.challenge_page = ChallengePage(self)
        self.character_pages = [CharacterPage(self, n) for n in range(MAX_CHARACTERS)]
        self.summary_page = SummaryPage(self)
        from companion.ui.box_wizard_page import BoxChallengePage, BoxValleyPage

        self.box_valley_page = BoxValleyPage(self)
        self.box_challenge_page = BoxChallengePage(self)
        self.typed_entries: dict[str, dict[str, dict[str, Any]]] = {"traits": {},
                                                                      "mantles": {}}
        self.addPage(self.society_page)
        self.addPage(self.content_page)
        self.region_id = self.addPage(self.region_page)
        self.addPage(self.challenge_page)
        self.character_page_ids = [self.addPage(p) for p in self.character_pages]
        self.summary_id = self.addPage(self.summary_page)
        self.box_valley_id = self.addPage(self.box_valley_page)
        self.box_challenge_id = self.addPage(self.box_challenge_page)
        self.resize(820, 640)

    # -- content -------------------------------------------------------------------------

    def load_pack(self, pack_id: str) -> Content:
        """The merged content of ``pack_id`` (cached); ``Refused`` if it does not load."""
        if pack_id not in self._packs:
            from companion.content import ContentError, load_content
            from companion.operations import Refused

            try:
                self._packs[pack_id] = load_content(pack_id, extra_dirs=tuple(self.extra_content))
            except ContentError as exc:
                raise Refused(f"The content pack '{pack_id}' could not be loaded:\n{exc}") \
                    from exc
            except KeyError as exc:
                raise Refused(f"The content pack '{pack_id}' is not installed.") from exc
        return self._packs[pack_id]

    def content(self) -> Content:
        """The content of the chosen pack."""
        return self.load_pack(self.pack_id)

    def entries(self, kind: str) -> list[Any]:
        """The traits or mantles to choose from: the pack's, then those typed on a
        character page (entered into the owner's pack at Finish)."""
        from types import SimpleNamespace

        known: Any = getattr(self.content(), kind)
        return [*known.values(), *(SimpleNamespace(**e) for e in self.typed_entries[kind].values())]

    def type_entry(self, kind: str, name: str) -> str:
        """A trait or mantle typed from the box on a character page: its new id (Refused
        in game words when it is empty or known already)."""
        from companion.operations import Refused
        from companion.operations.character_cards import WORDS, typed_entry

        entry = typed_entry(self.content(), kind, name)
        pending = self.typed_entries[kind]
        if any(e["name"].casefold() == entry["name"].casefold() for e in pending.values()):
            raise Refused(f"The {WORDS[kind]} {entry['name']} is typed already: choose it "
                          "from the list.")
        while entry["id"] in pending:
            entry["id"] += "-2"
        pending[entry["id"]] = entry
        return str(entry["id"])

    def entry_name(self, kind: str, entry_id: str | None) -> str:
        """A trait's or mantle's name, known or typed here."""
        for entry in self.entries(kind):
            if str(entry.id) == entry_id:
                return str(entry.name)
        return "none"

    def start_hex(self) -> str | None:
        """The starting hex the characters begin in (my own box: the tile typed)."""
        if self.pack_id == "box":
            return str(self.box_valley_page.starting_tile()["tile"]) or None
        return str(self.content().starting_hex(self.region()).id)

    # -- what was chosen ----------------------------------------------------------------

    def society_name(self) -> str:
        return self.society_page.society.text().strip()

    def character_count(self) -> int:
        return int(self.society_page.characters.currentData() or 1)

    def player_names(self) -> list[str]:
        """The players as ``new_campaign`` names them."""
        return [f"Player {n}" for n in range(1, self.society_page.players.value() + 1)]

    def region(self) -> str:
        return str(self.region_page.region.currentData())

    def challenge(self) -> str:
        return str(self.challenge_page.challenge_id())

    def characters(self) -> list[CharacterChoice]:
        return [p.choice() for p in self.character_pages[: self.character_count()]]

    def characters_before(self, number: int) -> list[CharacterChoice]:
        return [p.choice() for p in self.character_pages[:number]]

    # -- checks -----------------------------------------------------------------------

    def check_character(self, number: int, choice: CharacterChoice) -> Any:
        """Check a character with the rules, against the characters before it (names
        unique, each mantle once). Raises ``IllegalAction`` or ``Refused``."""
        from companion.content.schema.base import Ability
        from companion.operations import Refused
        from companion.rules import creation

        content = self.content()
        mantles = {str(m.id) for m in self.entries("mantles")}
        if choice.mantle is not None and choice.mantle not in mantles:
            raise Refused(f"There is no mantle '{choice.mantle}' in the content pack.")
        earlier = [self._as_character(c) for c in self.characters_before(number)]
        return creation.create_character(
            content.rules, name=choice.name, player=choice.player, rolled=choice.rolled,
            removed=choice.removed,
            assignment={Ability(a): v for a, v in choice.assignment.items()},
            traits=choice.traits, mantle=choice.mantle,
            character_count=self.character_count(), in_game=earlier,
            available_traits=[str(t.id) for t in self.entries("traits")] or None,
            hardcore=self.society_page.solo.currentData() == "hardcore",
            hex=self.start_hex())

    def _as_character(self, choice: CharacterChoice) -> Any:
        from companion.content.schema.base import Ability
        from companion.rules import creation

        content = self.content()
        return creation.create_character(
            content.rules, name=choice.name or "?", player=choice.player,
            rolled=choice.rolled, removed=choice.removed,
            assignment={Ability(a): v for a, v in choice.assignment.items()},
            traits=choice.traits or [str(self.entries("traits")[0].id)], mantle=choice.mantle,
            character_count=self.character_count(),
            hardcore=self.society_page.solo.currentData() == "hardcore")

    def summary_html(self) -> str:
        from html import escape

        content = self.content()
        if self.pack_id == "box":
            return self._box_summary_html()
        solo = dict(SOLO_CHOICES)[str(self.society_page.solo.currentData())]
        region = content.regions[self.region()]
        challenge = content.challenges[self.challenge()]
        lines = [
            f"<b>{escape(self.society_name())}</b>: {self.society_page.players.value()} "
            f"player(s), {self.character_count()} character(s); {escape(solo)}.",
            f"Content pack: {escape(self.pack_id)}. Starting region: {escape(region.name)} "
            f"(hex {escape(str(content.starting_hex(region.id).id))}).",
            f"First challenge: {escape(challenge.name)}.",
        ]
        return "<br>".join([*lines, *self._character_lines()])

    def _character_lines(self) -> list[str]:
        """Each character as the summary shows it."""
        from html import escape

        lines = []
        for c in self.characters():
            abilities = ", ".join(f"{a.title()} {v}" for a, v in c.assignment.items())
            traits = ", ".join(self.entry_name("traits", t) for t in c.traits)
            mantle = self.entry_name("mantles", c.mantle)
            how = "rolled in the app" if c.rolled_in_app else "typed from the table"
            lines.append(f"• <b>{escape(c.name)}</b> ({escape(c.player)}): {abilities}; "
                         f"{escape(traits)}; mantle {escape(mantle)} — dice {how}.")
        return lines

    def _box_summary_html(self) -> str:
        """My own box: the society, the first tray from the table, what comes next."""
        from html import escape

        from companion.operations.box import KIND_WORDS
        from companion.ui.box_wizard_page import BOX_NEXT_STEPS

        page = self.box_valley_page
        start = page.starting_tile()
        region = self.content().regions[start["region"]]
        return "<br>".join([
            f"<b>{escape(self.society_name())}</b>: {self.society_page.players.value()} "
            f"player(s), {self.character_count()} character(s).",
            f"{escape(KIND_WORDS['box'])}.",
            f"The valley begins in {escape(region.name)} with the starting tile "
            f"{escape(start['tile'])} and the face-down tiles "
            f"{escape(', '.join(page.face_down_tiles()))}.",
            f"First challenge: {escape(self.box_challenge_page.challenge_name())}"
            + (" (typed from the card, saved into your own pack)."
               if self.box_challenge_page.challenge_id() is None else "."),
            *self._character_lines(),
            escape(BOX_NEXT_STEPS)])

    def _create_box(self, campaign: Campaign) -> None:
        """My own box: the starting tile typed into the owner's pack, the first tray, the
        first challenge (the card typed, or one the owner's pack knows)."""
        from companion import operations
        from companion.operations.challenge_cards import start_typed_challenge
        from companion.operations.tiles import type_tile

        page = self.box_valley_page
        start = page.starting_tile()
        if start["tile"] not in campaign.content.hexes:
            type_tile(campaign, **start)
        operations.set_up_valley(campaign, region=start["region"],
                                 face_down=page.face_down_tiles())
        challenge = self.box_challenge_page
        if challenge.challenge_id() is not None:
            operations.start_challenge(campaign, challenge=str(challenge.challenge_id()))
        else:
            card, goals = challenge.typed or challenge.typed_card()
            start_typed_challenge(campaign, card=card, goals=goals)

    def _enter_typed(self, campaign: Campaign) -> None:
        """The traits and mantles typed on the character pages that a character takes,
        remembered in the owner's pack (Character Creation, Steps 2-3)."""
        from companion.operations.cards import enter_card

        used = {"traits": {t for c in self.characters() for t in c.traits},
                "mantles": {c.mantle for c in self.characters() if c.mantle}}
        for kind, typed in self.typed_entries.items():
            for entry_id, entry in typed.items():
                if entry_id in used[kind] and entry_id not in getattr(campaign.content, kind):
                    enter_card(campaign, kind=kind, data=entry)

    # -- Finish ----------------------------------------------------------------------------

    def create_campaign(self) -> str | None:
        """Create the campaign with the operations; ``None`` on success, else why not.

        On a refusal the file this call created is closed and deleted.
        """
        from companion import operations
        from companion.rules.errors import IllegalAction

        target = self.summary_page.target()
        society = self.society_page
        campaign: Campaign | None = None
        created: list[Path] = []
        before = _siblings(target)
        try:
            campaign = operations.new_campaign(
                target, society_name=self.society_name(), players=society.players.value(),
                characters=self.character_count(), solo=str(society.solo.currentData()),
                pack_id=self.pack_id, seed=self.seed, extra_content=self.extra_content)
            created = [p for p in _siblings(target) if p not in before]
            if self.pack_id == "box":
                self._create_box(campaign)
                start = self.start_hex()
            else:
                start = operations.set_up_valley(campaign, region=self.region()).detail[0]  # type: ignore[index]
                if self.challenge() not in operations.eligible_challenges(campaign):
                    raise operations.Refused(f"The challenge '{self.challenge()}' may not "
                                             "be chosen for the first game.")
                operations.start_challenge(campaign, challenge=self.challenge())
            self._enter_typed(campaign)
            for choice in self.characters():
                operations.create_character(
                    campaign, name=choice.name, player=choice.player, rolled=choice.rolled,
                    removed=choice.removed, assignment=choice.assignment,
                    traits=choice.traits, mantle=choice.mantle, hex_tile=start)
        except (operations.Refused, IllegalAction) as refusal:
            if campaign is not None:
                campaign.close()
                created = [p for p in _siblings(target) if p not in before] or created
                for path in created:
                    _remove(path)
            return f"The campaign was not created: {refusal_sentence(refusal)}"
        self.campaign = campaign
        self.path = target
        return None


def _siblings(target: Path) -> set[Path]:
    """The campaign file and the files the store keeps beside it (-wal, -shm, lock,
    backups folder) that exist now."""
    folder = target.parent
    if not folder.is_dir():
        return set()
    return {p for p in folder.iterdir() if p.name.startswith(target.name) or
            p.name.startswith("." + target.name)}


def _remove(path: Path) -> None:
    import shutil

    if path.is_dir():
        shutil.rmtree(path, ignore_errors=True)
    else:
        path.unlink(missing_ok=True)


def new_campaign(window: Host) -> None:
    """File ▸ New Campaign: run the wizard, then show the new campaign in the window."""
    from companion import settings

    wizard = NewCampaignWizard(window, extra_content=settings.load().extra_content())
    if wizard.exec() != QtWidgets.QWizard.DialogCode.Accepted or wizard.campaign is None:
        return
    assert wizard.path is not None
    window.show_created(wizard.campaign, wizard.path)


def welcome(window: Host, *, ask: bool = True) -> bool:
    """First start: the demo campaign is open; offer the wizard for the group's own.

    Returns whether the wizard was started. ``ask=False`` starts it without asking.
    """
    if ask:
        box = QtWidgets.QMessageBox(window)
        box.setWindowTitle("Welcome to Stonesaga Companion")
        box.setIcon(QtWidgets.QMessageBox.Icon.Information)
        box.setText("A demo campaign, The Ember Folk, is open for you to explore.")
        box.setInformativeText("Start your own campaign now? The wizard walks you through "
                               "the society, the first challenge and the characters. You "
                               "can also do it later with File ▸ New Campaign.")
        start = box.addButton("&Start a New Campaign…", QtWidgets.QMessageBox.ButtonRole.AcceptRole)
        box.addButton("&Explore the Demo", QtWidgets.QMessageBox.ButtonRole.RejectRole)
        box.setDefaultButton(start)
        box.exec()
        if box.clickedButton() is not start:
            return False
    new_campaign(window)
    return True
