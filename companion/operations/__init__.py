"""operations layer (see docs/ARCHITECTURE.md)."""
