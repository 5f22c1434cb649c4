"""Panels of the app opened on their own with demo data, for development and the tests; not part of the
shipped package (the app never imports them). Run from the repository root: ``python -m tests.demos.standalone
cpt_editor``, ``python -m tests.demos.query_panel [alarm]``, ``python -m tests.demos.training_panel [run]``, ..."""
