"""First run: a clear message when Qt cannot open a window, instead of Qt's abort.

When Qt's platform plugin cannot load, ``QApplication()`` aborts the process with
"no Qt platform plugin could be initialized" and names no library (or the wrong one).
``problem()`` looks first, before any ``QApplication`` exists: does the plugin Qt will
pick exist, and (on Linux) do the system libraries it needs load? Its answer names the
missing library, the Debian/Ubuntu package that most likely holds it, and the README
section that fixes it. ``fatal_hint`` is the safety net for whatever the look missed: while
the application starts, a Qt message handler adds the same pointer to any fatal message.
"""

from __future__ import annotations

import ctypes
import os
import re
import sys
from collections.abc import Callable
from pathlib import Path

README_SECTION = 'README, "If the window does not open"'

# The X11 libraries Qt's xcb plugin loads (Qt's "X11 requirements" page); a desktop
# session has them, a bare or minimal system often lacks some.
XCB_LIBRARIES = (
    "libxcb-cursor.so.0", "libxcb-icccm.so.4", "libxcb-image.so.0", "libxcb-keysyms.so.1",
    "libxcb-randr.so.0", "libxcb-render-util.so.0", "libxcb-shape.so.0", "libxcb-sync.so.1",
    "libxcb-xfixes.so.0", "libxcb-xkb.so.1", "libxkbcommon-x11.so.0", "libxkbcommon.so.0",
)
_MISSING = re.compile(r"(lib[\w.+-]+\.so[\w.]*): cannot open shared object file")

Loader = Callable[[str], object]


def _plugin_file(folder: Path, name: str) -> Path:
    if sys.platform == "win32":
        return folder / f"q{name}.dll"
    if sys.platform == "darwin":
        return folder / f"libq{name}.dylib"
    return folder / f"libq{name}.so"


def _platform_names() -> list[str] | None:
    """The plugins Qt will try, in order (None: Qt decides; nothing to check)."""
    chosen = os.environ.get("QT_QPA_PLATFORM", "").strip()
    if chosen:
        return [part.split(":", 1)[0].strip() for part in chosen.split(";") if part.strip()]
    if sys.platform.startswith("linux"):
        if os.environ.get("XDG_SESSION_TYPE") == "wayland" and os.environ.get("WAYLAND_DISPLAY"):
            return None  # Qt picks wayland or xcb itself; the fatal hint covers a failure
        return ["xcb"]
    return None


def _platform_folders(plugins_dir: Path | None) -> list[Path]:
    """Where Qt looks for platform plugins: the environment's folders, then its own."""
    if plugins_dir is not None:
        return [plugins_dir / "platforms"]
    from PySide6.QtCore import QLibraryInfo

    folders = [Path(p) for p in os.environ.get("QT_QPA_PLATFORM_PLUGIN_PATH", "").split(
        os.pathsep) if p]
    folders += [Path(p) / "platforms" for p in os.environ.get("QT_PLUGIN_PATH", "").split(
        os.pathsep) if p]
    folders.append(Path(QLibraryInfo.path(QLibraryInfo.LibraryPath.PluginsPath)) / "platforms")
    return folders


def debian_package(library: str) -> str:
    """The Debian/Ubuntu package that usually holds a shared library: ``libxcb-icccm.so.4``
    is in ``libxcb-icccm4``, ``libxkbcommon-x11.so.0`` in ``libxkbcommon-x11-0``."""
    stem, _, version = library.partition(".so")
    version = version.lstrip(".").split(".")[0]
    stem = stem.lower()
    return f"{stem}{'-' if stem[-1:].isdigit() else ''}{version}"


def _missing_libraries(plugin: Path, load: Loader) -> list[str]:
    """The system libraries the plugin needs and cannot load (empty: it loads)."""
    try:
        load(str(plugin))
    except OSError as exc:
        missing = _MISSING.findall(str(exc))
        for library in XCB_LIBRARIES if plugin.name == "libqxcb.so" else ():
            try:
                load(library)
            except OSError:
                if library not in missing:
                    missing.append(library)
        return missing or [str(exc)]
    return []


def problem(plugins_dir: Path | None = None, load: Loader = ctypes.CDLL) -> str | None:
    """Why Qt will not be able to open a window, in words a player can act on (None if
    nothing is wrong, or if it cannot be told without trying)."""
    names = _platform_names()
    if not names:
        return None
    folders = _platform_folders(plugins_dir)
    installed = {f: [p for p in sorted(f.iterdir()) if p.suffix in (".so", ".dll", ".dylib")]
                 for f in folders if f.is_dir()}
    if not any(installed.values()):
        return None  # the plugins are somewhere Qt alone knows: let Qt try
    found = [(name, folder) for name in names for folder in installed
             if _plugin_file(folder, name).is_file()]
    if not found:
        available = sorted({re.sub(r"^(lib)?q|\.(so|dll|dylib)$", "", p.name)
                            for files in installed.values() for p in files})
        return (f"Qt has no platform plugin called {' or '.join(map(repr, names))} "
                f"(QT_QPA_PLATFORM={os.environ.get('QT_QPA_PLATFORM', '')!r}); the ones "
                f"installed are: {', '.join(available)}. Unset QT_QPA_PLATFORM "
                f"to open a window; see the {README_SECTION}.")
    name, folder = found[0]
    if sys.platform.startswith("linux"):
        missing = _missing_libraries(_plugin_file(folder, name), load)
        if missing:
            packages = " ".join(debian_package(m) for m in missing if ".so" in m)
            install = (f" On Debian or Ubuntu: sudo apt-get update && sudo apt-get install "
                       f"{packages}." if packages else "")
            return (f"Qt's {name!r} platform plugin cannot load: it needs "
                    f"{', '.join(missing)}, not installed on this system.{install} "
                    f"See the {README_SECTION}.")
        if name == "xcb" and not os.environ.get("DISPLAY"):
            return ("There is no display to open a window on (DISPLAY is not set): start "
                    "the companion from a desktop session. See the "
                    f"{README_SECTION}.")
    return None


def fatal_hint(message: str) -> str:
    """The pointer added to a fatal Qt message while the application starts: whatever
    it says ("no Qt platform plugin could be initialized", "could not connect to
    display", "Could not initialize egl display"), Qt could not open a window."""
    return (f"Stonesaga Companion cannot open a window (Qt: {message.strip()!r}). See the "
            f"{README_SECTION}.")


def install_fatal_hint() -> Callable[[], None]:
    """Add ``fatal_hint`` to Qt's fatal messages while the application starts; returns
    the call that puts the previous handler back."""
    from PySide6.QtCore import QtMsgType, qInstallMessageHandler

    def handler(kind: QtMsgType, _context: object, message: str) -> None:
        print(message, file=sys.stderr, flush=True)
        if kind == QtMsgType.QtFatalMsg:
            print(fatal_hint(message), file=sys.stderr, flush=True)

    previous = qInstallMessageHandler(handler)

    def restore() -> None:
        qInstallMessageHandler(previous)

    return restore
