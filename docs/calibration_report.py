"""Render docs/report-calibration.png: the calibration figure of a study's report (one reliability diagram per
data set, every structure + method, the held-out rows of its folds pooled) and print the AUC and ECE tables.

The study: two bundled data sets (breast-wdbc, iris cut by MDL on each fold's training rows), naive Bayes
and TAN, each fitted generatively (mp) and discriminatively (clgd), 5-fold cross-validation::

    .venv/bin/python docs/calibration_report.py [FOLDER]

writes the study, its results file and its report into FOLDER (default: a temporary folder) and copies the
breast-wdbc figure to docs/report-calibration.png.
"""
from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bnstudio.experiment.executors import SerialExecutor  # noqa: E402
from bnstudio.experiment.html import cell_text  # noqa: E402
from bnstudio.experiment.runner import run_study  # noqa: E402
from bnstudio.experiment.spec import load_study  # noqa: E402
from bnstudio.figures.report import write_report  # noqa: E402

SUITE = ROOT / "resources" / "data" / "suite"
STUDY = f"""
name = "calibration"
folds = 5
structures = ["nb", "tan"]
methods = ["mp", "clgd"]
metrics = ["error", "cll", "brier", "auc", "ece"]

[[datasets]]
name = "breast-wdbc"
csv = "{(SUITE / 'breast-wdbc.csv').as_posix()}"
target = "Class"
discretise = {{method = "mdl"}}

[[datasets]]
name = "iris"
csv = "{(SUITE / 'iris.csv').as_posix()}"
target = "Class"
discretise = {{method = "mdl"}}
"""


def main(folder: Path, out: Path = ROOT / "docs" / "report-calibration.png") -> None:
    folder.mkdir(parents=True, exist_ok=True)
    study = folder / "calibration.toml"
    study.write_text(STUDY, encoding="utf-8")
    run_study(load_study(study), SerialExecutor())
    report = write_report(study.with_suffix(".sqlite"), folder / "calibration-report")
    for metric in ("error", "auc", "ece"):
        table = report.document["tables"][metric]
        print(f"{metric}: " + "  ".join(table["columns"]))
        for dataset in table["datasets"]:
            cells = [table["cells"].get(f"{dataset}|{s}|{m}") for s, m in table["pairs"]]
            print(f"  {dataset}: " + "  ".join(cell_text(c, metric) if c else "" for c in cells))
    [png] = [png for title, png, _ in report.figures if title.startswith("calibration: breast-wdbc")]
    shutil.copyfile(png, out)
    print("wrote", out)


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else Path(tempfile.mkdtemp(prefix="calibration-")))
