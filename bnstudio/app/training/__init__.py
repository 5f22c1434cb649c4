"""The training panel's model: runs, the fitting job, scaling and shifts (docs/architecture.md §7)."""
