"""Issue 26: ``bnstudio info`` and ``query`` are whole processes a user waits for (docs/architecture.md §3.18), so
they load numpy and BN Studio's core, io and inference, and nothing heavier: not networkx (the network keeps
its arcs in plain dictionaries; ``Network.graph()`` imports networkx when called), not scipy or pandas, and not
the XML writers' ``xml.sax.saxutils`` (which imports urllib, http and email)."""
from __future__ import annotations

import subprocess
import sys

from tests.test_architecture import ALARM, loaded_after

HEAVY = {"networkx", "scipy", "pandas"}


def test_info_and_query_load_no_networkx_scipy_or_pandas():
    code = ("import contextlib, io\n"
            "from bnstudio.cli import main\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n"
            f"    assert main(['info', {str(ALARM)!r}]) == 0\n"
            f"    assert main(['query', {str(ALARM)!r}, '--target', 'HR', '--evidence', 'BP=LOW', '--json']) == 0\n")
    assert not set(loaded_after(code)) & HEAVY


def test_the_check_sees_networkx_when_the_graph_is_asked_for():
    code = f"from bnstudio.io import read_network\nread_network({str(ALARM)!r}).graph()\n"
    assert "networkx" in loaded_after(code)


def xml_helpers_after(code: str) -> list[str]:
    script = (f"import sys\n{code}\n"
              "print(sorted(m for m in ('xml.sax.saxutils', 'urllib.request', 'http.client') if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    return done.stdout.strip().splitlines()[-1]


def test_reading_loads_no_xml_writer_helpers_and_writing_does(tmp_path):
    read = f"from bnstudio.io import read_network, write_network\nnet = read_network({str(ALARM)!r})"
    assert xml_helpers_after(read) == "[]"
    assert "xml.sax.saxutils" in xml_helpers_after(f"{read}\nwrite_network(net, {str(tmp_path / 'a.xdsl')!r})")
    assert "xml.sax.saxutils" in xml_helpers_after(f"{read}\nwrite_network(net, {str(tmp_path / 'a.xmlbif')!r})")
