"""Typed option values for every subcommand: argparse ``type=`` functions that check the range at the parser.

A bad value stops the command before any file is read, as one line (``bnstudio: error: fit: argument --ess: must
be a finite number in [1e-06, 1e+09], got 'nan'``, exit 2). The learners and the other API functions validate
again (API boundary); these say it in the command line's terms.

Integers accept integral float notation (``-n 1e6``); every float must be finite. The bounds are:

* counts of draws, bags, iterations and search steps are capped (:data:`MAX_DRAWS`, ...): beyond them a run
  would not finish in any useful time, and the cap says so at once; so are local worker processes
  (:data:`MAX_WORKERS`), each of which holds a copy of the study's data;
* an equivalent sample size lies in [:data:`MIN_ESS`, :data:`MAX_ESS`]: below, ESS · θ underflows to zero
  counts for small θ; above, the prior fixes every parameter to double precision whatever the data, and a
  row of counts could overflow;
* an L2 penalty lies in [0, :data:`MAX_L2`] (a negative one rewards large weights);
* seeds are integers in [0, 2^64) (numpy's generators take non-negative seeds).
"""
from __future__ import annotations

import argparse
import math
from pathlib import Path
from typing import Callable

from bnstudio.learn.bounds import MAX_BAGS, MAX_ESS, MAX_ITER, MAX_L2, MIN_ESS  # the learners' own bounds

MAX_DRAWS = 100_000           # Monte-Carlo parameter draws (ALARM: about 10 s)
MAX_SEARCH_STEPS = 100_000    # tabu patience and random restarts of a structure search
MAX_POINTS = 10_001           # sensitivity grid points
MAX_SAMPLES = 100_000_000     # likelihood-weighting samples (munin: about 5 minutes)
MAX_SEED = 2**64 - 1
MAX_WORKERS = 1024             # local processes of a study or a report


def _number(text: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None


def _integer(text: str) -> int:
    try:
        return int(text.strip(), 10)
    except ValueError:
        pass
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and value.is_integer()):
        raise argparse.ArgumentTypeError(f"expected an integer, got {text!r}")
    return int(value)


def integer(low: int, high: int | None = None) -> Callable[[str], int]:
    """An integer in [low, high] (no upper bound when ``high`` is None)."""
    def parse(text: str) -> int:
        value = _integer(text)
        if value < low or (high is not None and value > high):
            span = f">= {low}" if high is None else f"in {low}..{high}"
            raise argparse.ArgumentTypeError(f"must be an integer {span}, got {text!r}")
        return value
    return parse


def real(low: float, high: float, low_open: bool = False, high_open: bool = False) -> Callable[[str], float]:
    """A finite number in the interval from ``low`` to ``high``, each end open or closed."""
    span = f"{'(' if low_open else '['}{low:g}, {high:g}{')' if high_open else ']'}"

    def parse(text: str) -> float:
        value = _number(text)
        inside = (value > low if low_open else value >= low) and (value < high if high_open else value <= high)
        if not (math.isfinite(value) and inside):
            raise argparse.ArgumentTypeError(f"must be a finite number in {span}, got {text!r}")
        return value
    return parse


def name(what: str) -> Callable[[str], str]:
    """A non-blank string (a variable name, a file name...), stripped."""
    def parse(text: str) -> str:
        if not text.strip():
            raise argparse.ArgumentTypeError(f"expected {what}, got an empty string")
        return text.strip()
    return parse


def existing_file(text: str) -> str:
    """The name of a file that exists (checked before anything slow starts, e.g. the GUI)."""
    file = Path(path(text))
    if file.is_dir():
        raise argparse.ArgumentTypeError(f"{text!r} is a folder, not a file")
    if not file.is_file():
        raise argparse.ArgumentTypeError(f"no such file: {text!r}")
    return str(file)


def scheduler(text: str) -> str:
    """A Dask scheduler address, ``tcp://HOST:PORT`` (bnstudio.experiment.scheduler.parse_address; standard
    library only); any other scheme, no port or a port outside 1..65535 is refused here, before any work."""
    from bnstudio.errors import ValidationError
    from bnstudio.experiment.scheduler import address_of

    try:
        return address_of(text)
    except ValidationError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


positive_int = integer(1)
workers = integer(1, MAX_WORKERS)
connect_timeout = real(0.0, 3600.0, low_open=True)   # seconds (bnstudio.experiment.scheduler.MAX_CONNECT_TIMEOUT)
non_negative_int = integer(0)
seed = integer(0, MAX_SEED)
ess = real(MIN_ESS, MAX_ESS)
l2 = real(0.0, MAX_L2)
probability = real(0.0, 1.0, low_open=True, high_open=True)      # a credible level
unit_interval = real(0.0, 1.0)                                   # a weight such as clgd's alpha
fraction = real(0.0, 1.0, high_open=True)                        # a share of cells left missing
draws = integer(0, MAX_DRAWS)
bags = integer(1, MAX_BAGS)
max_iter = integer(1, MAX_ITER)
search_steps = integer(0, MAX_SEARCH_STEPS)
points = integer(2, MAX_POINTS)
samples = integer(1, MAX_SAMPLES)
path = name("a file name")
variable = name("a variable name")
