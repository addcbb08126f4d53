"""Headless play commands: set up a game, create characters, take Day actions, turn the
society's dials. Each calls one operation; refusals print ``refused: <reason>`` on
stderr and exit 1, and change nothing.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from typing import Any

from companion.cli.campaign_command import command_family, on_campaign, with_path
from companion.cli.procedure_cmd import start_activity, start_then_walk
from companion.cli.terminal import ask, say


def _run(args: argparse.Namespace, call: Any) -> int:
    """Open the campaign, run ``call(campaign)`` -> Changes, print its summary."""
    def changed(campaign: Any) -> Any:
        changes = call(campaign)
        if sys.stdin.isatty() and not getattr(args, "json", False):
            _settle_at_the_terminal(campaign, changes.summary)
        return changes

    return on_campaign(args, changed, _with_dice)


def _with_dice(changes: Any) -> tuple[dict[str, Any], str]:
    """The summary, and the dice or cards the operation gave (its detail) in the JSON."""
    detail = changes.detail
    data: dict[str, Any] = {"summary": changes.summary}
    if isinstance(detail, tuple | list):
        data["detail"] = list(detail)
    return data, changes.summary


def _settle_at_the_terminal(campaign: Any, summary: str) -> None:
    """An item just gained beyond the slots: at a terminal the choice is asked at once
    (Rulebook: Mantle > Exceeding Item Limits); elsewhere 'exchange excess' makes it."""
    from companion.operations import day as day_ops

    for waiting in day_ops.excess_items(campaign):
        if waiting.text not in summary:
            continue  # an older choice: 'exchange excess' asks for it
        say(summary)
        item, to = _ask_excess(waiting, None)
        if item is None:
            return
        say(day_ops.settle_excess(campaign, name=waiting.name, item=item, to=to).summary)


def _assignment(text: str) -> dict[str, int]:
    pairs = [p.split("=", 1) for p in text.split(",") if p.strip()]
    try:
        assigned = {k.strip().lower(): int(v) for k, v in pairs}
    except ValueError as exc:
        raise argparse.ArgumentTypeError(
            "give abilities as might=6,dexterity=5,awareness=4,conviction=3") from exc
    # An unknown ability ("luck=1") is refused by the operation, in game words, exit 1.
    return assigned


def cmd_character_create(args: argparse.Namespace) -> int:
    from companion import operations

    def call(campaign: Any) -> Any:
        dice = args.dice
        if args.roll:
            rolled = operations.roll_dice(campaign, count=5,
                                          purpose=f"{args.name}'s abilities").detail
            dice = [int(d) for d in rolled] if isinstance(rolled, tuple | list) else []
            # Under --json standard output is one JSON object: the dice are said on stderr.
            say(f"rolled: {' '.join(map(str, dice))}", err=bool(args.json))
        if not dice:
            raise operations.Refused("Give the five dice (--dice) or let the app --roll.")
        if args.assign is None:
            raise operations.Refused("Assign the kept dice with --assign "
                                     "might=N,dexterity=N,awareness=N,conviction=N.")
        traits, mantle = list(args.trait), args.mantle
        if args.new_trait or args.new_mantle:
            from companion.operations.character_cards import ensure

            # Typed from the box: remembered in the owner's pack (each its own undo step).
            traits += [ensure(campaign, "traits", typed) for typed in args.new_trait]
            if args.new_mantle:
                if mantle:
                    raise operations.Refused("Give the mantle once: --mantle or --new-mantle.")
                mantle = ensure(campaign, "mantles", args.new_mantle)
        return operations.create_character(
            campaign, name=args.name, player=args.player, rolled=tuple(dice),
            removed=args.drop - 1, assignment=args.assign, traits=traits,
            mantle=mantle, hex_tile=args.hex, after_death=args.replacement)

    return _run(args, call)


def cmd_characters(args: argparse.Namespace) -> int:
    return on_campaign(args, lambda c: c.characters(), _characters)


def _characters(rows: Any) -> tuple[dict[str, Any], str]:
    text = "\n".join(
        f"{c.name:<12} M{c.might} D{c.dexterity} A{c.awareness} C{c.conviction}  "
        f"energy {c.energy_text:<5} {c.health_text:<28} hex {c.hex_id or '-':<5} "
        f"{', '.join(c.traits)}" + (f"; marks {', '.join(c.marks)}" if c.marks else "")
        for c in rows) or "no characters"
    return {"characters": [dataclasses.asdict(c) for c in rows]}, text


def cmd_actions(args: argparse.Namespace) -> int:
    from companion import operations

    return on_campaign(args, lambda c: (operations.available_actions(c, args.name),
                                        operations.whose_turn(c)), _actions)


def _actions(found: tuple[Any, dict[str, Any]]) -> tuple[dict[str, Any], str]:
    options, turn = found
    lines = [f"may act: {', '.join(turn['may_act']) or 'no one'}; "
             f"passed: {', '.join(turn['passed']) or 'no one'}"]
    lines += [f"{'  ' if o.refusal is None else 'x '}{o.action:<15} {o.label}"
              + (f"  ({o.refusal})" if o.refusal else "") for o in options]
    return ({"turn": turn, "actions": [dataclasses.asdict(o) for o in options]},
            "\n".join(lines))


VERBS: dict[str, str] = {
    "move": "move", "explore": "explore", "tray": "explore_tray",
    "explore_tray": "explore_tray",
    "water": "gather_water", "gather_water": "gather_water",
    "shelter": "prepare_shelter", "prepare_shelter": "prepare_shelter",
    "forage": "forage", "fish": "fish", "mine": "mine", "delve": "delve",
    "process": "process", "craft": "craft",
    "outpost": "build_outpost", "build_outpost": "build_outpost",
    "structure": "build_structure", "build_structure": "build_structure",
    "revive": "revive", "pass": "pass",
}
"""Each word ``companion act`` takes -> the Day action it is (as ``companion actions``
names it). Rulebook: Game Structure > Day Actions; Actions."""

ACTIONS = tuple(VERBS)

ACTIVITIES = {"forage": "foraging", "fish": "fishing", "mine": "mining", "delve": "delving"}


def _pairs(values: list[str] | None, what: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for value in values or []:
        name, sep, rest = value.partition("=")
        if not sep or not name.strip() or not rest.strip():
            raise _refusal(f"write {what} as NAME=VALUE, not '{value}'")
        out[name.strip()] = rest.strip()
    return out


def _refusal(text: str) -> Exception:
    from companion import operations

    return operations.Refused(text[0].upper() + text[1:] + ("" if text.endswith(".") else "."))


def _energy(values: list[str] | None) -> dict[str, int]:
    try:
        return {k: int(v) for k, v in _pairs(values, "energy contributed").items()}
    except ValueError as exc:
        raise _refusal("energy contributed is a number: --contribute Bryn=2") from exc


def _positions(values: list[int] | None) -> list[int]:
    """Bag positions as the player counts them (1 = first) -> 0-based."""
    if any(v < 1 for v in values or []):
        raise _refusal("bag positions count from 1")
    return [v - 1 for v in values or []]


def _spots(text: str) -> list[int]:
    """"2,5" (bag positions, 1 = first) -> [1, 4]."""
    parts = [p.strip() for p in text.split(",")]
    if not all(p.isdigit() for p in parts):
        raise _refusal("write materials paid as NAME=POS,POS (bag positions)")
    return _positions([int(p) for p in parts])


def _feature_for(campaign: Any, name: str, action: str, given: str | None) -> str:
    """The feature an action uses: the one named, else the only one here offering it."""
    from companion.operations.day import available_actions

    offered = [o.target for o in available_actions(campaign, name) if o.action == action]
    if given:
        for target in offered:
            words = campaign.content.features[target].name.lower() \
                if target in campaign.content.features else str(target)
            if given.lower() in (str(target).lower(), words):
                return str(target)
        return given  # the operation refuses it in game words
    if len(offered) == 1 and offered[0]:
        return str(offered[0])
    if not offered:
        raise _refusal(f"there is nowhere to {action.replace('_', ' ')} in {name}'s hex")
    raise _refusal(f"{name} can {action.replace('_', ' ')} at the "
                   f"{' or the '.join(str(o) for o in offered)}: name one")


def _act_call(args: argparse.Namespace, campaign: Any) -> Any:
    from companion import operations
    from companion.operations import day as day_ops

    action, name, target = VERBS[args.action], args.name, args.target
    if action in ("move", "explore"):
        if not target:
            raise operations.Refused(f"{args.action} needs the hex to go to")
        return operations.move(campaign, name=name, to_hex=target)
    if action == "explore_tray":
        return _explore_tray(campaign, args)
    if action == "gather_water":
        return operations.gather_water(campaign, name=name)
    if action == "prepare_shelter":
        return operations.prepare_shelter(campaign, name=name)
    if action == "process":
        return operations.process(campaign, name=name, tokens=_positions(args.token))
    if action == "craft":
        tokens = _positions(args.token)
        if len(tokens) != 2:
            raise _refusal("craft with two tokens: --token LEFT --token RIGHT (bag positions)")
        turns = args.turns or [0, 0]
        return _craft(campaign, args, name=name, left=tokens[0], left_rotation=turns[0],
                      right=tokens[1], right_rotation=turns[1])
    if action == "build_outpost":
        feature = _feature_for(campaign, name, action, target)
        return operations.build_outpost(campaign, name=name, feature=feature,
                                        outpost_name=args.outpost_name or "",
                                        contributions=_energy(args.contribute),
                                        overlay=args.overlay)
    if action == "build_structure":
        if not target:
            raise _refusal("name the structure to build (e.g. drying-rack)")
        pay = {who: _spots(spots) for who, spots in _pairs(args.pay, "materials paid").items()}
        if args.token:
            pay[name] = _positions(args.token)
        return day_ops.build_structure(campaign, name=name, structure=target,
                                       outpost=args.at, materials=pay or None,
                                       contributions=_energy(args.contribute))
    if action == "revive":
        if not target:
            raise _refusal("name the incapacitated character to revive")
        tokens = _positions(args.token) or [0]
        return operations.revive(campaign, name=name, target=target, token=tokens[0])
    if action in ACTIVITIES:
        return start_activity(campaign, name, action, _feature_for(campaign, name, action,
                                                                   target))
    return operations.pass_turn(campaign, name=name)


def _explore_tray(campaign: Any, args: argparse.Namespace) -> Any:
    """Explore into a new terrain tray: the placement numbered as 'companion actions'
    lists it (Rulebook: Actions > Explore; Populating a Terrain Tray)."""
    from companion.operations.exploration import explore_new_tray, legal_placements

    trays = legal_placements(campaign, args.name)
    if not trays:
        raise _refusal(f"there is no new tray to explore from {args.name}'s hex")
    if not (args.target or "").isdigit() or not 1 <= int(args.target) <= len(trays):
        raise _refusal(f"choose the new tray by its number, 1 to {len(trays)}, as "
                       "'companion actions' lists them")
    tray = trays[int(args.target) - 1]
    return explore_new_tray(campaign, name=args.name, origin=tray.origin,
                            orientation=tray.orientation, region=tray.region,
                            tiles=args.tiles or None, enter=args.enter)


def cmd_act(args: argparse.Namespace) -> int:
    if args.at_table is not None:
        return _run(args, lambda campaign: _at_table(args, campaign))
    if VERBS[args.action] in ACTIVITIES:
        return start_then_walk(args, lambda campaign: _act_call(args, campaign))
    return _run(args, lambda campaign: _act_call(args, campaign))


def _at_table(args: argparse.Namespace, campaign: Any) -> Any:
    """``act NAME forage plains --at-table LINE``: the activity played with the real
    cards, what it gave recorded (issue 25 part 3)."""
    from companion.operations.table_activity import activity_at_table

    action = VERBS[args.action]
    if action not in ACTIVITIES:
        raise _refusal("--at-table is for forage, fish, mine and delve")
    feature = _feature_for(campaign, args.name, action, args.target)
    return activity_at_table(campaign, name=args.name, action=action, feature=feature,
                             line=args.at_table, card=args.card or "",
                             character=args.character)


def cmd_exchange_give(args: argparse.Namespace) -> int:
    from companion import operations
    from companion.operations import day as day_ops

    def call(campaign: Any) -> Any:
        if bool(args.item) == bool(args.token):
            raise _refusal("give either an item (--item) or bag tokens (--token)")
        if args.item:
            return day_ops.exchange_item(campaign, giver=args.giver, receiver=args.receiver,
                                         item=args.item, excess=args.excess,
                                         excess_to=args.excess_to)
        return day_ops.exchange_tokens(campaign, giver=args.giver, receiver=args.receiver,
                                       tokens=_positions(args.token))

    del operations
    return _run(args, call)


def _the_outpost(campaign: Any, name: str, given: str | None) -> str:
    from companion.operations import day as day_ops

    if given:
        return given
    here = day_ops.storage_here(campaign, name)
    if len(here) == 1:
        return here[0][1]
    if not here:
        raise _refusal(f"there is no storage container in {name}'s hex: an outpost stores "
                       "nothing by itself, only a structure whose card says it stores "
                       "(such as a Storehouse)")
    raise _refusal(f"name the outpost: {' or '.join(h[1] for h in here)}")


def cmd_exchange_store(args: argparse.Namespace) -> int:
    from companion.operations import day as day_ops

    return _run(args, lambda c: day_ops.store_materials(
        c, name=args.name, outpost=_the_outpost(c, args.name, args.outpost),
        tokens=_positions(args.token)))


def cmd_exchange_take(args: argparse.Namespace) -> int:
    from companion.operations import day as day_ops

    return _run(args, lambda c: day_ops.retrieve_materials(
        c, name=args.name, outpost=_the_outpost(c, args.name, args.outpost),
        tokens=_positions(args.token)))


def cmd_exchange_excess(args: argparse.Namespace) -> int:
    from companion.operations import day as day_ops

    def call(campaign: Any) -> Any:
        name = campaign.character_detail(args.name).name  # refuses an unknown name
        waiting = [e for e in day_ops.excess_items(campaign) if e.name == name]
        if not waiting:
            raise _refusal(f"{args.name} has room for every item they hold")
        item, to, lose = args.item, args.to, args.lose
        if (not item or not (to or lose)) and sys.stdin.isatty() and not args.json:
            item, to = _ask_excess(waiting[0], item)
            lose = to is None
        if not item or not (to or lose):
            names = ", ".join(n for _, n in waiting[0].items)
            raise _refusal(f"{waiting[0].text} ({names}): give ITEM and --to NAME"
                           + (" or --lose" if not waiting[0].room else ""))
        return day_ops.settle_excess(campaign, name=args.name, item=item,
                                     to=None if lose else to)

    return _run(args, call)


def _ask_excess(waiting: Any, item: str | None) -> tuple[str | None, str | None]:
    """At a terminal: which item goes, and to whom (Exceeding Item Limits)."""
    say(waiting.text + ".")
    if not item:
        for number, (_, name) in enumerate(waiting.items, 1):
            say(f"  {number}. {name}")
        answer = ask("Which item goes? ").strip()
        if not answer.isdigit() or not 1 <= int(answer) <= len(waiting.items):
            return None, None
        item = waiting.items[int(answer) - 1][0]
    if not waiting.room:
        return item, None  # no one has room: it is lost
    for number, name in enumerate(waiting.room, 1):
        say(f"  {number}. to {name}")
    answer = ask("Who takes it? ").strip()
    if not answer.isdigit() or not 1 <= int(answer) <= len(waiting.room):
        return None, None
    return item, waiting.room[int(answer) - 1]


def cmd_exchange_list(args: argparse.Namespace) -> int:
    from companion.operations import day as day_ops

    def held(campaign: Any) -> tuple[Any, Any, Any, list[str]]:
        detail = campaign.character_detail(args.name)
        return (detail, day_ops.storage_here(campaign, args.name),
                day_ops.excess_items(campaign),
                [day_ops.item_name(campaign, i) for i, _ in detail.items])

    return on_campaign(args, held, _held)


def _held(found: tuple[Any, Any, Any, list[str]]) -> tuple[dict[str, Any], str]:
    detail, stores, waiting, items = found
    bag = [str(t) for t in detail.bag]
    data = {"items": items, "bag": bag,
            "storage": [{"outpost": n, "materials": m} for _, n, m in stores],
            "excess": [dataclasses.asdict(e) for e in waiting]}
    lines = [f"items: {', '.join(items) or 'none'}",
             "bag: " + (", ".join(f"{i}. {t}" for i, t in enumerate(bag, 1)) or "empty")]
    lines += [f"{n} stores: " + (", ".join(f"{i}. {t}" for i, t in enumerate(m, 1))
                                 or "nothing") for _, n, m in stores]
    lines += [e.text for e in waiting]
    return data, "\n".join(lines)


def cmd_discover(args: argparse.Namespace) -> int:
    """Draw the Discovery card due after a Move or Explore (Rulebook: Actions > Move)."""
    from companion import operations
    from companion.operations.cards import UnknownCard
    from companion.operations.exploration import draw_discovery

    def draw(campaign: Any) -> Any:
        card = args.card
        for source in args.enter_card or []:  # a card the campaign does not know yet
            entered = _enter_card(campaign, "discovery_cards", source, args.json)
            card = card or entered
        try:
            return draw_discovery(campaign, name=args.name, card=card,
                                  rolls=tuple(args.die or ()),
                                  app_rolls=True if args.app_rolls else None)
        except UnknownCard as exc:  # the two ways on, as this command spells them
            raise operations.Refused(
                f"{exc} In the terminal: discover PATH NAME --enter-card FILE (the card "
                f"as YAML), or record PATH \"gain 2 meat Ash, lore +1\" --card {exc.typed} "
                "--kind discovery_cards (what it did).") from exc

    return _run(args, draw)


def _enter_card(campaign: Any, kind: str, source: str, quiet: bool) -> str:
    """Enter the card in the YAML file ``source`` into the campaign's own pack; its id."""
    import yaml

    from companion import operations
    from companion.cli.cards_cmd import enter_from_yaml, read_yaml

    try:
        data = read_yaml(source)
    except (OSError, UnicodeDecodeError, ValueError, yaml.YAMLError) as exc:
        raise operations.Refused(f"--enter-card: {exc}") from exc
    entered = enter_from_yaml(campaign, kind, data, None)
    if not quiet:
        say(entered.summary)
    return str(entered.detail)


def cmd_society(args: argparse.Namespace) -> int:
    from companion import operations

    calls = {
        "unrest": lambda c: operations.change_unrest(c, amount=args.amount, reason=args.reason),
        "activity": lambda c: operations.increase_activity(c, amount=args.amount,
                                                           reason=args.reason),
        "gain-lore": lambda c: operations.gain_lore(c, amount=args.amount, reason=args.reason),
        "spend-lore": lambda c: operations.spend_lore(c, amount=args.amount,
                                                      reason=args.reason),
    }
    return _run(args, calls[args.track])


def cmd_valley_setup(args: argparse.Namespace) -> int:
    from companion import operations

    return _run(args, lambda c: operations.set_up_valley(c, region=args.region,
                                                         face_down=args.tiles or None))


def cmd_valley_tile(args: argparse.Namespace) -> int:
    """``valley tile``: a tile of the box typed once into the owner's pack."""
    from companion.operations.tiles import parse_omens, type_tile

    return _run(args, lambda c: type_tile(
        c, tile=args.tile, region=args.region, sections=list(args.sections), name=args.name,
        omens=parse_omens(args.omen), starting=args.starting))


def cmd_effect(args: argparse.Namespace) -> int:
    from companion.operations.effects import apply_effects, parse_effect

    return _run(args, lambda c: apply_effects(
        c, name=args.name, effects=[parse_effect(e) for e in args.effect], source=args.source))


def _craft(campaign: Any, args: argparse.Namespace, **laid: Any) -> Any:
    """Craft; in a My own box campaign, with what the owner's Codex says for a code its
    pack has not remembered yet (``--codex-says`` / ``--no-entry``, issue 36 item 1)."""
    from companion.operations.codex_crafting import CodexSays, craft_from_codex
    from companion.operations.crafting import craft

    if args.codex_says is not None and args.no_entry:
        raise _refusal("say either what the Codex says (--codex-says) or --no-entry")
    if args.no_entry:
        return craft_from_codex(campaign, **laid, says=CodexSays(no_entry=True))
    if args.codex_says is not None:
        return craft_from_codex(campaign, **laid, says=CodexSays.parse(args.codex_says))
    return craft(campaign, **laid)


def _codex_says_options(parser: Any) -> None:
    parser.add_argument("--codex-says", metavar="'NAME; SLOT; WHAT IT DOES'",
                        help="craft, my own box: what your Codex says for a code your pack "
                             "has not remembered: the item (name; hand, body or gear; what "
                             "it does; its card id if printed), an item the pack knows by "
                             "name, or 'dead end; ITS WORDS'; remembered in your own pack")
    parser.add_argument("--no-entry", action="store_true",
                        help="craft, my own box: your Codex has no entry for the code "
                             "(remembered; the action is spent, nothing is crafted)")


def cmd_craft(args: argparse.Namespace) -> int:
    return _run(args, lambda c: _craft(c, args, name=args.name, left=args.left - 1,
                                       left_rotation=args.left_turns, right=args.right - 1,
                                       right_rotation=args.right_turns))


def cmd_codes(args: argparse.Namespace) -> int:
    from companion import operations
    from companion.operations.crafting import crafting_explorer, explore_materials

    def explore(campaign: Any) -> tuple[dict[str, str], Any]:
        names = {m.id: m.name for m in campaign.content.materials.values()}
        if getattr(args, "material", None):
            return names, explore_materials(campaign, args.material, args.partner)
        if getattr(args, "partner", None):
            raise operations.Refused("--with needs --material: the first material")
        return names, crafting_explorer(campaign, args.names or None)

    return on_campaign(args, explore, _codes)


def _codes(explored: tuple[dict[str, str], Any]) -> tuple[dict[str, Any], str]:
    from companion.operations.crafting import KNOWN_WORDS

    names, found = explored
    rows = [{"code": str(d.code), "known": d.kind.value, "item": d.item,
             "ways": [str(o) for o in d.orientations]} for d in found]
    text = "\n".join(f"{d.code}  {KNOWN_WORDS[d.kind.value]:<28} {d.item or '':<20} "
                     f"{d.orientations[0].described(names)}"
                     for d in found) or "no two materials at hand combine"
    return {"codes": rows}, text


def register(sub: Any) -> None:
    """Add the play commands to the ``companion`` parser."""
    character_sub = command_family(sub, "character", "create characters", "character_command")
    create = with_path(character_sub.add_parser(
        "create", help="create a character (Rulebook: Character Creation)"))
    create.add_argument("--name", required=True)
    create.add_argument("--player", default="Player 1")
    dice = create.add_mutually_exclusive_group()
    dice.add_argument("--dice", type=int, nargs=5, metavar="D", help="five dice from the table")
    dice.add_argument("--roll", action="store_true", help="let the app roll the five dice")
    create.add_argument("--drop", type=int, default=5,
                        help="which die (1-5) to leave out (default: the fifth)")
    create.add_argument("--assign", type=_assignment,
                        help="might=N,dexterity=N,awareness=N,conviction=N")
    create.add_argument("--trait", action="append", default=[],
                        help="a trait, by name or id (repeatable)")
    create.add_argument("--mantle", help="the mantle, by name or id (e.g. Seeker)")
    create.add_argument("--new-trait", action="append", default=[], metavar="NAME",
                        help="a trait your box prints that the app does not know yet: "
                             "remembered in your own pack, then taken (repeatable)")
    create.add_argument("--new-mantle", metavar="NAME",
                        help="a mantle your box prints that the app does not know yet: "
                             "remembered in your own pack, then worn")
    create.add_argument("--hex", help="starting hex tile id")
    made = create.add_mutually_exclusive_group()
    made.add_argument("--replacement", action="store_true", default=None,
                      help="made after a death: enters with 0 energy in a hex with shelter "
                           "(assumed when a character perished this challenge and the "
                           "society is short of its character count)")
    made.add_argument("--starting", dest="replacement", action="store_false",
                      help="a starting character even though a character perished")
    create.set_defaults(func=cmd_character_create)

    with_path(sub.add_parser("characters", help="the characters in play")) \
        .set_defaults(func=cmd_characters)

    actions = with_path(sub.add_parser("actions", help="what a character can do here"))
    actions.add_argument("name")
    actions.set_defaults(func=cmd_actions)

    act = with_path(sub.add_parser(
        "act", help="take a Day action (see 'companion actions' for what is possible here)"))
    act.add_argument("name")
    act.add_argument("action", choices=ACTIONS)
    act.add_argument("target", nargs="?",
                     help="the hex (move, explore), the tray's number (tray), the feature "
                          "(forage, fish, mine, delve, outpost), the structure (structure) "
                          "or the character (revive)")
    act.add_argument("--token", type=int, action="append", metavar="POS",
                     help="a bag position, 1 = first (process, craft, structure; revive: "
                          "the health token)")
    act.add_argument("--turns", type=int, nargs=2, metavar=("LEFT", "RIGHT"),
                     help="craft: quarter turns of the left and right tokens (0-3)")
    _codex_says_options(act)
    act.add_argument("--tiles", nargs=3, metavar="HEX",
                     help="tray: the ids of the three tiles the table drew, in the order "
                          "'companion actions --json' lists the tray's places (default: the "
                          "app draws them; my own box: required)")
    act.add_argument("--enter", "--flipped", dest="enter",
                     help="tray: the tile the table flipped, by its id or the way it lies "
                          "(north-east ...): the character steps into it")
    act.add_argument("--outpost-name", help="outpost: the name written on the card")
    act.add_argument("--overlay", help="outpost: the outpost overlay chosen for it, by id or "
                                       "name (default: the first one free)")
    act.add_argument("--at", help="structure: the outpost (default: the one in the hex)")
    act.add_argument("--contribute", action="append", metavar="NAME=ENERGY",
                     help="outpost, structure: energy another character in the hex gives")
    act.add_argument("--pay", action="append", metavar="NAME=POS,POS",
                     help="structure: bag positions of materials a character discards "
                          "(default: the app takes them from the builder, then the others)")
    act.add_argument("--choice", action="append", metavar="ANSWER",
                     help="forage, fish, mine, delve: answer the next step (repeatable)")
    act.add_argument("--app", action="store_true",
                     help="forage, fish, mine, delve: the app answers every chance step")
    act.add_argument("--at-table", metavar="EFFECTS",
                     help="forage, fish, mine, delve played at the table with the real cards "
                          "(my own box, before the pack knows them): its cost is paid and "
                          "what it gave applied, e.g. 'gain 2 meat, lore +1'")
    act.add_argument("--card", metavar="ID",
                     help="--at-table: the id of the card the table drew (kept with the "
                          "record, to save as a card later)")
    act.add_argument("--character", metavar="NAME",
                     help="--at-table: whom unnamed effects fall on (default: the actor)")
    act.set_defaults(func=cmd_act)

    exchange_sub = command_family(sub, "exchange", "exchange items and materials before or "
                                  "after a Day action (Rulebook: Day Actions)", "exchange_command")
    give = with_path(exchange_sub.add_parser(
        "give", help="give an item or bag tokens to a character in the same hex"))
    give.add_argument("giver")
    give.add_argument("receiver")
    give.add_argument("--item", help="the item (id or card name)")
    give.add_argument("--token", type=int, action="append", metavar="POS",
                      help="a bag position, 1 = first (repeatable)")
    give.add_argument("--excess", metavar="ITEM",
                      help="when the receiver's slot is full: the item that goes")
    give.add_argument("--excess-to", metavar="NAME",
                      help="who takes that item (default: lost, if no one has room)")
    give.set_defaults(func=cmd_exchange_give)
    for verb, words, func in (("store", "place materials in an outpost's storage",
                               cmd_exchange_store),
                              ("take", "take materials from an outpost's storage",
                               cmd_exchange_take)):
        parser = with_path(exchange_sub.add_parser(verb, help=words))
        parser.add_argument("name")
        parser.add_argument("outpost", nargs="?", help="the outpost (default: the one here)")
        parser.add_argument("--token", type=int, action="append", metavar="POS", required=True,
                            help="a position, 1 = first, in the bag (store) or the store "
                                 "(take); repeatable")
        parser.set_defaults(func=func)
    excess = with_path(exchange_sub.add_parser(
        "excess", help="a character holding more items than the mantle's slots chooses "
                       "which goes (Exceeding Item Limits)"))
    excess.add_argument("name")
    excess.add_argument("item", nargs="?", help="the item that goes")
    where = excess.add_mutually_exclusive_group()
    where.add_argument("--to", help="the character in the hex who takes it")
    where.add_argument("--lose", action="store_true",
                       help="lose it (only when no one in the hex has room)")
    excess.set_defaults(func=cmd_exchange_excess)
    storage = with_path(exchange_sub.add_parser(
        "list", help="what a character holds, what each outpost here stores, and the item "
                     "choices waiting"))
    storage.add_argument("name")
    storage.set_defaults(func=cmd_exchange_list)

    discover = with_path(sub.add_parser(
        "discover", help="draw the Discovery card due after a move (the app draws, or "
                         "--card for the one drawn at the table)"))
    discover.add_argument("name", nargs="?", help="the character (default: the one due)")
    discover.add_argument("--card", help="the Discovery card drawn at the table")
    discover.add_argument("--die", type=int, action="append", metavar="N",
                          help="the die rolled at the table for its test (repeatable)")
    discover.add_argument("--app-rolls", action="store_true",
                          help="let the app roll the test of a card drawn at the table")
    discover.add_argument("--enter-card", action="append", metavar="FILE",
                          help="a Discovery card the campaign does not know, as YAML: "
                          "entered into your own pack, then drawn")
    discover.set_defaults(func=cmd_discover)

    society = with_path(sub.add_parser("society", help="turn the society's dials"))
    society.add_argument("track", choices=["unrest", "activity", "gain-lore", "spend-lore"])
    society.add_argument("amount", type=int)
    society.add_argument("--reason", default="")
    society.set_defaults(func=cmd_society)

    effect = with_path(sub.add_parser(
        "effect", help="apply effects read at the table ('gain wood 2', 'suffer minor_injury')"))
    effect.add_argument("name")
    effect.add_argument("effect", nargs="+")
    effect.add_argument("--source", default="", help="the card or Codex entry")
    effect.set_defaults(func=cmd_effect)

    craft = with_path(sub.add_parser("craft", help="lay two material tokens and craft"))
    craft.add_argument("name")
    craft.add_argument("left", type=int, help="bag position (1 = first) of the left token")
    craft.add_argument("right", type=int, help="bag position of the right token")
    craft.add_argument("--left-turns", type=int, default=0, help="quarter turns (0-3)")
    craft.add_argument("--right-turns", type=int, default=0, help="quarter turns (0-3)")
    _codex_says_options(craft)
    craft.set_defaults(func=cmd_craft)

    codes = with_path(sub.add_parser("codes", help="the crafting explorer: every code the "
                                                    "materials at hand make"))
    codes.add_argument("names", nargs="*", help="characters (default: the whole group)")
    codes.add_argument("--material", metavar="A",
                       help="explore any material the society knows, held or not "
                            "(id or name; both sides)")
    codes.add_argument("--with", dest="partner", metavar="B",
                       help="with --material: only this partner (default: every material)")
    codes.set_defaults(func=cmd_codes)

    valley_sub = command_family(sub, "valley", "set up the valley", "valley_command")
    setup = with_path(valley_sub.add_parser("setup", help="place the first terrain tray"))
    setup.add_argument("region")
    setup.add_argument("--tiles", nargs="*", help="the ids printed on the face-down tiles "
                                                  "the table placed (my own box: required)")
    setup.set_defaults(func=cmd_valley_setup)
    tile = with_path(valley_sub.add_parser(
        "tile", help="type a hex tile from the box once, when it is first flipped (or the "
                     "starting tile before set-up): it joins your own pack"))
    tile.add_argument("tile", help="the id printed on the tile")
    tile.add_argument("--region", required=True, help="its region (id or name)")
    tile.add_argument("--sections", nargs=3, required=True, metavar=("A", "B", "C"),
                      help="the terrain feature in sections a, b, c (id or name; 'none' for "
                           "an empty section)")
    tile.add_argument("--name", default="", help="the name printed on it, if any")
    tile.add_argument("--omen", action="append", default=[], metavar="OMEN:SECTION",
                      help="an omen printed on it, e.g. comet:b (repeatable)")
    tile.add_argument("--starting", action="store_true", help="the region's starting tile")
    tile.set_defaults(func=cmd_valley_tile)

    challenge_sub = command_family(sub, "challenge", "choose and set up a challenge",
                                   "challenge_command")
    start = with_path(challenge_sub.add_parser("start"))
    start.add_argument("challenge", nargs="?",
                       help="the challenge's id (or, with --enter-card/--card-id, none)")
    start.add_argument("--place", action="append", default=[], metavar="NAME=HEX",
                       help="where a carried-over character begins (default: the starting "
                            "hex; or a hex with an outpost)")
    start.add_argument("--mantle", action="append", default=[], metavar="NAME=MANTLE",
                       help="the mantle a player chooses for this challenge (default: the "
                            "one used previously; each mantle for one character)")
    start.add_argument("--mantle-power", action="append", default=[], metavar="NAME=POWER",
                       help="an unlocked power of that mantle (challenges after the first)")
    from companion.cli.challenge_cmd import register_challenge_verbs

    register_challenge_verbs(challenge_sub, start)  # end, retained, claim; --enter-card

