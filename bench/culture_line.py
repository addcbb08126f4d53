"""Culture-line parse of the web Campaign Journal importer (run by hand:
``.venv/bin/python bench/culture_line.py``).

Times :func:`companion.operations.webjournal.parse_culture_text` on lines of 25k, 50k
and 100k characters built to make a backtracking parser go quadratic (long whitespace
runs). Issue 24 measured 1.6 s at 25k and 23 s at 100k before the parse was made
linear; the time should now grow with the length, not its square.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.operations.webjournal import parse_culture_text  # noqa: E402

SHAPES = {
    "spaces": lambda n: "ST02 a" + " " * n + "b",
    "spaces and tabs, then a dash": lambda n: "Fire Pit" + " \t" * (n // 2) + "—x",
    "words and a note": lambda n: "word " * (n // 5) + " — notes",
}


def main() -> None:
    for shape, make in SHAPES.items():
        times = []
        for n in (25_000, 50_000, 100_000):
            text = make(n)
            start = time.perf_counter()
            parse_culture_text("structures", text)
            times.append((n, time.perf_counter() - start))
        print(f"{shape:32}" + "  ".join(f"{n // 1000}k: {t * 1000:7.2f} ms" for n, t in times))


if __name__ == "__main__":
    main()
