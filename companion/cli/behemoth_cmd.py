"""The behemoth, headless: ``companion behemoth setup|show|target|learn|activate|encounter``.

``setup`` deals the cards and places the lair (typed with ``--instinct``, ``--secret``,
``--lair``; left out, the app draws them); ``show`` prints the behemoth and the exact odds
of its next activation (``--json``: probabilities as fractions and floats); ``target``
places the target token; ``learn`` spends lore on its habits or secret (D18);
``activate`` and ``encounter`` start the procedure and walk it like ``companion step``
(``--choice``, ``--app``).
"""

from __future__ import annotations

import argparse
from typing import Any

from companion.cli.campaign_command import command_family, on_campaign, with_path
from companion.cli.procedure_cmd import start_then_walk, with_walk


def _percent(p: Any) -> str:
    # The exact fraction only where it says more than the percentage ("100.0% (1)" did not).
    exact = f" ({p})" if 0 < float(p) < 1 else ""
    return f"{float(p) * 100:.1f}%{exact}"


def show_text(view: Any) -> str:
    """The behemoth in words (the ``show`` command's text output)."""
    if view is None:
        return "No behemoth is in play."
    abilities = ", ".join(f"{a} {v}" for a, v in view.abilities.items())
    boosts = ", ".join(f"{a} {'+'.join(map(str, f))}" for a, f in view.boosts.items())
    lines = [
        f"{view.name} in {view.hex} (lair {view.lair[0]}, section {view.lair[1]})",
        f"abilities: {abilities}" + (f"; boosts: {boosts}" if boosts else ""),
        f"target: {view.target or 'none'}"
        + (f" (hex {view.target_hex})" if view.target and view.target_hex else ""),
        f"Instinct {view.instinct} {view.instinct_name}: target {view.instinct_target}; "
        f"moves {view.instinct_movement}; encounters {view.instinct_encounter}",
        "habits: " + (f"learned (outcome {view.habits})" if view.habits_learned
                      else f"not learned ({view.learn_habits_refusal or 'may be learned'})"),
        "secret: " + (f"{view.secret['id']} {view.secret['name']} ({view.secret['omen']}): "
                      f"{view.secret['text']}" if view.secret else
                      f"face down ({view.learn_secret_refusal or 'may be learned'})"),
        f"Reaction deck: {view.reaction_deck} cards"
        + ("" if view.reaction_ordered else " (shuffled, order not fixed)"),
        "next activation ends in:",
        *[f"  {hex}: {_percent(p)}" for hex, p in view.end_hexes.items()],
        "chance it reaches each character (encounters by its Instinct card):",
        *[f"  {name} in {view.characters.get(name)}: {_percent(p)}"
          f" (encounter {_percent(view.encounter.get(name, 0))})"
          for name, p in view.reach.items()],
    ]
    if view.procedure:
        lines.append(f"in progress: {view.procedure.replace('_', ' ')}"
                     + (f", then {', '.join(view.pending_encounters)}"
                        if view.pending_encounters else ""))
    return "\n".join(lines)


def _view_data(view: Any) -> dict[str, Any]:
    return {"behemoth": None if view is None else view.to_data()}


def cmd_setup(args: argparse.Namespace) -> int:
    from companion.operations import behemoth

    def call(campaign: Any) -> Any:
        changes = behemoth.set_up_behemoth(
            campaign, behemoth=args.behemoth, instinct=args.instinct, secret=args.secret,
            lair_hex=args.lair, lair_section=args.section)
        return changes, behemoth.behemoth_view(campaign)

    return on_campaign(args, call, lambda done: (
        {"summary": done[0].summary, **_view_data(done[1])}, done[0].summary))


def cmd_show(args: argparse.Namespace) -> int:
    from companion.operations import behemoth

    return on_campaign(args, behemoth.behemoth_view,
                       lambda view: (_view_data(view), show_text(view)))


def cmd_learn(args: argparse.Namespace) -> int:
    from companion.operations import behemoth

    op = behemoth.learn_habits if args.what == "habits" else behemoth.learn_secret
    return on_campaign(args, lambda c: op(c, name=args.name))


def cmd_target(args: argparse.Namespace) -> int:
    from companion.operations import behemoth

    target = None if args.target in ("none", "") else args.target
    return on_campaign(args, lambda c: behemoth.set_target(c, target=target))


def cmd_activate(args: argparse.Namespace) -> int:
    from companion.operations import behemoth

    return start_then_walk(args, behemoth.start_activation)


def cmd_encounter(args: argparse.Namespace) -> int:
    from companion.operations import behemoth

    return start_then_walk(args, lambda c: behemoth.start_encounter(c, name=args.name))


def register(sub: Any) -> None:
    """Add the ``behemoth`` commands to the ``companion`` parser."""
    inner = command_family(sub, "behemoth", "the behemoth: set up, show, learn, activate",
                           "behemoth_command")
    setup = with_path(inner.add_parser(
        "setup", help="set up a behemoth (cards and lair typed, or drawn by the app)"))
    setup.add_argument("behemoth", help="the behemoth's id (e.g. rimeback)")
    setup.add_argument("--instinct", help="the Instinct card dealt (default: the app deals)")
    setup.add_argument("--secret", help="the Secret card dealt (default: the app deals)")
    setup.add_argument("--lair", metavar="HEX", help="the lair's hex (default: the app picks)")
    setup.add_argument("--section", default="a", choices=("a", "b", "c"),
                       help="the lair overlay's section (any orientation)")
    setup.set_defaults(func=cmd_setup)
    with_path(inner.add_parser(
        "show", help="the behemoth and the odds of its next activation")) \
        .set_defaults(func=cmd_show)
    target = with_path(inner.add_parser("target", help="place the target token"))
    target.add_argument("target", help="a character's name, a hex id, or 'none'")
    target.set_defaults(func=cmd_target)
    learn = with_path(inner.add_parser(
        "learn", help="spend lore to learn its habits or secret"))
    learn.add_argument("what", choices=("habits", "secret"))
    learn.add_argument("--name", help="the character who learns (default: the first in range)")
    learn.set_defaults(func=cmd_learn)
    with_walk(inner.add_parser("activate", help="the behemoth activates (walks the steps)")) \
        .set_defaults(func=cmd_activate)
    encounter = with_walk(inner.add_parser("encounter", help="a character encounters it"))
    encounter.add_argument("name", help="the character")
    encounter.set_defaults(func=cmd_encounter)
