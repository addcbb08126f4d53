"""Operations on the campaign file as a whole: create, open, undo/redo, journal
entries, save points, backups, copies, export and import."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from companion import store
from companion.operations.campaign_packs import load_pack
from companion.operations.changes import Changes, Refused, Written
from companion.operations.core import Campaign
from companion.store import CampaignFile, CampaignFileError, models

SOLO_VARIANTS = ("none", "multi", "hardcore")


def _refusing(call: Any, *args: Any, **kwargs: Any) -> Any:
    """Call a store function, turning its refusals into :class:`Refused`."""
    try:
        return call(*args, **kwargs)
    except CampaignFileError as exc:
        raise Refused(str(exc)) from exc


def check_new_campaign(rules: Any, *, players: int, characters: int, solo: str) -> None:
    """Refuse an impossible set-up (Rulebook: Players & Player Count; Solo Play; D8)."""
    if solo not in SOLO_VARIANTS:
        raise Refused(f"Unknown solo variant '{solo}': choose none, multi or hardcore.")
    if not 1 <= players <= 4:
        raise Refused(f"Stonesaga is played by 1 to 4 players, not {players}.")
    if solo == "hardcore":
        if players != 1 or characters != 1:
            raise Refused("Hardcore solo is one player with a single character.")
        return
    if players == 1 and solo != "multi":
        raise Refused("With one player, choose multi-character solo or hardcore solo.")
    if characters < players:
        raise Refused(f"{players} players need at least {players} characters.")
    try:
        rules.scale_for(characters)
    except KeyError as exc:
        raise Refused(f"The rules give no health and energy for {characters} characters: "
                      "play with 2, 3 or 4.") from exc
    if players == 2 and characters not in (2, 4):
        raise Refused("Two players field 2 characters, or 4 (two each).")


def new_campaign(
    path: Path,
    *,
    society_name: str,
    players: int = 2,
    characters: int = 2,
    solo: str = "none",
    pack_id: str = "sample",
    seed: int | None = None,
    extra_content: Sequence[Path] = (),
) -> Campaign:
    """Create a campaign file at ``path`` and open it (File ▸ New; ``campaign new``)."""
    content = load_pack(pack_id, extra_content)
    check_new_campaign(content.rules, players=players, characters=characters, solo=solo)
    name = society_name.strip()
    if not name:
        raise Refused("A society needs a name.")
    file = _refusing(CampaignFile.create, Path(path))
    campaign = Campaign(file, content)
    campaign.extra_content = tuple(Path(p) for p in extra_content)
    if seed is None:
        import secrets

        seed = secrets.randbits(48)
    try:
        from companion.operations.box import SHORT_WORDS, campaign_kind

        kind = SHORT_WORDS[campaign_kind(content)]
        with campaign.write("campaign.new", f"The society of {name} was founded ({kind}).",
                            ) as session:
            row = session.get(models.Campaign, 1) or models.Campaign(id=1)
            row.society_name = name
            row.content_packs = [{"id": p.id, "version": str(p.version)} for p in content.packs]
            row.players = [f"Player {n}" for n in range(1, players + 1)]
            row.character_count = characters
            row.solo_variant = solo
            session.add(row)
            if session.get(models.Society, 1) is None:
                session.add(models.Society(id=1))
            session.add(models.RngState(name="main", seed=seed, state=None))
    except BaseException:
        campaign.close()
        Path(path).unlink(missing_ok=True)  # nothing was founded: leave no empty file
        raise
    return campaign


def open_campaign(path: Path, *, extra_content: Sequence[Path] = (),
                  verify: str = "now", lock: str = "open") -> Campaign:
    """Open an existing campaign file (refusals explain themselves). ``lock`` as in
    :meth:`Campaign.open` (the command line passes ``"first-write"``)."""
    return Campaign.open(Path(path), extra_content=extra_content, verify=verify, lock=lock)


def add_journal_entry(campaign: Campaign, *, text: str, author: str | None = None) -> Changes:
    """Write a free-text entry in the journal (Rulebook: Using the Journal)."""
    text = text.strip()
    if not text:
        raise Refused("A journal entry needs some text.")
    with campaign.write("journal.entry", text, author=author or None):
        pass
    return Changes(summary=f"Journal: {text}", journal=True)


def undo(campaign: Campaign) -> Changes:
    """Undo the last operation (Edit ▸ Undo; ``companion undo``)."""
    return _step_history("There is nothing to undo.", campaign.file.undo_step, "Undid")


def redo(campaign: Campaign) -> Changes:
    """Redo the last undone operation (Edit ▸ Redo; ``companion redo``)."""
    return _step_history("There is nothing to redo.", campaign.file.redo_step, "Redid")


def _step_history(nothing: str, step: Any, done: str) -> Changes:
    """One step back or forward through the file's history (Refused with ``nothing``
    when there is none)."""
    stepped = _refusing(step)
    if stepped is None:
        raise Refused(nothing)
    # The rows it put back are the event's own, the Undo/Redo labels after it were read
    # in its transaction (issue 37: the views and the Edit menu refresh for them).
    written = Written.of_rows(stepped.target.changes, labels=stepped.labels)
    return Changes(summary=f"{done}: {stepped.target.text}", everything=True,
                   written=written)


def save_point(campaign: Campaign, *, name: str) -> Changes:
    """Name this point in the history ("before the Night") to return to later."""
    if not name.strip():
        raise Refused("A save point needs a name.")
    _refusing(campaign.file.save_point, name.strip())
    return Changes(summary=f"Save point '{name.strip()}'", journal=True)


def save_points(campaign: Campaign) -> list[str]:
    """Names of the save points, oldest first."""
    return [p.name for p in campaign.file.save_points()]


def undo_to_save_point(campaign: Campaign, *, name: str) -> Changes:
    """Undo every operation made after the save point ``name``."""
    if name not in save_points(campaign):
        raise Refused(f"There is no save point named '{name}'.")
    undone = _refusing(campaign.file.undo_to, name)
    return Changes(summary=f"Back to '{name}': undid {len(undone)} operation(s)",
                   everything=True)


def save_copy(campaign: Campaign, dest: Path) -> None:
    """Write a consistent copy of the campaign to ``dest`` (SQLite's backup API)."""
    _refusing(campaign.file.save_copy, Path(dest))


def list_backups(path: Path) -> list[Any]:
    """The automatic backups of the campaign at ``path``, newest first."""
    return list(_refusing(store.list_backups, Path(path)))


def refuse_backup_before_share(path: Path, backup: Any) -> None:
    """Refuse, in words, restoring a backup taken before campaign ``path`` was shared now
    that it is (issue 38: it would quietly take this machine out of the shared campaign);
    asked before the campaign is closed (File ▸ Backups), and again by the restore."""
    _refusing(store.refuse_backup_before_share, Path(path), backup)


def restore_backup(campaign: Campaign | Path, backup: Any) -> Campaign:
    """Replace the campaign with ``backup`` (a backup of the current file is taken
    first) and return it open. ``campaign`` may be an open campaign (it is closed) or
    the path of a file too damaged to open. A backup taken before a shared campaign was
    shared is refused (:func:`refuse_backup_before_share`)."""
    extra: Sequence[Path] = ()
    if isinstance(campaign, Campaign):
        path = campaign.path
        campaign.close()
    else:
        path = Path(campaign)
    _refusing(store.restore_backup, path, backup)
    return open_campaign(path, extra_content=extra)


def export_campaign(campaign: Campaign, dest: Path, *, replace: bool = False,
                    report: Any = None) -> None:
    """Export the whole campaign as one portable file (docs/campaign-file.md).

    An existing ``dest`` that is not an export is refused unless ``replace`` (the
    player confirmed it); ``report(done, total, text)`` is told the rows written.
    """
    _refusing(store.export_campaign, campaign.file, Path(dest), replace=replace,
              report=report)


WEB_JOURNAL_AT_MOST = 64 * 2**20
"""A web Campaign Journal file is a few MiB at most (its drawings included): a larger
file that is not our export is read as ours, a piece at a time, and refused in words."""


def is_portable_import(src: Path) -> bool:
    """Whether ``src`` goes to the portable importer rather than the web journal's: our
    export (told by its first bytes; never read whole here), or a file too large to be a
    Journal's. Refuses a file beyond the import limit before reading it."""
    from companion.store import portable

    size = _refusing(portable.check_import_size, Path(src))
    return portable.is_export_file(Path(src)) or size > WEB_JOURNAL_AT_MOST


def import_campaign(src: Path, dest: Path, *, extra_content: Sequence[Path] = (),
                    report: Any = None) -> Campaign:
    """Import a portable export, or a web Campaign Journal file (any version it writes),
    into a new campaign file at ``dest``, and open it. A web journal's import report is
    :func:`companion.operations.webjournal.import_new`'s. ``report(done, total, text)``
    is told the bytes of an export read so far."""
    import contextlib
    import json

    from companion.store.webjournal import looks_like_web_journal

    head = None  # the portable importer says what is wrong with a file it cannot read
    if not is_portable_import(Path(src)):
        with contextlib.suppress(OSError, UnicodeDecodeError, ValueError, RecursionError):
            head = json.loads(Path(src).read_text(encoding="utf-8-sig"))
    dest = Path(dest)
    if looks_like_web_journal(head):
        from companion.operations import webjournal

        campaign, _ = webjournal.import_new(Path(src), dest, extra_content=extra_content)
        return campaign
    file = _refusing(store.import_campaign, Path(src), dest, report=report)
    file.close()
    try:
        return open_campaign(dest, extra_content=extra_content)
    except BaseException:
        # e.g. its content pack is not here: a failed import leaves nothing behind.
        from companion.store.portable import discard_new_campaign

        discard_new_campaign(dest.absolute())
        raise
