# BN Studio: two commands from a fresh clone with only python3.
#   make run      -- set up .venv and open the app on a bundled example
#   make test     -- set up .venv with the test extra, lint (make lint) and run the whole suite
#   make lint     -- ruff over the code and mypy over the whole package ([tool.ruff], [tool.mypy] in pyproject.toml),
#                    and commit subjects of at most 72 characters (.ci/commit_subjects.py: the commits since
#                    $COMMIT_SUBJECTS_BASE or origin/main, else HEAD alone)
#   make docs     -- the API reference (Sphinx: autodoc + napoleon over the docstrings), warnings as errors, in
#                    build/docs-html/index.html
#   make upgrade  -- re-resolve every dependency to its newest release, run the suite on it, and rewrite the
#                    pins (packaging/constraints.txt) only if it passes
# run and test install the exact versions in packaging/constraints.txt, so an upstream release never turns a
# fresh clone red; pyproject.toml keeps the supported ranges for `pip install` into your own environment.
PYTHON ?= python3
SHELL  := /bin/bash
# pipefail: a failed pip install fails its target even though its output is filtered
.SHELLFLAGS := -o pipefail -c
VENV   := .venv
PY     := $(VENV)/bin/python
PINS   := packaging/constraints.txt
RUN_STAMP  := $(VENV)/.installed-run
TEST_STAMP := $(VENV)/.installed-test
DOCS_STAMP := $(VENV)/.installed-docs
EXAMPLE := resources/networks/alarm.bif
# the suite on every core (pytest-xdist; its 10 slowest tests listed), then the tests that time the machine
# on their own (marker `alone`; only their files are collected again)
ALONE_FILES = $(shell grep -rl --include='*.py' 'pytest.mark.alone' tests)
SUITE = QT_QPA_PLATFORM=offscreen $(1) -m pytest -q -n $(WORKERS) --durations=10 -m "not alone" && \
        QT_QPA_PLATFORM=offscreen $(1) -m pytest -q -p no:xdist -m alone $(ALONE_FILES)
WORKERS ?= 2
# pip's progress, a line a package (its other chatter dropped)
PIP_PROGRESS := awk '/^(Collecting|Successfully)/ {print; fflush()}'
UPGRADE := .venv-upgrade

.PHONY: run test lint docs upgrade bench package clean

$(VENV)/bin/python:
	@echo "== make: creating $(VENV) with $(PYTHON)"
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --progress-bar off -c $(PINS) --upgrade pip

# the app alone (make run) needs only the runtime dependencies; the tests add the test extra
$(RUN_STAMP): pyproject.toml $(PINS) | $(VENV)/bin/python
	@echo "== make: installing BN Studio and the pinned versions of what it needs ($(PINS)); about a minute"
	$(PY) -m pip install --progress-bar off -c $(PINS) -e . | $(PIP_PROGRESS)
	$(PY) -c "import bnstudio"
	touch $(RUN_STAMP)

$(TEST_STAMP): pyproject.toml $(PINS) | $(VENV)/bin/python
	@echo "== make: installing BN Studio, its test tools and the pinned versions ($(PINS)); a minute or two"
	$(PY) -m pip install --progress-bar off -c $(PINS) -e ".[test]" | $(PIP_PROGRESS)
	$(PY) -c "import bnstudio, pytest, xdist"
	touch $(RUN_STAMP) $(TEST_STAMP)

$(DOCS_STAMP): pyproject.toml $(PINS) | $(VENV)/bin/python
	@echo "== make: installing BN Studio, Sphinx and the pinned versions ($(PINS))"
	$(PY) -m pip install --progress-bar off -c $(PINS) -e ".[docs]" | $(PIP_PROGRESS)
	$(PY) -c "import bnstudio, sphinx"
	touch $(RUN_STAMP) $(DOCS_STAMP)

run: $(RUN_STAMP)
	$(VENV)/bin/bnstudio gui $(EXAMPLE)

# ruff's rules and the packages mypy checks are set in pyproject.toml; no formatter is run
lint: $(TEST_STAMP)
	@echo "== make: ruff, mypy and the commit subjects"
	$(VENV)/bin/ruff check bnstudio tests benchmarks packaging docs .ci
	$(VENV)/bin/mypy
	$(PY) .ci/commit_subjects.py

test: lint
	@echo "== make: running the suite on $(WORKERS) workers"
	$(call SUITE,$(PY))

# the API reference from the docstrings (docs/api/conf.py); a docs/ folder exists, so the target is phony
docs: $(DOCS_STAMP)
	rm -rf docs/api/generated build/docs-html
	QT_QPA_PLATFORM=offscreen $(PY) -m sphinx -W --keep-going -q -b html docs/api build/docs-html
	@echo "== make: the API reference is build/docs-html/index.html"

# newest releases in a venv of their own; the pins change only when the whole suite passes there
upgrade:
	rm -rf $(UPGRADE)
	$(PYTHON) -m venv $(UPGRADE)
	$(UPGRADE)/bin/python -m pip install --quiet --progress-bar off --upgrade pip
	$(UPGRADE)/bin/python -m pip install --progress-bar off --upgrade -e ".[test,docs]" | $(PIP_PROGRESS)
	$(call SUITE,$(UPGRADE)/bin/python)
	$(UPGRADE)/bin/python packaging/pin_versions.py
	rm -rf $(UPGRADE)
	@echo "== make: $(PINS) rewritten; 'git diff $(PINS)' shows what moved, 'make test' installs it in $(VENV)"

bench: $(TEST_STAMP)
	$(PY) -m pip install --quiet -c $(PINS) -e ".[test,bench]"
	$(PY) benchmarks/inference_bench.py
	$(PY) benchmarks/learning_bench.py
	$(PY) benchmarks/discriminative_bench.py
	$(PY) benchmarks/errorbars_bench.py
	$(PY) benchmarks/structure_bench.py
	$(PY) benchmarks/data_bench.py

# one-folder desktop build in dist/bnstudio (PyInstaller is a build tool, not a dependency; see packaging/README.md)
package: $(RUN_STAMP)
	$(PY) -m pip install --quiet pyinstaller
	$(VENV)/bin/pyinstaller --noconfirm packaging/bnstudio.spec

clean:
	rm -rf $(VENV) $(UPGRADE) build dist *.egg-info .pytest_cache
