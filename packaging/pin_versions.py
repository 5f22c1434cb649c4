"""Write packaging/constraints.txt from the environment of the Python that runs this script (``make upgrade``
runs it with the upgrade venv's Python, after the whole suite passed there): every installed distribution at
its exact version, BN Studio itself and the build tools (setuptools, wheel) left out."""
from __future__ import annotations

import datetime
import platform
import subprocess
import sys
from pathlib import Path

PINS = Path(__file__).resolve().parent / "constraints.txt"
LEFT_OUT = {"setuptools", "wheel"}
HEADER = """\
# Exact versions 'make run', 'make test' and CI install (pip -c): the set the whole suite last passed with.
# Written by 'make upgrade' (Python {python}, {day}) only after the suite passed; do not edit by hand.
# pyproject.toml keeps the supported ranges for 'pip install bnstudio' into your own environment.
"""


def pinned_lines() -> list[str]:
    """``name==version`` for every distribution pip sees here, in pip's order."""
    frozen = subprocess.run([sys.executable, "-m", "pip", "freeze", "--all", "--exclude-editable"],
                            capture_output=True, text=True, check=True).stdout.splitlines()
    return [line for line in frozen if "==" in line and line.split("==")[0].lower() not in LEFT_OUT]


def main() -> None:
    lines = pinned_lines()
    if not any(line.lower().startswith("scipy==") for line in lines):
        sys.exit("pin_versions: this environment has no scipy; run it with the upgrade venv's Python")
    text = HEADER.format(python=platform.python_version(), day=datetime.date.today().isoformat())
    PINS.write_text(text + "\n".join(lines) + "\n")
    print(f"{PINS}: {len(lines)} pins")


if __name__ == "__main__":
    main()
