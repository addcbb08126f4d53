"""The user's own cards from the terminal: ``companion content add-card``,
``content remove-card``, ``content my-cards``, and entering an unknown card during
``companion step`` (see :func:`offer_card`).

- ``content add-card PACK KIND [FILE]``: read one card (or a list of cards) as YAML
  from FILE or standard input, check it against the schema and the packs it refers to,
  and write it into PACK. PACK is a user pack's id, or the id of any pack: then the
  user's own pack extending it (``<id>-mine``) is used, created on first use.
  ``--replace ID`` edits a card. Exit 1, naming each field and why, if it does not fit;
  nothing is then written.
- ``content remove-card PACK KIND ID``: delete a card from a user pack.
- ``content my-cards [--json]``: the user's packs and their cards, ``file:line``.
- ``content recorded FILE [--json]``: the cards recorded at the table as effects
  ("Just record what happened"), each with its journal entry's number.
- ``content save-record FILE EVENT [YAML] [--kind KIND] [--json]``: "Save as a card":
  the card recorded by journal entry EVENT written into your own pack, its id and
  effects filled in from the record (YAML: the fields the record lacks, e.g. its name
  and a forage card's rows).
- ``content adopt FILE [--edited] [--json]``: add the cards campaign FILE carries that
  this computer's pack lacks to that pack (``--edited``: also write the campaign's
  version over cards this pack holds in another version).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from companion.cli.campaign_command import on_campaign, with_path
from companion.cli.terminal import print_json, refuse, say


def register_content(sub: Any) -> None:
    """Add the card commands to the ``content`` command family."""
    add = sub.add_parser("add-card", help="write a card (YAML) into your own pack")
    add.add_argument("pack", metavar="PACK",
                     help="a pack id: your pack, or a pack your pack extends")
    add.add_argument("kind", metavar="KIND", help="fishing_cards, night_cards, materials ...")
    add.add_argument("file", nargs="?", default="-", metavar="FILE",
                     help="YAML of the card (default: standard input)")
    add.add_argument("--replace", metavar="ID", help="edit the card with this id")
    add.add_argument("--json", action="store_true", help="machine-readable output")
    add.set_defaults(func=_add_card)

    remove = sub.add_parser("remove-card", help="delete a card from your own pack")
    remove.add_argument("pack", metavar="PACK")
    remove.add_argument("kind", metavar="KIND")
    remove.add_argument("id", metavar="ID")
    remove.set_defaults(func=_remove_card)

    mine = sub.add_parser("my-cards", help="list your own packs and their cards")
    mine.add_argument("--json", action="store_true", help="machine-readable output")
    mine.set_defaults(func=_my_cards)


    adopt = with_path(sub.add_parser(
        "adopt", help="add the cards a campaign carries to this computer's pack"))
    adopt.add_argument("--edited", action="store_true",
                       help="also write the campaign's version over cards edited here")
    adopt.set_defaults(func=_adopt)

    listed = with_path(sub.add_parser(
        "recorded", help="the cards recorded at the table as effects (to save as cards)"))
    listed.set_defaults(func=_recorded)
    save = with_path(sub.add_parser(
        "save-record", help="save a card recorded at the table as a card of your own pack"))
    save.add_argument("event", type=int, help="its journal entry (see 'content recorded')")
    save.add_argument("file", nargs="?", metavar="YAML",
                      help="the fields the record lacks (name, rows ...); '-' = stdin")
    save.add_argument("--kind", metavar="KIND", help="its kind, if the record lacks it")
    save.set_defaults(func=_save_record)


def kind_of(text: str) -> str | None:
    """A component kind from what was typed: ``fishing_cards``, ``fishing-cards``,
    ``fishing``, ``night card`` ... (None if none fits)."""
    from companion.content import KINDS

    key = text.strip().lower().replace("-", "_").replace(" ", "_")
    for candidate in (key, f"{key}s", f"{key}_cards", key.removesuffix("s") + "_cards",
                      f"{key.removesuffix('_card')}_cards"):
        if candidate in KINDS:
            return candidate
    return None


def read_yaml(source: str) -> Any:
    from companion.content import yamlio

    text = sys.stdin.read() if source == "-" else Path(source).read_text(encoding="utf-8")
    return yamlio.load(text)


def _target_pack(pack_id: str) -> Any:
    """The user pack to write for ``pack_id`` (when it is another pack's, the user's
    own pack extending it: created with the first card written, never by a refusal)."""
    from companion.content import ContentError, discover_packs
    from companion.content import user_pack as packs

    own = packs.find_user_pack(pack_id)
    if own is not None:
        return own
    try:
        manifests = {m.id: m for m in discover_packs()}
    except ContentError as exc:
        raise LookupError(str(exc)) from exc
    if pack_id not in manifests:
        known = ", ".join(sorted(manifests)) or "none"
        raise LookupError(f"there is no pack {pack_id!r} (packs found: {known})")
    return packs.own_pack_for([manifests[pack_id]], create=False)


def _problems(exc: Any) -> list[str]:
    """Each problem of a ContentError, printed on stderr; returned for ``--json``."""
    lines = []
    for issue in exc.issues:
        where = str(issue) if issue.line is not None else (
            f"{issue.where}: {issue.path}: {issue.message}" if issue.path else
            f"{issue.where}: {issue.message}")
        say(where, err=True)
        lines.append(where)
    return lines


def _add_card(args: argparse.Namespace) -> int:
    import yaml

    from companion.content import ContentError
    from companion.content import user_pack as packs

    kind = kind_of(args.kind)
    if kind is None:
        from companion.content import KINDS

        return refuse(f"no kind of card {args.kind!r}; one of: {', '.join(KINDS)}")
    try:
        data = read_yaml(args.file)
        pack = _target_pack(args.pack)
    except (OSError, UnicodeDecodeError, yaml.YAMLError, LookupError) as exc:
        return refuse(exc)
    except ContentError as exc:
        return refuse("the packs do not read", problems=_problems(exc))
    items = data if isinstance(data, list) else [data]
    try:  # all the cards or none
        cards = packs.add_cards(pack, kind, items, replace=args.replace)
    except ContentError as exc:
        problems = _problems(exc)
        return refuse(f"the {packs.kind_word(kind)} was not saved", problems=problems)
    written = [str(getattr(card, "id", "")) for card in cards]
    version = packs.find_user_pack(pack.manifest.id)
    shown = version.manifest.version if version else pack.manifest.version
    file = packs.card_file(pack.folder, kind)
    if args.json:
        print_json({"pack": pack.manifest.id, "version": shown, "kind": kind,
                    "ids": written, "file": str(file)})
    else:
        say(f"added {packs.kind_word(kind)} {', '.join(written)} to {pack.manifest.id} "
              f"{shown} ({file})")
    return 0


def _remove_card(args: argparse.Namespace) -> int:
    from companion.content import ContentError
    from companion.content import user_pack as packs

    pack = packs.find_user_pack(args.pack)
    kind = kind_of(args.kind)
    if pack is None or kind is None:
        return refuse(f"{args.pack!r} is not one of your packs" if pack is None else
                      f"no kind of card {args.kind!r}")
    try:
        packs.delete_card(pack.folder, kind, args.id)
    except ContentError as exc:
        return refuse(f"{args.id} was not removed", problems=_problems(exc))
    say(f"removed {packs.kind_word(kind)} {args.id} from {pack.manifest.id}")
    return 0


def _my_cards(args: argparse.Namespace) -> int:
    from companion.content import user_pack as packs

    listing: list[dict[str, Any]] = []
    for pack in packs.user_packs():
        problems = [str(i) for i in packs.check_pack(pack.folder)]
        listing.append({
            "id": pack.manifest.id, "name": pack.manifest.name,
            "version": pack.manifest.version, "extends": pack.manifest.extends,
            "folder": str(pack.folder), "problems": problems,
            "cards": [{"kind": e.kind, "id": e.id, "name": e.name, "where": e.where}
                      for e in packs.entries(pack.folder)
                      if e.kind not in packs.SEALED_KINDS],  # the Codex stays secret
        })
    if args.json:
        print_json({"packs": listing})
        return 0
    if not listing:
        say("You have no packs of your own yet: cards you enter at the table go into one.")
    for shown in listing:
        say(f"{shown['name']} ({shown['id']} {shown['version']}, extends {shown['extends']})")
        for card in shown["cards"]:
            name = f" {card['name']}" if card["name"] else ""
            say(f"  {packs.kind_word(card['kind'])} {card['id']}{name}  [{card['where']}]")
        for line in shown["problems"]:
            say(f"  problem: {line}")
    return 0


def _adopt(args: argparse.Namespace) -> int:
    from companion.operations import own_cards

    def adopted(done: tuple[Any, Any]) -> tuple[dict[str, Any], str]:
        changes, report = done
        return ({"summary": changes.summary, "carried": report.carried,
                 "missing": [c.card_id for c in report.missing],
                 "edited": [c.card_id for c in report.edited]},
                "\n".join([changes.summary, *report.lines(str(args.path))]))

    return on_campaign(args, lambda c: (own_cards.adopt_cards(c, edited=args.edited),
                                        own_cards.carried_report(c)), adopted)


def _recorded(args: argparse.Namespace) -> int:
    from companion.content import user_pack as packs
    from companion.operations import recorded

    def listed(found: Any) -> tuple[dict[str, Any], str]:
        lines = [f"#{r.event_id}  {packs.kind_word(r.kind) if r.kind else 'card'} {r.card}: "
                 f"{r.line}  ({r.when})" for r in found]
        return ({"recorded": recorded.recorded_summary(found)},
                "\n".join(lines) or "No card was recorded at the table.")

    return on_campaign(args, recorded.recorded_cards, listed)


def _save_record(args: argparse.Namespace) -> int:
    import yaml

    from companion.operations import recorded

    try:
        extra = read_yaml(args.file) if args.file else {}
    except (OSError, UnicodeDecodeError, ValueError, yaml.YAMLError) as exc:
        return refuse(exc)
    if extra is not None and not isinstance(extra, dict):
        return refuse("the YAML is a mapping of the card's fields (name: ..., rows: ...)")
    kind = kind_of(args.kind) if args.kind else None
    return on_campaign(args, lambda c: recorded.save_record_as_card(
        c, event_id=args.event, data=extra or {}, kind=kind),
        lambda changes: ({"summary": changes.summary, "card": changes.detail},
                         changes.summary))


# --- entering a card during ``companion step`` ----------------------------------------------


def enter_from_yaml(campaign: Any, kind: str, data: Any, typed: str | None) -> Any:
    """Enter ``data`` (a card read from YAML) as a card of ``kind``; its id defaults to
    what was typed at the step. Returns the operation's Changes (Refused if it does
    not fit)."""
    from companion.operations import Refused, cards

    if not isinstance(data, dict):
        raise Refused("a card is a mapping of its fields (id: ..., name: ...)")
    if typed and "id" not in data:
        data = {"id": typed, **data}
    return cards.enter_card(campaign, kind=kind, data=data)


def offer_card(campaign: Any, kind: str, typed: str, read: Any) -> bool:
    """Offer to enter ``typed``, a card the campaign does not know, at the terminal:
    the card is typed as YAML, ended by an empty line. True if it was entered."""
    import yaml

    from companion.content import yamlio
    from companion.content.user_pack import kind_word
    from companion.operations import Refused

    word = kind_word(kind)
    say(f"{typed} is not a {word} this campaign knows. Enter it now? [y/N]")
    if not read().strip().lower().startswith("y"):
        return False
    say(f"Type the {word} as YAML (its id is {typed} unless you give one); "
          "end with an empty line:")
    lines = []
    while (line := read()).strip():
        lines.append(line)
    try:
        changes = enter_from_yaml(campaign, kind, yamlio.load("\n".join(lines)), typed)
    except yaml.YAMLError as exc:
        refuse(f"the YAML does not read: {exc}")
        return False
    except Refused as exc:
        refuse(exc)
        return False
    say(changes.summary)
    return True
