"""The acceptance tests' shared campaign: the CLI story (test_campaign_cli.py), played once
per session and copied for each test that starts part-way through it."""

from __future__ import annotations

import pytest

from tests.acceptance.table import Story, moments_of


@pytest.fixture(scope="session")
def ember(tmp_path_factory: pytest.TempPathFactory) -> Story:
    """The Ember Folk's campaign, its moments the CLI acceptance tests in written order."""
    from tests.acceptance import test_campaign_cli

    return Story(tmp_path_factory.mktemp("ember-story"), "ember.stonesaga",
                 moments_of(test_campaign_cli))
