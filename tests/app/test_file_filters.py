"""The Open and Save dialogs' filters (bnstudio/app/file_io.py): every extension once, the project first,
though bnstudio.io registers the project format too."""
from __future__ import annotations

import re

import pytest

from bnstudio.app import file_io
from bnstudio.io import FORMATS


def _entries(filters: str) -> list[list[str]]:
    """The extensions of each ``;;``-separated entry."""
    return [re.findall(r"\*(\.[\w.]+)", entry) for entry in filters.split(";;")]


@pytest.mark.parametrize("kind", ["open", "save"])
def test_the_project_format_is_offered_once_and_first(kind):
    assert file_io.PROJECT_EXTENSION in FORMATS      # the registry lists it: the filters must not repeat it
    entries = _entries(file_io.open_filters() if kind == "open" else file_io.save_filters())
    formats = [e for e in entries if e][1:] if kind == "open" else entries   # open: "All supported files" first
    named = [ext for entry in formats for ext in entry]
    assert formats[0] == [file_io.PROJECT_EXTENSION]
    assert len(named) == len(set(named)), named


def test_all_supported_files_names_each_extension_once():
    every = _entries(file_io.open_filters())[0]
    assert len(every) == len(set(every)), every
    assert set(every) == set(FORMATS) | {file_io.DIAGRAM_EXTENSION}
