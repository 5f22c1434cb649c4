# BN Studio: two commands from a fresh clone with only python3.
#   make run   -- set up .venv and open the app on a bundled example
#   make test  -- set up .venv with the test extra and run the whole suite
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
RUN_STAMP  := $(VENV)/.installed-run
TEST_STAMP := $(VENV)/.installed-test
EXAMPLE := resources/networks/alarm.bif

.PHONY: run test bench package clean

$(VENV)/bin/python:
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

# the app alone (make run) needs only the runtime dependencies; the tests add the test extra
$(RUN_STAMP): pyproject.toml | $(VENV)/bin/python
	$(PY) -m pip install --quiet -e .
	touch $(RUN_STAMP)

$(TEST_STAMP): pyproject.toml | $(VENV)/bin/python
	$(PY) -m pip install --quiet -e ".[test]"
	touch $(RUN_STAMP) $(TEST_STAMP)

run: $(RUN_STAMP)
	$(VENV)/bin/bnstudio gui $(EXAMPLE)

test: $(TEST_STAMP)
	QT_QPA_PLATFORM=offscreen $(PY) -m pytest -q

bench: $(TEST_STAMP)
	$(PY) -m pip install --quiet -e ".[test,bench]"
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
	rm -rf $(VENV) build dist *.egg-info .pytest_cache
