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

from functools import partial
from pathlib import Path

import shots


def main() -> int:
    out = shots.out_folder(__doc__.splitlines()[0])
    _, home = shots.start(refusals=False)
    from companion.operations import cards
    from companion.ui.card_field import content_lookup
    from companion.ui.card_form import CardForm
    from companion.ui.procedure_dialog import ProcedureDialog, start_activity

    shoot = partial(shots.save, show=True, passes=4, laptop=False, out=out)
    campaign, window = shots.demo_window(home, "cards", (1180, 760))
    content = campaign.content
    lookup = content_lookup(content)

    # The step: a card the campaign does not know, typed at the table.
    dialog = start_activity(window, "fishing", "Ash", "river")
    assert isinstance(dialog, ProcedureDialog)
    field = dialog.step_widget.card_field
    field.combo.setEditText("FI31")
    shoot(dialog, "card-entry-step.png", size=(1100, 760))

    def form(kind: str, template: object, changes: dict[str, object], name: str) -> None:
        data = template.model_dump(mode="json") | changes  # type: ignore[attr-defined]
        card_form = CardForm(kind, lookup=lookup, initial=data)
        shoot(card_form, name, size=(720, 680))
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
    shoot(half, "card-form-problems.png", size=(720, 680))
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
    shoot(mine, "my-cards.png", size=(1000, 640))
    window.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
