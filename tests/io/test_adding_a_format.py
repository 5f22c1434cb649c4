"""docs/architecture.md §6 says a new format touches one module plus one record in bnstudio/io/formats.py. This
test does exactly that to a copy of the package (the worked example, `.bn.json`) and checks that reading, writing
and `bnstudio convert` then know the format, with nothing else changed."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

MODULE = '''\
"""A network as the ``"network"`` object of a project file, alone (docs/architecture.md §6)."""
from __future__ import annotations

from bnstudio.core.network import Network
from bnstudio.io.atomic import PathLike, atomic_write_text, read_text
from bnstudio.io.common import json_document, json_text
from bnstudio.io.project.network_json import network_from_json, network_to_json
from bnstudio.io.project.schema import Checker


def read_netjson(path: PathLike, strict: bool = False) -> Network:
    return network_from_json(Checker(str(path)), json_document(read_text(path), str(path)), "network", strict)


def write_netjson(net: Network, path: PathLike) -> None:
    atomic_write_text(path, json_text(network_to_json(net)) + "\\n")
'''

RECORD = '''    FormatRecord("network JSON", (".bn.json",), read_netjson, write_netjson, keeps_counts=True,
                 keeps_canonical=True),
)
'''

CHECK = '''
import json, sys, warnings
import numpy as np
from bnstudio.cli.main import main
from bnstudio.io import FORMATS, read_network, write_network

warnings.simplefilter("ignore")
source, folder = sys.argv[1], sys.argv[2]
net = read_network(source)
write_network(net, folder + "/alarm.bn.json")
back = read_network(folder + "/alarm.bn.json")
same = back.variables == net.variables and all(np.array_equal(back.cpt(v), net.cpt(v)) for v in net.variables)
code = main(["convert", source, folder + "/converted.bn.json"])
print(json.dumps({"record": FORMATS[".bn.json"].name, "same": bool(same), "convert": code,
                  "converted": read_network(folder + "/converted.bn.json").variables == net.variables}))
'''


def test_the_worked_example_needs_one_module_and_one_record(tmp_path):
    copy = tmp_path / "src"
    shutil.copytree(ROOT / "bnstudio", copy / "bnstudio", ignore=shutil.ignore_patterns("__pycache__"))
    (copy / "bnstudio" / "io" / "netjson.py").write_text(MODULE, encoding="utf-8")
    formats = copy / "bnstudio" / "io" / "formats.py"
    text = formats.read_text(encoding="utf-8")
    start = text.index("RECORDS: tuple[FormatRecord, ...] = (")
    end = text.index("\n)\n", start) + 1
    text = text[:end] + RECORD + text[end + 2:]
    text = text.replace("from bnstudio.io.genie.dsl import",
                        "from bnstudio.io.netjson import read_netjson, write_netjson\nfrom bnstudio.io.genie.dsl import")
    formats.write_text(text, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(copy)}
    out = subprocess.run([sys.executable, "-c", CHECK, str(ROOT / "resources" / "networks" / "alarm.bif"),
                          str(tmp_path)], capture_output=True, text=True, env=env, cwd=tmp_path, timeout=120)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout.splitlines()[-1]) == {"record": "network JSON", "same": True, "convert": 0,
                                                       "converted": True}


def test_without_the_record_the_extension_is_refused(tmp_path):
    """The check above can fail: the unmodified package does not know `.bn.json`."""
    out = subprocess.run([sys.executable, "-m", "bnstudio", "convert",
                          str(ROOT / "resources" / "networks" / "asia.bif"), str(tmp_path / "asia.bn.json")],
                         capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert out.returncode == 2 and ".bn.json" in out.stderr
