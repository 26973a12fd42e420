"""pytest entry point (being built)."""
