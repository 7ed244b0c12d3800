"""Search stubs: a page cut down to what pagefind reads from it (~1/20 of the bytes: the heading and meta
line, `<main>`'s meta, `<html lang>`), which league/site/search.py indexes instead of the page.

`stub(html)` is the smallest page pagefind indexes exactly like `html`; `stubs_digest` hashes the stubs (the
index needs making again only when it changes: a score is not in any stub); `stubs_of_site` cuts the stubs
of a written site (tests, benchmarks); `StubHash` stands for the stub of a page rendered again to the bytes
the previous site has.

What pagefind 1.x reads from one of our pages (what `stub` keeps; pagefind/src/fossick/parser.rs):
  - `<html lang>`, lower-cased: the index language (stemming, the `pt-br` file names);
  - the text of the `data-pagefind-body` elements and of the text nodes between them (whitespace
    normalised; `h1` gets an automatic weight), in order: the content, words and word positions;
  - `data-pagefind-meta` / `-filter` / `-sort` / `-default-meta` attributes (here `tipo:…` on `<main>`);
  - the text of the first non-empty `<h1>` as the `title` meta, `<title>` only when there is no `h1`;
  - the first `<img src>` after that `h1` (outside `data-pagefind-ignore="all"`) as the `image` and
    `image_alt` meta — on our pages that is a chart, whose alt text carries positions and points;
  - elements with an `id` inside a body (anchors), `<html>`'s presence, the file's path (the URL).
A page whose shape differs from the one the templates produce (a meta attribute elsewhere, an `h1`
before the body, an `id` inside the body…) gets itself as its stub: still indexed the same, just not smaller.
"""
from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Mapping
from pathlib import Path

_SPACE = " \t\n\r\f"
_BODY = "data-pagefind-body"
_TAG_NAME = re.compile(r"<([A-Za-z][A-Za-z0-9-]*)")
_HTML_TAG = re.compile(r"<html(?=[\s>])[^>]*>", re.I)
_TITLE = re.compile(r"<title(?=[\s>])[^>]*>.*?</title\s*>", re.I | re.S)
_TAGS = re.compile(r"<[^>]*>")
_ID_ATTR = re.compile(r"<[A-Za-z][^>]*?\sid=", re.I)
_IGNORE_VALUE = re.compile(r"""\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]*))""")
# the attributes whose values pagefind keeps wherever they are on the page
_DATA_ATTRS = ("data-pagefind-meta=", "data-pagefind-filter=", "data-pagefind-sort=",
               "data-pagefind-default-meta=")


def _in_tag(html: str, pos: int) -> bool:
    """Whether `pos` lies inside a start tag (the last `<` before it comes after the last `>`)."""
    return html.rfind("<", 0, pos) > html.rfind(">", 0, pos)


def _is_attr(html: str, pos: int, name: str) -> bool:
    """Whether the text `name` found at `pos` is that attribute of a tag (not words in the text)."""
    after = html[pos + len(name):pos + len(name) + 1]
    return html[pos - 1:pos] in _SPACE and (after == "" or after in _SPACE + "=/>") and _in_tag(html, pos)


def _element_end(html: str, start: int, name: str) -> int:
    """End (after `</name>`) of the element whose start tag begins at `start`; -1 when unclosed.
    Counts nested elements of the same name."""
    close = html.find(f"</{name}>", start)
    if close >= 0 and html.find(f"<{name}", start + 1, close) < 0:
        return close + len(name) + 3  # the usual case: nothing of the same name inside
    opener = re.compile(rf"<(/?){re.escape(name)}(?=[\s>/])[^>]*>", re.I)
    depth = 0
    for m in opener.finditer(html, start):
        if m.group(1):
            depth -= 1
            if depth == 0:
                return m.end()
        elif not m.group(0).endswith("/>"):
            depth += 1
    return -1


def _excluded(html: str, lo: int, pos: int) -> bool:
    """Whether `pos` lies in an element starting after `lo` that pagefind excludes entirely
    (`data-pagefind-ignore="all"`, or a value it does not know): an image there is not the page's."""
    i = html.find("data-pagefind-ignore", lo, pos)
    while i >= 0:
        if _is_attr(html, i, "data-pagefind-ignore"):
            v = _IGNORE_VALUE.match(html, i + 20)
            value = next((g for g in v.groups() if g is not None), "") if v else ""
            if value.lower() not in ("", "index", "true"):
                tag = html.rfind("<", 0, i)
                name = _TAG_NAME.match(html, tag)
                end = _element_end(html, tag, name.group(1)) if name else -1
                if end < 0 or end > pos:
                    return True
        i = html.find("data-pagefind-ignore", i + 20, pos)
    return False


def _first_image(html: str, after: int) -> tuple[int, int] | None:
    """Start and end of the first `<img src>` from `after` on that pagefind takes as the page's image.
    (Looks for `src=`, far rarer than `<`, then checks that it is an attribute of an `<img>`.)"""
    k = html.find("src=", after)
    while k >= 0:
        tag = html.rfind("<", after, k)
        if (tag >= 0 and html.startswith("<img", tag) and html[tag + 4:tag + 5] in _SPACE
                and html[k - 1:k] in _SPACE and html.find(">", tag, k) < 0
                and not _excluded(html, after, tag)):
            return tag, html.find(">", k) + 1
        k = html.find("src=", k + 4)
    return None


def stub(html: str) -> str | None:
    """The smallest page pagefind indexes exactly like `html` (same content and word positions, title,
    meta, image, language — hence a byte-identical index when written at the same path), or None when
    the page has no `data-pagefind-body` (pagefind skips it, since other pages have one)."""
    bodies, attrs = _pagefind_attributes(html)
    if not bodies:
        return None
    first, end = _body_span(html, bodies)
    if end < 0:
        return html  # the title from an h1 outside the body, an unclosed body…: keep the whole page
    span = html[first:end]
    if _ID_ATTR.search(span):
        return html  # anchors: their numbering counts the ids before the body
    main = _main_tag(html, first)  # the body's <main>, with its data-pagefind-meta
    h1_end = _element_end(html, first, "h1")
    if not _TAGS.sub("", html[first:h1_end]).strip():
        return html  # an empty h1 is no title: pagefind looks further (next h1, <title>)
    image = _first_image(html, h1_end)
    # every meta, filter and sort attribute must be in the stub, else keep the page
    if not _all_within(attrs, [(first, end), main] + ([image] if image else [])):
        return html
    return _stub_page(html, first, end, main, image)


def _pagefind_attributes(html: str) -> tuple[list[int], list[int]]:
    """Where the page's `data-pagefind-body` attributes are, and its data-pagefind-meta, -filter, -sort and
    -default-meta ones."""
    bodies: list[int] = []
    attrs: list[int] = []
    k = html.find("data-pagefind-")
    while k >= 0:
        if html.startswith(_BODY, k):
            if _is_attr(html, k, _BODY):
                bodies.append(k)
        elif html.startswith(_DATA_ATTRS, k):
            attrs.append(k)
        k = html.find("data-pagefind-", k + 14)
    return bodies, attrs


def _body_span(html: str, bodies: list[int]) -> tuple[int, int]:
    """Start of the first body element and end of the last one, when the first is the page's first `<h1>`
    (its title) and the last is closed; (start, -1) otherwise."""
    first = html.rfind("<", 0, bodies[0])
    last = html.rfind("<", 0, bodies[-1])
    name = _TAG_NAME.match(html, last)
    end = _element_end(html, last, name.group(1)) if name else -1
    if not html.startswith("<h1", first) or html.find("<h1", 0, first) >= 0 or html.find("<H1", 0, first) >= 0:
        return first, -1
    return first, end


def _main_tag(html: str, first: int) -> tuple[int, int]:
    """Start and end of the `<main>` start tag that holds the body starting at `first`; (-1, -1) if none."""
    main = html.rfind("<main", 0, first)
    main_end = html.find(">", main) + 1
    if main < 0 or html[main + 5] not in _SPACE + ">" or html.find("</main", main, first) >= 0:
        return -1, -1
    return main, main_end


def _all_within(positions: list[int], spans: list[tuple[int, int]]) -> bool:
    """Whether every position lies in one of the (start, end) spans."""
    return all(any(a <= k < b for a, b in spans) for k in positions)


def _stub_page(html: str, first: int, end: int, main: tuple[int, int], image: tuple[int, int] | None) -> str:
    """The stub: `<html>` and `<title>` as the page has them, the `<main>` start tag, the body elements
    (html[first:end]) and the page's image when it comes after them."""
    html_tag = _HTML_TAG.search(html, 0, first)
    title = _TITLE.search(html, 0, first)
    return "".join((
        "<!doctype html>\n", html_tag.group(0) if html_tag else "<html>", "\n<head>\n",
        title.group(0) if title else "", "\n</head>\n<body>\n", html[main[0]:main[1]] if main[0] >= 0 else "",
        html[first:end],
        html[image[0]:image[1]] if image and image[0] >= end else "",  # one in the body is already there
        "</main>" if main[0] >= 0 else "", "\n</body>\n</html>\n"))


class StubHash(str):
    """The hash a previous build recorded of a page's stub (league.engine.build._stub_hash), standing for the stub of
    a page rendered again with the very bytes of the file the previous site has: the same bytes have the same
    stub, so the build does not cut it out again (league.site.render._share). Where the text is needed (the index
    made again), it is read back from that file, as for a page kept unrendered."""

    __slots__ = ()


def stubs_digest(stubs: Mapping[str, str]) -> str:
    """sha256 of the (relative path, stub) pairs sorted by path: the index needs rebuilding only when it
    changes (a changed score outside the indexed text leaves it as it was)."""
    h = hashlib.sha256()
    for path in sorted(stubs, key=_relpath):
        rel = _relpath(path).encode("utf-8")
        text = stubs[path].encode("utf-8")
        h.update(len(rel).to_bytes(8, "big") + rel + len(text).to_bytes(8, "big") + text)
    return h.hexdigest()


def _relpath(path: str | os.PathLike) -> str:
    """`path` as a clean relative POSIX path ("jogadores/x/index.html"); ValueError for anything that
    could leave the tree (absolute, `..`) or has two spellings (`a//b`, `./a`)."""
    rel = os.fspath(path)
    if os.sep != "/":
        rel = rel.replace(os.sep, "/")
    parts = rel.split("/")
    if not rel or rel.startswith("/") or "" in parts or "." in parts or ".." in parts or ":" in parts[0]:
        raise ValueError(f"caminho de página inválido: {path!r}")
    return rel


def stubs_of_site(site: Path) -> dict[str, str]:
    """The stub of every indexed `.html` page of a written site, keyed by its path relative to `site`
    (a helper for tests and benchmarks; the build computes stubs from the pages it renders)."""
    site = Path(site)
    out: dict[str, str] = {}
    for dirpath, dirnames, filenames in os.walk(site):
        dirnames.sort()
        for name in sorted(filenames):
            if name.endswith(".html"):
                path = os.path.join(dirpath, name)
                with open(path, encoding="utf-8") as fh:
                    s = stub(fh.read())
                if s is not None:
                    out[Path(os.path.relpath(path, site)).as_posix()] = s
    return out
