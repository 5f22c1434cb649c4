"""Structure learners take tables (issue 39): ``make_structure_learner(...).fit(df)`` learns what the codes with
their names and states learn, whatever the column order; ``learn_structure`` is the one-call form, not
deprecated."""
from __future__ import annotations

import numpy as np
import pytest

from bnstudio.errors import ValidationError
from bnstudio.io import read_network
from bnstudio.learn.registry import ALGORITHMS, structure_learner
from bnstudio.learn.structure import learn_structure, make_structure_learner
from bnstudio.resources import bundled_example
from bnstudio.sampling import codes_to_frame, forward_sample


@pytest.fixture(scope="module")
def asia():
    net = read_network(bundled_example("asia.bif"))
    codes = forward_sample(net, 800, seed=11)
    return net, codes


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_fit_takes_a_dataframe(asia, algorithm):
    net, codes = asia
    target = "dysp" if structure_learner(algorithm).needs_target else None
    options = {"seed": 0} if "seed" in structure_learner(algorithm).option_names else {}
    by_codes = make_structure_learner(algorithm, **options).fit(codes, net.variables,
                                                                [net.states(v) for v in net.variables], target=target)
    frame = codes_to_frame(net, codes)          # state names, categories in state order
    by_frame = make_structure_learner(algorithm, **options).fit(frame, target=target)
    assert by_frame.arcs == by_codes.arcs and by_frame.score == by_codes.score
    for v in net.variables:
        np.testing.assert_array_equal(by_frame.network.cpt(v), by_codes.network.cpt(v))


def test_columns_are_matched_by_name(asia):
    """nb is built around the class whatever the column order: a table's columns are read by name."""
    net, codes = asia
    frame = codes_to_frame(net, codes)
    reordered = make_structure_learner("nb").fit(frame[list(reversed(net.variables))], target="dysp")
    assert sorted(reordered.arcs) == sorted(make_structure_learner("nb").fit(frame, target="dysp").arcs)
    assert reordered.network.variables == list(reversed(net.variables))


def test_codes_still_need_their_names_and_states(asia):
    net, codes = asia
    with pytest.raises(ValidationError, match="give both names and states"):
        make_structure_learner("chow-liu").fit(codes, net.variables)


def test_learn_structure_is_the_one_call_form_not_deprecated(asia):
    net, codes = asia
    frame = codes_to_frame(net, codes)
    assert "Deprecated entry point" not in (learn_structure.__doc__ or "")     # and it warns of nothing
    one_call = learn_structure("tan", frame, target="dysp", k=3)          # k: kdb's, ignored by tan
    assert one_call.arcs == make_structure_learner("tan").fit(frame, target="dysp").arcs
    with pytest.raises(ValidationError, match="algorithm 'tan' has no option 'k'"):
        make_structure_learner("tan", k=3)
