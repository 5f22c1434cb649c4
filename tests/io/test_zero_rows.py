"""Rows of zeros are made uniform in every format, and the report says whether that changes anything.

The files (tests/io/corpus/zero_rows, written for these tests in the styles of the tools in their names) hold a
screening test whose table was never filled for pregnant men: the row (Sex=male, Pregnant=yes) of 'Test' is all
zeros, and p(Pregnant=yes | male) = 0 makes that configuration impossible, so the file describes a proper
distribution and the uniform row changes nothing. The "reachable" variants also blank the row (female, yes),
whose configuration has probability 0.52 x 0.1 = 0.052. Expected numbers are brute force on the file's own
tables: the product of every table, summed over all configurations (what the file's "joint" sums to).
"""
from __future__ import annotations

import itertools
import json
import warnings
from pathlib import Path

import numpy as np
import pytest

from bnstudio.core.network import Network
from bnstudio.errors import FormatError, RepairWarning
from bnstudio.inference import InferenceEngine
from bnstudio.io import read_model, read_network
from bnstudio.io.judging import judged_repairs, verdict
from bnstudio.io.repairs import Repairs
from bnstudio.io.zero_rows import ZeroRows, describe

CORPUS = Path(__file__).resolve().parent / "corpus" / "zero_rows"
SCREENING = ["agrum_screening.bif", "weka_screening.xmlbif", "hugin_screening.net", "genie_screening.xdsl",
             "screening.uai", "genie_screening.dsl", "screening.bnsproj"]
WITH_VERDICT = SCREENING  # every format, DSL included
SEX = [0.48, 0.52]
PREGNANT = [[0.0, 1.0], [0.1, 0.9]]  # a man is never pregnant
TEST = [[[0.0, 0.0], [0.02, 0.98]], [[0.947, 0.053], [0.03, 0.97]]]  # (male, yes) never filled


def _names(name: str) -> tuple[str, str, str]:
    return ("V0", "V1", "V2") if name.endswith(".uai") else ("Sex", "Pregnant", "Test")


def _label(name: str, row: str) -> str:
    """How the row (Sex=..., Pregnant=...) of 'Test' is named (UAI files have no names)."""
    if name.endswith(".uai"):
        return {"male, yes": "row (V0=s0, V1=s0) of 'V2'", "female, yes": "row (V0=s1, V1=s0) of 'V2'"}[row]
    sex, pregnant = row.split(", ")
    return f"row (Sex={sex}, Pregnant={pregnant}) of 'Test'"


def _read(path: Path, model: bool = False):
    """The network (or model) and its one repair message."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        net = (read_model if model else read_network)(path)
    assert [w.category for w in caught] == [RepairWarning], [str(w.message) for w in caught]
    return net, str(caught[0].message)


def _reachable(tmp_path: Path, name: str, edits: dict[str, str]) -> Path:
    """``name`` copied with its text edited (each old text occurring once)."""
    text = (CORPUS / name).read_text(encoding="utf-8")
    for old, new in edits.items():
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def _file_joint(test: list) -> np.ndarray:
    """Brute force: p(Sex) p(Pregnant | Sex) p(Test | Sex, Pregnant) from the file's tables, zeros included."""
    return np.einsum("a,ab,abc->abc", np.array(SEX), np.array(PREGNANT), np.array(test))


@pytest.mark.parametrize("name", SCREENING)
def test_a_row_of_zeros_becomes_uniform_and_an_impossible_one_leaves_the_joint_as_the_file_gives_it(name):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RepairWarning)
        net = read_network(CORPUS / name)
    test = _names(name)[2]
    assert net.cpt(test)[0, 0].tolist() == [0.5, 0.5]
    joint = InferenceEngine(net).joint(list(_names(name)))
    np.testing.assert_allclose(joint, _file_joint(TEST), rtol=0, atol=1e-15)
    assert _file_joint(TEST).sum() == pytest.approx(1.0, abs=1e-15)


@pytest.mark.parametrize("name", WITH_VERDICT)
def test_the_report_says_an_impossible_parent_configuration_changes_nothing(name):
    _, message = _read(CORPUS / name)
    assert message == (f"{CORPUS / name}: made 1 row of zeros uniform: {_label(name, 'male, yes')} (impossible "
                       f"parent configuration: no probability changes)")


@pytest.mark.parametrize("name", SCREENING)
def test_a_strict_reading_refuses_the_row_of_zeros_in_one_line(name):
    with pytest.raises(FormatError) as info:
        read_network(CORPUS / name, strict=True)
    message = str(info.value)
    assert "\n" not in message and _label(name, "male, yes").split(" of ")[0] in message
    assert "sums to 0, not 1 (tolerance 1e-05; strict reading repairs nothing)" in message


@pytest.mark.parametrize("name", WITH_VERDICT)
def test_a_reachable_row_of_zeros_says_what_mass_the_file_left_unassigned(tmp_path, name):
    path = _reachable(tmp_path, name, {"0.947": "0", "0.053": "0"})
    net, message = _read(path)
    blanked = [[[0.0, 0.0], [0.02, 0.98]], [[0.0, 0.0], [0.03, 0.97]]]
    total = _file_joint(blanked).sum()  # 1 - 0.52 * 0.1
    assert total == pytest.approx(0.948, abs=1e-12)
    assert message == (f"{path}: made 2 rows of zeros uniform: {_label(name, 'male, yes')} (impossible parent "
                       f"configuration), {_label(name, 'female, yes')} (parent configuration has probability "
                       f"{0.52 * 0.1:.3g}): the file's joint summed to {total:.3g}")
    assert net.cpt(_names(name)[2])[1, 0].tolist() == [0.5, 0.5]


def test_overlapping_repaired_configurations_give_the_file_total_exactly(tmp_path):
    """Pregnant's row (female) and Test's row (female, no) both blanked: the events Sex=female and
    (Sex=female, Pregnant=no) overlap, so the file's total is not 1 minus the sum of their probabilities."""
    path = _reachable(tmp_path, "agrum_screening.bif", {"(female) 0.1 0.9": "(female) 0 0",
                                                        "(female, no) 0.03 0.97": "(female, no) 0 0"})
    _, message = _read(path)
    pregnant = [[0.0, 1.0], [0.0, 0.0]]
    test = [[[0.0, 0.0], [0.02, 0.98]], [[0.947, 0.053], [0.0, 0.0]]]
    total = np.einsum("a,ab,abc->", np.array(SEX), np.array(pregnant), np.array(test))
    assert total == pytest.approx(0.48, abs=1e-15)  # every woman's mass is gone
    assert message.endswith(f"row (Sex=female) of 'Pregnant' (parent configuration has probability 0.52), "
                            f"row (Sex=male, Pregnant=yes) of 'Test' (impossible parent configuration), "
                            f"row (Sex=female, Pregnant=no) of 'Test' (parent configuration has probability "
                            f"{0.52 * 0.5:.3g}): the file's joint summed to {total:.3g}")


# ---------------------------------------------------------------------------------------------- influence diagrams
DIAGRAMS = ["agrum_screening_id.xmlbif", "screening_id.json"]
DISEASE = [0.1, 0.9]
RESULT = [[[1, 0, 0], [1, 0, 0]], [[0, 0.9, 0.1], [0, 0.04, 0.96]]]  # (Screen, Disease) -> none/pos/neg
CONFIRM = [[[0.5, 0.5], [0, 0], [0.5, 0.5]], [[0, 0], [0.97, 0.03], [0.02, 0.98]]]  # (Screen, Result)
ORDER = ["Disease", "Screen", "Result", "Confirm", "Treat"]


def _diagram_joint(confirm: list) -> np.ndarray:
    """Brute force with a uniform policy for both decisions (Screen, Treat), the file's tables as they are."""
    return np.einsum("a,b,bac,bcd,e->abcde", np.array(DISEASE), np.full(2, 0.5), np.array(RESULT, dtype=float),
                     np.array(confirm, dtype=float), np.full(2, 0.5))


@pytest.mark.parametrize("name", DIAGRAMS)
def test_a_diagram_whose_zero_rows_no_policy_reaches_changes_nothing(name):
    diagram, message = _read(CORPUS / name, model=True)
    assert message == (f"{CORPUS / name}: made 2 rows of zeros uniform: row (Screen=skip, Result=positive) of "
                       f"'Confirm', row (Screen=test, Result=none) of 'Confirm' (impossible parent configurations: "
                       f"no probability changes)")
    assert diagram.decision_names == ("Screen", "Treat")
    joint = InferenceEngine(diagram.network).joint(ORDER)  # the decisions' placeholders are uniform
    np.testing.assert_allclose(joint, _diagram_joint(CONFIRM), rtol=0, atol=1e-15)
    with pytest.raises(FormatError, match=r"row \(Screen=skip, Result=positive\) of 'Confirm' sums to 0, not 1 "
                                          r"\(tolerance 1e-05; strict reading repairs nothing\)"):
        read_model(CORPUS / name, strict=True)


@pytest.mark.parametrize("name, edit", [("agrum_screening_id.xmlbif", {"0.97 0.03": "0 0"}),
                                        ("screening_id.json", {"[0.97, 0.03]": "[0, 0]"})])
def test_a_zero_row_some_policy_reaches_says_the_mass(tmp_path, name, edit):
    """(Screen=test, Result=positive) happens only if the test is chosen: a uniform policy gives it
    0.5 x (0.1 x 0.9 + 0.9 x 0.04) = 0.063."""
    path = _reachable(tmp_path, name, edit)
    _, message = _read(path, model=True)
    confirm = [[[0.5, 0.5], [0, 0], [0.5, 0.5]], [[0, 0], [0, 0], [0.02, 0.98]]]
    total = _diagram_joint(confirm).sum()
    assert total == pytest.approx(1 - 0.063, abs=1e-15)
    assert message.endswith(f"row (Screen=test, Result=none) of 'Confirm' (impossible parent configuration), "
                            f"row (Screen=test, Result=positive) of 'Confirm' (parent configuration has probability "
                            f"{0.063:.3g}): the file's joint summed to {total:.3g} with the decisions under a uniform "
                            f"policy")   # another policy gives another total: the message says which


# ---------------------------------------------------------------------------------------------- the verdict itself
def _chain() -> Network:
    net = Network("chain")
    net.add_variable("A", ["a0", "a1"], cpt=[0.25, 0.75])
    net.add_variable("B", ["b0", "b1", "b2"], ["A"], cpt=[[1 / 3] * 3, [0.2, 0.3, 0.5]])
    return net


def test_a_root_row_of_zeros_has_probability_one_and_the_file_summed_to_zero():
    repairs = Repairs("r.bif")
    rows = np.zeros((1, 2))
    assert repairs.rows(rows, lambda r: "row () of 'A'", ("A", [])) is None
    assert repairs.message(verdict(_chain(), repairs.zero_rows)) == ("r.bif: made 1 row of zeros uniform: row () of 'A' (parent configuration "
                                         "has probability 1: the file's joint summed to 0)")


def test_a_total_that_rounds_to_one_shows_what_it_misses():
    net = Network("rare")
    net.add_variable("A", ["a0", "a1"], cpt=[1 - 2e-9, 2e-9])
    net.add_variable("B", ["b0", "b1"], ["A"])
    found = verdict(net, [ZeroRows(("B", ("A",)), np.array([1]), ["row (A=a1) of 'B'"])])
    assert found.probabilities[0].tolist() == [pytest.approx(2e-9, rel=1e-12)]
    assert describe([ZeroRows(("B", ("A",)), np.array([1]), ["row (A=a1) of 'B'"])], found) == (
        "made 1 row of zeros uniform: row (A=a1) of 'B' (parent configuration has probability 2e-09: the file's "
        "joint summed to 1 - 2e-09)")


def test_no_verdict_without_a_family_or_beyond_the_memory_budget():
    table = ZeroRows(("B", ("A",)), np.array([0]), ["row (A=a0) of 'B'"])
    assert verdict(_chain(), [table]) is not None
    assert verdict(_chain(), [table], memory_budget=1) is None  # not even one table entry fits: say nothing
    assert verdict(_chain(), [ZeroRows(None, np.array([0]), ["the leak of 'B'"])]) is None
    assert verdict(_chain(), [ZeroRows(("B", ("C",)), np.array([0]), ["row (C=c0) of 'B'"])]) is None
    assert describe([table], None) == "made 1 row of zeros uniform: row (A=a0) of 'B'"


def test_many_rows_of_zeros_name_three_and_count_the_rest():
    net = Network("wide")
    net.add_variable("A", [f"a{k}" for k in range(6)], cpt=[0.0, 0.0, 0.0, 0.0, 0.5, 0.5])
    net.add_variable("B", ["b0", "b1"], ["A"])
    repairs = Repairs("w.bif")
    rows = np.array([[0.0, 0.0]] * 4 + [[0.5, 0.5]] * 2)
    assert repairs.rows(rows, lambda r: f"row (A=a{r}) of 'B'", ("B", ["A"])) is None
    assert repairs.count == 4
    assert repairs.message(verdict(net, repairs.zero_rows)) == ("w.bif: made 4 rows of zeros uniform: row (A=a0) of 'B', row (A=a1) of 'B', "
                                    "row (A=a2) of 'B' and 1 more (impossible parent configurations: no "
                                    "probability changes)")


def test_brute_force_agrees_with_the_verdict_on_random_networks():
    """Random 5-variable networks with random rows blanked: the verdict's probabilities and total against
    enumeration of every configuration."""
    rng = np.random.default_rng(16)
    for _ in range(20):
        net = Network("random")
        names = [f"X{k}" for k in range(5)]
        for k, name in enumerate(names):
            parents = [p for p in names[:k] if rng.random() < 0.5]
            shape = tuple(2 for _ in parents) + (2,)
            cpt = rng.dirichlet([0.5, 0.5], size=shape[:-1]) if parents else rng.dirichlet([0.5, 0.5])
            cpt[cpt < 0.15] = 0.0  # some impossible configurations
            cpt /= cpt.sum(axis=-1, keepdims=True)
            net.add_variable(name, ["s0", "s1"], parents, cpt)
        tables, file_cpts = [], {v: net.cpt(v).reshape(-1, 2).copy() for v in names}
        for v in names:
            n_rows = file_cpts[v].shape[0]
            hit = np.flatnonzero(rng.random(n_rows) < 0.3)
            if hit.size:
                file_cpts[v][hit] = 0.0
                tables.append(ZeroRows((v, net.parents(v)), hit, []))
                repaired = file_cpts[v].copy()
                repaired[hit] = 0.5
                net.set_cpt(v, repaired.reshape(net.family_shape(v)))
        if not tables:
            continue
        found = verdict(net, tables)
        joint = np.zeros((2,) * 5)
        file_joint = np.zeros((2,) * 5)
        for x in itertools.product((0, 1), repeat=5):
            value = dict(zip(names, x, strict=True))
            row = {v: int(np.ravel_multi_index([value[p] for p in net.parents(v)], (2,) * len(net.parents(v))))
                   if net.parents(v) else 0 for v in names}
            joint[x] = np.prod([net.cpt(v).reshape(-1, 2)[row[v], value[v]] for v in names])
            file_joint[x] = np.prod([file_cpts[v][row[v], value[v]] for v in names])
        assert found.file_total == pytest.approx(file_joint.sum(), abs=1e-12)
        for t, probabilities in zip(tables, found.probabilities, strict=False):  # the tables a warning names
            parents = list(t.family[1])
            axes = tuple(k for k, v in enumerate(names) if v not in parents)
            marginal = joint.sum(axis=axes).reshape(-1) if parents else np.ones(1)
            np.testing.assert_allclose(probabilities, marginal[t.rows], rtol=0, atol=1e-12)



def _screening_project(tmp_path: Path, zeroed: list[tuple[int, int]]) -> Path:
    """The screening influence diagram saved as a .bnsproj, the rows ``zeroed`` ((first parent's state, second
    parent's state) of 'Confirm') set to zeros in the file."""
    from bnstudio.io.project import project_from_diagram, save_project

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RepairWarning)
        diagram = read_model(CORPUS / "agrum_screening_id.xmlbif")
    path = tmp_path / "screening.bnsproj"
    save_project(project_from_diagram(diagram), path)
    doc = json.loads(path.read_text(encoding="utf-8"))
    confirm = next(v for v in doc["network"]["variables"] if v["name"] == "Confirm")
    for i, j in zeroed:
        confirm["cpt"][i][j] = [0, 0]
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


def test_a_project_holding_a_diagram_judges_its_zero_rows_with_the_decisions_uniform(tmp_path):
    """A .bnsproj with a decision part keeps the decisions as placeholder variables of its network (uniform):
    the rows of zeros written back into it are judged as in the diagram's own file."""
    path = _screening_project(tmp_path, [(0, 1), (1, 0)])
    _, message = _read(path, model=True)
    assert message == (f"{path}: made 2 rows of zeros uniform: row (Screen=skip, Result=positive) of 'Confirm', "
                       f"row (Screen=test, Result=none) of 'Confirm' (impossible parent configurations: no "
                       f"probability changes)")


def test_a_thousand_repaired_tables_cost_the_named_rows_queries_not_a_thousand(monkeypatch, tmp_path):
    """Seen: a 1,500-node chain with 1,499 rows of zeros took 11 s to read (one joint query per table). Only the
    rows a warning names need their probability; the file's total (one query) settles the rest. The chain's
    repaired configurations (X_i = b) are impossible: X0 is never b."""
    n = 400
    text = ["network chain {\n}\n"] + [f"variable X{i} {{\n  type discrete [ 2 ] {{ a, b }};\n}}\n" for i in range(n)]
    text.append("probability ( X0 ) {\n  table 1.0, 0.0;\n}\n")
    text += [f"probability ( X{i} | X{i - 1} ) {{\n  (a) 1.0, 0.0;\n  (b) 0.0, 0.0;\n}}\n" for i in range(1, n)]
    path = tmp_path / "chain.bif"
    path.write_text("".join(text), encoding="utf-8")
    calls = []
    joint = InferenceEngine.joint
    monkeypatch.setattr(InferenceEngine, "joint", lambda self, *a, **k: calls.append(a) or joint(self, *a, **k))
    with pytest.warns(RepairWarning) as caught:
        read_network(path)
    message = str(caught[0].message)
    assert f"made {n - 1:,} rows of zeros uniform" in message and "and 396 more" in message
    assert message.endswith("(impossible parent configurations: no probability changes)")
    assert len(calls) == 3


# ---------------------------------------------------------------------------------------------- who judges
def test_every_public_entry_point_says_the_verdict(capsys, tmp_path):
    """read_network, read_model, open_file and the command line all go through the open path's judge: the
    same text, verdict included (the app's banner: tests/gui/test_open_zero_rows.py)."""
    from bnstudio.cli.main import main
    from bnstudio.io import open_file

    path = _reachable(tmp_path, "agrum_screening.bif", {"0.947": "0", "0.053": "0"})
    expected = (f"{path}: made 2 rows of zeros uniform: row (Sex=male, Pregnant=yes) of 'Test' (impossible "
                f"parent configuration), row (Sex=female, Pregnant=yes) of 'Test' (parent configuration has "
                f"probability 0.052): the file's joint summed to 0.948")
    assert _read(path)[1] == expected
    assert _read(path, model=True)[1] == expected
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        open_file(path)
    assert [str(w.message) for w in caught] == [expected]
    assert main(["info", str(path)]) == 0
    assert capsys.readouterr().err.splitlines() == [f"bnstudio: warning: {expected}"]


def test_the_project_facade_judges_a_project_files_rows_of_zeros(tmp_path):
    """bnstudio.io.project.load_project (public, beside the open path) says the same verdict as read_model,
    in one warning pointing at its caller."""
    from bnstudio.io.project import load_project

    path = _screening_project(tmp_path, [(0, 1)])
    expected = _read(path, model=True)[1]
    assert expected.endswith("(impossible parent configuration: no probability changes)")
    with pytest.warns(RepairWarning) as caught:
        load_project(path)
    assert [str(w.message) for w in caught] == [expected]
    assert caught[0].filename == __file__


def test_a_parser_called_on_its_own_names_the_rows_without_judging_them(monkeypatch):
    """A reader runs no inference (docs/architecture.md §1): outside the open path its warning names the rows
    of zeros and says nothing of their probability, unless the call is wrapped in judged_repairs()."""
    from bnstudio.io import parse_bif

    text = (CORPUS / "agrum_screening.bif").read_text(encoding="utf-8")
    calls = []
    built = InferenceEngine.__init__
    monkeypatch.setattr(InferenceEngine, "__init__", lambda self, *a, **k: calls.append(a) or built(self, *a, **k))
    with pytest.warns(RepairWarning) as caught:
        parse_bif(text, "s.bif")
    assert [str(w.message) for w in caught] == ["s.bif: made 1 row of zeros uniform: row (Sex=male, "
                                                "Pregnant=yes) of 'Test'"]
    assert calls == []
    with pytest.warns(RepairWarning) as caught, judged_repairs():
        parse_bif(text, "s.bif")
    assert [str(w.message) for w in caught] == ["s.bif: made 1 row of zeros uniform: row (Sex=male, "
                                                "Pregnant=yes) of 'Test' (impossible parent configuration: no "
                                                "probability changes)"]
    assert len(calls) == 1


def test_the_verdict_keeps_its_old_address_with_a_deprecation_warning():
    from bnstudio.io import judging, zero_rows

    with pytest.warns(DeprecationWarning, match="bnstudio.io.judging.verdict"):
        assert zero_rows.verdict is judging.verdict
