"""Headless journal commands: export the journal (Markdown or PDF), read one Codex entry,
search the journal, read and write the Culture page. The same operations as the GUI's
Journal book and Codex dialog.

    companion journal-export PATH --md OUT.md | --pdf OUT.pdf
    companion codex PATH outcome 104 | omen cloud FO13 [--character NAME] | craft R1410
    companion search PATH QUERY [--section S ...] [--epoch N] [--challenge ID] [--json]
    companion culture list PATH | add PATH ABILITY

Every Codex lookup is recorded in the journal, like the GUI's (nothing is ever listed).
"""

from __future__ import annotations

import argparse
import dataclasses
from pathlib import Path
from typing import Any

from companion.cli.campaign_command import (
    command_family,
    emit,
    on_campaign,
    open_campaign,
    with_path,
)
from companion.cli.terminal import refuse


def cmd_journal_export(args: argparse.Namespace) -> int:
    from companion import operations
    from companion.operations.export import journal_markdown

    if not args.md and not args.pdf:
        return refuse(operations.Refused("Say where to write it: --md OUT.md and/or "
                                           "--pdf OUT.pdf."))
    written: dict[str, Any] = {}
    try:
        with open_campaign(args) as campaign:
            if args.md:
                Path(args.md).write_text(journal_markdown(campaign), encoding="utf-8")
                written["md"] = args.md
            if args.pdf:
                # The PDF is drawn by Qt (companion/ui), imported only here and only for
                # --pdf, as the GUI launcher is: the other commands never load Qt.
                from companion.ui import pdf_export  # lazily: the PDF is drawn with Qt
                written["pdf"] = args.pdf
                written["pages"] = pdf_export.write_pdf(campaign, Path(args.pdf))
    except operations.Refused as exc:
        return refuse(exc)
    except OSError as exc:
        return refuse(exc)
    lines = []
    if "md" in written:
        lines.append(f"Journal written to {written['md']}")
    if "pdf" in written:
        lines.append(f"Journal written to {written['pdf']} ({written['pages']} pages)")
    emit(args, {"written": written}, "\n".join(lines))
    return 0


def cmd_codex(args: argparse.Namespace) -> int:
    from companion import operations
    from companion.operations import codex

    try:
        with open_campaign(args) as campaign:
            if args.codex_command == "outcome" and (args.apply or args.effects):
                return _outcome_applied(args, campaign)  # one operation: read and applied
            if args.codex_command == "outcome":
                changes = codex.read_outcome(campaign, number=args.number)
            elif args.codex_command == "omen":
                changes = codex.investigate_omen(campaign, omen=args.omen,
                                                 component=args.component,
                                                 character=args.character)
            else:
                changes = codex.look_up_crafting(campaign, code=" ".join(args.code))
    except operations.Refused as exc:
        return refuse(exc)
    reveal = changes.detail
    assert isinstance(reveal, codex.CodexReveal)
    text = f"{reveal.title}\n\n{reveal.text}" if reveal.found else reveal.text
    if args.codex_command == "outcome":
        text += "\n\n" + outcome_hint(args.number, reveal.found)
    emit(args, {"entry": dataclasses.asdict(reveal), "summary": changes.summary}, text)
    return 0


def outcome_hint(number: str, found: bool) -> str:
    """What to type next about outcome ``number`` (its effects, or what it did)."""
    if found:
        return (f"Apply its effects: companion codex outcome PATH {number} --apply "
                "[--character NAME]")
    return (f"Not in this campaign's Codex: type what it did, e.g. companion codex outcome "
            f"PATH {number} --effects 'lore +1, gain 2 meat Ash' (remembered for next time)")


def _outcome_applied(args: argparse.Namespace, campaign: Any) -> int:
    """``codex outcome N --apply`` / ``--effects LINE``: the outcome read and acted on
    in one operation (issue 25 part 4); its text is shown with what was applied."""
    from companion import operations
    from companion.operations import codex_outcomes

    try:
        changes = codex_outcomes.resolve_outcome(campaign, number=args.number,
                                                 line=args.effects or "",
                                                 character=args.character)
    except operations.Refused as exc:
        return refuse(exc)
    entry = changes.detail
    assert isinstance(entry, codex_outcomes.OutcomeEntry)
    text = f"Entry {entry.number}\n\n{entry.text}\n\n{changes.summary}" if entry.text \
        else changes.summary
    emit(args, {"applied": changes.summary, "outcome": dataclasses.asdict(entry)}, text)
    return 0


def cmd_search(args: argparse.Namespace) -> int:
    from companion.operations import journal

    return on_campaign(args, lambda c: journal.search(
        c, args.query, sections=args.section or None, epoch=args.epoch,
        challenge=args.challenge, limit=args.limit), lambda hits: _hits(args, hits))


def _hits(args: argparse.Namespace, hits: Any) -> tuple[dict[str, Any], str]:
    text = "\n".join(f"{h.section_title:<18} {h.title}: {h.text}"
                     + (f"  ({h.when})" if h.when else "") for h in hits) \
        or f"Nothing in the journal mentions '{args.query}'."
    return {"hits": [{**dataclasses.asdict(h), "section_title": h.section_title}
                     for h in hits]}, text


def cmd_culture(args: argparse.Namespace) -> int:
    """``culture add``: the society gains a culture ability (one undoable operation);
    ``culture list``: the Culture page."""
    from companion import operations
    from companion.operations import journal

    if args.culture_command == "add":
        return on_campaign(args, lambda c: operations.add_culture_ability(
            c, name=" ".join(args.ability)))
    return on_campaign(args, journal.culture, _culture_page)


def _culture_page(page: Any) -> tuple[dict[str, Any], str]:
    from companion.operations.journal import CULTURE_LISTS

    def texts(entries: Any) -> list[str]:
        return [e.text for e in entries]

    lists = {key: texts(page.lists.get(key, ())) for key in CULTURE_LISTS}
    lines = [f"Lore: {page.lore}",
             f"Culture abilities: {', '.join(texts(page.abilities)) or 'none yet'}",
             f"Mantle powers: {', '.join(texts(page.mantle_powers)) or 'none yet'}"]
    lines += [f"{CULTURE_LISTS[key]}: {', '.join(found)}" for key, found in lists.items()
              if found]
    return {"culture": {"lore": page.lore, "abilities": texts(page.abilities),
                        "mantle_powers": texts(page.mantle_powers), "lists": lists}}, \
        "\n".join(lines)


def register(sub: Any) -> None:
    """Add journal-export, codex, search and culture to the ``companion`` parser."""
    from companion.operations.journal import SECTIONS

    export = with_path(sub.add_parser(
        "journal-export", help="the journal as Markdown or PDF (a paper backup)"))
    export.add_argument("--md", metavar="OUT.md", help="write Markdown here")
    export.add_argument("--pdf", metavar="OUT.pdf", help="write a PDF here")
    export.set_defaults(func=cmd_journal_export)

    codex_sub = command_family(sub, "codex", "read one Codex entry (recorded in the journal)",
                               "codex_command")
    outcome = with_path(codex_sub.add_parser("outcome", help='"read entry 104"'))
    outcome.add_argument("number", help="the three-digit outcome number")
    outcome.add_argument("--apply", action="store_true",
                         help="apply its effects (one undoable operation)")
    outcome.add_argument("--effects", metavar="LINE",
                         help="what it did, typed from the book ('lore +1, gain 2 meat "
                              "Ash'): applied, and remembered if the Codex lacks it")
    outcome.add_argument("--character", help="whom its effects on a character fall on")
    omen = with_path(codex_sub.add_parser(
        "omen", help="investigate an omen: it must match a current omen"))
    omen.add_argument("omen", help="cloud, comet, moon, stars or sun")
    omen.add_argument("component", help="the component ID the omen is on (FO13)")
    omen.add_argument("--character", help="who investigates (one omen per turn)")
    craft = with_path(codex_sub.add_parser("craft", help="a crafting code: R1410, B2132"))
    craft.add_argument("code", nargs="+", help="R1410, or a colour and a code: red 1410")
    for parser in (outcome, omen, craft):
        parser.set_defaults(func=cmd_codex)

    search = with_path(sub.add_parser("search", help="search the journal"))
    search.add_argument("query", help="text, a mark or an ID")
    search.add_argument("--section", action="append", choices=list(SECTIONS),
                        help="only this section (may be repeated)")
    search.add_argument("--epoch", type=int, help="only this epoch")
    search.add_argument("--challenge", help="only this challenge (its ID)")
    search.add_argument("--limit", type=int, default=200, help="at most this many per section")
    search.set_defaults(func=cmd_search)

    culture_sub = command_family(sub, "culture", "the Culture page: lore, culture abilities, "
                                 "mantle powers and the journal's lists", "culture_command")
    with_path(culture_sub.add_parser("list", help="what the Culture page holds")) \
        .set_defaults(func=cmd_culture)
    gained = with_path(culture_sub.add_parser(
        "add", help="the society gains a culture ability (a card or the Codex gives it)"))
    gained.add_argument("ability", nargs="+", help="its name, as given: Fire Keeping")
    gained.set_defaults(func=cmd_culture)
