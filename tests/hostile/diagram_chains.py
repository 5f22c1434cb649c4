"""The 24-decision chain of issue 42 item 9 as Hugin NET and GeNIe XDSL files, written block by block (no 2^n-entry
object in the writing process): D0 -> D1 -> ... -> D(n-1), binary, one utility U over all of them whose numbers are
(index mod 7) within each block of 2^block_depth (tests/hostile/test_decision_listing.py writes the JSON form)."""
from __future__ import annotations

from pathlib import Path
from typing import Callable, TextIO


def _nested(n: int, block_depth: int, open_: str, sep: str, close: str) -> Callable[[TextIO], None]:
    """A writer of 2^n numbers nested n levels deep (``open_ a sep b close``), or flat when ``open_`` is ''."""
    block_depth = min(block_depth, n)
    def nest(values: list[str]) -> str:
        while len(values) > 1:
            values = [f"{open_}{a}{sep}{b}{close}" for a, b in zip(values[::2], values[1::2], strict=True)]
        return values[0]

    block = nest([str(k % 7) for k in range(2 ** block_depth)])

    def write(fh: TextIO, depth: int = n) -> None:
        if depth == block_depth:
            fh.write(block)
            return
        fh.write(open_)
        write(fh, depth - 1)
        fh.write(sep)
        write(fh, depth - 1)
        fh.write(close)
    return write


def write_net_chain(n: int, path: Path, block_depth: int = 12) -> Path:
    """The chain as a Hugin NET file (``data`` nested by the utility's parents, the last fastest)."""
    with open(path, "w", encoding="utf-8") as fh:
        fh.write("net\n{\n}\n")
        for i in range(n):
            fh.write(f'decision D{i}\n{{\n    states = ("a" "b");\n}}\n')
        fh.write("utility U\n{\n}\n")
        for i in range(n):
            fh.write(f"potential (D{i}{' | D' + str(i - 1) if i else ''})\n{{\n}}\n")
        fh.write(f"potential (U | {' '.join(f'D{i}' for i in range(n))})\n{{\n    data = ")
        _nested(n, block_depth, "(", " ", ")")(fh)
        fh.write(";\n}\n")
    return path


def write_xdsl_chain(n: int, path: Path, block_depth: int = 12) -> Path:
    """The chain as a GeNIe XDSL file (``<utilities>``: one flat list, the last parent fastest)."""
    with open(path, "w", encoding="utf-8") as fh:
        fh.write('<?xml version="1.0" encoding="UTF-8"?>\n<smile version="1.0" id="chain" numsamples="10000" '
                 'discsamples="10000">\n  <nodes>\n')
        for i in range(n):
            parents = f"<parents>D{i - 1}</parents>" if i else ""
            fh.write(f'    <decision id="D{i}"><state id="a"/><state id="b"/>{parents}</decision>\n')
        fh.write(f'    <utility id="U"><parents>{" ".join(f"D{i}" for i in range(n))}</parents><utilities>')
        _nested(n, block_depth, "", " ", "")(fh)
        fh.write("</utilities></utility>\n  </nodes>\n</smile>\n")
    return path
