# BN Studio: two commands from a fresh clone with only python3.
#   make run   -- set up .venv and open the app on a bundled example
#   make test  -- set up .venv with the test extra and run the whole suite
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
EXAMPLE := resources/networks/alarm.bif

.PHONY: run test bench clean

$(VENV)/bin/python:
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

$(STAMP): pyproject.toml | $(VENV)/bin/python
	$(PY) -m pip install --quiet -e ".[test]"
	touch $(STAMP)

run: $(STAMP)
	$(VENV)/bin/bnstudio gui $(EXAMPLE)

test: $(STAMP)
	QT_QPA_PLATFORM=offscreen $(PY) -m pytest -q

bench: $(STAMP)
	$(PY) -m pip install --quiet -e ".[test,bench]"
	$(PY) benchmarks/inference_bench.py
	$(PY) benchmarks/learning_bench.py
	$(PY) benchmarks/errorbars_bench.py
	$(PY) benchmarks/structure_bench.py
	$(PY) benchmarks/data_bench.py

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache
