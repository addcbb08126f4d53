"""Why the campaign file refused something, in plain words.

Every exception here is a :class:`CampaignFileError`; each message says what was refused
and what the player can do about it. A refusal never changes the file.
"""

from __future__ import annotations

from pathlib import Path


class CampaignFileError(Exception):
    """Base class: the campaign file (or an export of it) could not be used as asked."""


class CampaignNotFound(CampaignFileError):
    """The file does not exist."""

    def __init__(self, path: Path) -> None:
        super().__init__(f"{path} does not exist; check the name, or create a new campaign.")
        self.path = path


class CampaignFileExists(CampaignFileError):
    """Creating (or importing) would overwrite an existing file."""

    def __init__(self, path: Path) -> None:
        super().__init__(
            f"{path} already exists; the companion never overwrites a campaign. "
            "Choose another name, or move the old file away first."
        )
        self.path = path


class NotARegularFile(CampaignFileError):
    """An export would replace something that is not a file: a device, a pipe, a folder.

    Writing whole files means renaming a new file over the destination, which would
    swap a device such as ``/dev/null`` (or a named pipe) for a plain file.
    """

    def __init__(self, path: Path) -> None:
        super().__init__(
            f"{path} is not a plain file (it is a device, a pipe or a folder), so nothing "
            "was written there; choose a file name to export to."
        )
        self.path = path


def holder_words(kind: str | None) -> str:
    """Who holds a campaign's lock, by the kind its lock file names."""
    return {"window": "the Stonesaga Companion window",
            "command": "a companion command"}.get(kind or "", "another copy of the companion")


class CampaignLocked(CampaignFileError):
    """Another copy of the companion has the file open for writing."""

    def __init__(self, path: Path, pid: int | None, host: str | None, *,
                 kind: str | None = None, waited: float = 0.0) -> None:
        who = f"pid {pid} on host {host}" if pid is not None else "owner unknown"
        holder = holder_words(kind)
        unit = "second" if waited == 1 else "seconds"
        still = f" It was still open there after waiting {waited:g} {unit}." if waited else ""
        there = "Close it there first" if kind != "command" else "Let that command finish"
        super().__init__(
            f"{path} is open in {holder} ({who}).{still} {there}; if that copy has "
            "crashed, its lock is released automatically once the process is gone."
        )
        self.path = path
        self.pid = pid
        self.host = host
        self.kind = kind


class NotACampaign(CampaignFileError):
    """The file is not SQLite, or is SQLite but not a Stonesaga campaign."""

    def __init__(self, path: Path, why: str) -> None:
        super().__init__(
            f"{path} is not a Stonesaga campaign ({why}). It was left untouched; "
            "open a .stonesaga file made by the companion, or import an export file."
        )
        self.path = path


class CampaignDamaged(CampaignFileError):
    """The file failed its integrity check (damaged or truncated)."""

    def __init__(self, path: Path, why: str, backups: int) -> None:
        offer = (
            f"{backups} backup(s) are available: restore one with `companion backup restore`."
            if backups
            else "No backups of it were found."
        )
        super().__init__(f"{path} is damaged ({why}) and was left untouched. {offer}")
        self.path = path
        self.backups = backups


class CampaignTooNew(CampaignFileError):
    """The file was written by a newer version of the companion."""

    def __init__(self, path: Path, file_version: int, known_version: int) -> None:
        super().__init__(
            f"{path} has file schema version {file_version}; this program knows up to "
            f"version {known_version}. Update the companion to open it; the file was left "
            "untouched."
        )
        self.path = path
        self.file_version = file_version
        self.known_version = known_version


class DiskFull(CampaignFileError):
    """SQLite reported 'database or disk is full'; the change was rolled back."""

    def __init__(self, path: Path) -> None:
        super().__init__(
            f"The disk holding {path} is full; the last change was not saved (everything "
            "saved before it is safe). Free some space and try again."
        )
        self.path = path


class ReadOnly(CampaignFileError):
    """SQLite could not write the file (read-only file, folder or medium)."""

    def __init__(self, path: Path) -> None:
        super().__init__(
            f"{path} cannot be written (read-only file, folder or disk); the last change "
            "was not saved (everything saved before it is safe). Copy the campaign to a "
            "writable folder and open it there."
        )
        self.path = path


class UndoConflict(CampaignFileError):
    """A row changed outside the journal, so undo/redo cannot restore it safely.

    Raised by the store's undo, redo and undo-to-a-save-point with the step it stops at
    in game words and what the players can do (:meth:`at_step`); ``detail`` keeps the
    row that differed, for a bug report."""

    detail: str = ""

    @classmethod
    def at_step(cls, step: str, *, redo: bool = False, save_point: str | None = None,
                detail: str = "") -> UndoConflict:
        """The refusal for the journal step ``step`` (its text)."""
        if redo:
            text = (f"Redo stops at \u201c{step}\u201d: the campaign no longer holds what "
                    "came before that step, so redoing it could spoil the game. Nothing "
                    "was changed. Play on from here, or restore a backup taken after that "
                    "step (File \u25b8 Backups\u2026; companion backup list, companion "
                    "backup restore).")
        else:
            where = (f"Undo to the save point '{save_point}' stops at" if save_point
                     else "Undo stops at")
            text = (f"{where} \u201c{step}\u201d: the campaign no longer holds what that "
                    "step left behind, so undoing it could spoil the game. Nothing was "
                    "undone. Undo (and Undo to a Save Point) cannot go back past this "
                    "step; to return to before it, restore a backup taken before it (File "
                    "\u25b8 Backups\u2026; companion backup list, companion backup "
                    "restore).")
        error = cls(text)
        error.detail = detail
        return error


class BadExportFile(CampaignFileError):
    """An export (or web-journal) file is malformed or of an unknown version."""

    def __init__(self, path: Path, why: str) -> None:
        super().__init__(f"{path} cannot be imported: {why}. Nothing was created.")
        self.path = path


class CampaignClosed(CampaignFileError):
    """The CampaignFile was used after close()."""


class SideFileInTheWay(CampaignFileError):
    """Something of the wrong kind sits where the companion keeps a side file or folder."""

    def __init__(self, where: Path, found: str, purpose: str) -> None:
        super().__init__(
            f"{where} is {found}, but that is where the companion keeps {purpose}. "
            f"Move or rename it, then try again; the campaign itself was left untouched."
        )
        self.path = where


class CampaignMoved(CampaignFileError):
    """The campaign file was deleted, moved or replaced while it was open."""

    def __init__(self, path: Path) -> None:
        super().__init__(
            f"{path} was deleted, moved or replaced while it was open here, so the last "
            "change was not saved (it would have gone into a file nobody can see). Save a "
            "copy of what is open now (File ▸ Save a copy, or `companion backup` before "
            "closing), then open the campaign where it is now."
        )
        self.path = path


class CampaignUnreadable(CampaignFileError):
    """The operating system could not read or write the file (not damage in the file)."""

    def __init__(self, path: Path, why: str) -> None:
        super().__init__(
            f"{path} could not be read or written ({why}). The file was left untouched and "
            "nothing shows that it is broken: check the disk or the folder's permissions and "
            "try again."
        )
        self.path = path


class NotWritable(CampaignFileError):
    """A write was asked of a campaign opened for reading only."""


def _additions_reason(found: list[str]) -> str:
    """Why what was found stops the campaign from opening, for the kinds found."""
    reasons = []
    if any(f.startswith("a trigger") for f in found):
        reasons.append("a trigger would change the campaign on every write without the "
                       "journal knowing")
    if any("virtual table" in f for f in found):  # its shadow tables included
        reasons.append("a virtual table runs code of its own (a search or map index) "
                       "whenever it is read, on data the companion never checked")
    others = [f for f in found if not f.startswith("a trigger") and "virtual table" not in f]
    if others:
        what = "the rest" if reasons else ("it" if len(others) == 1 else "them")
        reasons.append(f"the companion neither makes nor reads {what}, so it cannot say "
                       "what it does to the campaign")
    return "; ".join(reasons)


class ForeignAdditions(NotACampaign):
    """A campaign file holding schema objects the companion never makes: triggers, views,
    virtual tables (FTS, R*Tree) and their shadow tables, extra tables, columns or
    indexes, generated columns, expression or partial indexes."""

    def __init__(self, path: Path, found: list[str], backups: int) -> None:
        offer = (f"Restore one of its {backups} backup(s) with `companion backup restore`, "
                 "or open a copy made before it was changed." if backups
                 else "Open a copy made before it was changed.")
        CampaignFileError.__init__(
            self,
            f"{path} holds {', '.join(found)}, which no companion makes: another program "
            f"or a person added it. {_additions_reason(found).capitalize()}; so the file "
            "was not opened and was left untouched. " + offer,
        )
        self.path = path
        self.found = found


class StrangerLog(CampaignFileError):
    """A write-ahead log beside the campaign that is not its own (another file's changes)."""

    def __init__(self, path: Path, why: str) -> None:
        log = path.name + "-wal"
        super().__init__(
            f"{path} has unsaved changes beside it ({log}) that are not this campaign's "
            f"own ({why}): another campaign's, or those of an older copy of this one that "
            "was replaced (a sync tool, a copy from another computer). They were not read "
            f"and nothing was changed. If {path.name} was not open anywhere, move {log} "
            f"(and {path.name}-shm) out of the folder and open the campaign again; keep "
            "them if you want to give them to the campaign they belong to."
        )
        self.path = path
        self.why = why


class BackupBeforeShare(CampaignFileError):
    """A backup taken before the campaign was shared, to restore over it now that it is
    (issue 38): it would quietly take this machine out of the shared campaign."""

    def __init__(self, path: Path, backup: Path, folder: str, machine_name: str) -> None:
        super().__init__(
            f"{backup.name} was taken before {path.name} was shared. The campaign is "
            f"shared now, through {folder} (this machine is {machine_name}): that backup "
            "would quietly take this machine out of the shared campaign. Nothing was "
            "restored or changed. To go back to an earlier moment, undo (or undo to a save "
            "point): an undo travels to every machine. To mend a damaged file, join the "
            "campaign again from the shared folder (File ▸ Join a Shared Campaign…; "
            "companion join FOLDER --file PATH): it brings back everything every machine "
            "played. A backup taken since the share restores as usual.")
        self.path = path
        self.backup = backup
        self.folder = folder


class ForeignBackup(CampaignFileError):
    """A backup to restore that does not prove it is a copy of this campaign."""

    def __init__(self, path: Path, backup: Path) -> None:
        super().__init__(
            f"{backup.name} is not a backup of {path.name}: it holds another campaign "
            "(its campaign id, or for a backup older than that its first journal entry, "
            f"is not {path.name}'s). Nothing was restored or changed. To play it, copy it "
            "out of the backups folder and open it as a campaign of its own."
        )
        self.path = path
        self.backup = backup
