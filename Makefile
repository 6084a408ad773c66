# Two commands, both self-installing on a fresh machine:
#   make run    start the server (http://127.0.0.1:8000; `make run PORT=8765` for another port)
#   make test   every gate and every test
VENV := .venv
PY := $(VENV)/bin/python
BIN := $(VENV)/bin
PYTHON ?= python3
PORT ?= 8000

.PHONY: run test lint typecheck pytest format clean golden bench

# `make run` needs only what the server runs on; `make test` adds the tools (pytest, mypy,
# ruff, Playwright…), which serve the running server too.
$(VENV)/.installed-run: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e .
	touch $@

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[dev]'
	touch $@ $(VENV)/.installed-run

run: $(VENV)/.installed-run
	$(BIN)/hokm serve --port $(PORT)

test: $(VENV)/.installed
	bash scripts/ensure-browser
	$(BIN)/ruff check src tests scripts
	$(BIN)/ruff format --check src tests scripts
	$(BIN)/mypy --strict src/hokm
	$(BIN)/pytest -q

format: $(VENV)/.installed
	$(BIN)/ruff format src tests scripts
	$(BIN)/ruff check --fix src tests scripts

golden: $(VENV)/.installed
	$(PY) scripts/make_golden.py

bench: $(VENV)/.installed
	$(BIN)/hokm bench

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache
