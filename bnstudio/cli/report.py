"""``bnstudio report STUDY.sqlite [-o FOLDER] [--workers N] [--json]``: the tables (CSV, JSON), figures (PNG, SVG) and HTML page
of a study's results."""
from __future__ import annotations

import argparse
import os

from bnstudio.cli import options as opt
from bnstudio.cli.common import print_json


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Write the report of a study: Table 4-2 style tables (AUC and ECE included), paired tests, scatter,
    convergence and calibration plots, HTML."""
    parser.add_argument("store", type=opt.existing_file, help="the study's results file (STUDY.sqlite)")
    parser.add_argument("-o", "--output", type=opt.path, help="report folder (default: STUDY-report beside it)")
    parser.add_argument("--workers", type=opt.workers,
                        help="processes drawing the figures (default: every core)")
    parser.add_argument("--json", action="store_true", help="print where the files went as JSON")


def run(args: argparse.Namespace) -> int:
    from bnstudio.experiment.worker_start import start_forkserver  # standard library only

    workers = args.workers or os.cpu_count() or 1
    if workers > 1:
        start_forkserver()      # the figure workers' server starts while this process imports and tabulates
    from bnstudio.experiment.report import default_folder
    from bnstudio.figures.report import write_report

    # the folder named, so that a failed write names it too (never "None: cannot write the report")
    report = write_report(args.store, args.output or default_folder(args.store), workers=workers)
    if args.json:
        print_json({"html": str(report.html), "json": str(report.json), "tables": [str(p) for p in report.tables],
                    "figures": [{"title": t, "png": str(png), "svg": str(svg)} for t, png, svg in report.figures]})
    else:
        print(f"report: {report.html} ({len(report.tables)} tables, {len(report.figures)} figures)")
    return 0
