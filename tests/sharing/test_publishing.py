"""Issue 38, the cost of shared play: a burst of operations is published together (the
window a moment later, the CLI once per command, any file when it closes), and an
operation that waits is never lost: a crash before publishing publishes it at the next
sync or publish."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from companion import operations
from companion.operations import sharing
from tests.cli.helpers import run
from tests.sharing.conftest import Table
from tests.sharing.test_folder_content import machine_folder


def _segments(table: Table, who: str) -> list[Path]:
    return sorted(machine_folder(table, who).glob("ops-*.json"))


def test_issue38_operations_played_within_seconds_go_to_the_folder_as_one_segment(
        table: Table) -> None:
    bryn = table.machines["bryn"]
    bryn.file.publish_every = 3600  # the window's batching, far from its timer
    before = _segments(table, "bryn")
    operations.add_journal_entry(bryn, text="the first note goes at once")
    assert len(_segments(table, "bryn")) == len(before) + 1
    for n in range(3):
        operations.add_journal_entry(bryn, text=f"a note that waits {n}")
    assert len(_segments(table, "bryn")) == len(before) + 1  # they wait in the file
    assert bryn.file.unpublished
    assert sharing.publish_now(bryn) == 3
    assert not bryn.file.unpublished
    newest = _segments(table, "bryn")[-1]
    assert newest.name.endswith("-00000004.json")  # operations 2-4 in one file
    assert sharing.sync(table.machines["ana"]).applied == {"Bryn's laptop": 4}


def test_issue38_closing_the_campaign_publishes_what_waits(table: Table) -> None:
    bryn = table.machines["bryn"]
    bryn.file.publish_every = bryn.file.publish_due = math.inf  # the CLI's way: at close
    operations.add_journal_entry(bryn, text="typed at home")
    operations.gain_lore(bryn, amount=1, reason="a song")
    assert bryn.file.unpublished
    bryn.close()
    assert sharing.sync(table.machines["ana"]).applied == {"Bryn's laptop": 2}


def test_issue38_an_operation_not_published_before_a_crash_is_published_at_the_next_sync(
        table: Table) -> None:
    bryn = table.machines["bryn"]
    path = bryn.path
    bryn.file.publish_every = bryn.file.publish_due = math.inf
    operations.add_journal_entry(bryn, text="played just before the power went")
    bryn.file.unpublished = False  # the process died: nothing publishes at close
    bryn.close()
    assert sharing.sync(table.machines["ana"]).applied == {}
    again = operations.open_campaign(path)
    table.machines["bryn"] = again
    report = sharing.sync(again)
    assert report.published == 1
    assert sharing.sync(table.machines["ana"]).applied == {"Bryn's laptop": 1}
    table.settle_all_in_step()
    assert table.export("ana") == table.export("bryn")


def test_issue38_a_cli_command_publishes_once_when_it_ends(table: Table,
                                                          capsys: Any) -> None:
    bryn = table.machines["bryn"]
    path, folder = bryn.path, machine_folder(table, "bryn")
    bryn.close()
    before = sorted(folder.glob("ops-*.json"))
    assert run(capsys, "journal", "add", str(path), "Typed in at the kitchen table")[0] == 0
    assert len(sorted(folder.glob("ops-*.json"))) == len(before) + 1
    assert sharing.sync(table.machines["ana"]).applied == {"Bryn's laptop": 1}
