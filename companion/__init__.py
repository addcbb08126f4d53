"""Stonesaga Companion: a desktop companion for Stonesaga campaigns.

Layers (see docs/ARCHITECTURE.md):

- ``companion.rules``      the game, pure Python (no Qt, no database, no I/O)
- ``companion.content``    content packs: schemas, loader, errors with file:line
- ``companion.store``      the campaign file: tables, migrations, backups, undo log
- ``companion.operations`` the only writer: one transaction per operation
- ``companion.ui``         the Qt interface; nothing imports it
- ``companion.cli``        the same operations, headless
"""

__version__ = "0.1.0"
