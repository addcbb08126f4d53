"""What the GUI and the CLI read: small frozen summaries of the campaign.

They are plain data (``dataclasses.asdict`` gives the CLI's stable ``--json``).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ThresholdLine:
    """One unrest threshold and whether the society has reached it."""

    at: int
    """Unrest at which the effects apply (cumulative)."""
    text: str
    """The effects in game words."""
    active: bool
    """Whether unrest is at or above ``at``."""


@dataclass(frozen=True)
class CampaignStatus:
    """The dials and headline facts of a campaign (the status bar and Society view)."""

    society_name: str
    epoch: int
    games_this_epoch: int
    challenge_id: str | None
    challenge_name: str | None
    omens: tuple[str, ...]
    """The current omen(s): top of the Night discard, else the challenge's starting omen."""
    activity: int
    unrest: int
    lore: int
    unrest_thresholds: tuple[ThresholdLine, ...]
    culture: tuple[str, ...]
    """Culture abilities and unlocked mantle powers, by name."""
    characters: int
    legends: int
    outposts: int
    journal_events: int
    packs: tuple[str, ...]
    """Content packs in use, as ``id version``."""
    kind: str = "sample"
    """``box`` (my own box: the rules and the owner's pack), ``sample`` or ``pack``
    (:func:`companion.operations.box.campaign_kind`)."""
    kind_words: str = ""
    """The kind in words ("My own box — the app learns it as you play")."""


@dataclass(frozen=True)
class CharacterSummary:
    """One row of the Characters view."""

    id: int
    name: str
    player: str
    age: str
    mantle: str
    might: int
    dexterity: int
    awareness: int
    conviction: int
    traits: tuple[str, ...]
    energy: int
    energy_max: int
    health: tuple[str, ...]
    health_max: int
    hex_id: str | None
    status: str
    marks: tuple[str, ...] = ()
    """Marks written on the character card (Rulebook: Fillable Cards)."""

    @property
    def energy_text(self) -> str:
        return f"{self.energy}/{self.energy_max}"

    @property
    def health_text(self) -> str:
        if not self.health:
            return f"unharmed (0/{self.health_max})"
        return f"{', '.join(t.replace('_', ' ') for t in self.health)} " \
               f"({len(self.health)}/{self.health_max})"


@dataclass(frozen=True)
class JournalLine:
    """One journal event, for the Journal view and ``companion journal list``."""

    id: int
    when: str
    kind: str
    text: str
    undone: bool


@dataclass(frozen=True)
class HexSummary:
    """A hex of the valley as the journal's Valley Map records it."""

    tile_id: str
    region: str
    slot: int
    explored: bool
    features: tuple[str, ...]


@dataclass(frozen=True)
class TraySummary:
    """A terrain tray and its hexes."""

    index: int
    region: str
    hexes: tuple[HexSummary, ...]
