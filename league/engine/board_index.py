"""Each stage's boards by pair (league.site.boards.stage_boards: what the pair and player pages list of it), kept
in the build cache as plain values beside the stage's entry, and handed to the site from there (Site.boards).

A rebuild reads every unchanged stage back from the cache, but not its matches (codec.LazyPhases) until a page
asks for them. A score edit renders its four players' pages, and each lists the player's boards in every stage
of every season: up to ~70 stages of the archive. Made from the matches, that is ~70 stages' matches read back
(~1.7 ms each) and their ~1,000 boards gone through (~0.5 ms); read from these entries, ~0.3 ms a stage. The
entry is written when the stage file is loaded (load_tasks.task_fresh), under a key made of the stage entry's
own: it holds what the stage file alone makes."""
from __future__ import annotations

from collections.abc import Iterator, Mapping
from itertools import chain
from typing import Optional

from league.engine.cache import Cache, digest
from league.engine.shapes import Check
from league.models import PairId, Stage
from league.site.boards import PairBoard, stage_boards

_FIELDS = len(PairBoard._fields)


def boards_key(stage_key: str) -> str:
    """The key of the boards entry of the stage whose cache entry is under `stage_key`."""
    return digest("stage-boards", stage_key)


def board_rows(stage: Stage) -> dict:
    """{pair: its boards in the stage (stage_boards), each a plain tuple of the PairBoard's values}, in the order
    of the file."""
    boards = stage_boards(stage)
    return {pair: tuple(map(tuple, boards[pair])) for pair in boards}


def _fits(rows) -> bool:
    """Whether a value read back is what board_rows makes: a dict of pairs (tuples), each to a tuple of rows,
    each a tuple of PairBoard's length (checked a kind at a time, in C: ~1,000 rows a stage of the archive)."""
    if type(rows) is not dict or not _TUPLE.issuperset(map(type, rows)):
        return False
    own = rows.values()
    if not _TUPLE.issuperset(map(type, own)):
        return False
    every = list(chain.from_iterable(own))
    return _TUPLE.issuperset(map(type, every)) and {_FIELDS}.issuperset(map(len, every))


_TUPLE = frozenset({tuple})
BOARD_ROWS = Check(_fits)


class IndexedBoards(Mapping):
    """stage_boards' mapping {pair: [PairBoard]} over the rows of a boards entry, each pair's list made when
    first asked for."""

    def __init__(self, rows: dict):
        self._rows = rows
        self._made: dict = {}

    def __getitem__(self, pair: PairId) -> list[PairBoard]:
        got = self._made.get(pair)
        if got is None:
            got = self._made[pair] = [PairBoard._make(row) for row in self._rows[pair]]
        return got

    def __iter__(self) -> Iterator[PairId]:
        return iter(self._rows)

    def __len__(self) -> int:
        return len(self._rows)


class CachedBoards:
    """The site's boards of a stage (league.site.views.Site `boards`): from the stage's boards entry when the
    build cache has it, else made from its matches (stage_boards)."""

    def __init__(self, cache: Optional[Cache], stage_keys: dict):
        self.cache = cache
        self.stage_keys = stage_keys   # stage file → the key of its cache entry (the loader's)

    def __call__(self, stage: Stage) -> Mapping:
        key = self.stage_keys.get(stage.path)
        if key is None or self.cache is None:
            return stage_boards(stage)
        rows = self.cache.get(boards_key(key), BOARD_ROWS)
        if rows is None:   # not there (deleted, or found corrupted): made from the matches, and kept again
            rows = board_rows(stage)
            self.cache.put(boards_key(key), rows)
        return IndexedBoards(rows)
