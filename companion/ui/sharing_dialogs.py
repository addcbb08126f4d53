"""File ▸ Share Campaign… and File ▸ Join a Shared Campaign… (issue 38).

Sharing picks a folder the group's sync tool (Syncthing, Dropbox, Google Drive, OneDrive,
Nextcloud, a network share, a USB stick) already keeps in step; the campaign file itself
stays in the data folder. Joining picks that folder on another machine: the campaign
appears with its history, its backups start and the owner's own cards come along.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QFileDialog, QInputDialog, QLineEdit, QMessageBox

from companion.ui.file_menu import show_refusal
from companion.ui.host import Host

SHARE_CAPTION = ("Share the campaign: choose a folder your group's sync tool already "
                 "shares (Syncthing, Dropbox, Google Drive, OneDrive…)")
JOIN_CAPTION = "Join a shared campaign: choose the folder the group shares it in"


def _machine_name(window: Host) -> str | None:
    """This machine's name as the others will see it; None when cancelled."""
    from companion.operations.sharing import default_machine_name

    name, ok = QInputDialog.getText(
        window, "This machine's name", "The others will see this machine's changes as "
        "made on:", QLineEdit.EchoMode.Normal, default_machine_name())
    return name.strip() if ok and name.strip() else None


def share_campaign(window: Host) -> bool:
    """File ▸ Share Campaign…: choose the folder and this machine's name, then share."""
    if window.campaign is None:
        return False
    folder = QFileDialog.getExistingDirectory(window, SHARE_CAPTION, str(Path.home()))
    if not folder:
        return False
    name = _machine_name(window)
    return name is not None and share_into(window, Path(folder), name)


def share_into(window: Host, folder: Path, name: str) -> bool:
    """Share the open campaign through ``folder`` as ``name``; refusals are shown."""
    from companion.operations import Refused, sharing
    from companion.ui.sync_keeper import keeper

    campaign = window.campaign
    if campaign is None:
        return False
    try:
        status = sharing.share(campaign, folder, machine_name=name)
    except Refused as refusal:
        show_refusal(window, "Could not share the campaign", refusal)
        return False
    keeper(window).keep(campaign)
    QMessageBox.information(
        window, "Campaign shared",
        f"The campaign is shared through {status.folder} as {status.machine_name}.\n\n"
        "On the other machines, choose File ▸ Join a Shared Campaign… and that folder "
        "(once their sync tool has it). Every change is written there as you play; "
        "the others' changes are taken in a few seconds after they arrive.")
    return True


def join_shared_campaign(window: Host) -> bool:
    """File ▸ Join a Shared Campaign…: choose the shared folder and this machine's name;
    the campaign is made in the data folder and opened."""
    folder = QFileDialog.getExistingDirectory(window, JOIN_CAPTION, str(Path.home()))
    if not folder:
        return False
    name = _machine_name(window)
    return name is not None and join_from(window, Path(folder), name)


def join_from(window: Host, folder: Path, name: str) -> bool:
    """Join the campaign shared in ``folder`` as ``name`` and show it; refusals shown."""
    from companion import operations
    from companion import settings as preferences
    from companion.operations import sharing
    from companion.ui.progress import run_with_progress

    try:
        campaign = run_with_progress(
            window, "Joining the shared campaign",
            lambda: sharing.join(folder, machine_name=name,
                                 extra_content=preferences.load().extra_content()))
    except operations.Refused as refusal:
        show_refusal(window, "Could not join the campaign", refusal)
        return False
    campaign.file.policy = preferences.load().backup_policy()  # its backups start
    window.show_created(campaign, campaign.path)
    return True
