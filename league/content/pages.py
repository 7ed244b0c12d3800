"""Markdown pages and news posts: front matter checked like any content file, Markdown rendered to HTML
with raw HTML escaped (unless allowed) and the result sanitised by nh3, so no script gets through."""
from __future__ import annotations

import datetime as dt
import re
from html import escape

import markdown as md
import nh3

from league.content import schema as S
from league.content.diagnostics import SourceMark
from league.content.validate import validate
from league.content.yamlio import parse_yaml, read_text

RESERVED_SLUGS = {"clubes", "equipes", "duplas", "jogadores", "noticias", "api", "static", "index", "busca",
                  "pagefind"}
_NEWS_NAME = re.compile(r"^(\d{4}-\d{2}-\d{2})-(.+)$")
ALLOWED_TAGS = {"a", "abbr", "b", "blockquote", "br", "code", "dd", "del", "div", "dl", "dt", "em", "h2", "h3",
                "h4", "h5", "h6", "hr", "i", "img", "li", "ol", "p", "pre", "s", "small", "span", "strong", "sub",
                "sup", "table", "tbody", "td", "tfoot", "th", "thead", "tr", "u", "ul"}
ALLOWED_ATTRS = {"a": {"href", "title"}, "img": {"src", "alt", "title", "width", "height"},
                 "th": {"scope", "colspan", "rowspan"}, "td": {"colspan", "rowspan"}, "abbr": {"title"}}


def render_markdown(text: str, allow_html: bool = False, table_label: str = "Tabela") -> str:
    """Markdown → safe HTML: raw HTML escaped unless allowed, then sanitised (javascript:/data: links dropped)."""
    conv = md.Markdown(extensions=["tables", "sane_lists"], output_format="html")
    if not allow_html:
        conv.preprocessors.deregister("html_block")
        conv.inlinePatterns.deregister("html")
    html = conv.convert(text)
    # headings inside a page start at h2: the page title is the h1
    html = re.sub(r"<(/?)h1>", r"<\1h2>", html)
    html = nh3.clean(html, tags=ALLOWED_TAGS, attributes=ALLOWED_ATTRS, url_schemes={"http", "https", "mailto"},
                     link_rel="noopener noreferrer")
    return _tables(html, table_label)


def _tables(html: str, label: str = "Tabela") -> str:
    """Tables scroll in their own box on a phone (labelled `label`, in the site's language), and their header
    cells say they head a column."""
    html = re.sub(r"<thead>.*?</thead>", lambda m: m.group(0).replace("<th>", '<th scope="col">'), html, flags=re.S)
    box = f'<div class="scroll" tabindex="0" role="region" aria-label="{escape(label, quote=True)}"><table>'
    return html.replace("<table>", box).replace("</table>", "</table></div>")


def split_front_matter(text: str):
    """(front matter text, body, line where the body starts), or (None, text, 1)."""
    if not text.startswith("---"):
        return None, text, 1
    lines = text.split("\n")
    for i in range(1, len(lines)):
        if lines[i].strip() == "---":
            return "\n".join(lines[1:i]), "\n".join(lines[i + 1:]), i + 2
    return None, text, 1


def load_pages(loader, league) -> None:
    from league.i18n import translations
    from league.content.documents import Page
    table_label = translations(league.locale).gettext("Tabela")
    for folder, is_news in (("pages", False), ("news", True)):
        root = loader.content / folder
        if not root.is_dir():
            continue
        for path in loader.files_in(root, "news" if is_news else "page"):
            rel = loader.rel(path)
            text = read_text(path, rel, loader.diags)
            if text is None:
                continue
            front, body, _ = split_front_matter(text)
            if front is None:
                loader.diags.error(SourceMark(rel, 1, 1), "falta o cabeçalho (front matter) com o título",
                                   "comece o arquivo com ---, title: Título, ---")
                continue
            raw = parse_yaml(front, rel, loader.diags, line_offset=1)
            if raw is None and any(d.mark.path == rel for d in loader.diags.items):
                continue  # invalid YAML, reported; "empty header" would only repeat it
            meta = validate(S.PageMeta, raw, rel, loader.diags, "o cabeçalho")
            if meta is None:
                continue
            stem = path.stem
            date = meta.date
            if is_news:
                m = _NEWS_NAME.match(stem)
                if date is None and m:
                    try:
                        date = dt.date.fromisoformat(m.group(1))
                    except ValueError:
                        loader.diags.error(SourceMark(rel), f"data inexistente no nome do arquivo \"{m.group(1)}\"")
                        continue
                    if not S.DATE_MIN <= date <= S.DATE_MAX:
                        loader.diags.error(SourceMark(rel), f"data fora do limite no nome do arquivo: recebido "
                                           f"{m.group(1)}; esperado uma data de {S.DATE_MIN} a {S.DATE_MAX}",
                                           "confira o ano e renomeie o arquivo, ex.: news/2026-03-16-etapa-1.md",
                                           code="range")
                        continue
                if date is None:
                    loader.diags.error(SourceMark(rel, 1, 1), "notícia sem data",
                                       "acrescente date: AAAA-MM-DD ou nomeie o arquivo AAAA-MM-DD-titulo.md")
                    continue
            if not loader.check_slug(stem, SourceMark(rel), "nome de arquivo"):
                continue
            if not is_news and (stem in RESERVED_SLUGS or stem.isdigit()):
                loader.diags.error(SourceMark(rel), f"o nome de página \"{stem}\" é reservado pelo site",
                                   f"renomeie o arquivo, ex.: pages/{stem}-info.md")
                continue
            page = Page(slug=stem, title=meta.title, html=render_markdown(body, league.allow_html, table_label),
                        date=date,
                        season=str(meta.season) if meta.season is not None else None, stage=meta.stage,
                        championship=meta.championship, summary=meta.summary, order=meta.order or 0, path=rel,
                        is_news=is_news)
            (league.news if is_news else league.pages).append(page)
    league.news.sort(key=lambda p: (p.date, p.slug), reverse=True)
    league.pages.sort(key=lambda p: (p.order, p.title))
