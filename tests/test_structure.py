"""The shape of companion/, checked by reading every import statement (issue 30): no import
circle between its files, no module over 800 lines, and no name starting with one
underscore imported from another of its modules.

Every runtime import counts, lazy ones inside functions included; those under
``if TYPE_CHECKING:`` do not (they never run). Relative imports are resolved, and
``from package import module`` is an import of that module.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "companion"
MAX_LINES = 800


@dataclass(frozen=True)
class Import:
    line: int
    module: str  # the module the statement names, resolved
    names: tuple[str, ...]  # the names of ``from module import a, b``; () for ``import``


def module_names(package: Path) -> dict[str, Path]:
    """Each file of the package by its dotted module name (a package by its __init__)."""
    found = {}
    for path in sorted(package.rglob("*.py")):
        parts = path.relative_to(package.parent).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts)] = path
    return found


def runtime_imports(path: Path, name: str) -> Iterator[Import]:
    """Every import statement of the file ``path`` (module ``name``) that runs."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    guarded: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            guarded |= {id(inner) for branch in node.body for inner in ast.walk(branch)}
    base = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(tree):
        if id(node) in guarded:
            continue
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield Import(node.lineno, alias.name, ())
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if node.level:
                anchor = base
                for _ in range(node.level - 1):
                    anchor = anchor.rpartition(".")[0]
                module = f"{anchor}.{module}" if module else anchor
            yield Import(node.lineno, module, tuple(a.name for a in node.names))


def owning_module(dotted: str, modules: dict[str, Path]) -> str | None:
    """The longest module of the package that ``dotted`` names or lies inside."""
    while dotted and dotted not in modules:
        dotted = dotted.rpartition(".")[0]
    return dotted or None


def import_graph(package: Path) -> dict[str, set[str]]:
    """Module -> the package's modules it imports at run time (not itself, not a package
    it lies inside: importing ``a.b`` runs ``a`` first anyway)."""
    modules = module_names(package)
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        targets = graph.setdefault(name, set())
        for found in runtime_imports(path, name):
            for dotted in (found.module, *(f"{found.module}.{n}" for n in found.names)):
                target = owning_module(dotted, modules)
                if target and target != name and not name.startswith(target + "."):
                    targets.add(target)
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import circles: strongly connected groups of two or more modules (Tarjan,
    without recursion), largest first, each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, targets = work[-1]
            target = next(targets, None)
            if target is not None:
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(sorted(graph.get(target, ())))))
                elif target in on_stack:
                    low[node] = min(low[node], index[target])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1:
                    found.append(sorted(group))
    return sorted(found, key=lambda g: (-len(g), g))


def long_modules(package: Path, limit: int = MAX_LINES) -> list[str]:
    found = []
    for path in sorted(package.rglob("*.py")):
        count = len(path.read_text(encoding="utf-8").splitlines())
        if count > limit:
            found.append(f"{path.relative_to(package.parent)}: {count} lines")
    return found


def private_imports(package: Path) -> list[str]:
    """``from X import _name`` where X is another module of the package (a submodule
    named with an underscore, ``from pkg import _module``, is a module, not a name)."""
    modules = module_names(package)
    found = []
    for name, path in modules.items():
        for imported in runtime_imports(path, name):
            if owning_module(imported.module, modules) is None:
                continue
            for item in imported.names:
                private = item.startswith("_") and not item.startswith("__")
                if private and f"{imported.module}.{item}" not in modules \
                        and imported.module != name:
                    found.append(f"{path.relative_to(package.parent)}:{imported.line}: "
                                 f"imports {item} from {imported.module}")
    return found


def test_no_import_circle_between_the_files_of_companion() -> None:
    found = [f"circle of {len(c)}: {' '.join(c)}" for c in circles(import_graph(PACKAGE))]
    assert not found, "\n".join(found)


def test_no_module_of_companion_over_800_lines() -> None:
    found = long_modules(PACKAGE)
    assert not found, "\n".join(found)


def test_no_private_name_is_imported_from_another_module_of_companion() -> None:
    found = private_imports(PACKAGE)
    assert not found, "\n".join(found)


# --- the checks themselves see what they look for ------------------------------------------


def plant(root: Path, files: dict[str, str]) -> Path:
    package = root / "pkg"
    for name, text in {"__init__.py": "", **files}.items():
        path = package / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return package


def test_the_checker_sees_a_circle_through_a_lazy_and_a_relative_import(
        tmp_path: Path) -> None:
    package = plant(tmp_path, {
        "a.py": "from pkg import b\n",
        "b.py": "def f():\n    from .sub import c\n",
        "sub/__init__.py": "",
        "sub/c.py": "import pkg.a\n",
        "d.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg import a\n",
        "e.py": "from pkg import d\n",
    })
    assert circles(import_graph(package)) == [["pkg.a", "pkg.b", "pkg.sub.c"]]


def test_the_checker_leaves_out_imports_under_type_checking(tmp_path: Path) -> None:
    package = plant(tmp_path, {
        "a.py": "from pkg import b\n",
        "b.py": "import typing\nif typing.TYPE_CHECKING:\n    from pkg import a\n",
    })
    assert circles(import_graph(package)) == []


def test_the_checker_sees_a_long_module(tmp_path: Path) -> None:
    package = plant(tmp_path, {"short.py": "x = 1\n" * MAX_LINES,
                               "long.py": "x = 1\n" * (MAX_LINES + 1)})
    assert long_modules(package) == [f"pkg/long.py: {MAX_LINES + 1} lines"]


def test_the_checker_sees_a_private_name_imported(tmp_path: Path) -> None:
    package = plant(tmp_path, {
        "a.py": "_rows = 1\n__all__ = []\n",
        "b.py": "def f():\n    from .a import _rows, __all__\n",
        "_module.py": "",
        "c.py": "from pkg import _module\nfrom os import _exit\n",
    })
    assert private_imports(package) == ["pkg/b.py:2: imports _rows from pkg.a"]
