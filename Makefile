# Two commands that work on a fresh machine with nothing but Python and the package registries.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
PIP    := $(PY) -m pip
GZI    := $(VENV)/bin/gzinertia
# pytest-xdist's worker processes: one per core by default (`make test WORKERS=0` runs in one)
WORKERS ?= auto

.PHONY: demo test test-slow lint clean

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PIP) install --quiet --upgrade pip

$(VENV)/.runtime: pyproject.toml | $(PY)
	$(PIP) install --quiet -e .
	touch $@

$(VENV)/.test: pyproject.toml | $(PY)
	$(PIP) install --quiet -e '.[test,dev,docs]'
	touch $@ $(VENV)/.runtime

demo: $(VENV)/.runtime
	@bash scripts/demo.sh $(GZI)

test: $(VENV)/.test
	$(PY) -m ruff check gzinertia tests benchmarks
	$(PY) -m mypy
	$(PY) -m pytest -q -n $(WORKERS)

test-slow: $(VENV)/.test
	$(PY) -m pytest -q -n $(WORKERS) -m slow

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .mypy_cache .ruff_cache
