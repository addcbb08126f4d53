"""First run: when Qt's platform plugin cannot load, the player reads which library is
missing and which README section fixes it, instead of Qt's abort (issue 29).

The failures are simulated (a bogus QT_QPA_PLATFORM, a plugin whose loading fails, a
forced fatal message); the rest of the suite keeps running offscreen."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from companion.ui import qt_platform

ROOT = Path(__file__).resolve().parents[2]
HINT = 'README, "If the window does not open"'


@pytest.fixture()
def plugins(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A Linux plugin folder holding xcb and offscreen, on an X11 desktop."""
    monkeypatch.setattr(sys, "platform", "linux")
    monkeypatch.delenv("QT_QPA_PLATFORM", raising=False)
    monkeypatch.delenv("XDG_SESSION_TYPE", raising=False)
    monkeypatch.setenv("DISPLAY", ":0")
    (tmp_path / "platforms").mkdir()
    for name in ("libqxcb.so", "libqoffscreen.so"):
        (tmp_path / "platforms" / name).write_bytes(b"")
    return tmp_path


def refuse(*missing: str):  # type: ignore[no-untyped-def]
    """A library loader for which these libraries (and the plugin) are not installed."""
    def load(name: str) -> object:
        if name.endswith("libqxcb.so") or name in missing:
            raise OSError(f"{missing[0]}: cannot open shared object file: "
                          "No such file or directory")
        return object()
    return load


def test_the_readme_has_the_section_every_message_points_to() -> None:
    headings = re.findall(r"^#+\s+(.+)$", (ROOT / "README.md").read_text(encoding="utf-8"),
                          flags=re.MULTILINE)
    assert "If the window does not open" in headings


def test_a_missing_x11_library_is_named_with_its_package_and_the_readme(plugins: Path) -> None:
    message = qt_platform.problem(plugins, load=refuse("libxcb-cursor.so.0",
                                                       "libxcb-icccm.so.4"))
    assert message is not None
    assert "libxcb-cursor.so.0, libxcb-icccm.so.4" in message
    assert "sudo apt-get update && sudo apt-get install libxcb-cursor0 libxcb-icccm4" in message
    assert HINT in message


def test_nothing_is_said_when_the_plugin_loads_on_a_display(plugins: Path) -> None:
    assert qt_platform.problem(plugins, load=lambda name: object()) is None


def test_no_display_is_said_in_words(plugins: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DISPLAY")
    message = qt_platform.problem(plugins, load=lambda name: object())
    assert message is not None and "no display" in message and HINT in message


def test_an_unknown_platform_lists_the_installed_ones(plugins: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("QT_QPA_PLATFORM", "bogus")
    message = qt_platform.problem(plugins, load=lambda name: object())
    assert message is not None
    assert "'bogus'" in message and "offscreen, xcb" in message and HINT in message


def test_the_offscreen_platform_of_the_tests_passes(plugins: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("QT_QPA_PLATFORM", "offscreen")
    assert qt_platform.problem(plugins, load=lambda name: object()) is None


def test_plugins_qt_alone_knows_are_left_to_qt(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("QT_QPA_PLATFORM", "xcb")
    assert qt_platform.problem(tmp_path, load=refuse("libxcb-cursor.so.0")) is None


@pytest.mark.parametrize(("library", "package"), [
    ("libxcb-cursor.so.0", "libxcb-cursor0"),
    ("libxcb-icccm.so.4", "libxcb-icccm4"),
    ("libxkbcommon-x11.so.0", "libxkbcommon-x11-0"),
    ("libEGL.so.1", "libegl1"),
    ("libwayland-cursor.so.0", "libwayland-cursor0"),
])
def test_debian_package_names(library: str, package: str) -> None:
    assert qt_platform.debian_package(library) == package


def _run(code: str, **env: str) -> subprocess.CompletedProcess[str]:
    environment = {**os.environ, **env}
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           env=environment, timeout=120, check=False)


def test_the_app_says_so_and_exits_instead_of_aborting(tmp_path: Path) -> None:
    done = _run("from companion.cli import main; raise SystemExit(main(['--smoke']))",
                QT_QPA_PLATFORM="bogus", COMPANION_HOME=str(tmp_path))
    assert done.returncode == 3
    assert "cannot open a window" in done.stderr and HINT in done.stderr
    assert "smoke ok" not in done.stdout


def test_a_fatal_qt_message_while_starting_gets_the_pointer_too() -> None:
    done = _run("from companion.ui import qt_platform\n"
                "qt_platform.install_fatal_hint()\n"
                "from PySide6.QtCore import qFatal\n"
                "qFatal('This application failed to start because no Qt platform plugin "
                "could be initialized.')")
    assert done.returncode != 0
    assert "no Qt platform plugin could be initialized" in done.stderr
    assert "Stonesaga Companion cannot open a window" in done.stderr and HINT in done.stderr
