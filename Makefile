# Quick start: `make site` builds the demo season into site/; `make test` runs every test.
PYTHON ?= python3
VENV   ?= .venv
BIN     = $(VENV)/bin

.PHONY: site test check install clean golden

site: install
	$(BIN)/league build

test: install
	tests/browser/install-deps
	$(BIN)/python -m pytest

check: install
	$(BIN)/league check

install: $(VENV)/.installed

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	touch $@

golden: install
	$(BIN)/python -m tests.golden --update

clean:
	rm -rf $(VENV) site .league-cache
