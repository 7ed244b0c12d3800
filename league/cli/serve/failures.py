"""A failure of a `league serve` build that is not a content diagnostic (a template with a syntax error, out/
refusing the build, a bug), as the one diagnostic the error page shows: placed in the content or the
templates when possible, and never at league's own code — the page is for the one editing the content, the
traceback is for --debug."""
from __future__ import annotations

import dataclasses
import traceback
from pathlib import Path
from typing import Any, Iterator, Optional

from league.content.diagnostics import Diagnostic, SourceMark

CONTENT_FILES = (".yaml", ".yml", ".md")
INTERNAL_HINT = ("o conteúdo pode estar certo: é um erro do league; por favor, relate o problema com a saída de "
                 "league --debug serve")


def _unexpected(exc: Exception, content: Path, out: Path) -> Diagnostic:
    """The diagnostic of a failure the build did not report as content errors."""
    import jinja2
    from league.site.writer import OutError
    if isinstance(exc, jinja2.TemplateSyntaxError):
        where = SourceMark(exc.filename or exc.name or "templates", exc.lineno or 0, 1 if exc.lineno else 0)
        return Diagnostic(where, f"erro de sintaxe no template: {exc.message}")
    if isinstance(exc, jinja2.TemplateError):
        return Diagnostic(_template_place(exc), f"erro no template: {_one_line(exc)}")
    if isinstance(exc, OutError):   # out/ got something league did not write: the build refuses it
        return Diagnostic(SourceMark(str(out)), str(exc))
    what = f"{type(exc).__name__}: {_one_line(exc)}"
    place = _content_place(exc, content)
    if place is not None:
        return Diagnostic(place, f"erro interno do league ao processar este conteúdo: {what}", INTERNAL_HINT)
    return Diagnostic(SourceMark("erro interno"), f"erro inesperado na construção do site: {what}", INTERNAL_HINT)


def _template_place(exc: BaseException) -> SourceMark:
    """The innermost line of a template in a rendering error's traceback (Jinja2 puts the template's lines in
    it), else just "templates"."""
    frame = next((f for f in reversed(traceback.extract_tb(exc.__traceback__))
                  if f.filename.endswith((".html", ".xml"))), None)
    return SourceMark(frame.filename, frame.lineno or 0, 1) if frame else SourceMark("templates")


def _one_line(exc: BaseException) -> str:
    """The first line of an exception's message: a worker's failure carries the worker's traceback after it."""
    lines = str(exc).strip().splitlines()
    return lines[0] if lines else ""


def _content_place(exc: BaseException, content: Path) -> Optional[SourceMark]:
    """The content being processed when `exc` was raised: the innermost frame of its traceback (or of what
    caused it) with a local that is a place in the content (a SourceMark, or one of league's records that
    has one: a stage, a match, a club…) or a content file. None when nothing says (a failure in a worker,
    which loses its frames)."""
    try:
        root = Path(content).resolve()
    except OSError:
        root = Path(content).absolute()
    for frame in _frames(exc):
        values = list(frame.f_locals.values())
        mark = next((m for m in map(_mark_of, values) if m is not None), None)
        if mark is None:
            mark = _file_place([v for v in values if _names_content_file(v)], root, Path(content).name)
        if mark is not None:
            return mark
    return None


def _frames(exc: Optional[BaseException]) -> Iterator[Any]:
    """The frames of an exception's traceback, innermost first, then those of its cause (or of the exception
    it was raised while handling), and so on: each exception once."""
    seen: set[int] = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        for frame, _line in reversed(list(traceback.walk_tb(exc.__traceback__))):
            yield frame
        exc = exc.__cause__ or exc.__context__


def _mark_of(value: Any) -> Optional[SourceMark]:
    """The place in the content a value names: a SourceMark with a file, or the `mark` of a record (a
    dataclass instance with that field)."""
    if isinstance(value, SourceMark):
        mark = value
    elif dataclasses.is_dataclass(value) and not isinstance(value, type) \
            and any(f.name == "mark" for f in dataclasses.fields(value)):
        mark = getattr(value, "mark", None)
    else:
        return None
    return mark if isinstance(mark, SourceMark) and mark.path else None


def _names_content_file(value: Any) -> bool:
    """A str or Path that may be a content file (not too long to be a path)."""
    return isinstance(value, (str, Path)) and len(str(value)) < 4096 and str(value).endswith(CONTENT_FILES)


def _file_place(files: list, root: Path, folder: str) -> Optional[SourceMark]:
    """The first of `files` that is a file inside the content folder `root` (a relative one is read from the
    folder above it), named as the loader names it (league.engine.loader.Loader.rel): content/…"""
    for value in files:
        path = Path(value)
        full = path if path.is_absolute() else root.parent / path
        try:
            rel = full.resolve().relative_to(root)
        except (OSError, ValueError):
            continue
        if full.is_file():
            return SourceMark(f"{folder or 'content'}/{rel.as_posix()}")
    return None
