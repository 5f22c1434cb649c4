"""Exporting a large network's picture (issue 38: munin as PNG blocked the app 32–48 s, took 2.9 GB and wrote a
43,456 x 16,216 px file other tools refused). Opens the network offscreen in a 1366x768 main window as the app
does, then writes it as PNG (capped: ``bnstudio.gui.canvas.export``), SVG and PDF, printing the seconds of each
and the PNG's size; Pillow opening the PNG and reading its pixels is the "other tools open it" check.

    QT_QPA_PLATFORM=offscreen /usr/bin/time -v .venv/bin/python benchmarks/export_bench.py [NETWORK] [--png-only]

(the default network is munin from pgmpy's package data; /usr/bin/time -v gives the whole process's peak
memory, "Maximum resident set size").
"""
from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def munin() -> Path:
    import pgmpy

    return Path(pgmpy.__file__).parent / "utils" / "example_models" / "munin.bif.gz"


def main() -> None:
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication

    from bnstudio.gui import settings as cfg
    from bnstudio.gui.app import application
    from bnstudio.gui.canvas.export import export_pdf, export_png, export_svg
    from bnstudio.gui.main_window import MainWindow
    from bnstudio.gui.recovery import Recovery

    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    path = Path(args[0]) if args else munin()
    start = time.perf_counter()
    app = application()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        window = MainWindow(cfg.Settings(QSettings(str(folder / "s.ini"), QSettings.IniFormat)),
                            Recovery(folder / "r"))
        window.resize(1366, 768)
        window.show()
        assert window.open_path(path)
        window.view.open_view()
        app.processEvents()
        print(f"{path.name}: {len(window.scene.nodes)} nodes, opened in {time.perf_counter() - start:.2f} s")
        out = Path(os.environ.get("EXPORT_DIR", folder))
        t = time.perf_counter()
        size = export_png(window.scene, out / "network.png")
        png_s = time.perf_counter() - t
        print(f"PNG {size.width} x {size.height} px (scale {size.scale:.3f}, capped {size.capped}): {png_s:.2f} s, "
              f"{(out / 'network.png').stat().st_size / 1e6:.1f} MB")
        from PIL import Image

        with Image.open(out / "network.png") as image:
            image.load()
            print(f"Pillow opens it: {image.size[0]} x {image.size[1]} {image.mode}")
        if "--png-only" not in sys.argv:
            for name, writer in (("SVG", export_svg), ("PDF", export_pdf)):
                t = time.perf_counter()
                writer(window.scene, out / f"network.{name.lower()}")
                print(f"{name}: {time.perf_counter() - t:.2f} s, "
                      f"{(out / f'network.{name.lower()}').stat().st_size / 1e6:.1f} MB")
        window.document.mark_saved()
        window.close()
        QApplication.processEvents()


if __name__ == "__main__":
    main()
