"""The mappings and sequences a content file is parsed into (league.content.yamlio): dicts and lists that remember the
line and column of every key and value; and the largest content file read. Apart from the parser, so that
what only handles them — the loader reading everything back from the cache — does not import PyYAML
(~0.02 s)."""
from __future__ import annotations

from typing import Any

from league.content.diagnostics import SourceMark

MAX_BYTES = 5 * 1024 * 1024   # a content file larger than this is reported, never read (league.content.yamlio.read_text)

class MDict(dict):
    """A mapping from YAML that remembers where each key and value was written."""

    __slots__ = ("mark", "key_marks", "value_marks")

    def __init__(self, mark: SourceMark):
        super().__init__()
        self.mark = mark
        self.key_marks: dict[Any, SourceMark] = {}
        self.value_marks: dict[Any, SourceMark] = {}

    def __reduce__(self):
        return (_rebuild_mdict, (self.mark, dict(self), self.key_marks, self.value_marks))

    def kmark(self, key) -> SourceMark:
        return self.key_marks.get(key, self.mark)

    def vmark(self, key) -> SourceMark:
        return self.value_marks.get(key, self.mark)


def _rebuild_mdict(mark, items, key_marks, value_marks):
    d = MDict(mark)
    d.update(items)
    d.key_marks = key_marks
    d.value_marks = value_marks
    return d


class MList(list):
    """A sequence from YAML that remembers where each item was written."""

    __slots__ = ("mark", "marks")

    def __init__(self, mark: SourceMark):
        super().__init__()
        self.mark = mark
        self.marks: list[SourceMark] = []

    def __reduce__(self):
        return (_rebuild_mlist, (self.mark, list(self), self.marks))

    def imark(self, i: int) -> SourceMark:
        return self.marks[i] if 0 <= i < len(self.marks) else self.mark


def _rebuild_mlist(mark, items, marks):
    lst = MList(mark)
    lst.extend(items)
    lst.marks = marks
    return lst


def mark_of(container: Any, key: Any, default: SourceMark) -> SourceMark:
    """The mark of container[key] (value), or default."""
    if isinstance(container, MDict):
        return container.value_marks.get(key, container.mark)
    if isinstance(container, MList) and isinstance(key, int):
        return container.imark(key)
    return default
