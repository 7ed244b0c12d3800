"""Which pages a rebuild must render again: every page gets a key, the digest of everything its HTML is
made of, and a page whose key is the one recorded by the previous build into the same site/ is kept as
it is (not rendered, not written).

A key is built from input digests, never from the rendered output, so it can be computed for ten
thousand pages in a fraction of a second:
- `base`: what every page shows or depends on — league's code, the templates, the build flags, the
  date in the footer, and every content file outside the season folders except news (league.yaml,
  clubs.yaml, players.yaml, pages/) plus every season.yaml (titles shown across the site);
- a stage file's bytes stand for everything computed from it (its classification, pairs, matches):
  the rest of what a stage depends on (players, clubs, settings) is already in `base`;
- a season's annual ranking lines (position, tie, points, stages, places) for the club and pair pages,
  which depend on the season's other stages too;
- a season's Quatrilho files for the championship pages and the players' Quatrilho history.

Pages that summarise the whole site (home, lists, search, news) have no key: they are always rendered.
The test that keeps this honest is tests/test_incremental.py: an incremental build must equal a cold
build byte for byte after many kinds of edits.
"""
from __future__ import annotations

import hashlib
import os
from collections import defaultdict
from pathlib import Path


def file_digests(root: Path, prefix: str) -> dict[str, str]:
    """`prefix/relative/path` → sha256 of the bytes, for every file under root (sorted walk)."""
    out: dict[str, str] = {}
    root = Path(root)
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames.sort()
        rel_dir = os.path.relpath(dirpath, root).replace(os.sep, "/")
        for name in sorted(filenames):
            p = os.path.join(dirpath, name)
            try:
                with open(p, "rb") as fh:
                    d = hashlib.sha256(fh.read()).hexdigest()
            except OSError:
                d = "?"
            rel = name if rel_dir == "." else f"{rel_dir}/{name}"
            out[f"{prefix}/{rel}" if prefix else rel] = d
    return out


def _h(*parts) -> str:
    h = hashlib.sha256()
    for p in parts:
        h.update(p.encode("utf-8") if isinstance(p, str) else repr(p).encode("utf-8"))
        h.update(b"\x00")
    return h.hexdigest()


class PageKeys:
    """The key of each page kind (see the module docstring); built once per build from the results."""

    def __init__(self, results, site, content: Path, templates: Path, flags, updated, dates: dict):
        from league.cache import code_version
        league = results.league
        content = Path(content)
        prefix = content.name or "content"
        self.files = file_digests(content, prefix)
        self.dates = dates
        seasons_dir = f"{prefix}/seasons/"
        news_dir = f"{prefix}/news/"
        base = [code_version(), repr(flags), repr(updated)]
        for rel, d in self.files.items():
            if rel.startswith(news_dir):
                continue
            if rel.startswith(seasons_dir) and not rel.endswith("/season.yaml"):
                continue
            base.append(rel)
            base.append(d)
        base.append("templates")
        base += [f"{k}:{v}" for k, v in sorted(file_digests(templates, "").items())]
        self.base = _h(*base)
        self.site = site
        self.results = results
        # a season's Quatrilho files (championship pages, the players' Quatrilho history)
        self.quatrilho: dict[str, str] = {}
        self.season_files: dict[str, str] = {}
        for sr in results.seasons:
            year = sr.season.year
            q = f"{seasons_dir}{year}/quatrilho/"
            s = f"{seasons_dir}{year}/"
            self.quatrilho[year] = _h(*[f"{k}:{v}" for k, v in self.files.items() if k.startswith(q)])
            self.season_files[year] = _h(*[f"{k}:{v}" for k, v in self.files.items() if k.startswith(s)])
        self._stage: dict = {}
        # the annual ranking lines, by season and club / pair
        self.club_annual: dict = {}
        self.pair_annual: dict = {}
        for sr in results.seasons:
            for e in sr.clubs:
                self.club_annual[(sr.season.year, e.key)] = repr((e.position, e.tied, e.points, e.stages, e.places))
            for e in sr.pairs:
                self.pair_annual[(sr.season.year, e.key)] = repr((e.position, e.tied, e.points, e.stages, e.places))
        self.q_players: dict[str, set] = defaultdict(set)
        for sr in results.seasons:
            for cres in sr.championships:
                for pid in getattr(cres, "by_player", {}):
                    self.q_players[pid].add(sr.season.year)
        self.pair_set = _h(*sorted(repr(p) for p in site.pair_hist))

    def stage_file(self, stage) -> str:
        k = self._stage.get(stage.path)
        if k is None:
            k = self._stage[stage.path] = self.files.get(stage.path, "?")
        return k

    # ------------------------------------------------------------------ page kinds
    def stage(self, sr, res, news) -> str:
        st = res.stage
        return _h(self.base, "stage", st.path, self.stage_file(st), self.dates.get(st.path),
                  [(n.path, self.files.get(n.path)) for n in news])

    def season(self, sr) -> str:
        return _h(self.base, "season", sr.season.year, self.season_files[sr.season.year])

    def championship(self, sr, ch) -> str:
        return _h(self.base, "championship", sr.season.year, self.quatrilho[sr.season.year],
                  self.dates.get(getattr(ch, "path", None)))

    def quatrilho_season(self, sr) -> str:
        return _h(self.base, "quatrilho-season", sr.season.year, self.quatrilho[sr.season.year])

    def club(self, cid: str) -> str:
        parts = [self.base, "club", cid]
        for sr in self.results.seasons:
            year = sr.season.year
            parts.append(self.club_annual.get((year, cid)))
            for res in sr.stages:
                if any(t.club == cid for t in res.stage.teams.values()):
                    parts.append(self.stage_file(res.stage))
        return _h(*parts)

    def team(self, tid: str) -> str:
        return _h(self.base, "team", tid, self.pair_set,
                  [(res.stage.path, self.stage_file(res.stage)) for _sr, res, _p in self.site.team_hist[tid]])

    def pair(self, pair) -> str:
        hist = self.site.pair_hist[pair]
        return _h(self.base, "pair", pair, [(res.stage.path, self.stage_file(res.stage)) for _sr, res, _p in hist],
                  [self.pair_annual.get((sr.season.year, pair)) for sr in self.results.seasons])

    def player(self, pid: str) -> str:
        parts = [self.base, "player", pid]
        for pair in sorted(self.site.player_pairs.get(pid, ())):
            parts.append(repr(pair))
            parts += [self.stage_file(res.stage) for _sr, res, _p in self.site.pair_hist[pair]]
        parts += [(y, self.quatrilho[y]) for y in sorted(self.q_players.get(pid, ()))]
        return _h(*parts)
