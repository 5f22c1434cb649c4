"""The fast paths of the DSL and DNE readers against their exact ones (issue 26): the one-``findall`` tokenizer
against the match-per-token loop, the level-by-level nesting test against the character-class one, and the
tables read all at once against what :func:`~bnstudio.io.common.make_cpt` keeps."""
from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bnstudio.errors import FormatError
from bnstudio.io import read_network
from bnstudio.io.bulk import exact_reading, untouched_tables
from bnstudio.io.genie.dsl import format_dsl
from bnstudio.io.genie.dsl_syntax import Syntax as DslSyntax
from bnstudio.io.genie.dsl_syntax import nesting, nesting_by_classes
from bnstudio.io.hugin.net import _Parser
from bnstudio.io.hugin.net_writer import format_net
from bnstudio.io.netica.dne_syntax import Syntax as DneSyntax
from bnstudio.io.netica.dne_writer import format_dne
from bnstudio.io.repairs import EXACT_TOLERANCE, Repairs, untouched
from tests.io.test_bulk_reading import depth_walk

ROOT = Path(__file__).resolve().parents[2]
SYNTAX = {"dne": DneSyntax, "dsl": DslSyntax}
WRITERS = {"dne": format_dne, "dsl": format_dsl, "net": format_net}


def _mutated(rng: random.Random, text: str) -> str:
    """``text`` with a few characters the tokenizers care about inserted, deleted or repeated."""
    for _ in range(rng.choice([1, 2, 4])):
        at = rng.randrange(len(text) + 1)
        what = rng.randrange(3)
        if what == 0:
            text = text[:at] + rng.choice(['"', "/", "/*", "*/", "//", "/#", "#/", "(", ")", ";", "=", ":", ",",
                                           "\\", "\n", " ", "1e-3", "probs", "PROBABILITIES", "%",
                                           "|", "data", '"\n', "\u00a0"]) + text[at:]
        elif what == 1:
            text = text[:at] + text[at + rng.randrange(1, 8):]
        else:
            text = text[:at] + text[at:at + rng.randrange(1, 30)] + text[at:]
    return text


def _texts(fmt: str) -> list[str]:
    """The corpus files of ``fmt``, the bundled networks written in it, and mutated variants of both."""
    corpus = sorted((ROOT / "tests" / "io" / "corpus").rglob(f"*.{fmt}"))
    texts = [p.read_text(encoding="utf-8", errors="replace") for p in corpus]
    write = WRITERS[fmt]
    texts += [write(read_network(p)) for p in sorted((ROOT / "resources" / "networks").glob("*.bif"))[:4]]
    rng = random.Random(f"fast tokens {fmt}")
    return texts + [_mutated(rng, rng.choice(texts)) for _ in range(150)]


def _exact_tokens(syntax: type, text: str, bulk: bool) -> list[tuple] | str:
    """The loop's tokens (the whole text given as a span, so the fast path is not taken), or its error."""
    reader = syntax.__new__(syntax)
    reader.text, reader.path = text, "f"
    try:
        return [tuple(t) for t in reader._tokens(0, len(text), bulk)]
    except FormatError as exc:
        return str(exc)


@pytest.mark.parametrize("fmt", ["dne", "dsl"])
def test_the_fast_tokenizer_makes_the_loops_tokens(fmt: str) -> None:
    syntax, fast_count = SYNTAX[fmt], 0
    for text in _texts(fmt) + ["", "  // only a comment", 'net "unterminated', "net /# a #/ x {};", "a / b"]:
        reader = syntax.__new__(syntax)
        reader.text, reader.path = text, "f"
        for bulk in (True, False):
            fast = reader._fast_tokens(bulk)
            if fast is not None:  # None: the loop reads (a '/' or an unterminated string)
                fast_count += 1
                assert [tuple(t) for t in fast] == _exact_tokens(syntax, text, bulk), text[:200]
    assert fast_count > 100  # the fast path is the usual one


def test_the_fast_net_tokenizer_makes_the_loops_tokens() -> None:
    fast_count = 0
    for text in _texts("net") + ["", "% only a comment", 'net { label = "two\nlines"; }', 'node "open', "data = ;"]:
        parser = _Parser.__new__(_Parser)
        parser.text, parser.path, parser.repairs = text, "f", Repairs("f", False)
        for bulk in (True, False):
            fast = parser.fast_tokens(bulk)
            if fast is not None:  # None: the loop reads (a string not ending on its line)
                fast_count += 1
                try:
                    exact: list | str = parser.tokens(0, len(text), bulk)
                except FormatError as exc:
                    exact = str(exc)
                assert fast == exact, text[:200]
    assert fast_count > 100


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet="(),0123.e-+ \n\t\u00a0#x", max_size=40))
def test_nesting_by_reduction_is_the_character_class_judgement(body: str) -> None:
    assert nesting(body) == nesting_by_classes(body)


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="(),1 ", max_size=60).map(lambda s: "(" + s + ")"))
def test_nesting_of_nested_lists(body: str) -> None:
    assert nesting(body) == nesting_by_classes(body)


def _rows(rng: np.random.Generator, n_rows: int, card: int) -> np.ndarray:
    rows = rng.dirichlet(np.ones(card), n_rows)
    kind = rng.integers(8)
    if kind == 0:
        rows[rng.integers(n_rows), 0] += rng.choice([1e-13, 1e-12, 2e-12, 1e-3, -1e-13])
    elif kind == 1:
        rows[rng.integers(n_rows)] = 0.0
    elif kind == 2:
        rows[rng.integers(n_rows), 0] = -rows[rng.integers(n_rows), 0]
    elif kind == 3:
        rows = np.round(rows, 2)
    return rows


def test_untouched_tables_are_what_make_cpt_keeps() -> None:
    rng = np.random.default_rng(26)
    tables, expected = [], {}
    for k in range(300):
        shape = tuple(int(c) for c in rng.integers(1, 4, rng.integers(0, 3))) + (int(rng.integers(1, 5)),)
        rows = _rows(rng, int(np.prod(shape[:-1])), shape[-1])
        words = [repr(float(x)) for x in rows.ravel()]
        if k % 50 == 7:
            words = words[:-1]  # a wrong count: left to make_cpt
        if k % 50 == 9:
            words[0] = "1e"     # not a number: that table only... all are then read one by one
        tables.append((k, words, shape))
        if len(words) == rows.size:
            expected[k] = (rows, untouched(rows))
    found = untouched_tables([t for t in tables if t[0] % 50 != 9])
    assert found and len(found) > 150
    for k, cpt in found.items():
        rows, fine = expected[k]
        assert fine, k  # only tables make_cpt keeps untouched
        assert cpt.shape == tables[k][2] and np.array_equal(cpt.ravel(), rows.ravel())
    for k, (rows, fine) in expected.items():
        sums = np.abs(rows.sum(axis=-1) - 1.0)
        if fine and sums.max() <= EXACT_TOLERANCE / 4 and k % 50 != 9:
            assert k in found, k  # away from the edge, every kept table is found
    assert untouched_tables(tables) == {}  # a token that is not a number: all read one by one
    with exact_reading():
        assert untouched_tables(tables[:5]) == {}



def test_untouched_tables_say_nothing_of_huge_numbers() -> None:
    """Rows summing beyond the float range are left to the exact reader, without a numpy warning."""
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        found = untouched_tables([("a", ["1e308", "1e308", "0.4", "0.6"], (2, 2)), ("b", ["0.5", "0.5"], (2,))])
    assert list(found) == ["b"]



@pytest.mark.parametrize("syntax", [DneSyntax, DslSyntax])
def test_an_unterminated_comment_is_left_to_the_loop(syntax: type) -> None:
    """After an unterminated /* the findall would scan to the end from every later /* (quadratic time): the
    loop, which stops at the first, reads such a text (and says where the comment starts)."""
    text = "bnet x { " + "a /* " * 3000
    reader = syntax.__new__(syntax)
    reader.text, reader.path = text, "f"
    assert reader._fast_tokens(True) is None and reader._fast_tokens(False) is None
    with pytest.raises(FormatError, match="1:12: unterminated /\\* comment"):
        syntax(text, "f")
    reader.text = "bnet x { /* a /* b */ c; // d /* e */ };"
    assert reader._fast_tokens(True) is not None



@settings(max_examples=300, deadline=None)
@given(st.integers(0, 20), st.text(alphabet="()1 ", max_size=30), st.integers(-1, 1))
def test_net_balance_of_deep_nests(levels: int, middle: str, extra: int) -> None:
    """Deeper than the pair-removal rounds, the depth walk decides (checked against counting)."""
    from bnstudio.io.hugin.net import _balanced
    body = "(" * levels + middle + ")" * max(0, levels + extra)
    assert _balanced(body) == depth_walk(body)
