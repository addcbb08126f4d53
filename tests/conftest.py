"""Test-wide set-up: Qt runs headless, and no test touches the real user folder."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

# Must happen before any Qt import anywhere in the test session.
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("QT_LOGGING_RULES", "qt.qpa.*=false")
# A command refused a campaign another process holds is refused at once in tests (the
# lock wait's own tests, tests/cli/test_lock_wait.py, set how long it waits).
os.environ.setdefault("COMPANION_LOCK_WAIT", "0")

# Tests never time things (DESIGN.md): no per-example deadline, even on a busy machine.
# In CI the examples are derived from the test's name, so a run is repeatable.
settings.register_profile("dev", deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("ci", deadline=None, derandomize=True, print_blob=True,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("ci" if os.environ.get("CI") else "dev")


@pytest.fixture(autouse=True)
def _isolated_user_folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Point the app's data folder (platformdirs) at a fresh temporary folder."""
    home = tmp_path_factory.mktemp("companion-home")
    old = os.environ.get("COMPANION_HOME")
    os.environ["COMPANION_HOME"] = str(home)
    yield home
    if old is None:
        os.environ.pop("COMPANION_HOME", None)
    else:
        os.environ["COMPANION_HOME"] = old
