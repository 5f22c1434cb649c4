"""The query panel's model: queries, their answers and error bars (docs/architecture.md §7)."""
