"""Reading pack YAML: the C loader where present, YAML 1.2-style scalars, no duplicate
keys, and a way back from a field path to the line it came from.

YAML 1.1 (PyYAML's default) turns ``No``, ``On`` and ``yes`` into booleans, ``0410``
into the octal number 264, ``1:20`` into 80 and ``2024-01-01`` into a date. A card
named "No" must stay a string and a crafting code "0410" must reach the "cannot begin
with 0" check, so only ``true``/``false`` are booleans and only plain decimal numbers
are numbers here; everything else stays a string.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import yaml

_DROPPED = {
    "tag:yaml.org,2002:bool",
    "tag:yaml.org,2002:int",
    "tag:yaml.org,2002:float",
    "tag:yaml.org,2002:timestamp",
}


@functools.cache
def _pack_loader() -> type[Any]:
    """The loader class, made on first use: importing PyYAML costs start-up time that a
    campaign whose packs load from the cache (``companion.content.cache``) never needs."""
    import yaml

    base: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

    class PackLoader(base):  # type: ignore[misc, valid-type]
        """Safe loader with YAML 1.2-style implicit types and duplicate-key detection."""

        yaml_implicit_resolvers: dict[Any, list[tuple[str, re.Pattern[str]]]] = {
            first: [(tag, rx) for tag, rx in resolvers if tag not in _DROPPED]
            for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
        }

        def construct_object(self, node: yaml.Node, deep: bool = False) -> Any:
            """Construct one node; a value its tag cannot hold (``!!bool maybe``,
            ``!!timestamp nope``) is a YAML error at that node's line, like any other."""
            try:
                return super().construct_object(node, deep=deep)
            except yaml.YAMLError:
                raise
            except (KeyError, AttributeError, ValueError, TypeError, OverflowError) as exc:
                raise yaml.constructor.ConstructorError(
                    None, None, f"{node.tag.rsplit(':', 1)[-1]} value {node.value!r:.40} "
                    f"cannot be read ({type(exc).__name__})", node.start_mark,
                ) from None

        def construct_mapping(self, node: yaml.MappingNode,
                              deep: bool = False) -> dict[Any, Any]:
            # Fast path first: most mappings have distinct keys (one set() per mapping).
            keys = [k.value for k, _v in node.value if type(k) is yaml.ScalarNode]
            if len(set(keys)) != len(keys):
                seen: dict[Any, yaml.Node] = {}
                for key_node, _value_node in node.value:
                    if type(key_node) is not yaml.ScalarNode or \
                            key_node.tag.endswith(":merge"):
                        continue
                    if key_node.value in seen:
                        raise _twice(node, key_node, seen[key_node.value])
                    seen[key_node.value] = key_node
            else:
                self._check_spelled_twice(node)
            return super().construct_mapping(node, deep=deep)  # type: ignore[no-any-return]

        def _check_spelled_twice(self, node: yaml.MappingNode) -> None:
            """Keys written differently that are one key once read: ``1`` and ``+1``,
            ``2`` and ``2.0``, ``1`` and ``true``. Only non-text keys can do that."""
            typed = [k for k, _v in node.value
                     if type(k) is yaml.ScalarNode and not k.tag.endswith((":str", ":merge"))]
            if len(typed) < 2:
                return
            seen: dict[Any, yaml.Node] = {}
            for key_node in typed:
                value = self.construct_object(key_node)
                try:
                    first = seen.get(value)
                except TypeError:
                    continue
                if first is not None:
                    raise _twice(node, key_node, first)
                seen[value] = key_node

    PackLoader.add_implicit_resolver(
        "tag:yaml.org,2002:bool", re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"),
        list("tTfF"),
    )
    PackLoader.add_implicit_resolver(
        "tag:yaml.org,2002:int", re.compile(r"^[-+]?(?:0|[1-9][0-9]*)$"),
        list("-+0123456789"),
    )
    PackLoader.add_implicit_resolver(
        "tag:yaml.org,2002:float",
        re.compile(r"^[-+]?(?:[0-9]+\.[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?$"),
        list("-+0123456789."),
    )
    return PackLoader


def _twice(node: yaml.Node, key_node: yaml.Node, first: yaml.Node) -> yaml.YAMLError:
    import yaml

    spelled = "" if first.value == key_node.value else f" (written {first.value!r} there)"
    return yaml.constructor.ConstructorError(
        "while reading a mapping", node.start_mark,
        f"the key {key_node.value!r} appears twice (first on line "
        f"{first.start_mark.line + 1}{spelled})", key_node.start_mark,
    )


def __getattr__(name: str) -> Any:
    if name == "PackLoader":
        return _pack_loader()
    if name == "USING_C_LOADER":  # whether the C (libyaml) parser is in use
        import yaml

        return _pack_loader().__mro__[1] is not yaml.SafeLoader
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def parse(text: str) -> tuple[Any, yaml.Node | None]:
    """The document in ``text`` and its node tree (``(None, None)`` if empty).

    Raises ``yaml.YAMLError`` (with marks) for bad YAML, including a duplicate key.
    """
    loader = _pack_loader()(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None, None
        return loader.construct_document(node), node
    finally:
        loader.dispose()


def load(text: str) -> Any:
    """The document in ``text`` (None if empty), without keeping its node tree.

    The fast path: holding every file's node tree alive while the rest is loaded costs
    more than composing one file again when an error needs its line numbers
    (``compose``).
    """
    loader = _pack_loader()(text)
    try:
        return loader.get_single_data()
    finally:
        loader.dispose()


def compose(text: str) -> yaml.Node | None:
    """The node tree of ``text`` (which ``load`` already accepted), for error lines."""
    loader = _pack_loader()(text)
    try:
        return loader.get_single_node()  # type: ignore[no-any-return]
    finally:
        loader.dispose()


def locate(node: yaml.Node | None, loc: Sequence[str | int]) -> tuple[int | None, list[str]]:
    """Follow a field path (a pydantic error location) down the node tree.

    Returns the 1-based line of the deepest node reached and the printable path:
    the parts found, plus a last part that was not (a missing field). Parts that name
    no node (a union member's tag in pydantic's locations) are skipped.
    """
    line = None if node is None else node.start_mark.line + 1
    shown: list[str] = []
    for index, part in enumerate(loc):
        child = _child(node, part) if node is not None else None
        if child is None:
            if index == len(loc) - 1:
                shown.append(str(part))
            continue
        node = child
        line = node.start_mark.line + 1
        shown.append(str(part))
    return line, shown


def _child(node: yaml.Node, part: str | int) -> yaml.Node | None:
    import yaml

    if isinstance(node, yaml.MappingNode):
        for key_node, value_node in node.value:
            if isinstance(key_node, yaml.ScalarNode) and key_node.value == str(part):
                return value_node  # type: ignore[no-any-return]
        return None
    if isinstance(node, yaml.SequenceNode) and isinstance(part, int):
        items = node.value
        return items[part] if 0 <= part < len(items) else None
    return None
