"""Labelled answers: p(X | e) as a mapping from X's state names to probabilities (``InferenceEngine.query``).

:meth:`~bnstudio.inference.InferenceEngine.posterior` keeps returning bare arrays for speed;
:class:`Posterior` is the same numbers with their labels: ``answer["yes"]``, ``dict(answer)``,
``answer.values`` (the array, in state order), ``answer.to_frame()`` (pandas, imported only then) and a
notebook table (``_repr_html_``, drawn by :mod:`bnstudio.display`).

>>> answer = Posterior("Rain", ("no", "yes"), np.array([0.25, 0.75]), {"Grass": "wet"})
>>> answer["yes"], answer.mode, answer
(0.75, 'yes', Posterior(Rain | Grass=wet: no 0.25, yes 0.75))
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Iterator, Mapping

import numpy as np

from bnstudio import hooks
from bnstudio.core.messages import listing, shorten
from bnstudio.errors import UnknownStateError

if TYPE_CHECKING:
    import pandas as pd


@dataclass(frozen=True, eq=False)
class Posterior:
    """p(``variable`` | ``evidence``) over ``states``, read-only and dict-like: ``answer[state]``, ``keys()``
    (the states), ``items()``, ``get``, ``in``, ``dict(answer)``.

    ``values`` is the (|X|,) array in state order (read-only), as a pandas Series' ``values`` (so, unlike a
    ``dict``, ``values`` is not a method); ``np.asarray(answer)`` gives it too.
    """

    variable: str
    states: tuple[str, ...]
    values: np.ndarray
    evidence: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        values = np.array(self.values, dtype=float)
        if values.shape != (len(self.states),):
            raise ValueError(f"{len(self.states)} states but {values.shape} probabilities for '{self.variable}'")
        values.setflags(write=False)
        object.__setattr__(self, "values", values)
        object.__setattr__(self, "states", tuple(self.states))
        object.__setattr__(self, "evidence", dict(self.evidence))

    def __getitem__(self, state: str) -> float:
        try:
            return float(self.values[self.states.index(state)])
        except ValueError:
            raise UnknownStateError(f"'{self.variable}' has no state {shorten(repr(state))}; its states: "
                                    f"{listing(self.states)}") from None

    def __iter__(self) -> Iterator[str]:
        return iter(self.states)

    def __len__(self) -> int:
        return len(self.states)

    def __contains__(self, state: object) -> bool:
        return state in self.states

    def keys(self) -> tuple[str, ...]:
        """The states, in order."""
        return self.states

    def items(self) -> list[tuple[str, float]]:
        """(state, probability) pairs, in state order."""
        return [(s, float(p)) for s, p in zip(self.states, self.values, strict=True)]

    def get(self, state: str, default: Any = None) -> Any:
        """p(``state``), or ``default`` for a name that is not a state."""
        return self[state] if state in self.states else default

    def __array__(self, dtype: Any = None, copy: bool | None = None) -> np.ndarray:
        return np.array(self.values, dtype=dtype)

    @property
    def mode(self) -> str:
        """The most probable state (the first in state order on a tie)."""
        return self.states[int(np.argmax(self.values))]

    def to_frame(self) -> pd.DataFrame:
        """A one-column DataFrame ``probability`` indexed by the states (index named after the variable)."""
        import pandas as pd

        return pd.DataFrame({"probability": self.values}, index=pd.Index(self.states, name=self.variable))

    def to_json(self) -> dict[str, Any]:
        """{"variable", "states", "probabilities"} (what ``--json`` would print)."""
        return {"variable": self.variable, "states": list(self.states), "probabilities": self.values.tolist()}

    def _repr_html_(self) -> str:
        """Notebooks: each state with its bar and probability (:data:`bnstudio.hooks.posterior_html`)."""
        return hooks.posterior_html(self)

    def __repr__(self) -> str:
        given = ", ".join(f"{k}={_short(v)}" for k, v in self.evidence.items())
        cells = ", ".join(f"{s} {p:.4g}" for s, p in zip(self.states, self.values, strict=True))
        return f"Posterior({self.variable}{' | ' + given if given else ''}: {cells})"


def _short(value: Any) -> str:
    """A finding as text: a state as it is, a likelihood vector as its numbers."""
    if isinstance(value, (str, int, np.integer)):
        return str(value)
    return "[" + ", ".join(f"{float(x):.3g}" for x in np.ravel(value)) + "]"
