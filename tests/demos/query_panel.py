"""Open the query panel on its own with demo data: ``python -m tests.demos.query_panel [alarm]``.

The demo network is a bundled example whose parameters are learned with ``mp`` from the bundled sample data,
so it carries Dirichlet counts and error bars are defined.
"""
from __future__ import annotations

import sys
import warnings

from bnstudio.app.resources import bundled_example, resource_root
from bnstudio.core.network import Network


def fitted_example(name: str = "asia", method: str = "mp", **options) -> tuple[Network, object]:
    """The bundled network ``name`` with parameters learned by ``method`` from ``resources/data/NAME.csv``;
    returns (network, fit result)."""
    from bnstudio.data import BNStudioDataWarning, align, read_csv
    from bnstudio.gui.canvas.arrange import fill_missing_positions
    from bnstudio.io import read_network
    from bnstudio.learn.params import make_learner

    net = read_network(bundled_example(f"{name}.bif"))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", BNStudioDataWarning)
        data = align(read_csv(resource_root() / "data" / f"{name}.csv"), net)
    result = make_learner(method, **options).fit(net, data.codes)
    fitted = result.network(net)
    fill_missing_positions(fitted)
    return fitted, result


def demo_panel(name: str = "asia"):
    """A :class:`QueryPanel` on a fitted example, with a first query (the document is kept on the panel)."""
    from bnstudio.gui.document import Document
    from bnstudio.gui.query_panel import QueryPanel

    net, _ = fitted_example(name)
    doc = Document(net)
    panel = QueryPanel(doc)
    panel.demo_document = doc
    if name == "asia":
        doc.set_evidence("xray", "yes")
        doc.set_evidence("smoke", "yes")
        panel.set_target({"lung": "yes"})
    panel.setWindowTitle("BN Studio — query")
    return panel


def render_screenshot(out, size: tuple[int, int] = (1280, 760), mc_draws: int = 4000):
    """ALARM (mp from the bundled data) with canvas evidence, error bars, a Monte-Carlo check and saved
    queries, saved as a PNG at ``out`` (for docs/screenshot-query-panel.png)."""
    from pathlib import Path

    from PySide6.QtCore import QEventLoop, QTimer

    from bnstudio.gui.app import application

    app = application()
    panel = demo_panel("alarm")
    doc = panel.demo_document
    for name, state in {"HRBP": "HIGH", "SAO2": "LOW", "CVP": "HIGH"}.items():
        doc.set_evidence(name, state)
    for target in ({"LVFAILURE": "TRUE"}, {"PULMEMBOLUS": "TRUE"}, {"HYPOVOLEMIA": "TRUE", "LVFAILURE": "FALSE"}):
        panel.set_target(target)
        panel.save_current_query()
    panel.set_target({"HYPOVOLEMIA": "TRUE"})
    panel.resize(*size)
    panel.show()
    loop = QEventLoop()
    panel.monte_carlo_done.connect(lambda _result: loop.quit())
    if panel.run_monte_carlo(mc_draws, seed=1) is not None:
        QTimer.singleShot(60000, loop.quit)
        loop.exec()
    for _ in range(5):
        app.processEvents()
    path = Path(out)
    panel.grab().save(str(path))
    panel.close()
    return path


def main(argv: list[str] | None = None) -> int:  # pragma: no cover - interactive
    from bnstudio.gui.app import application

    argv = sys.argv[1:] if argv is None else argv
    app = application()
    panel = demo_panel(argv[0] if argv else "asia")
    panel.resize(1100, 650)
    panel.show()
    return app.exec()


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
