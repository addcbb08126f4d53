"""Regenerate the Journal book's pictures in docs/screenshots/ from a demo campaign with
a filled-in journal: journal-<section>.png for each section, journal-search.png,
journal-codex-dialog.png (the Codex dialog after one lookup) and journal-pdf-page1.png (the
first page of the PDF export, through pdftoppm when it is installed).

Runs offscreen (QT_QPA_PLATFORM=offscreen); every picture is a ``QWidget.grab()`` at a
fixed size. Writes go through the operations, except the few rows no operation makes
yet on a fresh demo (a legend lineage, an outpost), written as plain demo data.
"""

from __future__ import annotations

import io
import shutil
import subprocess
from pathlib import Path
from typing import Any

from shots import OUT, save, start

SIZE = (1180, 680)  # fits a 1366x768 laptop (issue 20)
NAMES = {"cave_wall": "cave-wall", "codex": "omens-codes"}


def picture(kind: str) -> bytes:
    """A small cave-wall drawing made with Pillow (ochre on rock)."""
    from PIL import Image, ImageDraw

    image = Image.new("RGB", (360, 240), "#d8c7a6")
    draw = ImageDraw.Draw(image)
    ochre = "#7a2e12"
    if kind == "spiral":
        for n in range(6):
            draw.arc((180 - 18 * n, 120 - 18 * n, 180 + 18 * n, 120 + 18 * n),
                     start=90 * n, end=90 * n + 270, fill=ochre, width=6)
    elif kind == "hunt":
        draw.line((40, 200, 320, 200), fill=ochre, width=4)
        draw.ellipse((200, 110, 300, 170), outline=ochre, width=6)
        for x in (215, 240, 265, 285):
            draw.line((x, 165, x, 200), fill=ochre, width=5)
        for x in (60, 110):
            draw.line((x, 200, x, 140), fill=ochre, width=5)
            draw.ellipse((x - 10, 120, x + 10, 140), outline=ochre, width=5)
            draw.line((x, 160, x + 70, 130), fill=ochre, width=4)
    else:
        draw.polygon(((180, 40), (220, 200), (140, 200)), outline=ochre, width=6)
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


def fill_journal(campaign: Any) -> None:
    """A journal with something in every section."""
    from sqlmodel import select

    from companion import operations
    from companion.operations import codex
    from companion.operations import journal as j
    from companion.store import models

    [line] = j.challenge_log(campaign)
    j.set_challenge_characters(campaign, entry_id=line.id, characters=["Ash", "Bryn"])
    j.record_outcome(campaign, entry_id=line.id, outcome="112")
    operations.gain_lore(campaign, amount=3)
    operations.add_culture_ability(campaign, name="Smoke Signals")
    operations.unlock_mantle_power(campaign, power=next(iter(campaign.content.mantle_powers)))
    for category, text in (("taboos", "Never hunt the white stag"),
                           ("taboos", "No fire on the ice"),
                           ("pigments", "Red ochre"), ("pigments", "Charcoal black"),
                           ("knowledge", "K03 Star lore")):
        j.add_culture_entry(campaign, category=category, text=text)
    j.add_deck_change(campaign, deck="Night", card_id="N07", change="removed",
                      note="The long dark is over")
    j.add_deck_change(campaign, deck="Encounter", card_id="EN12", change="added",
                      note="The wounded wolf")
    j.add_cave_wall_illustration(campaign, title="The first great hunt",
                                 marks=["hunt", "spear"], image=picture("hunt"))
    j.add_cave_wall_illustration(campaign, title="The night the stars turned",
                                 marks=["spiral"], image=picture("spiral"),
                                 note="Drawn after entry 121")
    j.add_cave_wall_illustration(campaign, title="The mountain speaks",
                                 marks=["peak", "spiral"], image=picture("peak"))
    codex.look_up(campaign, request="read entry 103")
    codex.look_up(campaign, request="Sun E05", character="Ash")
    codex.look_up(campaign, request="R1410")
    with campaign.write("demo.journal", "Demo: a lineage and an outpost") as session:
        ash = session.exec(select(models.Character).where(models.Character.name == "Ash")).one()
        bryn = session.exec(select(models.Character).where(
            models.Character.name == "Bryn")).one()
        elder = models.Character(name="Tarn", status="legend")
        session.add(elder)
        session.flush()
        session.add(models.Legend(character_id=elder.id, name="Tarn the Firekeeper", epoch=1,
                                  succeeded_by_id=ash.id, marks=["spiral"],
                                  traits=["Steadfast"]))
        session.add(models.Legend(name="Wren Far-Sight", epoch=1, succeeded_by_id=bryn.id,
                                  traits=["Keen-eyed"]))
        start = session.exec(select(models.ValleyHex).where(
            models.ValleyHex.tile_id == "E01")).first()
        outpost = models.Outpost(name="Reed Camp", category="camp", epoch_built=1,
                                 overlay_id="O03", hex_id=start.id if start else None,
                                 section="a")
        session.add(outpost)
        session.flush()
        structure = next(iter(campaign.content.structures), "drying-rack")
        session.add(models.OutpostStructure(outpost_id=outpost.id or 0,
                                            structure_id=structure))
    j.write_entry(campaign, text="Bryn saw a white stag at the edge of the reeds.",
                  author="Player 2")
    j.write_entry(campaign, text="We agreed: no fire on the ice, ever again.",
                  author="Player 1")


def main() -> int:
    _, home = start()
    from companion import operations
    from companion.ui.codex_dialog import CodexDialog
    from companion.ui.main_window import MainWindow
    from companion.ui.pdf_export import write_pdf

    campaign = operations.create_demo_campaign(Path(home) / "journal.stonesaga")
    fill_journal(campaign)
    window = MainWindow()
    window.resize(*SIZE)
    window.show()
    window.set_campaign(campaign)
    journal = window.show_view("journal")
    book = journal.book  # type: ignore[attr-defined]
    for key in ("history", "entries", "challenges", "culture", "outposts", "valley",
                "decks", "cave_wall", "legends", "codex"):
        book.turn_to(key)
        save(window, f"journal-{NAMES.get(key, key)}.png", size=SIZE, passes=3)
    book.search_box.setText("spiral")
    book.run_search()
    save(window, "journal-search.png", size=SIZE, passes=3)

    dialog = CodexDialog(window)
    dialog.request.setText("R1410")
    dialog.look_up()
    dialog.show()
    save(dialog, "journal-codex-dialog.png", size=(620, 460), passes=3)
    dialog.close()

    pdf = Path(home) / "journal.pdf"
    pages = write_pdf(campaign, pdf)
    print(f"PDF: {pages} pages")
    if shutil.which("pdftoppm"):
        subprocess.run(["pdftoppm", "-r", "80", "-f", "1", "-l", "1", "-png", "-singlefile",
                        str(pdf), str(OUT / "journal-pdf-page1")], check=True)
        print("wrote docs/screenshots/journal-pdf-page1.png")
    else:
        print("pdftoppm is not installed: journal-pdf-page1.png not made")
    window.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
