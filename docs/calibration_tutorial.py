"""The numbers and pictures of docs/tutorial-calibration.md: naive Bayes on the bundled CHILD data, fitted by
mean posterior (mp) and by conditional-likelihood gradient (clgd), 10-fold cross-validated with seed 1:

    .venv/bin/python docs/calibration_tutorial.py [--out DIR]

prints the table of the page and writes docs/tutorial-roc.png and docs/tutorial-reliability.png (every row's
held-out posterior, the folds pooled). Each method's row is what
``bnstudio evaluate NB.bif resources/data/child.csv --target Disease --folds 10 --method M --seed 1`` prints.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bnstudio.data.read import read_table  # noqa: E402
from bnstudio.evaluate.crossval import cross_validate_scored  # noqa: E402
from bnstudio.evaluate.metrics import Scored  # noqa: E402
from bnstudio.learn.structure.api import learn_structure  # noqa: E402

DATA = ROOT / "resources" / "data" / "child.csv"
TARGET, STATE, METHODS, FOLDS, SEED = "Disease", "TGA", ("mp", "clgd"), 10, 1
COLUMNS = ("error_rate", "cll", "brier", "auc", "ece")


def results() -> dict[str, tuple[dict, Scored]]:
    """Each method's cross-validation summary and its pooled held-out posteriors."""
    data = read_table(DATA)
    net = learn_structure("nb", data, target=TARGET).network
    return {m: cross_validate_scored(net, data, TARGET, m, {}, FOLDS, SEED) for m in METHODS}


def table(found: dict[str, tuple[dict, Scored]]) -> str:
    """The page's table: mean ± sd over the folds."""
    lines = ["| method | " + " | ".join(COLUMNS) + " |", "|---" * (len(COLUMNS) + 1) + "|"]
    for method, (summary, _) in found.items():
        cells = [f"{summary[k]:.4f} ± {summary[k + '_sd']:.4f}" for k in COLUMNS]
        lines.append(f"| NB + {method} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", type=Path, default=ROOT / "docs")
    out = parser.parse_args().out
    from bnstudio.figures import validation as figures

    found = results()
    print(table(found))
    shown = {m: scored.validation() for m, (_, scored) in found.items()}
    figures.roc([v.roc_series(f"NB + {m}", STATE) for m, v in shown.items()], out / "tutorial-roc",
                title=f"ROC of {TARGET} = {STATE}, 10-fold held-out")
    figures.reliability([v.reliability_series(f"NB + {m}") for m, v in shown.items()], out / "tutorial-reliability",
                        title=f"Reliability of {TARGET}, 10-fold held-out")
    for stem in ("tutorial-roc", "tutorial-reliability"):
        (out / f"{stem}.svg").unlink(missing_ok=True)   # the page shows the PNGs
    print(f"wrote {out / 'tutorial-roc.png'} and {out / 'tutorial-reliability.png'}")


if __name__ == "__main__":
    main()
