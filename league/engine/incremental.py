"""Which pages a rebuild must render again: every page gets a key, the digest of everything its HTML is
made of, and a page whose key is the one recorded by the previous build into the same site/ is kept as
it is (not rendered, not written).

A key is built from input digests, never from the rendered output, so it can be computed for ten
thousand pages in a fraction of a second:
- `base`: what every page shows or depends on — league's code, the templates, the build flags, the
  date in the footer, and every content file outside the season folders except news (league.yaml,
  clubs.yaml, players.yaml, pages/) plus every season.yaml (titles shown across the site);
- a stage file's bytes stand for everything computed from it on the stage page; the pages of its
  teams, clubs, pairs and players use instead the stage's *signature* of each of them: the line the
  page shows (position, tie, points, how, record, squad, pair statistics, a pair's boards) with the
  stage's heading (name, date, status, field size). A score that changes one pair's pontinhos without moving anybody
  changes two pair pages and four player pages, not every page of the stage's 40 teams. Signatures are
  kept in the build cache per (base, stage file digest) and computed again only for changed stages;
- a season's annual ranking lines (position, tie, points, stages, places) for the club and pair pages,
  which depend on the season's other stages too;
- a season's Quatrilho files for the championship pages and the players' Quatrilho history.

Working the keys out is itself a cost (~10,000 pages, most of them pair and player pages made of stages of
every season): a rebuild takes the previous build's key of a pair or player page when `base` is the same and
none of the seasons the page shows changed (PageKeys.for_page; the record keeps each pair's and player's
seasons, and a digest of each pair's stage lines, which the player pages' keys are made of).

Pages that summarise the whole site (home, lists, search, news) have no key: they are always rendered.
The test that keeps this honest is tests/test_incremental.py: an incremental build must equal a cold
build byte for byte after many kinds of edits.
"""
from __future__ import annotations

import hashlib
import os
import stat
from collections import defaultdict
from pathlib import Path


def file_digests(root: Path, prefix: str, links_out: bool = True) -> dict[str, str]:
    """`prefix/relative/path` → sha256 of the bytes, for every file under root (sorted walk). With links_out
    False, a file reached by a link that leads out of root is not read ("?link": the content's loader refuses
    it, league.engine.content_reader.ContentLinks.check; it may be anything, of any size)."""
    out: dict[str, str] = {}
    root = Path(root)
    real = os.path.realpath(root)
    real_prefix = real if real.endswith(os.sep) else real + os.sep
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames.sort()
        rel_dir = os.path.relpath(dirpath, root).replace(os.sep, "/")
        for name in sorted(filenames):
            rel = name if rel_dir == "." else f"{rel_dir}/{name}"
            out[f"{prefix}/{rel}" if prefix else rel] = _file_digest(os.path.join(dirpath, name), links_out,
                                                                     real_prefix)
    return out


def _file_digest(p: str, links_out: bool, real_prefix: str) -> str:
    """The sha256 of one file's bytes; "?link" for a link out of the content (never read), "?<mode>" for what
    is not a regular file (a FIFO or device would block or never end: the loader reports it), "?" when it
    cannot be read."""
    try:
        st = os.stat(p)
        if not links_out and os.path.islink(p) and not os.path.realpath(p).startswith(real_prefix):
            return "?link"
        if not stat.S_ISREG(st.st_mode):
            return f"?{st.st_mode}"
        with open(p, "rb") as fh:
            return hashlib.sha256(fh.read()).hexdigest()
    except OSError:
        return "?"


def _h(*parts) -> str:
    return hashlib.sha256("\x00".join([p if isinstance(p, str) else repr(p) for p in parts]).encode("utf-8")
                          ).hexdigest()


def _short(text: str) -> str:
    return hashlib.blake2b(text.encode("utf-8"), digest_size=12).hexdigest()


def _annual_line(year: str, e) -> str:
    """What a club or pair page shows of its line in a season's annual ranking."""
    return f"{year}:{e.position}:{e.tied}:{e.points}:{e.stages}:{e.places}"


def stage_signatures(res, boards: dict | None = None) -> tuple[dict, dict]:
    """({team: sig}, {pair: sig}) of one stage: what a team, club, pair or player page shows of it. `boards`:
    the stage's boards by pair (league.site.boards.stage_boards), when the build has them already."""
    from league.site.boards import stage_boards
    from league.site.views import place_how, stage_record
    st = res.stage
    head = repr((st.id, st.name, st.date, st.season, st.status, st.is_final, len(res.classification), len(res.pairs)))
    record = stage_record(st)
    teams = {}
    for p in res.classification:   # each part's repr (texts quoted), the stage's once: one string to hash
        t = st.teams[p.key]
        wins, losses = record.get(p.key, (0, 0))
        teams[p.key] = _short(f"{head}\0{p.position!r}\0{p.tied!r}\0{p.points!r}\0{p.disqualified!r}\0"
                              f"{place_how(res, p)!r}\0{t.name!r}\0{t.club!r}\0{tuple(t.pairs)!r}\0"
                              f"{wins}\0{losses}")
    pairs = {}
    names = {}
    if boards is None:
        boards = stage_boards(st)   # the pair's boards, and the names of the teams it met there
    for p in res.pairs:
        team = res.pair_team.get(p.key)
        name = names.get(team)
        if name is None:
            name = names[team] = repr(st.teams[team].name if team else "")
        own = boards.get(p.key, ())
        met = repr([st.teams[b.opponent_team].name for b in own])
        own = ",".join(map(tuple.__repr__, own))   # (the boards' values: a plain tuple's repr is made in C)
        pairs[p.key] = _short(f"{head}\0{p.position!r}\0{p.tied!r}\0{p.points!r}\0{p.disqualified!r}\0"
                              f"{p.row.values!r}\0{team!r}\0{name}\0{own}\0{met}")
    return teams, pairs


def page_base(results, content: Path, templates: Path, flags, updated,
              inputs: tuple[dict, dict] | None = None) -> tuple[str, dict]:
    """(`base`, the content files' digests it was made of): what every page's key starts with (see the module
    docstring). When it differs from the previous build's, no page can be kept as it is."""
    from league.engine.cache import code_version
    content = Path(content)
    prefix = content.name or "content"
    # the build's digests of the content and template files, read once (league/engine/record.py `read_inputs`)
    files = inputs[0] if inputs else file_digests(content, prefix)
    seasons_dir = f"{prefix}/seasons/"
    news_dir = f"{prefix}/news/"
    base = [code_version(), repr(flags), repr(updated), repr([sr.season.year for sr in results.seasons])]
    for rel, d in files.items():
        if rel.startswith(news_dir):
            continue
        if rel.startswith(seasons_dir) and not rel.endswith("/season.yaml"):
            continue
        base.append(rel)
        base.append(d)
    base.append("templates")
    base += [f"{k}:{v}" for k, v in sorted((inputs[1] if inputs else file_digests(templates, "")).items())]
    return _h(*base), files


# a stage's signatures in the build cache (league.engine.shapes.fits): ({team: sig}, {pair: sig})
SIGNATURES_ENTRY = ({str: str}, {tuple: str})
# what a build's record keeps of its keys (PageKeys.state), checked when the next build reads it back
KEY_STATE = {"base": str, "seasons": {str: str}, "pairs": {(str, str): ((str,), str)}, "players": {str: (str,)}}


class PageKeys:
    """The key of each page kind (see the module docstring); built once per build from the results."""

    def __init__(self, results, site, content: Path, templates: Path, flags, updated, dates: dict,
                 signatures=None, inputs: tuple[dict, dict] | None = None, previous: dict | None = None,
                 base: tuple[str, dict] | None = None):
        content = Path(content)
        self.base, self.files = base or page_base(results, content, templates, flags, updated, inputs)
        self.dates = dates
        self.site = site
        self.results = results
        self._stage: dict = {}
        self._rows: dict = {}
        self._season_digests(f"{content.name or 'content'}/seasons/")
        self._annual_lines()
        self._quatrilho_players()
        self._stage_signatures(signatures)
        self._club_rows()
        # for_page: the previous build's keys, where they still hold, and what the next build needs for that
        self.pairs: dict = {}        # pair → (its seasons, digest of its stage lines): pair_state, kept in the record
        self.players: dict = {}      # player → its seasons
        self._interned: dict = {}
        self._old_pages = None
        self._old_pairs: dict = {}
        self._old_players: dict = {}
        self._dirty: set = set()
        self._now_pairs: set = set()     # the pairs and players in a changed season now
        self._now_players: set = set()
        self._previous_state(previous)
        # every key is worked out (a first build, or `base` changed): each pair's and player's seasons in one pass
        self._seasons: dict | None = self._all_seasons() if self._old_pages is None else None

    def _season_digests(self, seasons_dir: str) -> None:
        """Per season, the digest of its Quatrilho files (championship pages, the players' Quatrilho history)
        and of all its files."""
        self.quatrilho: dict[str, str] = {}
        self.season_files: dict[str, str] = {}
        for sr in self.results.seasons:
            year = sr.season.year
            q = f"{seasons_dir}{year}/quatrilho/"
            s = f"{seasons_dir}{year}/"
            self.quatrilho[year] = _h(*[f"{k}:{v}" for k, v in self.files.items() if k.startswith(q)])
            self.season_files[year] = _h(*[f"{k}:{v}" for k, v in self.files.items() if k.startswith(s)])

    def _annual_lines(self) -> None:
        """The annual ranking lines, by season and club / pair (a pair's written out only for the pair keys
        worked out)."""
        self.club_annual: dict = defaultdict(list)
        self._pair_annual: dict = defaultdict(list)
        for sr in self.results.seasons:
            y = sr.season.year
            for e in sr.clubs:
                self.club_annual[e.key].append(_annual_line(y, e))
            for e in sr.pairs:
                self._pair_annual[e.key].append((y, e))

    def _quatrilho_players(self) -> None:
        """Per player, the seasons in which they played a Quatrilho championship."""
        self.q_players: dict[str, set] = defaultdict(set)
        for sr in self.results.seasons:
            for cres in sr.championships:
                for pid in getattr(cres, "by_player", {}):
                    self.q_players[pid].add(sr.season.year)

    def _stage_signatures(self, signatures) -> None:
        """Per stage, its team and pair signatures: kept in the build cache (`signatures`) under (base, path,
        file digest), computed for changed stages only."""
        from league.engine.cache import digest
        self.team_sig: dict = {}
        self.pair_sig: dict = {}
        for sr in self.results.seasons:
            for res in sr.stages:
                path = res.stage.path
                key = digest("stage-signatures", self.base, path, self.stage_file(res.stage))
                got = signatures.get(key, SIGNATURES_ENTRY, kept=True) if signatures is not None else None
                if got is None:
                    got = stage_signatures(res, self.site.boards(res.stage) if self.site is not None else None)
                    if signatures is not None:
                        signatures.put(key, got, kept=True)
                self.team_sig[path], self.pair_sig[path] = got

    def _club_rows(self) -> None:
        """Per club, its teams' lines: (season, stage path, team) in page order."""
        self.club_rows: dict[str, list] = defaultdict(list)
        for sr in self.results.seasons:
            for res in sr.stages:
                for p in res.classification:
                    self.club_rows[res.stage.teams[p.key].club].append((sr.season.year, res.stage.path, p.key))

    def _previous_state(self, previous: dict | None) -> None:
        """The previous build's keys, when they were made from the same base: the seasons whose files changed
        since (dirty), and the pairs and players in them now."""
        state = (previous or {}).get("key_state")
        if not (state and state.get("base") == self.base and "pages" in previous):
            return
        old_seasons = state["seasons"]
        self._dirty = {y for y in {*old_seasons, *self.season_files} if old_seasons.get(y) != self.season_files.get(y)}
        for sr in self.results.seasons:
            if sr.season.year in self._dirty:
                self._now_in(sr)
        for pair in self._now_pairs:
            self._now_players.update(pair)
        self._old_pages, self._old_pairs, self._old_players = previous["pages"], state["pairs"], state["players"]

    def _now_in(self, sr) -> None:
        """The pairs and Quatrilho players of a changed season."""
        for res in sr.stages:
            self._now_pairs.update(p.key for p in res.pairs)
        for cres in sr.championships:
            self._now_players.update(getattr(cres, "by_player", {}))

    def _all_seasons(self) -> dict:
        """Each pair's and player's seasons, in one pass over the seasons and their stages in order (so each
        list comes sorted), not one page at a time."""
        seasons: dict = {}
        for sr in self.results.seasons:
            y = sr.season.year
            for res in sr.stages:
                for p in res.pairs:
                    for who in (p.key, *p.key):
                        got = seasons.get(who)
                        if got is None:
                            seasons[who] = [y]
                        elif got[-1] != y:
                            got.append(y)
        return {who: self._intern(tuple(years)) for who, years in seasons.items()}

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

    def stage_api(self, res) -> str:
        """A stage's JSON/CSV: computed from the stage file alone (with what `base` holds)."""
        return _h(self.base, "stage-api", res.stage.path, self.stage_file(res.stage))

    def season(self, sr) -> str:
        return _h(self.base, "season", sr.season.year, self.season_files[sr.season.year])

    def championship(self, sr, ch) -> str:
        return _h(self.base, "championship", sr.season.year, self.quatrilho[sr.season.year],
                  self.dates.get(getattr(ch, "path", None)))

    def quatrilho_season(self, sr) -> str:
        return _h(self.base, "quatrilho-season", sr.season.year, self.quatrilho[sr.season.year])

    def club(self, cid: str) -> str:
        parts = [self.base, "club", cid, *self.club_annual.get(cid, ())]
        parts += [f"{y}:{tid}:{self.team_sig[path][tid]}" for y, path, tid in self.club_rows.get(cid, ())]
        # the "Equipes:" line names each team as in its latest stage, which may be under another club
        parts += [f"{tid}={self.site.team_names.get(tid)}" for tid in sorted(self.site.club_teams.get(cid, ()))]
        return _h(*parts)

    def team(self, tid: str) -> str:
        # the page lists the squad of the team's latest stage, each pair linked to its page if it has one
        linked = "".join(["1" if page else "0" for _pair, page in self.site.squad_links(tid)])
        return _h(self.base, "team", tid, linked,
                  *[self.team_sig[res.stage.path][tid] for _sr, res, _p in self.site.team_hist[tid]])

    def _pair_rows(self, pair) -> str:
        got = self._rows.get(pair)
        if got is None:
            got = self._rows[pair] = "|".join([self.pair_sig[res.stage.path][pair]
                                               for _sr, res, _p in self.site.pair_hist[pair]])
        return got

    def pair(self, pair) -> str:
        return _h(self.base, "pair", repr(pair), self._pair_rows(pair),
                  *[_annual_line(y, e) for y, e in self._pair_annual.get(pair, ())])

    def embed_pair(self, pair) -> str:
        """A pair's embed page (league.site.embed): its lines in the current season, of what its page shows —
        so the pair page's key, reused from the previous build as for_page does when its seasons did not change."""
        from league.models import pair_slug
        return _h("embed", self.for_page("pair", f"duplas/{pair_slug(pair)}/index.html", (pair,)))

    def player(self, pid: str) -> str:
        # each pair's stage lines by their digest (pair_state): the previous build's for a pair whose seasons
        # did not change
        parts = [self.base, "player", pid]
        for pair in sorted(self.site.player_pairs.get(pid, ())):
            parts.append(repr(pair))
            parts.append(self.pair_state(pair)[1])
        parts += [f"{y}:{self.quatrilho[y]}" for y in sorted(self.q_players.get(pid, ()))]
        return _h(*parts)

    # ------------------------------------------------------------------ the key of a page
    def for_page(self, kind: str, path: str, args: tuple) -> str:
        """The key of the page at `path` (of `kind`, made with `args`). A pair or player page whose seasons are
        all unchanged since the previous build — no file under seasons/<year>/ of a season it shows differs,
        it is in no changed season now nor was in the previous build, and `base` is the same — gets the key
        that build recorded, without working it out: a pair page's key is made of `base`, its stages'
        signatures and its annual ranking lines, a player page's of `base`, its pairs' stage lines and its
        Quatrilho seasons' files, all of them from those seasons alone (a one-score rebuild of the archive:
        ~8,700 of its ~10,000 page keys)."""
        if kind == "pair":
            pair = args[0]
            old = self._old_pairs.get(pair)
            got = self._reused(path, pair, old[0] if old else None, self._now_pairs)
            if got is not None:   # (so its state is the previous build's: see pair_state)
                self.pairs[pair] = old
                return got
            self.pair_state(pair)
            return self.pair(pair)
        if kind == "player":
            pid = args[0]
            got = self._reused(path, pid, self._old_players.get(pid), self._now_players)
            if got is None:
                got = self.player(pid)
                if self._seasons is not None:   # (a player id and a pair, a tuple, never collide as keys)
                    seasons = self._seasons.get(pid, ())
                    if pid in self.q_players:
                        seasons = tuple(sorted({*seasons, *self.q_players[pid]}))
                else:
                    seasons = {y for pair in self.site.player_pairs.get(pid, ()) for y in self.pair_state(pair)[0]}
                    seasons = tuple(sorted(seasons.union(self.q_players.get(pid, ()))))
                self.players[pid] = self._intern(seasons)
            else:
                self.players[pid] = self._old_players[pid]
            return got
        return getattr(self, kind)(*args)

    def _reused(self, path: str, who, seasons: tuple | None, now: set) -> str | None:
        """The previous build's key of the page at `path` about `who`, a pair or player in `seasons` then, when it
        still holds (see for_page)."""
        if self._old_pages is None or seasons is None or who in now or not self._dirty.isdisjoint(seasons):
            return None
        page = self._old_pages.get(path)
        return page[0] if page is not None else None

    def pair_state(self, pair) -> tuple:
        """(the seasons of a pair's stages, the digest of its stage lines): the previous build's when none of
        those seasons changed and the pair is in no changed season now, else worked out."""
        got = self.pairs.get(pair)
        if got is None:
            old = self._old_pairs.get(pair) if self._old_pages is not None else None
            if old is not None and pair not in self._now_pairs and self._dirty.isdisjoint(old[0]):
                got = old
            else:
                if self._seasons is not None:
                    seasons = self._seasons.get(pair, ())
                else:
                    seasons = self._intern(tuple(sorted({sr.season.year for sr, _r, _p in
                                                         self.site.pair_hist.get(pair, ())})))
                got = (seasons, _short(self._pair_rows(pair)))
            self.pairs[pair] = got
        return got

    def _intern(self, seasons: tuple) -> tuple:
        return self._interned.setdefault(seasons, seasons)

    def state(self) -> dict:
        """What the next build needs to reuse keys (for_page), kept in this build's record."""
        return {"base": self.base, "seasons": dict(self.season_files), "pairs": self.pairs, "players": self.players}

    # ------------------------------------------------------------------ pages about the whole site
    def summary(self, name: str, *extra) -> str:
        """Lists and plain pages that show only base data (clubs, players, pages) and `extra`."""
        return _h(self.base, "summary", name, *extra)

    def news_file(self, n) -> str:
        return f"{n.path}:{self.files.get(n.path)}"


class LazyKeys:
    """The pages' keys (league.engine.incremental.PageKeys), made on first use. A job's key is a `later(…)`
    thunk until resolve_keys(): a rebuild needs them before rendering (to keep the pages whose key is
    unchanged), a first build only for its record, so it works them out while pagefind builds the index."""

    def __init__(self, make, base=None):
        self._make = make
        self._keys = None
        self._base_of = base
        self._base = None

    def get(self):
        if self._keys is None:
            self._keys = self._make(self._base)
        return self._keys

    def base(self) -> str:
        """What every key starts with (league.engine.incremental.page_base), without making the keys."""
        if self._keys is not None:
            return self._keys.base
        if self._base is None:
            self._base = self._base_of()
        return self._base[0]

    def later(self, kind: str, *args) -> "_Key":
        return _Key(self, kind, args)


class _Key:
    __slots__ = ("keys", "kind", "args")

    def __init__(self, keys: LazyKeys, kind: str, args: tuple):
        self.keys, self.kind, self.args = keys, kind, args

    def __call__(self, path: str) -> str:
        k = self.keys.get()
        if self.kind == "news":
            return k.summary("news", k.news_file(*self.args))
        return k.for_page(self.kind, path, self.args)


def job_keys(jobs: list) -> list:
    """The key of each of `jobs`, worked out where it is still a LazyKeys thunk."""
    return [job.key(job.path) if isinstance(job.key, _Key) else job.key for job in jobs]


def resolve_keys(plan, keys: list | None = None) -> None:
    """Every job's key worked out (see LazyKeys), or taken from `keys`: job_keys of the same jobs, in the same
    order, made in another process (league/engine/helpers.py `start_keys_helper`)."""
    if keys is None:
        keys = job_keys(plan.jobs)
    elif len(keys) != len(plan.jobs):   # pragma: no cover - the same jobs, in the same order
        raise RuntimeError("chaves das páginas: trabalhos diferentes")
    plan.jobs[:] = [job if not isinstance(job.key, _Key) else job._replace(key=key) for job, key in zip(plan.jobs, keys)]


def lazy_keys(content, flags, signatures=None, inputs=None, previous=None):
    """The keys_for of league.site.render.plan_site: LazyKeys for the site being planned."""
    def make(results, site, templates, updated, dates):
        return LazyKeys(lambda base: PageKeys(results, site, content, templates, flags, updated, dates, signatures,
                                              inputs, previous, base),
                        lambda: page_base(results, content, templates, flags, updated, inputs))
    return make
