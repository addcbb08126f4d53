"""rules layer (see docs/ARCHITECTURE.md)."""
