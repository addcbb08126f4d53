"""Issue 27 (a newcomer at the table), item 18: the card form. Its "Text:" label sits
beside its box, and a forage card offers only the objects of its deck (Rulebook:
Foraging > List of Objects: Grain Bush is a plains object)."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QPoint
from PySide6.QtWidgets import QApplication, QLabel, QPushButton

from companion.ui.card_field import content_lookup
from companion.ui.card_form import CardForm, RefEditor


def objects_offered(form: CardForm) -> list[set[str]]:
    return [{ref.combo.itemData(i) for i in range(ref.combo.count())}
            for ref in form.editor.findChildren(RefEditor) if ref.kind == "forage_objects"]


def test_forage_card_form_offers_only_its_decks_objects(qtbot: Any, demo: Any) -> None:
    form = CardForm("forage_cards", lookup=content_lookup(demo.content),
                    initial={"id": "FP31"})
    qtbot.addWidget(form)
    form.show()
    deck = form.editor.editors["deck"]
    deck.combo.setCurrentIndex(deck.combo.findData("forest"))
    # a spot added to the front row, by its button
    add = next(b for b in form.findChildren(QPushButton) if b.text() == "Add forage spot")
    add.click()
    offered = objects_offered(form)
    assert offered
    for objects in offered:
        assert "grain-bush" not in objects and "nut-bush" in objects
    deck.combo.setCurrentIndex(deck.combo.findData("plains"))
    for objects in objects_offered(form):
        assert "grain-bush" in objects and "nut-bush" not in objects
    add.click()  # a spot added after the deck changed: the plains objects too
    assert all("nut-bush" not in objects for objects in objects_offered(form))


def test_card_form_text_label_sits_beside_its_box(qtbot: Any, demo: Any) -> None:
    form = CardForm("forage_cards", lookup=content_lookup(demo.content),
                    initial={"id": "FP31"})
    qtbot.addWidget(form)
    form.resize(720, 900)
    form.show()
    QApplication.processEvents()
    editor = form.editor.editors["text"]
    label = next(w for w in form.editor.findChildren(QLabel) if w.text() == "Text:")
    box = editor.edit
    label_top = label.mapTo(form, QPoint(0, 0)).y()
    box_top = box.mapTo(form, QPoint(0, 0)).y()
    assert abs(label_top - box_top) <= label.height(), (label_top, box_top)
