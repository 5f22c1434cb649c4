"""BIF (Interchange Format for Bayesian networks): the token-by-token reader, its bulk fast path and the writer."""
