# Quick start: `make site` builds the demo season into site/; `make test` runs every test.
PYTHON ?= python3
VENV   ?= .venv
BIN     = $(VENV)/bin

# the locked versions (with hashes) that make install, Netlify and the workflow install; `make lock` makes them
SITE_LOCK = requirements/site.txt
TEST_LOCK = requirements/test.txt
# uv, which writes the locks (uv pip compile); a new version only when `make lock` needs one
UV_VERSION = 0.13.9

.PHONY: site test check install clean golden translations lock

site: install
	$(BIN)/league build

# the tests on every core (pytest-xdist; PYTEST_WORKERS=0 runs them in this process, for pdb)
PYTEST_WORKERS ?= auto

test: install
	tests/browser/install-deps
	$(BIN)/python -m pytest -n $(PYTEST_WORKERS)

check: install
	$(BIN)/league check

install: $(VENV)/.installed

# the locked packages, each checked against its hash, then league itself (editable) with nothing more
$(VENV)/.installed: pyproject.toml $(SITE_LOCK) $(TEST_LOCK)
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --require-hashes -r $(TEST_LOCK)
	$(BIN)/pip install --quiet --no-deps -e .
	touch $@

# after a change of dependencies in pyproject.toml: pins what it asks for, keeping every pin it still allows
# (add --upgrade-package NAME, or --upgrade, to the commands to move pins); the test lock holds the site's
# pins and the test tools'. Linux, macOS and Windows alike (--universal), for Python 3.11 and later.
UV_COMPILE = $(VENV)/.uv/bin/uv pip compile --quiet --universal --python-version 3.11 --generate-hashes
lock:
	test -x $(VENV)/.uv/bin/pip || $(PYTHON) -m venv $(VENV)/.uv
	$(VENV)/.uv/bin/pip install --quiet 'uv==$(UV_VERSION)'
	mkdir -p requirements
	$(UV_COMPILE) pyproject.toml -o $(SITE_LOCK)
	$(UV_COMPILE) pyproject.toml --extra test -c $(SITE_LOCK) -o $(TEST_LOCK)

golden: install
	$(BIN)/python -m tests.golden --update

# interface text: extract (babel.cfg) into league/locale/messages.pot, update every catalog, fix pt_BR's
# plural header; lists what is left to translate (league/i18n.py says how to add a language)
translations: install
	$(BIN)/python tools/translations

clean:
	rm -rf $(VENV) site .league-cache
