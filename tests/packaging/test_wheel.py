"""The wheel works from anywhere (issue 29): built with ``python -m build`` (the sdist,
then the wheel from the sdist, as pip and PyPI do), installed into a clean virtual
environment, and run from a folder outside the checkout: ``--smoke``, a CLI round trip
(campaign new, an act, undo, export, import) and ``content check``.

Speed: the third-party dependencies (PySide6 alone is ~350 MB unpacked) are installed
once into a cached environment, ``build/wheel-test-deps-<hash>/`` (keyed by the wheel's
own Requires-Dist and the Python version; ``make clean`` removes it). Each run makes a
fresh venv, installs the wheel there with ``--no-deps`` and lets it see that cache
through a ``.pth`` line; the companion itself is never in the cache, and a test checks
that ``companion`` and ``companion_data`` are imported from the fresh venv, not from the
checkout. The test skips, saying why, only when the ``build`` package cannot be installed.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import venv
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BIN = "Scripts" if os.name == "nt" else "bin"
EXE = ".exe" if os.name == "nt" else ""
TIMEOUT = 600

# make test runs in parallel: this module's tests share one worker, so one wheel is built.
pytestmark = pytest.mark.xdist_group("wheel")


def _run(*argv: str | Path, cwd: Path | None = None, env: dict[str, str] | None = None,
         check: bool = True) -> subprocess.CompletedProcess[str]:
    done = subprocess.run([str(a) for a in argv], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=TIMEOUT, check=False)
    if check and done.returncode != 0:
        pytest.fail(f"{' '.join(map(str, argv))} exited {done.returncode}:\n"
                    f"{done.stdout[-3000:]}\n{done.stderr[-3000:]}")
    return done


def _pip(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return _run(sys.executable, "-m", "pip", "--disable-pip-version-check", *args)


def _ensure_build() -> None:
    if importlib.util.find_spec("build") is not None:
        return
    done = _run(sys.executable, "-m", "pip", "install", "--quiet", "build>=1", check=False)
    importlib.invalidate_caches()
    if done.returncode != 0 or importlib.util.find_spec("build") is None:
        pytest.skip("the 'build' package (PyPA's build front end, in the dev extras) is not "
                    f"installed and pip could not install it: {done.stderr.strip()[-300:]}")


def _site_packages(env_dir: Path) -> Path:
    if os.name == "nt":
        return env_dir / "Lib" / "site-packages"
    return env_dir / "lib" / f"python{sys.version_info.major}.{sys.version_info.minor}" \
        / "site-packages"


def _requirements(wheel: Path) -> list[str]:
    """The wheel's own run-time requirements (Requires-Dist without an extra)."""
    with zipfile.ZipFile(wheel) as archive:
        name = next(n for n in archive.namelist() if n.endswith(".dist-info/METADATA"))
        metadata = archive.read(name).decode("utf-8")
    found = re.findall(r"^Requires-Dist: (.+)$", metadata, flags=re.MULTILINE)
    return sorted(r.strip() for r in found if "extra ==" not in r)


def _dependencies(requirements: list[str]) -> Path:
    """A cached environment holding only the third-party requirements."""
    key = hashlib.sha256("\n".join([sys.version, *requirements]).encode()).hexdigest()[:12]
    folder = ROOT / "build" / f"wheel-test-deps-{key}"
    if (folder / "ready").is_file():
        return folder
    shutil.rmtree(folder, ignore_errors=True)
    partial = folder.with_name(folder.name + f".{os.getpid()}.partial")
    shutil.rmtree(partial, ignore_errors=True)
    venv.create(partial, with_pip=False)
    _pip("--python", partial / BIN / f"python{EXE}", "install", "--quiet", *requirements)
    (partial / "ready").write_text("\n".join(requirements) + "\n", encoding="utf-8")
    try:
        partial.rename(folder)
    except OSError:  # another run made it meanwhile
        shutil.rmtree(partial, ignore_errors=True)
    # The cache's own paths moved with the rename: only its site-packages is used, by path.
    return folder


# What a checkout holds that is not the project's source: environments, caches, builds.
NOT_SOURCE = shutil.ignore_patterns(".git", ".venv", "build", "dist", "*.egg-info",
                                    "stonesaga_companion-*", "__pycache__", ".*_cache",
                                    ".hypothesis")


def _source_copy(folder: Path) -> Path:
    """The checkout's source, copied to ``folder`` for the build. The sdist is staged in
    the folder it is built from; built in the checkout itself, its staging folder and
    egg-info sat where make test's other workers run (one build there lost a file it was
    archiving), and picked up whatever an earlier editable install left behind."""
    shutil.copytree(ROOT, folder, ignore=NOT_SOURCE)
    return folder


@dataclass(frozen=True)
class Installed:
    dist: Path
    wheel: Path
    sdist: Path
    env_dir: Path
    outside: Path

    def script(self, name: str) -> Path:
        return self.env_dir / BIN / f"{name}{EXE}"

    def run(self, home: Path, *argv: str | Path, check: bool = True,
            program: str = "companion") -> subprocess.CompletedProcess[str]:
        """Run an installed script from the folder outside the checkout."""
        env = {k: v for k, v in os.environ.items()
               if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")}
        env.update(COMPANION_HOME=str(home), QT_QPA_PLATFORM="offscreen",
                   QT_LOGGING_RULES="qt.qpa.*=false", PYTHONNOUSERSITE="1")
        return _run(self.script(program), *argv, cwd=self.outside, env=env, check=check)


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Installed]:
    _ensure_build()
    base = tmp_path_factory.mktemp("wheel")
    dist = base / "dist"
    _run(sys.executable, "-m", "build", "--outdir", dist, _source_copy(base / "source"))
    [wheel] = dist.glob("*.whl")
    [sdist] = dist.glob("*.tar.gz")
    deps = _dependencies(_requirements(wheel))
    env_dir = base / "clean-venv"
    venv.create(env_dir, with_pip=False)
    python = env_dir / BIN / f"python{EXE}"
    _pip("--python", python, "install", "--quiet", "--no-deps", wheel)
    (_site_packages(env_dir) / "_wheel_test_dependencies.pth").write_text(
        str(_site_packages(deps)) + "\n", encoding="utf-8")
    outside = base / "elsewhere"
    outside.mkdir()
    yield Installed(dist, wheel, sdist, env_dir, outside)


def test_the_package_under_test_comes_from_the_wheel(installed: Installed,
                                                     tmp_path: Path) -> None:
    done = installed.run(tmp_path, "-c", "import json, companion, companion_data.content as c, "
                         "companion.paths as p; print(json.dumps([companion.__file__, "
                         "c.__file__, str(p.shipped_content_dir())]))",
                         program="python")
    for where in json.loads(done.stdout):
        assert Path(where).is_relative_to(installed.env_dir), where
        assert not Path(where).is_relative_to(ROOT), where
    check = _pip("--python", installed.script("python"), "check")
    assert "No broken requirements" in check.stdout


def test_the_wheel_and_the_sdist_carry_what_the_app_reads(installed: Installed) -> None:
    with zipfile.ZipFile(installed.wheel) as archive:
        names = set(archive.namelist())
    for needed in ("companion_data/content/sample/pack.yaml",
                   "companion_data/content/rules/rules.yaml",
                   "companion_data/assets/app-icon-256.png",
                   "companion_data/assets/icons/forest.svg",
                   "companion_data/guide/getting-started.md"):
        assert needed in names
    with tarfile.open(installed.sdist) as archive:
        members = {m.name.split("/", 1)[1] for m in archive.getmembers() if "/" in m.name}
    for needed in ("setup.py", "pyproject.toml", "content/rules/rules.yaml",
                   "assets/app-icon-256.png", "docs/getting-started.md"):
        assert needed in members
    with zipfile.ZipFile(installed.wheel) as archive:
        entry_points = next(archive.read(n).decode() for n in archive.namelist()
                            if n.endswith("entry_points.txt"))
    assert "[gui_scripts]\nstonesaga-companion = companion.cli:gui_main" in entry_points
    assert "[console_scripts]\ncompanion = companion.cli:main" in entry_points
    assert installed.script("stonesaga-companion").is_file()


def test_every_picture_of_the_guide_and_every_icon_is_installed(installed: Installed,
                                                               tmp_path: Path) -> None:
    code = ("import re; from companion import paths; g = paths.shipped_guide(); "
            "pics = re.findall(r'!\\[[^\\]]*\\]\\(([^)\\s]+)', g.read_text('utf-8')); "
            "assert pics, 'no pictures'; "
            "missing = [p for p in pics if not (g.parent / p).is_file()]; "
            "missing += [n for n in ('app-icon-256.png', 'icons/forest.svg') "
            "if not paths.shipped_asset(n).is_file()]; print(missing)")
    assert installed.run(tmp_path, "-c", code, program="python").stdout.strip() == "[]"


def test_smoke_from_outside_the_checkout(installed: Installed, tmp_path: Path) -> None:
    done = installed.run(tmp_path, "--smoke")
    assert "smoke ok" in done.stdout


def test_content_check_from_outside_the_checkout(installed: Installed, tmp_path: Path) -> None:
    done = installed.run(tmp_path, "content", "check")
    assert done.stdout.startswith("content OK") and "sample" in done.stdout


def _energy(installed: Installed, home: Path, campaign: Path, name: str) -> int:
    data = json.loads(installed.run(home, "characters", campaign, "--json").stdout)
    return next(int(c["energy"]) for c in data["characters"] if c["name"] == name)


def test_a_cli_round_trip_from_outside_the_checkout(installed: Installed,
                                                     tmp_path: Path) -> None:
    """campaign new, a Day action, undo, export, import (Rulebook: Actions > Prepare
    Shelter costs 1 energy)."""
    home = tmp_path / "home"
    run = installed.run
    made = json.loads(run(home, "campaign", "new", "Dawn: the Ford?", "--players", "1",
                          "--characters", "2", "--seed", "1", "--json").stdout)
    campaign = Path(made["path"])
    assert campaign == home / "campaigns" / "Dawn the Ford.stonesaga" and campaign.is_file()
    run(home, "valley", "setup", campaign, "thornspire")
    run(home, "challenge", "start", campaign, "C1")
    for name, mantle in (("Ash", "hearthkeeper"), ("Bryn", "pathfinder")):
        run(home, "character", "create", campaign, "--name", name, "--dice", "6", "5", "4",
            "3", "2", "--assign", "might=6,dexterity=5,awareness=4,conviction=3",
            "--hex", "T01", "--trait", "wise", "--mantle", mantle)
    acted = json.loads(run(home, "act", campaign, "Ash", "shelter", "--json").stdout)
    assert acted["summary"] == "Ash prepared shelter in hex T01 (1 energy)"
    assert _energy(installed, home, campaign, "Ash") == 4
    assert "Undid: Ash prepared shelter" in run(home, "undo", campaign).stdout
    assert _energy(installed, home, campaign, "Ash") == 5
    exported = tmp_path / "dawn.json"
    run(home, "export", campaign, exported)
    back = tmp_path / "back.stonesaga"
    run(home, "import", exported, back)
    status = json.loads(run(home, "status", back, "--json").stdout)["status"]
    assert status["society_name"] == "Dawn: the Ford?"
    assert _energy(installed, home, back, "Ash") == 5
