"""Regenerate the Campaign Journal import pictures in docs/screenshots/:
webjournal-import-preview.png (a version 3 file previewed against a campaign made from
a version 2 one) and webjournal-import-report.png (after importing it, the notes left
out and the crafting codes' differences taken from the file).

Runs offscreen; the files are the test fixtures in tests/operations/fixtures/.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
OUT = ROOT / "docs" / "screenshots"
FIXTURES = ROOT / "tests" / "operations" / "fixtures"
SIZE = (960, 600)


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        os.environ["COMPANION_HOME"] = folder
        from PySide6.QtWidgets import QApplication

        from companion.operations import webjournal
        from companion.ui.main_window import MainWindow
        from companion.ui.webjournal_dialog import WebJournalDialog

        app = QApplication.instance() or QApplication([])
        campaign, _ = webjournal.import_new(FIXTURES / "web-journal-v2.json",
                                            Path(folder) / "Reed People.stonesaga")
        window = MainWindow()
        window.set_campaign(campaign)
        dialog = WebJournalDialog(window, webjournal.preview(
            campaign, FIXTURES / "web-journal-v3.json"))
        dialog.resize(*SIZE)
        dialog.show()
        app.processEvents()
        OUT.mkdir(parents=True, exist_ok=True)
        dialog.grab().save(str(OUT / "webjournal-import-preview.png"))
        dialog.choices["notes"].setCurrentIndex(dialog.choices["notes"].findData("skip"))
        dialog.choices["codes"].setCurrentIndex(dialog.choices["codes"].findData("theirs"))
        dialog.run_import()
        app.processEvents()
        dialog.grab().save(str(OUT / "webjournal-import-report.png"))
        dialog.close()
        window.close()
        campaign.close()
    print(f"wrote {OUT / 'webjournal-import-preview.png'} and webjournal-import-report.png")


if __name__ == "__main__":
    main()
