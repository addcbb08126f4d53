"""Regenerate docs/screenshots/ from a fresh demo campaign (``make screenshots``).

Runs offscreen (QT_QPA_PLATFORM=offscreen) or under xvfb-run; every picture is taken
with ``QWidget.grab()`` at a fixed size, so the files change only when the UI does.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "docs" / "screenshots"


def main() -> int:
    home = tempfile.mkdtemp(prefix="companion-shots-")
    os.environ["COMPANION_HOME"] = home
    sys.path.insert(0, str(ROOT))
    from PySide6.QtWidgets import QApplication

    from companion import operations
    from companion.ui.main_window import MainWindow

    app = QApplication.instance() or QApplication([])
    app.setStyle("Fusion")
    OUT.mkdir(parents=True, exist_ok=True)
    campaign = operations.create_demo_campaign(Path(home) / "Demo.stonesaga")
    window = MainWindow()
    window.resize(1180, 760)
    window.show()
    window.set_campaign(campaign)
    names = ["valley", "characters", "journal", "society"]
    for index, name in enumerate(names):
        window.tabs.setCurrentIndex(index)
        app.processEvents()
        path = OUT / f"main-{name}.png"
        window.grab().save(str(path))
        print(f"wrote {path.relative_to(ROOT)}")
    window.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
