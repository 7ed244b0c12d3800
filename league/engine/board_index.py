"""Each stage's boards by pair (league.site.boards.stage_boards: what the pair and player pages list of it), kept
in the build cache beside the stage's entry, and handed to the site from there (Site.boards).

A rebuild reads every unchanged stage back from the cache, but not its matches (codec.LazyPhases) until a page
asks for them. A score edit renders its four players' pages, and each lists the player's boards in every stage
of every season: up to ~70 stages of the archive. Made from the matches, that is ~70 stages' matches read back
(~1.7 ms each) and their ~1,000 boards gone through (~3 ms for every pair's); read from these entries, ~0.5 ms a
stage. The entry is written the first time a build needs the boards of a stage whose matches it has not read
back (then made from them: a rebuild after a first build, or a build into a new site/), under a key made of the
stage entry's own (it holds what the stage file alone makes), and marked used whenever the stage's entry is
read back (load_tasks.task_use), so the cache's prune keeps it as long as the stage. A first build, which loads
every stage's matches, neither reads nor writes them."""
from __future__ import annotations

import marshal
from collections.abc import Iterator, Mapping
from itertools import chain
from typing import Optional

from league.engine.cache import Cache, digest
from league.engine.codec import VERSION, LazyPhases
from league.models import PairId, Stage
from league.site.boards import PairBoard, stage_boards

_FIELDS = len(PairBoard._fields)


def boards_key(stage_key: str) -> str:
    """The key of the boards entry of the stage whose cache entry is under `stage_key`."""
    return digest("stage-boards", stage_key)


def board_bytes(boards: Mapping) -> bytes:
    """A stage's boards by pair (stage_boards' mapping), in the order of the file, as the marshal bytes of {pair:
    a tuple of its boards, each a plain tuple of its PairBoard's values}. Bytes, not the dict itself: the build
    cache's codec would walk its ~2,000 rows one by one to find them plain (~2.4 ms a stage of the archive)."""
    return marshal.dumps({pair: tuple(map(tuple, boards[pair])) for pair in boards}, VERSION)


def board_rows(data: bytes) -> Optional[dict]:
    """The {pair: rows} of board_bytes' bytes, or None when they are not what it writes: a dict of pairs
    (tuples), each to a tuple of rows, each a tuple of PairBoard's length (checked a kind at a time, in C:
    ~2,000 rows a stage of the archive)."""
    try:
        rows = marshal.loads(data)
    except Exception:  # noqa: BLE001 - EOFError, ValueError, TypeError: not board_bytes'
        return None
    if type(rows) is not dict or not _TUPLE.issuperset(map(type, rows)):
        return None
    own = rows.values()
    if not _TUPLE.issuperset(map(type, own)):
        return None
    every = list(chain.from_iterable(own))
    return rows if _TUPLE.issuperset(map(type, every)) and {_FIELDS}.issuperset(map(len, every)) else None


_TUPLE = frozenset({tuple})


class IndexedBoards(Mapping):
    """stage_boards' mapping {pair: [PairBoard]} over the rows of a boards entry, each pair's list made when
    first asked for — and its rows let go then: a build that renders every page holds each stage's boards once,
    as PairBoards (with the rows as well, the largest process of the archive's full render grew by ~8 MB)."""

    def __init__(self, rows: dict):
        self._rows = rows
        self._pairs = tuple(rows)
        self._made: dict = {}

    def __getitem__(self, pair: PairId) -> list[PairBoard]:
        got = self._made.get(pair)
        if got is None:
            got = self._made[pair] = [PairBoard._make(row) for row in self._rows.pop(pair)]
        return got

    def __iter__(self) -> Iterator[PairId]:
        return iter(self._pairs)

    def __len__(self) -> int:
        return len(self._pairs)


class CachedBoards:
    """The site's boards of a stage (league.site.views.Site `boards`): made from its matches (stage_boards) when
    they are in memory (a first build loads every stage's); when they are still the cache's bytes, from the
    stage's boards entry — or, the first time, made from the matches and the entry written."""

    def __init__(self, cache: Optional[Cache], stage_keys: dict):
        self.cache = cache
        self.stage_keys = stage_keys   # stage file → the key of its cache entry (the loader's)

    def __call__(self, stage: Stage) -> Mapping:
        key = self.stage_keys.get(stage.path)
        phases = stage.phases
        if key is None or self.cache is None or not (isinstance(phases, LazyPhases) and phases.waiting()):
            return stage_boards(stage)   # its matches are in memory already (loaded, or read back): from them
        key = boards_key(key)
        data = self.cache.get(key, bytes)
        rows = board_rows(data) if data is not None else None
        if rows is not None:
            return IndexedBoards(rows)
        if data is not None:
            self.cache.reject(key, "não são as jogadas de uma etapa")
        boards = stage_boards(stage)   # not there yet, or corrupted: made from the matches, and kept
        self.cache.put(key, board_bytes(boards))
        return boards
