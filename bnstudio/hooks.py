"""What the lower layers ask of the higher ones, with the dependency inverted (docs/architecture.md §1).

A network draws itself in a notebook and a learner accepts a pandas DataFrame, but the drawings live in
:mod:`bnstudio.display` and table coding in :mod:`bnstudio.data`, both above the core and the learners. So the
lower layer calls a :class:`Hook` declared here, in the lowest layer; the higher module provides the function
when it is imported, and the package facade (``bnstudio/__init__.py``, above both) tells each hook which module
to import on its first call. Nothing is imported until a hook is called: ``import bnstudio`` stays light.

>>> double = Hook("doubling")
>>> double.load_with(lambda: double.provide(lambda x: 2 * x))
>>> double(21)
42
"""
from __future__ import annotations

from typing import Any, Callable


class Hook:
    """A function called below and provided above: :meth:`provide` sets it, :meth:`load_with` names what to
    run (an import of the providing module) when it is called before it was provided."""

    def __init__(self, name: str) -> None:
        self.name = name
        self._function: Callable[..., Any] | None = None
        self._loader: Callable[[], object] | None = None

    def provide(self, function: Callable[..., Any]) -> None:
        """The function this hook calls (set by the higher module, when it is imported)."""
        self._function = function

    def load_with(self, loader: Callable[[], object]) -> None:
        """What to run on the first call if nothing provided the function yet (set by the package facade)."""
        self._loader = loader

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if self._function is None and self._loader is not None:
            self._loader()
        if self._function is None:
            raise RuntimeError(f"nothing provides {self.name} (bnstudio/__init__.py sets it up on import)")
        return self._function(*args, **kwargs)

    def __repr__(self) -> str:
        return f"<Hook {self.name}: {'provided' if self._function is not None else 'not provided yet'}>"


# -- notebooks: bnstudio.display.notebook provides the drawings ------------------------------------------------------

#: Network -> {"text/html": ..., "image/svg+xml": ...}: the app's drawing with beliefs (``Network._repr_mimebundle_``)
network_bundle = Hook("a network's notebook drawing")
#: Network -> SVG text (``Network._repr_svg_``)
network_svg = Hook("a network's SVG drawing")
#: FitResult -> HTML: scores and the convergence curve (``FitResult._repr_html_``)
fit_html = Hook("a parameter fit's notebook table")
#: ErrorBars -> HTML: the intervals and the largest contributions (``ErrorBars._repr_html_``)
error_bars_html = Hook("error bars' notebook table")
#: Tornado -> HTML: the tornado chart (``Tornado._repr_html_``)
tornado_html = Hook("a tornado chart")
#: Explanations / MapExplanation -> HTML: each assignment with its probability (``_repr_html_``)
explanations_html = Hook("explanations' notebook table")
#: Posterior -> HTML: each state with its bar and probability (``Posterior._repr_html_``)
posterior_html = Hook("a labelled posterior's notebook table")
NOTEBOOK = (network_bundle, network_svg, fit_html, error_bars_html, tornado_html, explanations_html,
            posterior_html)

# -- tables: bnstudio.data.tables codes DataFrames, Datasets and files ---------------------------------------------------

#: (net, data, weights) -> (codes, weights) aligned to ``net``; codes are returned as given (the learners' tables)
table_codes = Hook("coding a table for a network")
#: data -> (codes, column names, states) of a table (the structure learners' tables)
table_columns = Hook("coding a table for a structure learner")
TABLES = (table_codes, table_columns)
