"""What every test run shares."""
import os
import shutil
import tempfile

_TEMPLATE_CACHE = tempfile.mkdtemp(prefix="league-test-templates-")


def pytest_configure(config):
    # the compiled templates of the tests' builds (league/engine/template_cache.py) in a folder of this run's,
    # inherited by the builds the tests run in processes of their own: never the user's ~/.cache/league
    os.environ["LEAGUE_TEMPLATE_CACHE"] = _TEMPLATE_CACHE


def pytest_unconfigure(config):
    shutil.rmtree(_TEMPLATE_CACHE, ignore_errors=True)
