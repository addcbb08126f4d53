"""``companion map``: the valley as a PNG (a valid image of the asked size) and the
journal's grid of hex IDs, headless."""

from __future__ import annotations

import json
import struct
from pathlib import Path
from typing import Any

import pytest

from companion import operations
from companion.cli import map_cmd
from tests.cli.helpers import run_group


def run(capsys: Any, *argv: str) -> tuple[int, str, str]:
    return run_group(capsys, map_cmd.register, "map", *argv)


def png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG file"
    assert data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


@pytest.fixture
def demo_path(tmp_path: Path) -> Path:
    path = tmp_path / "d.stonesaga"
    operations.create_demo_campaign(path).close()
    return path


def test_png_is_written_at_the_asked_width(demo_path: Path, tmp_path: Path,
                                           capsys: Any) -> None:
    out = tmp_path / "maps" / "valley.png"
    code, text, _ = run(capsys, str(demo_path), "--png", str(out), "--width", "640")
    assert code == 0 and f"wrote {out}" in text
    width, height = png_size(out)
    assert width == 640 and 300 < height < 1000
    from PySide6.QtGui import QImage

    image = QImage(str(out))
    assert not image.isNull() and (image.width(), image.height()) == (width, height)
    # not a blank picture: the hexes are drawn over the background
    colours = {image.pixel(x, y) for x in range(0, width, 16) for y in range(0, height, 16)}
    assert len(colours) > 10


def test_grid_is_printed_and_written_beside_the_png(demo_path: Path, tmp_path: Path,
                                                    capsys: Any) -> None:
    out = tmp_path / "valley.png"
    code, text, _ = run(capsys, str(demo_path), "--png", str(out), "--grid", "--json")
    assert code == 0
    data = json.loads(text)
    assert data["png"] == str(out) and data["width"] == map_cmd.DEFAULT_WIDTH
    grid = "\n".join(data["grid"])
    assert "E01" in grid and grid.count("*") == 2  # two hexes face down
    assert Path(data["grid_file"]).read_text(encoding="utf-8").strip() == grid.strip()
    assert png_size(out)[0] == map_cmd.DEFAULT_WIDTH


def test_grid_only_without_png(demo_path: Path, capsys: Any) -> None:
    code, text, _ = run(capsys, str(demo_path))
    assert code == 0 and "E01" in text


def test_a_missing_campaign_is_refused(tmp_path: Path, capsys: Any) -> None:
    code, _, err = run(capsys, str(tmp_path / "nope.stonesaga"), "--png",
                       str(tmp_path / "x.png"))
    assert code == 1 and err.startswith("refused:")
    assert not (tmp_path / "x.png").exists()
