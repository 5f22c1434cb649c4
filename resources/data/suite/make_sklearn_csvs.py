"""Write scikit-learn's bundled classification data sets as CSV files for the ``defaults`` and ``zhou`` suites
(bnstudio/experiment/suite.py). scikit-learn is a test/benchmark yardstick, never a runtime dependency, so the
files are stored here; run ``.venv/bin/python resources/data/suite/make_sklearn_csvs.py`` to write them again.

iris (Fisher 1936), wine (Forina et al.), breast-wdbc (Wisconsin Diagnostic Breast Cancer, Street, Wolberg and
Mangasarian 1993) and digits (UCI optical recognition of handwritten digits, 8x8 test set) — all from the UCI
repository as packaged by scikit-learn (BSD licence). The class column is ``Class``.
"""
from __future__ import annotations

from pathlib import Path

from sklearn import datasets

LOADERS = {"iris": datasets.load_iris, "wine": datasets.load_wine, "breast-wdbc": datasets.load_breast_cancer,
           "digits": datasets.load_digits}


def main() -> None:
    folder = Path(__file__).resolve().parent
    for name, load in LOADERS.items():
        bunch = load(as_frame=True)
        frame = bunch.frame.rename(columns={"target": "Class"})
        frame.columns = [str(c).replace(" ", "_") for c in frame.columns]
        frame["Class"] = [f"c{int(v)}" for v in frame["Class"]]
        frame.to_csv(folder / f"{name}.csv", index=False)


if __name__ == "__main__":
    main()
