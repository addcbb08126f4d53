"""One row of an export at a time: written from the database, checked and read back.

Everything here follows the tables' own metadata (their columns, types and models), so a
column a migration adds travels without a word here.

- :func:`row_encoder`: a database row (as SQLite hands it out) as the export's JSON list,
  the values encoded as in the journal's row images (``history.encode_value``);
- :func:`row_reader`: an export's row checked against its table (plain JSON a campaign
  can hold, its model's types, the shape of every journal change) and turned into the
  parameters of an ``INSERT``.

Checking a row uses a plain pydantic model built from the table's model (same fields,
types, constraints and defaults): validating a table model itself builds an ORM object
per row, ten times slower, which a year of history cannot afford.
"""

from __future__ import annotations

import base64
import functools
import re
from collections.abc import Callable
from datetime import datetime
from json import encoder as json_encoder
from typing import Annotated, Any, NotRequired, Required, cast

from pydantic import TypeAdapter, ValidationError
from sqlalchemy import JSON, Table
from sqlalchemy.engine import Dialect
from sqlmodel import SQLModel
from typing_extensions import TypedDict  # pydantic reads typing's only from Python 3.12

from companion.store.history import decode_value, game_tables, python_type
from companion.store.later_tables import ALL_TABLES
from companion.store.table_base import table_of

EXPORT_TABLES: dict[str, Table] = {table_of(model).name: table_of(model) for model in ALL_TABLES}
MODELS: dict[str, type[SQLModel]] = {table_of(model).name: model for model in ALL_TABLES}

MAX_DEPTH = 64
"""Deepest nesting of lists and maps an import may hold (the game's own is 4 or 5)."""
INT64 = (-(1 << 63), (1 << 63) - 1)
"""SQLite's integers are 64-bit."""
_DIGITS_AS_ZEROS = bytes(48 if 48 <= b <= 57 else 32 for b in range(256))
"""Every digit as "0", every other byte as a space (``bytes.translate``)."""
_LONG_NUMBER = b"0" * 19
"""19 digits in a row: perhaps an integer beyond 64 bits (which have at most 19)."""
_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F]")
"""An escaped surrogate (``\\udc80``): perhaps a lone one."""
CHANGE_KEYS = ("table", "id", "before", "after")
"""The keys of one journal change (``history.Change``), no more, no fewer."""
_CHANGE_KEY_SET = frozenset(CHANGE_KEYS)


class ChangeProblem(ValueError):
    """A journal change that undo or redo could not apply, in words."""


# --- export --------------------------------------------------------------------------------


def _encoder(column_type: Any, dialect: Dialect) -> Callable[[Any], Any]:
    """One column's value as SQLite gives it -> as the export writes it."""
    read = column_type.dialect_impl(dialect).result_processor(dialect, None)
    kind = python_type(column_type)

    def encode(value: Any) -> Any:
        if value is None:
            return None
        if read is not None:
            value = read(value)
        if kind is datetime:
            return value.isoformat() if isinstance(value, datetime) else str(value)
        if kind is bytes:
            return base64.b64encode(bytes(value)).decode("ascii")
        return value

    return encode


def row_encoder(table: Table, dialect: Dialect) -> Callable[[tuple[Any, ...]], list[Any]]:
    """A function from a row of ``SELECT <every column>`` to the export's row list."""
    encoders = [_encoder(column.type, dialect) for column in table.columns]
    return lambda row: [encode(value) for encode, value in zip(encoders, row, strict=True)]


# --- import: plain JSON --------------------------------------------------------------------


def check_plain(value: Any, depth: int = 0) -> None:
    """Refuse (ValueError) what JSON can hold but a campaign cannot: nesting deeper
    than :data:`MAX_DEPTH`, integers beyond 64 bits, text that is not valid Unicode
    (lone surrogates)."""
    if depth > MAX_DEPTH:
        raise ValueError(f"lists or maps nested more than {MAX_DEPTH} deep")
    if isinstance(value, bool) or value is None or isinstance(value, float):
        return
    if isinstance(value, int):
        if not INT64[0] <= value <= INT64[1]:
            raise ValueError("a whole number too large for a campaign (over 64 bits)")
    elif isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            raise ValueError("text that is not valid Unicode (a lone surrogate)") from None
    elif isinstance(value, list):
        for item in value:
            check_plain(item, depth + 1)
    elif isinstance(value, dict):
        for key, item in value.items():
            check_plain(key, depth + 1)
            check_plain(item, depth + 1)


def suspect_chunk(data: bytes) -> bool:
    """Whether a piece of an export's raw text could hold what :func:`check_plain`
    refuses beyond nesting: 19 digits in a row (an integer over 64 bits has more), or
    an escaped surrogate (perhaps a lone one). Looked for in whole chunks of the file,
    at the speed of ``bytes.translate``: a regular expression per row was a tenth of an
    import's time. (A file written with every non-ASCII letter escaped, ``\\u2019``,
    is not flagged for those.)"""
    return _LONG_NUMBER in data.translate(_DIGITS_AS_ZEROS) or (
        b"\\u" in data and _SURROGATE_ESCAPE.search(data) is not None)


def needs_plain_check(text: str, flagged: bool) -> bool:
    """Whether a row whose JSON text is ``text`` could hold what :func:`check_plain`
    refuses, ``flagged`` when the chunk of the file it comes from is a
    :func:`suspect_chunk`. Most rows plainly cannot: they open fewer lists and maps than
    :data:`MAX_DEPTH` (so no deep nesting) and come from a chunk with no long number and
    no escape; only the others are walked value by value."""
    return flagged or text.count("[") + text.count("{") > MAX_DEPTH


# --- import: the tables' types --------------------------------------------------------------


def _field_type(name: str, column: str) -> Any:
    field = MODELS[name].model_fields[column]
    kind: Any = field.annotation
    return Annotated[kind, *field.metadata] if field.metadata else kind


@functools.cache
def _row_type(name: str) -> TypeAdapter[dict[str, Any]]:
    """Table ``name``'s rows as a typed map: each column of its model's type and
    constraints, required where the model has no default. (Validating the table model
    itself builds an ORM object per row, several times slower, which a year of history
    cannot afford; the values are the same.)"""
    fields = {column: (Required if info.is_required() else NotRequired)[_field_type(name, column)]
              for column, info in MODELS[name].model_fields.items()}
    typed = cast(Any, TypedDict)(f"{MODELS[name].__name__}Row", fields)
    return TypeAdapter(typed)


@functools.cache
def _row_tuple(name: str, columns: tuple[str, ...]) -> Any:
    """The validator of table ``name``'s rows as the export lists them (``columns``, in
    that order): each value of its column's type; a list in, the values out as the
    model coerces them, without building a map per row."""
    kinds: Any = tuple(_field_type(name, column) for column in columns)
    return TypeAdapter(tuple[kinds]).validator


@functools.cache
def _partial_type(name: str) -> Any:
    """The validator of an update's image of table ``name``: any of its columns, each
    of its model's type (the image holds the columns that changed)."""
    fields = {column: NotRequired[_field_type(name, column)]
              for column in MODELS[name].model_fields}
    typed = cast(Any, TypedDict)(f"{MODELS[name].__name__}Change", fields)
    return TypeAdapter(typed).validator


@functools.cache
def _encoded_columns(name: str) -> tuple[tuple[str, Any], ...]:
    """The columns of table ``name`` whose images encode their values (times, bytes),
    with their SQL types."""
    return tuple((column.name, column.type) for column in EXPORT_TABLES[name].columns
                 if python_type(column.type) is not None)


@functools.cache
def _columns(name: str) -> frozenset[str]:
    return frozenset(column.name for column in EXPORT_TABLES[name].columns)


def decode_image(name: str, image: dict[str, Any]) -> dict[str, Any]:
    """An image (or an export's row by column) as column values (``history.decode_row``)."""
    values = dict(image)
    for column, kind in _encoded_columns(name):
        if values.get(column) is not None:
            values[column] = decode_value(kind, values[column])
    return values


def validated_row(name: str, values: dict[str, Any]) -> dict[str, Any]:
    """A whole row's values checked against table ``name``'s model; the values to
    insert (as the model coerces them), column by column as given. Raises
    ``ValidationError``."""
    checked = _row_type(name).validate_python(values)
    return {column: checked[column] for column in values}


def _validated_columns(name: str, image: dict[str, Any]) -> None:
    """An update's image holds only ``id`` and the columns it changed: each present
    column is checked against its type; the absent ones are not missing."""
    if any(column in image for column, _ in _encoded_columns(name)):
        image = decode_image(name, image)
    _partial_type(name).validate_python(image)  # ValidationError: check_changes says it


# --- import: journal changes (issue 35 item 2) -----------------------------------------------


def _image_problem(change: dict[str, Any], side: str) -> str | None:
    """What is wrong with one side (``before``/``after``) of a change, or None."""
    image = change[side]
    if image is None:
        return None
    if not isinstance(image, dict):
        return f'its "{side}" is not a row'
    unknown = sorted(str(k) for k in image.keys() - _columns(change["table"]))
    if unknown:
        return f'its "{side}" names unknown columns ({", ".join(unknown)})'
    if "id" in image and image["id"] != change["id"]:
        return f'its "{side}" is of row {image["id"]!r}, not of row {change["id"]}'
    return None


def _where(change: dict[str, Any]) -> str:
    return f"its change to {change['table']} row {change.get('id')!r}"


def _shape_problem(change: dict[str, Any]) -> str:
    """What is wrong with the keys of a change, in words."""
    missing = [f'"{key}"' for key in CHANGE_KEYS if key not in change]
    if missing:
        return (f"{_where(change)} lacks {' and '.join(missing)}, so it could never be "
                "undone or redone")
    extra = sorted(str(key) for key in change if key not in CHANGE_KEYS)
    if extra:
        return f"{_where(change)} has keys no change has ({', '.join(extra)})"
    return f"{_where(change)}: a change has no row id"




def check_change(change: Any) -> None:
    """Refuse (:class:`ChangeProblem`) a journal change that undo or redo could not apply:
    its keys (``table``, ``id``, ``before``, ``after``, each present), a known table, a
    row number, images of that table's columns (and of that row) and types, and a kind
    of change: an inserted row (``before`` null, ``after`` the whole row), a deleted one
    (``before`` the whole row, ``after`` null) or an update (both, of the same columns)."""
    if not isinstance(change, dict) or change.get("table") not in game_tables():
        raise ChangeProblem(f"a change names no known table ({change!r:.60})")
    if change.keys() != _CHANGE_KEY_SET or type(change["id"]) is not int:
        raise ChangeProblem(_shape_problem(change))
    name: str = change["table"]
    before: Any = change["before"]
    after: Any = change["after"]
    if before is None and after is None:
        raise ChangeProblem(f'{_where(change)} has neither "before" nor "after": it changes '
                            "nothing that undo could put back")
    columns, row_id = _columns(name), change["id"]
    if not ((before is None or (isinstance(before, dict) and before.keys() <= columns
                                and before.get("id", row_id) == row_id))
            and (after is None or (isinstance(after, dict) and after.keys() <= columns
                                   and after.get("id", row_id) == row_id))):
        problem = _image_problem(change, "before") or _image_problem(change, "after")
        raise ChangeProblem(f"{_where(change)}: {problem}")
    if before is not None and after is not None:
        if before.keys() != after.keys():
            raise ChangeProblem(f'{_where(change)}: its "before" and "after" hold different '
                                "columns")
        _validated_columns(name, before)
        _validated_columns(name, after)
        return
    whole = cast(dict[str, Any], before if after is None else after)
    validated_row(name, decode_image(name, whole))


def check_changes(changes: Any) -> None:
    """Every change of one journal event (:func:`check_change`)."""
    if not isinstance(changes, list):
        raise ChangeProblem("its changes are not a list")
    for change in changes:
        try:
            check_change(change)
        except ValidationError as exc:  # a whole row's image of the wrong type
            first = exc.errors(include_url=False)[0]
            where = ".".join(str(part) for part in first["loc"])
            raise ChangeProblem(f"{_where(change)}: {where}: {first['msg']}") from None


# --- import: a whole row -----------------------------------------------------------------


def _json_text() -> Callable[[Any], str]:
    """``json.dumps`` as SQLAlchemy calls it for a JSON column (the same text), made once:
    the standard library's C encoder called directly, without the circular-reference
    bookkeeping a decoded file cannot need (the JSON columns were half an import's
    conversions)."""
    make = getattr(json_encoder, "c_make_encoder", None)  # absent from the type stubs
    if make is None:  # a Python without the C accelerator
        return json_encoder.JSONEncoder(check_circular=False).encode
    encode = make(None, json_encoder.JSONEncoder().default,
                  json_encoder.encode_basestring_ascii, None, ": ", ", ", False, False, True)
    return lambda value: "".join(encode(value, 0))


def _binder(column_type: Any, dialect: Dialect) -> Callable[[Any], Any] | None:
    """How a value of ``column_type`` goes to SQLite: SQLAlchemy's own conversion (times
    as text, booleans as 0/1), and for JSON its text as SQLAlchemy writes it."""
    if isinstance(column_type, JSON) and not column_type.none_as_null \
            and getattr(dialect, "_json_serializer", None) is None:
        return _JSON_TEXT
    bind: Callable[[Any], Any] | None = column_type.dialect_impl(dialect).bind_processor(
        dialect)
    return bind


_JSON_TEXT = _json_text()



def row_reader(name: str, columns: list[str],
               dialect: Dialect) -> Callable[[list[Any], str, bool], list[Any]]:
    """A function from one export row of table ``name`` (its ``columns``, already
    upgraded to this schema), the row's JSON text and whether its chunk was flagged
    (:func:`needs_plain_check`) to the parameters of an ``INSERT`` of those columns.

    It raises ``ValueError``/``ValidationError`` for a row the table cannot hold, and
    :class:`ChangeProblem` for a journal event whose changes undo could not apply.
    """
    table = EXPORT_TABLES[name]
    binders = [_binder(table.c[column].type, dialect) for column in columns]

    row_type = _row_tuple(name, tuple(columns))
    encoded = [(at, kind) for at, (column, kind) in enumerate(
        (column, dict(_encoded_columns(name)).get(column)) for column in columns)
        if kind is not None]
    bound = [(at, bind) for at, bind in enumerate(binders) if bind is not None]
    changes = columns.index("changes") if name == "journal_event" and "changes" in columns \
        else None

    def read(row: list[Any], text: str, flagged: bool) -> list[Any]:
        if needs_plain_check(text, flagged):
            check_plain(row)
        for at, kind in encoded:
            if row[at] is not None:
                row[at] = decode_value(kind, row[at])
        params = list(row_type.validate_python(row))
        if changes is not None:
            check_changes(params[changes])
        # SQLAlchemy's own conversions (times as text, JSON as text, booleans as 0/1).
        for at, bind in bound:
            params[at] = bind(params[at])
        return params

    return read
