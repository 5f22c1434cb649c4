"""The ``bnstudio`` command line; see :func:`bnstudio.cli.main.main`."""
from bnstudio.cli.main import main

__all__ = ["main"]
