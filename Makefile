# gamenight: `make run` plays, `make test` checks everything. Both set up .venv first.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
LEARN_STAMP := $(VENV)/.installed-learn

.PHONY: run test lint typecheck pytest bench clean setup i18n golden

$(BIN)/python:
	$(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e '.[dev,bench]'
	touch $(STAMP)

# The tests also train (tests/learn): the [learn] extra with torch's CPU build (2.13.0, the
# CPU wheel this machine's pip finds; without it the training tests skip and say why).
$(LEARN_STAMP): $(STAMP)
	$(BIN)/pip install --quiet torch==2.13.0 -e '.[learn]' \
		|| echo "the [learn] extra could not be installed; the training tests will skip"
	touch $(LEARN_STAMP)

setup: $(STAMP)

run: $(STAMP)
	$(BIN)/gamenight serve --host 127.0.0.1 --port $(or $(PORT),8000)

lint: $(STAMP)
	$(BIN)/ruff check src tests bench
	$(BIN)/ruff format --check src tests bench

typecheck: $(STAMP)
	$(BIN)/mypy

# three workers on CI's two cores: the browser tests mostly wait (bots, timers, the page),
# and a third worker fills that time (a clean clone: 16:45 against 18:51 with two)
pytest: $(STAMP) $(LEARN_STAMP)
	$(BIN)/pytest -n 3 --dist loadgroup -q --durations=25

test: lint typecheck pytest

# every golden game (the suite replays 20 of Drop It's 50 per case: tests/golden/test_golden.py)
golden: $(STAMP)
	GAMENIGHT_GOLDEN_ALL=1 $(BIN)/pytest -n 2 -q tests/golden

# Languages: extract every message (Babel), update each .po, compile the .mo files and write
# the pages' JSON catalogues (src/gamenight/i18n/build.py; tests/test_i18n.py checks them).
i18n: $(STAMP)
	$(BIN)/python -m gamenight.i18n.build

# Every figure prints with its goal and met / not met; the closing summary lists them
# (bench/goals.py; server.py and capacity.py go through it too). One bench at a
# time, each after the load average (`uptime`): a shared machine moves every figure, so
# quote it. `make bench NICE=` runs them at normal priority.
BENCH_LOG ?= /tmp/gamenight-bench.jsonl
NICE ?= nice -n 10
BENCHES := drop_or_stop arne ismcts scale server capacity drop_it coach_flood overload window_pace coach_speed cli
bench: $(STAMP)
	rm -f $(BENCH_LOG)
	for b in $(BENCHES); do \
		echo "== bench/$$b.py, $$(uptime)"; \
		BENCH_LOG=$(BENCH_LOG) $(NICE) $(BIN)/python bench/$$b.py || exit 1; \
	done
	$(BIN)/python bench/goals.py $(BENCH_LOG)

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
