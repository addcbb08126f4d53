"""store layer (see docs/ARCHITECTURE.md)."""
