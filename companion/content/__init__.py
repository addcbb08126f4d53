"""content layer (see docs/ARCHITECTURE.md)."""
