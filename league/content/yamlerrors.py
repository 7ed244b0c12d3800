"""libyaml's syntax errors said in Portuguese, at the editor's mistake: a TAB, too long a key, a quote left
open lines before where libyaml gave up (league.content.yamlio reports them)."""
from __future__ import annotations

import re

import yaml

from league.content.diagnostics import SourceMark

_TRANSLATIONS = [
    ("found character '\\t' that cannot start any token",
     "caractere de tabulação (TAB) não é permitido no YAML", "recue as linhas com espaços, não com TAB"),
    ("found a tab character", "caractere de tabulação (TAB) não é permitido no YAML",
     "recue as linhas com espaços, não com TAB"),
    ("mapping values are not allowed", "\":\" inesperado nesta posição",
     "confira o recuo da linha; um texto com \":\" precisa estar entre aspas"),
    ("could not find expected ':'", "falta \":\" depois da chave", "escreva \"chave: valor\""),
    ("did not find expected key", "recuo inconsistente: esperava uma chave nesta posição",
     "alinhe a linha com as outras chaves do mesmo bloco"),
    ("did not find expected '-' indicator", "recuo inconsistente: esperava um item de lista (\"- \")",
     "alinhe a linha com os outros itens da lista"),
    ("found unexpected end of stream", "o arquivo termina no meio de um texto entre aspas",
     "feche as aspas abertas"),
    ("found undefined alias", "alias (*) não definido", "não use âncoras e aliases (&, *)"),
    ("expected a single document", "o arquivo tem mais de um documento YAML (\"---\")",
     "deixe um só documento por arquivo"),
    ("did not find expected node content", "valor ausente ou inválido nesta posição",
     "confira vírgulas e colchetes"),
    ("while parsing a flow", "lista ou mapa entre colchetes/chaves não foi fechado",
     "feche \"[\" com \"]\" e \"{\" com \"}\""),
    ("exceeded maximum nesting depth", "estrutura aninhada demais",
     "os arquivos de conteúdo têm no máximo uns 8 níveis; confira colchetes e recuo"),
]
_SIMPLE_KEY_LIMIT = 1024  # libyaml: an implicit key is at most 1024 characters long
_QUOTE = re.compile(r'(?<!\\)"')   # a double quote not escaped


def yaml_error(exc: yaml.YAMLError, rel: str, text: str) -> tuple[SourceMark, str, str | None]:
    """(mark, message, hint) of a syntax error, in Portuguese: at the mistake itself where libyaml reports it
    further on (a TAB, too long a key, an unclosed quote), else where libyaml says, in _TRANSLATIONS' words."""
    mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
    smark = SourceMark(rel, mark.line + 1, mark.column + 1) if mark is not None else SourceMark(rel, 1, 1)
    if mark is not None and 0 <= mark.index < len(text) and text[mark.index] == "\t":
        return smark, "YAML inválido: " + _TRANSLATIONS[0][1], _TRANSLATIONS[0][2]
    problem = (getattr(exc, "problem", None) or str(exc)).strip()
    context = (getattr(exc, "context", None) or "").strip()
    return (_long_key(problem, mark, getattr(exc, "context_mark", None), rel)
            or _open_quote(problem, mark, rel, text)
            or _translated(smark, problem, context))


def _long_key(problem: str, mark, cmark, rel: str) -> tuple[SourceMark, str, str] | None:
    """A key longer than libyaml takes (it then misses the ":"), said at the key's start (cmark)."""
    if "could not find expected ':'" not in problem or cmark is None or mark is None:
        return None
    length = mark.index - cmark.index
    if length <= _SIMPLE_KEY_LIMIT:
        return None
    return (SourceMark(rel, cmark.line + 1, cmark.column + 1),
            f"YAML inválido: chave longa demais ({length} caracteres; o máximo é {_SIMPLE_KEY_LIMIT})",
            "confira se falta uma quebra de linha ou \":\"; um texto longo vai depois de \"chave: \", nunca no "
            "lugar da chave")


def _open_quote(problem: str, mark, rel: str, text: str) -> tuple[SourceMark, str, str] | None:
    """A double quote left open a few lines before where libyaml found something unexpected."""
    if mark is None or not ("expected" in problem or "not allowed" in problem):
        return None
    quote = _unclosed_quote(text, mark.line)
    if quote is None:
        return None
    line, col = quote
    return (SourceMark(rel, line, col), "YAML inválido: aspas abertas e não fechadas nesta linha",
            "feche as aspas no fim do texto: \"…\"")


def _translated(smark: SourceMark, problem: str, context: str) -> tuple[SourceMark, str, str | None]:
    """libyaml's problem in the words of _TRANSLATIONS, or as it says it when none fits."""
    for needle, message, hint in _TRANSLATIONS:
        if needle in problem or needle in context:
            return smark, f"YAML inválido: {message}", hint
    return smark, f"YAML inválido: {problem}" + (f" ({context})" if context else ""), None


def _unclosed_quote(text: str, error_line: int) -> tuple[int, int] | None:
    """(line, column) of a double quote that opens a value on one of the lines just before the error (0-based
    error_line) and is not closed on its line: the quoted text then runs over the next lines and libyaml
    complains far from the real mistake."""
    lines = text.split("\n", error_line + 1)[:error_line + 1]
    for i in range(len(lines) - 1, max(-1, len(lines) - 21), -1):
        col = _opening_quote(lines[i])
        if col is not None:
            return i + 1, col + 1
    return None


def _opening_quote(line: str) -> int | None:
    """The index of the double quote that opens a value on this line and is not closed on it, if one does."""
    if len(line) > 10_000:
        return None
    quotes = [m.start() for m in _QUOTE.finditer(line)]
    if len(quotes) % 2 == 0 or "'" in line or "#" in line[:quotes[-1]]:
        return None
    before = line[:quotes[-1]].rstrip()
    return quotes[-1] if before == "" or before.endswith((":", "-", "[", "{", ",")) else None
