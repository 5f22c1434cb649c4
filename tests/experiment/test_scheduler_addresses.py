"""Issue 42 item 11: a Dask scheduler address is checked before any client waits on it: the wrong scheme, no
port, a server that accepts and never answers, an HTTP server, junk, a hang-up, a closed port and an unroutable
host each end in one ValidationError line within about twice the connect timeout (short ones here), and a real
scheduler is accepted."""
from __future__ import annotations

import time

import pytest

from bnstudio.errors import ValidationError
from bnstudio.experiment.scheduler import address_of, check_scheduler, local_workers, parse_address
from tests.cli.servers import fake_server, free_port

TIMEOUT = 0.5


@pytest.mark.parametrize("text, expected", [("tcp://127.0.0.1:8786", "tcp://127.0.0.1:8786"),
                                            ("localhost:8786", "tcp://localhost:8786"),
                                            ("TCP://h:1", "tcp://h:1"), ("tcp://[::1]:8786", "tcp://[::1]:8786")])
def test_tcp_addresses_are_taken(text, expected):
    assert address_of(text) == expected


@pytest.mark.parametrize("text, said", [("tls://h:8786", "TLS certificates"), ("ucx://h:8786", "UCX"),
                                        ("inproc://h/1", "not inproc://"), ("ws://h:1", "not ws://"),
                                        ("tcp://h", "tcp://HOST:PORT"), ("tcp://h:0", "1..65535"),
                                        ("tcp://h:70000", "1..65535"), ("tcp://:8786", "tcp://HOST:PORT"),
                                        ("tcp://h:port", "1..65535"), ("tcp://h:1/path", "tcp://HOST:PORT")])
def test_other_addresses_are_one_line(text, said):
    with pytest.raises(ValidationError, match=said) as caught:
        parse_address(text)
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize("kind, said", [("silent", "no answer"), ("http", "no answer"),
                                        ("junk", "not as a Dask scheduler"), ("hang-up", "without a Dask greeting"),
                                        ("short", "no answer")])
def test_servers_that_are_not_schedulers_are_refused_within_the_timeout(kind, said):
    with fake_server(kind) as address:
        start = time.monotonic()
        with pytest.raises(ValidationError, match=said) as caught:
            check_scheduler(address, TIMEOUT)
        elapsed = time.monotonic() - start
    assert address in str(caught.value) and "\n" not in str(caught.value)
    assert elapsed < 4 * TIMEOUT + 1


def test_a_closed_port_and_an_unroutable_host_are_one_line():
    with pytest.raises(ValidationError, match="cannot reach"):
        check_scheduler(f"tcp://127.0.0.1:{free_port()}", TIMEOUT)
    start = time.monotonic()
    with pytest.raises(ValidationError, match="tcp://10.255.255.1:8786"):   # no answer, or no route from here
        check_scheduler("tcp://10.255.255.1:8786", TIMEOUT)
    assert time.monotonic() - start < 4 * TIMEOUT + 1


def test_a_real_scheduler_is_accepted():
    distributed = pytest.importorskip("distributed")
    import asyncio

    async def probe() -> str:
        async with distributed.Scheduler(port=0, dashboard_address=None) as scheduler:
            return await asyncio.get_running_loop().run_in_executor(None, check_scheduler, scheduler.address, 5.0)

    import logging
    logging.getLogger("distributed").setLevel(logging.CRITICAL)
    try:
        assert asyncio.run(probe()).startswith("tcp://")
    finally:
        logging.getLogger("distributed").setLevel(logging.NOTSET)


def test_local_workers_are_capped_to_the_cores_and_say_so():
    assert local_workers(2, 4) == (2, None)
    workers, note = local_workers(1000, 2)
    assert workers == 2 and "--dask-local 1000 capped to 2 worker processes" in note
