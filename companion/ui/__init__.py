"""ui layer (see docs/ARCHITECTURE.md)."""
