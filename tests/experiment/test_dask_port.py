"""A local Dask cluster starts quietly while another cluster (or anything) holds port 8787.

distributed's scheduler binds an HTTP server on 8787 even with the dashboard off and warns ("Port 8787 is already
in use") when it is taken, which the suite's warnings-as-errors turns into a failed study whenever two clusters
start at once (two xdist workers, or two users on one machine).
"""
from __future__ import annotations

import socket
import warnings

import pytest


def test_a_local_cluster_starts_without_a_warning_while_8787_is_taken():
    pytest.importorskip("distributed")
    from bnstudio.experiment.dask_executor import DaskExecutor
    from bnstudio.experiment.executors import StudyData

    holder = socket.socket()
    holder.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        holder.bind(("0.0.0.0", 8787))
        holder.listen()
    except OSError:
        pass  # something else already holds it: the condition under test holds too
    executor = DaskExecutor(local_workers=1)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            executor.start(StudyData({}))
        assert executor.workers == 1
    finally:
        executor.close()
        holder.close()
