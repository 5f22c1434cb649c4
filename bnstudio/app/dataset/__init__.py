"""The data panel's model: preparing a table for a network and the training/test split (docs/architecture.md §7)."""
