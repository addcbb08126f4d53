"""Hypothesis over imports (issue 19): whatever an export file holds, only the project's
own error types come out, and what is accepted later opens, reads, undoes and exports.

Mutations start from a real export (the v1 fixture, rows in most tables) and change one
or a few things at every level: the header fields, a table's columns, a row's length, a
cell's value (any JSON, huge integers, lone surrogates, deep nesting), or the raw text.
"""

from __future__ import annotations

import contextlib
import copy
import json
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.store import (
    CampaignFile,
    CampaignFileError,
    check_campaign,
    export_campaign,
    import_campaign,
)
from tests.store.conftest import FIXTURES

EXAMPLES = int(os.environ.get("COMPANION_FUZZ_EXAMPLES", "40"))
"""Examples per test (more by hand: COMPANION_FUZZ_EXAMPLES=2000)."""

json_scalars = st.one_of(
    st.none(), st.booleans(), st.integers(), st.integers(min_value=2**62, max_value=2**80),
    st.floats(allow_nan=False), st.text(max_size=8),
    st.sampled_from(["\udc80", "2026-03-01T12:00:00+00:00", "not a time", "sample", "",
                     "aGVsbG8=", "{}", "lots"]),
)
json_values = st.recursive(
    json_scalars,
    lambda children: st.one_of(st.lists(children, max_size=3),
                               st.dictionaries(st.text(max_size=6), children, max_size=3)),
    max_leaves=12,
)


@pytest.fixture(scope="module")
def base_export() -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "rich.stonesaga"
        shutil.copyfile(FIXTURES / "campaign-v1.stonesaga", path)
        with CampaignFile.open(path, backups=False) as cf:
            export_campaign(cf, Path(tmp) / "rich.json")
        document: dict[str, Any] = json.loads((Path(tmp) / "rich.json").read_text())
    return document


def _mutate(doc: dict[str, Any], data: st.DataObject) -> None:
    """One change somewhere in the document (earlier changes may have broken its shape:
    then the change goes to the top level)."""
    tables = doc.get("tables")
    sound = sorted(name for name, section in tables.items()
                   if isinstance(section, dict) and isinstance(section.get("rows"), list)
                   and isinstance(section.get("columns"), list) and section["columns"]
                   ) if isinstance(tables, dict) else []
    kind = data.draw(st.sampled_from(
        ["cell", "cell", "cell", "header", "columns", "row", "table", "change", "change"]
        if sound else ["header"]), label="kind")
    if kind == "header":
        key = data.draw(st.sampled_from(["format", "format_version", "schema_version",
                                         "tables"]), label="key")
        doc[key] = data.draw(json_values, label="header value")
        return
    assert isinstance(tables, dict)
    if kind == "change":
        _mutate_change(tables, data)
        return
    section = tables[data.draw(st.sampled_from(sound), label="table")]
    columns, rows = section["columns"], section["rows"]
    if kind == "cell" and rows and isinstance(rows[0], list) and rows[0]:
        row = rows[data.draw(st.integers(0, len(rows) - 1), label="row")]
        if isinstance(row, list) and row:
            row[data.draw(st.integers(0, len(row) - 1), label="column")] = data.draw(
                json_values, label="value")
    elif kind == "columns":
        index = data.draw(st.integers(0, len(columns) - 1), label="column")
        columns[index] = data.draw(st.one_of(json_values, st.sampled_from(columns)))
    elif kind == "row" and rows:
        row = rows[data.draw(st.integers(0, len(rows) - 1), label="row")]
        if not isinstance(row, list):
            return
        if data.draw(st.booleans(), label="longer"):
            row.append(data.draw(json_values))
        elif row:
            row.pop()
    elif kind == "table":
        tables[data.draw(st.text(max_size=10), label="new table")] = data.draw(json_values)


def _mutate_change(tables: dict[str, Any], data: st.DataObject) -> None:
    """Issue 35 item 2: one journal change loses or gains a key, or one of its sides
    becomes something else (undo must refuse it in words, or the import must)."""
    section = tables.get("journal_event")
    if not isinstance(section, dict) or "changes" not in section.get("columns", []):
        return
    at = section["columns"].index("changes")
    changes = [c for row in section.get("rows", []) if isinstance(row, list) and len(row) > at
               and isinstance(row[at], list) for c in row[at] if isinstance(c, dict)]
    if not changes:
        return
    change = changes[data.draw(st.integers(0, len(changes) - 1), label="change")]
    how = data.draw(st.sampled_from(["drop", "add", "side"]), label="how")
    key = data.draw(st.sampled_from(["table", "id", "before", "after"]), label="key")
    if how == "drop":
        change.pop(key, None)
    elif how == "add":
        change[data.draw(st.text(max_size=6), label="new key")] = data.draw(json_values)
    else:
        change[key] = data.draw(st.one_of(json_values, st.just(None), st.just({})),
                                label="side")


def _use_accepted(dest: Path, out: Path) -> None:
    """What a player does with an imported campaign: every step refuses or works."""
    report = check_campaign(dest)
    assert report.ok, report.problems
    with CampaignFile.open(dest, backups=False) as cf:
        cf.campaign()
        cf.society()
        cf.journal(limit=500)
        for step in (cf.undo, cf.redo, cf.undo):
            with contextlib.suppress(CampaignFileError):  # a refusal is fine; a crash is not
                step()
        export_campaign(cf, out)


@settings(max_examples=EXAMPLES, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_only_store_errors_come_out_of_an_import(
    base_export: dict[str, Any], data: st.DataObject
) -> None:
    doc = copy.deepcopy(base_export)
    for _ in range(data.draw(st.integers(1, 3), label="mutations")):
        _mutate(doc, data)
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "fuzzed.json"
        src.write_text(json.dumps(doc, ensure_ascii=True), encoding="utf-8")
        dest = Path(tmp) / "out" / "imported.stonesaga"
        dest.parent.mkdir()
        try:
            import_campaign(src, dest).close()
        except CampaignFileError:
            assert list(dest.parent.iterdir()) == []  # refused: nothing left behind
            return
        _use_accepted(dest, Path(tmp) / "again.json")


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=st.one_of(
    st.text(alphabet=st.sampled_from(list('{}[]",:0123456789.-eE truefalsn\\\\u')),
            max_size=80),
    st.binary(max_size=60).map(lambda b: b.decode("latin-1")),
))
def test_any_text_is_refused_or_imported(text: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "noise.json"
        src.write_text(text, encoding="utf-8", errors="surrogatepass")
        try:
            import_campaign(src, Path(tmp) / "imported.stonesaga").close()
        except CampaignFileError:
            assert not (Path(tmp) / "imported.stonesaga").exists()
