"""A validated pack chain kept as JSON, so a campaign opens without reading YAML or
building the schemas' validators.

Opening a campaign loads its content packs. Parsing their YAML, building pydantic's
validators and validating every entry cost more than everything else a campaign needs
before it is on screen, and give the same result every time the packs are unchanged.
So once a chain has loaded (and passed every check), its validated entries are written
as JSON in the user's data folder (``cache/content-<key>.json``), under a key hashed
from the bytes of every pack file that could take part, the program's version and the
content code; the next load with the same key rebuilds the entries from that JSON
without validating them again.

JSON cannot run code (no pickle). The file is written only if rebuilding the content
from it gives back exactly what was validated (same types, same values, same fields
set), so a shape the rebuild does not know only means no cache. A missing, stale or
unreadable cache file is ignored: the packs are loaded as usual.

The key and the file (:mod:`companion.content.cache_file`) need no pydantic: the
start-up's first view reads the names it shows from the file before the schemas load.
"""

from __future__ import annotations

import contextlib
import dataclasses
import enum
import json
import os
import types
import typing
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from pydantic import BaseModel
from pydantic.fields import FieldInfo

from companion.content.cache_file import FORMAT, cache_file, read
from companion.content.schema.base import Ref

KEEP = 8
"""How many cache files are kept (one per pack chain in use)."""

Convert = Callable[[Any], Any]


class _Unsupported(Exception):
    """A type the rebuild does not handle: such an entry is validated instead."""


# --- rebuilding models without validating them ----------------------------------------


def _passthrough(value: Any) -> Any:
    return value


_PLAIN: tuple[Any, ...] = (str, int, float, bool, type(None), Any)
_CONSTRAINTS_ONLY = ("annotated_types", "pydantic.types", "pydantic.fields",
                     "pydantic._internal._fields")
"""Modules whose annotation metadata only constrains a value (checked when it was
validated) and never changes it."""


def _converter(annotation: Any, discriminator: str | None = None) -> Convert:
    """A function turning the JSON form of a validated ``annotation`` value back into
    that value; raises :class:`_Unsupported` for a type it cannot rebuild exactly."""
    origin = typing.get_origin(annotation)
    args = typing.get_args(annotation)
    if origin is typing.Annotated:
        for meta in args[1:]:
            module = type(meta).__module__
            if isinstance(meta, FieldInfo):
                if meta.discriminator is not None:
                    discriminator = str(meta.discriminator)
                continue
            if not module.startswith(_CONSTRAINTS_ONLY) or "Validator" in type(meta).__name__:
                raise _Unsupported(repr(meta))
        return _converter(args[0], discriminator)
    if annotation in _PLAIN or origin is typing.Literal:
        return _passthrough
    if origin in (typing.Union, types.UnionType):
        return _union(args, discriminator)
    if origin in (tuple, list, frozenset, set):
        return _sequence(origin, args)
    if origin in (dict, Mapping):
        key, value = _key_converter(args[0]), _converter(args[1])
        return lambda data: {key(k): value(v) for k, v in data.items()}
    if isinstance(annotation, type):
        if issubclass(annotation, BaseModel):
            return lambda data: build(annotation, data)
        if issubclass(annotation, Ref) or issubclass(annotation, enum.Enum):
            return annotation
        if annotation is int:
            return int
    raise _Unsupported(repr(annotation))


def _key_converter(annotation: Any) -> Convert:
    """Mapping keys are always text in JSON: back to the key type."""
    if typing.get_origin(annotation) is typing.Annotated:
        return _key_converter(typing.get_args(annotation)[0])
    if annotation is str:
        return _passthrough
    if annotation is int:
        return int
    if typing.get_origin(annotation) is typing.Literal:
        kinds = {type(v) for v in typing.get_args(annotation)}
        if kinds == {str}:
            return _passthrough
        if kinds == {int}:
            return int
    if isinstance(annotation, type) and issubclass(annotation, Ref | enum.Enum):
        return annotation
    raise _Unsupported(f"mapping key {annotation!r}")


def _sequence(origin: Any, args: tuple[Any, ...]) -> Convert:
    if origin is tuple and not (len(args) == 2 and args[1] is Ellipsis):
        items = [_converter(arg) for arg in args]
        return lambda data: tuple(item(v) for item, v in zip(items, data, strict=True))
    item = _converter(args[0]) if args else _passthrough
    return lambda data: origin(item(v) for v in data)


def _union(args: tuple[Any, ...], discriminator: str | None) -> Convert:
    arms = [a for a in args if a is not type(None)]
    optional = len(arms) < len(args)
    if len(arms) == 1:
        only = _converter(arms[0])
        return (lambda data: None if data is None else only(data)) if optional else only
    if all(a in _PLAIN or typing.get_origin(a) is typing.Literal for a in arms):
        return _passthrough  # JSON keeps str, int, float, bool and null apart
    if discriminator is None or not all(isinstance(a, type) and issubclass(a, BaseModel)
                                        for a in arms):
        raise _Unsupported(repr(args))
    by_tag: dict[Any, type[BaseModel]] = {}
    for arm in arms:
        tags = typing.get_args(arm.model_fields[discriminator].annotation)
        for tag in tags:
            by_tag[tag] = arm

    def pick(data: Any) -> Any:
        if data is None and optional:
            return None
        return build(by_tag[data[discriminator]], data)

    return pick


_PLANS: dict[type[BaseModel], dict[str, Convert] | None] = {}
"""Per model: how to rebuild each field (None: the model is validated instead)."""


def _plan(cls: type[BaseModel]) -> dict[str, Convert] | None:
    if cls in _PLANS:
        return _PLANS[cls]
    plan: dict[str, Convert] = {}
    _PLANS[cls] = plan  # before the fields: a model may contain itself (effects)
    try:
        for name, info in cls.model_fields.items():
            metadata = [m for m in info.metadata if m is not None]
            annotation = typing.Annotated[(info.annotation, *metadata)] if metadata \
                else info.annotation
            plan[name] = _converter(annotation, typing.cast(Any, info.discriminator))
    except _Unsupported:
        _PLANS[cls] = None
        return None
    return plan


def build(cls: type[BaseModel], data: Mapping[str, Any]) -> Any:
    """The model ``cls`` with the fields in ``data`` (the JSON form of a validated model,
    its unset fields left out), rebuilt without validating; a model with a field type
    the rebuild does not know is validated from ``data`` instead."""
    plan = _plan(cls)
    if plan is None:
        return cls.model_validate(data)
    values = {name: plan[name](value) for name, value in data.items()}
    return cls.model_construct(_fields_set=set(values), **values)


def dump(model: BaseModel) -> dict[str, Any]:
    """The JSON form :func:`build` reads back: the fields that were set."""
    return model.model_dump(mode="json", exclude_unset=True)


# --- comparing exactly ----------------------------------------------------------------


def same(a: Any, b: Any) -> bool:
    """Whether ``a`` and ``b`` are equal with the same types all the way down (an enum
    member is not its text, a tuple is not a list), models with the same fields set."""
    if type(a) is not type(b):
        return False
    if isinstance(a, BaseModel):
        return bool(a.model_fields_set == b.model_fields_set) and \
            same(dict(a.__dict__), dict(b.__dict__))
    if isinstance(a, Mapping):
        return list(a) == list(b) and all(same(k, k2) for k, k2 in zip(a, b, strict=True)) \
            and all(same(a[k], b[k]) for k in a)
    if isinstance(a, tuple | list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, set | frozenset):
        return bool(a == b)
    if dataclasses.is_dataclass(a):
        return all(same(getattr(a, f.name), getattr(b, f.name))
                   for f in dataclasses.fields(a))
    slots = getattr(type(a), "__slots__", None)
    if slots:
        return all(same(getattr(a, s), getattr(b, s)) for s in slots)
    if hasattr(a, "__dict__") and not isinstance(a, enum.Enum | str | int | float):
        return same(vars(a), vars(b))
    return bool(a == b)


# --- this process's loads ---------------------------------------------------------------

_LOADED: dict[str, Any] = {}
"""Content already loaded in this process, by key (``Content`` is immutable, so a
second campaign on the same packs shares it)."""


def recall(key: str) -> Any:
    """The content of ``key`` loaded earlier in this process, or None."""
    return _LOADED.get(key)


_ORIGINS: dict[str, tuple[str, tuple[str, ...]]] = {}
"""The pack id and pack roots each key of :data:`_LOADED` was loaded from."""


def remember(key: str, content: Any,
             origin: tuple[str, Sequence[Path]] | None = None) -> None:
    """Keep ``content`` for :func:`recall` (the few most recent keys only), and the
    ``(pack id, roots)`` it was loaded from for :func:`origin_of`."""
    _LOADED.pop(key, None)
    _LOADED[key] = content
    if origin is not None:
        _ORIGINS[key] = (origin[0], tuple(str(root) for root in origin[1]))
    while len(_LOADED) > KEEP:
        _ORIGINS.pop(next(iter(_LOADED)), None)
        _LOADED.pop(next(iter(_LOADED)))


def origin_of(content: Any) -> tuple[str, str, tuple[str, ...]] | None:
    """``(key, pack id, roots)`` of ``content`` when this very object was loaded through
    the cache in this process (the start-up's first view remembers which cached chain a
    campaign plays with), else None."""
    for key, loaded in _LOADED.items():
        if loaded is content and key in _ORIGINS:
            return (key, *_ORIGINS[key])
    return None


# --- reading and writing the file -----------------------------------------------------


def write(key: str, data: dict[str, Any]) -> None:
    """Write the cache of ``key`` (whole or not at all), and drop the oldest others.
    A folder that cannot be written only means no cache."""
    target = cache_file(key)
    with contextlib.suppress(OSError):
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
        try:
            tmp.write_text(json.dumps({"format": FORMAT, "key": key, **data},
                                      separators=(",", ":")), encoding="utf-8")
            os.replace(tmp, target)
        finally:
            with contextlib.suppress(FileNotFoundError):
                tmp.unlink()
        others = sorted(target.parent.glob("content-*.json"),
                        key=lambda p: p.stat().st_mtime, reverse=True)
        for old in others[KEEP:]:
            old.unlink()


# --- a whole pack chain -----------------------------------------------------------------


def to_json(rules: BaseModel, chain: Sequence[Any],
            entries: Mapping[str, Mapping[Any, Any]]) -> dict[str, Any]:
    """The JSON form of a loaded chain: its rules, packs and entries (with their pack)."""
    return {
        "rules": dump(rules),
        "chain": [[dump(pack.manifest), str(pack.folder)] for pack in chain],
        "entries": {kind: [[entry.doc.pack_id, dump(entry.model)] for entry in found.values()]
                    for kind, found in entries.items()},
    }


def from_json(data: Mapping[str, Any]) -> Any:
    """The ``Content`` of a chain from :func:`to_json`'s form, rebuilt without validating."""
    from companion.content.chain import Entry, PackDir, PackDoc, build_content, entry_key
    from companion.content.schema.pack import KIND_MODELS, PackManifest
    from companion.content.schema.rules import RulesConstants

    rules = build(RulesConstants, data["rules"])
    chain = [PackDir(build(PackManifest, manifest), Path(folder))
             for manifest, folder in data["chain"]]
    docs = {pack.manifest.id: PackDoc(pack.folder, None, "", pack_id=pack.manifest.id,
                                   pack_dir=pack.folder) for pack in chain}
    entries: dict[str, dict[Any, Any]] = {}
    for kind, model in KIND_MODELS.items():
        found: dict[Any, Any] = {}
        for pack_id, item in data["entries"].get(kind, ()):
            entry = build(model, item)
            found[entry_key(kind, entry)] = Entry(entry, docs[pack_id], ())
        entries[kind] = found
    return build_content(rules, chain, entries)


def load(key: str) -> Any:
    """The cached ``Content`` of ``key``, or None (no usable cache)."""
    data = read(key)
    if data is None:
        return None
    try:
        return from_json(data)
    except Exception:  # noqa: BLE001 (a cache that does not fit is simply not used)
        return None


def save(key: str, rules: BaseModel, chain: Sequence[Any],
         entries: Mapping[str, Mapping[Any, Any]], content: Any) -> bool:
    """Cache a chain just loaded (and checked), if its JSON form gives back exactly
    ``content``; returns whether it did."""
    try:
        data = json.loads(json.dumps(to_json(rules, chain, entries)))
        if not same(from_json(data), content):
            return False
    except Exception:  # noqa: BLE001 (a shape the rebuild does not know: no cache)
        return False
    write(key, data)
    return True
