"""The study view's model: a study store read into one snapshot (docs/architecture.md §7)."""
