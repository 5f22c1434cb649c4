"""Rewrite counts of a Parquet footer in place (tests only), found by :mod:`bnstudio.data.parquet_footer`: each
new value keeps its varint's length, so no offset in the file moves."""
from __future__ import annotations

from pathlib import Path

from bnstudio.data.parquet_footer import footer_counts, read_footer


def zigzag_varint(n: int) -> bytes:
    """Thrift compact's encoding of the integer ``n``."""
    value, out = (n << 1) ^ (n >> 63), bytearray()
    while True:
        out.append((value & 0x7F) | (0x80 if value > 0x7F else 0))
        value >>= 7
        if not value:
            return bytes(out)


def rewrite(path: Path, changes: dict[tuple, int]) -> None:
    """Set the footer counts at ``changes``' paths (:mod:`bnstudio.data.parquet_footer`) to their new values."""
    with open(path, "rb") as handle:
        found = footer_counts(*read_footer(handle))
    data = bytearray(path.read_bytes())
    for field, new in changes.items():
        start, end, _ = found[field]
        encoded = zigzag_varint(new)
        assert len(encoded) == end - start, f"{new} needs {len(encoded)} bytes, the footer has {end - start}"
        data[start:end] = encoded
    path.write_bytes(bytes(data))
