"""The "play" dialogs the table uses between procedures: card effects read at the table,
ability tests, processing, and the challenge lifecycle (start, end, goals, a new epoch,
ageing and healing between games).

Each dialog collects input with Qt's own widgets and writes only through
``Host.run_operation``; a refusal is shown there and leaves the dialog open. Each
has one entry function taking the main window (``open_effects(window)`` ...), which shows
it modeless and returns it. One module a dialog (or a few that belong together); this
package face keeps every name importable from ``companion.ui.play_dialogs``.
"""

from companion.ui.play_dialogs.ability_test import AbilityTestDialog, open_ability_test
from companion.ui.play_dialogs.between_games import (
    GOAL_STATES,
    AgeingDialog,
    GoalsDialog,
    NewEpochDialog,
    RetainedAndRuinsDialog,
    open_ageing,
    open_goals,
    open_new_epoch,
    open_retained_and_ruins,
)
from companion.ui.play_dialogs.challenge import (
    EndChallengeDialog,
    StartChallengeDialog,
    open_end_challenge,
    open_start_challenge,
    read_outcome_after_end,
)
from companion.ui.play_dialogs.effects import (
    EFFECT_KINDS,
    SIGNED,
    WITH_AMOUNT,
    EffectsDialog,
    open_effects,
)
from companion.ui.play_dialogs.processing import ProcessDialog, open_processing

from .play_dialog import WARN, PlayDialog

__all__ = [
    "EFFECT_KINDS", "GOAL_STATES", "SIGNED", "WARN", "WITH_AMOUNT", "AbilityTestDialog",
    "AgeingDialog", "EffectsDialog", "EndChallengeDialog", "GoalsDialog", "NewEpochDialog",
    "PlayDialog", "ProcessDialog", "RetainedAndRuinsDialog", "StartChallengeDialog",
    "open_ability_test", "open_ageing", "open_effects", "open_end_challenge", "open_goals",
    "open_new_epoch", "open_processing", "open_retained_and_ruins", "open_start_challenge",
    "read_outcome_after_end",
]
