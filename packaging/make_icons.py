"""Make the Windows .ico and macOS .icns icons from assets/app-icon-*.png (Pillow).

    python packaging/make_icons.py      # writes packaging/build/app-icon.ico and .icns

The PyInstaller spec calls it on Windows and macOS; the outputs are build products
(ignored by git), the PNGs in assets/ are the source.
"""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "packaging" / "build"


def make_icons() -> tuple[Path, Path]:
    from PIL import Image

    OUT.mkdir(parents=True, exist_ok=True)
    biggest = Image.open(ROOT / "assets" / "app-icon-512.png").convert("RGBA")
    ico = OUT / "app-icon.ico"
    biggest.save(ico, sizes=[(s, s) for s in (16, 24, 32, 48, 64, 128, 256)])
    icns = OUT / "app-icon.icns"
    biggest.save(icns)
    return ico, icns


if __name__ == "__main__":
    for path in make_icons():
        print(f"wrote {path.relative_to(ROOT)}")
