"""Only what pyproject.toml cannot say: which folders the wheel ships as run-time data.

``content/``, ``assets/`` and ``docs/`` stay where the project keeps them; each is mapped
into the package ``companion_data`` (``companion_data/__init__.py`` explains), so the
installed wheel finds them through ``importlib.resources`` exactly as the editable
checkout does. Every file of ``content/`` and ``assets/`` is shipped; of ``docs/`` only
the Getting Started page and the pictures it shows (docs/screenshots holds ~80 more
that only the repository needs). The sdist carries the same files (and this script).
"""

import re
from pathlib import Path

from setuptools import find_packages, setup

ROOT = Path(__file__).resolve().parent
SHIPPED = {
    "companion_data.content": "content",
    "companion_data.assets": "assets",
    "companion_data.guide": "docs",
}
GUIDE = "getting-started.md"
PICTURE = re.compile(r"!\[[^\]]*\]\(\s*([^)\s]+)|<img[^>]*\bsrc=[\"']([^\"']+)")


def every_file(folder: str) -> list[str]:
    """Every data file under the folder, relative to it (no Python, no caches)."""
    base = ROOT / folder
    return sorted(
        path.relative_to(base).as_posix() for path in base.rglob("*")
        if path.is_file() and path.suffix not in (".py", ".pyc")
        and "__pycache__" not in path.parts and not path.name.startswith(".")
    )


def guide_files() -> list[str]:
    """The guide and every local picture it shows."""
    text = (ROOT / "docs" / GUIDE).read_text(encoding="utf-8")
    pictures = {a or b for a, b in PICTURE.findall(text)}
    return [GUIDE, *sorted(p for p in pictures if "://" not in p)]


def package_data() -> dict[str, list[str]]:
    """The data files of each mapped package (packaging/stonesaga-companion.spec ships
    the same ones into the PyInstaller build)."""
    return {
        "companion_data.content": every_file("content"),
        "companion_data.assets": every_file("assets"),
        "companion_data.guide": guide_files(),
    }


if __name__ == "__main__":  # setuptools runs this file as __main__; the spec imports it
    setup(
        packages=[*find_packages(include=["companion", "companion.*", "companion_data"]),
                  *SHIPPED],
        package_dir=SHIPPED,
        package_data=package_data(),
        include_package_data=False,
    )
