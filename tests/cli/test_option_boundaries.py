"""Every option of every subcommand at its boundaries: 0, -1, nan, ±inf, 1e308, empty, huge and wrong types.

Each case says whether the value is legitimately valid (exit 0, nothing on stderr, no NaN in the output) or not
(exit 2 and exactly one ``bnstudio: error:`` line). The valid ranges are written out here, independently of
the parser's own tables, so a parser that drifts fails the test.
"""
from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bnstudio.cli import main
from bnstudio.cli.main import build_parser
from bnstudio.data import read_csv
from bnstudio.experiment.executors import SerialExecutor
from bnstudio.experiment.runner import run_study
from bnstudio.experiment.spec import load_study
from bnstudio.io import write_network
from bnstudio.learn.structure import learn_structure

ROOT = Path(__file__).resolve().parents[2]
ASIA = ROOT / "resources" / "networks" / "asia.bif"
ASIA_CSV = ROOT / "resources" / "data" / "asia.csv"
OIL = ROOT / "resources" / "decision" / "oil_wildcatter.json"

VALUES = ("0", "-1", "nan", "inf", "-inf", "1e308", "", "100000000000", "abc", "1.5")
INTEGRAL = {"0", "1e308", "100000000000"}          # the values that spell integers >= 0


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> dict[str, str]:
    tmp = tmp_path_factory.mktemp("boundaries")
    data = tmp / "asia.csv"
    data.write_text("".join(ASIA_CSV.read_text().splitlines(keepends=True)[:100]))  # header + 99 rows
    table = read_csv(data)
    nb = learn_structure("nb", table.codes, list(table.columns), [tuple(s) for s in table.states], target="lung")
    write_network(nb.network, tmp / "nb.bif")  # wanbia needs a naive-Bayes-like structure
    study = tmp / "study.toml"                   # a two-task study, and its results for `report`
    study.write_text(f'name = "tiny"\nfolds = 2\nstructures = ["nb"]\nmethods = ["mp"]\n[[datasets]]\n'
                     f'csv = "{data.as_posix()}"\ntarget = "lung"\n', encoding="utf-8")
    run_study(load_study(study), SerialExecutor(), store_path=tmp / "done.sqlite")
    return {"net": str(ASIA), "data": str(data), "tmp": str(tmp), "nb": str(tmp / "nb.bif"), "study": str(study),
            "store": str(tmp / "done.sqlite"), "diagram": str(OIL)}


# (arguments with ``{v}`` where the value goes, the values among VALUES that are valid there). ``{net}``,
# ``{data}`` and ``{tmp}`` come from the fixture. A value is attached to its option (``--opt={v}``, ``-n{v}``) and
# a positional follows ``--``, so argparse never mistakes "-1" or "-inf" for an option.
OUT = ["-o", "{tmp}/out.bif"]
NET = ["--", "{net}"]
NET_DATA = ["--", "{net}", "{data}"]
CLGD = ["--method", "clgd", "--target", "lung", "--max-iter", "3"]
CV = ["--target", "lung", "--folds", "2"]
HC = ["-a", "hill-climb", *OUT]
EB = ["--target", "lung=yes", "--ess", "2"]
SAMPLE = ["-n", "5", "-o", "{tmp}/s.csv"]
DIAGRAM = ["--", "{diagram}"]
DECIDE_EB = ["--errorbars", "--ess", "2"]
CASES: list[tuple[list[str], set[str]]] = [
    (["info", "--", "{v}"], set()),
    (["query", "--target", "lung", "--", "{v}"], set()),
    (["query", "--target={v}", *NET], set()),
    (["query", "--target", "lung", "--evidence={v}", *NET], set()),
    (["query", "--queries={v}", *NET], set()),
    (["query", "--target", "lung", "--do={v}", *NET], set()),
    (["voi", "--target", "lung", "--", "{v}"], set()),
    (["voi", "--target={v}", *NET], set()),
    (["voi", "--target", "lung", "--evidence={v}", *NET], set()),
    (["voi", "--target", "lung", "--candidate={v}", *NET], set()),
    (["voi", "--target", "lung", "--cost={v}", *NET], set()),          # a |T| x |T| matrix of finite numbers
    (["voi", "--target", "lung", "--by={v}", *NET], set()),
    (["info", "--dsep", "{v}", "asia", *NET], set()),
    (["info", "--dsep", "asia", "smoke", "--given={v}", *NET], set()),
    (["info", "--markov-blanket={v}", *NET], set()),
    (["sample", *SAMPLE, "--", "{v}"], set()),
    (["sample", "-o", "{tmp}/s.csv", "-n{v}", *NET], set()),  # 1e308 and 1e11 rows cannot be written: refused
    (["sample", *SAMPLE, "--seed={v}", *NET], {"0", "100000000000"}),
    (["sample", *SAMPLE, "--missing={v}", *NET], {"0"}),
    (["sample", *SAMPLE, "--hide={v}", *NET], set()),
    (["sample", "-n", "5", "--output={v}", *NET], set()),
    (["convert", "--", "{v}", "{tmp}/c.bif"], set()),
    (["convert", "--", "{net}", "{v}"], set()),
    (["fit", "--method", "ml", *OUT, "--", "{v}", "{data}"], set()),
    (["fit", "--method", "ml", *OUT, "--", "{net}", "{v}"], set()),
    (["fit", "--method={v}", *OUT, *NET_DATA], set()),
    (["fit", "--method", "ml", "--target={v}", *OUT, *NET_DATA], set()),
    (["fit", "--method", "mp", "--prior={v}", *OUT, *NET_DATA], set()),
    (["fit", "--method", "mp", "--ess={v}", *OUT, *NET_DATA], {"1.5"}),
    (["fit", *CLGD, "--criterion={v}", *OUT, *NET_DATA], set()),
    (["fit", *CLGD, "--alpha={v}", *OUT, *NET_DATA], {"0"}),
    (["fit", *CLGD, "--l2={v}", *OUT, *NET_DATA], {"0", "100000000000", "1.5"}),
    (["fit", "--method", "wanbia", "--target", "lung", "--max-iter", "3", "--level={v}", *OUT, "--", "{nb}",
      "{data}"], set()),
    (["fit", "--method", "bagged-mp", "--bags={v}", *OUT, *NET_DATA], set()),
    (["fit", "--method", "clgd", "--target", "lung", "--max-iter={v}", *OUT, *NET_DATA], set()),
    (["fit", "--method", "bagged-mp", "--bags", "3", "--seed={v}", *OUT, *NET_DATA], {"0", "100000000000"}),
    (["fit", "--method", "ml", "--output={v}", *NET_DATA], set()),
    (["fit", "--method", "ml", *OUT, "--scheduler={v}", *NET_DATA], set()),     # tcp://HOST:PORT only
    (["fit", "--method", "ml", *OUT, "--scheduler", "tcp://127.0.0.1:1", "--connect-timeout={v}", *NET_DATA],
     set()),                                         # in (0, 3600] s; port 1 refuses the valid ones: exit 2
    (["evaluate", "--target", "lung", "--", "{v}", "{data}"], set()),
    (["evaluate", "--target", "lung", "--", "{net}", "{v}"], set()),
    (["evaluate", "--target={v}", *NET_DATA], set()),
    (["evaluate", "--target", "lung", "--method", "mp", "--folds={v}", *NET_DATA], set()),  # > 99 rows: refused
    (["evaluate", *CV, "--method={v}", *NET_DATA], set()),
    (["evaluate", *CV, "--method", "mp", "--prior={v}", *NET_DATA], set()),
    (["evaluate", *CV, "--method", "mp", "--ess={v}", *NET_DATA], {"1.5"}),
    (["evaluate", *CV, "--method", "clgd", "--max-iter", "3", "--criterion={v}", *NET_DATA], set()),
    (["evaluate", *CV, "--method", "clgd", "--max-iter", "3", "--alpha={v}", *NET_DATA], {"0"}),
    (["evaluate", *CV, "--method", "clgd", "--max-iter", "3", "--l2={v}", *NET_DATA], {"0", "100000000000", "1.5"}),
    (["evaluate", *CV, "--method", "wanbia", "--max-iter", "3", "--level={v}", "--", "{nb}", "{data}"], set()),
    (["evaluate", *CV, "--method", "bagged-mp", "--bags={v}", *NET_DATA], set()),
    (["evaluate", *CV, "--method", "clgd", "--max-iter={v}", *NET_DATA], set()),
    (["evaluate", *CV, "--method", "mp", "--seed={v}", *NET_DATA], {"0", "100000000000"}),
    (["errorbars", *EB, "--", "{v}"], set()),
    (["errorbars", "--ess", "2", "--target={v}", *NET], set()),
    (["errorbars", *EB, "--evidence={v}", *NET], set()),
    (["errorbars", "--ess", "2", "--queries={v}", *NET], set()),
    (["errorbars", *EB, "--level={v}", *NET], set()),
    (["errorbars", *EB, "--mc={v}", *NET], {"0"}),
    (["errorbars", *EB, "--mc", "5", "--seed={v}", *NET], {"0", "100000000000"}),
    (["errorbars", "--target", "lung=yes", "--data={v}", *NET], set()),
    (["errorbars", "--target", "lung=yes", "--data", "{data}", "--prior={v}", *NET], set()),
    (["errorbars", "--target", "lung=yes", "--ess={v}", *NET], {"1.5"}),
    (["errorbars", *EB, "--top={v}", *NET], INTEGRAL),
    (["errorbars", *EB, "--sensitivity={v}", *NET], set()),
    (["errorbars", *EB, "--sensitivity", "lung=yes", "--row={v}", *NET], set()),
    (["errorbars", *EB, "--sensitivity", "lung=yes", "--points={v}", *NET], set()),
    (["errorbars", "--target", "lung=yes", "--data", "{data}", "--bags={v}", *NET], set()),
    (["learn", "-a", "chow-liu", *OUT, "--", "{v}"], set()),
    (["learn", "--algorithm={v}", *OUT, "--", "{data}"], set()),
    (["learn", "-a", "nb", "--target={v}", *OUT, "--", "{data}"], set()),
    (["learn", *HC, "--score={v}", "--", "{data}"], set()),
    (["learn", *HC, "--score", "bdeu", "--ess={v}", "--", "{data}"], {"1.5"}),
    (["learn", *HC, "--max-parents={v}", "--", "{data}"], INTEGRAL),
    (["learn", *HC, "--require={v}", "--", "{data}"], set()),
    (["learn", *HC, "--forbid={v}", "--", "{data}"], set()),
    (["learn", *HC, "--tiers={v}", "--", "{data}"], set()),
    (["learn", *HC, "--start={v}", "--", "{data}"], set()),
    (["learn", *HC, "--tabu={v}", "--", "{data}"], {"0"}),
    (["learn", *HC, "--restarts={v}", "--", "{data}"], {"0"}),
    (["learn", "-a", "kdb", "--target", "lung", "--k={v}", *OUT, "--", "{data}"], {"0"}),  # k <= #variables
    (["learn", "-a", "chow-liu", "--root={v}", *OUT, "--", "{data}"], set()),
    (["learn", "-a", "chow-liu", "--prior={v}", *OUT, "--", "{data}"], set()),
    (["learn", *HC, "--restarts", "1", "--seed={v}", "--", "{data}"], {"0", "100000000000"}),
    (["learn", "-a", "chow-liu", "--output={v}", "--", "{data}"], set()),
    (["experiment", "--no-report", "--store", "{tmp}/run.sqlite", "--workers={v}", "--", "{study}"], set()),
    (["report", "-o", "{tmp}/report", "--workers={v}", "--", "{store}"], set()),  # at most 1024 processes
    (["experiment", "--no-report", "--store", "{tmp}/run.sqlite", "--suite={v}"], set()),
    (["experiment", "--no-report", "--store", "{tmp}/run.sqlite", "--dask-local={v}", "--", "{study}"], set()),
    (["decide", "--", "{v}"], set()),
    (["decide", "--evidence={v}", *DIAGRAM], set()),
    (["decide", "--method={v}", *DIAGRAM], set()),
    (["decide", "--max-time={v}", *DIAGRAM], {"1.5"}),                          # in (0, 86400] seconds
    (["decide", "--errorbars", "--ess={v}", *DIAGRAM], {"1.5"}),               # in [1e-6, 1e9]
    (["decide", *DECIDE_EB, "--level={v}", *DIAGRAM], set()),                   # in (0, 1)
    (["decide", *DECIDE_EB, "--mc={v}", *DIAGRAM], {"0"}),                      # 0 .. 100,000 draws
    (["decide", *DECIDE_EB, "--mc", "5", "--seed={v}", *DIAGRAM], {"0", "100000000000"}),   # 0 .. 2^64 - 1
    (["decide", *DECIDE_EB, "--top={v}", *DIAGRAM], INTEGRAL),
]
# a plain valid value for each case's slot, to show that each base command works (so a refusal is the value's)
PLAIN = {"--target": "lung", "--evidence": "xray=yes", "-n": "5", "--seed": "3", "--missing": "0.2",
         "--hide": "lung", "--prior": "bdeu", "--ess": "2", "--criterion": "se", "--alpha": "0.5", "--l2": "0.1",
         "--level": "attribute", "--bags": "3", "--max-iter": "2", "--folds": "2", "--mc": "5", "--top": "3",
         "--sensitivity": "lung=yes", "--row": "smoke=no", "--points": "5", "--score": "bic", "--max-parents": "2",
         "--require": "smoke->lung", "--forbid": "lung->smoke", "--start": "empty", "--tabu": "2",
         "--restarts": "1", "--k": "2", "--root": "smoke", "--algorithm": "nb", "--method": "ml", "--workers": "1",
         "--max-time": "60"}
FLAGS = [("info", "--json"), ("query", "--json"), ("voi", "--json"), ("query", "--joint"), ("sample", "--json"), ("convert", "--json"),
         ("fit", "--json"), ("evaluate", "--json"), ("errorbars", "--json"), ("learn", "--json")]


def _slot(args: list[str]) -> str:
    """The option taking the value ({v} alone is a positional)."""
    token = next(a for a in args if "{v}" in a)
    return token.replace("={v}", "").replace("{v}", "") or "POS"


def argv_for(args: list[str], value: str, files: dict[str, str]) -> list[str]:
    return [a.replace("{v}", value).format(**files) if "{v}" in a else a.format(**files) for a in args]


def run(capsys, argv: list[str]) -> tuple[int, str, str]:
    status = main(argv)
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize("args, valid", CASES, ids=[f"{c[0][0]} {_slot(c[0])}-{k}" for k, c in enumerate(CASES)])
def test_every_option_at_its_boundaries(capsys, files, args, valid):
    assert valid <= set(VALUES)
    for value in VALUES:
        argv = argv_for(args, value, files)
        status, out, err = run(capsys, argv)
        shown = " ".join(argv)
        if value in valid:
            assert status == 0 and err == "", f"{shown}: exit {status}, {err!r}"
            assert "nan" not in out.lower(), f"{shown}: NaN in the output"
        else:
            assert status == 2, f"{shown}: exit {status}, {err!r}"
            lines = err.splitlines()
            assert len(lines) == 1 and lines[0].startswith("bnstudio: error: "), f"{shown}: {err!r}"


def test_the_base_commands_are_valid(capsys, files):
    """Each case's command with a plain valid value works, so a refusal above is the value's doing."""
    special = {("learn", "--algorithm"): "chow-liu", ("learn", "--target"): "lung",
               ("errorbars", "--target"): "lung=yes", ("errorbars", "--level"): "0.8",
               ("errorbars", "--prior"): "bdeu", ("learn", "--prior"): "bdeu",
               ("evaluate", "--level"): "attribute-value", ("fit", "--method"): "ml",
               ("evaluate", "--method"): "mp",
               ("experiment", "--workers"): None,  # its progress bar is on stderr: tests/experiment run it
               ("experiment", "--suite"): None, ("experiment", "--dask-local"): None,   # whole suites, a cluster
               ("fit", "--scheduler"): None, ("fit", "--connect-timeout"): None,  # a cluster: tests below
               ("voi", "--candidate"): "xray", ("voi", "--cost"): "0,1;5,0", ("voi", "--by"): "cost",
               ("query", "--do"): "lung=yes", ("info", "--given"): "dysp", ("info", "--markov-blanket"): "lung",
               ("decide", "--evidence"): "Test=yes", ("decide", "--method"): "limid", ("decide", "--level"): "0.8"}
    tried = 0
    for args, _ in CASES:
        slot = _slot(args)
        value = special.get((args[0], slot), PLAIN.get(slot))
        if value is None:  # file names: the other cases and the tests of each command cover them
            continue
        argv = argv_for(args, value, files)
        status, _, err = run(capsys, argv)
        assert status == 0 and err == "", f"{' '.join(argv)}: exit {status}, {err!r}"
        tried += 1
    assert tried >= 50


@pytest.mark.parametrize("command, flag", FLAGS)
def test_flags_take_no_value(capsys, files, command, flag):
    status, _, err = run(capsys, [command, f"{flag}=1", files["net"]])
    assert status == 2 and len(err.splitlines()) == 1 and err.startswith("bnstudio: error: ")


# gui and screenshot need a display once they start: here only the argument checks, which run before Qt.
GUI_CASES: list[tuple[list[str], set[str]]] = [
    (["gui", "--", "{v}"], set()),
    (["screenshot", "--", "{v}", "{net}"], set()),                  # OUT: a .png in an existing folder
    (["screenshot", "--", "{tmp}/shot.png", "{v}"], set()),         # FILE: must exist
    (["screenshot", "--size={v}", "--", "{tmp}/shot.png", "{net}"], set()),
    (["screenshot", "--evidence={v}", "--", "{tmp}/shot.png", "{net}"], set()),
    (["screenshot", "--style={v}", "--", "{tmp}/shot.png", "{net}"], set()),
    (["screenshot", "--zoom={v}", "--", "{tmp}/shot.png", "{net}"], {"1.5"}),
    (["screenshot", "--docks={v}", "--", "{tmp}/shot.png", "{net}"], set()),
    (["screenshot", "--appearance={v}", "--", "{tmp}/shot.png", "{net}"], set()),
    (["screenshot", "--select={v}", "--", "{tmp}/shot.png", "{net}"], set(VALUES) - {""}),  # any name parses
    (["image", "--", "{v}", "{tmp}/net.png"], set()),                # FILE: must exist
    (["image", "--scale={v}", "--", "{net}", "{tmp}/net.png"], {"1.5"}),
    (["image", "--style={v}", "--", "{net}", "{tmp}/net.png"], set()),
    (["image", "--evidence={v}", "--", "{net}", "{tmp}/net.png"], set()),
]


def test_gui_and_screenshot_arguments_are_checked_before_qt(files):
    """Invalid values exit 2 with one line, in a process that never imports Qt; valid ones parse."""
    refused, accepted = [], []
    for args, valid in GUI_CASES:
        for value in VALUES:
            (accepted if value in valid else refused).append(argv_for(args, value, files))
    parser = build_parser()
    for argv in accepted:
        parser.parse_args(argv)  # raises on a refused value
    script = ("import io, json, sys, contextlib\n"
              "from bnstudio.cli import main\n"
              "results = []\n"
              "for argv in json.loads(sys.argv[1]):\n"
              "    err = io.StringIO()\n"
              "    with contextlib.redirect_stderr(err):\n"
              "        status = main(argv)\n"
              "    results.append([status, err.getvalue()])\n"
              "print(json.dumps({'results': results, 'qt': sorted(m for m in sys.modules if 'PySide6' in m)}))\n")
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    proc = subprocess.run([sys.executable, "-c", script, json.dumps(refused)], capture_output=True, text=True,
                          env=env, timeout=120, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    assert report["qt"] == []
    for argv, (status, err) in zip(refused, report["results"], strict=True):
        lines = err.splitlines()
        assert status == 2 and len(lines) == 1 and lines[0].startswith("bnstudio: error: "), (argv, status, err)


# issue 42 item 11: scheduler addresses that are no Dask scheduler, on local sockets (tests/cli/servers.py), each
# one line within about twice the short connect timeout; the wrong schemes are refused before any connection
SCHEDULERS = ["silent", "http", "junk", "hang-up", "closed", "unroutable", "tls", "ucx", "no-port"]


@pytest.mark.parametrize("kind", SCHEDULERS)
def test_scheduler_addresses_that_are_no_scheduler(capsys, files, kind):
    import time

    from tests.cli.servers import fake_server, free_port

    fixed = {"closed": f"tcp://127.0.0.1:{free_port()}", "unroutable": "tcp://10.255.255.1:8786",
             "tls": "tls://127.0.0.1:8786", "ucx": "ucx://127.0.0.1:8786", "no-port": "tcp://127.0.0.1"}
    with (fake_server(kind) if kind not in fixed else contextlib.nullcontext(fixed[kind])) as address:
        start = time.monotonic()
        status, _, err = run(capsys, ["fit", "--method", "ml", "-o", f"{files['tmp']}/out.bif", "--scheduler",
                                      address, "--connect-timeout", "0.5", files["net"], files["data"]])
        elapsed = time.monotonic() - start
    lines = err.splitlines()
    assert status == 2 and len(lines) == 1 and lines[0].startswith("bnstudio: error: "), (kind, err)
    assert address.split("://")[1].split(":")[0] in lines[0]
    assert elapsed < 5
