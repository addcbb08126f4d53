"""The crash soak: kill the store at random moments and at chosen system calls, in every
kind of write it does, and check that nothing acknowledged is lost.

Scenarios (each a child process, ``tests/store/helpers.py`` or the real CLI):

- ``write``: two-row operations in a tight loop (``transaction()``);
- ``cli``: ``companion journal add`` (the command line's write path, lock and all);
- ``session``: operations with an automatic backup after each, then ``close()`` (the
  closing checkpoint and the closing backup);
- ``export``, ``import``, ``restore``: the whole-file operations;
- ``migrate``: opening a version-1 file with a program that knows a (simulated)
  version 2: the migration backup, then the upgrade step;
- ``stranger``: a writer of the campaign's twin (a copy that went its own way) killed;
  its log, put beside a copy of the campaign, is refused by every read-only command,
  and a virtual table planted in a copy is refused by name (``soak_strangers``). For the
  whole soak another campaign's backup sits among the campaign's: never listed, never
  restored, never deleted by rotation.

Kills: ``random`` (SIGKILL after a random delay) or ``syscall`` (``strace -e
inject=SYSCALL:signal=KILL:when=N``: the N-th call of a write, fsync, rename, link,
unlink or truncate is the last thing the process does).

After every kill the checks are those of the short soak, made for each scenario: the
file passes ``integrity_check`` and ``foreign_key_check``, it opens (never refused as
damaged, never locked out), every acknowledged operation is there, none half-applied,
and the next open leaves no temporary file behind.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from sqlmodel import func, select

from companion.store import CampaignFile, check_campaign, list_backups
from companion.store.durable import stale_temps
from companion.store.models import JournalEvent, NotePage, Society
from tests.store.conftest import REPO
from tests.store.faults import STRACE, strace_works
from tests.store.helpers import SOAK_VERSION
from tests.store.soak_strangers import (
    foreign_backup_kept,
    plant_foreign_backup,
    planted_virtual_table_refused,
    refused_by_every_read_only_command,
)

SCENARIOS = ("write", "cli", "session", "export", "import", "restore", "migrate",
             "stranger")
SYSCALL_PATIENCE = 4.0
"""Seconds a run may take to reach its injected kill before it is killed anyway."""
SYSCALLS: dict[str, dict[str, int]] = {
    # scenario: {system call: how many times one run makes it (measured with strace -c)};
    # the N-th call is drawn from 1 to that count, so the kill lands inside the run.
    "write": {"pwrite64": 300, "fdatasync": 40, "write": 30},
    "cli": {"pwrite64": 124, "fdatasync": 13, "fsync": 4, "unlink": 13, "ftruncate": 4,
            "rename": 2},
    "session": {"pwrite64": 700, "fdatasync": 64, "fsync": 24, "unlink": 107, "rename": 12,
                "ftruncate": 3, "write": 27},
    "export": {"write": 3, "fsync": 2, "rename": 1, "unlink": 1},
    "import": {"pwrite64": 350, "fdatasync": 54, "fsync": 4, "unlink": 16, "ftruncate": 5,
               "link": 1, "rename": 1},
    "restore": {"pwrite64": 49, "fdatasync": 4, "fsync": 4, "unlink": 13, "rename": 2,
                "ftruncate": 1},
    "migrate": {"pwrite64": 70, "fdatasync": 9, "fsync": 2, "unlink": 8, "ftruncate": 3,
                "rename": 1},
    "stranger": {"pwrite64": 300, "fdatasync": 40, "write": 30},  # the twin's writer
}


@dataclass
class Tally:
    """What a soak did."""

    kills: Counter[str] = field(default_factory=Counter)
    """Kills per scenario and mode ('write/random', 'export/syscall:fsync' ...)."""
    finished: int = 0
    """Runs the injection never reached (the process finished first)."""
    acknowledged: int = 0
    """Operations acknowledged before a kill (every one checked present)."""
    unacknowledged: int = 0
    """Operations committed but killed before they could say so (allowed: at most one)."""
    temps_cleaned: int = 0
    """Temporary files left by kills and removed by the next open."""
    migrated: Counter[str] = field(default_factory=Counter)
    """After a migration kill: 'before' (still version 1) or 'after' (version 2)."""
    strangers: int = 0
    """The twin's logs refused by every read-only command (kills that left commits)."""

    def total(self) -> int:
        return sum(self.kills.values())

    def summary(self) -> str:
        by_scenario: Counter[str] = Counter()
        by_mode: Counter[str] = Counter()
        for key, count in self.kills.items():
            by_scenario[key.split("/")[0]] += count
            by_mode[key.split("/")[1].split(":")[0]] += count
        return (f"{self.total()} kills ({dict(by_mode)}) over {dict(by_scenario)}; "
                f"{self.finished} runs finished before their injected kill; "
                f"{self.acknowledged} operations acknowledged, none lost; "
                f"{self.unacknowledged} committed-but-unacknowledged; "
                f"{self.temps_cleaned} temporary files cleaned by the next open; "
                f"migration kills left {dict(self.migrated)}; "
                f"{self.strangers} strangers' logs refused by every read-only command")


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(REPO), "QT_QPA_PLATFORM": "offscreen"}


def _command(scenario: str, args: list[str]) -> list[str]:
    if scenario == "cli":
        return [sys.executable, "-m", "companion", *args]
    return [sys.executable, "-m", "tests.store.helpers", scenario, *args]


def run_killed(command: list[str], rng: random.Random, mode: str, scenario: str,
               read_first: int = 0) -> tuple[list[str], bool, str]:
    """Run ``command`` and kill it; returns (lines printed, killed?, kill label).

    A ``syscall`` kill that the process never reaches (it finished, or it loops without
    that call) ends in a plain SIGKILL after :data:`SYSCALL_PATIENCE` seconds; it is
    then counted as a random kill.
    """
    label = "random"
    if mode == "syscall":
        assert STRACE is not None
        calls = SYSCALLS[scenario]
        call = rng.choice(sorted(calls))
        when = rng.randint(1, calls[call])
        label = f"syscall:{call}"
        command = [STRACE, "-f", "-qq", "-o", os.devnull, "-e", f"trace={call}",
                   "-e", f"inject={call}:signal=KILL:when={when}", *command]
    child = subprocess.Popen(command, cwd=REPO, stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, text=True, env=_env(),
                             start_new_session=True)
    assert child.stdout is not None
    lines: list[str] = []
    if mode == "random":
        for _ in range(read_first):
            line = child.stdout.readline()
            if not line:
                break
            lines.append(line.strip())
        time.sleep(rng.uniform(0, 0.01) if read_first else rng.uniform(0.05, 1.2))
        _kill_group(child)
        out, _ = child.communicate()
    else:
        try:
            out, _ = child.communicate(timeout=SYSCALL_PATIENCE)
        except subprocess.TimeoutExpired:
            _kill_group(child)
            out, _ = child.communicate()
            label = "random"
    _wait_group_gone(child)
    lines.extend(line.strip() for line in out.splitlines())
    # Under strace the child's death by SIGKILL shows as strace's own exit status.
    killed = child.returncode != 0
    return [line for line in lines if line], killed, label


def _kill_group(child: subprocess.Popen[str]) -> None:
    """SIGKILL the child and everything it started (strace and its tracee)."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(child.pid, signal.SIGKILL)


def _wait_group_gone(child: subprocess.Popen[str], patience: float = 10.0) -> None:
    """Wait until no process of the child's group is left. Killed with strace, the
    tracee outlives strace for a moment as a zombie, and a zombie's pid still answers:
    its temporary files do not look stale yet, so the next open would keep them (an
    import now holds its new file for most of its run, issue 35)."""
    deadline = time.monotonic() + patience
    while time.monotonic() < deadline:
        try:
            os.killpg(child.pid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.01)


class Soak:
    """The files of one soak, what was acknowledged, and the checks after each kill."""

    def __init__(self, folder: Path, seed: int) -> None:
        self.folder = folder
        self.rng = random.Random(seed)
        self.tally = Tally()
        self.main = folder / "soak.stonesaga"
        self.acked: set[int] = set()
        self.notes: set[str] = set()
        self.count = 0
        CampaignFile.create(self.main).close()
        self.twin = folder / "twin" / "soak.stonesaga"  # the copy on "another computer"
        self.twin.parent.mkdir()
        shutil.copyfile(self.main, self.twin)
        self.foreign = plant_foreign_backup(self.main, folder / "another tribe")
        self.modes = ["random", "syscall"] if strace_works() else ["random"]

    # --- one kill -------------------------------------------------------------------------

    def kill_once(self, scenario: str, mode: str) -> None:
        self.count += 1
        run = getattr(self, f"_{scenario}")
        killed, label = run(mode)
        if killed:
            self.tally.kills[f"{scenario}/{label}"] += 1
        else:
            self.tally.finished += 1
        self._clean_check()

    def _folders(self) -> list[Path]:
        found = [self.folder, *(p for p in self.folder.iterdir() if p.is_dir())]
        return [*found, *(p for f in found if f != self.folder for p in f.iterdir()
                          if p.is_dir())]

    def _kill(self, command: list[str], mode: str,
              read_first: int = 0) -> tuple[list[str], bool, str]:
        """run_killed, then count the temporary files the kill left anywhere."""
        scenario = command[3] if command[2] == "tests.store.helpers" else "cli"
        lines, killed, label = run_killed(command, self.rng, mode, scenario, read_first)
        self.tally.temps_cleaned += sum(len(stale_temps(f)) for f in self._folders())
        return lines, killed, label

    def _ids(self, lines: list[str]) -> set[int]:
        return {int(line) for line in lines if line.isdigit()}

    def _write(self, mode: str) -> tuple[bool, str]:
        lines, killed, label = self._kill(
            _command("write", [str(self.main)]), mode, read_first=self.rng.randint(0, 30))
        self._after_writes(self._ids(lines))
        return killed, label

    def _session(self, mode: str) -> tuple[bool, str]:
        lines, killed, label = self._kill(
            _command("session", [str(self.main)]), mode, read_first=self.rng.randint(0, 14))
        self._after_writes(self._ids(lines))
        self._check_backups(self.main)
        return killed, label

    def _cli(self, mode: str) -> tuple[bool, str]:
        text = f"soak note {self.count}"
        lines, killed, label = self._kill(
            _command("cli", ["journal", "add", str(self.main), text]), mode)
        acked = not killed and any("Journal" in line or text in line for line in lines)
        if acked:
            self.notes.add(text)
        self._after_writes(set())
        return killed, label

    def _export(self, mode: str) -> tuple[bool, str]:
        out = self.folder / "exports" / "soak.json"
        out.parent.mkdir(exist_ok=True)
        lines, killed, label = self._kill(
            _command("export", [str(self.main), str(out)]), mode)
        if out.exists():  # never half a file: the old one, or a whole new one
            document = json.loads(out.read_text(encoding="utf-8"))
            assert document["format"] == "stonesaga-companion-campaign"
        else:
            assert "exported" not in lines
        self._after_writes(set())
        return killed, label

    def _import(self, mode: str) -> tuple[bool, str]:
        src = self.folder / "exports" / "soak.json"
        if not src.exists():
            subprocess.run(_command("export", [str(self.main), str(src)]), cwd=REPO,
                           env=_env(), check=True, capture_output=True)
        dest = self.folder / "imports" / f"imported-{self.count}.stonesaga"
        dest.parent.mkdir(exist_ok=True)
        lines, killed, label = self._kill(_command("import", [str(src), str(dest)]), mode)
        if "imported" in lines:
            assert dest.exists()
        if dest.exists():  # all or nothing: a campaign that is whole, and opens
            report = check_campaign(dest)
            assert report.ok, (label, report.problems)
            CampaignFile.open(dest).close()
        # The next open of any campaign in that folder cleans what the kill left.
        with CampaignFile.create(dest.with_name(f"next-{self.count}.stonesaga")):
            pass
        assert stale_temps(dest.parent) == []
        return killed, label

    def _restore(self, mode: str) -> tuple[bool, str]:
        target = self.folder / "restore" / "restored.stonesaga"
        if not target.exists():
            target.parent.mkdir(exist_ok=True)
            with CampaignFile.create(target) as cf:
                cf.add_note("the oldest backup's note")
                cf.backup("manual")
            # Older than any of its own: what a restore of "the oldest" would take if
            # it took another campaign's backup for the target's.
            self.foreign_at_target = plant_foreign_backup(target, self.folder / "other")
        with CampaignFile.open(target) as cf:
            note = cf.add_note(f"made before restore {self.count}")
        lines, killed, label = self._kill(_command("restore", [str(target)]), mode)
        report = check_campaign(target)
        assert report.ok, (label, report.problems)
        with CampaignFile.open(target, backups=False) as cf:
            here = {e.text for e in cf.journal(limit=10_000)}
        # Never lose: the note is in the file, or (restored) in the safety copy.
        kept = note.text in here or any(
            note.text in _texts(b.path) for b in list_backups(target))
        assert kept, (label, "restore lost the note written before it")
        foreign_backup_kept(target, *self.foreign_at_target)
        assert "another tribe's first note" not in here, "another campaign was restored"
        return killed, label

    def _stranger(self, mode: str) -> tuple[bool, str]:
        lines, killed, label = self._kill(
            _command("write", [str(self.twin)]), mode, read_first=self.rng.randint(1, 30))
        log = self.twin.with_name(self.twin.name + "-wal")
        if log.is_file() and refused_by_every_read_only_command(
                self.main, log.read_bytes(), self.folder / "stranger"):
            self.tally.strangers += 1
        planted_virtual_table_refused(self.main, self.folder / "planted")
        # The twin's own log is its own: it opens with every acknowledged commit.
        assert check_campaign(self.twin).ok
        with CampaignFile.open(self.twin, backups=False) as cf, cf.read() as session:
            ids = set(session.exec(select(JournalEvent.id)))
        assert self._ids(lines) <= ids, "the twin lost commits of its own log"
        return killed, label

    def _migrate(self, mode: str) -> tuple[bool, str]:
        old = self.folder / "migrate" / f"old-{self.count}.stonesaga"
        old.parent.mkdir(exist_ok=True)
        with CampaignFile.create(old, backups=False) as cf:
            for i in range(self.rng.randint(1, 40)):
                cf.add_note(f"note {i}")
        events = _count(old, "journal_event")
        lines, killed, label = self._kill(_command("migrate", [str(old)]), mode)
        report = check_campaign(old)  # sound whichever version the kill left
        assert not report.problems and not report.foreign_key_problems, (label, report.problems)
        version = _version(old)
        self.tally.migrated["after" if version == SOAK_VERSION else "before"] += 1
        # The next start (no kill) must open it, migrate it if needed, and lose nothing.
        done = subprocess.run(_command("migrate", [str(old)]), cwd=REPO, env=_env(),
                              capture_output=True, text=True)
        assert done.returncode == 0, (label, done.stderr)
        assert _version(old) == SOAK_VERSION
        assert _count(old, "soak_moved") == events == _count(old, "journal_event")
        texts = _column(old, "SELECT text FROM note_page")
        assert all(t.count(" (moved)") == 1 for t in texts)  # moved once, never half
        migration = [b for b in list_backups(old) if b.reason == "migration"]
        assert migration and all(check_campaign(b.path).ok for b in migration)
        return killed, label

    # --- the checks -------------------------------------------------------------------

    def _after_writes(self, reported: set[int]) -> None:
        """The main file after a kill: sound, opens, every acknowledged operation there."""
        self.tally.acknowledged += len(reported - self.acked)
        self.acked |= reported
        report = check_campaign(self.main)
        assert report.ok, report.problems
        foreign_backup_kept(self.main, *self.foreign)
        with CampaignFile.open(self.main) as cf, cf.read() as session:
            kinds = JournalEvent.kind == "crash-test"
            ids = set(session.exec(select(JournalEvent.id).where(kinds)))
            notes = set(session.exec(select(JournalEvent.text).where(
                JournalEvent.kind == "journal.entry")))
            pages = session.exec(select(func.count()).select_from(NotePage)).one()
            society = session.get(Society, 1)
            assert society is not None
        assert self.acked <= ids, f"lost committed events {sorted(self.acked - ids)}"
        assert self.notes <= notes, f"lost notes {sorted(self.notes - notes)}"
        extra = ids - self.acked
        assert len(extra) <= 1 and all(e > max(self.acked, default=0) for e in extra)
        assert pages == len(ids) == society.activity  # no operation half-applied
        self.tally.unacknowledged += len(extra)
        self.acked |= extra
        self.notes = notes

    def _check_backups(self, path: Path) -> None:
        for backup in list_backups(path):
            assert check_campaign(backup.path).ok, backup.path
        foreign_backup_kept(self.main, *self.foreign)

    def _clean_check(self) -> None:
        """After the checks (which opened the files again), no temporary file is left
        beside a campaign or in its backups; the export folder is cleaned by the next
        export into it."""
        exports = self.folder / "exports"
        if stale_temps(exports):
            subprocess.run(_command("export", [str(self.main), str(exports / "next.json")]),
                           cwd=REPO, env=_env(), check=True, capture_output=True)
        left = [name for f in self._folders() for name in stale_temps(f)]
        assert not left, f"temporary files survived the next open: {left}"


def _texts(path: Path) -> set[str]:
    return set(_column(path, "SELECT text FROM journal_event"))


def _column(path: Path, sql: str) -> list[str]:
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return [str(row[0]) for row in conn.execute(sql)]
    finally:
        conn.close()


def _count(path: Path, table: str) -> int:
    return int(_column(path, f"SELECT count(*) FROM {table}")[0])


def _version(path: Path) -> int:
    return int(_column(path, "PRAGMA user_version")[0])


def run_soak(folder: Path, kills: int, seed: int, *, runs: int | None = None) -> Tally:
    """Runs spread over every scenario and kill mode until ``kills`` of them were really
    killed (or ``runs`` runs were made, when given); returns the tally."""
    soak = Soak(folder, seed)
    plan = [(s, m) for s in SCENARIOS for m in soak.modes]
    index = 0
    while soak.tally.total() < kills and (runs is None or index < runs):
        scenario, mode = plan[index % len(plan)] if index < len(plan) else soak.rng.choice(plan)
        soak.kill_once(scenario, mode)
        index += 1
    return soak.tally
