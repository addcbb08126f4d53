"""Issue 19, fault 6: only ContentError, naming file and line, comes out of the loader.

Explicit YAML tags with values they cannot hold, a value of the wrong shape where the
cross-checks look, and duplicate keys that differ only in spelling each used to escape
as a raw exception or pass silently.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.content import ContentError, load_content
from tests.content.conftest import SAMPLE, edit

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


# --- hypothesis: tags, spellings and shapes the random documents of test_property miss ---

TAGS = ["", "!!bool ", "!!int ", "!!float ", "!!timestamp ", "!!binary ", "!!str ",
        "!!null ", "!!set ", "!!omap ", "!!python/object ", "!!seq ", "!!map "]
WORDS = ["maybe", "nope", "1", "+1", "01", "2.0", "2", "true", "~", "0x1F", "1e400",
         "2026-13-45", "2026-03-01", "aGk=", "[x]", "{a: 1}", "-", "'0410'", "emberfen"]
FIELDS = ["id", "name", "region", "code", "edges", "starting", "number", "1", "+1", "2.0",
          "true", "<<"]


@st.composite
def tagged_entries(draw: st.DrawFn) -> str:
    """A component file whose entries carry explicit tags and keys spelled many ways."""
    kind = draw(st.sampled_from(["materials", "hexes", "items", "regions", "crafting"]))
    lines = [f"{kind}:"]
    for _ in range(draw(st.integers(1, 3))):
        fields = draw(st.lists(st.sampled_from(FIELDS), min_size=1, max_size=4))
        for index, name in enumerate(fields):
            value = draw(st.sampled_from(TAGS)) + draw(st.sampled_from(WORDS))
            lines.append(f"  {'- ' if index == 0 else '  '}{name}: {value}")
    return "\n".join(lines) + "\n"


@settings(max_examples=int(os.environ.get("COMPANION_FUZZ_EXAMPLES", "60")), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(text=tagged_entries(), target=st.sampled_from(["extra.yaml", "valley.yaml"]))
def test_only_content_errors_with_a_file_come_out(text: str, target: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        pack = Path(tmp) / "sample"
        shutil.copytree(SAMPLE, pack)
        with open(pack / target, "a", encoding="utf-8") as f:
            f.write(text if target == "extra.yaml" else "\n" + text.split("\n", 1)[1])
        try:
            load_content("sample", extra_dirs=[pack])
        except ContentError as exc:
            assert exc.issues and all(issue.file for issue in exc.issues)
