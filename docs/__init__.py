"""Marks this folder as the package ``companion_data.guide`` (see setup.py and
companion_data/__init__.py): only getting-started.md and the pictures it shows are
shipped (Help ▸ Getting Started). No code."""
