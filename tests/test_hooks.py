"""The hooks of bnstudio.hooks (docs/architecture.md §1): the lower layers' notebook drawings and table coding
reach bnstudio.display and bnstudio.data only through them, imported on the first call, never by an import of
bnstudio or the core."""
from __future__ import annotations

import ast
import subprocess
import sys

import numpy as np
import pytest

from bnstudio import hooks
from bnstudio.core import network_from_dsl


def loaded(code: str) -> list[str]:
    """The bnstudio.display / bnstudio.data modules and notebook libraries loaded after ``code`` (a fresh process)."""
    script = (f"{code}\nimport sys\nprint(sorted(m for m in sys.modules if m.startswith(('bnstudio.display', "
              "'bnstudio.data', 'IPython', 'matplotlib'))))")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    return ast.literal_eval(done.stdout)


def test_importing_the_package_the_core_and_the_learners_loads_neither_display_nor_data():
    assert loaded("import bnstudio, bnstudio.core, bnstudio.learn.params, bnstudio.uncertainty.errorbars, "
                  "bnstudio.learn.structure") == []


def test_a_hook_imports_its_provider_on_first_call_only():
    after = loaded("from bnstudio.core import network_from_dsl\nnetwork_from_dsl('A->B', seed=0)._repr_svg_()")
    assert "bnstudio.display.notebook" in after and not any(m.startswith("bnstudio.data") for m in after)
    after = loaded("import numpy as np\nfrom bnstudio.core import network_from_dsl\n"
                   "from bnstudio.learn.params.suffstats import check_codes\n"
                   "check_codes(network_from_dsl('A->B', seed=0), [[0, 1]])")
    assert "bnstudio.data.tables" in after and not any(m.startswith("bnstudio.display") for m in after)


def test_the_hooks_give_what_display_and_data_give():
    from bnstudio.data.tables import as_codes
    from bnstudio.display.notebook import show
    from bnstudio.display.svg import network_svg

    net = network_from_dsl("A->B; A->C", seed=1)
    assert net._repr_svg_() == network_svg(net)
    assert net._repr_mimebundle_() == {"text/html": show(net).html, "image/svg+xml": show(net).svg}
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame({"C": ["s1", "s0"], "A": ["s0", "s1"], "B": ["s1", "s1"]})
    codes, weights = hooks.table_codes(net, frame, None)
    assert np.array_equal(codes, as_codes(net, frame)[0]) and np.array_equal(codes, [[0, 1, 1], [1, 1, 0]])


def test_a_hook_without_a_provider_says_so_and_a_loader_runs_once_provided():
    hook = hooks.Hook("a test drawing")
    with pytest.raises(RuntimeError, match="nothing provides a test drawing"):
        hook(1)
    calls = []
    hook.load_with(lambda: calls.append(hook.provide(lambda x: x + 1)))
    assert hook(1) == 2 and hook(2) == 3 and len(calls) == 1
