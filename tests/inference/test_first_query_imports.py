"""A first single query loads only what relevance pruning and elimination need (issue 26: a first answer costs
what the query needs, the import included); the junction-tree modules load when a tree is first made."""
from __future__ import annotations

import ast
import subprocess
import sys

from tests.test_architecture import ALARM

TREE_MODULES = {"bnstudio.inference.trees", "bnstudio.inference.propagation", "bnstudio.inference.jtree"}


def inference_modules_after(code: str) -> set[str]:
    script = (f"import sys\nfrom bnstudio.io import read_network\nfrom bnstudio.inference import InferenceEngine\n"
              f"engine = InferenceEngine(read_network({str(ALARM)!r}))\n{code}\n"
              "print(sorted(m for m in sys.modules if m.startswith('bnstudio.inference')))")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    return set(ast.literal_eval(done.stdout.strip().splitlines()[-1]))


def test_a_single_query_loads_no_tree_module():
    loaded = inference_modules_after("engine.posterior('HR', {'BP': 'LOW'})")
    assert "bnstudio.inference.pruned" in loaded and not loaded & TREE_MODULES


def test_all_marginals_load_the_tree_modules():
    assert TREE_MODULES <= inference_modules_after("engine.posterior(engine.net.variables, {'BP': 'LOW'})")


def test_a_single_query_loads_no_heavy_library():
    """scipy, networkx and pandas cost a new process tens of milliseconds; a first answer needs none of them."""
    script = (f"import sys\nfrom bnstudio.io import read_network\nfrom bnstudio.inference import InferenceEngine\n"
              f"InferenceEngine(read_network({str(ALARM)!r})).posterior('HR', {{'BP': 'LOW'}})\n"
              "print(sorted(m for m in ('scipy', 'networkx', 'pandas') if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert done.stdout.strip().splitlines()[-1] == "[]"
