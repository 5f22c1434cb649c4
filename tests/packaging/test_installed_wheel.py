"""Installed, not only cloned (docs/architecture.md §1, ``bnstudio.resources``): the wheel built from this
checkout, installed into a fresh virtual environment outside the repository, runs a bundled example, the first
task of the built-in suites and a report on it, and opens the app on ALARM (offscreen).

The fresh environment gets only the wheel (pip, no index: nothing is downloaded); the libraries BN Studio needs
are those of this test's environment, put on its path by a ``.pth`` line. A path line adds the folder without
running the ``.pth`` files in it, so this checkout's editable install is not seen there, which the test checks.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
#: what building the wheel needs from the checkout
SOURCES = ("bnstudio", "resources", "docs", "pyproject.toml", "setup.py", "README.md", "LICENSE")
#: the app on the bundled ALARM example (``bnstudio`` without a subcommand), asked what it shows and closed
APP_CHECK = textwrap.dedent("""
    import sys
    import bnstudio.gui.app as app
    from PySide6.QtCore import QTimer

    opened = app.open_window

    def open_window(path=None, recovery=True):
        window = opened(path, recovery=False)

        def report():
            print("path", path)
            print("variables", len(window.document.network.variables))
            print("data", getattr(window, "pending_example_data", None))
            app.QApplication.instance().quit()

        QTimer.singleShot(300, report)
        return window

    app.open_window = open_window
    from bnstudio.cli import main
    sys.exit(main([]))
""")

pytestmark = pytest.mark.slow


def _build_wheel(tmp: Path) -> Path:
    """The wheel of a copy of this checkout (so the build writes nothing here), built offline with this
    environment's setuptools."""
    source = tmp / "source"
    source.mkdir()
    for name in SOURCES:
        if not (ROOT / name).exists():      # the test checks what the wheel lacks
            continue
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, source / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(ROOT / name, source / name)
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index",
                    "-q", "-w", str(tmp / "dist"), str(source)], check=True, capture_output=True, cwd=tmp)
    (wheel,) = (tmp / "dist").glob("bnstudio-*.whl")
    return wheel


def _fresh_venv(tmp: Path, wheel: Path) -> Path:
    """A new virtual environment with the wheel installed and this environment's libraries on its path."""
    venv = tmp / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, cwd=tmp)
    python = venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps", "--no-index",
                    "-q", str(wheel)], check=True, capture_output=True, cwd=tmp)
    site = subprocess.run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          check=True, capture_output=True, text=True).stdout.strip()
    ours = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
    (Path(site) / "_test_libraries.pth").write_text("".join(f"{p}\n" for p in sorted(ours)))
    return venv


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("wheel")
    venv = _fresh_venv(tmp, _build_wheel(tmp))
    work = tmp / "work"          # the commands' current folder, outside the repository
    work.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    env.update(QT_QPA_PLATFORM="offscreen", HOME=str(tmp), XDG_CONFIG_HOME=str(tmp / "config"),
               XDG_DATA_HOME=str(tmp / "data"), XDG_CACHE_HOME=str(tmp / "cache"))
    bin_dir = venv / ("Scripts" if os.name == "nt" else "bin")

    def run(program: str, *args: str, timeout: float = 60) -> subprocess.CompletedProcess:
        done = subprocess.run([str(bin_dir / program), *args], cwd=work, env=env, capture_output=True, text=True,
                              timeout=timeout)
        assert done.returncode == 0, f"{program} {' '.join(args)}: {done.returncode}\n{done.stdout}\n{done.stderr}"
        return done

    return venv, work, run


def test_the_installed_package_is_the_wheel_with_its_data(installed):
    venv, _, run = installed
    out = run("python", "-c", "import bnstudio, bnstudio.resources as r; print(bnstudio.__file__); "
              "print(r.bundled_example('alarm.bif'))").stdout.splitlines()
    package, alarm = Path(out[0]), Path(out[1])
    assert package.is_relative_to(venv) and alarm.is_relative_to(venv) and alarm.is_file()
    site = package.parents[1]
    assert (site / "bnstudio" / "py.typed").is_file()
    assert list(site.glob("bnstudio-*.dist-info/licenses/LICENSE"))
    info = json.loads(run("bnstudio", "info", str(alarm), "--json").stdout)
    assert len(info["variables"]) == 37
    manual = Path(run("python", "-c", "import bnstudio.resources as r; print(r.manual_page('gui.md'))").stdout.strip())
    assert manual.is_relative_to(venv) and manual.is_file()       # Help ▸ Manual works offline, installed
    assert {p.name for p in manual.parent.glob("*.md")} == {p.name for p in (ROOT / "docs").glob("*.md")}
    assert (manual.parent / "screenshot-appearance-dark.png").is_file()   # with the pictures the pages show


def test_the_installed_wheel_filters_the_bundled_hmm(installed):
    """The dynamic examples (resources/networks/temporal) are package data: the umbrella HMM and its evidence."""
    _, _, run = installed
    out = run("python", "-c", "import bnstudio.resources as r; print(r.bundled_example('temporal/umbrella.bif')); "
              "print(r.bundled_example('temporal/umbrella.csv'))").stdout.splitlines()
    answer = json.loads(run("bnstudio", "query", out[0], "--smooth", out[1], "--target", "Rain", "--json").stdout)
    smoothed = [row[0] for row in answer["results"][0]["beliefs"]["Rain"]["probabilities"]]
    assert [round(p, 3) for p in smoothed] == [0.867, 0.820, 0.307, 0.820, 0.867]


@pytest.mark.parametrize("name", ["zhou", "papers", "defaults"])
def test_a_suite_runs_its_first_task_from_the_bundled_data(installed, name):
    _, work, run = installed
    out = json.loads(run("bnstudio", "experiment", "--suite", name, "--max-tasks", "1", "--workers", "1",
                         "--no-report", "--json").stdout)
    assert out["done"] == 1 and out["failed"] == 0 and out["total"] > 1
    if name == "zhou":
        report = json.loads(run("bnstudio", "report", out["store"], "--json").stdout)
        assert (work / report["html"]).is_file()


def test_the_app_opens_on_the_bundled_alarm(installed):
    venv, _, run = installed
    out = run("python", "-c", APP_CHECK).stdout
    lines = dict(line.split(" ", 1) for line in out.splitlines() if " " in line)
    assert Path(lines["path"]).is_relative_to(venv) and Path(lines["path"]).name == "alarm.bif"
    assert lines["variables"] == "37"
    assert lines["data"].endswith("alarm.csv") and Path(lines["data"]).is_relative_to(venv)
