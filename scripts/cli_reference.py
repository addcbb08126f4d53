"""Write every command's synopsis into docs/cli.md (between its markers), from the
parser itself: ``python scripts/cli_reference.py``. tests/cli/test_cli_reference.py
fails when the file and the program disagree."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main() -> int:
    sys.path.insert(0, str(ROOT))
    from companion.cli.reference import BEGIN, END, markdown

    path = ROOT / "docs" / "cli.md"
    text = path.read_text(encoding="utf-8")
    if BEGIN in text and END in text:
        before, rest = text.split(BEGIN, 1)
        after = rest.split(END, 1)[1]
        text = before + markdown() + after
    else:
        text = text.rstrip("\n") + "\n\n## Every command\n\n" + markdown() + "\n"
    path.write_text(text, encoding="utf-8")
    print(f"wrote {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
