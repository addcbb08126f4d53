"""The one-way layers inside ``companion/operations`` (docs/ARCHITECTURE.md, "operations:
one-way layers"): every import of every module, lazy ones inside functions included
(those under ``if TYPE_CHECKING:`` never run and are left out), goes to a lower layer,
and no ``_`` name is imported from another module. The layer table is read from the
document, the one place it is written down."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator, Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "companion" / "operations"
DOC = ROOT / "docs" / "ARCHITECTURE.md"
NAME = "companion.operations"


def read_layers(text: str) -> dict[str, int]:
    """Module -> layer number, from the table between the ``layers:begin`` and
    ``layers:end`` marks (rows ``| N name | module, module |``)."""
    inside = text.split("<!-- layers:begin -->", 1)[1].split("<!-- layers:end -->", 1)[0]
    layers: dict[str, int] = {}
    for line in inside.splitlines():
        row = re.fullmatch(r"\|\s*(\d+)[^|]*\|([^|]*)\|", line.strip())
        if row is None:
            continue
        for module in filter(None, (m.strip() for m in row.group(2).split(","))):
            assert module not in layers, f"{module} stands in two layers"
            layers[module] = int(row.group(1))
    return layers


def imports(source: str, module: str, known: set[str] | None = None
            ) -> Iterator[tuple[int, str, str]]:
    """(line, imported module of the package, imported name or "") for each runtime
    import in ``source``, the source of ``companion.operations.<module>`` (``journal``
    for a subpackage's face, ``journal.book`` for a module in it, ``__init__`` for the
    package's face)."""
    known = known if known is not None else set(package_sources())
    tree = ast.parse(source)
    skip = {id(node) for test in ast.walk(tree)
            if isinstance(test, ast.If) and "TYPE_CHECKING" in ast.unparse(test.test)
            for stmt in test.body for node in ast.walk(stmt)}
    is_package = module == "__init__" or f"{module}.__init__" in known or \
        any(k.startswith(module + ".") for k in known)
    here = "" if module == "__init__" else module if is_package else module.rpartition(".")[0]

    def inside(dotted: str) -> str:
        """The package's module a dotted name under ``companion.operations`` is in."""
        while dotted and dotted not in known:
            dotted = dotted.rpartition(".")[0]
        return dotted or "__init__"

    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith(NAME + "."):
                    yield node.lineno, inside(alias.name[len(NAME) + 1:]), ""
        elif isinstance(node, ast.ImportFrom):
            target = node.module or ""
            if node.level:  # relative to this file's package
                base = here.split(".") if here else []
                base = base[:len(base) - (node.level - 1)] if node.level > 1 else base
                target = ".".join([NAME, *base, *([target] if target else [])])
            if target != NAME and not target.startswith(NAME + "."):
                continue
            rest = target[len(NAME) + 1:]
            for alias in node.names:
                full = f"{rest}.{alias.name}" if rest else alias.name
                if full in known:  # from companion.operations(.journal) import a_module
                    yield node.lineno, full, ""
                else:
                    yield node.lineno, inside(rest), alias.name


def offences(sources: Mapping[str, str], layers: Mapping[str, int]) -> list[str]:
    """Every import against the rule in ``sources`` (module -> its source). A module of a
    subpackage (``journal.book``) stands in its package's layer; the modules of one
    package may import each other (never a ``_`` name)."""
    found = []
    known = set(sources)
    for module, source in sorted(sources.items()):
        unit = module.split(".")[0]
        if unit not in layers:
            found.append(f"{module}: in no layer of docs/ARCHITECTURE.md")
            continue
        for line, imported, name in imports(source, module, known):
            if imported == module:
                continue
            where = f"{module.replace('.', '/')}.py:{line}"
            if name.startswith("_"):
                found.append(f"{where}: imports the private name {name} from {imported}")
            other = imported.split(".")[0]
            if other == unit:
                continue
            if other not in layers:
                found.append(f"{where}: imports {imported}, in no layer")
            elif layers[other] >= layers[unit]:
                word = "its own" if layers[other] == layers[unit] else "a higher"
                found.append(f"{where}: imports {imported}, of {word} layer "
                             f"({layers[other]} >= {layers[unit]})")
    return found


def package_sources() -> dict[str, str]:
    """Module -> source, for every file of the package (``journal`` for
    ``journal/__init__.py``, ``journal.book`` for ``journal/book.py``)."""
    found = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE).with_suffix("").parts
        if len(parts) > 1 and parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts)] = path.read_text(encoding="utf-8")
    return found


def test_every_import_in_operations_goes_down_a_layer() -> None:
    layers = read_layers(DOC.read_text(encoding="utf-8"))
    assert offences(package_sources(), layers) == []


def test_the_layer_table_names_only_modules_that_exist() -> None:
    layers = read_layers(DOC.read_text(encoding="utf-8"))
    assert sorted(set(layers) - {m.split(".")[0] for m in package_sources()}) == []


def test_a_planted_offence_is_found() -> None:
    layers = read_layers(DOC.read_text(encoding="utf-8"))
    sources = package_sources()
    # A chapter importing another chapter of its layer, lazily; the bottom importing a
    # chapter; a private name taken from another module; a module in no layer.
    sources["legends"] += ("\n\ndef planted():\n"
                           "    from companion.operations.society import gain_lore\n")
    sources["state"] += "\nfrom companion.operations import day\n"
    sources["effects"] += "\nfrom companion.operations.core import _count\n"
    sources["planted_module"] = "from companion.operations.core import Campaign\n"
    # Inside a subpackage: a private name of a sibling; the registry, relatively.
    sources["journal.book"] += "\nfrom .searching import _search_events\n"
    sources["journal.valley_pages"] += "\nfrom .. import procedures\n"
    found = offences(sources, layers)
    assert any(f.startswith("legends.py:") and "imports society, of its own layer" in f
               for f in found), found
    assert any(f.startswith("state.py:") and "imports day, of a higher layer" in f
               for f in found), found
    assert any(f.startswith("effects.py:") and "private name _count" in f
               for f in found), found
    assert "planted_module: in no layer of docs/ARCHITECTURE.md" in found
    assert any(f.startswith("journal/book.py:") and "private name _search_events from "
               "journal.searching" in f for f in found), found
    assert any(f.startswith("journal/valley_pages.py:") and "imports procedures, of a "
               "higher layer" in f for f in found), found


def test_type_checking_imports_are_left_out() -> None:
    source = ("from typing import TYPE_CHECKING\n"
              "if TYPE_CHECKING:\n"
              "    from companion.operations.core import Campaign\n")
    assert list(imports(source, "campaign_packs", {"campaign_packs", "core"})) == []


def test_the_modules_of_a_chapter_package_import_each_other_without_a_circle() -> None:
    sources = package_sources()
    known = set(sources)
    graph = {module: {imported for _, imported, _ in imports(source, module, known)
                      if imported != module and imported.split(".")[0] == module.split(".")[0]}
             for module, source in sources.items()}
    done: set[str] = set()

    def visit(module: str, path: tuple[str, ...]) -> None:
        assert module not in path, f"import circle: {' -> '.join((*path, module))}"
        if module in done:
            return
        for imported in graph.get(module, ()):
            visit(imported, (*path, module))
        done.add(module)

    for module in graph:
        visit(module, ())
