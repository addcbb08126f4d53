"""An open campaign (the campaign file + its content packs) and what can be read from it.

``Campaign`` is what the GUI and the CLI hold. Reading goes through its query methods;
writing goes through the operation functions of this package, each of which runs inside
``Campaign.write`` — one transaction, one journal event, refusals turned into
:class:`Refused` with the reason in game words.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sqlmodel import Session, col, func, select

from companion.content import Content, ContentError
from companion.operations.box import KIND_WORDS, campaign_kind
from companion.operations.changes import Refused, StatusLine, Written
from companion.operations.queries import (
    CampaignStatus,
    CharacterSummary,
    HexSummary,
    JournalLine,
    ThresholdLine,
    TraySummary,
)
from companion.rules.chance import Chance
from companion.rules.errors import IllegalAction
from companion.store import CampaignFile, CampaignFileError, models

NIGHT_DECK = "night"


def describe_threshold(threshold: Any, goal_names: Any = None) -> str:
    """An unrest threshold's effects in game words (Rulebook: Tracks > Unrest; D10)."""
    parts = []
    if threshold.activity_per_night:
        parts.append(f"+{threshold.activity_per_night} activity each Night")
    if threshold.starting_energy_delta:
        parts.append(f"characters begin each challenge with "
                     f"{-threshold.starting_energy_delta} fewer energy")
    if threshold.rest_automatic_energy_delta:
        parts.append(f"{-threshold.rest_automatic_energy_delta} fewer automatic energy "
                     "at rest")
    if threshold.structures_disabled:
        parts.append("no benefit from structures")
    if threshold.epoch_goal:
        goal = (goal_names or {}).get(threshold.epoch_goal)
        name = goal.name if goal is not None else threshold.epoch_goal
        parts.append(f"epoch goal '{name}' in play")
    return f"Unrest {threshold.at}+: " + "; ".join(parts)


class Damaged(Refused):
    """The campaign file failed its integrity check; its backups may restore it."""

    def __init__(self, message: str, path: Path) -> None:
        super().__init__(message)
        self.path = path


TOLD = 8
"""How many of the latest writes :meth:`Campaign.written_since` can tell of."""

TOO_LARGE = ("That number is too large to record: no dial, track or count in the game goes "
             "that high. Nothing was changed.")
"""The refusal of a number the campaign file cannot hold (more than 19 digits)."""

class Campaign:
    """An open campaign: the writer's handle on the file, and the loaded content."""

    def __init__(self, file: CampaignFile, content: Content) -> None:
        self.file = file
        self.content = content
        self.extra_content: tuple[Path, ...] = ()
        """Extra pack folders it was opened with (reloading content uses them again)."""
        self.content_problem: ContentError | None = None
        """Why the user's own pack could not be used (the campaign then plays with the
        pack it extends); the GUI offers to fix it in the My cards window."""
        self.own_cards: dict[tuple[str, str, str], Any] = {}
        """The user-pack cards the content plays with, ``(pack, kind, id) ->
        carried.OwnCardCopy``: every write carries those the file does not yet."""
        self.cards_missing: tuple[Any, ...] = ()
        """Cards the file carries that this data folder's pack lacks (played with all
        the same; ``own_cards.adopt_cards`` adds them to the pack)."""
        self.cards_edited: tuple[Any, ...] = ()
        """Cards the file carries that this data folder's pack holds in another version
        (the campaign keeps the version it played with)."""
        self.pack_state: dict[tuple[str, str, str], Any] = {}
        """The user's packs' cards in this data folder when the content was built
        (``operations.cards.reload_content`` takes in what changed since)."""
        self._told: list[tuple[Any, Any]] = []
        """(the file's last event before, the event written) of the latest writes."""

    # -- opening and closing -------------------------------------------------------

    @classmethod
    def open(cls, path: Path, *, extra_content: Sequence[Path] = (),
             verify: str = "now", lock: str = "open", backups: bool = True) -> Campaign:
        """Open ``path`` with the content packs it was made with.

        Raises :class:`Refused` when the file is refused (locked elsewhere, damaged,
        too new, not a campaign) or its content pack cannot be loaded; a damaged file's
        refusal is :class:`Damaged`, so the GUI can offer its backups.
        ``verify="background"`` (the GUI) checks the file's integrity while it is shown.
        ``lock="first-write"`` (the command line) takes the writer lock only when it
        first writes, so commands that only read work while the app has it open.
        ``backups=False`` for a file still being built under a temporary name.
        """
        from companion.store import CampaignDamaged

        try:
            file = CampaignFile.open(Path(path), verify=verify,  # type: ignore[arg-type]
                                     lock=lock, backups=backups)  # type: ignore[arg-type]
        except CampaignDamaged as exc:
            raise Damaged(str(exc), Path(path)) from exc
        except CampaignFileError as exc:
            raise Refused(str(exc)) from exc
        try:
            from companion.operations.campaign_packs import campaign_content
            from companion.operations.carried import carried

            with file.read() as session:
                row = session.get(models.Campaign, 1)
                packs = list(row.content_packs) if row else []
                cards = carried(session)
            built = campaign_content([p["id"] for p in packs] or ["sample"], extra_content,
                                     cards)
        except BaseException:
            file.close()
            raise
        campaign = cls(file, built.content)
        campaign.extra_content = tuple(Path(p) for p in extra_content)
        built.apply(campaign)
        if file.migrated_from is not None and file.migrated_from < 3:
            # A campaign from before its cards travelled with it: the cards of the
            # owner's pack it plays with are copied in now, from this data folder.
            from companion.operations.carried import carry_now, needs_carrying

            try:
                if needs_carrying(campaign):
                    carry_now(campaign)
            except Refused as exc:  # never stops a campaign from opening
                file.warnings.append(f"Your own cards could not be copied into the "
                                     f"campaign: {exc}")
        return campaign

    def close(self) -> None:
        """Release the file (and its writer lock)."""
        self.file.close()

    def __enter__(self) -> Campaign:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def path(self) -> Path:
        return Path(self.file.path)

    @property
    def title(self) -> str:
        with self.file.read() as session:
            row = session.get(models.Campaign, 1)
            return row.society_name if row and row.society_name else self.path.stem

    @property
    def kind(self) -> str:
        """``box`` (my own box), ``sample`` (the demo pack) or ``pack``
        (:func:`companion.operations.box.campaign_kind`)."""
        return campaign_kind(self.content)

    @property
    def rules(self) -> Any:
        """The content pack's rules constants."""
        return self.content.rules

    def maybe_backup(self) -> Any:
        """Take a periodic backup if something changed since the last one; returns the
        store's ``BackupInfo`` of the backup taken, or None if none was due."""
        return self.file.maybe_backup()

    # -- writing -------------------------------------------------------------------

    @contextmanager
    def write(self, kind: str, text: str, *, author: str | None = None,
              **payload: Any) -> Iterator[Session]:
        """One operation: a transaction that commits its rows with one journal event.

        A rules refusal (:class:`IllegalAction`) or a file problem inside the block
        rolls everything back and is re-raised as :class:`Refused`.
        """
        before = self.file.last_event
        try:
            with self.file.transaction(kind, text, payload=payload or None,
                                       author=author) as session:
                yield session
                if self.own_cards:  # the owner's cards it plays with travel in the file
                    from companion.operations.carried import carry

                    carry(session, self.own_cards.values())
                # Events and goals settled on the way (operations.society_events).
                notes = session.info.pop("society_notes", None)
                if notes:
                    said = str(session.info.get("journal_text", text))
                    session.info["journal_text"] = ". ".join(
                        n.rstrip(".") for n in [said, *notes]) + "."
        except IllegalAction as exc:
            raise Refused(str(exc)) from exc
        except CampaignFileError as exc:
            raise Refused(str(exc)) from exc
        except OverflowError as exc:  # beyond SQLite's 64-bit integers: rolled back
            raise Refused(TOO_LARGE) from exc
        self._told = [*self._told[-(TOLD - 1):], (before, self.file.last_event)]

    def written_since(self, mark: Any) -> Written | None:
        """What was written since ``mark`` (the file's ``last_event`` before an
        operation), told from the operation's own journal events (issue 37): the tables
        and columns, the Undo/Redo labels now, and the status bar's figures when it
        wrote any. None when it is not known (nothing was journalled, or an event came
        from elsewhere than :meth:`write`): the caller then reads what it shows."""
        from companion.store.undo import BASELINE_KINDS

        event = self.file.last_event
        chain: list[Any] = []
        for before, after in reversed(self._told):
            if event is mark:
                break
            if after is not event or after is None:
                return None
            chain.append(after)
            event = before
        if event is not mark or not chain:
            return None
        written = Written.of_rows(chain[-1].changes)
        for later in reversed(chain[:-1]):
            written = written.merged(Written.of_rows(later.changes))
        # The newest event is what Undo takes back; a new operation ends the redo stack.
        newest = chain[0]
        labels = None if newest.kind in BASELINE_KINDS else (str(newest.text), None)
        status = self.status_line() if written.writes_status else None
        return Written(written.columns, labels, status, written.rows)

    def chance(self, session: Session) -> tuple[Chance, models.RngState]:
        """The campaign's seeded generator, as persisted; save it back with
        :meth:`save_chance` in the same transaction after drawing."""
        row = session.exec(select(models.RngState).where(models.RngState.name == "main")).first()
        if row is None:
            row = models.RngState(name="main", seed=0, state=None)
            session.add(row)
        chance = Chance.from_state(row.state) if row.state else Chance(row.seed)
        return chance, row

    @staticmethod
    def save_chance(chance: Chance, row: models.RngState) -> None:
        row.state = chance.state()

    # -- reading -------------------------------------------------------------------

    def undo_label(self) -> str | None:
        return self.file.undo_label()

    def redo_label(self) -> str | None:
        return self.file.redo_label()

    def status(self) -> CampaignStatus:
        """The dials and headline facts (status bar, Society view, ``companion status``)."""
        events = self.file.event_count()
        with self.file.read() as session:
            campaign = session.get(models.Campaign, 1) or models.Campaign()
            society = session.get(models.Society, 1) or models.Society()
            challenge = (self.content.challenges.get(society.current_challenge_id)
                         if society.current_challenge_id else None)
            culture = [c.name for c in session.exec(select(models.CultureAbility)).all()]
            culture += [f"{p.mantle}: {p.power_id}" if p.mantle else p.power_id
                        for p in session.exec(select(models.MantlePower)).all()]
            return CampaignStatus(
                society_name=campaign.society_name,
                epoch=campaign.epoch,
                games_this_epoch=society.games_this_epoch,
                challenge_id=society.current_challenge_id,
                challenge_name=challenge.name if challenge else None,
                omens=self._current_omens(session, challenge),
                activity=society.activity,
                unrest=society.unrest,
                lore=society.lore,
                unrest_thresholds=tuple(
                    ThresholdLine(t.at, describe_threshold(t, self.content.goals),
                                  society.unrest >= t.at)
                    for t in self.rules.unrest_thresholds
                ),
                culture=tuple(culture),
                characters=_count(session, models.Character,
                                  col(models.Character.status) != "legend"),
                legends=_count(session, models.Legend),
                outposts=_count(session, models.Outpost),
                journal_events=events,
                packs=tuple(f"{p['id']} {p.get('version', '')}".strip()
                            for p in campaign.content_packs),
                kind=self.kind,
                kind_words=KIND_WORDS[self.kind],
            )

    def status_line(self) -> StatusLine:
        """The status bar's figures (omen, activity, unrest, epoch, challenge): a few
        reads by key, whatever the length of the history."""
        with self.file.read() as session:
            campaign = session.get(models.Campaign, 1) or models.Campaign()
            society = session.get(models.Society, 1) or models.Society()
            challenge = (self.content.challenges.get(society.current_challenge_id)
                         if society.current_challenge_id else None)
            return StatusLine(omens=self._current_omens(session, challenge),
                              activity=society.activity, unrest=society.unrest,
                              epoch=campaign.epoch,
                              challenge_name=challenge.name if challenge else None)

    def current_omens(self, session: Session) -> tuple[str, ...]:
        """The current omen(s), read inside an open session."""
        society = session.get(models.Society, 1)
        challenge = (self.content.challenges.get(society.current_challenge_id)
                     if society and society.current_challenge_id else None)
        return self._current_omens(session, challenge)

    def _current_omens(self, session: Session, challenge: Any) -> tuple[str, ...]:
        # Rulebook: Omen > Current Omen: the top of the Night discard, else the
        # challenge's starting omen.
        deck = session.exec(
            select(models.DeckState).where(models.DeckState.deck == NIGHT_DECK)
        ).first()
        if deck is not None and deck.discard:
            card = self.content.night_cards.get(deck.discard[-1])
            if card is not None:
                return tuple(str(o) for o in card.omens)
        if challenge is not None and challenge.starting_omen:
            return (str(challenge.starting_omen),)
        return ()

    def characters(self) -> list[CharacterSummary]:
        """Every character who is not (yet) a legend, in creation order."""
        with self.file.read() as session:
            campaign = session.get(models.Campaign, 1) or models.Campaign()
            rows = session.exec(
                select(models.Character)
                .where(col(models.Character.status) != "legend")
                .order_by(col(models.Character.id))
            ).all()
            hexes = {h.id: h.tile_id for h in session.exec(select(models.ValleyHex)).all()}
            scale = self.track_maxima(campaign)
            return [
                CharacterSummary(
                    id=c.id or 0, name=c.name, player=c.player, age=c.age,
                    mantle=self._mantle_name(c.mantle), might=c.might, dexterity=c.dexterity,
                    awareness=c.awareness, conviction=c.conviction, traits=tuple(c.traits),
                    energy=c.energy, energy_max=scale[1], health=tuple(c.health),
                    health_max=scale[0], hex_id=hexes.get(c.hex_id) if c.hex_id else None,
                    status=c.status, marks=tuple(c.marks),
                )
                for c in rows
            ]

    def character_detail(self, name: str) -> Any:
        """The full character (the rules' :class:`~companion.rules.character.Character`:
        boosts, items, bag, health tokens ...), for the character sheet."""
        from companion.operations.state import load_game

        with self.file.read() as session:
            game = load_game(session, self.content)
        try:
            return game.character(name)
        except IllegalAction as exc:
            raise Refused(str(exc)) from exc

    def starting_hexes(self) -> list[str]:
        """Where a character may be placed: the starting hex or a hex with an active
        outpost (Rulebook: Set Up > Determine Starting Hex and Place Characters)."""
        with self.file.read() as session:
            hexes = session.exec(select(models.ValleyHex).where(
                col(models.ValleyHex.explored).is_(True))).all()
            tiles = [h.tile_id for h in hexes if h.tile_id]
            outposts = {o.hex_id for o in session.exec(select(models.Outpost)).all()
                        if o.status == "active"}
            by_row = {h.id: h.tile_id for h in hexes}
        start = [t for t in tiles if t in self.content.hexes and self.content.hexes[t].starting]
        # The starting hex may hold an outpost too: each hex is named once.
        return start + sorted({str(by_row[h]) for h in outposts if h in by_row and by_row[h]}
                              - set(start))

    def fired_events(self) -> list[str]:
        """Ids of the single activity events fired this challenge (D7)."""
        with self.file.read() as session:
            society = session.get(models.Society, 1)
            return list(society.triggered_events) if society else []

    def goals_in_play(self) -> list[tuple[str, str]]:
        """(goal id, state) of the goals the society has met: 'vital', 'epoch', 'sealed'
        (unread, above the challenge), 'set_aside' or 'completed'."""
        with self.file.read() as session:
            return [(g.goal_id, g.state) for g in session.exec(
                select(models.GoalState).order_by(col(models.GoalState.id))).all()]

    def _mantle_name(self, mantle_id: str | None) -> str:
        if not mantle_id:
            return ""
        mantle = self.content.mantles.get(mantle_id)
        return mantle.name if mantle is not None else mantle_id

    def track_maxima(self, campaign: models.Campaign) -> tuple[int, int]:
        """(health, energy) maxima for the campaign's character count (D8, D19)."""
        if campaign.solo_variant == "hardcore":
            solo = self.rules.hardcore_solo
            return solo.health, solo.energy
        count = campaign.character_count or 2
        try:
            scale = self.rules.scale_for(count)
        except KeyError:
            return 0, 0
        return scale.health, scale.energy

    def journal(self, limit: int = 200, before_id: int | None = None) -> list[JournalLine]:
        """Journal events, newest first; ``before_id`` pages further back.

        Only the columns a line shows are read (issue 37: not each event's row images),
        walking the id index from the newest end, as ``CampaignFile.journal`` does."""
        import sqlalchemy

        event = models.JournalEvent
        query = (sqlalchemy.select(col(event.id), col(event.time), col(event.kind),
                                   col(event.text), col(event.undone))
                 .order_by(col(event.id).desc()).limit(limit))
        if before_id is not None:
            query = query.where(col(event.id) < before_id)
        with self.file.read() as session:
            rows = session.connection().execute(query).all()
        return [JournalLine(id=row_id or 0, when=time.strftime("%Y-%m-%d %H:%M"), kind=kind,
                            text=text, undone=undone)
                for row_id, time, kind, text, undone in rows]

    def valley(self) -> list[TraySummary]:
        """The valley as the journal's Valley Map: trays in order, their hexes by slot."""
        with self.file.read() as session:
            trays = session.exec(
                select(models.ValleyTray).order_by(col(models.ValleyTray.tray_number))
            ).all()
            result = []
            for tray in trays:
                hexes = session.exec(
                    select(models.ValleyHex).where(models.ValleyHex.tray_id == tray.id)
                    .order_by(col(models.ValleyHex.slot))
                ).all()
                result.append(TraySummary(
                    index=tray.tray_number, region=self._region_name(tray.region),
                    hexes=tuple(self._hex_summary(h, tray.region) for h in hexes),
                ))
            return result

    def _region_name(self, region_id: str) -> str:
        region = self.content.regions.get(region_id)
        return region.name if region is not None else region_id

    def _hex_summary(self, row: models.ValleyHex, region_id: str) -> HexSummary:
        tile = self.content.hexes.get(row.tile_id) if row.tile_id else None
        features = tuple(str(f) for f in tile.sections.values() if f) if tile else ()
        return HexSummary(tile_id=row.tile_id or "?", region=self._region_name(region_id),
                          slot=int(row.slot) if str(row.slot).isdigit() else 0,
                          explored=row.explored, features=features)


def _count(session: Session, table: Any, *where: Any) -> int:
    statement = select(func.count()).select_from(table)
    for clause in where:
        statement = statement.where(clause)
    return int(session.exec(statement).one())
