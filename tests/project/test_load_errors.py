"""Every malformed project file is refused with a FormatError naming the file and the JSON path."""
from __future__ import annotations

import copy
import json

import pytest

from bnstudio.errors import FormatError
from bnstudio.io.project import ProjectFormatError, load_project
from tests.project.conftest import DATA

BASE = json.loads((DATA / "v1_asia.bnsproj").read_text(encoding="utf-8"))


def _var(doc, k):
    return doc["network"]["variables"][k]


def _set(key, value, k=None):
    """A mutation setting ``key`` of variable ``k`` (or of the top level / network when k is None)."""
    def apply(doc):
        target = doc if k is None else _var(doc, k)
        if isinstance(key, tuple):
            for part in key[:-1]:
                target = target[part]
            target[key[-1]] = value
        else:
            target[key] = value
    return apply


def _del(key, k=None):
    def apply(doc):
        target = doc if k is None else _var(doc, k)
        if isinstance(key, tuple):
            for part in key[:-1]:
                target = target[part]
            del target[key[-1]]
        else:
            del target[key]
    return apply


V = "network.variables"
CASES = [
    # missing keys
    ("missing format", _del("format"), "", "missing key 'format'"),
    ("missing version", _del("schema_version"), "", "missing key 'schema_version'"),
    ("missing network", _del("network"), "", "missing key 'network'"),
    ("missing net name", _del(("network", "name")), "network", "missing key 'name'"),
    ("missing variables", _del(("network", "variables")), "network", "missing key 'variables'"),
    ("missing var name", _del("name", 2), f"{V}[2]", "missing key 'name'"),
    ("missing states", _del("states", 3), f"{V}[3]", "missing key 'states'"),
    ("missing parents", _del("parents", 3), f"{V}[3]", "missing key 'parents'"),
    ("missing cpt", _del("cpt", 7), f"{V}[7]", "missing key 'cpt'"),
    ("missing data path", _del(("data", "path")), "data", "missing key 'path'"),
    ("missing target", _del(("queries", 1, "target")), "queries[1]", "missing key 'target'"),
    # wrong types
    ("empty object", lambda d: d.clear(), "", "missing key 'format'"),
    ("version string", _set("schema_version", "1"), "schema_version", "expected a number, got a string"),
    ("version fraction", _set("schema_version", 1.5), "schema_version", "expected a positive integer"),
    ("version zero", _set("schema_version", 0), "schema_version", "expected a positive integer"),
    ("format tag", _set("format", "something-else"), "format", "not a BN Studio project"),
    ("network array", _set("network", []), "network", "expected an object, got an array"),
    ("variables object", _set(("network", "variables"), {}), f"{V}", "expected an array, got an object"),
    ("variable string", _set(("network", "variables", 4), "bronc"), f"{V}[4]", "expected an object, got a string"),
    ("states string", _set("states", "yes no", 1), f"{V}[1].states", "expected an array, got a string"),
    ("state number", _set("states", ["yes", 2], 1), f"{V}[1].states[1]", "expected a string, got a number"),
    ("parents string", _set("parents", "asia", 1), f"{V}[1].parents", "expected an array, got a string"),
    ("description number", _set("description", 3, 0), f"{V}[0].description", "expected a string"),
    ("position length", _set("position", [1.0], 0), f"{V}[0].position", "expected [x, y]"),
    ("position string", _set("position", [1.0, "2"], 0), f"{V}[0].position[1]", "expected a number"),
    ("cpt string entry", _set("cpt", ["0.5", 0.5], 2), f"{V}[2].cpt[0]", "expected a number, got a string"),
    ("cpt boolean entry", _set("cpt", [True, False], 2), f"{V}[2].cpt[0]", "expected a number, got a boolean"),
    ("cpt NaN", _set("cpt", [float("nan"), 1.0], 2), f"{V}[2].cpt[0]", "expected a finite probability"),
    ("alpha string", _set("alpha", "many", 2), f"{V}[2].alpha", "expected shape (2,)"),
    ("property number", _set(("network", "properties", "x"), 1), "network.properties.x", "expected a string"),
    ("evidence number", _set(("evidence_sets", "e"), {"smoke": 1}), "evidence_sets.e.smoke",
     "expected a state name or a list of likelihoods, got a number"),
    ("evidence set array", _set("evidence_sets", []), "evidence_sets", "expected an object"),
    ("query target number", _set(("queries", 0, "target"), 3), "queries[0].target", "expected a variable name"),
    ("query label", _set(("queries", 0, "label"), None), "queries[0].label", "expected a string, got null"),
    ("runs object", _set("runs", {}), "runs", "expected an array"),
    ("run string", _set("runs", ["em"]), "runs[0]", "expected an object"),
    ("view array", _set("view", []), "view", "expected an object"),
    ("data settings", _set(("data", "settings"), []), "data.settings", "expected an object"),
    ("unknown top key", _set("extra", 1), "extra", "unknown key"),
    ("unknown variable key", _set("parent", [], 0), f"{V}[0].parent", "unknown key"),
    # shapes
    ("cpt too few rows", _set("cpt", [[0.9, 0.1]], 6), f"{V}[6].cpt", "expected shape (2, 2)"),
    ("cpt flat", _set("cpt", [0.9, 0.1, 0.1, 0.9], 6), f"{V}[6].cpt",
     "expected shape (2, 2) (parents ['either'] then 'xray'), got shape (4,)"),
    ("cpt ragged", _set("cpt", [[0.9, 0.1], [0.1, 0.8, 0.1]], 6), f"{V}[6].cpt[1]", "expected 2 entries"),
    ("cpt deep ragged", _set("cpt", [[[0.9, 0.1], [0.8, 0.2]], [[0.7, 0.3], 0.5]], 7), f"{V}[7].cpt[1][1]",
     "expected an array, got a number"),
    ("alpha shape", _set("alpha", [1, 2, 3], 2), f"{V}[2].alpha", "expected shape (2,)"),
    # values
    ("negative probability", _set("cpt", [[1.1, -0.1], [0.05, 0.95]], 6), f"{V}[6].cpt[0][1]",
     "negative probability -0.1"),
    ("negative count", _set("alpha", [[1, -2], [3, 4]], 6), f"{V}[6].alpha[0][1]", "negative count -2"),
    ("row sum", _set("cpt", [[[0.9, 0.1], [0.8, 0.2]], [[0.7, 0.2], [0.1, 0.9]]], 7), f"{V}[7].cpt[1][0]",
     "row (bronc=no, either=yes) sums to 0.9, not 1"),
    ("likelihood length", _set(("evidence_sets", "e"), {"xray": [1, 2, 3]}), "evidence_sets.e.xray",
     "expected 2 likelihoods"),
    ("likelihoods zero", _set(("evidence_sets", "e"), {"xray": [0, 0]}), "evidence_sets.e.xray", "all zero"),
    ("negative likelihood", _set(("evidence_sets", "e"), {"xray": [1, -1]}), "evidence_sets.e.xray[1]",
     "negative likelihood"),
    # names and structure
    ("unknown parent", _set("parents", ["smoke", "ghost"], 4), f"{V}[4].parents[1]", "unknown parent 'ghost'"),
    ("self parent", _set("parents", ["asia"], 0), f"{V}[0].parents[0]", "cannot be its own parent"),
    ("repeated parent", _set("parents", ["smoke", "smoke"], 4), f"{V}[4].parents[1]", "listed twice"),
    ("cycle", _set("parents", ["dysp"], 2), f"{V}[", "the arcs form the cycle"),
    ("duplicate variable", _set("name", "asia", 1), f"{V}[1].name", "duplicate variable name 'asia'"),
    ("duplicate state", _set("states", ["yes", "yes"], 1), f"{V}[1].states", "has the state 'yes' twice"),
    ("blank name", _set("name", " tub", 1), f"{V}[1].name", "invalid variable name"),
    ("unknown evidence variable", _set(("evidence_sets", "e"), {"ghost": "yes"}), "evidence_sets.e.ghost",
     "unknown variable 'ghost'"),
    ("unknown evidence state", _set(("queries", 0, "evidence"), {"xray": "maybe"}), "queries[0].evidence.xray",
     "has no state 'maybe'"),
    ("unknown target state", _set(("queries", 1, "target"), {"tub": "maybe"}), "queries[1].target.tub",
     "has no state 'maybe'"),
    ("odd evidence-set name", _set(("evidence_sets", "my set"), {"ghost": "yes"}), 'evidence_sets["my set"].ghost',
     "unknown variable"),
    # versions
    ("newer schema", _set("schema_version", 4), "schema_version",
     "written by a newer BN Studio (schema 4); this version reads up to 3"),
    # notes (schema 3)
    ("note without text", _set("notes", [{"position": [0, 0]}]), "notes[0]", "missing key 'text'"),
    ("note position", _set("notes", [{"text": "t", "position": [0]}]), "notes[0].position", "expected [x, y]"),
    ("note position not finite", _set("notes", [{"text": "t", "position": [0, "x"]}]), "notes[0].position[1]",
     "expected a number"),
    ("note width", _set("notes", [{"text": "t", "position": [0, 0], "width": 1}]), "notes[0].width",
     "expected a width from 40 to 4000"),
    ("note key", _set("notes", [{"text": "t", "position": [0, 0], "colour": "red"}]), "notes[0].colour", "unknown key"),
]


@pytest.mark.parametrize("mutate, where, message", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_malformed_documents_name_the_json_path(tmp_path, mutate, where, message):
    doc = copy.deepcopy(BASE)
    mutate(doc)
    path = tmp_path / "bad.bnsproj"
    path.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(ProjectFormatError) as info:
        load_project(path)
    err = info.value
    assert isinstance(err, FormatError)
    assert err.path == str(path) and str(err).startswith(f"{path}: ")
    assert err.json_path.startswith(where) if where.endswith("[") else err.json_path == where, str(err)
    assert message in str(err)
    if where:
        assert f": {err.json_path}: " in str(err)


def test_cycle_names_its_variables(tmp_path):
    doc = copy.deepcopy(BASE)
    _var(doc, 2)["parents"] = ["dysp"]  # closes smoke -> bronc -> dysp -> smoke (and one through lung)
    path = tmp_path / "cycle.bnsproj"
    path.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(ProjectFormatError, match="the arcs form the cycle") as info:
        load_project(path)
    nodes = str(info.value).split("the arcs form the cycle ")[1].split(" -> ")
    arcs = {(p, v["name"]) for v in doc["network"]["variables"] for p in v["parents"]}
    assert nodes[0] == nodes[-1] and ("dysp", "smoke") in zip(nodes, nodes[1:], strict=False)
    assert all(arc in arcs for arc in zip(nodes, nodes[1:], strict=False))
    child_index = [v["name"] for v in doc["network"]["variables"]].index(nodes[1])
    assert info.value.json_path == f"network.variables[{child_index}].parents"


@pytest.mark.parametrize("text, line, column", [
    ('{\n  "format": "bnstudio-project",\n  "schema_version": 1,\n  oops\n}', 4, 3),
    ('{"format": "bnstudio-project",}', 1, 31),
    ("", 1, 1),
])
def test_invalid_json_reports_line_and_column(tmp_path, text, line, column):
    path = tmp_path / "bad.bnsproj"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(FormatError) as info:
        load_project(path)
    assert (info.value.line, info.value.column) == (line, column)
    assert str(info.value).startswith(f"{path}:{line}:{column}: invalid JSON")


def test_huge_numbers_are_format_errors(tmp_path):
    path = tmp_path / "big.bnsproj"
    doc = json.dumps(BASE).replace('"cpt": [0.5, 0.5]', '"cpt": [1' + "0" * 400 + ', 0.5]')
    path.write_text(doc, encoding="utf-8")
    with pytest.raises(ProjectFormatError, match=r"network.variables\[2\].cpt\[0\]: expected a finite probability"):
        load_project(path)
    path.write_text(doc.replace("0" * 400, "0" * 5000), encoding="utf-8")
    with pytest.raises(FormatError, match="invalid JSON"):
        load_project(path)


def test_top_level_must_be_an_object(tmp_path):
    path = tmp_path / "list.bnsproj"
    path.write_text("[1, 2]", encoding="utf-8")
    with pytest.raises(FormatError, match="expected an object, got an array"):
        load_project(path)


def test_missing_file_and_bad_encoding(tmp_path):
    with pytest.raises(FormatError, match="no such file"):
        load_project(tmp_path / "nope.bnsproj")
    (tmp_path / "latin.bnsproj").write_bytes(b'{"format": "\xe9"}')
    with pytest.raises(FormatError, match="not UTF-8"):
        load_project(tmp_path / "latin.bnsproj")
