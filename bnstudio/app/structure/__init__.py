"""The structure panel's model: the undoable acceptance of a learned structure (docs/architecture.md §7)."""
