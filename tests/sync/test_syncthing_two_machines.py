"""Issue 38, a real engine end to end: two Syncthing instances keep one folder in step
over 127.0.0.1, and two app data folders (``COMPANION_HOME``) play one campaign through
it with the CLI and the operations: a Day on Ana's laptop, the Night on Bryn's, an
offline stretch on both (each folder paused), a conflict settled. Both end with the same
export.

Skips, saying why, only where Syncthing cannot be had (``.ci/run`` and the README install
the Debian package ``syncthing``)."""

from __future__ import annotations

import contextlib
import io
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion import operations
from companion.cli import main as companion
from tests.sync import syncthing
from tests.sync.syncthing import Instance, contents, wait_for


@pytest.fixture
def engines(tmp_path: Path) -> Iterator[tuple[Instance, Instance]]:
    """Ana's and Bryn's Syncthing, started, connected over loopback; stopped at the end
    by their own process ids."""
    reason = syncthing.available()
    if reason is not None:
        pytest.skip(reason)
    ana, bryn = syncthing.pair(tmp_path)
    try:
        for instance in (ana, bryn):
            instance.start()
        wait_for("connect the two instances over 127.0.0.1",
                 lambda: ana.connected() and bryn.connected())
        for instance in (ana, bryn):  # no packet leaves loopback
            found = instance.api("GET", "/rest/system/connections")["connections"]
            assert found[instance.device_of_peer]["address"].startswith("127.0.0.1:")
        yield ana, bryn
    finally:
        for instance in (ana, bryn):
            instance.stop()


class Machine:
    """One laptop: its own app data folder, its own Syncthing folder."""

    def __init__(self, name: str, home: Path, engine: Instance, monkeypatch: Any) -> None:
        self.name, self.home, self.engine = name, home, engine
        self.monkeypatch = monkeypatch
        self.path = Path()

    def cli(self, *args: str) -> Any:
        """``companion ARGS --json`` run as this machine (its COMPANION_HOME)."""
        self.monkeypatch.setenv("COMPANION_HOME", str(self.home))
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            code = companion([*args, "--json"])
        assert code == 0, f"{self.name}: companion {' '.join(args)} failed: {out.getvalue()}"
        return json.loads(out.getvalue())

    @contextlib.contextmanager
    def playing(self) -> Iterator[operations.Campaign]:
        self.monkeypatch.setenv("COMPANION_HOME", str(self.home))
        campaign = operations.open_campaign(self.path)
        try:
            yield campaign
        finally:
            campaign.close()

    def sync(self) -> Any:
        return self.cli("sync", str(self.path))


def in_step(ana: Machine, bryn: Machine) -> None:
    """Both engines look now; wait until both folders hold the same files."""
    for machine in (ana, bryn):
        machine.engine.scan()
    wait_for("bring both folders in step",
             lambda: contents(ana.engine.folder) == contents(bryn.engine.folder)
             and bool(contents(ana.engine.folder)))


def test_issue38_syncthing_two_machines_play_one_campaign_and_end_the_same(
        engines: tuple[Instance, Instance], tmp_path: Path, monkeypatch: Any) -> None:
    ana = Machine("Ana's laptop", tmp_path / "ana-home", engines[0], monkeypatch)
    bryn = Machine("Bryn's laptop", tmp_path / "bryn-home", engines[1], monkeypatch)
    from companion import paths

    # Ana shares the demo campaign through her Syncthing folder.
    monkeypatch.setenv("COMPANION_HOME", str(ana.home))
    ana.path = paths.campaigns_dir() / "Demo.stonesaga"
    operations.create_demo_campaign(ana.path).close()
    ana.cli("share", str(ana.path), str(ana.engine.folder), "--name", ana.name)
    in_step(ana, bryn)
    # Bryn joins from his, into his own data folder.
    joined = bryn.cli("join", str(bryn.engine.folder), "--name", bryn.name)
    bryn.path = Path(joined["path"])
    assert bryn.path.is_relative_to(bryn.home)

    # A Day on Ana's laptop.
    with ana.playing() as campaign:
        operations.gather_water(campaign, name="Ash")
        operations.pass_turn(campaign, name="Bryn")
        operations.pass_turn(campaign, name="Ash")
    in_step(ana, bryn)
    assert bryn.sync()["applied"] == {ana.name: 3}

    # The Night on Bryn's, at the terminal, the app drawing and rolling.
    bryn.cli("night", str(bryn.path))
    for _ in range(30):
        if not bryn.cli("step", str(bryn.path)).get("procedure"):
            break
        bryn.cli("step", str(bryn.path), "--choice", "1", "--app")
    assert not bryn.cli("step", str(bryn.path)).get("procedure")
    in_step(ana, bryn)
    night = ana.sync()
    assert night["applied"].get(bryn.name, 0) > 3 and night["words"].endswith("applied")

    # An offline stretch on both: each folder paused; both play; the unrest clashes.
    for machine in (ana, bryn):
        machine.engine.pause(True)
    with ana.playing() as campaign:
        operations.add_journal_entry(campaign, text="Ana writes up the flood.")
        operations.change_unrest(campaign, amount=2, reason="the river flooded the camp")
    with bryn.playing() as campaign:
        operations.add_journal_entry(campaign, text="Bryn writes up the quarrel.")
        operations.change_unrest(campaign, amount=1, reason="a quarrel over the fish")
    assert ana.sync()["applied"] == {} and bryn.sync()["applied"] == {}
    assert contents(ana.engine.folder) != contents(bryn.engine.folder)
    for machine in (ana, bryn):
        machine.engine.pause(False)
    in_step(ana, bryn)
    assert ana.sync()["words"] == "1 conflict to settle"
    assert bryn.sync()["words"] == "1 conflict to settle"
    shown = bryn.cli("sync", str(bryn.path), "--conflicts")["conflicts"]
    assert len(shown) == 1 and "flooded" in shown[0]["words"] and "quarrel" in shown[0]["words"]

    # Bryn settles it, keeping Ana's side; the settle travels back to Ana.
    assert bryn.cli("sync", str(bryn.path), "--settle", "1", "--side", "theirs")[
        "conflicts"] == 0
    in_step(ana, bryn)
    assert ana.sync()["conflicts"] == 0
    in_step(ana, bryn)
    assert bryn.sync()["words"] == "Up to date"

    exports = []
    for machine in (ana, bryn):
        out = tmp_path / f"{machine.home.name}.json"
        machine.cli("export", str(machine.path), str(out))
        exports.append(out.read_bytes())
    assert exports[0] == exports[1]
    with ana.playing() as campaign:
        lines = {line.text: line.undone for line in campaign.journal(40)}
    assert any("quarrel" in text and undone for text, undone in lines.items())
    assert any("Ana writes up" in t for t in lines) and any("Bryn writes up" in t for t in lines)
