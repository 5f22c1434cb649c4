"""The ``bnstudio`` command line; see :func:`bnstudio.cli.main.main` (in-process, returns the exit status) and
:func:`bnstudio.cli.main.run_program` (the program: runs and ends the process)."""
from bnstudio.cli.main import main, run_program

__all__ = ["main", "run_program"]
