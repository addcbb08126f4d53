"""The players' terminal for the acceptance tests: ``companion.cli.main`` run in-process,
its ``--json`` answer parsed, refusals checked to change nothing."""

from __future__ import annotations

import contextlib
import io
import json
import os
import shutil
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

from companion.cli import main

SEED = "7"


class Table:
    """The players' terminal: runs one command and reads its JSON answer."""

    def __init__(self, path: Path) -> None:
        self.path = str(path)

    def run(self, *argv: str) -> tuple[int, str, str]:
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main([a.replace("{p}", self.path) for a in argv])
            except SystemExit as stop:  # argparse refusing a command it does not know
                code = int(stop.code or 0)
        return code, out.getvalue(), err.getvalue()

    def js(self, *argv: str) -> dict[str, Any]:
        code, out, err = self.run(*argv, "--json")
        assert code == 0, err
        assert "Traceback" not in err
        data: dict[str, Any] = json.loads(out)
        return data

    def refused(self, *argv: str) -> str:
        before = self.journal_size()
        code, out, err = self.run(*argv)
        assert code == 1, (out, err)
        assert err.startswith("refused: "), err
        assert "Traceback" not in err
        assert self.journal_size() == before  # nothing changed
        return err.removeprefix("refused: ").strip()

    def journal_size(self) -> int:
        code, out, _ = self.run("status", self.path, "--json")
        return int(json.loads(out)["status"]["journal_events"]) if code == 0 else 0

    def status(self) -> dict[str, Any]:
        data: dict[str, Any] = self.js("status", self.path)["status"]
        return data

    def characters(self) -> dict[str, dict[str, Any]]:
        return {c["name"]: c for c in self.js("characters", self.path)["characters"]}

    def energy(self) -> dict[str, int]:
        return {n: c["energy"] for n, c in self.characters().items()}

    def holdings(self, name: str) -> dict[str, Any]:
        return self.js("exchange", "list", self.path, name)

    def last_journal(self, count: int = 1) -> list[str]:
        events = self.js("journal", "list", self.path)["events"]
        return [e["text"] for e in events[:count]]


class Story:
    """A campaign played once per session (per test worker), moment by moment, each moment
    a function of a ``Table``; the campaign's folder is kept as it stands before each
    moment, so a test starts from a copy of the moments before it, never from the test
    run before it. The moments play in a user folder (``COMPANION_HOME``) of their own."""

    def __init__(self, folder: Path, file_name: str,
                 moments: Sequence[Callable[[Table], object]]) -> None:
        self.folder, self.file_name = folder, file_name
        self.moments = list(moments)
        self.names = [m.__name__ for m in self.moments]
        self.kept: list[Path] = []  # kept[k]: the campaign's folder before moment k

    def before(self, name: str, folder: Path) -> Table:
        """A copy of the campaign as the moments before ``name`` left it."""
        return self._copy(self.names.index(name), folder)

    def after(self, name: str, folder: Path) -> Table:
        """A copy of the campaign as the moment ``name`` left it."""
        return self._copy(self.names.index(name) + 1, folder)

    def _copy(self, index: int, folder: Path) -> Table:
        shutil.copytree(self._kept(index), folder / "campaign")
        return Table(folder / "campaign" / self.file_name)

    def _kept(self, index: int) -> Path:
        playing, home = self.folder / "playing", self.folder / "home"
        if not self.kept:
            playing.mkdir()
            home.mkdir()
            self.kept.append(self._keep(playing, 0))
        table = Table(playing / self.file_name)
        while len(self.kept) <= index:
            moment = len(self.kept) - 1
            with _user_folder(home):
                self.moments[moment](table)
            self.kept.append(self._keep(playing, moment + 1))
        return self.kept[index]

    def _keep(self, playing: Path, index: int) -> Path:
        kept = self.folder / f"before-{index:02d}"
        shutil.copytree(playing, kept)
        return kept


def moments_of(module: ModuleType) -> list[Callable[[Table], object]]:
    """A module's tests, in the order they are written: the moments of its story."""
    return [f for n, f in vars(module).items() if n.startswith("test_") and callable(f)]


@contextlib.contextmanager
def _user_folder(home: Path) -> Iterator[None]:
    old = os.environ.get("COMPANION_HOME")
    os.environ["COMPANION_HOME"] = str(home)
    try:
        yield
    finally:
        if old is None:
            os.environ.pop("COMPANION_HOME", None)
        else:
            os.environ["COMPANION_HOME"] = old
