"""The release workflow (issue 36 item 16): ``.github/workflows/release.yml`` passes
actionlint (installed with the dev extras, so ``make test`` checks it), and it does what
the README promises players: on a version tag it builds on Windows, macOS and Linux
runners, smoke-tests the wheel and the folder build on each, and attaches them to the
release only after every build passed."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
WORKFLOW = ROOT / ".github" / "workflows" / "release.yml"


def actionlint() -> str:
    """The actionlint of this environment (the dev extras put it beside Python)."""
    beside = Path(sys.executable).parent / ("actionlint.exe" if os.name == "nt" else "actionlint")
    found = str(beside) if beside.exists() else shutil.which("actionlint")
    if found is None:
        pytest.fail("actionlint is missing: install the dev extras (pip install -e '.[dev]', "
                    "as make test does)")
    return found


def lint(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([actionlint(), "-no-color", "-oneline", str(path)],
                          capture_output=True, text=True, timeout=120, check=False)


def workflow() -> dict[Any, Any]:
    data = yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def steps(job: dict[str, Any]) -> list[dict[str, Any]]:
    return list(job.get("steps", []))


def test_release_workflow_passes_actionlint() -> None:
    done = lint(WORKFLOW)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout == ""


def test_release_workflow_actionlint_does_find_a_mistake(tmp_path: Path) -> None:
    """The check is real: the same workflow with one mistake is refused."""
    broken = tmp_path / ".github" / "workflows" / "release.yml"
    broken.parent.mkdir(parents=True)
    text = WORKFLOW.read_text(encoding="utf-8")
    assert "runs-on: ${{ matrix.os }}" in text
    broken.write_text(text.replace("runs-on: ${{ matrix.os }}", "runs-on: ${{ matrix.oss }}"),
                      encoding="utf-8")
    done = lint(broken)
    assert done.returncode != 0 and "oss" in done.stdout


def test_release_workflow_runs_on_a_version_tag() -> None:
    data = workflow()
    trigger = data.get("on", data.get(True))  # YAML 1.1 reads a bare `on` as true
    assert set(trigger) == {"push"}
    assert trigger["push"]["tags"] == ["v*"]


def test_release_workflow_builds_on_windows_macos_and_linux() -> None:
    folder = workflow()["jobs"]["folder"]
    assert folder["runs-on"] == "${{ matrix.os }}"
    systems = {re.sub(r"-.*", "", entry["os"]) for entry in folder["strategy"]["matrix"]["include"]}
    assert systems == {"windows", "macos", "ubuntu"}


def test_release_workflow_smoke_tests_the_wheel_and_the_folder_build() -> None:
    jobs = workflow()["jobs"]
    build = [s for s in steps(jobs["wheel"]) if "python -m build" in s.get("run", "")]
    assert build, "the wheel is built"
    runs = {s.get("name", ""): s.get("run", "") for s in steps(jobs["folder"])}
    smoked = {name for name, run in runs.items() if "--smoke" in run and "smoke ok" in run}
    assert any("wheel" in name for name in smoked), runs
    assert any("folder" in name for name in smoked), runs
    assert any("PyInstaller" in run and "stonesaga-companion.spec" in run for run in
               runs.values())
    order = list(runs)
    assert order.index(next(n for n in smoked if "folder" in n)) < \
        order.index("Pack the folder build")  # nothing is packed before it passed


def test_release_workflow_attaches_the_files_only_after_every_build() -> None:
    publish = workflow()["jobs"]["publish"]
    assert set(publish["needs"]) == {"wheel", "folder"}
    assert publish["permissions"] == {"contents": "write"}
    [release] = [s for s in steps(publish) if str(s.get("uses", "")).startswith(
        "softprops/action-gh-release@")]
    assert release["with"]["files"] == "release/*"
    assert workflow()["permissions"] == {"contents": "read"}  # only publish may write
