"""Whole campaigns played at random hold every promise of the campaign file (issue 24).

Short form (``make test``): a few campaigns of a few hundred operations. Long form, by
hand (docs/campaign-file.md, "The whole-campaign harness")::

    COMPANION_HARNESS_CAMPAIGNS=50 COMPANION_HARNESS_OPERATIONS=2000 \\
    COMPANION_HARNESS_LOG=harness-long.log \\
        .venv/bin/python -m pytest -q tests/invariants -p no:cacheprovider

``COMPANION_HARNESS_SEED`` moves the first seed (each campaign is ``seed``, ``seed + 1``,
...); a failure names its seed and its last calls, and replays with that seed alone.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from companion.content import load_content
from tests.invariants.checks import check_campaign
from tests.invariants.player import Player, one_parser, play, set_up

CAMPAIGNS = int(os.environ.get("COMPANION_HARNESS_CAMPAIGNS", "3"))
OPERATIONS = int(os.environ.get("COMPANION_HARNESS_OPERATIONS", "120"))
FIRST_SEED = int(os.environ.get("COMPANION_HARNESS_SEED", "0"))
LOG = os.environ.get("COMPANION_HARNESS_LOG")


@pytest.fixture(scope="module")
def content() -> object:
    return load_content("sample")


@pytest.mark.parametrize("seed", range(FIRST_SEED, FIRST_SEED + CAMPAIGNS))
def test_a_whole_campaign_keeps_every_promise_of_the_campaign_file(
        seed: int, tmp_path: Path, content: object) -> None:
    started = time.monotonic()
    # Every third campaign is one of the owner's box (issue 25), typing tiles as they come.
    player = Player(seed, tmp_path, content, box=seed % 3 == 2)
    outcome = "exact"
    try:
        with one_parser():
            set_up(player)
            play(player, OPERATIONS)
            check_campaign(player)
    except AssertionError as failure:
        outcome = f"FAILED: {str(failure).splitlines()[0]}"
        raise
    finally:
        if LOG:
            with open(LOG, "a", encoding="utf-8") as log:
                log.write(json.dumps({"seed": seed, "operations": OPERATIONS,
                                      "outcome": outcome,
                                      "seconds": round(time.monotonic() - started, 1),
                                      "counts": dict(sorted(player.counts.items()))}) + "\n")
    # Random play reached the table: most kinds of operation were done, not only refused.
    done = {key.rsplit(" ", 1)[0] for key, n in player.counts.items()
            if key.endswith(" done") and n}
    assert len(done) >= 10, sorted(done)
