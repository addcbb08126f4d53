"""The players' terminal for the acceptance tests: ``companion.cli.main`` run in-process,
its ``--json`` answer parsed, refusals checked to change nothing."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path
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
