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
    where.add_argument("--scheduler", type=opt.name("a scheduler address"), metavar="ADDRESS",
                       help="ml, mp, em: read and count the pieces on the Dask cluster at tcp://HOST:PORT "
                            "(every worker must see the data's path)")


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
    from bnstudio.data.cluster import DaskRunner
    with DaskRunner(args.scheduler, args.dask_local) as runner:
        yield with_runner(parts, runner), None
