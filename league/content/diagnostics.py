"""Diagnostics that point at a file, line and column, and the exception that carries them."""
from __future__ import annotations

import difflib
from dataclasses import dataclass
from typing import Iterable, NamedTuple


class SourceMark(NamedTuple):
    """A place in a content file: path relative to the content root's parent, 1-based line and column.
    (A NamedTuple: millions are made while loading, and tuples are cheap.)"""

    path: str
    line: int = 0
    col: int = 0

    def __str__(self) -> str:
        if self.line:
            return f"{self.path}:{self.line}:{self.col}"
        return self.path

    def __reduce__(self):
        # read back by tuple.__new__ (C) instead of the NamedTuple's Python __new__: a cached stage holds
        # hundreds of thousands of marks
        return _tuple_new, (type(self), tuple(self))


_tuple_new = tuple.__new__


@dataclass(frozen=True)
class Diagnostic:
    """One problem found in the content: where, what, and what to do about it."""

    mark: SourceMark
    message: str
    hint: str | None = None
    level: str = "error"  # "error" | "warning"
    code: str = "content"

    def sort_key(self):
        return (self.mark.path, self.mark.line, self.mark.col, self.message)

    def format_text(self) -> str:
        label = "erro" if self.level == "error" else "aviso"
        text = f"{self.mark}: {label}: {self.message}"
        if self.hint:
            text += f"\n    sugestão: {self.hint}"
        return text

    def format_github(self) -> str:
        kind = "error" if self.level == "error" else "warning"
        msg = self.message + (f" — sugestão: {self.hint}" if self.hint else "")
        loc = f"file={github_property(self.mark.path)}"
        if self.mark.line:
            loc += f",line={self.mark.line},col={self.mark.col}"
        return f"::{kind} {loc}::{github_data(msg)}"

    def as_json(self) -> dict:
        return {
            "level": self.level,
            "file": self.mark.path,
            "line": self.mark.line,
            "col": self.mark.col,
            "message": self.message,
            "hint": self.hint,
            "code": self.code,
        }


def github_data(text: str) -> str:
    """The message of a GitHub workflow command (`::error …::message`), escaped as GitHub's toolkit does
    (escapeData): a newline or CR in it would end the command and start a line the runner reads afresh."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def github_property(text: str) -> str:
    """A property value of a workflow command (file=, title=), escaped as GitHub's toolkit does
    (escapeProperty): also "," (the separator of properties) and ":" (which would end them)."""
    return github_data(text).replace(":", "%3A").replace(",", "%2C")


class Diagnostics:
    """Collects every problem of a run, so that all of them are reported at once."""

    def __init__(self) -> None:
        self.items: list[Diagnostic] = []

    def error(self, mark: SourceMark, message: str, hint: str | None = None, code: str = "content") -> None:
        self.items.append(Diagnostic(mark, message, hint, "error", code))

    def warning(self, mark: SourceMark, message: str, hint: str | None = None, code: str = "content") -> None:
        self.items.append(Diagnostic(mark, message, hint, "warning", code))

    def extend(self, other: Iterable[Diagnostic]) -> None:
        self.items.extend(other)

    @property
    def errors(self) -> list[Diagnostic]:
        return sorted((d for d in self.items if d.level == "error"), key=Diagnostic.sort_key)

    @property
    def warnings(self) -> list[Diagnostic]:
        return sorted((d for d in self.items if d.level == "warning"), key=Diagnostic.sort_key)

    def sorted(self) -> list[Diagnostic]:
        seen: set = set()
        out = []
        for d in sorted(self.items, key=Diagnostic.sort_key):
            key = (d.mark, d.message, d.level)
            if key not in seen:
                seen.add(key)
                out.append(d)
        return out

    def __bool__(self) -> bool:
        return bool(self.items)


class LeagueError(Exception):
    """Raised when the content has errors; carries every diagnostic of the run. Exit status 1."""

    exit_code = 1

    def __init__(self, diagnostics: list[Diagnostic]):
        self.diagnostics = diagnostics
        super().__init__(f"{len([d for d in diagnostics if d.level == 'error'])} erro(s) no conteúdo")


def did_you_mean(value: object, choices: Iterable[str], n: int = 3) -> str | None:
    """'você quis dizer …?' with the closest known ids, or None."""
    if not isinstance(value, str):
        return None
    close = difflib.get_close_matches(value, sorted(set(choices)), n=n, cutoff=0.6)
    if not close:
        return None
    return "você quis dizer " + " ou ".join(f'"{c}"' for c in close) + "?"
