"""The build cache: outside site/, safe to delete, never trusted when corrupted, and a cached build
gives byte-identical output to a build without it."""
from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from league.engine.build import build, check
from tests.util import cache_entries as entries

ROOT = Path(__file__).resolve().parent.parent


def _tree(root: Path) -> dict[str, str]:
    return {p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file()}


def test_cached_build_equals_uncached_build(tmp_path):
    cache = tmp_path / "cache"
    build(ROOT / "content", tmp_path / "cold", templates=ROOT / "league" / "templates", cache_dir=False)
    build(ROOT / "content", tmp_path / "fill", templates=ROOT / "league" / "templates", cache_dir=cache)
    assert any(cache.rglob("*.entry")), "the first build fills the cache"
    build(ROOT / "content", tmp_path / "warm", templates=ROOT / "league" / "templates", cache_dir=cache)
    assert _tree(tmp_path / "cold") == _tree(tmp_path / "warm")
    assert not (tmp_path / "warm" / ".league-cache").exists()


def test_corrupted_cache_entry_is_ignored_with_a_warning(tmp_path):
    cache = tmp_path / "cache"
    first = check(ROOT / "content", cache_dir=cache)
    entries = sorted(cache.rglob("*.entry"))
    entries[0].write_bytes(b"not a pickle at all")
    _one_corrupted_entry_ignored(cache, first)


def _one_corrupted_entry_ignored(cache: Path, first) -> None:
    """A check with `cache` warns of one corrupted entry and gives the results of `first`, made before."""
    from league.site.api import api_files
    second = check(ROOT / "content", cache_dir=cache)
    warnings = [d for d in second.diagnostics if d.code == "cache"]
    assert len(warnings) == 1 and "corrompida" in warnings[0].message
    assert api_files(first.results) == api_files(second.results)


def test_changed_stage_is_recomputed_not_served_from_cache(tmp_path):
    import shutil
    content = tmp_path / "content"
    shutil.copytree(ROOT / "content", content)
    cache = tmp_path / "cache"
    before = check(content, cache_dir=cache)
    stage = content / "seasons" / "2026" / "truco" / "etapa-1.yaml"
    text = stage.read_text(encoding="utf-8")
    assert "status: final" in text
    stage.write_text(text.replace("status: final", "status: in_progress", 1), encoding="utf-8")
    after = check(content, cache_dir=cache)
    res = {r.stage.id: r for r in after.results.seasons[0].stages}
    assert res["etapa-1"].stage.status == "in_progress"
    # an in-progress stage awards no ranking points (rules.md): etapa-1 disappears from the club ranking
    assert all("etapa-1" not in e.stages for e in after.results.seasons[0].clubs)
    assert any("etapa-1" in e.stages for e in before.results.seasons[0].clubs)


def _age(path: Path, seconds: float) -> None:
    import os
    import time
    t = time.time() - seconds
    os.utime(path, (t, t))


def test_a_build_deletes_what_no_build_used_for_a_day_and_keeps_what_it_used(tmp_path):
    # league.engine.cache.UNUSED_FOR = 24 h. Everything is made 2 days old by hand; the next build reads every
    # entry it needs (which marks them used), writes its record, then prunes: only the entries of
    # content that no longer exists (an edited stage's previous version, a stray write) are deleted.
    import shutil
    from league.engine.cache import UNUSED_FOR
    assert UNUSED_FOR == 24 * 3600
    content = tmp_path / "content"
    shutil.copytree(ROOT / "content", content)
    cache = tmp_path / "cache"
    build(content, tmp_path / "site", templates=ROOT / "league" / "templates", cache_dir=cache)
    first = {p.name for p in cache.rglob("*.entry")}
    stage = content / "seasons" / "2026" / "truco" / "etapa-1.yaml"
    stage.write_text(stage.read_text(encoding="utf-8") + "\n# revisado\n", encoding="utf-8")
    build(content, tmp_path / "site", templates=ROOT / "league" / "templates", cache_dir=cache)
    second = {p.name for p in cache.rglob("*.entry")}
    assert second > first, "an edit adds entries (the stage's new version, its season's rankings)"
    stray = cache / "ab" / ("ab" + "0" * 62 + ".tmp123")
    stray.parent.mkdir(exist_ok=True)
    stray.write_bytes(b"a write cut short")
    old_jinja = cache / "jinja-0123456789abcdef0123"
    old_jinja.mkdir()
    (old_jinja / "__jinja2_x.cache").write_bytes(b"compiled by another league version")
    for p in [*cache.rglob("*"), old_jinja]:
        _age(p, 2 * 24 * 3600)
    stage.write_text(stage.read_text(encoding="utf-8") + "# de novo\n", encoding="utf-8")
    report = build(content, tmp_path / "site", templates=ROOT / "league" / "templates", cache_dir=cache)
    third = {p.name for p in cache.rglob("*.entry")}
    # what the third build used is kept (and used again: a check with the same cache hits every file)
    assert len(third) == len(first), (len(first), len(second), len(third))
    assert not stray.exists() and not old_jinja.exists()
    assert not list(cache.glob("jinja-*")), "no build keeps compiled templates"
    assert report.pages > 0
    from league.engine.cache import Cache
    again = Cache(cache)
    from league.engine.loader import Loader
    Loader(content, again).load()
    assert again.misses == 0 and again.hits > 0


def test_an_entry_used_lately_by_another_build_is_kept(tmp_path):
    # two content folders may share one cache ($LEAGUE_CACHE_DIR): a build deletes only what no build
    # has used for a day, so the other folder's fresh entries (here: an hour old) stay
    from league.engine.cache import Cache
    cache = tmp_path / "cache"
    other = Cache(cache)
    other.put("cd" + "1" * 62, {"from": "another content folder"})
    entry = cache / "cd" / ("cd" + "1" * 62 + ".entry")
    _age(entry, 3600)
    build(ROOT / "content", tmp_path / "site", templates=ROOT / "league" / "templates", cache_dir=cache)
    assert entry.exists()
    _age(entry, 25 * 3600)
    assert Cache(cache).get("cd" + "1" * 62) == {"from": "another content folder"}, \
        "read back: used now, so kept"
    build(ROOT / "content", tmp_path / "site2", templates=ROOT / "league" / "templates", cache_dir=cache)
    assert entry.exists()
    _age(entry, 25 * 3600)
    build(ROOT / "content", tmp_path / "site3", templates=ROOT / "league" / "templates", cache_dir=cache)
    assert not entry.exists()


def test_a_stage_read_back_from_the_cache_reads_its_matches_only_when_asked(tmp_path):
    # (league.models.LazyPhases) the stages' phases — groups, rounds, their matches and boards — stay encoded
    # until something iterates them; then they are the same as the stage loaded without the cache
    import pickle
    from league.engine.cache import KEPT
    from league.engine.codec import LazyPhases
    cache = tmp_path / "cache"
    fresh = check(ROOT / "content", cache_dir=False)
    check(ROOT / "content", cache_dir=cache)
    KEPT.forget()   # read back as a new process reads it (not the values this process kept)
    again = check(ROOT / "content", cache_dir=cache)
    stages = [r.stage for sr in again.results.seasons for r in sr.stages]
    assert stages and all(isinstance(st.phases, LazyPhases) and st.phases._value is None for st in stages)
    before = [r.stage for sr in fresh.results.seasons for r in sr.stages]
    for st, old in zip(stages, before):
        assert st.path == old.path
        assert len(st.phases) == len(old.phases)          # the first use reads them
        assert st.phases._value is not None
        assert st.phases == old.phases and old.phases == tuple(st.phases)
        assert [m.id for m in st.matches] == [m.id for m in old.matches]
        assert st == old                                 # the whole stage, phases included
        assert pickle.loads(pickle.dumps(st)) == old     # and sent to another process, once read


def test_a_corrupted_byte_among_a_stages_encoded_matches_is_caught_when_the_entry_is_read(tmp_path):
    # the matches travel as bytes inside the entry (LazyPhases), read only when a page asks: a byte changed
    # there must make the entry ignored with a warning when it is read back, like any corrupted entry — not a
    # failure later, nor a stage with wrong matches
    cache = tmp_path / "cache"
    fresh = check(ROOT / "content", cache_dir=cache)
    for entry, _key, value in entries(cache):
        phases = getattr(value[0], "phases", None) if isinstance(value, tuple) and value else None
        if phases is not None and getattr(phases, "_data", None):
            data = entry.read_bytes()
            at = data.find(phases._data) + len(phases._data) // 2
            entry.write_bytes(data[:at] + bytes([data[at] ^ 0x01]) + data[at + 1:])
            break
    else:
        raise AssertionError("no stage entry with its matches encoded apart")
    _one_corrupted_entry_ignored(cache, fresh)


def test_a_stage_changed_after_the_build_hashed_it_is_loaded_but_not_cached(tmp_path):
    # the stages' cache keys come from the digests the build made of every content file before loading
    # (league.engine.loader.Loader.digests): a file whose bytes, when loaded, are not the ones its key was made from
    # (edited meanwhile) is used as loaded but not cached under that key — the next build loads it again
    import hashlib
    import shutil
    content = tmp_path / "content"
    shutil.copytree(ROOT / "content", content)
    rel = "content/seasons/2026/truco/etapa-1.yaml"
    digests = {f"content/{p.relative_to(content).as_posix()}": hashlib.sha256(p.read_bytes()).hexdigest()
               for p in content.rglob("*") if p.is_file()}

    def cached_stages(cache):
        return {value[0].path for _path, _key, value in entries(cache)
                if isinstance(value, tuple) and len(value) == 4 and hasattr(value[0], "phases")}
    stale = dict(digests, **{rel: hashlib.sha256(b"what the file held before").hexdigest()})
    report = check(content, cache_dir=tmp_path / "c1", digests=stale)
    assert any(r.stage.path == rel for sr in report.results.seasons for r in sr.stages)   # used as loaded
    assert rel not in cached_stages(tmp_path / "c1")
    assert "content/seasons/2026/truco/etapa-2.yaml" in cached_stages(tmp_path / "c1")
    check(content, cache_dir=tmp_path / "c2", digests=digests)
    assert rel in cached_stages(tmp_path / "c2")


def _settings(league) -> list:
    return [(league.name, league.short_name, league.base_url, league.locale, league.repository, league.allow_html,
             league.truco, league.quatrilho)] + [(s.year, s.title, s.truco, s.quatrilho, s.path) for s in league.seasons]


def test_league_and_season_settings_come_from_the_cache_until_one_of_their_files_changes(tmp_path):
    # league.yaml and every season.yaml make the League's and the Seasons' settings (Loader.settings_key): kept
    # in the cache, with what was reported about them, so that a rebuild after a stage edit needs neither
    # their YAML nor pydantic; a season.yaml edited, added or removed is read again
    import shutil
    from league.engine import settings
    from league.engine.cache import Cache
    from league.engine.loader import Loader
    content = tmp_path / "content"
    shutil.copytree(ROOT / "content", content)
    cold = check(content, cache_dir=False)
    check(content, cache_dir=tmp_path / "cache")
    read = []
    real = settings.league_settings, settings.season_settings

    def spy_league(loader):
        read.append("league.yaml")
        return real[0](loader)

    def spy_season(loader, league, sdir):
        read.append(sdir.name)
        return real[1](loader, league, sdir)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(settings, "league_settings", spy_league)
        mp.setattr(settings, "season_settings", spy_season)
        warm = Loader(content, Cache(tmp_path / "cache"))
        league = warm.load()
        assert read == []                                             # all from the cache
        assert _settings(league) == _settings(cold.results.league)
        assert league.seasons[0].truco is league.truco                # a season without settings of its own
        years = [s.year for s in league.seasons]
        sfile = content / "seasons" / years[-1] / "season.yaml"
        sfile.write_text("title: Temporada editada\n", encoding="utf-8")
        league = Loader(content, Cache(tmp_path / "cache")).load()
        assert read == ["league.yaml", *years]                        # one file changed: all read again
        assert league.seasons[-1].title == "Temporada editada"
        read.clear()
        assert Loader(content, Cache(tmp_path / "cache")).load().seasons[-1].title == "Temporada editada"
        assert read == []                                             # and cached again
        sfile.unlink()
        league = Loader(content, Cache(tmp_path / "cache")).load()
        assert read == ["league.yaml", *years]
        assert league.seasons[-1].title == f"Temporada {years[-1]}"    # the default title
        assert league.seasons[-1].path is None


def test_settings_read_from_other_bytes_than_their_key_says_are_not_cached(tmp_path):
    # as for a stage file (above): league.yaml edited between the build's digests and its reading is used as read
    # but not cached under the key made of the old bytes
    import hashlib
    import shutil
    from league.engine.cache import Cache
    from league.engine.loader import Loader
    content = tmp_path / "content"
    shutil.copytree(ROOT / "content", content)
    digests = {f"content/{p.relative_to(content).as_posix()}": hashlib.sha256(p.read_bytes()).hexdigest()
               for p in content.rglob("*") if p.is_file()}
    stale = dict(digests, **{"content/league.yaml": hashlib.sha256(b"an older league.yaml").hexdigest()})
    loader = Loader(content, Cache(tmp_path / "cache"), stale)
    league = loader.load()
    assert league.name == "Federação Paranaense de Truco" and not loader.settings_fresh()
    assert not Cache(tmp_path / "cache").has(loader.settings_key())
    fresh = Loader(content, Cache(tmp_path / "cache"), digests)
    fresh.load()
    assert fresh.settings_fresh() and Cache(tmp_path / "cache").has(fresh.settings_key())
    # the key was made twice (by load() and just above): the files it was made of are listed once each
    # (the demo: league.yaml and its one season's, 2026/season.yaml)
    assert len(fresh.settings_files) == len(set(fresh.settings_files)) == 2


def test_a_process_building_again_takes_unchanged_entries_from_memory_while_their_files_are_the_same(tmp_path):
    # league serve builds again and again in one process: an unchanged stage's entry is the object the last
    # load read or wrote (league.engine.cache.KEPT), not decoded again — unless its file changed since
    from league.engine.cache import KEPT, Cache
    cache = tmp_path / "cache"
    KEPT.forget()
    first = check(ROOT / "content", cache_dir=cache)
    second = check(ROOT / "content", cache_dir=cache)
    pairs = [(a.stage, b.stage) for x, y in zip(first.results.seasons, second.results.seasons)
             for a, b in zip(x.stages, y.stages)]
    assert pairs and all(a is b for a, b in pairs)   # the same objects: nothing decoded again
    # an entry file written by someone else meanwhile (same bytes, new time): read from the file again
    path = next(iter(KEPT.now))
    old = KEPT.now[path][0]
    c = Cache(cache)
    key = path.name[:-len(".entry")]
    assert c.get(key, kept=True) is old
    path.write_bytes(path.read_bytes())
    again = c.get(key, kept=True)
    assert again is not old and again == old
    # a corrupted file is never taken from memory: reported, deleted, None
    path.write_bytes(path.read_bytes()[:-3] + b"xyz")
    c = Cache(cache)
    assert c.get(key, kept=True) is None and c.warnings and not path.exists()
    KEPT.forget()
