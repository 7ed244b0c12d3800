"""The Markdown pages and news (pages/, news/; read by league/content/pages.py): from the cache when every
file, the settings they are rendered with and the Markdown libraries are unchanged; and the links of the news
to seasons, stages and championships, checked on every load."""
from __future__ import annotations

from typing import TYPE_CHECKING, Optional

from league.content.diagnostics import Diagnostic, Diagnostics, SourceMark, did_you_mean
from league.content.documents import Page
from league.content.marked import MDict
from league.models import League

if TYPE_CHECKING:
    from league.engine.loader import Loader

# what the cache entry must hold (league.engine.shapes.fits): one that does not is corrupted, and made again
PAGES_ENTRY = ([Page], [Page], [Diagnostic])


def load_pages(loader: Loader, league: League) -> None:
    """The Markdown pages and news (league/content/pages.py): from the cache when every file of pages/ and news/,
    the settings they are rendered with and league's code are unchanged, with the warnings they produced;
    otherwise loaded, and cached (see loader.deferred) when the content has no errors."""
    key = pages_key(loader, league)
    hit = loader.cache.get(key, PAGES_ENTRY) if key is not None else None
    if hit is not None:
        pages, news, diags = hit
        league.pages.extend(pages)
        league.news.extend(news)
        loader.diags.extend(diags)
    else:
        from league.content.pages import load_pages as read_pages  # markdown pages and news
        before = len(loader.diags.items)
        read_pages(loader, league)
        new = loader.diags.items[before:]
        if key is not None and not any(d.level == "error" for d in new):
            loader.deferred.append((key, (list(league.pages), list(league.news), list(new))))
    check_news_links(loader, league)


def check_news_links(loader: Loader, league: League) -> None:
    """A news post's season:, stage: or championship: that names none the content has is a warning at its
    line, with the closest ids: the post is published, but no stage page lists it. Checked on every load
    (not cached with the pages: a stage renamed or removed changes it). Not when the content has errors: a
    stage that did not load is not unknown."""
    if any(d.level == "error" for d in loader.diags.items):
        return
    seasons = {s.year: s for s in league.seasons}
    for post in league.news:
        for key, what, value, known, name in _news_refs(post, seasons):
            if value is not None and value not in known:
                _unknown_ref(loader, post, key != "season" and post.season in seasons,
                             key, what, value, known, name)


def _news_refs(post: Page, seasons: dict) -> tuple:
    """(key, what it names, its value, the ids there are, where they come from) of each link of a post: its
    stage or championship among its season's (or every season's, when it names none that exists)."""
    where = [seasons[post.season]] if post.season in seasons else list(seasons.values())
    return (("season", "temporada", post.season, seasons, "seasons/<ano>/"),
            ("stage", "etapa", post.stage, [st.id for s in where for st in s.stages],
             "o nome do arquivo em seasons/<ano>/truco/, sem .yaml"),
            ("championship", "campeonato", post.championship, [c.id for s in where for c in s.championships],
             "o nome do arquivo em seasons/<ano>/quatrilho/, sem .yaml"))


def _unknown_ref(loader: Loader, post: Page, in_season: bool, key: str, what: str, value, known, name: str) -> None:
    scope = f" na temporada {post.season}" if in_season else ""
    word = "desconhecida" if what in ("temporada", "etapa") else "desconhecido"
    loader.diags.warning(front_matter_mark(loader, post.path, key), f"{key}: {what} {word} \"{value}\"{scope}; "
                         "a notícia é publicada sem esse link",
                         did_you_mean(str(value), known) or f"use o id de {'uma' if word[-1] == 'a' else 'um'} "
                         f"{what} existente: {name}", code="unknown-id")


def front_matter_mark(loader: Loader, rel: str, key: str) -> SourceMark:
    """Where a key of a Markdown file's front matter is written (the file read again: only for a warning)."""
    from league.content.pages import split_front_matter
    from league.content.yamlio import parse_yaml, read_text
    quiet = Diagnostics()
    text = read_text(loader.content / rel.split("/", 1)[1], rel, quiet)
    front = split_front_matter(text)[0] if text is not None else None
    raw = parse_yaml(front, rel, quiet, line_offset=1) if front is not None else None
    return raw.vmark(key) if isinstance(raw, MDict) and key in raw else SourceMark(rel, 1, 1)


# ------------------------------------------------------------------ the cache key
def pages_key(loader: Loader, league: League) -> Optional[str]:
    """Cache key of the pages and news: the name and bytes of every .md file, locale and allow_html, the
    installed Markdown and nh3 (their files' size and time: an upgrade may render differently) and league's
    code. None (load them) when there is no cache or a file is not a plain readable file."""
    if loader.cache is None:
        return None
    libraries = _libraries()
    files = _page_file_parts(loader) if libraries is not None else None
    if files is None:
        return None
    from league.engine.cache import code_version, digest
    return digest("pages", code_version(), league.locale, league.allow_html, *libraries, *files)


def _libraries() -> Optional[list]:
    """(file, size, time) of the installed Markdown and nh3; None when one is missing."""
    import importlib.util
    import os
    out = []
    for module in ("markdown", "nh3"):
        spec = importlib.util.find_spec(module)
        if spec is None or not spec.origin:
            return None
        st = os.stat(spec.origin)
        out.append((spec.origin, st.st_size, st.st_mtime_ns))
    return out


def _page_file_parts(loader: Loader) -> Optional[list]:
    """Each folder's name, then the name and sha256 of each of its .md files (a hidden one: its name only);
    None when one is not a plain readable file."""
    parts: list = []
    for folder in ("pages", "news"):
        root = loader.content / folder
        parts.append(folder)
        if not root.is_dir():
            continue
        for path in sorted(root.glob("*.md")):
            if path.name.startswith("."):   # not read (files_in), only said: its name is enough
                parts.append(loader.rel(path))
                continue
            sha = _page_sha(loader, path)
            if sha is None:
                return None
            parts += [loader.rel(path), sha]
    return parts


def _page_sha(loader: Loader, path) -> Optional[str]:
    import hashlib
    from league.content.marked import MAX_BYTES
    if loader.blocked(path):
        return None
    try:
        if not path.is_file() or path.stat().st_size > MAX_BYTES:
            return None
        data = path.read_bytes()
    except OSError:
        return None
    return hashlib.sha256(data).hexdigest()
