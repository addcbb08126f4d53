"""Code run in child processes by the store tests (``python -m tests.store.helpers ...``)."""

from __future__ import annotations

import sys
from pathlib import Path

from companion.store import CampaignFile
from companion.store.models import NotePage, Society


def hold(path: Path) -> None:
    """Open the campaign, say so, and keep it open until stdin closes."""
    cf = CampaignFile.open(path)
    print("ready", flush=True)
    sys.stdin.read()
    cf.close()


def write_forever(path: Path) -> None:
    """Run small two-row operations forever, printing each committed event id."""
    cf = CampaignFile.open(path)
    while True:
        with cf.transaction("crash-test", "one more page") as session:
            session.add(NotePage(title="crash", text="x" * 200))
            society = session.get(Society, 1)
            assert society is not None
            society.activity += 1
        assert cf.last_event is not None
        print(cf.last_event.id, flush=True)


if __name__ == "__main__":
    {"hold": hold, "write": write_forever}[sys.argv[1]](Path(sys.argv[2]))
