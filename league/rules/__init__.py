"""Pure scoring rules of each regulation; no I/O."""
