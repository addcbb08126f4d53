"""The operations layer: the only writer of a campaign.

Every change — from the GUI or the CLI — is ``op(campaign, **args) -> Changes``: it
validates, applies the rules, writes its rows and one journal event in one transaction,
and reports what changed. A refusal raises :class:`Refused` and changes nothing.

The names below are imported from their modules when first used (PEP 562): the GUI shows
a campaign after importing only the modules its first view needs, not every operation
(and every rule) there is. ``_HOMES`` says where each name lives; a test checks that it
matches the imports type checkers read.

Inside the package the modules stand in one-way layers (the campaign handle and the
state mapping at the bottom, one module per rulebook chapter above them, the procedure
registry and this face on top): docs/ARCHITECTURE.md, "operations: one-way layers".
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from companion.operations.behemoth import (
        behemoth_overlay_data,
        behemoth_view,
        learn_habits,
        learn_secret,
        set_target,
        set_up_behemoth,
        set_up_options,
        start_activation,
        start_encounter,
    )
    from companion.operations.challenge import (
        ability_test,
        age_character,
        claim_retained,
        complete_goal,
        degrade_token,
        end_challenge,
        new_epoch,
    )
    from companion.operations.changes import Changes, Refused
    from companion.operations.characters import create_character, roll_dice
    from companion.operations.codex import (
        investigate_omen,
        look_up,
        look_up_crafting,
        read_outcome,
    )
    from companion.operations.core import Campaign, Damaged
    from companion.operations.day import (
        available_actions,
        build_outpost,
        build_structure,
        gather_water,
        move,
        pass_turn,
        prepare_shelter,
        process,
        revive,
        whose_turn,
    )
    from companion.operations.exploration import (
        draw_discovery,
        explore_new_tray,
        legal_placements,
        move_and_discover,
        overlay_choices,
        place_overlay,
    )
    from companion.operations.export import journal_markdown
    from companion.operations.files import (
        add_journal_entry,
        export_campaign,
        import_campaign,
        is_portable_import,
        list_backups,
        new_campaign,
        open_campaign,
        redo,
        refuse_backup_before_share,
        restore_backup,
        save_copy,
        save_point,
        save_points,
        undo,
        undo_to_save_point,
    )
    from companion.operations.journal import search, write_entry
    from companion.operations.legends import (
        choose_mantle_power,
        gain_legend,
        legend_cards,
        return_legend,
        use_legend,
        use_mantle_power,
    )
    from companion.operations.procedure_row import discovery_due
    from companion.operations.setup import (
        create_demo_campaign,
        eligible_challenges,
        set_up_valley,
        start_challenge,
    )
    from companion.operations.society import (
        add_culture_ability,
        change_unrest,
        gain_lore,
        increase_activity,
        spend_lore,
        unlock_delving,
        unlock_mantle_power,
    )

_HOMES: dict[str, str] = {
    "behemoth_overlay_data": "behemoth",
    "behemoth_view": "behemoth",
    "learn_habits": "behemoth",
    "learn_secret": "behemoth",
    "set_target": "behemoth",
    "set_up_behemoth": "behemoth",
    "set_up_options": "behemoth",
    "start_activation": "behemoth",
    "start_encounter": "behemoth",
    "ability_test": "challenge",
    "age_character": "challenge",
    "claim_retained": "challenge",
    "complete_goal": "challenge",
    "degrade_token": "challenge",
    "end_challenge": "challenge",
    "new_epoch": "challenge",
    "Changes": "changes",
    "Refused": "changes",
    "create_character": "characters",
    "roll_dice": "characters",
    "investigate_omen": "codex",
    "look_up": "codex",
    "look_up_crafting": "codex",
    "read_outcome": "codex",
    "Campaign": "core",
    "Damaged": "core",
    "available_actions": "day",
    "build_outpost": "day",
    "build_structure": "day",
    "gather_water": "day",
    "move": "day",
    "pass_turn": "day",
    "prepare_shelter": "day",
    "process": "day",
    "revive": "day",
    "whose_turn": "day",
    "discovery_due": "procedure_row",
    "draw_discovery": "exploration",
    "explore_new_tray": "exploration",
    "legal_placements": "exploration",
    "move_and_discover": "exploration",
    "overlay_choices": "exploration",
    "place_overlay": "exploration",
    "journal_markdown": "export",
    "add_journal_entry": "files",
    "export_campaign": "files",
    "import_campaign": "files",
    "is_portable_import": "files",
    "list_backups": "files",
    "new_campaign": "files",
    "open_campaign": "files",
    "redo": "files",
    "refuse_backup_before_share": "files",
    "restore_backup": "files",
    "save_copy": "files",
    "save_point": "files",
    "save_points": "files",
    "undo": "files",
    "undo_to_save_point": "files",
    "search": "journal",
    "write_entry": "journal",
    "choose_mantle_power": "legends",
    "gain_legend": "legends",
    "legend_cards": "legends",
    "return_legend": "legends",
    "use_legend": "legends",
    "use_mantle_power": "legends",
    "create_demo_campaign": "setup",
    "eligible_challenges": "setup",
    "set_up_valley": "setup",
    "start_challenge": "setup",
    "add_culture_ability": "society",
    "change_unrest": "society",
    "gain_lore": "society",
    "increase_activity": "society",
    "spend_lore": "society",
    "unlock_delving": "society",
    "unlock_mantle_power": "society",
}


def __getattr__(name: str) -> Any:
    """Import ``name`` from its module on first use, and keep it here."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'companion.operations' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"companion.operations.{home}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_HOMES})


__all__ = [
    "choose_mantle_power",
    "gain_legend",
    "legend_cards",
    "return_legend",
    "use_legend",
    "use_mantle_power",
    "behemoth_overlay_data",
    "behemoth_view",
    "learn_habits",
    "learn_secret",
    "set_target",
    "set_up_behemoth",
    "set_up_options",
    "start_activation",
    "start_encounter",
    "investigate_omen",
    "journal_markdown",
    "look_up",
    "look_up_crafting",
    "read_outcome",
    "search",
    "write_entry",
    "discovery_due",
    "draw_discovery",
    "explore_new_tray",
    "legal_placements",
    "move_and_discover",
    "overlay_choices",
    "place_overlay",
    "ability_test",
    "age_character",
    "claim_retained",
    "complete_goal",
    "degrade_token",
    "end_challenge",
    "new_epoch",
    "Damaged",
    "save_points",
    "undo_to_save_point",
    "add_culture_ability",
    "available_actions",
    "build_outpost",
    "build_structure",
    "change_unrest",
    "gain_lore",
    "gather_water",
    "increase_activity",
    "move",
    "pass_turn",
    "prepare_shelter",
    "process",
    "revive",
    "spend_lore",
    "unlock_delving",
    "unlock_mantle_power",
    "whose_turn",
    "Campaign",
    "Changes",
    "Refused",
    "add_journal_entry",
    "create_character",
    "create_demo_campaign",
    "eligible_challenges",
    "roll_dice",
    "set_up_valley",
    "start_challenge",
    "export_campaign",
    "import_campaign",
    "is_portable_import",
    "list_backups",
    "new_campaign",
    "open_campaign",
    "redo",
    "refuse_backup_before_share",
    "restore_backup",
    "save_copy",
    "save_point",
    "undo",
]
