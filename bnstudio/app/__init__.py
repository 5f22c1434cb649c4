"""The application model, free of Qt (docs/architecture.md §7): the open
document and its plain undo history, the undoable edits, the session's parts and what each panel computes.
The Qt adapters in :mod:`bnstudio.gui` wrap these objects and re-emit their events as signals; nothing here
imports Qt, pyqtgraph or matplotlib (a test imports every module with them blocked)."""
