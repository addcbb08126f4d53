"""Regenerate the pictures of entering cards in docs/screenshots/ from a fresh demo
campaign:

- card-entry-step.png: the fishing dialog's card step with a card typed that the
  campaign does not know, and "Enter this card…";
- card-form-fishing.png, card-form-night.png, card-form-forage.png,
  card-form-material.png: the card forms (built from the pack schema), filled in with a
  card as an owner would type it;
- card-form-problems.png: a fishing card form saved half-filled: each field and why;
- my-cards.png: the My cards window with the user's own pack and a problem shown.

Runs offscreen (QT_QPA_PLATFORM=offscreen) or under xvfb-run; each picture is taken
with ``QWidget.grab()``. ``--out DIR`` writes elsewhere (to look at them first).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    out: Path = parser.parse_args().out
    home = tempfile.mkdtemp(prefix="companion-shots-")
    os.environ["COMPANION_HOME"] = home
    sys.path.insert(0, str(ROOT))
    from PySide6.QtWidgets import QApplication, QWidget

    from companion import operations
    from companion.operations import cards
    from companion.ui.card_field import content_lookup
    from companion.ui.card_form import CardForm
    from companion.ui.main_window import MainWindow
    from companion.ui.procedure_dialog import ProcedureDialog, start_activity

    app = QApplication.instance() or QApplication([])
    app.setStyle("Fusion")
    out.mkdir(parents=True, exist_ok=True)

    def shoot(widget: QWidget, name: str, size: tuple[int, int] | None = None) -> None:
        if size is not None:
            widget.resize(*size)
        widget.show()
        for _ in range(4):  # nested layouts settle over a few passes
            app.processEvents()
        path = out / name
        widget.grab().save(str(path))
        print(f"wrote {path}")

    campaign = operations.create_demo_campaign(Path(home) / "cards.stonesaga")
    window = MainWindow()
    window.resize(1180, 760)
    window.show()
    window.set_campaign(campaign)
    content = campaign.content
    lookup = content_lookup(content)

    # The step: a card the campaign does not know, typed at the table.
    dialog = start_activity(window, "fishing", "Ash", "river")
    assert isinstance(dialog, ProcedureDialog)
    field = dialog.step_widget.card_field
    field.combo.setEditText("FI31")
    shoot(dialog, "card-entry-step.png", (1100, 760))

    def form(kind: str, template: object, changes: dict[str, object], name: str) -> None:
        data = template.model_dump(mode="json") | changes  # type: ignore[attr-defined]
        card_form = CardForm(kind, lookup=lookup, initial=data)
        shoot(card_form, name, (720, 680))
        card_form.close()

    form("fishing_cards", content.fishing_cards["FI01"], {"id": "FI31"},
         "card-form-fishing.png")
    form("night_cards", next(iter(content.night_cards.values())),
         {"id": "N31", "name": "Owl at Dusk"}, "card-form-night.png")
    form("forage_cards", content.forage_cards["FP08"], {"id": "FP31"},
         "card-form-forage.png")
    form("materials", content.materials["clay"], {"id": "umber", "name": "Umber"},
         "card-form-material.png")

    half = CardForm("fishing_cards", lookup=lookup, initial={"id": "FI31"})
    half.try_save()
    shoot(half, "card-form-problems.png", (720, 680))
    half.close()

    # My cards: two cards entered, and a problem in a hand-edited file.
    for card_id, name in (("DX31", "Hidden Spring"), ("DX32", "Bone Field")):
        template = next(iter(content.discovery_cards.values()))
        cards.enter_card(campaign, kind="discovery_cards",
                         data=template.model_dump(mode="json") | {"id": card_id, "name": name})
    dialog.close()
    own = Path(home) / "content" / "sample-mine"
    (own / "night_cards.yaml").write_text(  # typed by hand, with a slip
        "night_cards:\n  - id: N40\n    name: Long Dark\n    type: solo\n"
        "    omens: [moon]\n    activity: 1\n", encoding="utf-8")
    from companion.ui.my_cards import open_my_cards

    mine = open_my_cards(window)
    assert mine is not None
    mine.validate()
    shoot(mine, "my-cards.png", (1000, 640))
    window.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
