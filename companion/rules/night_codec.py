"""A JSON-safe codec for the rules' frozen dataclasses (the Night's saved state).

:func:`encode` turns a dataclass (a :class:`~companion.rules.game.Game`, a character, a
bag token ...) into plain lists, dicts, strings and numbers; :func:`decode` rebuilds it
from its type hints. Mappings become lists of ``[key, value]`` pairs (their keys need not
be strings), sets become sorted lists, enums their values, ``NewType`` ids their strings.

>>> from companion.rules.resources import BagToken
>>> encode(BagToken.perishable("fish"))
{'kind': 'perishable_food', 'name': 'fish', 'side': 'fresh', 'large': False}
>>> decode(BagToken, encode(BagToken.perishable("fish"))) == BagToken.perishable("fish")
True
"""

from __future__ import annotations

import json
import types
from collections.abc import Mapping
from dataclasses import fields, is_dataclass
from enum import Enum
from functools import cache
from typing import Any, Union, get_args, get_origin, get_type_hints

_SCALARS = (bool, int, str, float)


def encode(value: Any) -> Any:
    """``value`` as JSON-safe data (see the module docstring)."""
    if isinstance(value, Enum):
        return value.value
    if value is None or isinstance(value, _SCALARS):
        return value
    if is_dataclass(value) and not isinstance(value, type):
        return {f.name: encode(getattr(value, f.name)) for f in fields(value) if f.init}
    if isinstance(value, Mapping):
        return [[encode(k), encode(v)] for k, v in value.items()]
    if isinstance(value, tuple | list):
        return [encode(v) for v in value]
    if isinstance(value, set | frozenset):
        return sorted((encode(v) for v in value), key=lambda v: json.dumps(v, sort_keys=True))
    raise TypeError(f"cannot save a {type(value).__name__} in the Night's state")


def decode(tp: Any, data: Any) -> Any:
    """Rebuild a value of type ``tp`` from :func:`encode`'s output."""
    if tp is Any:
        return data
    supertype = getattr(tp, "__supertype__", None)
    if supertype is not None:  # a NewType id
        return decode(supertype, data)
    origin, args = get_origin(tp), get_args(tp)
    if origin is Union or origin is types.UnionType:
        if data is None and type(None) in args:
            return None
        options = [a for a in args if a is not type(None)]
        if len(options) != 1:
            raise TypeError(f"cannot read a value of type {tp}")
        return decode(options[0], data)
    if isinstance(tp, type) and issubclass(tp, Enum):
        return tp(data)
    if tp in _SCALARS:
        if not isinstance(data, tp):
            raise TypeError(f"expected {tp.__name__}, got {data!r}")
        return data
    if isinstance(tp, type) and is_dataclass(tp):
        hints = _hints(tp)
        kwargs = {
            f.name: decode(hints[f.name], data[f.name])
            for f in fields(tp)
            if f.init and f.name in data
        }
        return tp(**kwargs)
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(decode(args[0], v) for v in data)
        return tuple(decode(a, v) for a, v in zip(args, data, strict=True))
    if origin in (frozenset, set):
        return frozenset(decode(args[0], v) for v in data)
    if origin in (Mapping, dict):
        return {decode(args[0], k): decode(args[1], v) for k, v in data}
    raise TypeError(f"cannot read a value of type {tp}")


@cache
def _hints(tp: type) -> dict[str, Any]:
    return get_type_hints(tp)
