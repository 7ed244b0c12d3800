"""The first rebuild after a new site/ (no spare beside it, league/site/writer.py): a helper process links the
published site into the staging folder while the content loads (league.engine.helpers.StagingHelper,
league.site.outdir.link_site), and the build stages into that as into a spare. The site it publishes is the one a
cold build makes, byte for byte; a helper that fails, or a build that fails, leaves nothing behind."""
from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

import pytest

from league.content.diagnostics import LeagueError
from league.engine import helpers
from league.engine.build import build

ROOT = Path(__file__).resolve().parent.parent
NEWS = "2026-05-18-etapa-2.md"


def _tree(root: Path) -> dict[str, str]:
    return {p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file() and p.name != ".league-build.json"}


def _beside(out: Path) -> list[str]:
    """What is beside out/ but the lock and the spare: a staging folder or an old site left behind."""
    return sorted(p.name for p in out.parent.iterdir() if p.name.startswith(f".{out.name}.")
                  and not p.name.endswith((".spare", ".lock")))


@pytest.fixture()
def demo(tmp_path) -> Path:
    content = tmp_path / "content"
    shutil.copytree(ROOT / "content", content)
    return content


@pytest.fixture()
def joined(monkeypatch) -> list:
    """What each StagingHelper.join returned in this process (the files its process linked, or None)."""
    got: list = []
    real = helpers.StagingHelper.join

    def join(self):
        value = real(self)
        got.append(value)
        return value
    monkeypatch.setattr(helpers.StagingHelper, "join", join)
    return got


def _cold(content: Path, tmp_path: Path) -> dict[str, str]:
    out = tmp_path / "cold" / "site"
    build(content, out, cache_dir=tmp_path / "cold-cache")
    return _tree(out)


def _first_rebuild_without_a_news_item(demo: Path, tmp_path: Path) -> tuple[Path, list[str]]:
    """A cold build, a hand-put file, then the news item NEWS deleted: its page must go from the new site, though
    the helper links it into the staging folder. Returns out/ and the previous site's recorded files."""
    from league.site.outdir import read_manifest
    out, cache = tmp_path / "site", tmp_path / "cache"
    build(demo, out, cache_dir=cache)
    recorded = list(read_manifest(out).files)
    (out / "google123.html").write_text("verificação", encoding="utf-8")
    (demo / "news" / NEWS).unlink()
    assert not (out.parent / f".{out.name}.spare").exists()   # no spare: this is what the helper is for
    build(demo, out, cache_dir=cache)
    return out, recorded


def test_the_first_rebuild_stages_into_the_site_linked_meanwhile(demo, tmp_path, joined):
    # The rebuild's writer joins the helper once, to publish; the helper linked the files the cold build
    # recorded, in the manifest's order — all but those the writer staged before it got to them (most of the
    # site is kept, and kept files are left to the helper). The news item's page was among them and is gone; the
    # hand-put file is kept; the site is the cold build's of the same content (plus the hand-put file); the old
    # site is now the spare, and nothing else is left beside out/.
    out, recorded = _first_rebuild_without_a_news_item(demo, tmp_path)
    linked = set(joined[0])
    assert len(joined) == 1 and [rel for rel in recorded if rel in linked] == joined[0] and len(linked) > 500
    gone = [rel for rel in recorded if "etapa-2" in rel and rel.startswith("noticias/")]
    assert gone and not any((out / rel).exists() for rel in gone)
    site = _tree(out)
    assert site.pop("google123.html") == hashlib.sha256("verificação".encode()).hexdigest()
    assert site == _cold(demo, tmp_path)
    assert (out.parent / f".{out.name}.spare").is_dir() and _beside(out) == []


def test_no_helper_when_a_spare_is_there(demo, tmp_path, joined):
    # The second rebuild has the first one's spare to stage into: no helper is started.
    out, cache = tmp_path / "site", tmp_path / "cache"
    build(demo, out, cache_dir=cache)
    (demo / "news" / NEWS).unlink()
    build(demo, out, cache_dir=cache)
    assert len(joined) == 1
    shutil.copy(ROOT / "content" / "news" / NEWS, demo / "news" / NEWS)
    build(demo, out, cache_dir=cache)
    assert len(joined) == 1
    assert _tree(out) == _cold(demo, tmp_path)


def test_a_helper_that_fails_leaves_the_writer_to_look(demo, tmp_path, joined, monkeypatch):
    # The helper links every file, then dies with an error: the writer gets None and finds what the staging
    # folder holds by looking. The news item's page, linked there, must still go.
    from league.site import outdir
    real = outdir.link_site

    def link_then_fail(site, stage, files):
        real(site, stage, files)
        raise OSError("disco cheio")
    monkeypatch.setattr(outdir, "link_site", link_then_fail)
    out, _ = _first_rebuild_without_a_news_item(demo, tmp_path)
    assert joined == [None]
    site = _tree(out)
    site.pop("google123.html")
    assert site == _cold(demo, tmp_path)
    assert _beside(out) == []


def test_a_first_rebuild_with_an_error_leaves_the_site_and_no_staging_folder(demo, tmp_path):
    # A broken stage file: the build stops with the error, out/ is the cold build's site, and the staging folder
    # the helper was linking into is deleted.
    out, cache = tmp_path / "site", tmp_path / "cache"
    build(demo, out, cache_dir=cache)
    before = _tree(out)
    stage = sorted((demo / "seasons").glob("*/truco/*.yaml"))[0]
    stage.write_text(stage.read_text(encoding="utf-8") + "\n  - : [\n", encoding="utf-8")
    with pytest.raises(LeagueError):
        build(demo, out, cache_dir=cache)
    assert _tree(out) == before
    assert _beside(out) == []


def test_where_no_hard_link_can_be_made_the_build_copies(demo, tmp_path, joined, monkeypatch):
    # A file system without hard links (os.link refused everywhere, in the helper and in the writer): the helper
    # links nothing and leaves no folder behind, and the writer copies what the new site keeps. Were the files
    # the helper tried taken for linked, every page the rebuild keeps would be missing.
    import errno
    import os

    def no_link(*args, **kwargs):
        raise OSError(errno.EPERM, "hard links not supported")
    monkeypatch.setattr(os, "link", no_link)
    out, recorded = _first_rebuild_without_a_news_item(demo, tmp_path)
    assert joined == [[]]
    site = _tree(out)
    site.pop("google123.html")
    assert site == _cold(demo, tmp_path)
    folders = sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_dir() and not any(p.iterdir()))
    assert folders == []


def test_a_slow_helper_is_joined_only_to_publish(demo, tmp_path, joined, monkeypatch):
    # The helper links the first half of the files, then waits 1.5 s before the rest (a slow disk): the rebuild
    # plans, keeps and writes its pages meanwhile, beside it, and joins it only to publish. The site is still the
    # cold build's: the news item's page (linked by the helper, perhaps after the writer was done) is gone, each
    # kept page is the published file itself (the same inode as in the old site, now the spare), and a page
    # written anew is not (it never wrote into a published file).
    import os
    import time
    from league.site import outdir
    real = outdir.link_site

    def slow(site, stage, files):
        files = list(files)
        half = len(files) // 2
        first = real(site, stage, files[:half])
        time.sleep(1.5)
        return first + real(site, stage, files[half:])
    monkeypatch.setattr(outdir, "link_site", slow)
    out, recorded = _first_rebuild_without_a_news_item(demo, tmp_path)
    assert len(joined) == 1 and len(joined[0]) < len(recorded)   # (some were linked by the writer first)
    site = _tree(out)
    site.pop("google123.html")
    assert site == _cold(demo, tmp_path)
    spare = out.parent / f".{out.name}.spare"
    same = [rel for rel in site if (spare / rel).is_file() and os.path.samefile(out / rel, spare / rel)]
    assert len(same) > 500 and "noticias/index.html" not in same   # the news list changed: written anew
    assert _beside(out) == []


def test_the_writer_links_what_the_helper_did_not_when_it_publishes(tmp_path):
    # No process: a "helper" that, when joined, says it linked a.html only (it did; b.html it never reached). The
    # writer keeps a.html and b.html and writes c.html anew before the join; publishing links b.html itself.
    # Both kept files are the published ones (one inode each), c.html is new, and gone.html (not in the new
    # site, linked by the helper) is deleted.
    import json
    import os
    from league.site.outdir import MANIFEST, staging_path
    from league.site.writer import SiteWriter
    out = tmp_path / "site"
    out.mkdir()
    files = {"a.html": "A", "b/index.html": "B", "c.html": "C", "gone.html": "G"}
    for rel, text in files.items():
        (out / rel).parent.mkdir(parents=True, exist_ok=True)
        (out / rel).write_text(text, encoding="utf-8")
    (out / MANIFEST).write_text(json.dumps({"generator": "league", "inputs": "x",
                                            "files": {rel: 1 for rel in files}}), encoding="utf-8")
    stage = staging_path(out.resolve(), os.getpid())
    stage.mkdir()
    for rel in ("a.html", "gone.html"):
        os.link(out / rel, stage / rel)
    writer = SiteWriter(out, "y", prestaged=lambda: ["a.html", "gone.html"])
    writer.keep(["a.html", "b/index.html"])
    assert not (stage / "b").exists()   # left for the join
    assert writer.put("c.html", "C2") is True
    writer.commit()
    spare = out.parent / f".{out.name}.spare"
    assert sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file()) == \
        [MANIFEST, "a.html", "b/index.html", "c.html"]
    assert os.path.samefile(out / "a.html", spare / "a.html")
    assert os.path.samefile(out / "b/index.html", spare / "b/index.html")
    assert (out / "c.html").read_text(encoding="utf-8") == "C2" and (spare / "c.html").read_text(encoding="utf-8") == "C"
