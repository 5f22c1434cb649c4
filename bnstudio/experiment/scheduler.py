"""A Dask scheduler's address, and the local cluster's size, checked before any Dask client starts (issue 42
items 11 and 12); shared by ``bnstudio fit`` and ``bnstudio experiment``. Standard library only.

* :func:`parse_address`: ``tcp://HOST:PORT`` (or ``HOST:PORT``) with a port in 1..65535. ``tls://`` needs
  certificates (a ``distributed.Security``) and ``ucx://`` the UCX libraries, neither of which bnstudio sets up:
  each other scheme is one line.
* :func:`check_scheduler`: connects with a timeout (``--connect-timeout``) and reads the greeting a Dask
  scheduler sends first on every connection (its handshake: a little message of Dask's TCP framing, a uint64
  total length, a uint64 frame count and each frame's length, distributed.comm.tcp). Nothing there within the
  timeout (a server that accepts and never answers, an HTTP server waiting for a request), a length that is not
  a handshake's (junk: once read as a 3.07 EiB allocation) or an unroutable host is one line each, in at most
  about twice the timeout — instead of a client waiting forever or failing inside Dask.
* :func:`local_workers`: ``--dask-local N`` capped to the cores this process may use: more one-thread worker
  processes only wait for those cores (1000 of them on 2 cores started nothing in 308 s), and the note says so.
"""
from __future__ import annotations

import math
import socket
import struct
import time
import urllib.parse

from bnstudio.errors import ValidationError

#: seconds ``--connect-timeout`` waits by default for the scheduler to accept and greet
DEFAULT_CONNECT_TIMEOUT = 10.0
MAX_CONNECT_TIMEOUT = 3600.0
#: a handshake is a few hundred bytes; anything past this is not one
MAX_HANDSHAKE_BYTES = 1 << 20
_LENGTH = struct.Struct("Q")   # Dask's framing: native uint64 (distributed.comm.tcp)


def parse_address(text: str) -> tuple[str, int]:
    """(host, port) of a ``tcp://HOST:PORT`` or ``HOST:PORT`` address; any other form is one ValidationError."""
    text = text.strip()
    scheme, sep, _ = text.partition("://")
    if not sep:
        scheme, text = "tcp", "tcp://" + text
    if scheme.lower() != "tcp":
        why = {"tls": "it needs TLS certificates (a Dask security set-up) that bnstudio does not make",
               "ucx": "it needs the UCX libraries and a UCX-enabled cluster"}.get(scheme.lower(), "")
        raise ValidationError(f"scheduler address {text!r}: only tcp://HOST:PORT is supported"
                              + (f", not {scheme}:// ({why})" if why else f", not {scheme}://"))
    try:
        parts = urllib.parse.urlsplit(text)
        port = parts.port
    except ValueError:
        raise ValidationError(f"scheduler address {text!r}: the port must be a number in 1..65535") from None
    host = parts.hostname
    if not host or port is None or not 1 <= port <= 65535 or parts.path not in ("", "/") or parts.query:
        raise ValidationError(f"scheduler address {text!r}: expected tcp://HOST:PORT with a port in 1..65535")
    return host, port


def address_of(text: str) -> str:
    """The address in the form Dask takes, ``tcp://HOST:PORT`` (IPv6 hosts in brackets)."""
    host, port = parse_address(text)
    return f"tcp://[{host}]:{port}" if ":" in host else f"tcp://{host}:{port}"


def check_timeout(seconds: float) -> float:
    """A connect timeout in (0, :data:`MAX_CONNECT_TIMEOUT`] seconds, or one ValidationError."""
    if not (isinstance(seconds, (int, float)) and math.isfinite(seconds) and 0 < seconds <= MAX_CONNECT_TIMEOUT):
        raise ValidationError(f"the connect timeout must be in (0, {MAX_CONNECT_TIMEOUT:g}] seconds, got {seconds!r}")
    return float(seconds)


def check_scheduler(text: str, timeout: float = DEFAULT_CONNECT_TIMEOUT) -> str:
    """The address of a Dask scheduler that accepted a connection and greeted within ``timeout`` seconds (see
    the module); one ValidationError line naming the address otherwise."""
    host, port = parse_address(text)
    address, timeout = address_of(text), check_timeout(timeout)
    deadline = time.monotonic() + timeout
    try:
        with socket.create_connection((host, port), timeout=timeout) as conn:
            length = _read(conn, _LENGTH.size, deadline, address, timeout)
            (total,) = _LENGTH.unpack(length)
            if not 2 * _LENGTH.size <= total <= MAX_HANDSHAKE_BYTES:
                raise ValidationError(f"{address} answered, but not as a Dask scheduler (its first message "
                                      f"claims {total:,} bytes); check the address and port")
            body = _read(conn, total, deadline, address, timeout)
    except socket.timeout:
        raise ValidationError(f"no answer from the Dask scheduler at {address} within {timeout:g} s "
                              f"(--connect-timeout); is it running and reachable from here?") from None
    except OSError as exc:
        raise ValidationError(f"cannot reach the Dask scheduler at {address}: "
                              f"{exc.strerror or type(exc).__name__}") from None
    (frames,) = _LENGTH.unpack_from(body)
    sizes = body[_LENGTH.size:_LENGTH.size * (frames + 1)] if frames < total // _LENGTH.size else b""
    if not frames or len(sizes) != _LENGTH.size * frames or \
            _LENGTH.size * (frames + 1) + sum(struct.unpack(f"{frames}Q", sizes)) != total:
        raise ValidationError(f"{address} answered, but not as a Dask scheduler; check the address and port")
    return address


def _read(conn: socket.socket, size: int, deadline: float, address: str, timeout: float) -> bytes:
    """Exactly ``size`` bytes before ``deadline``; a server that says less is not a scheduler."""
    chunks, got = [], 0
    while got < size:
        left = deadline - time.monotonic()
        if left <= 0:
            raise socket.timeout()
        conn.settimeout(left)
        chunk = conn.recv(min(size - got, 1 << 16))
        if not chunk:
            raise ValidationError(f"{address} accepted the connection and closed it without a Dask greeting; "
                                  f"check the address and port")
        chunks.append(chunk)
        got += len(chunk)
    return b"".join(chunks)


def local_workers(asked: int, cores: int) -> tuple[int, str | None]:
    """(workers to start, a note or None): ``asked`` one-thread processes, at most ``cores``."""
    if asked <= cores:
        return asked, None
    return cores, (f"--dask-local {asked} capped to {cores} worker process{'es' if cores != 1 else ''}: this "
                   f"process may use {cores} core{'s' if cores != 1 else ''}, and more one-thread workers would "
                   f"only wait for them")
