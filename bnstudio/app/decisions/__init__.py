"""The decision panel's model: solving an influence diagram and opening one into a document (docs/architecture.md
§7)."""
