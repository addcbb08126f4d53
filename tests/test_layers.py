"""The layer boundaries of DESIGN.md, checked by reading every import statement.

rules/, content/ and store/ never import Qt; rules/ never imports the database layer;
nothing outside companion/ui imports companion.ui.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "companion"
QT = ("PySide6", "shiboken6")
DATABASE = ("sqlmodel", "sqlalchemy", "sqlite3")


def imported_modules(path: Path) -> list[tuple[int, str]]:
    """Every module a file imports (top-level or inside functions), with its line."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append((node.lineno, node.module))
    return found


def offences(layer: str, forbidden: tuple[str, ...]) -> list[str]:
    bad = []
    for path in sorted((PACKAGE / layer).rglob("*.py")):
        for line, module in imported_modules(path):
            if module.split(".")[0] in forbidden or module.startswith(forbidden):
                bad.append(f"{path.relative_to(PACKAGE.parent)}:{line}: imports {module}")
    return bad


@pytest.mark.parametrize("layer", ["rules", "content", "store"])
def test_pure_layers_do_not_import_qt(layer: str) -> None:
    assert offences(layer, QT) == []


def test_rules_do_not_import_the_database_layer() -> None:
    assert offences("rules", DATABASE) == []


def test_rules_import_only_stdlib_and_content_types() -> None:
    allowed_first_party = ("companion.rules", "companion.content")
    bad = []
    for path in sorted((PACKAGE / "rules").rglob("*.py")):
        for line, module in imported_modules(path):
            if module.startswith("companion") and not module.startswith(allowed_first_party):
                bad.append(f"{path.name}:{line}: imports {module}")
            if module.split(".")[0] in ("yaml", "platformdirs", "PIL"):
                bad.append(f"{path.name}:{line}: imports {module} (I/O belongs elsewhere)")
    assert bad == []


def test_nothing_imports_the_ui() -> None:
    bad = []
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE)
        if rel.parts[0] == "ui":
            continue
        for line, module in imported_modules(path):
            if module.startswith("companion.ui"):
                # The CLI may start the GUI, and draw the map or the journal's PDF
                # headless, only lazily from the command that needs it.
                if rel.parts[0] == "cli" and rel.name in ("gui.py", "map_cmd.py",
                                                           "journal_cmd.py"):
                    continue
                bad.append(f"{rel}:{line}: imports {module}")
    assert bad == []


def test_the_checker_sees_a_forbidden_import(tmp_path: Path) -> None:
    """The scan itself works: a planted Qt import is found."""
    planted = tmp_path / "x.py"
    planted.write_text("def f():\n    from PySide6 import QtCore\n", encoding="utf-8")
    assert imported_modules(planted) == [(2, "PySide6")]
