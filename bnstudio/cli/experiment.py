"""``bnstudio experiment STUDY.toml | --suite papers [--workers N | --scheduler URL | --dask-local N]``: run a
whole study — every (data set, structure, method, fold, seed) — on all local cores or a Dask cluster, resumably,
with a progress bar, then write its report (see docs/experiments.md)."""
from __future__ import annotations

import argparse
import contextlib
import gc
import os
import signal
import sys
import threading
import time
from typing import Any, Iterator

from bnstudio.cli import options as opt
from bnstudio.cli.common import print_json
from bnstudio.cli.data_source import add_connect_timeout, cluster_size
from bnstudio.errors import ValidationError

# bnstudio.experiment.suite.SUITES (kept light here for --help)
SUITES = ("papers", "singh-bagging", "ng-jordan", "defaults", "defaults-seeds", "path", "zhou")
BAR = 28


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Run a study over many data sets (resumable; all cores or a Dask cluster) and write its report."""
    parser.add_argument("study", nargs="?", type=opt.path, help="study file (.toml); results go to STUDY.sqlite")
    parser.add_argument("--suite", choices=SUITES, help="a built-in study instead of a file (papers: 8 data sets x "
                        "NB/TAN/KDB-1 x ml/mp/clgd/wanbia; singh-bagging: MP vs bagged MP on ALARM queries; "
                        "ng-jordan: NB mp vs clgd learning curve on wide 0/1 data; defaults: 24 data sets, "
                        "the evidence for clgd's L2 (defaults-seeds: over 3 seeds); zhou: Zhou's protocol "
                        "on four Table 4-2 rows)")
    parser.add_argument("--store", type=opt.path, help="the SQLite results file (default: next to the study "
                        "file; SUITE.sqlite in the current folder for a suite)")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--workers", type=opt.workers, help="local worker processes (default: every core; fewer "
                       "when other processes keep the cores busy: the summary says how many)")
    where.add_argument("--scheduler", type=opt.scheduler,
                       help="run on the Dask cluster at tcp://HOST:PORT (pip install 'bnstudio[cluster]')")
    where.add_argument("--dask-local", type=opt.workers, metavar="N",
                       help="start a local Dask cluster of N worker processes and run there")
    add_connect_timeout(parser)
    parser.add_argument("--max-tasks", type=opt.integer(1), metavar="N",
                        help="run at most N of the unfinished tasks, in the study's order (a quick look or a "
                        "check of an installation; the next run goes on with the rest, the report marks the "
                        "partial cells)")
    parser.add_argument("--report", type=opt.path, help="report folder (default: STUDY-report beside the results)")
    parser.add_argument("--no-report", action="store_true", help="do not write the report at the end")
    parser.add_argument("--json", action="store_true", help="print the run's summary as JSON")
    parser.add_argument("--status", action="store_true", help="run nothing: print the study's status and the CPU "
                        "accounting of its last run (workers, wall, task CPU, efficiency, where the rest went)")


class ProgressBar:
    """The study's reporter on stderr: ``[####....] 120/480 done 118 failed 2 running 2 ETA 3m12s``, redrawn in
    place on a terminal, a line every few seconds otherwise."""

    def __init__(self, stream: Any = None) -> None:
        self.stream = stream or sys.stderr
        self.tty = bool(getattr(self.stream, "isatty", lambda: False)())
        self.total, self.last, self.text = 0, 0.0, ""

    def begin(self, label: str, total: int | None) -> None:
        self.total = int(total or 0)

    def iteration(self, info: Any) -> bool:
        o = info.objectives
        finished = int(o["done"] + o["failed"])
        filled = BAR * finished // self.total if self.total else BAR
        eta = f"  ETA {'—' if o['eta'] < 0 else _duration(o['eta'])}"
        self.text = (f"[{'#' * filled}{'.' * (BAR - filled)}] {finished}/{self.total}  done {int(o['done'])}  "
                     f"failed {int(o['failed'])}  running {int(o['running'])}{eta}")
        now = time.monotonic()
        if self.tty:
            self.stream.write("\r" + self.text.ljust(96))
            self.stream.flush()
        elif now - self.last >= 5.0 or finished == self.total:
            self.last = now
            print(self.text, file=self.stream, flush=True)
        return False

    def end(self) -> None:
        if self.tty:
            self.stream.write("\n")
            self.stream.flush()


def _duration(seconds: float) -> str:
    seconds = int(round(seconds))
    if seconds < 60:
        return f"{seconds}s"
    if seconds < 3600:
        return f"{seconds // 60}m{seconds % 60:02d}s"
    return f"{seconds // 3600}h{seconds % 3600 // 60:02d}m"


def _executor(args: argparse.Namespace):
    if args.scheduler is not None or args.dask_local is not None:
        from bnstudio.experiment.dask_executor import DaskExecutor
        from bnstudio.experiment.dask_quiet import quiet_dask

        scheduler, workers = cluster_size(args)   # the scheduler answers; local workers fit the cores
        quiet_dask()                              # Dask's log lines and its workers' Ctrl+C tracebacks
        return DaskExecutor(scheduler, workers, args.connect_timeout)
    if args.connect_timeout is not None:
        raise ValidationError("--connect-timeout applies to --scheduler")
    from bnstudio.experiment.executors import LocalExecutor

    return LocalExecutor(args.workers)


def _accounting(store: Any):
    """The CPU accounting of the run just finished (:mod:`bnstudio.experiment.accounting`), None if it ran
    nothing."""
    from bnstudio.experiment.accounting import last_run_accounting
    from bnstudio.experiment.store import StudyStore

    with StudyStore(store, create=False) as opened:
        runs = opened.runs()
        if not runs or opened.accounting(runs[-1]["id"]) is None:
            return None
        return last_run_accounting(opened)


def _status(store: Any, as_json: bool) -> int:
    """``--status``: the study's status, task counts and its last run's CPU accounting (per worker too)."""
    from bnstudio.experiment.accounting import last_run_accounting
    from bnstudio.experiment.status import study_status
    from bnstudio.experiment.store import StudyStore

    with StudyStore(store, create=False) as opened:
        counts, state = opened.counts(), opened.state()
        accounting = last_run_accounting(opened)
    status = study_status(state, counts)
    if as_json:
        print_json({"store": str(store), "status": status, "counts": counts,
                    "accounting": None if accounting is None else accounting.to_json()})
        return 0
    print(f"{store}: {status}; tasks {counts['done']} done, {counts['failed']} failed, {counts['pending']} pending")
    if accounting is None:
        print("accounting: none recorded (no run of this version ran a task)")
    else:
        so_far = " so far" if status == "running" else " up to its last record (the run did not end)"
        print(f"accounting{so_far if accounting.partial else ''}: {accounting.line()}")
        for line in accounting.worker_lines():
            print(f"  {line}")
    return 0


@contextlib.contextmanager
def terminate_as_interrupt() -> Iterator[list[int]]:
    """SIGTERM (``kill PID``, a batch scheduler's or a service manager's stop) taken as Ctrl+C while the block
    runs: KeyboardInterrupt is raised in the main thread, so the study stops the way Ctrl+C stops it (its run
    recorded ``stopped`` with an end time, the workers and their forkserver shut down, multiprocessing's
    semaphores released). Python's default for SIGTERM is to die at once, leaving the run marked ``running``
    with no end and the resource tracker warning of leaked semaphores. Later SIGTERMs are ignored while the
    first one's clean-up runs; the list yielded holds the signal received (empty if none). The main thread
    only (elsewhere Python cannot install handlers: nothing changes)."""
    received: list[int] = []

    def handler(signum: int, frame: Any) -> None:
        if not received:
            received.append(signum)
            raise KeyboardInterrupt

    if threading.current_thread() is not threading.main_thread():
        yield received
        return
    previous = signal.signal(signal.SIGTERM, handler)
    try:
        yield received
    finally:
        signal.signal(signal.SIGTERM, previous)


def run(args: argparse.Namespace) -> int:
    """The command, with SIGTERM taken as Ctrl+C throughout (:func:`terminate_as_interrupt`); exit status 143
    (128 + SIGTERM) after a SIGTERM, 130 after Ctrl+C."""
    with terminate_as_interrupt() as received:
        try:
            return _run_command(args, received)
        except KeyboardInterrupt:
            if not received:
                raise       # Ctrl+C outside the study: the program's one line, status 130
            print("bnstudio: interrupted (SIGTERM)", file=sys.stderr)
            return 128 + signal.SIGTERM


def _run_command(args: argparse.Namespace, received: list[int]) -> int:
    if (args.study is None) == (args.suite is None):
        raise ValidationError("experiment: give a study file or --suite NAME (one of them)")
    if args.scheduler is None and args.dask_local is None and not args.status:
        from bnstudio.experiment.worker_start import start_forkserver  # standard library only
        start_forkserver()            # local workers' forkserver preloads while this process imports
    gc.disable()        # imports make long-lived objects only: collecting meanwhile costs ~10 % of them, frees none
    try:
        from bnstudio.experiment.runner import run_study

        if args.suite is not None:
            from bnstudio.experiment.suite import suite

            study = suite(args.suite)
        else:
            from bnstudio.experiment.spec import load_study

            study = load_study(args.study)
    finally:
        gc.enable()
    store = args.store or study.store_path()
    if args.status:
        return _status(store, args.json)
    bar = ProgressBar()
    try:
        summary = run_study(study, _executor(args), bar, store, args.max_tasks)
    except KeyboardInterrupt:
        bar.end()
        how = " (SIGTERM)" if received else ""
        print(f"bnstudio: interrupted{how}; every finished task is saved in {store}: run the same command again "
              "to resume", file=sys.stderr)
        return 128 + signal.SIGTERM if received else 130
    report = None
    if not args.no_report:
        from bnstudio.experiment.report import default_folder
        from bnstudio.figures.report import write_report

        report = write_report(summary.store, args.report or default_folder(summary.store),
                              workers=args.workers or os.cpu_count() or 1)
    accounting = _accounting(summary.store)
    if args.json:
        print_json({**summary.to_json(), "report": None if report is None else str(report.html),
                    "accounting": None if accounting is None else accounting.to_json()})
    else:
        print(f"{study.name}: {summary.total} tasks ({summary.skipped} done before, {summary.done} done now, "
              f"{summary.failed} failed) in {summary.seconds:.1f} s on {summary.executor} -> {summary.store}")
        left = summary.total - summary.skipped - summary.done - summary.failed
        if left:
            print(f"{left} task(s) left for the next run (--max-tasks)")
        if accounting is not None:
            print(f"accounting: {accounting.line()}")
        if report is not None:
            print(f"report: {report.html}")
    if summary.failed:
        print(f"bnstudio: error: {summary.failed} task(s) failed (listed in the report and in {summary.store}); "
              "running the study again retries them", file=sys.stderr)
        return 2
    return 0
