"""``python -m bnstudio`` is the ``bnstudio`` command."""
from bnstudio.cli import run_program

run_program()
