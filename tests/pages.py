"""Reading built pages in tests without a browser: the tables of a page (caption, rows of cell texts, each row's
links), the ids a page defines, and a page's text by section (html.parser, standard library)."""
from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path


def _squash(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


class Page(HTMLParser):
    """One page: `ids` (every id attribute, in order), `tables` ([{caption, headers: [text], rows: [[cell text]],
    links: [[href]], section, id}]; section: the id of the innermost <section> holding it) and `links` (every
    href)."""

    def __init__(self, html: str):
        super().__init__(convert_charrefs=True)
        self.ids: list[str] = []
        self.links: list[str] = []
        self.tables: list[dict] = []
        self._sections: list[str | None] = []
        self._table: dict | None = None
        self._cell: list[str] | None = None
        self._caption: list[str] | None = None
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "id" in a:
            self.ids.append(a["id"])
        if tag == "section":
            self._sections.append(a.get("id"))
        elif tag == "table":
            section = next((s for s in reversed(self._sections) if s), None)
            self._table = {"caption": "", "headers": [], "rows": [], "links": [], "section": section,
                           "id": a.get("id"), "head": True}
        elif tag == "a" and "href" in a:
            self.links.append(a["href"])
            if self._table is not None and self._cell is not None and not self._table["head"]:
                self._table["links"][-1].append(a["href"])
        elif self._table is not None:
            self._table_tag(tag)

    def _table_tag(self, tag):
        if tag == "caption":
            self._caption = []
        elif tag == "tbody":
            self._table["head"] = False
        elif tag == "tr" and not self._table["head"]:
            self._table["rows"].append([])
            self._table["links"].append([])
        elif tag in ("td", "th"):
            self._cell = []

    def handle_endtag(self, tag):
        if tag == "section" and self._sections:
            self._sections.pop()
        elif tag == "table" and self._table is not None:
            del self._table["head"]
            self.tables.append(self._table)
            self._table = None
        elif tag == "caption" and self._caption is not None:
            self._table["caption"] = _squash("".join(self._caption))
            self._caption = None
        elif tag in ("td", "th") and self._cell is not None:
            cell = _squash("".join(self._cell))
            (self._table["headers"] if self._table["head"] else self._table["rows"][-1]).append(cell)
            self._cell = None

    def handle_data(self, data):
        if self._caption is not None:
            self._caption.append(data)
        if self._cell is not None:
            self._cell.append(data)


def page(site: Path, path: str) -> Page:
    """The page at `path` of a built site ("duplas/x--y/" or "duplas/x--y/index.html")."""
    p = site / path
    if path.endswith("/") or p.is_dir():
        p = p / "index.html"
    return Page(p.read_text(encoding="utf-8"))


def text(site: Path, path: str) -> str:
    """The page's text, tags removed and spaces squashed."""
    p = site / path
    if path.endswith("/") or p.is_dir():
        p = p / "index.html"
    html = p.read_text(encoding="utf-8")
    return _squash(re.sub(r"<[^>]+>", " ", html))
