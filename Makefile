# `make run` and `make test` work on a fresh machine with only Python 3.11+.
PYTHON ?= $(shell for p in python3.13 python3.12 python3.11 python3; do \
	command -v $$p >/dev/null 2>&1 && $$p -c 'import sys; sys.exit(sys.version_info < (3, 11))' \
	2>/dev/null && { echo $$p; break; }; done)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run demo test lint typecheck conformance bench loadtest clean

# Exact versions from requirements.lock (scripts/lock.py writes it), then the project
# itself without resolving anything again; the lock holds its build tools too.
$(STAMP): pyproject.toml requirements.lock
	@test -n "$(PYTHON)" || { echo "Python 3.11 or newer is required"; exit 1; }
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -r requirements.lock
	$(BIN)/python -m pip install -q --no-deps --no-build-isolation -e .
	@touch $(STAMP)

run: $(STAMP)
	$(BIN)/shengji serve --host 127.0.0.1 --port 8000

demo: $(STAMP)
	$(BIN)/shengji demo

test: $(STAMP) lint typecheck
	@scripts/ensure-browser
	$(BIN)/python -m pytest -n auto
	$(BIN)/shengji conformance tests/conformance/*.json

lint: $(STAMP)
	$(BIN)/ruff check src tests
	$(BIN)/ruff format --check src tests

typecheck: $(STAMP)
	$(BIN)/mypy

conformance: $(STAMP)
	$(BIN)/shengji conformance tests/conformance/*.json

bench: $(STAMP)
	$(BIN)/shengji bench

loadtest: $(STAMP)
	$(BIN)/shengji loadtest

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
