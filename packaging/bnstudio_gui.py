"""Entry point of the windowed ``bnstudio-gui`` program of a packaged build: the app on FILE, or on the
bundled ALARM example."""
import sys

from bnstudio.gui.app import bundled_example, run

if __name__ == "__main__":
    sys.exit(run(sys.argv[1] if len(sys.argv) > 1 else bundled_example("alarm.bif")))
