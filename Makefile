# Quick start: `make site` builds the demo season into site/; `make test` runs every test.
PYTHON ?= python3
VENV   ?= .venv
BIN     = $(VENV)/bin

.PHONY: site test check install clean golden translations

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

# interface text: extract (babel.cfg) into league/locale/messages.pot, update every catalog, fix pt_BR's
# plural header; lists what is left to translate (league/i18n.py says how to add a language)
translations: install
	$(BIN)/python tools/translations

clean:
	rm -rf $(VENV) site .league-cache
