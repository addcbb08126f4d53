"""Two real Syncthing instances on this machine, keeping one folder in step over
127.0.0.1 only (issue 38: a real engine, end to end).

Each instance is configured before its first start so that no packet leaves loopback:
listen and GUI addresses on 127.0.0.1, each on its own port; global and local discovery,
relays, NAT traversal, STUN, usage and crash reporting and auto-upgrade off; each device
knows the other by a static ``tcp://127.0.0.1:PORT`` address. The instances are stopped
by their own process ids.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import socket
import subprocess
import time
import urllib.request
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

FOLDER_ID = "stonesaga"
API_KEY = "stonesaga-companion-test-key"
OFF = {"globalAnnounceEnabled": "false", "localAnnounceEnabled": "false",
       "relaysEnabled": "false", "natEnabled": "false", "announceLANAddresses": "false",
       "stunKeepaliveStartS": "0", "urAccepted": "-1", "crashReportingEnabled": "false",
       "autoUpgradeIntervalH": "0", "startBrowser": "false", "reconnectionIntervalS": "2"}
"""Every way out of loopback switched off (and a quick reconnect between the two)."""


def free_port() -> int:
    """A TCP port free on 127.0.0.1 now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class Instance:
    """One Syncthing: its home, its shared folder, its ports, its process."""

    name: str
    home: Path
    folder: Path
    listen: int = field(default_factory=free_port)
    gui: int = field(default_factory=free_port)
    device: str = ""
    device_of_peer: str = ""
    process: subprocess.Popen[bytes] | None = None

    def generate(self) -> None:
        """Keys and a config, no default folder, no port probing (nothing started)."""
        subprocess.run(["syncthing", "generate", "--home", str(self.home),
                        "--no-default-folder", "--skip-port-probing"], check=True,
                       capture_output=True, env=_env(), timeout=120)
        root = ET.parse(self.home / "config.xml").getroot()
        self.device = next(d.get("id", "") for d in root.iter("device"))

    def configure(self, peer: Instance) -> None:
        """Loopback only; ``peer`` known by its static address; one shared folder."""
        path = self.home / "config.xml"
        tree = ET.parse(path)
        root = tree.getroot()
        for old in root.findall("folder") + root.findall("device"):
            root.remove(old)
        folder = ET.SubElement(root, "folder", {
            "id": FOLDER_ID, "label": "Stonesaga", "path": str(self.folder),
            "type": "sendreceive", "rescanIntervalS": "3600", "fsWatcherEnabled": "true",
            "fsWatcherDelayS": "1"})
        for device in (self.device, peer.device):
            ET.SubElement(folder, "device", {"id": device, "introducedBy": ""})
        ET.SubElement(folder, "minDiskFree", {"unit": "%"}).text = "0"
        for instance, address in ((self, "dynamic"), (peer, f"tcp://127.0.0.1:{peer.listen}")):
            entry = ET.SubElement(root, "device", {
                "id": instance.device, "name": instance.name, "compression": "metadata",
                "introducer": "false"})
            ET.SubElement(entry, "address").text = address
        gui = root.find("gui")
        assert gui is not None
        gui.set("enabled", "true")
        gui.set("tls", "false")
        _set(gui, "address", f"127.0.0.1:{self.gui}")
        _set(gui, "apikey", API_KEY)
        options = root.find("options")
        assert options is not None
        for tag in ("listenAddress", "stunServer", "globalAnnounceServer"):
            for old in options.findall(tag):
                options.remove(old)
        ET.SubElement(options, "listenAddress").text = f"tcp://127.0.0.1:{self.listen}"
        for tag, value in OFF.items():
            _set(options, tag, value)
        tree.write(path)
        self.folder.mkdir(parents=True, exist_ok=True)
        (self.folder / ".stfolder").mkdir(exist_ok=True)

    def start(self) -> None:
        log = (self.home / "syncthing.log").open("wb")
        self.process = subprocess.Popen(
            ["syncthing", "serve", "--home", str(self.home), "--no-browser", "--no-restart"],
            stdout=log, stderr=subprocess.STDOUT, env=_env())

    def stop(self) -> None:
        """Stop this instance by its own process id."""
        if self.process is None or self.process.poll() is not None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=20)

    def api(self, method: str, path: str, body: Any = None) -> Any:
        """Call the instance's REST API on 127.0.0.1."""
        request = urllib.request.Request(
            f"http://127.0.0.1:{self.gui}{path}", method=method,
            data=None if body is None else json.dumps(body).encode(),
            headers={"X-API-Key": API_KEY, "Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=10) as answer:
            raw = answer.read()
        return json.loads(raw) if raw.strip() else None

    def connected(self) -> bool:
        try:
            found = self.api("GET", "/rest/system/connections")
        except OSError:
            return False
        return bool(found["connections"].get(self.device_of_peer, {}).get("connected"))

    def pause(self, paused: bool) -> None:
        """Pause (the folder is out of step: offline) or resume the shared folder."""
        self.api("PATCH", f"/rest/config/folders/{FOLDER_ID}", {"paused": paused})

    def scan(self) -> None:
        """Look at the folder now (rather than at the watcher's next look)."""
        self.api("POST", f"/rest/db/scan?folder={FOLDER_ID}")


def _set(parent: ET.Element, tag: str, value: str) -> None:
    found = parent.find(tag)
    if found is None:
        found = ET.SubElement(parent, tag)
    found.text = value


def _env() -> dict[str, str]:
    return {**os.environ, "STNOUPGRADE": "1", "STNODEFAULTFOLDER": "1"}


def available() -> str | None:
    """Why Syncthing cannot be had here (None: it can)."""
    if shutil.which("syncthing") is None:
        return ("Syncthing is not installed and could not be (apt-get install -y "
                "syncthing needs root and a package mirror); the README says how")
    return None


def wait_for(what: str, check: Any, timeout: float = 90.0) -> None:
    """Poll ``check()`` until it is true; fail naming ``what`` after ``timeout`` s."""
    end = time.monotonic() + timeout
    while not check():
        if time.monotonic() > end:
            raise AssertionError(f"Syncthing did not {what} within {timeout:.0f} s")
        time.sleep(0.2)


def contents(folder: Path) -> dict[str, str]:
    """The shared folder's files (not Syncthing's own nor anyone's temporary files),
    by path, with their SHA-256."""
    found: dict[str, str] = {}
    for path in folder.rglob("*"):
        relative = path.relative_to(folder)
        if path.is_file() and not any(p.startswith((".", "~")) for p in relative.parts):
            try:
                found[str(relative)] = hashlib.sha256(path.read_bytes()).hexdigest()
            except OSError:
                found[str(relative)] = "changing"
    return found


def pair(root: Path) -> tuple[Instance, Instance]:
    """Two configured instances (not started) sharing one folder over loopback."""
    ana = Instance("ana", root / "syncthing-ana", root / "ana-shared")
    bryn = Instance("bryn", root / "syncthing-bryn", root / "bryn-shared")
    for instance in (ana, bryn):
        instance.generate()
    ana.configure(bryn)
    bryn.configure(ana)
    ana.device_of_peer, bryn.device_of_peer = bryn.device, ana.device
    return ana, bryn
