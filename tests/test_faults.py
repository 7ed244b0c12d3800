"""Fault injection: a `league build` killed, raced, refused or starved of disk leaves either the previous site or
the new one, byte for byte — never a mix —, the next build repairs what was left, and nothing outside out/
changes. Real processes (`python -m league build`), real SIGKILLs, real mounts (skipped where mount is not
permitted: CI runs as root).

Knobs of league/site/writer.py used here: LEAGUE_WRITE_DELAY (a pause after each file written, so a kill lands
mid-write), LEAGUE_TEST_CRASH=<point> (die like kill -9 at a named point of publishing) and
LEAGUE_TEST_NO_EXCHANGE (publish with two renames, as on a file system without RENAME_EXCHANGE).
"""
from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.bad_input.harness import copy_base

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGKILL") or not sys.platform.startswith("linux"),
                                reason="needs Linux and SIGKILL")


class Env:
    """A content copy, its out/ and cache, inside tmp/work; `cold()` builds the same content into a fresh folder."""

    def __init__(self, tmp: Path):
        self.tmp = tmp
        self.content = copy_base(tmp / "work")
        self.out = tmp / "work" / "site"
        self.cache = tmp / "cache"
        self.counter = 0

    def run(self, *args: str, out: Path | None = None, cache: Path | None = None, extra: dict | None = None,
            wait: bool = True):
        env = dict(os.environ, PYTHONPATH=str(ROOT), LEAGUE_CACHE_DIR=str(cache or self.cache), **(extra or {}))
        cmd = [sys.executable, "-m", "league", "build", "--content", str(self.content), "--out",
               str(out or self.out), *args]
        if not wait:
            return subprocess.Popen(cmd, cwd=self.tmp, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                    text=True)
        return subprocess.run(cmd, cwd=self.tmp, env=env, capture_output=True, text=True)

    def ok(self, *args: str, **kw) -> subprocess.CompletedProcess:
        res = self.run(*args, **kw)
        assert res.returncode == 0, res.stderr
        assert "Traceback" not in res.stderr
        return res

    def cold(self) -> dict[str, bytes]:
        fresh = self.tmp / f"cold-{self.counter}" / "site"
        self.counter += 1
        self.ok(out=fresh, cache=self.tmp / f"cold-cache-{self.counter}")
        return tree(fresh)

    def edit(self, name: str) -> None:
        """A change every page shows: the federation's name."""
        league = self.content / "league.yaml"
        text = league.read_text(encoding="utf-8")
        start = text.index("name: ") + len("name: ")
        end = text.index("\n", start)
        league.write_text(text[:start] + name + text[end:], encoding="utf-8")

    def outside(self) -> dict:
        """Every file outside out/ and the cache, with its bytes: must not change."""
        skip = {self.out, self.cache}
        got = {}
        for dirpath, dirnames, filenames in os.walk(self.tmp / "work"):
            d = Path(dirpath)
            dirnames[:] = [n for n in dirnames if d / n not in skip and not n.startswith(f".{self.out.name}.")]
            for n in filenames:   # (a killed build's lock file stays beside out/ until the next build)
                if d / n not in skip and not n.startswith(f".{self.out.name}."):
                    got[(d / n).relative_to(self.tmp).as_posix()] = (d / n).read_bytes()
        return got

    def leftovers(self) -> list[str]:
        """What a build left beside out/, but the spare the next build stages into (league.site.writer)."""
        return sorted(p.name for p in self.out.parent.iterdir()
                      if p.name.startswith(f".{self.out.name}.") and p.name != f".{self.out.name}.spare")


def tree(root: Path) -> dict[str, bytes]:
    """{relative path: bytes} of every file under root (the manifest included: it must match too)."""
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.fixture
def env(tmp_path):
    return Env(tmp_path)


def kill_when(proc: subprocess.Popen, ready, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    try:
        while not ready():
            assert proc.poll() is None, "o build terminou antes de ser interrompido: " + proc.stderr.read()
            assert time.monotonic() < deadline, "o build não chegou ao ponto esperado a tempo"
            time.sleep(0.01)
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
    finally:
        if proc.poll() is None:  # pragma: no cover - only if an assertion fired above
            proc.kill()
            proc.wait()
    assert proc.returncode == -signal.SIGKILL


# ---------------------------------------------------------------- kill -9 at every point of publishing

def test_kill_while_writing_leaves_the_previous_site(env):
    env.ok()
    env.edit("Federação Renomeada")
    old, outside = tree(env.out), env.outside()
    proc = env.run(extra={"LEAGUE_WRITE_DELAY": "0.05"}, wait=False)

    def staged_some():
        return any(sum(1 for p in (env.out.parent / n).rglob("*") if p.is_file()) >= 5
                   for n in env.leftovers() if ".new-" in n)
    kill_when(proc, staged_some)
    assert tree(env.out) == old
    assert env.outside() == outside
    env.ok()
    assert env.leftovers() == []
    assert tree(env.out) == env.cold()


@pytest.mark.parametrize("point", ["staged", "manifest", "published"])
def test_kill_at_each_point_of_publishing_leaves_old_or_new_whole(env, point):
    """'manifest': the staging folder is complete, out/ not yet swapped; 'published': swapped, the old site
    not yet deleted (the moment right after the commit)."""
    env.ok()
    env.edit("Federação Renomeada")
    old, outside = tree(env.out), env.outside()
    killed = env.run(extra={"LEAGUE_TEST_CRASH": point})
    assert killed.returncode == 137, killed.stderr
    new = env.cold()
    now = tree(env.out)
    assert now == (new if point == "published" else old)
    assert env.outside() == outside
    env.ok()                                                   # the next build cleans up and is whole
    assert env.leftovers() == []
    assert tree(env.out) == new


def test_kill_between_the_two_renames_is_finished_by_the_next_build(env):
    """Without RENAME_EXCHANGE: out/ is renamed away, then the new site into place; killed in between, out/
    is missing for a moment, and the next build puts the complete new site there (never a mix)."""
    env.ok()
    env.edit("Federação Renomeada")
    killed = env.run(extra={"LEAGUE_TEST_CRASH": "between-renames", "LEAGUE_TEST_NO_EXCHANGE": "1"})
    assert killed.returncode == 137
    assert not env.out.exists()
    env.ok(extra={"LEAGUE_TEST_NO_EXCHANGE": "1"})
    assert env.leftovers() == []
    assert tree(env.out) == env.cold()


def test_killed_first_build_leaves_no_site(env):
    proc = env.run(extra={"LEAGUE_WRITE_DELAY": "0.05"}, wait=False)
    kill_when(proc, lambda: any(".new-" in n for n in env.leftovers()))
    assert not env.out.exists()
    env.ok()
    assert env.leftovers() == []
    assert tree(env.out) == env.cold()


# ---------------------------------------------------------------- one build at a time

def test_two_builds_started_close_together_never_mix(env):
    env.ok()
    for i in range(10):
        env.edit(f"Federação Número {i}")
        first = env.run(wait=False)
        time.sleep(0.3)
        second = env.run(wait=False)
        for proc in (first, second):
            _out, err = proc.communicate(timeout=120)
            assert proc.returncode == 0, err
            assert "Traceback" not in err
    assert env.leftovers() == []
    assert tree(env.out) == env.cold()


# ---------------------------------------------------------------- what cannot be replaced or written

def _chattr(flag: str, path: Path) -> bool:
    return shutil.which("chattr") is not None and \
        subprocess.run(["chattr", flag, str(path)], capture_output=True).returncode == 0


def test_an_unreplaceable_file_does_not_stop_the_new_site(env):
    # The published index.html is made immutable. The next build publishes a whole new site; the old one
    # becomes the spare (league.site.writer), its index.html still protected. The build after that stages into
    # the spare, cannot replace that file, so it starts over in a new folder: the new site is whole again,
    # the spare is left beside with a warning, and it goes at the first build that can delete it.
    env.ok()
    locked = env.out / "index.html"
    if not _chattr("+i", locked):
        pytest.skip("chattr +i not permitted here")
    try:
        env.edit("Federação Renomeada")
        env.ok()
        assert tree(env.out) == env.cold()                     # the new site, whole
        locked = env.out.parent / f".{env.out.name}.spare" / "index.html"
        env.edit("Federação Renomeada Outra Vez")
        res = env.ok()
        assert tree(env.out) == env.cold()                     # whole, though the spare could not be used
        assert "site anterior ficou" in res.stderr
        left = env.leftovers()
        assert len(left) == 1 and ".old-" in left[0]
        locked = env.out.parent / left[0] / "index.html"      # the protected copy, moved aside with its folder
    finally:
        _chattr("-i", locked)
    env.ok()                                                   # the old copy goes at the next build
    assert env.leftovers() == []


@pytest.fixture
def tmpfs(tmp_path):
    """A function mounting a tmpfs of `size` at a path (unmounted at the end); skips where not permitted."""
    mounted: list[Path] = []

    def mount(path: Path, size: str = "64m") -> Path:
        path.mkdir(parents=True, exist_ok=True)
        res = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(path)],
                             capture_output=True, text=True)
        if res.returncode != 0:
            pytest.skip(f"mount not permitted here: {res.stderr.strip()}")
        mounted.append(path)
        return path
    yield mount
    for path in reversed(mounted):
        subprocess.run(["umount", "-l", str(path)], capture_output=True)


def test_out_as_a_mount_point_builds_and_rebuilds(env, tmpfs):
    tmpfs(env.out)
    env.ok()
    assert tree(env.out) == env.cold()
    env.edit("Federação Renomeada")
    env.ok()
    assert tree(env.out) == env.cold()
    assert env.leftovers() == [] and not list(env.out.glob(".league-staging-*"))


def test_a_full_disk_leaves_the_previous_site(env, tmpfs):
    tmpfs(env.out.parent / "disk", "8m")
    env.out = env.out.parent / "disk" / "site"
    env.ok()
    old = tree(env.out)
    env.edit("Federação Renomeada")
    filler = env.out.parent / "filler"
    subprocess.run(["dd", "if=/dev/zero", f"of={filler}", "bs=1M", "count=64"], capture_output=True)
    res = env.run()
    assert res.returncode == 2, res.stderr
    assert "Traceback" not in res.stderr and "espaço" in res.stderr
    assert tree(env.out) == old
    assert env.leftovers() == []
    filler.unlink()
    env.ok()
    assert tree(env.out) == env.cold()


def test_a_full_disk_inside_a_mounted_out_leaves_the_previous_site(env, tmpfs):
    tmpfs(env.out, "8m")
    env.ok()
    old = tree(env.out)
    free = os.statvfs(env.out)
    filler = env.tmp / "filler"
    filler.write_bytes(b"\0" * max(0, free.f_bavail * free.f_frsize - 64 * 1024))
    shutil.move(str(filler), env.out / "filler.bin")           # a file put there by hand: kept
    old["filler.bin"] = (env.out / "filler.bin").read_bytes()
    env.edit("Federação Renomeada")
    res = env.run()
    assert res.returncode == 2, res.stderr
    assert "Traceback" not in res.stderr
    assert tree(env.out) == old
    assert not list(env.out.glob(".league-staging-*"))


def test_a_read_only_out_is_an_environment_error(env, tmpfs):
    disk = tmpfs(env.out.parent / "disk")
    env.out = disk / "site"
    env.ok()
    old = tree(env.out)
    subprocess.run(["mount", "-o", "remount,ro", str(disk)], check=True)
    env.edit("Federação Renomeada")
    res = env.run()
    assert res.returncode == 2, res.stderr
    assert "Traceback" not in res.stderr
    assert tree(env.out) == old


def test_a_full_cache_disk_is_a_warning_not_a_failure(env, tmpfs):
    env.cache = tmpfs(env.tmp / "cachedisk", "64k")
    res = env.ok()
    assert "cache" in res.stderr
    assert tree(env.out) == env.cold()


# ---------------------------------------------------------------- damage and refusals

def test_a_deleted_or_edited_page_is_repaired(env):
    env.ok()
    (env.out / "index.html").unlink()
    page = next(p for p in sorted(env.out.rglob("index.html")) if p.parent != env.out)
    page.write_text("estragado", encoding="utf-8")
    env.ok()
    assert tree(env.out) == env.cold()


@pytest.mark.parametrize("target", [".", "work", "work/content", "work/content/seasons", "..", "/", "~"])
def test_out_that_would_destroy_what_league_did_not_make_is_refused(env, target):
    os.environ.setdefault("HOME", str(Path.home()))
    before = env.outside()
    out = Path(os.path.expanduser(target)) if target.startswith(("/", "~")) else env.tmp / target
    res = env.run(out=out)
    assert res.returncode == 2, res.stderr
    assert "Traceback" not in res.stderr and "--out" in res.stderr
    assert env.outside() == before
    assert (env.content / "league.yaml").is_file()


def test_a_git_work_tree_or_a_foreign_folder_is_refused_without_force(env):
    repo = env.tmp / "repo"
    repo.mkdir()
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    res = env.run(out=repo)
    assert res.returncode == 2 and "git" in res.stderr
    assert (repo / ".git").is_dir()

    foreign = env.tmp / "foreign"
    foreign.mkdir()
    (foreign / "notes.txt").write_text("meu", encoding="utf-8")
    res = env.run(out=foreign)
    assert res.returncode == 2 and "--force" in res.stderr
    assert (foreign / "notes.txt").read_text(encoding="utf-8") == "meu"
    env.ok("--force", out=foreign)
    assert (foreign / "index.html").is_file()

    a_file = env.tmp / "a-file"
    a_file.write_text("x", encoding="utf-8")
    res = env.run(out=a_file)
    assert res.returncode == 2 and "arquivo" in res.stderr
    assert a_file.read_text(encoding="utf-8") == "x"


def test_a_file_put_into_site_by_hand_is_kept(env):
    env.ok()
    (env.out / "google123.html").write_text("verificação", encoding="utf-8")
    env.edit("Federação Renomeada")
    res = env.ok()
    assert (env.out / "google123.html").read_text(encoding="utf-8") == "verificação"
    assert "google123.html" in res.stderr


# ---------------------------------------------------------------- the spare the next build stages into

def test_rebuilds_through_the_spare_equal_cold_builds(env):
    # Each rebuild stages into the site before the previous one (the spare) and replaces only what differs
    # from the published site: a name changed and changed back (the spare then holds the very bytes again,
    # but in other files), a news item added then removed (its page and folder must go), a hand-put file
    # added then deleted (it must not come back from the spare). After every step: the cold build's bytes.
    spare = env.out.parent / f".{env.out.name}.spare"
    news = env.content / "news" / "2026-04-01-extra.md"
    env.ok()
    steps = [
        lambda: env.edit("Federação A"),
        lambda: env.edit("Federação B"),
        lambda: env.edit("Federação A"),
        lambda: news.write_text("---\ntitle: Extra\ndate: 2026-04-01\n---\nTexto.\n", encoding="utf-8"),
        lambda: env.edit("Federação C"),
        lambda: news.unlink(),
        lambda: env.edit("Federação D"),
    ]
    for step in steps:
        step()
        env.ok()
        assert spare.is_dir()
        assert tree(env.out) == env.cold()
    (env.out / "google123.html").write_text("verificação", encoding="utf-8")
    env.edit("Federação E")
    env.ok()
    assert (env.out / "google123.html").read_bytes() == "verificação".encode("utf-8")
    (env.out / "google123.html").unlink()
    env.edit("Federação F")
    env.ok()
    env.edit("Federação G")   # the spare now is the site that had the hand-put file
    env.ok()
    assert not (env.out / "google123.html").exists()
    assert tree(env.out) == env.cold()


def test_a_spare_of_another_site_is_not_used(env):
    # out/ replaced by another league site (a copy of a cold build): the spare's note names the site it
    # was made beside, so it is deleted, not trusted; the build is still a whole, correct site.
    env.ok()
    env.edit("Federação A")
    env.ok()
    env.edit("Federação B")
    other = env.tmp / "other" / "site"
    env.ok(out=other, cache=env.tmp / "other-cache")
    shutil.rmtree(env.out)
    shutil.copytree(other, env.out)
    env.edit("Federação C")
    env.ok()
    assert tree(env.out) == env.cold()
