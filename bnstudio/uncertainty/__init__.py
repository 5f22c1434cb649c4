"""How sure is p(q | e)? Dirichlet rows, the delta-method variance (Singh Theorem 2), normal and Beta
intervals, per-row contributions, one-way sensitivity curves, the tornado of every parameter, the bootstrap spread of a bagged ensemble and a
Monte-Carlo check."""
from bnstudio.uncertainty.bootstrap import BootstrapSpread, bootstrap_spread, ensemble_mismatch
from bnstudio.uncertainty.delta import QueryVariance, RowContribution, delta_method, query_cases
from bnstudio.uncertainty.dirichlet import NoDirichletCounts, dirichlet_counts, sample_parameters
from bnstudio.uncertainty.errorbars import ErrorBars, counting_statistics, error_bars
from bnstudio.uncertainty.intervals import FLAG_TEXT, Intervals, beta_moments, credible_intervals
from bnstudio.uncertainty.montecarlo import MonteCarloCheck, monte_carlo_check, query_samples
from bnstudio.uncertainty.sensitivity import (
                                              Sensitivity,
                                              covaried_rows,
                                              covaried_slope,
                                              query_response,
                                              row_index,
                                              sensitivity,
                                              state_position,
)
from bnstudio.uncertainty.tornado import Tornado, TornadoBar, tornado

__all__ = ["BootstrapSpread", "ErrorBars", "FLAG_TEXT", "Intervals", "MonteCarloCheck", "NoDirichletCounts",
           "QueryVariance", "RowContribution", "Sensitivity", "Tornado", "TornadoBar", "beta_moments", "bootstrap_spread",
           "counting_statistics", "covaried_rows", "covaried_slope", "credible_intervals", "delta_method",
           "dirichlet_counts", "ensemble_mismatch", "error_bars", "monte_carlo_check", "query_cases",
           "query_response", "query_samples", "row_index", "sample_parameters", "sensitivity", "state_position", "tornado"]
