"""The build cache is restored between builds (Netlify, the CI workflow): its bytes are input. Nothing read
from it runs (no pickle, no compiled template), and an entry that is not what league wrote — a crafted file,
flipped or missing bytes, another entry's bytes — is a warning and made again: the site is the one a build
without the cache makes, byte for byte."""
from __future__ import annotations

import hashlib
import marshal
import os
import pickle
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from league.engine.build import build
from tests.util import cache_entries

ROOT = Path(__file__).resolve().parent.parent
CORRUPTED = "entrada corrompida ignorada no cache"


def _tree(root: Path) -> dict[str, str]:
    return {p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file()}


def _league(cwd: Path, *args: str) -> subprocess.CompletedProcess:
    """`league ...` in a process of its own, as CI and Netlify run it (the cache beside the content)."""
    env = {k: v for k, v in os.environ.items() if k != "LEAGUE_CACHE_DIR"}
    return subprocess.run([sys.executable, "-m", "league", *args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=600)


def _cold(content: Path, out: Path) -> dict[str, str]:
    """The site a build without any cache makes of `content`."""
    build(content, out, templates=ROOT / "league" / "templates", cache_dir=False)
    return _tree(out)


def _files(cache: Path) -> list[Path]:
    """Every entry file in the cache folder, whatever the format."""
    return sorted(p for p in cache.glob("??/*") if p.is_file() and ".tmp" not in p.name)


class _Touch:
    """Unpickled, it would create `path` (pathlib.Path.touch: no shell needed)."""

    def __init__(self, path: Path):
        self.path = path

    def __reduce__(self):
        return Path.touch, (self.path,)


def _forge(key: str, payload: bytes) -> bytes:
    """An entry of the cache's format with a right digest (what anybody can write) holding `payload`."""
    from league.engine.cache import MAGIC, _digest
    return MAGIC + _digest(key, payload) + payload


@pytest.fixture()
def demo(tmp_path) -> Path:
    content = tmp_path / "content"
    shutil.copytree(ROOT / "content", content)
    return content


def test_poisoned_entries_run_nothing_and_are_made_again(demo, tmp_path):
    # every entry of a demo build is replaced by something that runs code if it is unpickled, executed or
    # imported by name: pickles whose loading would create a file, and entries of the cache's own format, with
    # right digests, holding a code object that would create a file, a class outside the allowed ones, a
    # constructor given the wrong fields, a value of the wrong shape, another entry's bytes
    first = _league(tmp_path, "build", "--content", "content", "--out", "site")
    assert first.returncode == 0, first.stderr
    cache = tmp_path / ".league-cache"
    entries = _files(cache)
    assert len(entries) > 10
    markers = [tmp_path / f"MARKER-{i}" for i in range(3)]
    other = entries[0].read_bytes()
    code = compile(f"open({str(markers[1])!r}, 'w').close()", "x", "exec")
    for i, path in enumerate(entries):
        key = path.name.split(".")[0]
        kind = i % 7
        if kind in (0, 1):
            data = pickle.dumps((key, _Touch(markers[0])), protocol=pickle.HIGHEST_PROTOCOL)
        elif kind == 2:
            data = _forge(key, marshal.dumps(code))
        elif kind == 3:
            data = _forge(key, marshal.dumps((..., "pathlib.Path.touch", 0, str(markers[2]))))
        elif kind == 4:
            data = _forge(key, marshal.dumps((..., "Stage", 0, "content/x.yaml")))
        elif kind == 5:
            data = _forge(key, marshal.dumps(("content/seasons/2026/truco/etapa-1.yaml", [], None, [])))
        else:
            data = other
        path.write_bytes(data)
    checked = _league(tmp_path, "check", "--content", "content")
    assert checked.returncode == 0, checked.stderr
    assert CORRUPTED in checked.stderr
    built = _league(tmp_path, "build", "--content", "content", "--out", "site")
    assert built.returncode == 0, built.stderr
    assert CORRUPTED in built.stderr
    assert not any(m.exists() for m in markers), "something read from the cache ran"
    assert "Traceback" not in checked.stderr + built.stderr
    assert _tree(tmp_path / "site") == _cold(demo, tmp_path / "cold")
    # a build into another folder reads the last search index from the cache (the one above took it from site/):
    # poisoned too, and made again
    again = _league(tmp_path, "build", "--content", "content", "--out", "site2")
    assert again.returncode == 0, again.stderr
    assert _tree(tmp_path / "site2") == _tree(tmp_path / "cold")
    assert not any(m.exists() for m in markers)
    assert len(list(cache_entries(cache))) == len(_files(cache)), "every entry read was made again"
    last = _league(tmp_path, "build", "--content", "content", "--out", "site3")
    assert last.returncode == 0 and CORRUPTED not in last.stderr, last.stderr


def _kind(value) -> str | None:
    if isinstance(value, dict) and "stub_code" in value:
        return "record"
    if isinstance(value, tuple) and len(value) == 4 and type(value[0]).__name__ == "Stage":
        return "stage" if not value[0].path.endswith("/etapa-1.yaml") else None   # (etapa-1 is edited below)
    if isinstance(value, tuple) and len(value) == 2 and isinstance(value[0], bytes):
        return "i18n"
    if isinstance(value, tuple) and len(value) == 2 and isinstance(value[0], str) and isinstance(value[1], dict) \
            and value[1] and all(isinstance(v, bytes) for v in value[1].values()):
        return "search"
    return None


@pytest.mark.parametrize("kind", ["stage", "search", "i18n", "record"])
def test_a_flipped_byte_in_an_entry_is_a_warning_and_the_entry_is_made_again(demo, tmp_path, kind):
    # one byte changed in a stage's entry (here among its matches, read only when a page asks), in the last
    # search index, in the compiled interface catalog, in the previous build's record: a warning, that entry
    # made again, and the site of a build without the cache — never the corrupted bytes published
    from league.site import search
    if kind == "search" and not search.available():
        pytest.skip("pagefind not installed")
    first = _league(tmp_path, "build", "--content", "content", "--out", "site")
    assert first.returncode == 0, first.stderr
    cache = tmp_path / ".league-cache"
    found = [(path, value) for path, _key, value in cache_entries(cache) if _kind(value) == kind]
    assert found, f"no {kind} entry in the cache"
    path, value = found[0]
    data = path.read_bytes()
    at = len(data) // 2
    if kind == "stage":   # the byte in the middle of the stage's matches, encoded apart (LazyPhases)
        phases = value[0].phases._data
        at = data.find(phases) + len(phases) // 2
    path.write_bytes(data[:at] + bytes([data[at] ^ 0x20]) + data[at + 1:])
    if kind == "search":   # the index is read from the cache when the site is built again from nothing
        shutil.rmtree(tmp_path / "site")
    else:                  # the others, by a build that is not a no-op: one stage file edited
        stage = demo / "seasons" / "2026" / "truco" / "etapa-1.yaml"
        stage.write_text(stage.read_text(encoding="utf-8") + "\n# revisado\n", encoding="utf-8")
    built = _league(tmp_path, "build", "--content", "content", "--out", "site")
    assert built.returncode == 0, built.stderr
    assert CORRUPTED in built.stderr and str(path.name) in built.stderr
    assert "Traceback" not in built.stderr
    assert _tree(tmp_path / "site") == _cold(demo, tmp_path / "cold")
    again = {p: v for p, _k, v in cache_entries(cache)}
    assert path in again and _kind(again[path]) == kind, "the entry is made again"


# ---------------------------------------------------------------- the cache's reader, entry by entry

def _cache(tmp_path):
    from league.engine.cache import Cache
    return Cache(tmp_path / "cache")


KEY = "ab" + "0" * 62


def _store(cache, data: bytes) -> Path:
    path = cache._path(KEY)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return path


def _refused(cache, data: bytes, shape=object) -> None:
    path = _store(cache, data)
    assert cache.get(KEY, shape) is None
    assert len(cache.warnings) == 1 and cache.warnings[0].startswith(CORRUPTED), cache.warnings
    assert not path.exists(), "a corrupted entry is deleted"


def test_an_entry_reads_back_what_was_put(tmp_path):
    import datetime as dt
    from decimal import Decimal
    from league.content.diagnostics import Diagnostic, SourceMark
    from league.games.truco.ranking import Place
    from league.standings.core import Boundary, Row
    cache = _cache(tmp_path)
    mark = SourceMark("content/x.yaml", 3, 7)
    row = Row(("a", "b"), {"wins": 2, "countback": (-1, -3), "points": Decimal("12.50")})
    value = {"places": [Place(("a", "b"), 1, False, Decimal("20"), "points", Boundary("points", Decimal("20"), 16, 2),
                              row=row), Place("c", 2, True, row=row)],
             "diags": [Diagnostic(mark, "m", None, "warning")], "day": dt.date(2026, 3, 1), "raw": b"\x00\xff",
             "set": frozenset({("a", "b")}), (1, "x"): [None, True, 1.5, 2 ** 80]}
    cache.put(KEY, value)
    back = cache.get(KEY)
    assert back == value and not cache.warnings
    assert type(back["places"][0].boundary) is Boundary and type(back["diags"][0].mark) is SourceMark
    assert back["places"][0].row is back["places"][1].row, "an object shared in the value is shared back"


def test_values_league_does_not_cache_are_refused_when_written(tmp_path):
    cache = _cache(tmp_path)
    for value in (lambda: 1, object(), compile("1", "x", "eval"), {frozenset(): 1}, [...], 1j):
        with pytest.raises(TypeError):
            cache.put(KEY, value)


def test_bytes_that_are_not_an_entry_are_refused(tmp_path):
    from league.engine import codec
    from league.engine.cache import MAGIC
    good = _forge(KEY, codec.dumps(("x", 1)))
    cases = [b"", b"not an entry", pickle.dumps((KEY, ("x", 1))), good[:len(good) - 3],   # truncated
             good[:len(MAGIC) + 5], good + b"\x00", good[:-1] + bytes([good[-1] ^ 1]),
             _forge("cd" + "0" * 62, codec.dumps(("x", 1))),                          # another key's entry
             _forge(KEY, b"\xff\xfe garbage"),                                         # not marshal
             _forge(KEY, marshal.dumps(compile("1", "x", "exec"))),                    # code: never run
             _forge(KEY, marshal.dumps((..., "os.system", 0, "true"))),                # a class not allowed
             _forge(KEY, marshal.dumps((..., "Place", 0, "a"))),                       # too few fields
             _forge(KEY, marshal.dumps((..., "Place", -1, *range(10)))),               # a bad mask
             _forge(KEY, marshal.dumps((..., "Place", 1 << 40, *range(10)))),
             _forge(KEY, marshal.dumps((..., "Decimal", "not a number"))),
             _forge(KEY, marshal.dumps((..., "list", 1, "not a node")))]
    for data in cases:   # (what each reader expects: here a pair (str, int); a code object is not, nor run)
        cache = _cache(tmp_path)
        _refused(cache, data, (str, int))
    cache = _cache(tmp_path)
    _store(cache, good)
    assert cache.get(KEY, (str, int)) == ("x", 1) and not cache.warnings


def test_a_link_or_a_fifo_in_place_of_an_entry_is_not_followed_and_does_not_block(tmp_path):
    from league.engine import codec
    secret = tmp_path / "secret"
    secret.write_bytes(_forge(KEY, codec.dumps(("x", 1))))   # even a valid entry, elsewhere
    for make in (lambda p: os.symlink(secret, p), os.mkfifo, lambda p: os.symlink(tmp_path / "none", p)):
        cache = _cache(tmp_path)
        path = cache._path(KEY)
        path.parent.mkdir(parents=True, exist_ok=True)
        make(path)
        assert cache.get(KEY, (str, int)) is None
        assert len(cache.warnings) == 1 and cache.warnings[0].startswith(CORRUPTED), cache.warnings
        assert not os.path.lexists(path)
        cache.put(KEY, ("y", 2))
        assert cache.get(KEY, (str, int)) == ("y", 2) and secret.read_bytes().startswith(b"league-cache")
        path.unlink()


def test_an_entry_of_another_shape_than_its_reader_expects_is_refused(tmp_path):
    from league.engine import codec
    from league.engine.shapes import Keys, RelPath
    record = Keys({"paths": [RelPath]})
    for value, shape in [(("x", 1), (str, str)), (("x",), (str, int)), ({"paths": ["a", "../../etc/x"]}, record),
                         ({"paths": ["/etc/passwd"]}, record), ({"paths": ["a"], "more": 1}, record),
                         ([1, "2"], [int])]:
        cache = _cache(tmp_path)
        _refused(cache, _forge(KEY, codec.dumps(value)), shape)


def test_old_pickled_entries_and_compiled_templates_are_deleted_unread(tmp_path):
    cache = _cache(tmp_path)
    marker = tmp_path / "MARKER"
    old = cache.dir / "ab" / (KEY + ".pkl")
    old.parent.mkdir(parents=True)
    old.write_bytes(pickle.dumps((KEY, _Touch(marker))))
    jinja = cache.dir / "jinja-0123456789abcdef0123"
    jinja.mkdir()
    (jinja / "__jinja2_x.cache").write_bytes(b"compiled code")
    cache.put("cd" + "1" * 62, "fresh")
    assert cache.get(KEY) is None and cache.prune() == 2
    assert not old.exists() and not jinja.exists() and not marker.exists()
    assert cache.get("cd" + "1" * 62) == "fresh"


def test_a_corrupted_entry_is_no_error_under_strict_and_no_noop_build_repeats_it(demo, tmp_path):
    # --strict makes the content's warnings errors (the demo has 3); a cache entry made again is not one of
    # them. The warning is said by the build that found it, not again by the no-op builds after it
    assert _league(tmp_path, "build", "--content", "content", "--out", "site").returncode == 0
    clean = _league(tmp_path, "check", "--content", "content", "--strict")
    assert clean.returncode == 1 and "3 erro(s)." in clean.stderr, clean.stderr
    stage = next(p for p, _key, value in cache_entries(tmp_path / ".league-cache") if _kind(value) == "stage")
    stage.write_bytes(b"garbage")
    checked = _league(tmp_path, "check", "--content", "content", "--strict")
    assert f"aviso: {CORRUPTED}" in checked.stderr and "3 erro(s)." in checked.stderr, checked.stderr
    for p in _files(tmp_path / ".league-cache"):
        p.write_bytes(p.read_bytes()[:-1])   # every entry: the build's record and stamp too
    built = _league(tmp_path, "build", "--content", "content", "--out", "site")
    assert built.returncode == 0 and CORRUPTED in built.stderr, built.stderr
    noop = _league(tmp_path, "build", "--content", "content", "--out", "site")
    assert noop.returncode == 0 and CORRUPTED not in noop.stderr and "0 arquivo(s) escrito(s)" in noop.stderr
