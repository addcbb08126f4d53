"""File ▸ Import Campaign's two questions, each saying why it is asked (issue 36 item 15):
which export (the file dialog opens in the folder of the last export, where the file just
written lies), and where the new campaign it makes is kept (:class:`ImportPlaceDialog`,
a titled dialog that proposes a free name in the campaigns folder; "Choose…" opens a
Save dialog with its purpose as its title).

Contract: :func:`remember_export` is called once an export is written;
:func:`export_folder` is where the Import file dialog opens; :func:`ask_import_place`
returns the campaign file to create, or None when the player cancels.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from companion.ui.file_menu import (
    CAMPAIGN_FILTER,
    CAMPAIGN_SUFFIX,
    campaigns_folder,
    settings,
    with_suffix,
)

EXPORT_FOLDER = "export_folder"
"""The settings key of the folder the last export was written to."""


def remember_export(path: Path) -> None:
    """An export was written to ``path``: Import opens in its folder from now on."""
    store = settings()
    store.setValue(EXPORT_FOLDER, str(path.parent))
    store.sync()


def export_folder() -> str:
    """The folder of the last export, while it exists; else the campaigns folder."""
    folder = settings().value(EXPORT_FOLDER, "")
    if isinstance(folder, str) and folder and Path(folder).is_dir():
        return folder
    return campaigns_folder()


def free_campaign_path(source: Path) -> Path:
    """A campaign file in the campaigns folder named after the export ``source``
    ("Evening.stonesaga-export.json" → "Evening.stonesaga"), numbered when taken."""
    stem = source.name.split(".")[0] or "Imported campaign"
    folder = Path(campaigns_folder())
    candidate = folder / f"{stem}{CAMPAIGN_SUFFIX}"
    number = 2
    while candidate.exists():
        candidate = folder / f"{stem} ({number}){CAMPAIGN_SUFFIX}"
        number += 1
    return candidate


class ImportPlaceDialog(QDialog):
    """Where the campaign made from an export is kept, and why it is asked."""

    def __init__(self, source: Path, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Import a campaign: where to keep it")
        intro = QLabel(f"Importing {source.name} makes a new campaign file from it; the "
                       "export itself stays as it is. The new campaign opens as soon as it "
                       "is imported.")
        intro.setWordWrap(True)
        label = QLabel("&Save the new campaign as:")
        self.path_edit = QLineEdit(str(free_campaign_path(source)))
        self.path_edit.setAccessibleName("The new campaign file")
        label.setBuddy(self.path_edit)
        self.choose_button = QPushButton("&Choose…")
        self.choose_button.setAutoDefault(False)
        self.choose_button.clicked.connect(self.choose)
        row = QHBoxLayout()
        row.addWidget(self.path_edit, 1)
        row.addWidget(self.choose_button)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.import_button = buttons.addButton("&Import",
                                               QDialogButtonBox.ButtonRole.AcceptRole)
        self.import_button.setDefault(True)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addWidget(label)
        layout.addLayout(row)
        layout.addWidget(buttons)
        self.resize(max(self.fontMetrics().averageCharWidth() * 90, self.sizeHint().width()),
                    self.sizeHint().height())

    def choose(self) -> None:
        """A Save dialog whose title says what it is for."""
        typed, _ = QFileDialog.getSaveFileName(self, "Save the imported campaign as",
                                               self.path_edit.text(), CAMPAIGN_FILTER)
        if typed:
            self.path_edit.setText(str(with_suffix(typed, CAMPAIGN_SUFFIX)))

    def place(self) -> Path:
        """The campaign file to create (with its extension)."""
        return with_suffix(self.path_edit.text().strip(), CAMPAIGN_SUFFIX)


def ask_import_place(parent: QWidget, source: Path) -> Path | None:
    """Where to keep the campaign imported from ``source`` (None: cancelled)."""
    dialog = ImportPlaceDialog(source, parent)
    dialog.setObjectName("importPlace")
    if dialog.exec() != QDialog.DialogCode.Accepted or not dialog.path_edit.text().strip():
        return None
    return dialog.place()
