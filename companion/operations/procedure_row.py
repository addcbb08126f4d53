"""The procedure in progress as the file keeps it (one ``procedure`` row), and the
guards every chapter reads from it: an activity or the Night holds the characters until
it ends, so what would change them waits.

The procedure registry (``operations.procedures``) rebuilds and advances the procedure;
the chapters that begin one (the activities, the behemoth) write its row here with
:func:`begin`, and say how to rebuild and finish their kind with a :class:`Kind`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sqlmodel import Session, col, select

from companion.operations.changes import Changes, Refused
from companion.operations.core import Campaign
from companion.operations.state import load_game, save_game
from companion.rules.game import Game
from companion.rules.procedure import Procedure
from companion.store import models

PROCEDURE_ROW = "procedure"


@dataclass(frozen=True)
class Kind:
    """How to rebuild one kind of procedure and write its result."""

    restore: Callable[[Campaign, Session, dict[str, Any]], Procedure]
    finish: Callable[[Campaign, Session, Procedure, dict[str, Any]], str]


def procedure_row(session: Session) -> models.ProcedureState | None:
    """The row of the procedure in progress, if any."""
    return session.exec(select(models.ProcedureState).where(
        models.ProcedureState.kind == PROCEDURE_ROW)).first()


def begin(session: Session, kind: str, procedure: Procedure, **extra: Any) -> None:
    """Begin ``procedure`` inside an open write (refused if another is in progress)."""
    if procedure_row(session) is not None:
        raise Refused("Another procedure is in progress; finish it first.")
    refuse_between_games(session)
    session.add(models.ProcedureState(kind=PROCEDURE_ROW, state={
        "kind": kind, "procedure": procedure.to_state(), "log": [], **extra}))


# --- the shared shape of a Day operation -------------------------------------------------


Step = Callable[[Game, Session], tuple[Game, str]]
"""Applies one rule to the game; returns the new game and the journal sentence."""


def day_operation(campaign: Campaign, kind: str, step: Step, actor: str | None = None,
                  **flags: Any) -> Changes:
    """Run ``step`` in one journalled write. With ``actor``, the journal also records the
    energy the action charged them (Hardcore Solo's discount included)."""
    with campaign.write(kind, kind) as session:
        busy = procedure_in_progress(session)
        if busy is not None and busy != "night":
            raise Refused(f"An activity is in progress: finish the {busy} first.")
        refuse_between_games(session)
        before = load_game(session, campaign.content)
        after, text = step(before, session)
        save_game(session, campaign.content, before, after)
        if actor is not None:
            spent = before.character(actor).energy - after.character(actor).energy
            text += f" ({spent} energy)"
        session.info["journal_text"] = text
    return Changes(summary=text, characters=True, journal=True, **flags)


def between_games(session: Session) -> str | None:
    """Why nothing of a game can be played now, once a challenge has ended and the next
    has not begun (Rulebook: Continuing Play: the characters' supplies went back to the
    box; the next game begins with its setup; issue 36 item 8); None while a challenge is
    in play, or before the first one (the table may try the Day out first)."""
    society = session.get(models.Society, 1)
    if society is None or society.current_challenge_id:
        return None
    ended = session.exec(select(models.ChallengeLogEntry).where(
        col(models.ChallengeLogEntry.finished).is_(True))).first()
    if ended is None:
        return None
    return ("the challenge has ended: the Day and the Night wait for the next challenge "
            "(Play ▸ Start Challenge; companion challenge start)")


def refuse_between_games(session: Session) -> None:
    """Refuse an action of the game between two challenges (see :func:`between_games`)."""
    why = between_games(session)
    if why is not None:
        raise Refused(why[0].upper() + why[1:] + ".")


def procedure_saved(campaign: Campaign) -> bool:
    """Whether a procedure is in progress: its row is kept (read without rebuilding it,
    for Play ▸ Continue Procedure…; issue 37). A row that cannot be rebuilt counts too:
    opening it says why."""
    with campaign.file.read() as session:
        return session.exec(select(col(models.ProcedureState.id)).where(
            models.ProcedureState.kind == PROCEDURE_ROW)).first() is not None


def procedure_in_progress(session: Session) -> str | None:
    """The kind of procedure in progress ('fishing', 'night' ...), if any."""
    row = procedure_row(session)
    return str(row.state.get("kind")) if row is not None else None


DISCOVERY_DUE = "discovery_due"
"""The ``procedure_state`` kind recording a Discovery to draw after a move (kept by
``operations.exploration``)."""


def due_row(session: Session) -> models.ProcedureState | None:
    """The row of the Discovery card due after a move, if any."""
    return session.exec(select(models.ProcedureState).where(
        models.ProcedureState.kind == DISCOVERY_DUE)).first()


def discovery_due(campaign: Campaign) -> dict[str, Any] | None:
    """The Discovery waiting to be drawn (``{"character", "hex", "set_aside"}``), if any.

    Here, below the chapters, because the Valley tab asks it when the campaign is first
    shown: reading one row should not import the whole of exploring."""
    with campaign.file.read() as session:
        row = due_row(session)
        return dict(row.state) if row is not None else None


def discovery_waiting(session: Session) -> tuple[str, str] | None:
    """(character, hex) of a Discovery card due after a move (the ``discovery_due`` row
    ``operations.exploration`` keeps), if any: that action is not over yet."""
    row = due_row(session)
    if row is None:
        return None
    return str(row.state.get("character", "a character")), str(row.state.get("hex", "?"))


def refuse_during_procedure(session: Session, what: str) -> None:
    """Refuse ``what`` (a step between games: aging, a challenge's end or start, a new
    epoch) while the Night or an activity is in progress: it would change characters the
    procedure will write back when it ends (Rulebook: Game Structure; End of Challenge)."""
    busy = procedure_in_progress(session)
    if busy is not None:
        raise Refused(f"{what} waits until the {busy} is over: finish it first "
                      "(Play ▸ Continue Procedure; companion step).")


def refuse_during_night(session: Session, what: str) -> None:
    """Refuse ``what`` (a change to a character) while the Night is in progress: the
    Night's end writes every character as the Night saw them, so the change would be
    lost without a word (found by the whole-campaign harness)."""
    if procedure_in_progress(session) == "night":
        raise Refused(f"The Night is in progress and its end writes every character: "
                      f"{what} once it is over (Play ▸ Continue Procedure; companion step).")
