"""The UI's rooms (issue 20 item 13): no dialog, panel or view imports the main window
(they are given a ``companion.ui.host.Host``), and the UI modules' module-level imports
form no circle. Only the launcher glue (``companion.ui.session``) knows MainWindow."""

from __future__ import annotations

import ast
from pathlib import Path

UI = Path(__file__).resolve().parents[2] / "companion" / "ui"
LAUNCHER = {"companion.ui.main_window", "companion.ui.session"}


def module_name(path: Path) -> str:
    parts = path.relative_to(UI.parents[1]).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path: Path, *, top_level_only: bool) -> set[str]:
    """The companion.ui modules ``path`` imports (every import, or only those run when
    the module itself is imported: not inside functions or ``if TYPE_CHECKING``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    nodes = list(ast.walk(tree)) if not top_level_only else list(tree.body)
    found: set[str] = set()
    for node in nodes:
        if isinstance(node, ast.ImportFrom) and node.module:
            if node.module.startswith("companion.ui"):
                found.add(node.module)
                found.update(f"{node.module}.{a.name}" for a in node.names)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.startswith("companion.ui"))
    modules = {module_name(p) for p in UI.rglob("*.py")}
    return {name for name in found if name in modules}


def test_no_dialog_or_view_imports_the_main_window() -> None:
    offenders = sorted(module_name(p) for p in UI.rglob("*.py")
                       if module_name(p) not in LAUNCHER
                       and "companion.ui.main_window" in imports(p, top_level_only=False))
    assert offenders == []


def test_the_ui_modules_import_each_other_without_a_circle() -> None:
    graph = {module_name(p): imports(p, top_level_only=True) for p in UI.rglob("*.py")}
    seen: dict[str, str] = {}  # "visiting" or "done"

    def visit(name: str, trail: list[str]) -> None:
        if seen.get(name) == "done":
            return
        assert seen.get(name) != "visiting", " -> ".join([*trail, name])
        seen[name] = "visiting"
        for other in graph.get(name, ()):
            if other != name:
                visit(other, [*trail, name])
        seen[name] = "done"

    for name in graph:
        visit(name, [])


def test_the_main_window_is_the_host() -> None:
    from companion.ui.host import Host
    from companion.ui.main_window import MainWindow

    assert issubclass(MainWindow, Host)
