"""The operations layer: the only writer of a campaign.

Every change — from the GUI or the CLI — is ``op(campaign, **args) -> Changes``: it
validates, applies the rules, writes its rows and one journal event in one transaction,
and reports what changed. A refusal raises :class:`Refused` and changes nothing.
"""

from companion.operations import activities as _activities  # noqa: F401  (registers foraging, delving)
from companion.operations import behemoth as _behemoth  # noqa: F401  (registers its procedures)
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
    discovery_due,
    draw_discovery,
    explore_new_tray,
    legal_placements,
    move_and_discover,
)
from companion.operations.export import journal_markdown
from companion.operations.files import (
    add_journal_entry,
    export_campaign,
    import_campaign,
    list_backups,
    new_campaign,
    open_campaign,
    redo,
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
    "list_backups",
    "new_campaign",
    "open_campaign",
    "redo",
    "restore_backup",
    "save_copy",
    "save_point",
    "undo",
]
