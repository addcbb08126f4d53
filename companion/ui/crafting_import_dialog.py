"""Import the community's crafting files (``Code;Flavor Text;Game Text;Item Name``, one
file per pip colour, the colour in the file name) into a pack of the group's own, and
show what was imported, updated and skipped, and why (``companion content
import-crafting`` does the same from the command line).

Entry point: :func:`open_crafting_import`.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLineEdit,
    QListWidget,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from companion.content.importer import ImportReport, colour_of_file, import_crafting_csv
from companion.ui.widgets import button, note_label, row_of

ACTION_WORDS = {"new": "imported", "updated": "updated", "unchanged": "unchanged",
                "skipped": "skipped"}


class CraftingImportDialog(QDialog):
    """Choose the community files and the pack to write; import; read the report."""

    def __init__(self, parent: QWidget | None, pack_dir: Path, extends: str) -> None:
        super().__init__(parent)
        self.setWindowTitle("Import community crafting codes")
        self.extends = extends
        self.report: ImportReport | None = None
        intro = note_label(
            "The community shares its crafting codes as one file per pip colour "
            "(Code;Flavor Text;Game Text;Item Name, the colour in the file name). They go "
            "into a pack of your own, marked unverified until you check them against your "
            "Codex. An item name 'None' is a dead end that returns the materials.")
        self.files = QListWidget()
        self.files.setAccessibleName("Crafting files to import")
        self.files.setMaximumHeight(self.fontMetrics().height() * 6)
        file_buttons = QHBoxLayout()
        file_buttons.addWidget(button("Add files…", self.choose_files))
        file_buttons.addWidget(button("Clear", self.files.clear))
        file_buttons.addStretch(1)
        self.pack = QLineEdit(str(pack_dir))
        self.pack.setAccessibleName("Pack folder to write")
        pack_row = row_of(self.pack, button("Choose…", self.choose_pack))
        form = QFormLayout()
        form.addRow("Files:", self.files)
        form.addRow("", file_buttons)
        form.addRow("Into the pack:", pack_row)
        self.import_button = button("Import", self.run_import)
        self.import_button.setDefault(True)
        self.summary = note_label(name="Import summary", selectable=True)
        self.rows = QTreeWidget()
        self.rows.setHeaderLabels(["Done", "Code", "Entry, or why", "Row"])
        self.rows.setAccessibleName("What each row became")
        self.rows.setRootIsDecorated(False)
        self.rows.setAlternatingRowColors(True)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addLayout(form)
        layout.addWidget(self.import_button, 0, Qt.AlignmentFlag.AlignRight)
        layout.addWidget(self.summary)
        layout.addWidget(self.rows, 1)
        layout.addWidget(buttons)
        self.resize(820, 600)
        self._update_button()
        self.files.model().rowsInserted.connect(self._update_button)
        self.files.model().rowsRemoved.connect(self._update_button)
        self.files.model().modelReset.connect(self._update_button)

    def _update_button(self, *_: object) -> None:
        self.import_button.setEnabled(self.files.count() > 0)

    def add_files(self, paths: list[Path]) -> None:
        """List ``paths`` to import, each with the pip colour its name gives."""
        for path in paths:
            colour = colour_of_file(path)
            label = f"{path.name} — {colour.value if colour else 'no pip colour in the name'}"
            self.files.addItem(label)
            self.files.item(self.files.count() - 1).setData(Qt.ItemDataRole.UserRole,
                                                            str(path))

    def choose_files(self) -> None:
        paths, _ = QFileDialog.getOpenFileNames(
            self, "Community crafting files", str(Path.home()),
            "Crafting files (*.csv *.txt);;All files (*)")
        self.add_files([Path(p) for p in paths])

    def choose_pack(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, "Pack folder", self.pack.text())
        if folder:
            self.pack.setText(folder)

    def run_import(self) -> ImportReport | None:
        """Import the listed files into the pack folder and show the report."""
        paths = [Path(self.files.item(i).data(Qt.ItemDataRole.UserRole))
                 for i in range(self.files.count())]
        folder = self.pack.text().strip()
        if not paths or not folder:
            self.summary.setText("Add at least one file, and name the pack folder.")
            return None
        report = import_crafting_csv(paths, Path(folder), extends=self.extends)
        self.report = report
        self.rows.clear()
        for row in report.rows if report.saved else ():
            self.rows.addTopLevelItem(QTreeWidgetItem(
                [ACTION_WORDS.get(row.action, row.action), row.code, row.why, row.where]))
        for column in range(4):
            self.rows.resizeColumnToContents(column)
        skipped = [f"{n} {why}" for n, why in (
            (report.kept_verified, "already confirmed at the table"),
            (report.repeated, "repeated"), (len(report.problems), "that could not be read"))
            if n]
        text = (f"{report.imported} code(s) written to {report.written.name} in "
                f"{report.written.parent}: {report.new} new, {report.updated} updated."
                + (f" Skipped: {', '.join(skipped)}." if skipped else "")
                + (" Created the pack's pack.yaml." if report.created_manifest else "")
                + f" The pack extends {self.extends}; a new campaign can be started with it"
                " (New Campaign, content pack).")
        if not report.saved:
            text = f"Nothing imported: {report.written} is unchanged."
        shown = {row.where for row in report.rows} if report.saved else set()
        problems = [p for p in report.problems if p.split(": ", 1)[0] not in shown]
        if problems:
            text += "\n" + "\n".join(problems)
        self.summary.setText(text)
        return report


def open_crafting_import(parent: QWidget | None) -> CraftingImportDialog:
    """Open the import dialog (modeless), writing by default to a pack
    ``community-crafting`` in the user's content folder that extends the campaign's."""
    from companion import paths

    extends = "sample"
    window = parent.window() if parent is not None else None
    campaign = getattr(window, "campaign", None) or getattr(
        getattr(parent, "window_", None), "campaign", None)
    if campaign is not None:
        # the campaign's own pack, unless it is the import pack itself
        chain = [p.id for p in campaign.content.packs if p.id != "community-crafting"]
        extends = chain[-1] if chain else extends
    dialog = CraftingImportDialog(parent, paths.user_content_dir() / "community-crafting",
                                  extends)
    dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    dialog.show()
    return dialog
