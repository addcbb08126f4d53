"""A feature action played wholly at the table, its outcome recorded in one line
(issue 25 part 3: "We resolved this at the table"; Rulebook: Feature Actions).

In a campaign of the owner's box the pack may hold no forage, fishing or delving card
yet, nor the mining chips of a feature: the engine cannot lay the activity out. The
table plays it with the real cards and bag, and the app takes what it did:
:func:`activity_at_table` pays the action as the rules say (its energy, the character's
turn, the feature usable in the hex) and applies the line ("gain 2 meat, lore +1") in
the same undoable operation. It is journalled as a record of the table
(``recorded.RECORD_KIND``), with the card's id when one is given, so My Cards ▸
Recorded at the table can save it as a card later.
"""

from __future__ import annotations

from typing import Any

from companion.operations.changes import Changes, Refused
from companion.operations.core import Campaign
from companion.rules.outposts import FeatureAction

ACTIVITY_KINDS = {"forage": "forage_cards", "fish": "fishing_cards",
                  "delve": "delving_cards", "mine": ""}
"""The kind of card each activity draws (mining draws chips from a bag, not cards)."""

_VERBS = {"forage": "foraged", "fish": "fished", "delve": "delved", "mine": "mined"}


def activity_at_table(campaign: Campaign, *, name: str, action: str, feature: str,
                      line: str, card: str = "", character: str | None = None) -> Changes:
    """``name`` takes the feature action ``action`` (forage, fish, mine, delve) at
    ``feature``, played at the table: its cost is paid and ``line`` (what it gave) is
    applied, unnamed effects falling on ``character`` or else on ``name``.

    Refused, changing nothing, when the action could not be taken now for any reason
    but a deck the pack lacks (energy, turn, the feature, delving locked), or when the
    line does not read."""
    from companion.operations import day as day_ops
    from companion.operations.activities import begin_activity
    from companion.operations.procedure_row import refuse_during_procedure
    from companion.operations.recorded import RECORD_KIND, apply_line, read_line
    from companion.operations.state import load_game, save_game
    from companion.rules.effect_line import describe_line

    if action not in ACTIVITY_KINDS:
        raise Refused(f"Only foraging, fishing, mining and delving are played at the table "
                      f"this way; not '{action}'.")
    offered = [o for o in day_ops.available_actions(campaign, name)
               if o.action == action and o.target == feature]
    if not offered:
        raise Refused(f"{name} cannot {action} at a {feature} here.")
    if not offered[0].at_table:
        raise Refused(offered[0].refusal or f"{name} cannot {action} now.")
    effects = read_line(campaign, line)
    kind = ACTIVITY_KINDS[action]
    record: dict[str, Any] = {"card": card.strip(), "kind": kind, "line": line.strip(),
                              "effects": [e.as_data() for e in effects],
                              "activity": action, "feature": feature}
    words = campaign.content.features[feature].name.lower()
    with campaign.write(RECORD_KIND, f"{name} {_VERBS[action]} at the table",
                        record=record) as session:
        refuse_during_procedure(session, f"{action.title()} at the table")
        _game, actor = begin_activity(campaign, session, name, feature, FeatureAction(action))
        name = actor.name
        before = load_game(session, campaign.content)
        after, notes = apply_line(campaign, before, effects, character or name)
        save_game(session, campaign.content, before, after)
        spent = offered[0].cost
        with_card = f" ({card.strip()})" if card.strip() else ""
        text = (f"{name} {_VERBS[action]} at the {words}{with_card}, played at the table "
                f"({spent} energy): {describe_line(effects)}"
                + "".join(f" {n}" for n in notes))
        session.info["journal_text"] = text
    return Changes(summary=text, characters=True, society=True, journal=True, valley=True)
