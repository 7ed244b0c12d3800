"""How the domain's results travel between a build's processes (league.engine.workers pickles them through
pipes): a few mutable dataclasses that cross in great numbers — table rows, stage places, annual entries,
Quatrilho lines — pickle as cls(*field values), registered here with copyreg, so the domain classes carry
nothing of it."""
from __future__ import annotations

import copyreg
import dataclasses
from operator import attrgetter


def by_fields(cls) -> None:
    """Pickle instances of the mutable dataclass `cls` as cls(*field values), rebuilt by its __init__ when read
    back: about twice as fast as pickle's default (an empty object, then a state dict copied into it, key by
    key). Attributes set outside the fields still travel (as state); a subclass pickles as pickle does."""
    fields = dataclasses.fields(cls)
    if len(fields) < 2 or not all(f.init for f in fields) or cls.__dataclass_params__.frozen:
        raise TypeError(f"{cls.__name__}: by_fields needs a mutable dataclass whose fields (2 or more) are all in "
                        "__init__")
    names = tuple(f.name for f in fields)
    values = attrgetter(*names)   # C: the tuple of field values
    count = len(names)

    def reduce(obj):
        d = obj.__dict__
        if len(d) != count:
            return cls, values(obj), {k: v for k, v in d.items() if k not in names}
        return cls, values(obj)

    copyreg.pickle(cls, reduce)


def register() -> None:
    from league.games.quatrilho.championship import ChampionshipResult, Line
    from league.games.truco.ranking import AnnualEntry, GroupTable, Place, StageResult
    from league.standings.core import Row
    for cls in (Row, Place, GroupTable, StageResult, AnnualEntry, Line, ChampionshipResult):
        by_fields(cls)


register()
