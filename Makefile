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

# Every figure prints with its goal and met / not met; the closing summary lists them
# (bench/goals.py; server.py and capacity.py go through it too).
BENCH_LOG ?= /tmp/gamenight-bench.jsonl
bench: $(STAMP)
	rm -f $(BENCH_LOG)
	BENCH_LOG=$(BENCH_LOG) $(BIN)/python bench/drop_or_stop.py
	BENCH_LOG=$(BENCH_LOG) $(BIN)/python bench/arne.py
	BENCH_LOG=$(BENCH_LOG) $(BIN)/python bench/ismcts.py
	BENCH_LOG=$(BENCH_LOG) $(BIN)/python bench/scale.py
	BENCH_LOG=$(BENCH_LOG) $(BIN)/python bench/server.py
	BENCH_LOG=$(BENCH_LOG) $(BIN)/python bench/capacity.py
	BENCH_LOG=$(BENCH_LOG) $(BIN)/python bench/drop_it.py
	$(BIN)/python bench/goals.py $(BENCH_LOG)

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
