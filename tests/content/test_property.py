"""Random YAML documents never make the loader raise anything but ContentError."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path
from typing import Any

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.content import ContentError, load_content
from companion.content.schema.pack import KINDS
from tests.content.conftest import SAMPLE

FIELD_NAMES = ["id", "name", "text", "do", "amount", "code", "colour", "item", "edges",
               "top", "size", "lines", "type", "omens", "region", "sections", "extends",
               "version", "action_costs", "fish", "number", "rows", "front"]

scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-10**6, 10**6), st.floats(allow_nan=False),
    st.text(max_size=12),
    st.sampled_from(["No", "On", "yes", "0410", "1410", "1:20", "2024-01-01", "~", "red",
                     "red diamond 1", "+2 bonus", "stone-knife", "sample", ".inf"]),
)
keys = st.one_of(st.sampled_from(list(KINDS) + FIELD_NAMES), st.text(max_size=8),
                 st.integers(0, 5))
documents = st.recursive(
    scalars,
    lambda children: st.one_of(
        st.lists(children, max_size=4),
        st.dictionaries(keys, children, max_size=4),
    ),
    max_leaves=25,
)
# Documents shaped like component files: kinds mapping to lists of entry-like mappings,
# so the random values reach the entry validators and the cross-checks.
component_files = st.dictionaries(
    st.sampled_from(KINDS),
    st.lists(st.dictionaries(st.sampled_from(FIELD_NAMES), documents, max_size=5), max_size=3),
    max_size=3,
)
# Either a structured document dumped as YAML, or raw text that may not be YAML at all.
texts = st.one_of(
    documents.map(lambda doc: yaml.safe_dump(doc, allow_unicode=True)),
    component_files.map(lambda doc: yaml.safe_dump(doc, allow_unicode=True)),
    st.text(alphabet=st.sampled_from(list("ab:-[]{}&*!|>'\"#\n\t 01%@`,?")), max_size=60),
)
targets = st.sampled_from(["extra.yaml", "rules.yaml", "pack.yaml", "items.yaml"])


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(target=targets, text=texts)
def test_only_content_error_escapes(target: str, text: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        pack = Path(tmp) / "sample"
        shutil.copytree(SAMPLE, pack)
        (pack / target).write_text(text, encoding="utf-8")
        try:
            content: Any = load_content("sample", extra_dirs=[pack])
        except ContentError as exc:
            assert exc.issues
            assert all(str(issue) for issue in exc.issues)
        else:
            assert content.rules is not None
