"""The exact solution is sized before anything is allocated (issue 35): a chain of no-forgetting decisions over
hidden states is refused up front in one line, or solved within the memory budget — never run unbounded."""
from __future__ import annotations

import json
import time
import tracemalloc

import numpy as np
import pytest

from bnstudio.decision import build_influence_diagram, solve
from bnstudio.decision.rollback import rollback
from bnstudio.errors import MemoryBudgetExceeded
from tests.decision.helpers import BruteForce, random_diagram

STAY = [[0.8, 0.2], [0.3, 0.7]]
SEE = [[0.75, 0.25], [0.2, 0.8]]


def hidden_chain(steps: int):
    """S1 -> S2 -> ... hidden, O_k = noisy S_k observed before D_k (declared parents O_k, D_{k-1}), one utility
    U(S_n, D_n) at the end: under no-forgetting D_n's policy is over every observation, 2^n rows."""
    chance, decisions = [], []
    for k in range(1, steps + 1):
        chance.append((f"S{k}", ["a", "b"], [f"S{k - 1}"] if k > 1 else [], STAY if k > 1 else [0.5, 0.5]))
        chance.append((f"O{k}", ["a", "b"], [f"S{k}"], SEE))
        decisions.append((f"D{k}", ["a", "b"], [f"O{k}"] + ([f"D{k - 1}"] if k > 1 else [])))
    utility = ("U", [f"S{steps}", f"D{steps}"], [[10.0, -5.0], [-3.0, 8.0]])
    return build_influence_diagram(chance, decisions, [utility], "hidden chain")


def observed_chain(steps: int):
    """O_k observed before D_k, O_{k+1} depends on (O_k, D_k), a utility per step: small policies, long chain."""
    chance, decisions, utilities = [], [], []
    for k in range(1, steps + 1):
        chance.append((f"O{k}", ["a", "b"], [f"O{k - 1}", f"D{k - 1}"] if k > 1 else [],
                       [STAY, SEE] if k > 1 else [0.5, 0.5]))
        decisions.append((f"D{k}", ["a", "b"], [f"O{k}"] + ([f"D{k - 1}"] if k > 1 else [])))
        utilities.append((f"U{k}", [f"O{k}", f"D{k}"], [[10.0, -5.0], [-3.0, 8.0]]))
    return build_influence_diagram(chance, decisions, utilities, "observed chain")


@pytest.mark.timeout(30)
def test_a_25_step_hidden_chain_is_refused_up_front_in_one_line():
    diagram = hidden_chain(25)
    tracemalloc.start()
    start = time.perf_counter()
    try:
        with pytest.raises(MemoryBudgetExceeded) as info:
            solve(diagram, method="no-forgetting")
        elapsed = time.perf_counter() - start
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    message = str(info.value)
    assert elapsed < 2.0
    assert peak < 20 * 2**20  # nothing near a policy table of 2^25 rows was allocated
    assert "\n" not in message
    assert "decision 'D25'" in message and "memory budget of 2 GiB" in message and "LIMID" in message


@pytest.mark.timeout(60)
def test_auto_goes_to_the_limid_at_once_when_the_exact_solution_does_not_fit():
    start = time.perf_counter()
    solution = solve(hidden_chain(25))
    assert time.perf_counter() - start < 20.0
    assert solution.method == "limid-spu"
    assert solution.policies["D25"].parents == ("O25", "D24")


def test_the_plan_is_the_limit_a_fitting_chain_is_solved_exactly_below_it():
    """With the budget exactly what the plan needs, the chain is solved exactly (and equals brute force);
    one byte less is refused before any table is made."""
    from bnstudio.decision.plan import plan_no_forgetting

    value, _ = BruteForce(hidden_chain(2)).best()
    assert solve(hidden_chain(2)).expected_utility == pytest.approx(value, abs=1e-9)
    diagram = hidden_chain(5)
    plan = plan_no_forgetting(diagram)
    need = 8 * max(plan.peak, plan.after)
    solution = solve(diagram, method="no-forgetting", memory_budget=need)
    assert solution.expected_utility == pytest.approx(solve(diagram).expected_utility, abs=1e-12)
    with pytest.raises(MemoryBudgetExceeded, match="memory budget"):
        solve(diagram, method="no-forgetting", memory_budget=need - 1)
    assert solve(diagram, memory_budget=need - 1).method == "limid-spu"


@pytest.mark.parametrize("seed", range(8))
def test_the_planned_policy_domains_are_those_of_the_rollback(seed):
    from bnstudio.decision.plan import plan_no_forgetting

    diagram = random_diagram(seed, n_decisions=3, max_policies=10**9)
    plan = plan_no_forgetting(diagram)
    solved = rollback(diagram).policies
    assert {d: set(p.parents) for d, p in solved.items()} == {d: set(p) for d, p in plan.parents.items()}
    assert plan.policy_entries == {d: p.values.size for d, p in solved.items()}


def test_sizes_beyond_the_float_range_are_written_without_overflow():
    from bnstudio.decision.plan import scientific

    assert scientific(2**40) == "1.1e+12"
    assert scientific(3 * 10**400) == "3.00e+400"


@pytest.mark.timeout(120)
def test_a_200_decision_chain_with_small_policies_compiles_one_tree(monkeypatch):
    """It took 39 s (90 s on a loaded machine): n² path searches in validation and a junction tree compiled per
    decision; now 16 s, all in the option utilities (n decisions × n utility blocks × n cliques)."""
    from bnstudio.inference.compiled import CompiledStructure

    compiled = []
    original = CompiledStructure.compile.__func__
    monkeypatch.setattr(CompiledStructure, "compile",
                        classmethod(lambda cls, *a, **k: compiled.append(1) or original(cls, *a, **k)))
    diagram = observed_chain(200)
    start = time.perf_counter()
    solution = solve(diagram)
    assert time.perf_counter() - start < 60.0
    assert len(compiled) == 1
    assert solution.method == "no-forgetting"
    small = observed_chain(2)
    value, _ = BruteForce(small).best()
    assert solve(small).expected_utility == pytest.approx(value, abs=1e-9)
    assert np.isfinite(solution.expected_utility)


@pytest.mark.timeout(60)
def test_cli_refuses_in_one_line_with_exit_2(tmp_path, capsys):
    from bnstudio.cli.main import main

    path = tmp_path / "chain.json"
    path.write_text(json.dumps(hidden_chain(25).to_dict()))
    start = time.perf_counter()
    code = main(["decide", str(path), "--method", "no-forgetting"])
    err = capsys.readouterr().err
    assert code == 2 and time.perf_counter() - start < 5.0
    assert len(err.strip().splitlines()) == 1 and "decision 'D25'" in err


def test_cli_memory_budget_option(tmp_path, capsys):
    from bnstudio.cli.decide import DEFAULT_BUDGET_GIB
    from bnstudio.cli.main import main
    from bnstudio.inference import DEFAULT_MEMORY_BUDGET

    assert DEFAULT_BUDGET_GIB * 2**30 == DEFAULT_MEMORY_BUDGET

    path = tmp_path / "chain.json"
    path.write_text(json.dumps(hidden_chain(6).to_dict()))
    assert main(["decide", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["method"] == "no-forgetting"
    assert main(["decide", str(path), "--json", "--memory-budget", "0.00001"]) == 0
    assert json.loads(capsys.readouterr().out)["method"] == "limid-spu"
    for bad in ("0", "-1", "nan", "inf", "1e9"):
        assert main(["decide", str(path), "--memory-budget", bad]) == 2
        assert len(capsys.readouterr().err.strip().splitlines()) == 1
