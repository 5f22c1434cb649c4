"""Entry point of the console ``bnstudio`` program of a packaged build: the command line, and the app when no
subcommand is given.

A frozen program is also the executable of its own worker processes: a study's forkserver and multiprocessing's
resource tracker are started as ``bnstudio -c 'from multiprocessing.forkserver import main; ...'`` (``spawn``
workers with ``--multiprocessing-fork``). ``multiprocessing.freeze_support()`` (extended by PyInstaller's
runtime hook to the forkserver and the resource tracker) runs those and exits, so it comes first, before the
command line sees the arguments."""
import multiprocessing

if __name__ == "__main__":
    multiprocessing.freeze_support()
    from bnstudio.cli import run_program

    run_program()
