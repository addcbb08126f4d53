"""Rules-test fixtures: the sample pack's RulesConstants."""

from __future__ import annotations

import pytest

from companion.content.schema.rules import RulesConstants
from tests.rules.factories import load_rules


@pytest.fixture(scope="session")
def rules() -> RulesConstants:
    """RulesConstants loaded from content/rules/rules.yaml."""
    return load_rules()
