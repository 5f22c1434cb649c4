"""Where ``bnstudio fit`` reads its data: streamed a piece at a time for ``ml``, ``mp`` and ``em`` (CSV, Parquet, a
folder of parts; optionally on a Dask cluster), otherwise every row in memory. Light at import: the readers and
dask are imported when used."""
from __future__ import annotations

import argparse
import contextlib
from pathlib import Path
from typing import Any, Iterator

from bnstudio.cli import options as opt
from bnstudio.errors import ValidationError

#: methods whose sufficient statistics are summed over pieces (bnstudio/learn/params/streamed.py)
STREAMED_METHODS = ("ml", "mp", "em")
STREAMED_SUFFIXES = (".csv", ".txt", ".tsv", ".tab", ".parquet", ".arrow", ".feather")   # data.parts.PART_SUFFIXES


def add_cluster_options(parser: argparse.ArgumentParser) -> None:
    """``--dask-local N`` / ``--scheduler ADDRESS``: compute the counts and E-steps on a Dask cluster."""
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--dask-local", type=opt.workers, metavar="N",
                       help="ml, mp, em: read and count the data's pieces on a local Dask cluster of N worker "
                            "processes (pip install 'bnstudio[cluster]')")
    where.add_argument("--scheduler", type=opt.scheduler, metavar="ADDRESS",
                       help="ml, mp, em: read and count the pieces on the Dask cluster at tcp://HOST:PORT "
                            "(every worker must see the data's path)")
    add_connect_timeout(parser)


def add_connect_timeout(parser: argparse.ArgumentParser) -> None:
    """``--connect-timeout SECONDS``: how long to wait for the scheduler at ``--scheduler`` to answer."""
    from bnstudio.experiment.scheduler import DEFAULT_CONNECT_TIMEOUT

    parser.add_argument("--connect-timeout", type=opt.connect_timeout, metavar="SECONDS",
                        help="with --scheduler: seconds to wait for the scheduler to accept and greet, in "
                             f"(0, 3600] (default {DEFAULT_CONNECT_TIMEOUT:g})")


def cluster_size(args: argparse.Namespace) -> tuple[str | None, int | None]:
    """(scheduler address, local workers) as they will be used: the scheduler checked (it answers as a Dask
    scheduler within --connect-timeout), local workers capped to this process's cores (a note on stderr says
    so); each problem one ValidationError line."""
    import sys

    from bnstudio.experiment.accounting import usable_cores
    from bnstudio.experiment.scheduler import DEFAULT_CONNECT_TIMEOUT, check_scheduler, local_workers

    timeout = getattr(args, "connect_timeout", None)
    if getattr(args, "scheduler", None) is not None:
        return check_scheduler(args.scheduler, timeout or DEFAULT_CONNECT_TIMEOUT), None
    if getattr(args, "dask_local", None) is not None:
        workers, note = local_workers(args.dask_local, usable_cores())
        if note:
            print(f"bnstudio: note: {note}", file=sys.stderr)
        return None, workers
    return None, None


def streams(method: str, path: str) -> bool:
    """Whether ``fit`` reads ``path`` a piece at a time: a CSV, Parquet or Arrow file or a folder, for ml, mp,
    em."""
    where = Path(path)
    return method in STREAMED_METHODS and (where.is_dir() or where.suffix.lower() in STREAMED_SUFFIXES)


@contextlib.contextmanager
def fit_data(net: Any, args: argparse.Namespace) -> Iterator[tuple[Any, Any]]:
    """(data, weights) for the learner: the table's pieces (on the cluster asked for) or aligned rows."""
    from bnstudio.io.atomic import check_exists
    on_cluster = getattr(args, "dask_local", None) is not None or getattr(args, "scheduler", None) is not None
    check_exists(args.data)   # a missing "parts/" is no such folder, whatever the method or cluster
    if getattr(args, "connect_timeout", None) is not None and getattr(args, "scheduler", None) is None:
        raise ValidationError("--connect-timeout applies to --scheduler")
    if not streams(args.method, args.data):
        if on_cluster:
            raise ValidationError(f"--dask-local and --scheduler apply to {', '.join(STREAMED_METHODS)} on CSV or "
                                  f"Parquet data, not to '{args.method}'")
        from bnstudio.cli.common import load_data
        data = load_data(net, args.data)
        yield data.codes, data.weights
        return
    from bnstudio.data.parts import open_parts, with_runner
    parts = open_parts(args.data)
    if not on_cluster:
        yield parts, None
        return
    from bnstudio.cli.experiment import terminate_as_interrupt
    from bnstudio.data.cluster import DaskRunner
    from bnstudio.experiment.dask_quiet import quiet_dask
    scheduler, workers = cluster_size(args)
    # SIGTERM as Ctrl+C: the runner closes the cluster and removes its scratch folder either way
    quiet_dask()
    with terminate_as_interrupt(), DaskRunner(scheduler, workers) as runner:
        yield with_runner(parts, runner), None
