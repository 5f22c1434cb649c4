"""The deprecated aliases removed in issue 41 stay removed (docs/architecture.md §1): projects are
:mod:`bnstudio.io.project` and the one chunking policy is :mod:`bnstudio.inference.batching`."""
import importlib
import sys

import pytest


@pytest.mark.parametrize("module", ["bnstudio.project", "bnstudio.project.store", "bnstudio.learn.batches"])
def test_an_old_module_path_is_gone(module, monkeypatch):
    # bnstudio is imported already, so its submodules are found on its __path__; an editable install's finder
    # (setuptools) would map them to the installed checkout instead, which is another tree in a git worktree
    monkeypatch.setattr(sys, "meta_path", [f for f in sys.meta_path
                                           if "Editable" not in getattr(f, "__name__", type(f).__name__)])
    for name in ("bnstudio.project", "bnstudio.project.store", "bnstudio.learn.batches"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    with pytest.raises(ImportError):
        importlib.import_module(module)


def test_the_project_names_live_in_io():
    from bnstudio.io import project

    assert project.load_project.__module__ == "bnstudio.io.project.store"
    assert {"load_project", "save_project", "Project", "ProjectFormatError"} <= set(project.__all__)
