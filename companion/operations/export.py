"""The journal as one Markdown document: every section, then the history. A paper
backup of the campaign (Rulebook: Using the Journal), readable without the program.

The PDF is made from this text by the interface (``companion/ui/pdf_export.py``); this
module only reads, and it never prints a Codex entry (only what the society recorded).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import UTC, datetime

from companion.operations import journal as j
from companion.operations.core import Campaign


def _cell(text: object) -> str:
    """Text safe inside a Markdown table cell."""
    return str(text).replace("|", "\\|").replace("\n", " ").strip() or " "


def _table(headers: Sequence[str], rows: Iterable[Sequence[object]]) -> list[str]:
    lines = ["| " + " | ".join(headers) + " |", "|" + "---|" * len(headers)]
    lines += ["| " + " | ".join(_cell(c) for c in row) + " |" for row in rows]
    return [*lines, ""]


def _escape(text: str) -> str:
    """Inline text that Markdown must not read as markup."""
    for char in ("\\", "*", "_", "`", "[", "]", "<", ">", "#"):
        text = text.replace(char, "\\" + char)
    return text


def journal_markdown(campaign: Campaign, *, valley_image: str | None = None,
                     cave_wall_images: bool = False, history_limit: int | None = None,
                     now: datetime | None = None) -> str:
    """The whole journal as Markdown.

    ``valley_image``: a URL to show the drawn valley map under the hex grid (the PDF
    export supplies one); ``cave_wall_images``: link each illustration that has an image
    as ``cave-wall-<id>.png`` (the PDF export registers those names); ``history_limit``:
    only the newest events of the history (None: all of it).
    """
    status = campaign.status()
    when = (now or datetime.now(UTC)).strftime("%Y-%m-%d %H:%M UTC")
    out = [f"# {_escape(status.society_name or campaign.title)} — the Journal", "",
           f"Epoch {status.epoch}; games this epoch {status.games_this_epoch}; "
           f"unrest {status.unrest}; lore {status.lore}. "
           f"Content: {', '.join(status.packs) or 'none'}. Written {when}.", ""]

    out += ["## Challenge Log", ""]
    log = j.challenge_log(campaign)
    if not log:
        out += ["No challenge played yet.", ""]
    for epoch in sorted({line.epoch for line in log}):
        out += [f"### Epoch {epoch}", ""]
        out += _table(("Challenge", "Characters", "Outcome entry", "Notes"), (
            (f"{line.challenge_name} ({line.challenge_id})", ", ".join(line.characters) or "—",
             line.outcome_entry or "—", line.notes_shown) for line in log
            if line.epoch == epoch))

    page = j.culture(campaign)
    out += ["## Culture", "", f"Lore: {page.lore}", ""]
    for title, entries in (("Culture abilities", page.abilities),
                           ("Mantle powers", page.mantle_powers),
                           *((j.CULTURE_LISTS[k], page.lists[k]) for k in j.CULTURE_LISTS)):
        out += [f"### {title}", ""]
        out += [f"- {_escape(e.text)}" for e in entries] or ["None recorded."]
        out.append("")

    out += ["## Outposts", ""]
    posts = j.outposts(campaign)
    out += _table(("Outpost", "Category", "Status", "Epoch built", "Overlay", "Hex",
                   "Structures"),
                  ((p.name, p.category, p.status, p.epoch_built, p.overlay_id or "—",
                    p.hex_id or "—", ", ".join(p.structures) or "—") for p in posts)) \
        if posts else ["No outposts yet.", ""]

    out += ["## Valley Map", ""]
    grid = j.valley_map(campaign)
    if grid:
        out += ["The journal's hex grid: each cell holds the ID of the hex tile placed there "
                "(odd columns sit half a hex lower).", ""]
        out += _table([f"{n + 1}" for n in range(len(grid[0]))],
                      ([t or "·" for t in row] for row in grid))
        if valley_image:
            out += [f"![The valley]({valley_image})", ""]
    else:
        out += ["The valley has not been set up yet.", ""]

    out += ["## Behemoths", ""]
    beasts = j.behemoths(campaign)
    out += _table(("Behemoth", "Hex", "Lair", "Demeanor", "Habits learned", "Secrets",
                   "Notes"),
                  ((b.name, b.hex_id or "—", b.lair_shown,
                    b.demeanor_shown, ", ".join(b.habits_learned) or "—",
                    "; ".join(b.secrets) or ("learned" if b.secret_learned else "—"),
                    b.note or "") for b in beasts)) if beasts else ["None met yet.", ""]

    out += ["## Decks", ""]
    changes = j.deck_changes(campaign)
    out += _table(("Deck", "Card", "Change", "Epoch", "Note"),
                  ((d.deck, d.card_id, d.change, d.epoch, d.note) for d in changes)) \
        if changes else ["No persistent deck changes.", ""]

    out += ["## Primal Cave Wall", ""]
    wall = j.cave_wall(campaign)
    if not wall:
        out += ["Nothing drawn on the cave wall yet.", ""]
    for art in wall:
        out += [f"### {_escape(art.title)}", "",
                f"Marks: **{', '.join(_escape(m) for m in art.marks)}** — epoch {art.epoch}"
                + (f". {_escape(art.note)}" if art.note else ""), ""]
        if art.has_image:
            out += ([f"![{_escape(art.title)}](cave-wall-{art.id}.png)", ""]
                    if cave_wall_images else ["(Illustration kept in the campaign file.)", ""])

    out += ["## Legends", ""]
    legends = j.legends(campaign)
    if legends:
        out += ["### Lineages", ""]
        out += [f"- {' → '.join(_escape(n) for n in chain)}" for chain in j.lineages(legends)]
        out.append("")
        out += _table(("Legend", "Epoch", "Succeeded by", "Marks", "Traits"),
                      ((x.name, x.epoch, x.succeeded_by or "—", ", ".join(x.marks) or "—",
                        ", ".join(x.traits) or "—") for x in legends))
    else:
        out += ["No legends yet.", ""]

    out += ["## Omens investigated", ""]
    omens = j.omen_investigations(campaign)
    out += _table(("Epoch", "Omen", "Component", "Note"),
                  ((e, o.capitalize(), c, n) for e, o, c, n in omens)) \
        if omens else ["None yet.", ""]
    out += ["## Codex entries read", ""]
    read = j.codex_entries_read(campaign)
    out += _table(("Entry", "Title", "Source", "Notes"), read) if read else ["None yet.", ""]
    out += ["## Crafting codes found", ""]
    codes = j.crafting_codes(campaign)
    out += _table(("Code", "Found", "Item"), codes) if codes else ["None yet.", ""]

    out += ["## Note pages", ""]
    notes = j.note_pages(campaign)
    for note in notes:
        out += [f"### {_escape(note.title or 'Note page')}", "", _escape(note.text), ""]
    if not notes:
        out += ["No note pages.", ""]

    out += ["## Entries", ""]
    written = j.entries(campaign, limit=history_limit or 100_000)
    out += [_line(e) for e in reversed(written)] or ["No entries yet."]
    out.append("")
    out += ["## History", ""]
    out += [_line(e) for e in j.history(campaign, limit=history_limit)] or ["Nothing yet."]
    out.append("")
    return "\n".join(out)


def _line(entry: j.EntryLine) -> str:
    text = _escape(entry.text)
    if entry.undone:
        text = f"~~{text}~~ (undone)"
    author = f" — {_escape(entry.author)}" if entry.author else ""
    return f"- {entry.when}{author}: {text}"
