"""``companion.operations`` imports its names lazily (start-up time): the lazy table must
name every operation the type checkers see, from the same module, and every name of
``__all__`` must resolve."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import companion.operations as operations

INIT = Path(operations.__file__)


def typed_imports() -> dict[str, str]:
    """Name -> module of the ``if TYPE_CHECKING:`` imports of the package."""
    tree = ast.parse(INIT.read_text(encoding="utf-8"))
    found: dict[str, str] = {}
    for node in tree.body:
        if isinstance(node, ast.If) and getattr(node.test, "id", "") == "TYPE_CHECKING":
            for statement in node.body:
                assert isinstance(statement, ast.ImportFrom) and statement.module
                for alias in statement.names:
                    found[alias.asname or alias.name] = statement.module.rsplit(".", 1)[1]
    return found


def test_the_lazy_table_matches_the_typed_imports() -> None:
    homes = operations._HOMES
    typed = typed_imports()
    missing = sorted(set(typed) - set(homes))
    assert not missing, f"add these to _HOMES in companion/operations/__init__.py: {missing}"
    assert homes == typed


def test_every_exported_name_resolves() -> None:
    missing = sorted(set(operations.__all__) - set(operations._HOMES) - set(vars(operations)))
    assert not missing, f"add these to _HOMES in companion/operations/__init__.py: {missing}"
    for name in operations.__all__:
        assert getattr(operations, name) is not None, name


def test_importing_the_package_imports_no_operation_module() -> None:
    code = ("import sys, companion.operations; "
            "print(sorted(m for m in sys.modules if m.startswith('companion.operations.')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=INIT.parents[2])
    assert out.stdout.strip() == "[]"
