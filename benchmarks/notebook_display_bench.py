"""How long a notebook waits for a network's drawing (issue 28: ALARM well under 2 s): read, lay out (file
positions dropped, so the layered layout runs), one calibration for the beliefs, the SVG.

    .venv/bin/python benchmarks/notebook_display_bench.py
"""
from __future__ import annotations

import time
from pathlib import Path

from bnstudio.display.notebook import show
from bnstudio.io import read_network

NETWORKS = Path(__file__).resolve().parents[1] / "resources" / "networks"

if __name__ == "__main__":
    for name in ("asia", "alarm", "insurance", "child"):
        net = read_network(NETWORKS / f"{name}.bif")
        net.positions.clear()
        start = time.perf_counter()
        shown = show(net)
        print(f"{name:10s} {len(net):4d} variables  {time.perf_counter() - start:6.3f} s  "
              f"{len(shown.svg) / 1e3:6.1f} kB of SVG")
