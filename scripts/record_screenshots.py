"""Regenerate the pictures of the ways past an unknown card and of Codex outcomes in
docs/screenshots/ (issue 25 parts 3-4, issue 27 items 6 and 10), from a fresh demo
campaign:

- card-unknown-two-ways.png: the foraging dialog's card step with a card typed that
  the campaign's content lacks: said in the field, naming the packs, with "Enter this
  card…" and "Just record what happened…" under it;
- record-line.png: "Just record what happened": the effect line, its completion open;
- resolved-at-table.png: "We resolved this at the table" at a fishing step;
- codex-outcome-known.png / codex-outcome-unknown.png: outcome 100 shown with its
  effect to apply; outcome 999, which the Codex lacks, asking what it did;
- recorded-at-table.png: My Cards ▸ Recorded at the table, ready to save as a card;
- status-read-outcome.png: a Discovery that says "Read Codex outcome 109" and the
  status bar's "Read outcome 109…" button.

Runs offscreen (QT_QPA_PLATFORM=offscreen) or under xvfb-run; each picture is taken
with ``QWidget.grab()`` at a laptop's size. ``--out DIR`` writes elsewhere.
"""

from __future__ import annotations

from functools import partial

import shots


def main() -> int:
    out = shots.out_folder(__doc__.splitlines()[0])
    app, home = shots.start()
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    from companion import operations
    from companion.operations import recorded
    from companion.operations.activities import start_foraging
    from companion.rules.procedure import Decider
    from companion.ui.codex_outcome import OutcomeDialog
    from companion.ui.procedure_dialog import ProcedureDialog, open_procedure, start_activity
    from companion.ui.table_record import RecordDialog, RecordedCardsDialog

    def settle() -> None:
        for _ in range(4):  # nested layouts settle over a few passes
            app.processEvents()

    shoot = partial(shots.save, show=True, passes=4, laptop=False, out=out)
    campaign, window = shots.demo_window(home, "record", (1366, 740))

    # The card step: a forest card the campaign's content lacks, typed and used.
    start_foraging(campaign, name="Ash", feature="forest")
    dialog = open_procedure(window)
    assert isinstance(dialog, ProcedureDialog)
    field = dialog.step_widget.card_field
    field.combo.setEditText("FF99")
    field.use()
    shoot(dialog, "card-unknown-two-ways.png", size=(1366, 680))

    # "Just record what happened": the line with its completion open.
    record = RecordDialog(window, kind="forage_cards", card="FF99", actor="Ash")
    record.show()
    QTest.keyClicks(record.line, "lore +1, gain 2 me")
    settle()
    popup = record.line.completer().popup()
    shot = record.grab()
    if popup is not None and popup.isVisible():  # the popup is its own window: drawn in
        from PySide6.QtGui import QPainter

        painter = QPainter(shot)
        where = record.mapFromGlobal(popup.mapToGlobal(popup.rect().topLeft()))
        painter.drawPixmap(where, popup.grab())
        painter.end()
        if where.y() + popup.height() > shot.height():
            taller = shot.copy(0, 0, shot.width(), where.y() + popup.height() + 4)
            taller.fill(Qt.GlobalColor.white)
            painter = QPainter(taller)
            painter.drawPixmap(0, 0, record.grab())
            painter.drawPixmap(where, popup.grab())
            painter.end()
            shot = taller
    shot.save(str(out / "record-line.png"))
    print(f"wrote {out / 'record-line.png'}")
    record.line.setText("gain 2 meat, lore +1")
    record.record()
    dialog.close()

    # "We resolved this at the table" at a fishing step.
    fishing = start_activity(window, "fishing", "Bryn", "river")
    assert isinstance(fishing, ProcedureDialog)
    while fishing.step is not None and fishing.step.decider is Decider.CARD:
        fishing.step_widget.app_button.click()
    settle()
    table = fishing.step_widget.resolve_at_table()
    assert table is not None
    QTest.keyClicks(table.line, "gain 2 fish")  # type: ignore[attr-defined]
    shoot(table, "resolved-at-table.png")
    shoot(fishing, "resolved-at-table-step.png", size=(1366, 680))
    table.record()  # type: ignore[attr-defined]
    fishing.close()

    for number, name in (("100", "codex-outcome-known.png"),
                         ("999", "codex-outcome-unknown.png")):
        outcome = OutcomeDialog(window, number)
        if number == "999":
            outcome.line.setText("lore +1, gain 2 meat Ash")
        shoot(outcome, name)
        outcome.close()

    listed = RecordedCardsDialog(window)
    shoot(listed, "recorded-at-table.png")
    assert recorded.recorded_cards(campaign)
    listed.close()

    # A Discovery that says "Read Codex outcome 109": its button in the status bar.
    from companion.operations.exploration import draw_discovery

    explore = next(o for o in operations.available_actions(campaign, "Ash")
                   if o.action == "explore")
    window.run_operation(operations.move, name="Ash", to_hex=explore.target)
    window.run_operation(draw_discovery, name="Ash", card="DI06")
    window.show_view("valley")
    shoot(window, "status-read-outcome.png", size=(1366, 700))
    window.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
