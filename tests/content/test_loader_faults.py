"""Issue 19, fault 6: only ContentError, naming file and line, comes out of the loader.

Explicit YAML tags with values they cannot hold, a value of the wrong shape where the
cross-checks look, and duplicate keys that differ only in spelling each used to escape
as a raw exception or pass silently.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.content import ContentError, load_content
from tests.content.conftest import edit

EXTRA = [
    ("a bool tag on a word", "materials:\n  - id: x\n    name: !!bool maybe\n", 3),
    ("a timestamp tag on a word", "materials:\n  - id: x\n    name: !!timestamp nope\n", 3),
    ("an int tag on a word", "materials:\n  - id: x\n    name: !!int many\n", 3),
    ("a float tag on a word", "materials:\n  - id: x\n    name: !!float lots\n", 3),
    ("a binary tag on text", "materials:\n  - id: x\n    name: !!binary 'not base64!'\n", 3),
    ("keys +1 and 1", "materials:\n  - id: x\n    edges: {1: a,\n      +1: b}\n", 4),
    ("keys 2.0 and 2", "materials:\n  - id: x\n    edges:\n      2: a\n      2.0: b\n", 5),
    ("keys 1 and 01 as numbers", "materials:\n  - id: x\n    edges: {1: a, !!int 01: b}\n",
     3),
]


@pytest.mark.parametrize(("case", "text", "line"), EXTRA, ids=[e[0] for e in EXTRA])
def test_fault6_bad_yaml_values_are_content_errors_with_a_line(
    sample_copy: Path, case: str, text: str, line: int
) -> None:
    (sample_copy / "extra.yaml").write_text(text, encoding="utf-8")
    with pytest.raises(ContentError) as caught:
        load_content("sample", extra_dirs=[sample_copy])
    issues = [i for i in caught.value.issues if i.file.name == "extra.yaml"]
    assert issues, str(caught.value)
    assert issues[0].line == line, str(caught.value)
    assert f"extra.yaml:{line}" in str(caught.value)


def test_fault6_a_hex_whose_region_is_a_list(sample_copy: Path) -> None:
    line = edit(sample_copy / "valley.yaml", "region: emberfen", "region: [x]")
    with pytest.raises(ContentError) as caught:
        load_content("sample", extra_dirs=[sample_copy])
    assert f"valley.yaml:{line}" in str(caught.value)
