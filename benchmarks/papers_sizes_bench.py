"""The ``papers`` suite at several sample sizes and replicates: does the papers' direction (discriminative beats
generative parameters on the same structure) depend on how much data the network samples have?

    .venv/bin/python benchmarks/papers_sizes_bench.py [--rows 1000 5000] [--replicates 4] [--workers 2]

For each size and replicate the whole suite runs through ``run_study`` (the command's own path, default
options): replicate 0 draws the suite's samples, replicate r > 0 fresh samples (data seeds + 1000 r) with the
suite's folds. mofn-3-7-10 and corral keep Zhou's sizes (300 and 128 rows) at every size; only the six network
samples change. Prints, per size, clgd and wanbia against mp on each structure: wins/draws/losses over the 8
data sets with the two-sided Wilcoxon p and the mean difference of each replicate, then pooled over the
replicates (8 x R data-set pairs). Zhou §4.2 Figure 4.7 measures CLGD against LM over sample sizes on CHESS;
§4.2.2 expects CLGD's gain to shrink as the structure gets closer to the truth, which it does at small n.
"""
from __future__ import annotations

import argparse
import dataclasses
import tempfile
import time
from pathlib import Path

STRUCTURES = ("nb", "tan", "kdb-1")
METHODS = ("clgd", "wanbia")


def run(rows: int, replicate: int, workers: int, folder: Path) -> list[dict]:
    """The suite's rows at ``rows`` network samples, replicate ``replicate``; the store's rows."""
    from bnstudio.experiment.executors import LocalExecutor
    from bnstudio.experiment.runner import run_study
    from bnstudio.experiment.store import StudyStore
    from bnstudio.experiment.suite import papers_suite

    study = papers_suite(rows=rows)
    if replicate:
        study = dataclasses.replace(study, datasets=[dataclasses.replace(d, seed=d.seed + 1000 * replicate)
                                                     for d in study.datasets])
    path = folder / f"papers-{rows}-{replicate}.sqlite"
    run_study(study, LocalExecutor(workers), store_path=path)
    with StudyStore(path, create=False) as store:
        return list(store.rows())


def main() -> None:
    from bnstudio.experiment import summary

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, nargs="+", default=[1000, 5000], help="network sample sizes")
    parser.add_argument("--replicates", type=int, default=4)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        for rows in args.rows:
            pooled: dict[tuple[str, str, str], tuple[list[float], list[float]]] = {}
            start = time.perf_counter()
            for replicate in range(args.replicates):
                stored = run(rows, replicate, args.workers, Path(tmp))
                for metric in ("error", "cll"):
                    table = summary.cells(stored, metric)
                    for c in summary.comparisons(stored, metric, STRUCTURES, METHODS, "mp"):
                        print(f"n={rows:<6} replicate {replicate}  {metric:5} {c.structure:5} {c.method:6} vs mp  "
                              f"{c.wins}/{c.draws}/{c.losses}  p={c.wilcoxon_p:.3f}  "
                              f"mean difference {c.mean_difference:+.4f}")
                        a, b = pooled.setdefault((metric, c.structure, c.method), ([], []))
                        for (dataset, structure, method), cell in table.items():
                            if structure == c.structure and method == c.method:
                                a.append(cell.mean)
                                b.append(table[dataset, structure, "mp"].mean)
            print(f"n={rows}: {args.replicates} replicates in {time.perf_counter() - start:.0f} s; pooled "
                  f"({8 * args.replicates} data-set pairs):")
            for (metric, structure, method), (a, b) in pooled.items():
                c = summary.paired_comparison(a, b, metric)
                print(f"  pooled n={rows:<6} {metric:5} {structure:5} {method:6} vs mp  {c.wins}/{c.draws}/{c.losses}"
                      f"  p={c.wilcoxon_p:.4f}  mean difference {c.mean_difference:+.4f}", flush=True)


if __name__ == "__main__":
    main()
