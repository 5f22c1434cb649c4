"""Servers that are not Dask schedulers, on local sockets opened by the test (issue 42 item 11): one that
accepts and never answers, an HTTP server, one that answers junk, one that hangs up at once."""
from __future__ import annotations

import contextlib
import socket
import threading
from typing import Iterator

#: what each kind sends on accepting (None: nothing, and the connection stays open)
GREETINGS = {"silent": None, "junk": b"\xff" * 8 + b"not dask at all\r\n", "hang-up": b"",
             "short": b"\x40\x00\x00\x00\x00\x00\x00\x00\x01\x00"}


@contextlib.contextmanager
def fake_server(kind: str) -> Iterator[str]:
    """``tcp://127.0.0.1:PORT`` of a server of ``kind`` (GREETINGS, or "http": Python's HTTP server, which
    waits for a request as every HTTP server does) until the block ends."""
    if kind == "http":
        from http.server import HTTPServer, SimpleHTTPRequestHandler
        server = HTTPServer(("127.0.0.1", 0), SimpleHTTPRequestHandler)
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        try:
            yield f"tcp://127.0.0.1:{server.server_address[1]}"
        finally:
            server.shutdown()
            server.server_close()
        return
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    held: list[socket.socket] = []
    stop = threading.Event()

    def serve() -> None:
        listener.settimeout(0.1)
        while not stop.is_set():
            try:
                conn, _ = listener.accept()
            except OSError:
                continue
            greeting = GREETINGS[kind]
            if greeting is None:
                held.append(conn)         # accepted, never answered
            else:
                with contextlib.suppress(OSError):
                    conn.sendall(greeting)
                if kind == "short":
                    held.append(conn)     # a part of a message, then silence
                else:
                    conn.close()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield f"tcp://127.0.0.1:{listener.getsockname()[1]}"
    finally:
        stop.set()
        thread.join(5)
        for conn in held:
            conn.close()
        listener.close()


def free_port() -> int:
    """A port nothing listens on (bound, then released)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]
