"""docs/first-hour.ipynb runs from top to bottom in a real Jupyter kernel (nbclient + ipykernel) and shows
what it promises: the network drawn with beliefs, the fits side by side, the error bars (issue 28)."""
from __future__ import annotations

from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")

NOTEBOOK = Path(__file__).resolve().parents[2] / "docs" / "first-hour.ipynb"


@pytest.fixture(autouse=True)
def jupyter_files_stay_in_tmp(tmp_path, monkeypatch):
    """The kernel's connection file and IPython's profile (history database) go to the test's folder, not home."""
    monkeypatch.setenv("JUPYTER_RUNTIME_DIR", str(tmp_path / "jupyter-runtime"))
    monkeypatch.setenv("IPYTHONDIR", str(tmp_path / "ipython"))


def execute(path: Path = NOTEBOOK):
    """The notebook executed in a fresh python3 kernel with the docs folder as working directory."""
    nb = nbformat.read(path, as_version=4)
    nbclient.NotebookClient(nb, timeout=180, kernel_name="python3",
                            resources={"metadata": {"path": str(path.parent)}}).execute()
    return nb


def test_the_stored_notebook_has_no_outputs():
    nb = nbformat.read(NOTEBOOK, as_version=4)
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert code and all(not c.outputs and c.execution_count is None for c in code)


def test_the_first_hour_notebook_runs_and_shows_its_results():
    nb = execute()
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    results = [o.get("data", {}) for o in outputs if o.output_type == "execute_result"]
    assert "image/svg+xml" in results[0] and "<svg" in results[0]["text/html"]  # `net` draws itself
    html = "\n".join(r.get("text/html", "") for r in results)
    assert "polyline" in html and "clgd" in html              # convergence curve of the gradient fit
    assert "top variance sources" in html and "Beta" in html  # the analyst's error bars
    assert "True" in [r.get("text/plain") for r in results]   # identical tables after pgmpy
    assert "ROC of dysp" in html and "Reliability of dysp" in html     # the two fits compared (issue 37)
    assert any("{'l2':" in r.get("text/plain", "") for r in results)   # GridSearchCV over clgd's L2 (issue 39)
    assert not [o for o in outputs if o.output_type == "stream" and o.name == "stderr"]
