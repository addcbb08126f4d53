"""Rules-test fixtures: the sample pack, and its RulesConstants."""

from __future__ import annotations

import pytest

from companion.content import Content, load_content
from companion.content.schema.rules import RulesConstants
from tests.rules.factories import load_rules


@pytest.fixture(scope="session")
def rules() -> RulesConstants:
    """RulesConstants loaded from content/rules/rules.yaml."""
    return load_rules()


@pytest.fixture(scope="session")
def content() -> Content:
    """The sample pack, loaded once (per test worker); the tests only read it."""
    return load_content("sample")
