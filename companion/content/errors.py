"""The one error type the content loader raises, and the issues it carries."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class ContentIssue:
    """One problem in a content pack, located as precisely as the YAML allows.

    ``str()`` gives ``pack/file.yaml:LINE: field.path: message`` (``pack/file.yaml``
    is the pack's folder name and the file's path inside it; the line and the field
    path are left out when unknown).
    """

    file: Path
    """The file the problem is in (or the pack folder, for a pack-level problem)."""
    line: int | None
    """1-based line of the offending YAML node, if known."""
    path: str
    """Dotted path of the field inside the file, e.g. ``materials.3.unprocessed.edges``."""
    message: str
    """What is wrong, in game words."""
    pack_dir: Path | None = field(default=None, compare=False)
    """The pack's folder, when known: ``where`` then shows the file's path inside it."""

    @property
    def where(self) -> str:
        """``pack/file.yaml`` (``pack/sub/file.yaml`` for a file in a subfolder of the
        pack), or the folder name for a pack-level problem."""
        if self.pack_dir is not None and self.file.is_relative_to(self.pack_dir):
            inside = self.file.relative_to(self.pack_dir).as_posix()
            return f"{self.pack_dir.name}/{inside}" if inside != "." else self.pack_dir.name
        return f"{self.file.parent.name}/{self.file.name}" if self.file.suffix else (
            self.file.name
        )

    def __str__(self) -> str:
        where = self.where if self.line is None else f"{self.where}:{self.line}"
        return f"{where}: {self.path}: {self.message}" if self.path else (
            f"{where}: {self.message}"
        )


class ContentError(Exception):
    """A content pack could not be loaded; ``issues`` lists every problem found."""

    def __init__(self, issues: Sequence[ContentIssue]) -> None:
        self.issues: list[ContentIssue] = list(issues)
        super().__init__(str(self))

    def __str__(self) -> str:
        count = len(self.issues)
        head = f"{count} problem{'s' if count != 1 else ''} in the content packs:"
        return "\n".join([head, *(f"  {issue}" for issue in self.issues)])


def issue_message(detail: Any) -> str:
    """A pydantic error detail in the owner's words."""
    msg = str(detail["msg"])
    # pydantic prefixes a validator's own ValueError with "Value error, ".
    msg = msg.removeprefix("Value error, ")
    if detail["type"] == "extra_forbidden":
        return "unknown field (a typo, or a field this kind of component does not have)"
    if detail["type"] == "missing":
        return "required field is missing"
    return msg
