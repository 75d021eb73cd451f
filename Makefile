# gamenight: `make run` plays, `make test` checks everything. Both set up .venv first.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint typecheck pytest bench clean setup

$(BIN)/python:
	$(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e '.[dev,bench]'
	touch $(STAMP)

setup: $(STAMP)

run: $(STAMP)
	$(BIN)/gamenight serve --host 127.0.0.1 --port $(or $(PORT),8000)

lint: $(STAMP)
	$(BIN)/ruff check src tests bench
	$(BIN)/ruff format --check src tests bench

typecheck: $(STAMP)
	$(BIN)/mypy

pytest: $(STAMP)
	$(BIN)/pytest -n 2 -q

test: lint typecheck pytest

bench: $(STAMP)
	$(BIN)/python bench/drop_or_stop.py
	$(BIN)/python bench/arne.py
	$(BIN)/python bench/ismcts.py
	$(BIN)/python bench/scale.py
	$(BIN)/python bench/server.py
	$(BIN)/python bench/drop_it.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
