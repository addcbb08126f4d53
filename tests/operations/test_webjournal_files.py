"""Issue 28, bad files: a byte order mark is accepted (the web journal opens such a
file), and a file that is neither format is refused saying what it holds and what
was expected."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion import operations
from companion.operations import webjournal as wj
from companion.operations.changes import Refused

V3 = Path(__file__).parent / "fixtures" / "web-journal-v3.json"


def test_a_web_journal_file_with_a_byte_order_mark_imports(tmp_path: Path) -> None:
    src = tmp_path / "bom.json"
    src.write_bytes(b"\xef\xbb\xbf" + V3.read_bytes())
    campaign = operations.import_campaign(src, tmp_path / "x.stonesaga")
    with campaign:
        assert campaign.title == "The Reed People"
    again, _ = wj.import_new(src, tmp_path / "y.stonesaga")
    again.close()


@pytest.mark.parametrize(("content", "holds"), [
    ("null", "nothing (JSON null)"),
    ('"hello"', "only a JSON string ('hello')"),
    ("42", "only a JSON number (42)"),
    ("true", "only the JSON value true"),
    ('{"format": "other-app", "tables": {}}', "a JSON object of format 'other-app'"),
])
def test_a_file_of_neither_format_says_what_it_holds_and_what_was_expected(
        tmp_path: Path, content: str, holds: str) -> None:
    src = tmp_path / "odd.json"
    src.write_text(content, encoding="utf-8")
    with pytest.raises(Refused) as refused:
        operations.import_campaign(src, tmp_path / "x.stonesaga")
    message = str(refused.value)
    assert f"it holds {holds}" in message
    assert "expected a Stonesaga Companion export" in message
    assert "Stonesaga Campaign Journal file" in message
    assert sorted(p.name for p in tmp_path.iterdir()) == ["odd.json"]


def test_the_web_journal_reader_says_what_a_string_file_is(tmp_path: Path) -> None:
    src = tmp_path / "odd.json"
    src.write_text(json.dumps("just text"), encoding="utf-8")
    with pytest.raises(Refused, match=r"it holds only a JSON string \('just text'\); "
                       r"expected a Stonesaga Campaign Journal file"):
        wj.import_new(src, tmp_path / "x.stonesaga")
