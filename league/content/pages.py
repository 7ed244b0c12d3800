"""Markdown pages and news posts: front matter checked like any content file, Markdown rendered to HTML
with raw HTML escaped (unless allowed) and the result sanitised by nh3, so no script gets through."""
from __future__ import annotations

import datetime as dt
import re
from html import escape

import markdown as md
import nh3

from league.content import schema as S
from league.content.diagnostics import SourceMark, did_you_mean
from league.content.documents import BLOCK_LINE, RULE_BLOCKS
from league.content.validate import validate
from league.content.yamlio import parse_yaml, read_text

RESERVED_SLUGS = {"clubes", "equipes", "duplas", "jogadores", "noticias", "api", "static", "index", "busca",
                  "pagefind", "embed"}
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
    """content/pages/*.md and content/news/*.md into league.pages (by order, then title) and league.news (newest
    first), reporting what is wrong with each file (a file with an error is left out)."""
    from league.i18n import translations
    table_label = translations(league.locale).gettext("Tabela")
    for folder, is_news in (("pages", False), ("news", True)):
        root = loader.content / folder
        if not root.is_dir():
            continue
        for path in loader.files_in(root, "news" if is_news else "page"):
            page = _load_page(loader, league, path, is_news, table_label)
            if page is not None:
                (league.news if is_news else league.pages).append(page)
    league.news.sort(key=lambda p: (p.date, p.slug), reverse=True)
    league.pages.sort(key=lambda p: (p.order, p.title))


def _load_page(loader, league, path, is_news: bool, table_label: str):
    """One page or news post (a documents.Page), or None after reporting why the file makes none."""
    from league.content.documents import Page
    rel = loader.rel(path)
    read = _front_matter(loader, path, rel)
    if read is None:
        return None
    meta, body, first_line = read
    check_blocks(loader.diags, rel, body, first_line)
    stem = path.stem
    date = _news_date(loader.diags, rel, stem, meta.date) if is_news else meta.date
    if (is_news and date is None) or not _name_ok(loader, rel, stem, is_news):
        return None
    return Page(slug=stem, title=meta.title, html=render_markdown(body, league.allow_html, table_label), date=date,
                season=str(meta.season) if meta.season is not None else None, stage=meta.stage,
                championship=meta.championship, summary=meta.summary, order=meta.order or 0, path=rel,
                is_news=is_news)


def _front_matter(loader, path, rel: str):
    """(the checked front matter, schema.PageMeta; the Markdown body), or None after reporting why not."""
    text = read_text(path, rel, loader.diags)
    if text is None:
        return None
    front, body, first_line = split_front_matter(text)
    if front is None:
        loader.diags.error(SourceMark(rel, 1, 1), "falta o cabeçalho (front matter) com o título",
                           "comece o arquivo com ---, title: Título, ---")
        return None
    raw = parse_yaml(front, rel, loader.diags, line_offset=1)
    if raw is None and any(d.mark.path == rel for d in loader.diags.items):
        return None  # invalid YAML, reported; "empty header" would only repeat it
    meta = validate(S.PageMeta, raw, rel, loader.diags, "o cabeçalho")
    return None if meta is None else (meta, body, first_line)


def check_blocks(diags, rel: str, body: str, first_line: int) -> None:
    """Every line holding only [[name]] must name a section the build writes (RULE_BLOCKS); an unknown one is an
    error at its line and column, with the closest names."""
    for m in BLOCK_LINE.finditer(body):
        name = m.group(1)
        if name in RULE_BLOCKS:
            continue
        line = first_line + body.count("\n", 0, m.start(1))
        col = m.start(1) - body.rfind("\n", 0, m.start(1))
        known = ", ".join(RULE_BLOCKS)
        diags.error(SourceMark(rel, line, col), f"seção gerada desconhecida: recebido [[{name}]]; esperado uma de: "
                    f"{known}", did_you_mean(name, RULE_BLOCKS) or f"escreva, sozinho na linha, [[{RULE_BLOCKS[0]}]]",
                    code="unknown-block")


def _news_date(diags, rel: str, stem: str, date: dt.date | None) -> dt.date | None:
    """A news post's date: its front matter's, else the one its file name starts with (AAAA-MM-DD-titulo.md);
    None after reporting why it has none."""
    if date is not None:
        return date
    m = _NEWS_NAME.match(stem)
    if m:
        return _name_date(diags, rel, m.group(1))
    diags.error(SourceMark(rel, 1, 1), "notícia sem data",
                "acrescente date: AAAA-MM-DD ou nomeie o arquivo AAAA-MM-DD-titulo.md")
    return None


def _name_date(diags, rel: str, text: str) -> dt.date | None:
    """The date a news file's name starts with, or None after reporting that it does not exist or is out of range."""
    try:
        date = dt.date.fromisoformat(text)
    except ValueError:
        diags.error(SourceMark(rel), f"data inexistente no nome do arquivo \"{text}\"")
        return None
    if not S.DATE_MIN <= date <= S.DATE_MAX:
        diags.error(SourceMark(rel), f"data fora do limite no nome do arquivo: recebido {text}; esperado uma data de "
                    f"{S.DATE_MIN} a {S.DATE_MAX}",
                    "confira o ano e renomeie o arquivo, ex.: news/2026-03-16-etapa-1.md", code="range")
        return None
    return date


def _name_ok(loader, rel: str, stem: str, is_news: bool) -> bool:
    """Whether the file's name makes a good address: an id, and for a page none the site uses itself."""
    if not loader.check_slug(stem, SourceMark(rel), "nome de arquivo"):
        return False
    if not is_news and (stem in RESERVED_SLUGS or stem.isdigit()):
        loader.diags.error(SourceMark(rel), f"o nome de página \"{stem}\" é reservado pelo site",
                           f"renomeie o arquivo, ex.: pages/{stem}-info.md")
        return False
    return True
