"""Every learner documents itself (issue 39): ``help`` of a learner's class lists the options its registry entry
declares, with their defaults, and every ``fit`` has a docstring naming its parameters."""
from __future__ import annotations

import inspect
import pydoc

import pytest

from bnstudio.learn.params import make_learner
from bnstudio.learn.registry import PARAMETER_LEARNERS, STRUCTURE_LEARNERS, options_text
from bnstudio.learn.structure import make_structure_learner


@pytest.mark.parametrize("entry", PARAMETER_LEARNERS + STRUCTURE_LEARNERS, ids=lambda e: e.name)
def test_help_lists_the_options_and_fit_is_documented(entry):
    make = make_learner if entry.kind == "parameters" else make_structure_learner
    cls = type(make(entry.name))
    text = pydoc.render_doc(cls, renderer=pydoc.plaintext)
    assert f"Options of ``{entry.name}``" in text
    for option in entry.options:
        assert f"* ``{option.name}`` (" in text and option.help[:40] in " ".join(text.split())
        assert f"default ``{entry.defaults()[option.name]!r}``" in text
    fit = inspect.getdoc(cls.fit) or ""
    assert "Parameters" in fit and "Returns" in fit
    for name in list(inspect.signature(cls.fit).parameters)[1:]:
        assert f"\n{name} :" in fit, f"{entry.name}.fit does not document '{name}'"


def test_help_of_mp_names_prior_and_ess():
    text = pydoc.render_doc(type(make_learner("mp")), renderer=pydoc.plaintext)
    assert "``prior`` ({laplace, bdeu, network}, default ``'laplace'``)" in text
    assert "``ess`` (float in [1e-06, 1e+09], default ``1.0``)" in text


def test_options_text_says_what_a_name_fixes():
    lgd = next(e for e in PARAMETER_LEARNERS if e.name == "lgd")
    assert options_text(lgd).endswith("* fixed by the name: ``criterion='ll'``")
    assert options_text(PARAMETER_LEARNERS[0]).endswith("* none")     # ml takes no option
