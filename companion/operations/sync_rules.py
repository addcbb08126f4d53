"""The rules an operation from another machine must keep on the merged campaign (issue 38:
"only true clashes, or an operation the rules refuse on the merged state, become
conflicts").

Two machines playing apart each keep the rules on their own game; their operations
travel as row images, so an operation whose rows apply cleanly may still leave a game
the rules refuse where the other machine's play is in too: a Night begun on a valley
where a hex was explored, merged onto one where that exploring waits as a conflict,
holds a table naming a hex the valley lacks (its end could not be written: seed 6010 of
the shared-campaign harness). The merge (``sync_merge.merge``, through
``store.replay.Replayer``) asks these rules after writing each operation; one that
refuses makes the operation wait as a conflict, in words, exactly as a clash does.

**Pure.** Each rule reads only the merged campaign's rows and the operation's changes,
never which machine replays it, the order its files arrived in, or anything this machine
keeps for itself. An operation a machine made by playing was made on a game its own
operations' checks allowed, and every machine that replays it on that same game reaches
the same verdict, so machines holding the same operations hold the same campaign. So a
rule holds only what the operations themselves enforce (never a new bound), and only
where an operation's changes could break it.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from sqlalchemy import Connection, text

from companion.content import Content
from companion.operations.procedure_row import PROCEDURE_ROW
from companion.rules.errors import IllegalAction
from companion.rules.night.facts import NightTable
from companion.rules.night_codec import decode
from companion.store.replay import Rule, RulesRefuse

RowChanges = list[dict[str, Any]]
"""An operation's row changes as the replay wrote them."""

WATCHED = frozenset({"procedure_state", "valley_hex", "character"})
"""What a procedure's saved state names lives in these tables: a change to one of them
re-checks the procedure in progress."""


def _rows(conn: Connection, sql: str, **params: Any) -> list[Any]:
    return list(conn.execute(text(sql), params))


def _json(value: Any) -> Any:
    return json.loads(value) if isinstance(value, str) else value


def night_tiles(table_state: Any) -> set[str]:
    """Every hex the Night's saved table names: where the characters stand, the
    shelter, fire and lore tokens, the outposts, the features and shelters it read, the
    behemoth. Its end writes these back (``state.save_game``), so each must be a hex of
    the valley."""
    table: NightTable = decode(NightTable, table_state)
    named: set[str] = {str(c.hex) for c in table.game.characters if c.hex}
    tokens = table.game.tokens
    named |= {str(h) for h in (*tokens.shelters, *tokens.fires, *tokens.lore)}
    named |= {str(o.hex) for o in table.game.outposts if o.hex}
    named |= {str(h) for h in (*table.hex_features, *table.shelter_hexes,
                               *table.structure_shelter_hexes)}
    if table.behemoth is not None and table.behemoth.hex:
        named.add(str(table.behemoth.hex))
    return named


def procedure_names_what_is_there(conn: Connection, changes: RowChanges
                                  ) -> list[tuple[str, int]]:
    """The procedure in progress names only what the campaign holds: its actor a
    character in play (an activity's end writes the actor's outcome), and the Night's
    table only hexes of the valley (its end writes tokens and characters on them).

    Locally no operation breaks this (the Night reads its table from the valley; the
    characters and the valley wait while a procedure is in progress; undo steps back
    the procedure first), so only a merged operation can."""
    if not any(c["table"] in WATCHED for c in changes):
        return []
    found = _rows(conn, "SELECT id, state FROM procedure_state WHERE kind = :k",
                  k=PROCEDURE_ROW)
    if not found:
        return []
    row_id, saved = int(found[0][0]), _json(found[0][1]) or {}
    kind = str(saved.get("kind", "procedure")).replace("_", " ").replace("night", "Night")
    in_play = {str(n) for (n,) in _rows(
        conn, "SELECT name FROM character WHERE status != 'legend'")}
    actor = saved.get("actor")
    if isinstance(actor, str) and actor not in in_play:
        raise RulesRefuse(f"the {kind} in progress is {actor}'s, who is not in play in "
                          "the campaign as merged here", [("procedure_state", row_id)])
    procedure = saved.get("procedure")
    if isinstance(procedure, dict) and procedure.get("kind") == "night" \
            and "table" in procedure:
        try:
            named = night_tiles(procedure["table"])
        except (IllegalAction, LookupError, TypeError, ValueError):
            raise RulesRefuse(f"the saved {kind} cannot be read on the campaign as merged "
                              "here", [("procedure_state", row_id)]) from None
        tiles = {str(t) for (t,) in _rows(
            conn, "SELECT tile_id FROM valley_hex WHERE tile_id IS NOT NULL")}
        missing = sorted(named - tiles)
        if missing:
            hexes = ", ".join(missing)
            raise RulesRefuse(
                f"the {kind}'s table names the hex{'es' if len(missing) > 1 else ''} "
                f"{hexes}, which the valley here lacks (its exploring waits)",
                [("procedure_state", row_id)])
    return []


Bound = tuple[str, str, Callable[[Content], int], str]
"""(table, column, its least value from the rules, what it is in words)."""

BOUNDS: tuple[Bound, ...] = (
    # Rulebook: Energy: spending stops at 0 (effects and exploring floor it at 0).
    ("character", "energy", lambda content: 0, "energy"),
    # Rulebook: Tracks > Unrest: the dial never turns below 0.
    ("society", "unrest", lambda content: 0, "unrest"),
    # Rulebook: Tracks > Activity: it only increases from 0.
    ("society", "activity", lambda content: 0, "activity"),
    # Rulebook: Tracks > Lore: never below the rules' minimum (spending is refused).
    ("society", "lore", lambda content: content.rules.lore.minimum, "lore"),
)


def counts_in_range(content: Content) -> Rule:
    """The counts the rules bound stay in range on the rows an operation wrote: energy,
    unrest, activity, lore (the bounds the operations themselves keep)."""

    def rule(conn: Connection, changes: RowChanges) -> list[tuple[str, int]]:
        for change in changes:
            after = change["after"]
            if after is None:
                continue
            for table, column, least, words in BOUNDS:
                if change["table"] != table or column not in after:
                    continue
                value = after[column]
                if isinstance(value, int) and value < least(content):
                    raise RulesRefuse(
                        f"it leaves {_who(conn, table, change['id'])}{words} at {value}, "
                        f"below {least(content)}", [(table, int(change["id"]))])
        return []

    return rule


def _who(conn: Connection, table: str, row_id: int) -> str:
    if table != "character":
        return "the "
    found = _rows(conn, "SELECT name FROM character WHERE id = :i", i=row_id)
    return f"{found[0][0]}'s " if found else "a character's "


def merged_state_rules(content: Content) -> tuple[Rule, ...]:
    """The game's rules an operation must keep on the merged campaign (beside the
    schema's and one procedure at a time, ``sync_merge.RULES``)."""
    return (procedure_names_what_is_there, counts_in_range(content))

