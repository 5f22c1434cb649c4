"""docs/architecture.md §6 says a new format touches one module plus one record in bnstudio/io/formats.py. This
test takes both changes from that page (the worked example, `.bn.json`), makes them to a copy of the repository,
checks that reading, writing and `bnstudio convert` then know the format, and runs the copy's own format-wide
tests (every record round-tripped, the import-weight checks, the app's file dialogs) so that a recipe that breaks
them fails here."""
from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.recipes import ROOT, patched_copy, run_python, run_suite, summary

PAGE = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
SECTION = PAGE[PAGE.index("## 6. Adding a format"):]

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


def block(first_line: str) -> str:
    """The page's fenced Python block that starts with ``first_line``."""
    found = re.search(r"```python\n(" + re.escape(first_line) + r".*?)```", SECTION, re.S)
    assert found is not None, f"docs/architecture.md §6 has no block starting {first_line!r}"
    return found.group(1)


def module_text() -> str:
    return block("# bnstudio/io/netjson.py\n").split("\n", 1)[1]


def add_record(text: str) -> str:
    """formats.py with the page's import beside the readers' and its record appended to RECORDS."""
    entry = block("# bnstudio/io/formats.py")
    imported = re.search(r"^from bnstudio\.io\.netjson import .*$", entry, re.M)
    record = re.search(r"^    FormatRecord\(.*?\),\n(?=\))", entry, re.M | re.S)
    assert imported is not None and record is not None
    start = text.index("RECORDS: tuple[FormatRecord, ...] = (")
    end = text.index("\n)\n", start) + 1
    text = text[:end] + record.group(0) + text[end:]
    first_reader = text.index("from bnstudio.io.bif.reader import")
    return text[:first_reader] + imported.group(0) + "\n" + text[first_reader:]


@pytest.fixture(scope="module")
def copy(tmp_path_factory) -> Path:
    return patched_copy(tmp_path_factory.mktemp("format"), {"bnstudio/io/netjson.py": module_text()},
                        {"bnstudio/io/formats.py": add_record})


def test_the_worked_example_needs_one_module_and_one_record(copy, tmp_path):
    out = run_python(copy, CHECK, str(ROOT / "resources" / "networks" / "alarm.bif"), str(tmp_path), cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout.splitlines()[-1]) == {"record": "network JSON", "same": True, "convert": 0,
                                                       "converted": True}


@pytest.mark.alone          # a pytest run of its own on the copy: after the parallel run (pyproject.toml)
def test_the_copy_passes_its_own_format_wide_tests(copy):
    result = run_suite(copy, "tests/io/test_format_records.py", "tests/io/test_opening.py",
                       "tests/test_architecture.py::test_import_bnstudio_help_and_light_parsers_load_no_numerical_library",
                       "tests/test_architecture.py::test_info_and_query_load_neither_scipy_nor_pandas",
                       "tests/test_architecture.py::test_opening_alarm_in_the_window_loads_no_slow_library",
                       "tests/gui/test_files.py::test_open_filter_lists_every_registered_format",
                       "tests/gui/test_files.py::test_save_filter_offers_only_formats_a_network_can_be_saved_to")
    assert result.returncode == 0, summary(result)
    assert "network JSON" in run_suite(copy, "tests/io/test_format_records.py", "-k", "network JSON",
                                       "--collect-only").stdout


def test_without_the_record_the_extension_is_refused(tmp_path):
    """The check above can fail: the unmodified package does not know `.bn.json`."""
    out = subprocess.run([sys.executable, "-m", "bnstudio", "convert",
                          str(ROOT / "resources" / "networks" / "asia.bif"), str(tmp_path / "asia.bn.json")],
                         capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert out.returncode == 2 and ".bn.json" in out.stderr
