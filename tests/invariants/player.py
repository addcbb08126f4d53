"""A seeded random player of whole campaigns, through the entry points players use.

Two fronts, as at a real table:

- **the CLI**, ``companion.cli.main([...])`` run in-process, as a terminal would;
- **the app**: the very calls the GUI's panels make where they differ from the CLI's
  (:data:`APP_CALLS` names each panel and its call), on the campaign opened as the
  window opens it.

Every operation is one row of :data:`OPERATIONS`: a name, a weight, and a function that
picks its arguments from what the campaign holds now (the player "looks at the table" by
reading the file's rows) and plays it. Random play is expected to be refused often; a
refusal must change nothing, and the player checks that on every call. Every call must
end in an answer or a refusal, never a traceback.

To add an operation: write ``def op_xyz(p: Player) -> None`` that plays it through
``p.cli(...)`` (or ``p.app(...)`` for a GUI panel's own call) and add a row to
:data:`OPERATIONS`. The whole-campaign checks (tests/invariants/checks.py) then hold it
to every promise of the campaign file.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import random
import sqlite3
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

import companion.cli
from companion.cli import main

FIXTURES = Path(__file__).resolve().parents[1] / "operations" / "fixtures"
HISTORY = ("journal_event", "save_point", "sync_state", "sync_op", "sync_row")
"""Not the game: the history, and a shared campaign's bookkeeping (issue 38)."""
# The campaign's tables: not SQLite's, nor the store's log_mark (a new mark every commit,
# by which a write-ahead log proves it is the file's own: issue 35).
CAMPAIGN_TABLES = "type='table' AND name NOT LIKE 'sqlite_%' AND name != 'log_mark'"
DRAW_KINDS = ("discovery_cards", "forage_cards", "fishing_cards", "delving_cards",
              "night_cards")


# --- reading the file -------------------------------------------------------------------


def connect(path: Path) -> sqlite3.Connection:
    """A read-only look at the campaign file (write-ahead log included)."""
    return sqlite3.connect(f"file:{quote(str(path))}?mode=ro", uri=True)


def _value(value: Any) -> Any:
    """A JSON column's value, not its spelling (an import writes keys sorted)."""
    if isinstance(value, str) and value[:1] in ("[", "{"):
        try:
            return json.dumps(json.loads(value), sort_keys=True)
        except ValueError:
            return value
    return value


def rows(path: Path) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table, ordered by id: the campaign as stored (JSON columns
    compared by value)."""
    conn = connect(path)
    try:
        tables = [r[0] for r in conn.execute(
            f"SELECT name FROM sqlite_master WHERE {CAMPAIGN_TABLES} ORDER BY name")]
        return {t: [tuple(_value(v) for v in row)
                    for row in conn.execute(f'SELECT * FROM "{t}" ORDER BY id')]
                for t in tables}
    finally:
        conn.close()


def look(path: Path) -> dict[str, list[tuple[Any, ...]]]:
    """What the player sees after each call: every game row and save point, and of the
    journal each event's id, time, kind and undo/redo marks (its change images are read
    whole by the checks that need them: restores, export/import)."""
    conn = connect(path)
    try:
        tables = [r[0] for r in conn.execute(
            f"SELECT name FROM sqlite_master WHERE {CAMPAIGN_TABLES} ORDER BY name")]
        # JSON columns by value, as rows() reads them: an imported or shared campaign's
        # are written with their keys in another order than the game writes them.
        return {t: conn.execute(
            "SELECT id, time, kind, undone, redoable FROM journal_event ORDER BY id")
            .fetchall() if t == "journal_event" else
            [tuple(_value(v) for v in row)
             for row in conn.execute(f'SELECT * FROM "{t}" ORDER BY id')]
            for t in tables}
    finally:
        conn.close()


def game_rows(table: dict[str, list[tuple[Any, ...]]]) -> dict[str, list[tuple[Any, ...]]]:
    """The game's tables only (the journal and save points are history)."""
    return {t: r for t, r in table.items() if t not in HISTORY}


def digest(table: dict[str, list[tuple[Any, ...]]]) -> str:
    return hashlib.sha256(repr(sorted(table.items())).encode()).hexdigest()


def diff(a: dict[str, list[tuple[Any, ...]]], b: dict[str, list[tuple[Any, ...]]],
         limit: int = 6) -> str:
    """The first rows that differ, table by table (for a failure's message)."""
    out: list[str] = []
    for t in sorted(set(a) | set(b)):
        ra, rb = dict((r[0], r) for r in a.get(t, [])), dict((r[0], r) for r in b.get(t, []))
        for key in sorted(set(ra) | set(rb)):
            if ra.get(key) != rb.get(key):
                out.append(f"{t} id {key}:\n  {ra.get(key)}\n  {rb.get(key)}")
                if len(out) >= limit:
                    return "\n".join(out)
    return "\n".join(out) or "(no difference)"


def last_event(path: Path) -> tuple[int, str]:
    """(id, time) of the newest journal event: names one state of one timeline."""
    conn = connect(path)
    try:
        row = conn.execute("SELECT id, time FROM journal_event ORDER BY id DESC LIMIT 1"
                           ).fetchone()
    finally:
        conn.close()
    return (int(row[0]), str(row[1])) if row else (0, "")


class PlayerFailure(AssertionError):
    """An invariant broke; the message says which, with the seed and the last calls."""


@dataclass
class Player:
    """One campaign played at random from ``seed`` in ``folder``."""

    seed: int
    folder: Path
    content: Any
    rng: random.Random = field(init=False)
    path: Path = field(init=False)
    table: dict[str, list[tuple[Any, ...]]] = field(default_factory=dict)
    states: dict[tuple[int, str], str] = field(default_factory=dict)
    counts: Counter[str] = field(default_factory=Counter)
    history: list[str] = field(default_factory=list)
    start_rows: dict[str, list[tuple[Any, ...]]] = field(default_factory=dict)
    serial: int = 0
    reasons: Counter[str] = field(default_factory=Counter)
    box: bool = False
    """A "My own box" campaign (issue 25): the rules and what the table types in; the
    sample's ids the other operations type are then never resolved (refused)."""
    typed: dict[str, list[str]] = field(default_factory=dict)
    """Box: the cards typed from the table so far, by kind (traits, mantles, hexes)."""
    _columns: dict[str, list[str]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)
        self.path = self.folder / f"play-{self.seed}.stonesaga"

    # -- calling the program --------------------------------------------------------

    def fail(self, what: str) -> PlayerFailure:
        tail = "\n".join(self.history[-12:])
        return PlayerFailure(f"seed {self.seed}: {what}\nlast calls:\n{tail}")

    def cli(self, *argv: Any, op: str | None = None, walk: bool = False
            ) -> tuple[int, str, str]:
        """``companion ARGV`` in-process; a refusal must change nothing (``walk``: a walk
        of several answers saves each answer at once, so a refusal keeps the answers
        before it, each its own journal event, and changes nothing else)."""
        args = [str(a) for a in argv]
        before = self.table
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main(args)
            except SystemExit as stop:
                code = int(stop.code or 0)
            except Exception as exc:  # noqa: BLE001 - a traceback is the failure
                raise self.fail(f"companion {' '.join(args)} raised {exc!r}") from exc
        said = " ".join((out.getvalue() or err.getvalue()).split())
        if code:
            self.reasons[f"{op or args[0]}: {said[:90]}"] += 1
        self.history.append(f"[{code}] companion {' '.join(args)} -> {said[:200]}")
        if "Traceback" in err.getvalue() or code not in (0, 1, 2):
            raise self.fail(f"companion {' '.join(args)}: exit {code}\n{err.getvalue()}")
        self.after(op or args[0], refused=code != 0, before=before, walk=walk)
        return code, out.getvalue(), err.getvalue()

    def js(self, *argv: Any) -> dict[str, Any] | None:
        """A command's ``--json`` answer, None if refused."""
        code, out, _ = self.cli(*argv, "--json")
        if code != 0:
            return None
        data: dict[str, Any] = json.loads(out)
        return data

    @contextlib.contextmanager
    def opened(self) -> Iterator[Any]:
        """The campaign open as the window opens it (closed afterwards)."""
        from companion import operations

        campaign = operations.open_campaign(self.path)
        try:
            yield campaign
        finally:
            campaign.close()

    def app(self, op: str, call: Callable[[Any], Any]) -> bool:
        """One GUI panel's call on the open campaign; a refusal must change nothing."""
        from companion.operations import Refused

        before = self.table
        refused = False
        with self.opened() as campaign:
            try:
                result = call(campaign)
                said = getattr(result, "summary", result)
            except Refused as refusal:
                refused, said = True, f"refused: {refusal}"
            except Exception as exc:  # noqa: BLE001 - a traceback is the failure
                raise self.fail(f"app {op} raised {exc!r}") from exc
        self.history.append(f"[app] {op} -> {str(said)[:160]}")
        self.after(op, refused=refused, before=before)
        return not refused

    def after(self, op: str, *, refused: bool, before: dict[str, list[tuple[Any, ...]]],
              walk: bool = False) -> None:
        """Look at the file again; a refusal changed nothing; remember this state."""
        self.table = look(self.path) if self.path.exists() else {}
        self.counts[f"{op} {'refused' if refused else 'done'}"] += 1
        if refused and before and self.table != before and not (
                self.entered_only(before) or walk and self.answers_only(before)):
            raise self.fail(f"a refused {op} changed the campaign:\n"
                            f"{diff(before, self.table)}")
        if self.table:
            self.states[last_event(self.path)] = digest(self.table)

    def entered_only(self, before: dict[str, list[tuple[Any, ...]]]) -> bool:
        """A card entered on the spot (``--enter-card``) is its own operation, kept when
        the step it was entered for is then refused: the only change allowed (the pack
        versions the campaign records, the card carried in the file (``own_card``), its
        journal event, the redo stack cleared)."""
        kept = ("campaign", "journal_event", "own_card", *HISTORY)
        same = {t: r for t, r in self.table.items() if t not in kept} \
            == {t: r for t, r in before.items() if t not in kept}
        return same and self.new_events_only(before, ("content.card",))

    def answers_only(self, before: dict[str, list[tuple[Any, ...]]]) -> bool:
        """Every change since ``before`` is journalled as an answered step (or a card
        entered for it): the answers a walk saved before its refused one."""
        return self.new_events_only(before, ("procedure.step", "content.card"))

    def new_events_only(self, before: dict[str, list[tuple[Any, ...]]],
                        kinds: tuple[str, ...]) -> bool:
        """The journal since ``before`` holds only new events of ``kinds``, and the older
        events are as they were but for the redo stack, which a new operation clears."""
        old = {e[0]: e[:4] for e in before.get("journal_event", [])}
        now = self.table.get("journal_event", [])
        new = [e for e in now if e[0] not in old]
        kept = all(old[e[0]] == e[:4] for e in now if e[0] in old) and \
            len(now) - len(new) == len(old)
        return kept and bool(new) and all(e[2] in kinds and not e[3] for e in new)

    # -- looking at the table -----------------------------------------------------------

    def columns(self, table: str) -> list[str]:
        if table not in self._columns:
            conn = connect(self.path)
            try:
                self._columns[table] = [
                    r[1] for r in conn.execute(f'PRAGMA table_info("{table}")')]
            finally:
                conn.close()
        return self._columns[table]

    def records(self, table: str) -> list[dict[str, Any]]:
        names = self.columns(table)
        return [dict(zip(names, r, strict=True)) for r in self.table.get(table, [])]

    def characters(self) -> list[dict[str, Any]]:
        return self.records("character")

    def names(self) -> list[str]:
        """The characters in play (a legend or a retired one is no longer asked for)."""
        return [str(c["name"]) for c in self.characters()
                if c["status"] in ("active", "incapacitated")]

    def procedure(self, kind: str | None = None) -> dict[str, Any] | None:
        for row in self.records("procedure_state"):
            if kind is None or row["kind"] == kind:
                row = dict(row)
                row["state"] = json.loads(row["state"]) if row["state"] else {}
                return row
        return None

    def discovery_due(self) -> dict[str, Any] | None:
        return self.procedure("discovery_due")

    def walking(self) -> bool:
        return any(r["kind"] != "discovery_due" for r in self.records("procedure_state"))

    def pick(self, items: list[Any] | tuple[Any, ...]) -> Any:
        return self.rng.choice(list(items))

    def chance(self, p: float) -> bool:
        return self.rng.random() < p

    def someone(self) -> str | None:
        names = self.names()
        return self.pick(names) if names else None

    def card_name(self, card_id: str) -> str | None:
        for kind in DRAW_KINDS:
            card = getattr(self.content, kind, {}).get(card_id)
            if card is not None:
                return str(getattr(card, "name", "") or "") or None
        return None

    def typed_card(self, card_id: str) -> str:
        """A card as a player types it: its id, its name in any case, or the drop-down's
        "ID Name" text."""
        name = self.card_name(card_id)
        how = self.rng.randrange(4)
        if name and how == 1:
            return name.lower()
        if name and how == 2:
            return f"{card_id} {name}"
        if name and how == 3:
            return name.upper()
        return card_id

    def new_card_file(self, kind: str, like: list[str] | None = None
                      ) -> tuple[str, Path] | None:
        """A card "entered on the spot": a copy of one of ``kind`` (one of ``like``, the
        cards the step could draw) under a new id."""
        import yaml

        cards = getattr(self.content, kind, {})
        known = [c for c in (like or sorted(cards)) if c in cards]
        if not known:
            return None
        model = cards[self.pick(known)]
        self.serial += 1
        data = model.model_dump(mode="json", exclude_none=True)
        prefix = str(data["id"]).rstrip("0123456789")
        data["id"] = f"{prefix}{900 + self.seed % 50}{self.serial:03d}"
        if "name" in data:
            data["name"] = f"Table Card {self.seed}-{self.serial}"
        out = self.folder / f"card-{self.seed}-{self.serial}.yaml"
        out.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
        return str(data["id"]), out


# --- the operations ----------------------------------------------------------------------


ABILITIES = ("might", "dexterity", "awareness", "conviction")
EFFECTS = ("gain flint 1", "gain sinew 1", "gain wood 2", "gain fiber 1", "gain clay 1",
           "item stone-knife", "item sling", "suffer minor_injury", "gain 1 energy",
           "gain meat 1", "gain root 1", "suffer major_injury",
           # The effect words the CLI and the Apply Effects dialog share (issue 26).
           "place fire", "place shelter", "place lore 2", "boost might major",
           "boost dexterity minor", "mark spiral")


def op_new_character(p: Player) -> None:
    """Character Creation: five dice typed (or rolled by the app), abilities assigned."""
    c = p.content
    name = p.pick(["Ash", "Bryn", "Cor", "Dun", "Eko", "Fen", "Gale"])
    traits = p.typed.get("traits") if p.box else sorted(c.traits)
    mantle = p.pick(p.typed.get("mantles") if p.box else sorted(c.mantles))
    trait = p.pick(traits)
    start = [str(r["tile_id"]) for r in p.records("valley_hex") if r["explored"]][:1] or ["E01"]
    dice = sorted((p.rng.randint(1, 6) for _ in range(5)), reverse=True)
    kept = dice[:4]
    order = p.rng.sample(ABILITIES, 4)
    argv = ["character", "create", p.path, "--name", name, "--mantle", mantle,
            "--trait", trait, "--hex", start[0]]
    if sum(kept) <= 11:
        argv += ["--trait", p.pick([t for t in sorted(traits or c.traits) if t != trait]
                                   or sorted(c.traits))]
    argv += ["--dice", *map(str, dice),
             "--assign", ",".join(f"{a}={v}" for a, v in zip(order, kept, strict=True))]
    if p.box and p.chance(0.3):
        # Issue 36 item 3: a trait the box prints beyond the rulebook's, typed once (its
        # own undoable entry in the owner's pack), then taken.
        argv += ["--new-trait", p.pick(["Stubborn", "Patient", "Wary"])]
        argv.remove(trait)
        argv.remove("--trait")
    p.cli(*argv, op="character create")


def _day_argv(p: Player, name: str, option: dict[str, Any]) -> list[str]:
    action, target = option["action"], option["target"]
    argv = ["act", p.path, name, action]
    if target is not None:
        argv.append(str(target))
    if action == "build_outpost":
        argv += ["--outpost-name", f"Camp {p.rng.randrange(100)}"]
        others = [n for n in p.names() if n != name]
        if others and p.chance(0.5):
            argv += ["--contribute", f"{p.pick(others)}={p.rng.randint(1, 2)}"]
    if action in ("process", "revive"):
        argv += ["--token", str(p.rng.randint(1, 3))]
    if action == "craft":
        argv += ["--token", str(p.rng.randint(1, 3)), "--token", str(p.rng.randint(1, 4))]
        if p.chance(0.3):
            argv += ["--turns", str(p.rng.randrange(4)), str(p.rng.randrange(4))]
    return argv


def op_day_action(p: Player) -> None:
    """Day Phase > Actions: one action the character could take (now and then one it
    cannot, which must be refused)."""
    name = p.someone()
    if name is None:
        return
    listed = p.js("actions", p.path, name)
    if not listed:
        return
    actions = listed["actions"]
    may = [n for n in listed["turn"].get("may_act", []) if n] or [name]
    if name not in may and p.chance(0.8):
        name = p.pick(may)
        listed = p.js("actions", p.path, name)
        if not listed:
            return
        actions = listed["actions"]
    legal = [a for a in actions if a["refusal"] is None]
    pool = legal if legal and p.chance(0.85) else actions
    if not pool:
        return
    option = p.pick(pool)
    if option["action"] == "pass" and p.chance(0.6) and len(pool) > 1:
        option = p.pick([a for a in pool if a["action"] != "pass"])
    p.cli(*_day_argv(p, name, option), "--json", op=f"act {option['action']}")


def op_pass(p: Player) -> None:
    """Day Phase: pass for the rest of the Day."""
    name = p.someone()
    if name is not None:
        p.cli("act", p.path, name, "pass", op="act pass")


def _answer(p: Player, step: dict[str, Any], kind: str | None) -> list[str]:
    """The walk's arguments answering one step, the way a table would."""
    decider, options = step["decider"], list(step.get("options") or [])
    if decider == "player":
        if not options:
            return ["--choice", "nonsense"]
        if p.chance(0.05):
            return ["--choice", "no such option"]
        if p.chance(0.2):  # by the number it is listed under
            return ["--choice", str(p.rng.randint(1, len(options)))]
        return ["--choice", str(p.pick(options))]
    if decider == "dice":
        count = max(1, int(step.get("count") or 1))
        if p.chance(0.4):
            return ["--choice", "app"]
        return ["--choice", " ".join(str(p.rng.randint(1, 6)) for _ in range(count))]
    if decider in ("card", "chip"):
        roll = p.rng.random()
        if roll < 0.3:
            return ["--choice", "app"]
        if decider == "card" and roll < 0.37 and kind is not None:
            made = p.new_card_file(kind, options)
            if made is not None:
                card_id, card_file = made
                p.counts["card entered on the spot"] += 1
                return ["--enter-card", str(card_file), "--choice", card_id]
        if not options:
            return ["--choice", "app"]
        pick = str(p.pick(options))
        if decider == "card":
            return ["--choice", p.typed_card(pick)]
        return ["--choice", pick if p.chance(0.7) else str(options.index(pick) + 1)]
    return ["--choice", "app"]


STEP_KINDS = {"foraging": "forage_cards", "fishing": "fishing_cards",
              "delving": "delving_cards", "night": "night_cards"}


def op_step(p: Player) -> None:
    """Walking a procedure: answer the step in progress (typed at the table or by the
    app), or start the Night when the Day is over."""
    shown = p.js("step", p.path)
    procedure = shown.get("procedure") if shown else None
    if not procedure:
        p.cli("night", p.path, "--json", op="night")
        return
    step = procedure.get("step")
    if not step:
        return
    kind = STEP_KINDS.get(str(procedure.get("kind")))
    p.cli("step", p.path, *_answer(p, step, kind), "--json", op=f"step {step['decider']}")


def op_walk_by_app(p: Player) -> None:
    """A whole procedure answered in one go: the app draws and rolls, players pick."""
    if not p.walking():
        return
    answers: list[str] = []
    for _ in range(p.rng.randint(1, 6)):
        answers += ["--choice", "app"] if p.chance(0.5) else ["--choice", "1"]
    p.cli("step", p.path, *answers, "--app", "--json", op="step --app", walk=True)


def _discovery_card(p: Player) -> str:
    return str(p.pick(sorted(p.content.discovery_cards)))


def _die_for(p: Player, card: str) -> list[str]:
    from companion.operations.exploration import discovery_tests

    class _C:  # discovery_tests reads only .content
        content = p.content

    tests = discovery_tests(_C(), _resolved(p, card))  # type: ignore[arg-type]
    if tests or p.chance(0.1):
        return ["--die", str(p.rng.randint(1, 6))] if p.chance(0.8) else ["--app-rolls"]
    return []


def op_discover_cli(p: Player) -> None:
    """Actions > Move; Explore: the Discovery card due, at the terminal: typed by id or
    name (or the drop-down's text), entered on the spot, or drawn by the app."""
    due = p.discovery_due()
    who = str(due["state"].get("character")) if due else p.someone()
    argv = ["discover", p.path]
    if who and p.chance(0.5):
        argv.append(who)
    roll = p.rng.random()
    if roll < 0.3:
        p.cli(*argv, op="discover by app")
        return
    if roll < 0.4:
        made = p.new_card_file("discovery_cards")
        if made is not None:
            card_id, card_file = made
            p.counts["card entered on the spot"] += 1
            p.cli(*argv, "--enter-card", str(card_file), *_die_for(p, card_id),
                  op="discover entered")
            return
    card = _discovery_card(p)
    p.cli(*argv, "--card", p.typed_card(card), *_die_for(p, card), op="discover typed")


def _resolved(p: Player, typed: str) -> str:
    from companion.operations.cards import resolve_card_id

    return resolve_card_id(p.content, "discovery_cards", typed)


def op_discover_valley_panel(p: Player) -> None:
    """The Valley map's Discovery panel (companion/ui/views/valley.py draw_discovery):
    its call, with what its card field hands on; or its "Draw in the app"."""
    from companion.operations.exploration import discovery_tests, draw_discovery

    if p.chance(0.25):
        p.app("valley panel: draw in the app", lambda c: draw_discovery(c, card=None))
        return
    typed = p.typed_card(_discovery_card(p))

    def call(campaign: Any) -> Any:
        # The panel's card field hands on what was typed or picked; its die dialog asks
        # when the card has a test (valley.py draw_discovery, day_dialogs.ask_discovery_die)
        tests = discovery_tests(campaign, _resolved(p, typed))
        rolls = (p.rng.randint(1, 6),) if tests else ()
        return draw_discovery(campaign, card=typed, rolls=rolls)

    p.app("valley panel: card typed", call)


def op_discover_day_panel(p: Player) -> None:
    """The Day panel's Discovery box (companion/ui/views/day.py _use_discovery)."""
    from companion.operations.exploration import discovery_tests, draw_discovery

    due = p.discovery_due()
    name = str(due["state"].get("character")) if due else (p.someone() or "Nobody")
    card = p.typed_card(_discovery_card(p))

    def call(campaign: Any) -> Any:
        tests = discovery_tests(campaign, _resolved(p, card))
        rolls = (p.rng.randint(1, 6),) if tests else ()
        return draw_discovery(campaign, name=name, card=card, rolls=rolls)

    p.app("day panel: discovery typed", call)


def op_valley_move(p: Player) -> None:
    """The Valley map's move (drag a piece, confirm): ``move_and_discover``."""
    from companion.operations.exploration import move_and_discover

    name = p.someone()
    hexes = [str(r["tile_id"]) for r in p.records("valley_hex") if r["tile_id"]]
    if name is None or not hexes:
        return
    target = p.pick(hexes)
    p.app("valley panel: move", lambda c: move_and_discover(c, name=name, to_hex=target))


def op_effect(p: Player) -> None:
    """A card read at the table: its effects applied to a character."""
    name = p.someone()
    if name is not None:
        chosen = p.rng.sample(EFFECTS, p.rng.randint(1, 2))
        p.cli("effect", p.path, name, *chosen, op="effect")


def op_exchange(p: Player) -> None:
    """Exchanges (no energy): give a token or an item, store or take at an outpost."""
    names = p.names()
    if len(names) < 1:
        return
    a = p.pick(names)
    where = {str(c["name"]): c["hex_id"] for c in p.characters()}
    near = [n for n in names if n != a and where[n] == where[a]] or \
        [n for n in names if n != a]
    how = p.rng.randrange(4)
    if how == 0 and near:
        b = p.pick(near)
        p.cli("exchange", "give", p.path, a, b, "--token", str(p.rng.randint(1, 3)),
              op="exchange give")
    elif how == 1 and near:
        b = p.pick(near)
        p.cli("exchange", "give", p.path, a, b, "--item",
              p.pick(["stone-knife", "Stone Knife", "sling"]), op="exchange give")
    elif how == 2:
        p.cli("exchange", "store", p.path, a, "--token", str(p.rng.randint(1, 3)),
              op="exchange store")
    else:
        p.cli("exchange", "take", p.path, a, "--token", str(p.rng.randint(1, 3)),
              op="exchange take")
    if p.chance(0.3):
        p.cli("exchange", "excess", p.path, a, "--lose", op="exchange excess")


def op_legend(p: Player) -> None:
    """Legend cards: draw, choose, use for a trait, return."""
    name = p.someone()
    if name is None:
        return
    what = p.rng.randrange(5)
    number = str(p.rng.randint(1, 3))
    if what == 4:
        # Fillable Cards: a mark written by hand on a character or a Legend card.
        mark = p.pick(["spiral", "wave", "antler"])
        if p.chance(0.5):
            p.cli("legend", "mark", p.path, mark, "--character", name, op="legend mark")
        else:
            p.cli("legend", "mark", p.path, mark, "--legend", number, op="legend mark")
    elif what == 0:
        p.cli("legend", "draw", p.path, name, op="legend draw")
    elif what == 1:
        p.cli("legend", "choose", p.path, name, number, op="legend choose")
    elif what == 2:
        p.cli("legend", "use", p.path, name, number, "--trait",
              p.pick(sorted(p.content.traits)), op="legend use")
    else:
        p.cli("legend", "return", p.path, name, number, op="legend return")


def op_society(p: Player) -> None:
    """Society dials changed by a card read at the table."""
    dial = p.pick(["unrest", "activity", "gain-lore", "spend-lore"])
    p.cli("society", p.path, dial, str(p.rng.randint(1, 3)), "--reason", "a card",
          op=f"society {dial}")


def op_test(p: Player) -> None:
    """Basic Concepts > Tests: a test with the die typed at the table."""
    name = p.someone()
    if name is not None:
        p.cli("test", p.path, name, p.pick(ABILITIES), str(p.rng.randint(2, 9)),
              "--die", str(p.rng.randint(1, 6)), op="test")


def op_goal(p: Player) -> None:
    """Goals: complete one of the goals in play (now and then one that is not)."""
    status = p.js("status", p.path)
    goals = [g for g in (status or {}).get("status", {}).get("goals", [])
             if g["state"] in ("vital", "epoch")]
    if goals and p.chance(0.8):
        goal = p.pick(goals)
        typed = goal["name"] if p.chance(0.5) else goal["goal"]
    else:
        typed = p.pick(sorted(p.content.goals)) if p.content.goals else "G-none"
    p.cli("challenge", "goal", p.path, typed, op="challenge goal")


def op_challenge(p: Player) -> None:
    """The challenge lifecycle: end it with an outcome, start the next, a new epoch,
    claim retained supplies."""
    how = p.rng.randrange(4)
    if how == 0:
        p.cli("challenge", "end", p.path, str(p.pick([100, 104, 110, 120, 220])),
              op="challenge end")
    elif how == 1:
        from companion.operations import eligible_challenges

        with p.opened() as campaign:  # what the New Challenge dialog offers
            offered = list(eligible_challenges(campaign))
        pool = offered if offered and p.chance(0.8) else sorted(p.content.challenges)
        # Each player may choose a new mantle, and a mantle power after the first
        # challenge (Rulebook: Determine Starting Hex; Continuing Play > Mantle Power).
        chosen: list[str] = []
        names = p.names()
        if names and p.chance(0.5):
            mantles = p.rng.sample(sorted(p.content.mantles),
                                   min(len(names), len(p.content.mantles)))
            chosen += [f"--mantle={n}={m}" for n, m in zip(names, mantles, strict=False)]
        if names and p.content.mantle_powers and p.chance(0.3):
            chosen.append(f"--mantle-power={p.pick(names)}="
                          f"{p.pick(sorted(p.content.mantle_powers))}")
        p.cli("challenge", "start", p.path, p.pick(pool), *chosen, op="challenge start")
    elif how == 2:
        p.cli("epoch", "new", p.path, op="epoch new")
    else:
        name = p.someone()
        if name:
            p.cli("challenge", "claim", p.path, name, "1", op="challenge claim")


def op_typed_challenge(p: Player) -> None:
    """A challenge card from the box the app doesn't know yet (issue 25 part 5): End
    Challenge names it as looming by the id on its card (the card's own outcome, or one
    typed), then Start Challenge types its card (a YAML file, or the card flags), saved
    with its goals into the own pack and started in one operation."""
    status = (p.js("status", p.path) or {}).get("status", {})
    looming = [str(r["challenge_id"]) for r in p.records("looming_challenge")]
    typed = [c for c in looming if c.startswith("CT")]
    p.serial += 1
    if status.get("challenge_id"):
        outcome = [] if p.chance(0.5) else [str(p.pick([301, 412, 104]))]
        p.cli("challenge", "end", p.path, *outcome, "--looming", f"CT{p.seed}x{p.serial}",
              "--json", op="challenge end (typed looming)")
        return
    # A looming one typed at the last end; or (the society's first game, else refused by
    # the priority rule) a card not named by any outcome.
    card_id = p.pick(typed) if typed and p.chance(0.9) else f"CT{p.seed}x{p.serial}"
    goal = f"Table Goal {p.seed}-{p.serial}: Hold {p.rng.randint(1, 6)} meat."
    events = [f"{p.rng.randint(2, 8)} societal The folk quarrel: unrest 1",
              f"{p.rng.randint(9, 14)}..{p.rng.randint(15, 18)} ongoing Cold nights: "
              "energy -1", "20 immediate Winter comes."]
    priority = p.rng.randint(0, 4)
    if p.chance(0.5):
        import yaml

        card = {"id": card_id, "name": f"Typed Challenge {card_id}", "priority": priority,
                "starting_omen": p.pick(["sun", "moon", "cloud"]), "vital_goals": [goal],
                "events": events, "outcome": p.rng.randint(100, 999)}
        out = p.folder / f"challenge-{card_id}.yaml"
        out.write_text(yaml.safe_dump(card, sort_keys=False), encoding="utf-8")
        p.cli("challenge", "start", p.path, "--enter-card", out, "--json",
              op="challenge start --enter-card")
    else:
        flags = [a for e in events for a in ("--event", e)]
        p.cli("challenge", "start", p.path, "--card-id", card_id, "--name",
              f"Typed Challenge {card_id}", "--priority", priority, "--omen", "stars",
              "--vital", goal, "--vital", "First Hearth", *flags, "--json",
              op="challenge start --card-id")


PIP_COLOURS = ("red", "blue", "yellow", "purple", "grey", "green", "orange", "silver")


def op_material_token(p: Player) -> None:
    """A material token entered on its picture (issue 25 part 6): its edge pips into the
    own pack, now and then a pip the rules refuse; then the crafting explorer over it."""
    p.serial += 1
    name = f"Table Token {p.seed}-{p.serial}"
    edges = []
    for edge in ("top", "right", "bottom", "left"):
        if p.chance(0.75):
            colour = p.pick(PIP_COLOURS) if p.chance(0.95) else "pink"
            edges += ["--edge", f"{edge}={colour} {p.rng.randint(0, 9 if p.chance(0.95) else 12)}"]
    if p.chance(0.5):
        edges += ["--processed-edge", f"left={p.pick(PIP_COLOURS)} {p.rng.randint(0, 9)}"]
    shown = p.js("material", "add", p.path, name, "--category",
                 p.pick(["vegetable", "animal", "mineral", "rare"]), "--size",
                 p.pick(["small", "large"]), *edges)
    if shown is not None:
        p.cli("codes", p.path, "--material", name, "--with", "Flint", "--json",
              op="codes over an entered material")


def op_heal_age(p: Player) -> None:
    name = p.someone()
    if name is None:
        return
    if p.chance(0.5):
        p.cli("heal", p.path, name, str(p.rng.randint(1, 2)), op="heal")
    else:
        p.cli("age", p.path, name, op="age")


def op_journal(p: Player) -> None:
    p.cli("journal", "add", p.path, f"Night talk {p.rng.randrange(1000)}", op="journal add")


def op_savepoint(p: Player) -> None:
    p.cli("savepoint", p.path, p.pick(["before the Night", "dawn", "camp"]), op="savepoint")


def op_undo_redo(p: Player) -> None:
    """Edit ▸ Undo / Redo (the CLI's and the app's), and undo to a save point. An undo
    redone at once gives back the very rows it took."""
    from companion import operations

    before = game_rows(p.table)
    how = p.rng.randrange(5)
    if how == 0:
        code, _, err = p.cli("undo", p.path, op="undo")
    elif how == 1:
        ok = p.app("Edit > Undo", operations.undo)
        code = 0 if ok else 1
    elif how == 2:
        p.cli("redo", p.path, op="redo")
        return
    elif how == 3:
        p.app("Edit > Redo", operations.redo)
        return
    else:
        p.cli("undo", p.path, "--to", p.pick(["before the Night", "dawn", "camp"]),
              op="undo --to")
        return
    if code == 0 and p.chance(0.5):
        p.cli("redo", p.path, op="redo")
        if game_rows(p.table) != before:
            raise p.fail("undo then redo did not give the rows back:\n"
                         f"{diff(before, game_rows(p.table))}")
        p.counts["undo-redo round trip (in play)"] += 1


def op_import_web_journal(p: Player) -> None:
    """Import a web Campaign Journal file into the campaign (one undoable step): merged
    by the Journal's rule, the campaign and its export agree, and an undo gives the
    export back (issue 35 item 7)."""
    # The hand-made files, and those the Journal's own code wrote (tombstones in them).
    src = p.pick(sorted(FIXTURES.glob("web-journal-*.json")) + sorted(
        (FIXTURES.parents[1] / "fixtures" / "web-journal").glob("*.json")))
    extra: list[str] = []
    if p.chance(0.5):
        extra = ["--section", f"{p.pick(['codes', 'notes', 'culture', 'drawings'])}="
                 f"{p.pick(['newer', 'add', 'theirs', 'skip'])}"]
    before = _web_journal_export(p)
    code, _, _ = p.cli("import", src, "--into", p.path, *extra, op="import web journal")
    if code == 0:
        _check_web_journal_merge(p, before)


def _web_journal_export(p: Player) -> dict[str, Any]:
    """The campaign's export for the web Journal, less the moment it was written."""
    from companion.operations import webjournal_export

    with p.opened() as campaign:
        document = webjournal_export.export_document(campaign)
    return {k: v for k, v in document.items() if k not in ("exportedAt", "lastUpdated")}


def _check_web_journal_merge(p: Player, before: dict[str, Any]) -> None:
    """Our export, read back into the campaign, finds nothing to add or to change; the
    import undone, the export is the one before it."""
    from companion.operations import webjournal

    out = p.folder / f"merge-{p.seed}.json"
    out.write_text(json.dumps(_web_journal_export(p)), encoding="utf-8")
    with p.opened() as campaign:
        plan = webjournal.preview(campaign, out)
    # One recipe of the Journal holds one set of materials and notes for all its codes:
    # two records of one item that differ there cannot both go back as they are.
    differs = [f"{i.section}: {i.label} ({i.state}: {i.detail})" for i in plan.items
               if i.state != "already there" and i.section != "materials"
               and not (i.section == "codes" and i.detail.startswith("the file's ")
                        and i.detail.endswith(" differ"))]
    if differs:
        raise p.fail("the campaign and its export for the Journal disagree after an "
                     "import:\n" + "\n".join(differs))
    p.counts["web journal merge: campaign and export agree"] += 1
    if p.chance(0.5) and p.cli("undo", p.path, op="undo")[0] == 0:
        # Custom materials stay in the user's pack (MATERIALS_STAY), so out of this.
        if _web_journal_export(p) | {"customMaterials": []} != before | {
                "customMaterials": []}:
            raise p.fail("undoing a web journal import did not give the export back")
        p.counts["web journal merge undone: export as before"] += 1


def op_restore_backup(p: Player) -> None:
    """Backups: restore one; the file becomes exactly the backup, which is the file as
    it was when the backup was taken."""
    listed = p.js("backup", "list", p.path)
    backups = listed["backups"] if listed else []
    if backups:
        restore_and_check(p, p.pick(backups), op="backup restore")


def _shared(path: Path) -> bool:
    """Whether the campaign file at ``path`` is shared through a folder (issue 38)."""
    conn = sqlite3.connect(f"file:{quote(str(path))}?mode=ro", uri=True)
    try:
        return bool(conn.execute("SELECT count(*) FROM sqlite_master WHERE name = "
                                 "'sync_state'").fetchone()[0]) and bool(
            conn.execute("SELECT count(*) FROM sync_state").fetchone()[0])
    finally:
        conn.close()


def restore_and_check(p: Player, chosen: dict[str, Any], *, op: str) -> None:
    """Restore the listed backup ``chosen`` through the CLI and check the file holds
    exactly its rows, and that those are the state the player saw at its last event."""
    source = Path(chosen["path"])
    expected, moment = rows(source), last_event(source)
    seen = digest(look(source))  # the restore moves the backup in
    code, _, err = p.cli("backup", "restore", p.path, str(chosen["number"]), op=op)
    if code != 0 and "was taken before" in err and _shared(p.path) and not _shared(source):
        # Issue 38: a backup from before the share is refused in words, nothing changed.
        p.counts["backup restores from before the share refused, said why"] += 1
        return
    if code != 0:
        raise p.fail(f"backup restore refused: {err}")
    restored = rows(p.path)
    if restored != expected:
        raise p.fail(f"restoring {source.name} did not give its rows:\n"
                     f"{diff(expected, restored)}")
    p.counts["backup restores exact"] += 1
    if moment in p.states:
        if p.states[moment] != seen:
            raise p.fail(f"backup {source.name} is not the file as it was at event {moment}")
        p.counts["backup restores matched to the moment taken"] += 1


def op_codex(p: Player) -> None:
    p.cli("codex", "outcome", p.path, str(p.pick([100, 104, 110, 120, 220, 999])),
          op="codex outcome")


def op_overlay(p: Player) -> None:
    hexes = [str(r["tile_id"]) for r in p.records("valley_hex") if r["tile_id"]]
    if not hexes:
        return
    overlays = sorted(o for o, v in p.content.overlays.items() if v.kind.value == "other")
    if overlays:
        p.cli("overlay", p.path, "--hex", p.pick(hexes), "--section", p.pick(["a", "b", "c"]),
              "--overlay", p.pick(overlays), op="overlay")


def _tiny_png(p: Player) -> bytes:
    import io as bytes_io

    from PIL import Image

    out = bytes_io.BytesIO()
    Image.new("RGB", (3, 2), (p.rng.randrange(256), 90, 40)).save(out, format="PNG")
    return out.getvalue()


def op_cave_wall(p: Player) -> None:
    """The Journal book's Primal Cave Wall page (companion/ui/journal_cave_wall.py): an
    illustration drawn (with a picture: bytes in the file), changed or wiped; the GUI's
    own operations, which no CLI command calls."""
    from companion.operations import journal as j

    drawn = [int(r[0]) for r in p.table.get("cave_wall_illustration", [])]
    how = p.rng.randrange(3)
    if how == 0 or not drawn:
        image = _tiny_png(p) if p.chance(0.5) else None
        p.app("cave wall: draw", lambda c: j.add_cave_wall_illustration(
            c, title=f"Hunt {p.rng.randrange(99)}", marks=p.rng.sample(
                ["spiral", "hand", "sun", "river"], 2), image=image, note="by the fire"))
    elif how == 1:
        which = p.pick(drawn)
        p.app("cave wall: change", lambda c: j.edit_cave_wall_illustration(
            c, illustration_id=which, title=f"Retold {p.rng.randrange(99)}",
            image=_tiny_png(p) if p.chance(0.5) else None))
    else:
        which = p.pick(drawn)
        p.app("cave wall: wipe", lambda c: j.remove_cave_wall_illustration(
            c, illustration_id=which))


def _tiles(p: Player) -> list[str]:
    return [str(r["tile_id"]) for r in p.records("valley_hex") if r["tile_id"]]


def op_behemoth(p: Player) -> None:
    """The behemoth: set up (its lair on a hex), target, learn, activation and encounter
    walked by the app."""
    how = p.rng.randrange(6)
    tiles = _tiles(p) or ["E01"]
    if how == 0:
        p.cli("behemoth", "setup", p.path, p.pick(sorted(p.content.behemoths)),
              "--lair", p.pick(tiles), "--section", p.pick(["a", "b", "c"]),
              op="behemoth setup")
    elif how == 1:
        p.cli("behemoth", "target", p.path, p.pick(tiles + p.names()), op="behemoth target")
    elif how == 2:
        p.cli("behemoth", "learn", p.path, p.pick(["habits", "secret"]), op="behemoth learn")
    elif how == 3:
        p.cli("behemoth", "activate", p.path, "--app", "--json", op="behemoth activate")
    elif how == 4:
        name = p.someone()
        if name:
            p.cli("behemoth", "encounter", p.path, name, "--app", "--json",
                  op="behemoth encounter")
    else:
        name = p.someone()
        if name:
            p.cli("contest", p.path, name, p.pick(ABILITIES), str(p.rng.randint(3, 12)),
                  "--die", str(p.rng.randint(1, 6)), op="contest")


def op_mantle_power(p: Player) -> None:
    """Mantle powers: unlocked with lore, chosen by a character, used."""
    powers = sorted(p.content.mantle_powers)
    name = p.someone()
    how = p.rng.randrange(3)
    if how == 0 and powers:
        p.cli("mantle-power", "unlock", p.path, p.pick(powers), op="mantle-power unlock")
    elif how == 1 and powers and name:
        p.cli("mantle-power", "choose", p.path, name, p.pick(powers), op="mantle-power choose")
    elif name:
        p.cli("mantle-power", "use", p.path, name, op="mantle-power use")


def op_outpost(p: Player) -> None:
    """Overlays > Outposts: an outpost ruined, a structure removed from one."""
    outposts = [str(r["name"]) for r in p.records("outpost")] or ["Camp 1"]
    structures = sorted(p.content.structures) or ["drying-rack"]
    if p.chance(0.5):
        p.cli("outpost", "remove-structure", p.path, p.pick(outposts), p.pick(structures),
              op="outpost remove-structure")
    else:
        p.cli("outpost", "ruin", p.path, p.pick(outposts), op="outpost ruin")


def op_own_cards(p: Player) -> None:
    """The owner's cards the campaign carries: added to this computer's pack (Content ▸
    the offer at open; ``content adopt``), and the web Journal's export read back in."""
    if p.chance(0.5):
        p.cli("content", "adopt", p.path, *(["--edited"] if p.chance(0.5) else []),
              op="content adopt")
    else:
        out = str(Path(p.path).with_name(f"journal-{p.rng.randrange(10**6)}.json"))
        p.cli("export", p.path, "--web-journal", out, op="export --web-journal")


def _random_sections(p: Player) -> list[str]:
    features = sorted(p.content.features)
    sections = [p.pick(features + ["none"]) for _ in range(3)]
    return sections if any(s != "none" for s in sections) else [p.pick(features), *sections[1:]]


def _type_tile(p: Player, tile: str, region: str, *, starting: bool = False) -> None:
    argv = ["valley", "tile", p.path, tile, "--region", region,
            "--sections", *_random_sections(p)]
    if p.chance(0.5):
        argv += ["--name", f"Tile {tile}"]
    if p.chance(0.2):
        argv += ["--omen", f"{p.pick(['sun', 'moon', 'comet'])}:{p.pick('abc')}"]
    if starting:
        argv.append("--starting")
    p.cli(*argv, op="valley tile")


def _unknown_face_down(p: Player) -> list[tuple[str, str]]:
    """(tile, region) of the face-down tiles typed by id whose faces are not known yet."""
    trays = {r["id"]: r["region"] for r in p.records("valley_tray")}
    with p.opened() as campaign:
        known = set(campaign.content.hexes)
    return [(str(r["tile_id"]), str(trays.get(r["tray_id"], ""))) for r in
            p.records("valley_hex") if r["tile_id"] and not r["explored"]
            and str(r["tile_id"]) not in known]


def op_type_tile(p: Player) -> None:
    """Valley > Hexes: a tile of the box typed once, when it is about to be flipped (now
    and then a tile already known, which must be refused)."""
    unknown = _unknown_face_down(p)
    if unknown and p.chance(0.85):
        _type_tile(p, *p.pick(unknown))
        return
    hexes = [str(r["tile_id"]) for r in p.records("valley_hex") if r["tile_id"]]
    if hexes:
        _type_tile(p, p.pick(hexes), p.pick(sorted(p.content.regions)))


def op_explore_tray_typed(p: Player) -> None:
    """Actions > Explore: a new tray placed by its place in words, the ids printed on its
    three tiles typed, the one flipped named by the table (a new box tile typed first)."""
    name = p.someone()
    if name is None:
        return
    listed = p.js("actions", p.path, name)
    trays = [a for a in (listed or {}).get("actions", []) if a["action"] == "explore_tray"]
    if not trays:
        return
    number = p.rng.randrange(len(trays))
    if p.box:
        p.serial += 1
        tiles = [f"{p.seed % 90 + 10}{p.serial:02d}{n}" for n in range(3)]
    else:
        tiles = [p.pick(sorted(p.content.hexes)) for _ in range(3)]
    flipped = p.pick(tiles) if p.chance(0.9) else "north"
    if p.box and p.chance(0.8) and flipped in tiles:
        _type_tile(p, flipped, "verdant-vale")
    p.cli("act", p.path, name, "tray", str(number + 1), "--tiles", *tiles,
          "--flipped", flipped, "--json", op="act tray (typed)")
RECORD_LINES = ("gain 2 meat", "lore +1", "unrest +1, activity +1", "minor injury",
                "gain 1 wood, lore -1", "energy -1", "place fire", "fly away")
"""Lines a group types for a card resolved at the table (the last one does not read)."""


def _record_line(p: Player) -> str:
    line = str(p.pick(RECORD_LINES))
    name = p.someone()
    if name and p.chance(0.6) and not line.startswith(("lore", "unrest")):
        line = f"{line} {name}" if p.chance(0.5) else f"{name} {line}"
    return line


def op_record_at_table(p: Player) -> None:
    """Issue 25 part 3: "Just record what happened" / "We resolved this at the table":
    at the step in progress (``step --record``), for a Discovery due or any card
    (``record``), or the card field's call in the GUI (``recorded.record_what_happened``)."""
    card = f"X{p.rng.randrange(90, 99)}"
    line = _record_line(p)
    if p.chance(0.3):
        from companion.operations import recorded

        p.app("card field: just record what happened", lambda c: recorded.record_what_happened(
            c, line=line, card=card, character=p.someone() if p.chance(0.3) else None))
    elif p.walking() and p.chance(0.7):
        p.cli("step", p.path, "--record", line, "--card", card, "--json", op="step --record")
    else:
        p.cli("record", p.path, line, "--card", card, "--kind",
              p.pick(["discovery_cards", "night_cards", ""]) or "discovery_cards",
              op="record")


def op_activity_at_table(p: Player) -> None:
    """Issue 25 part 3: a feature action played at the table with the real cards (the
    Day tab's "At the table…", ``act NAME forage plains --at-table LINE``): its cost paid,
    what it gave applied; now and then one the rules refuse (no energy, not offered)."""
    name = p.someone()
    if name is None:
        return
    listed = p.js("actions", p.path, name)
    offered = [a for a in (listed or {}).get("actions", [])
               if a["action"] in ("forage", "fish", "mine", "delve")]
    if not offered:
        return
    ready = [a for a in offered if a.get("at_table")]
    if not ready and p.chance(0.8):  # mostly when the rules allow it (not mid-activity)
        return
    chosen = p.pick(ready) if ready and p.chance(0.85) else p.pick(offered)
    line = _record_line(p)
    card = f"T{p.rng.randrange(10, 99)}" if p.chance(0.6) else ""
    if p.chance(0.3):
        from functools import partial

        from companion.operations.table_activity import activity_at_table

        p.app("day tab: at the table", lambda c: partial(
            activity_at_table, name=name, action=chosen["action"],
            feature=chosen["target"])(c, line=line, card=card, character=None))
        return
    p.cli("act", p.path, name, chosen["action"], chosen["target"], "--at-table", line,
          *(["--card", card] if card else []), "--json", op="act --at-table")


def op_save_record(p: Player) -> None:
    """Issue 25 part 3: "Save as a card": a recorded card into the owner's pack."""
    shown = p.js("content", "recorded", p.path)
    rows = (shown or {}).get("recorded") or []
    if not rows:
        return
    row = p.pick(rows)
    extra = Path(p.path).with_name(f"record-{p.rng.randrange(10**6)}.yaml")
    extra.write_text(f"name: Recorded {row['card']}\n", encoding="utf-8")
    p.cli("content", "save-record", p.path, str(row["event"]), str(extra),
          *(["--kind", "discovery_cards"] if not row["kind"] else []),
          op="content save-record")


def op_codex_apply(p: Player) -> None:
    """Issue 25 part 4: a Codex outcome acted on (its effects applied, or, when the
    Codex lacks it, what it did typed once and remembered in the owner's pack)."""
    number = str(p.pick([100, 103, 106, 109, 220, 998, 999]))
    who = ["--character", name] if (name := p.someone()) and p.chance(0.7) else []
    if p.chance(0.5):
        p.cli("codex", "outcome", p.path, number, "--apply", *who, op="codex --apply")
    else:
        p.cli("codex", "outcome", p.path, number, "--effects", _record_line(p), *who,
              op="codex --effects")


CULTURE = ("Smoke Signals", "smoke  signals", "Fire Keeping", "Star Reading", " ")
"""Culture abilities a card or the Codex gives (a repeat in another case, and a blank)."""


def op_culture(p: Player) -> None:
    """Issue 35 item 10: a culture ability gained (the Culture page's Add, ``culture
    add``) or Delving unlocked, as effect words (``effect``, ``record``, ``codex
    outcome --effects``)."""
    ability = str(p.pick(CULTURE))
    line = str(p.pick([f"culture ability {ability}", "unlock delving"]))
    name = p.someone()
    if p.chance(0.3):
        from companion.operations import add_culture_ability

        p.app("journal culture page: add an ability",
              lambda c: add_culture_ability(c, name=ability))
    elif p.chance(0.4):
        p.cli("culture", "add", p.path, ability, op="culture add")
    elif name is not None and p.chance(0.5):
        p.cli("effect", p.path, name, line, op="effect (society)")
    elif p.chance(0.5):
        said = f"gain a {line}" if line.startswith("culture") and p.chance(0.5) else line
        p.cli("record", p.path, said, op="record")
    else:
        p.cli("codex", "outcome", p.path, "997", "--effects", line, op="codex --effects")


def op_owners_codex_craft(p: Player) -> None:
    """Issue 36 item 1: Craft in a My own box campaign with what the owner's Codex says
    for a code its pack has not remembered (an item typed once, a known item, a dead
    end, no entry; ``--codex-says`` / ``--no-entry``, or the Crafting dialog's call);
    remembered in the own pack, so the same code later crafts without asking."""
    name = p.someone()
    if name is None:
        return
    bag = next((c for c in p.characters() if c["name"] == name), {}).get("bag") or "[]"
    tokens = [str(t.get("id")) for t in (json.loads(bag) if isinstance(bag, str) else bag)]
    # Mostly two tokens of one material entered on the spot (its left and right edges
    # join: unturned, they read a code); now and then any two, which may not combine.
    pairs = [[i + 1 for i, t in enumerate(tokens) if t == m] for m in set(tokens)
             if m.startswith("spot-token") and tokens.count(m) >= 2]
    if pairs and p.chance(0.85):
        left, right = p.pick(pairs)[:2]
        turns = ["0", "0"]
    elif len(tokens) >= 2 or p.chance(0.2):
        left, right = p.rng.sample(range(1, max(len(tokens), 2) + 1), 2)
        turns = [str(p.rng.randrange(4)), str(p.rng.randrange(4))]
    else:
        return
    p.serial += 1
    says = p.pick([f"Table Item {p.seed}-{p.serial}; {p.pick(['hand', 'body', 'gear'])}; "
                   "typed from the Codex", "Table Item", "dead end; the cords slip",
                   "no entry", f"Nameless {p.serial}"])
    if p.chance(0.25):
        from companion.operations.codex_crafting import CodexSays, craft_from_codex

        p.app("crafting dialog: your Codex says", lambda c: craft_from_codex(
            c, name=name, left=left - 1, left_rotation=int(turns[0]), right=right - 1,
            right_rotation=int(turns[1]), says=CodexSays.parse(says)))
        return
    how = ["--no-entry"] if says == "no entry" and p.chance(0.5) else ["--codex-says", says]
    p.cli("act", p.path, name, "craft", "--token", left, "--token", right, "--turns", *turns,
          *(how if p.chance(0.9) else []), "--json", op="act craft --codex-says")


def op_entered_on_the_spot(p: Player) -> None:
    """Issue 36 item 2: a line names a material the pack lacks (refused, naming it), its
    token is entered on the spot (``material add``), and the line goes on; now and then
    an item the pack lacks, its card entered first (``content add-card``)."""
    import yaml

    name = p.someone()
    if name is None:
        return
    p.serial += 1
    if p.chance(0.3):
        item = f"table-item-{p.seed}-{p.serial}"
        card = p.folder / f"{item}.yaml"
        card.write_text(yaml.safe_dump({"id": item, "name": f"Table Item {p.serial}",
                                        "slot": p.pick(["hand", "body", "gear"])}), "utf-8")
        p.cli("content", "add-card", "box" if p.box else "sample", "items", card,
              op="content add-card (item on the spot)")
        p.cli("effect", p.path, name, f"item {item}", op="effect item on the spot")
        return
    material = f"Spot Token {p.seed}-{p.serial}"
    line = f"gain {material.casefold().replace(' ', '-')} 2"
    p.cli("effect", p.path, name, line, op="effect new material")
    colour = p.pick(PIP_COLOURS[:6])  # its left and right edges join: two tokens craft
    p.cli("material", "add", p.path, material, "--edge",
          f"left={colour} {p.rng.randint(1, 9)}", "--edge",
          f"right={colour} {p.rng.randint(0, 9)}", "--processed-edge",
          f"left={colour} {p.rng.randint(1, 9)}", "--processed-edge",
          f"right={colour} {p.rng.randint(0, 9)}", op="material add on the spot")
    p.cli("effect", p.path, name, line, op="effect new material, entered")


@dataclass(frozen=True)
class Operation:
    name: str
    weight: int
    play: Callable[[Player], None]


OPERATIONS: tuple[Operation, ...] = (
    Operation("day action", 30, op_day_action),
    Operation("pass", 4, op_pass),
    Operation("procedure step", 30, op_step),
    Operation("procedure by the app", 4, op_walk_by_app),
    Operation("discover (CLI)", 5, op_discover_cli),
    Operation("discover (Valley map panel)", 5, op_discover_valley_panel),
    Operation("discover (Day panel)", 3, op_discover_day_panel),
    Operation("move (Valley map)", 3, op_valley_move),
    Operation("effect", 5, op_effect),
    Operation("exchange", 4, op_exchange),
    Operation("legend", 3, op_legend),
    Operation("society", 2, op_society),
    Operation("test", 2, op_test),
    Operation("goal", 1, op_goal),
    Operation("challenge lifecycle", 3, op_challenge),
    Operation("challenge card typed from the box", 1, op_typed_challenge),
    Operation("material token entered", 1, op_material_token),
    Operation("heal / age", 1, op_heal_age),
    Operation("character create", 1, op_new_character),
    Operation("journal add", 1, op_journal),
    Operation("save point", 2, op_savepoint),
    Operation("undo / redo", 6, op_undo_redo),
    Operation("import web journal", 1, op_import_web_journal),
    Operation("restore backup", 1, op_restore_backup),
    Operation("codex", 1, op_codex),
    Operation("overlay", 1, op_overlay),
    Operation("cave wall (Journal book)", 1, op_cave_wall),
    Operation("behemoth", 2, op_behemoth),
    Operation("mantle power", 1, op_mantle_power),
    Operation("outpost ruin / remove structure", 1, op_outpost),
    Operation("own cards / web journal export", 1, op_own_cards),
    Operation("valley tile (typed when flipped)", 3, op_type_tile),
    Operation("explore a tray (tiles typed, flipped named)", 2, op_explore_tray_typed),
    Operation("record what happened at the table", 3, op_record_at_table),
    Operation("an activity played at the table", 2, op_activity_at_table),
    Operation("save a recorded card", 1, op_save_record),
    Operation("codex outcome applied / recorded", 1, op_codex_apply),
    Operation("culture ability / unlock delving", 1, op_culture),
    Operation("craft from the owner's Codex", 3, op_owners_codex_craft),
    Operation("material or item entered on the spot", 2, op_entered_on_the_spot),
)


@contextlib.contextmanager
def one_parser() -> Iterator[None]:
    """Build the CLI's argument parser once for the whole run instead of once per
    command (88 ms each): the same parser, parsing each command afresh."""
    import functools

    built = companion.cli.command_parser
    companion.cli.command_parser = functools.cache(built)
    try:
        yield
    finally:
        companion.cli.command_parser = built


def _set_up_box(p: Player) -> None:
    """My own box (issue 25): the starting tile, the first tray's ids, a trait card and
    the mantles typed from the table, then the characters (no challenge is known)."""
    import yaml

    p.cli("campaign", "new", f"Box Folk {p.seed}", "--players", "2", "--file", p.path,
          "--seed", str(p.seed), "--box", op="campaign new")
    p.start_rows = game_rows(p.table)
    p.cli("savepoint", p.path, "start", op="savepoint")
    _type_tile(p, "1", "verdant-vale", starting=True)
    p.cli("valley", "setup", p.path, "verdant-vale", "--tiles", "2", "3", op="valley setup")
    for kind, ids in (("traits", ["brave", "wary"]), ("mantles", ["pathfinder", "keeper"])):
        for card in ids:
            out = p.folder / f"{kind}-{card}.yaml"
            out.write_text(yaml.safe_dump({"id": card, "name": card.title(),
                                           "text": "Typed from the box."}), encoding="utf-8")
            p.cli("content", "add-card", "box", kind, out, op="content add-card")
        p.typed[kind] = ids
    for _ in range(2):
        op_new_character(p)


def set_up(p: Player) -> None:
    """A new campaign (the rows undo must come back to), its valley, two characters and
    the first challenge: the CLI's Set Up."""
    if p.box:
        _set_up_box(p)
        return
    p.cli("campaign", "new", f"Folk {p.seed}", "--players", "2", "--file", p.path,
          "--seed", str(p.seed), op="campaign new")
    p.start_rows = game_rows(p.table)
    p.cli("savepoint", p.path, "start", op="savepoint")
    region = p.pick(sorted(p.content.regions))
    p.cli("valley", "setup", p.path, region, op="valley setup")
    for _ in range(2):
        op_new_character(p)
    p.cli("challenge", "start", p.path, p.pick(sorted(p.content.challenges)),
          op="challenge start")


def play(p: Player, operations: int) -> None:
    """``operations`` random operations after Set Up."""
    weights = [o.weight for o in OPERATIONS]
    for _ in range(operations):
        p.rng.choices(OPERATIONS, weights)[0].play(p)
