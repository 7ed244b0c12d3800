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
    # The rebuild's writer joins the helper once; the helper tried every file the cold build recorded, in the
    # manifest's order. The news item's page was among them and is gone; the hand-put file is kept; the site is
    # the cold build's of the same content (plus the hand-put file); the old site is now the spare, and nothing
    # else is left beside out/.
    out, recorded = _first_rebuild_without_a_news_item(demo, tmp_path)
    assert len(joined) == 1 and joined[0] == recorded and len(recorded) > 500
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
