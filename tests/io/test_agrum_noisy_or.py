"""pyAgrum's noisy-OR nodes saved to BIF: what pyAgrum 3.3.1 writes is a plain table (no property, no function),
and BN Studio reads it to pyAgrum's own CPT and to the noisy-OR formula (Henrion's combination for
addNoisyOR/addNoisyORCompound, Díez's for addNoisyORNet: aGrUM's cause and effect 'present' state is 1)."""
from __future__ import annotations

import itertools

import pytest

from bnstudio.core.canonical import canonical_of
from bnstudio.io import read_network

gum = pytest.importorskip("pyagrum")

WEIGHTS = {"A": 0.8, "B": 0.6, "E": 0.3}
LEAK = 0.05


def saved(tmp_path, add: str):
    """A noisy-OR C over binary A, B, E built with ``bn.<add>``, saved by pyAgrum to BIF; (bn, path)."""
    bn = gum.BayesNet("noisy")
    for name, p in zip(WEIGHTS, (0.3, 0.4, 0.5), strict=True):
        bn.add(gum.LabelizedVariable(name, name, 2))
        bn.cpt(name).fillWith([1 - p, p])
    getattr(bn, add)(gum.LabelizedVariable("C", "C", 2), LEAK)
    for name, w in WEIGHTS.items():
        bn.addWeightedArc(name, "C", w)
    path = tmp_path / f"{add}.bif"
    gum.saveBN(bn, str(path))
    return bn, path


def expected_present(config: dict[str, int], compound: bool) -> float:
    """P(C = 1 | config): 1 - (1 - leak) prod_{present i} q_i, q_i = (1 - w_i)/(1 - leak) (compound, Henrion)
    or 1 - w_i (net, Díez)."""
    absent = 1 - LEAK
    for name, on in config.items():
        if on:
            absent *= (1 - WEIGHTS[name]) / (1 - LEAK) if compound else 1 - WEIGHTS[name]
    return 1 - absent


@pytest.mark.parametrize("add, compound", [("addNoisyOR", True), ("addNoisyORCompound", True),
                                           ("addNoisyORNet", False)])
def test_agrum_noisy_or_bif_reads_to_its_cpt(tmp_path, add, compound):
    bn, path = saved(tmp_path, add)
    text = path.read_text(encoding="utf-8")
    assert "probability (C | " in text and "property" not in text and "function" not in text  # a plain table
    net = read_network(path)
    parents = list(net.parents("C"))
    assert sorted(parents) == sorted(WEIGHTS)
    cpt = net.cpt("C")
    inst = gum.Instantiation(bn.cpt("C"))
    for states in itertools.product(range(2), repeat=len(parents)):
        config = dict(zip(parents, states, strict=True))
        for name, k in config.items():
            inst.chgVal(name, k)
        for c in range(2):
            inst.chgVal("C", c)
            assert cpt[states + (c,)] == pytest.approx(bn.cpt("C").get(inst), abs=1e-9), (config, c)
        assert cpt[states + (1,)] == pytest.approx(expected_present(config, compound), abs=1e-9), config
    assert canonical_of(net, "C") is None  # nothing in the file says it was a noisy-OR
