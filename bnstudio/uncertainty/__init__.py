"""How sure is p(q | e)? Dirichlet rows, the delta-method variance (Singh Theorem 2), normal and Beta
intervals, per-row contributions, sensitivities and a Monte-Carlo check."""
from bnstudio.uncertainty.delta import QueryVariance, RowContribution, delta_method
from bnstudio.uncertainty.dirichlet import NoDirichletCounts, dirichlet_counts, sample_parameters
from bnstudio.uncertainty.errorbars import ErrorBars, counting_statistics, error_bars
from bnstudio.uncertainty.intervals import FLAG_TEXT, Intervals, beta_moments, credible_intervals
from bnstudio.uncertainty.montecarlo import MonteCarloCheck, monte_carlo_check, query_samples

__all__ = ["ErrorBars", "FLAG_TEXT", "Intervals", "MonteCarloCheck", "NoDirichletCounts", "QueryVariance",
           "RowContribution", "beta_moments", "counting_statistics", "credible_intervals", "delta_method",
           "dirichlet_counts", "error_bars", "monte_carlo_check", "query_samples", "sample_parameters"]
