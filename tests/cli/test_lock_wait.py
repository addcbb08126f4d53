"""Issue 24: a command that writes while the window or another command holds the campaign
waits a few seconds for it, then is refused naming the holder (docs/campaign-file.md,
"A second writer waits, then is told who holds the campaign").

The holder is a real second process (as in tests/store/test_faults.py, fault 9). No test
times anything: the wait is bounded by ``COMPANION_LOCK_WAIT`` and the waiting command
says when it starts waiting, so the holder lets go only once it is waiting.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion import operations
from companion.store import lock

REPO = Path(__file__).resolve().parents[2]

HOLD = """
import sys
from companion.store import CampaignFile, lock
lock.identify_as(sys.argv[2] or None)
cf = CampaignFile.open(sys.argv[1])
print("ready", flush=True)
sys.stdin.read()
cf.close()
"""


def env(wait: str) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(REPO), "QT_QPA_PLATFORM": "offscreen",
            lock.WAIT_ENV: wait}


def holder(path: Path, kind: str) -> subprocess.Popen[str]:
    child = subprocess.Popen([sys.executable, "-c", HOLD, str(path), kind], cwd=REPO,
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                             env=env("0"))
    assert child.stdout is not None and child.stdout.readline().strip() == "ready"
    return child


def cli(*args: str, wait: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "companion", *args], cwd=REPO,
                          capture_output=True, text=True, timeout=300, env=env(wait))


def journal_events(path: Path) -> int:
    with operations.open_campaign(path, lock="first-write") as campaign:  # a reader
        return campaign.status().journal_events


@pytest.fixture
def path(tmp_path: Path) -> Path:
    where = tmp_path / "held.stonesaga"
    operations.create_demo_campaign(where, seed=3).close()
    return where


@pytest.fixture
def held_by(path: Path) -> Iterator[Any]:
    children: list[subprocess.Popen[str]] = []

    def start(kind: str) -> subprocess.Popen[str]:
        children.append(holder(path, kind))
        return children[-1]

    yield start
    for child in children:
        if child.poll() is None:
            child.kill()
        child.wait()


@pytest.mark.parametrize(("kind", "words"), [
    ("window", "the Stonesaga Companion window"),
    ("command", "a companion command"),
    ("", "another copy of the companion"),
])
def test_a_second_writer_waits_then_is_refused_naming_the_holder(
    path: Path, held_by: Any, kind: str, words: str
) -> None:
    events = journal_events(path)
    child = held_by(kind)
    done = cli("journal", "add", str(path), "while it is held", "--json", wait="0.2")
    assert done.returncode == 1
    assert done.stderr.startswith("waiting: the campaign is open in " + words)
    refused = json.loads(done.stdout)["refused"]
    assert f"open in {words} (pid {child.pid} on host" in refused
    assert "still open there after waiting 0.2 seconds" in refused
    assert journal_events(path) == events


def test_a_second_writer_goes_next_once_the_holder_lets_go(path: Path, held_by: Any) -> None:
    events = journal_events(path)
    child = held_by("command")
    waiting = subprocess.Popen(
        [sys.executable, "-m", "companion", "journal", "add", str(path), "after the wait"],
        cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env=env("240"))  # only a bound: the holder lets go as soon as it waits
    try:
        assert waiting.stderr is not None
        line = waiting.stderr.readline()
        assert line.startswith("waiting: the campaign is open in a companion command"), line
        assert child.stdin is not None
        child.stdin.close()  # the holder finishes and lets go
        out, err = waiting.communicate(timeout=300)
    finally:
        if waiting.poll() is None:
            waiting.kill()
    assert waiting.returncode == 0, err
    assert "after the wait" in out
    assert journal_events(path) == events + 1


def test_the_window_names_itself_in_the_lock(path: Path, qtbot: Any) -> None:
    """The GUI's loader (what ``companion PATH`` runs) takes the lock as the window, so a
    command is refused naming it."""
    from companion.cli import gui
    from companion.ui.main_window import MainWindow

    before = lock._holder
    window = MainWindow()
    qtbot.addWidget(window)
    loader = gui._Loader(window, str(path), content=[], smoke=False, outcome={})
    try:
        loader.run()
        assert window.campaign is not None
        done = cli("journal", "add", str(path), "refused", wait="0")
        assert done.returncode == 1
        assert "the Stonesaga Companion window" in done.stderr
        assert f"pid {os.getpid()}" in done.stderr
    finally:
        if window.campaign is not None:
            window.campaign.close()
            window.campaign = None
        lock._holder = before


def test_the_wait_comes_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for value, seconds in (("2.5", 2.5), ("0", 0.0), ("-1", lock.COMMAND_WAIT),
                           ("soon", lock.COMMAND_WAIT), ("nan", lock.COMMAND_WAIT)):
        monkeypatch.setenv(lock.WAIT_ENV, value)
        assert lock.command_wait() == seconds
    monkeypatch.delenv(lock.WAIT_ENV)
    assert lock.command_wait() == lock.COMMAND_WAIT
