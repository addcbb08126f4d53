"""File ▸ Import from the Campaign Journal… and File ▸ Export for the Campaign Journal…

The import dialog has two pages: the **preview** (per section: new, differing, already
there, and a choice; the differences listed below, each with what the merge would do
to it) and the **report** (what went where, what the merge did to each differing entry:
kept here, taken from the Journal or deleted; what was kept as a note page, what was not
imported). The merge follows the Journal's own rule by default: the newer copy of an
entry wins, a deletion counting as a copy with its time. Without an open campaign the
file becomes a new campaign and the dialog opens on its report.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QHeaderView,
    QLabel,
    QListWidget,
    QPushButton,
    QStackedWidget,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from companion.ui.file_menu import CAMPAIGN_FILTER, campaigns_folder, show_refusal

if TYPE_CHECKING:
    from companion.operations.webjournal import ImportPlan, ImportReport
    from companion.ui.host import Host

JOURNAL_FILTER = "Stonesaga Campaign Journal files (*.json);;All files (*)"
COLUMNS = ("Section", "New", "Differ", "Already there", "Goes to")


def _section_tree(name: str, headers: tuple[str, ...]) -> QTreeWidget:
    tree = QTreeWidget()
    tree.setAccessibleName(name)
    tree.setHeaderLabels(list(headers))
    tree.setRootIsDecorated(False)
    tree.setUniformRowHeights(True)
    header = tree.header()
    header.setStretchLastSection(True)
    for column in range(len(headers) - 1):
        header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
    return tree


class WebJournalDialog(QDialog):
    """Preview an import into the open campaign, choose per section, import; then the
    report."""

    def __init__(self, window: Host, plan: ImportPlan | None = None) -> None:
        super().__init__(window)
        self.window_ = window
        self.plan = plan
        self.report: ImportReport | None = None
        self.setWindowTitle("Import from the Campaign Journal")
        self.resize(900, 560)
        self.choices: dict[str, QComboBox] = {}
        self.stack = QStackedWidget()
        self.preview_page = QWidget()
        self.report_page = QWidget()
        self.stack.addWidget(self.preview_page)
        self.stack.addWidget(self.report_page)
        self._build_report_page()
        layout = QVBoxLayout(self)
        layout.addWidget(self.stack, 1)
        if plan is not None:
            self._build_preview_page(plan)

    # -- the preview -----------------------------------------------------------------

    def _build_preview_page(self, plan: ImportPlan) -> None:
        from companion.operations.webjournal import CHOICES

        layout = QVBoxLayout(self.preview_page)
        layout.setContentsMargins(0, 0, 0, 0)
        self.intro = QLabel(
            f"<b>{plan.source.name}</b> ({plan.document.shape}) into "
            f"<b>{self.window_.campaign.title if self.window_.campaign else ''}</b>. "
            "Where an entry differs, the newer copy wins, as in the Journal's own merge "
            "(a deletion, here or there, counts with its time), unless you choose "
            "otherwise for its section. The import is one step you can undo.")
        self.intro.setWordWrap(True)
        layout.addWidget(self.intro)
        self.sections = _section_tree("What the import would do", (*COLUMNS[:4], "Choice",
                                                                    COLUMNS[4]))
        for s in plan.summary():
            if not (s.added or s.conflicts or s.already):
                continue
            item = QTreeWidgetItem([s.title, str(s.added), str(s.conflicts), str(s.already),
                                    "", s.home])
            self.sections.addTopLevelItem(item)
            combo = QComboBox()
            combo.setAccessibleName(f"Choice for {s.title}")
            for key, text in CHOICES.items():
                combo.addItem(text, key)
            if not s.conflicts:  # nothing differs: every side means the same
                for same in ("add", "theirs"):
                    combo.removeItem(combo.findData(same))
            combo.currentIndexChanged.connect(self.show_outcomes)
            self.sections.setItemWidget(item, 4, combo)
            self.choices[s.key] = combo
        layout.addWidget(self.sections, 2)
        layout.addWidget(QLabel("Where the file and the campaign differ, and what the "
                                "import would do:"))
        self.conflicts = _section_tree("Differences", ("Section", "Entry",
                                                       "The import would", "Difference"))
        for planned in plan.conflicts():
            self.conflicts.addTopLevelItem(QTreeWidgetItem([
                self._title(planned.section), planned.label, "", planned.detail]))
        if not plan.conflicts():
            self.conflicts.addTopLevelItem(QTreeWidgetItem(["", "No differences.", "", ""]))
        self.show_outcomes()
        layout.addWidget(self.conflicts, 1)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.import_button = QPushButton("&Import")
        self.import_button.setDefault(True)
        buttons.addButton(self.import_button, QDialogButtonBox.ButtonRole.AcceptRole)
        self.import_button.clicked.connect(self.run_import)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)

    @staticmethod
    def _title(section: str) -> str:
        from companion.operations.webjournal import SECTIONS

        return SECTIONS.get(section, section)

    def chosen(self) -> dict[str, str]:
        """The choice of each section shown."""
        return {key: str(combo.currentData()) for key, combo in self.choices.items()}

    def show_outcomes(self) -> None:
        """Say, for each difference, what the import does with the sections' choices."""
        from companion.operations.webjournal import DEFAULT_CHOICE

        if self.plan is None:
            return
        chosen = self.chosen()
        for n, planned in enumerate(self.plan.conflicts()):
            choice = chosen.get(planned.section, DEFAULT_CHOICE)
            words = "leave it out" if choice == "skip" else planned.outcome(choice)
            row = self.conflicts.topLevelItem(n)
            if row is not None:
                row.setText(2, words[0].upper() + words[1:])

    def run_import(self) -> None:
        from companion.operations import webjournal

        assert self.plan is not None
        changes = self.window_.run_operation(webjournal.apply, plan=self.plan,
                                             choices=self.chosen())
        if changes is None:
            return
        assert changes.detail is not None
        self.show_report(changes.detail)  # type: ignore[arg-type]

    # -- the report ------------------------------------------------------------------

    def _build_report_page(self) -> None:
        layout = QVBoxLayout(self.report_page)
        layout.setContentsMargins(0, 0, 0, 0)
        self.report_title = QLabel("")
        self.report_title.setWordWrap(True)
        layout.addWidget(self.report_title)
        self.report_sections = _section_tree("What went where", COLUMNS)
        layout.addWidget(self.report_sections, 2)
        layout.addWidget(QLabel("What the merge did where the file and the campaign "
                                "differed:"))
        self.report_outcomes = _section_tree("What the merge did", (
            "What the merge did", "Entry"))
        layout.addWidget(self.report_outcomes, 1)
        layout.addWidget(QLabel("Kept as note pages (no home in the campaign), what "
                                "was not imported, and the custom materials:"))
        self.report_notes = QListWidget()
        self.report_notes.setAccessibleName("Kept and not imported")
        self.report_notes.setWordWrap(True)  # the custom materials' lines are long
        layout.addWidget(self.report_notes, 1)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.accept)
        buttons.accepted.connect(self.accept)
        layout.addWidget(buttons)

    def show_report(self, report: ImportReport) -> None:
        """Turn to the report page."""
        self.report = report
        self.setWindowTitle("Imported from the Campaign Journal")
        self.report_title.setText(f"<b>{Path(report.source).name}</b> ({report.shape}) is "
                                  f"now in <b>{report.campaign}</b>.")
        self.report_sections.clear()
        for s in report.sections:
            if not (s.added or s.conflicts or s.already):
                continue
            if s.choice == "skip":
                counts = ["left out", "", ""]
            else:
                counts = [str(s.added), f"{s.conflicts} ({s.differing_words()})"
                          if s.conflicts else "0", str(s.already)]
            self.report_sections.addTopLevelItem(QTreeWidgetItem([s.title, *counts, s.home]))
        self.report_outcomes.clear()
        for label, outcome in report.outcomes:
            self.report_outcomes.addTopLevelItem(QTreeWidgetItem([
                outcome[0].upper() + outcome[1:], label]))
        if not report.outcomes:
            self.report_outcomes.addTopLevelItem(QTreeWidgetItem([
                "Nothing differed", ""]))
        self.report_notes.clear()
        for label in report.kept_as_notes:
            self.report_notes.addItem(f"Kept as a note page: {label}")
        for what in report.not_imported:
            self.report_notes.addItem(f"Not imported: {what}")
        for line in report.material_lines():
            self.report_notes.addItem(line)
        if self.report_notes.count() == 0:
            self.report_notes.addItem("Everything found a home.")
        self.stack.setCurrentWidget(self.report_page)


def import_web_journal(window: Host) -> WebJournalDialog | None:
    """File ▸ Import from the Campaign Journal…: into the open campaign (with a preview),
    or, with none open, into a new campaign file."""
    src, _ = QFileDialog.getOpenFileName(window, "Import from the Campaign Journal",
                                         campaigns_folder(), JOURNAL_FILTER)
    if not src:
        return None
    return open_import(window, Path(src))


def open_import(window: Host, src: Path, dest: Path | None = None
                ) -> WebJournalDialog | None:
    """Show the preview for ``src`` into the open campaign; with none open (or with
    ``dest`` given), import it into a new campaign and show the report."""
    from companion.operations import Refused, webjournal

    if window.campaign is not None and dest is None:
        try:
            dialog = WebJournalDialog(window, webjournal.preview(window.campaign, src))
        except Refused as refusal:
            show_refusal(window, "Could not import the Campaign Journal file", refusal)
            return None
    else:
        if dest is None:
            name, _ = QFileDialog.getSaveFileName(
                window, "Save the imported campaign as",
                str(Path(campaigns_folder()) / (src.stem + ".stonesaga")), CAMPAIGN_FILTER)
            if not name:
                return None
            dest = Path(name)
        try:
            campaign, report = webjournal.import_new(src, dest)
        except Refused as refusal:
            show_refusal(window, "Could not import the Campaign Journal file", refusal)
            return None
        window.show_created(campaign, dest)
        dialog = WebJournalDialog(window)
        dialog.show_report(report)
    # Modal: the preview must still be true when Import is pressed.
    dialog.setModal(True)
    dialog.show()
    return dialog


def is_web_journal_file(src: Path) -> bool:
    """Whether ``src`` is a web Campaign Journal file (File ▸ Import Campaign… sends
    those here, to show the report)."""
    from companion.store.webjournal import is_web_journal_file

    return is_web_journal_file(src)


def export_web_journal(window: Host) -> Path | None:
    """File ▸ Export for the Campaign Journal…: a version 5 file the web app imports
    (every entry under its Journal id, so the Journal's Merge updates rather than
    duplicates)."""
    from companion.operations import Refused, webjournal_export

    if window.campaign is None:
        return None
    name, _ = QFileDialog.getSaveFileName(
        window, "Export for the Campaign Journal",
        str(Path(campaigns_folder()) / f"{window.campaign.path.stem}-journal.json"),
        JOURNAL_FILTER)
    if not name:
        return None
    try:
        counts = webjournal_export.export_web_journal(window.campaign, Path(name))
    except Refused as refusal:
        show_refusal(window, "Could not export for the Campaign Journal", refusal)
        return None
    window.statusBar().showMessage(
        f"Wrote {name}: " + ", ".join(f"{n} {what}" for what, n in counts.items() if n), 8000)
    return Path(name)
