"""Entry point of the windowed ``bnstudio-gui`` program of a packaged build: the app on FILE, or on the
bundled ALARM example. ``multiprocessing.freeze_support()`` first: the program is also the executable of the
worker processes a study started from the app runs on (see bnstudio_cli.py)."""
import multiprocessing
import sys

if __name__ == "__main__":
    multiprocessing.freeze_support()
    from bnstudio.gui.app import run
    from bnstudio.resources import bundled_example

    sys.exit(run(sys.argv[1] if len(sys.argv) > 1 else bundled_example("alarm.bif")))
