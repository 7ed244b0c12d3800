"""The content's shapes (league.content.schema) and their validation (league.content.validate), imported when
first used: they need pydantic, ~0.15 s of imports, and a rebuild that finds league.yaml, every season.yaml,
clubs.yaml and players.yaml in the cache and leaves the edited files to a worker (parallel_load.run_tasks)
never needs them in this process."""
from __future__ import annotations


class _Lazy:
    """A module imported when one of its names is first used."""

    def __init__(self, name: str):
        self._name = name

    def __getattr__(self, attr: str):
        from importlib import import_module
        value = getattr(import_module(self._name), attr)
        setattr(self, attr, value)   # (found in the instance from now on)
        return value


S = _Lazy("league.content.schema")
_validation = _Lazy("league.content.validate")


def validate(model, raw, rel, diags, what="o arquivo"):
    """league.content.validate.validate (imported at the first use)."""
    return _validation.validate(model, raw, rel, diags, what)
