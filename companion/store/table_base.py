"""What every table of a campaign file shares: the base class, its times, its JSON columns.

Conventions:
- small nested lists and maps are JSON columns; *reassign* them to change them
  (``character.traits = [*character.traits, "Brave"]``): in-place mutation of a JSON
  value is invisible to the database layer, so it is neither saved nor journalled;
- times are timezone-aware UTC ``datetime``s (sqlmodel refuses naive ones);
- content ids (cards, tiles, items) are the content pack's strings;
- no database-level cascades: every row change goes through the session, so the journal
  sees it and undo can revert it.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, cast

from sqlalchemy import JSON, Column, Table
from sqlmodel import Field, SQLModel
from sqlmodel._compat import SQLModelConfig  # the type SQLModel.model_config has


class StoreTable(SQLModel):
    """Base of every table: pydantic builds a table's validators only if one is ever
    used (``defer_build``). Rows are made and read through SQLAlchemy, which never
    needs them, so opening a campaign does not pay for 27 of them."""

    model_config = SQLModelConfig(from_attributes=True, defer_build=True)

    id: int | None = Field(default=None, primary_key=True)
    """Every row's own number, given by SQLite (the first column of every table)."""


def utcnow() -> datetime:
    """Now, as the aware UTC datetime every table stores."""
    return datetime.now(UTC)


def table_of(model: type[SQLModel]) -> Table:
    """The SQLAlchemy table behind a sqlmodel table class."""
    return cast(Table, getattr(model, "__table__"))  # noqa: B009 (absent from the stubs)


def json_column(nullable: bool = False) -> Any:
    """A JSON column (a fresh Column per field: SQLAlchemy columns cannot be shared
    between tables)."""
    return Column(JSON, nullable=nullable)
