"""The examples in the rules layer's docstrings hold."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import companion.rules

MODULES = [m.name for m in pkgutil.walk_packages(companion.rules.__path__, "companion.rules.")]
"""Every module of the rules layer, those of its packages (night, foraging ...) included."""


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
