"""The files BN Studio ships with, installed as the package ``bnstudio._resources`` (pyproject.toml maps this
folder there); read them through :mod:`bnstudio.resources`, never by a path relative to the code."""
