"""Safe YAML loading that keeps the line and column of every key and value and rejects what an editor cannot mean.

Uses PyYAML's C loader (libyaml) when present. Aliases, duplicate keys, tabs, non-UTF-8 bytes,
oversized files and absurd nesting are reported as diagnostics, never guessed around.
"""
from __future__ import annotations

import datetime as _dt
import errno
import os
import re
import stat
from pathlib import Path
from typing import Any

import yaml
from yaml.constructor import SafeConstructor
from yaml.events import (AliasEvent, DocumentEndEvent, MappingStartEvent, ScalarEvent, SequenceStartEvent,
                         StreamEndEvent)
from yaml.nodes import ScalarNode, SequenceNode

from league.content.diagnostics import Diagnostics, SourceMark
from league.content.marked import MAX_BYTES, MDict, MList, mark_of  # noqa: F401 - also importable from here
from league.content.yamlerrors import yaml_error

try:  # the C loader is 4–5× faster; never fall back silently when it exists
    from yaml import CSafeLoader as _Loader
except ImportError:  # pragma: no cover - depends on the platform's PyYAML build
    from yaml import SafeLoader as _Loader  # type: ignore[assignment]

class _MemoLoader(_Loader):
    """The loader with each scalar's implicit tag (str, int, date…) resolved once per distinct text: content
    files repeat the same keys, ids and scores thousands of times, and PyYAML resolves every one of them in
    Python, against a list of regular expressions. The resolution depends on nothing but its arguments."""

    _resolved: dict = {}

    def resolve(self, kind, value, implicit):
        key = (kind, value, implicit)
        tag = self._resolved.get(key)
        if tag is None:
            tag = super().resolve(kind, value, implicit)
            if tag == _INT and _HEX_SCORE.match(value):   # `- 0x2`: a score (0-2), not YAML 1.1's hex number 2
                tag = _STR
            if (value is None or len(value) <= 40) and len(self._resolved) < 100_000:   # ids, keys, scores
                self._resolved[key] = tag
        return tag


_HEX_SCORE = re.compile(r"^0x[0-9]+$")

MAX_DEPTH = 40
_constructor = SafeConstructor()


# characters YAML does not allow in a file (YAML 1.1, 5.1): C0 controls except TAB/LF/CR, DEL, C1 except NEL
_FORBIDDEN = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x84\x86-\x9f\ufffe\uffff]")


def _unreadable(exc: OSError) -> tuple[str, str | None]:
    """Why a content file could not be read, in words, and what to do."""
    if exc.errno == errno.ELOOP:
        return "link simbólico em laço (aponta para si mesmo)", "apague o link e ponha aqui o arquivo de verdade"
    if exc.errno == errno.ENOENT:
        return "link simbólico quebrado (o destino não existe)", "apague o link e ponha aqui o arquivo de verdade"
    if exc.errno in (errno.EACCES, errno.EPERM):
        return "sem permissão de leitura", "confira as permissões do arquivo"
    if exc.errno == errno.EISDIR:
        return "é uma pasta, não um arquivo", "mova o conteúdo da pasta ou renomeie-a"
    return exc.strerror or str(exc), None


def read_text(path: Path, rel: str, diags: Diagnostics, max_bytes: int = MAX_BYTES,
              digests: dict | None = None) -> str | None:
    """The file's text, or None after reporting why it cannot be read. `digests`: where the sha256 of the bytes
    read goes, under `rel` (what the text was made of, for a cache key made from an earlier read)."""
    try:
        st = os.stat(path)
        if stat.S_ISDIR(st.st_mode):
            raise IsADirectoryError(errno.EISDIR, "Is a directory")
        if not stat.S_ISREG(st.st_mode):  # a FIFO or a device would block or never end
            diags.error(SourceMark(rel), "não foi possível ler o arquivo: não é um arquivo comum (é um dispositivo, "
                        "fila ou soquete)", "ponha aqui um arquivo de texto", code="unreadable")
            return None
        size = st.st_size
        if size > max_bytes:
            diags.error(SourceMark(rel), f"arquivo grande demais: {size / 1e6:.1f} MB; o máximo é "
                        f"{max_bytes / 1e6:.1f} MB", "um arquivo de etapa ou campeonato tem poucos KB; "
                        "confira se o arquivo certo foi salvo aqui", code="too-large")
            return None
        with open(path, "rb") as fh:
            data = fh.read(max_bytes + 1)  # never more, even if the file grew since stat
        if len(data) > max_bytes:
            diags.error(SourceMark(rel), f"arquivo grande demais: mais de {max_bytes / 1e6:.1f} MB",
                        "um arquivo de etapa ou campeonato tem poucos KB", code="too-large")
            return None
        if digests is not None:
            import hashlib
            digests[rel] = hashlib.sha256(data).hexdigest()
    except OSError as exc:
        reason, hint = _unreadable(exc)
        diags.error(SourceMark(rel), f"não foi possível ler o arquivo: {reason}", hint, code="unreadable")
        return None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        col = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        diags.error(SourceMark(rel, line, col),
                    f"o arquivo não está em UTF-8: byte 0x{data[exc.start]:02x} inválido",
                    "salve o arquivo com a codificação UTF-8", code="encoding")
        return None
    if text.startswith("\ufeff"):
        text = text[1:]
    return text


def parse_yaml(text: str, rel: str, diags: Diagnostics, line_offset: int = 0) -> Any:
    """Parse one YAML document into MDict/MList/scalars. Returns None for an empty document or on error."""
    bad = _FORBIDDEN.search(text)
    if bad:
        line = text.count("\n", 0, bad.start()) + 1
        col = bad.start() - (text.rfind("\n", 0, bad.start()) + 1) + 1
        diags.error(SourceMark(rel, line + line_offset, col),
                    f"caractere de controle U+{ord(bad.group()):04X} não é permitido no YAML",
                    "o arquivo parece binário ou recebeu um caractere invisível ao colar um texto; apague-o",
                    code="yaml")
        return None
    try:
        return _fast(text, rel, line_offset)
    except (_Fallback, yaml.YAMLError):   # not a plain, valid file: composed below, which says what is wrong
        pass
    try:
        node = yaml.compose(text, Loader=_MemoLoader)
    except yaml.YAMLError as exc:
        mark, message, hint = yaml_error(exc, rel, text)
        if line_offset:
            mark = SourceMark(mark.path, mark.line + line_offset, mark.col)
        diags.error(mark, message, hint, code="yaml")
        return None
    if node is None:
        return None
    try:
        return _Builder(rel, diags, line_offset).build(node, 0)
    except _Abort:
        return None


def load_yaml(path: Path, rel: str, diags: Diagnostics, max_bytes: int = MAX_BYTES, digests: dict | None = None) -> Any:
    text = read_text(path, rel, diags, max_bytes, digests)
    if text is None:
        return None
    return parse_yaml(text, rel, diags)


_new = tuple.__new__   # SourceMark(path, line, col) without the NamedTuple's Python __new__ (hundreds of thousands)
_STR = "tag:yaml.org,2002:str"
_INT = "tag:yaml.org,2002:int"
_NULL = "tag:yaml.org,2002:null"


class _Fallback(Exception):
    """The fast path met something it leaves to the composed one (see _fast)."""


_SCALAR_TAGS = {_STR, _INT, _NULL, "tag:yaml.org,2002:bool", "tag:yaml.org,2002:float",
                "tag:yaml.org,2002:timestamp"}
_VALUES: dict = {}   # (text, implicit) → the scalar's value: content files repeat the same ids, keys and scores


def _construct(node: ScalarNode) -> Any:
    """A scalar's value: texts, plain decimal ints and nulls directly, the rest by PyYAML's constructor
    (which raises ValueError, OverflowError or a YAMLError for a value it cannot make)."""
    tag, value = node.tag, node.value
    if tag == _STR:
        return value
    if tag == _INT and value.isdigit() and (value[0] != "0" or value == "0"):
        return int(value)
    if tag == _NULL:
        return None
    return _constructor.construct_object(node)


def _value(loader, value: str, implicit) -> Any:
    """A plain or quoted scalar's value, as _Builder.scalar gives it; _Fallback when it is anything else
    (a tag that is not a str, int, null, bool, float or date, or a value that cannot be constructed: the
    composed path reports it)."""
    key = (value, implicit)
    try:
        return _VALUES[key]
    except KeyError:
        pass
    tag = loader.resolve(ScalarNode, value, implicit)
    if tag not in _SCALAR_TAGS:
        raise _Fallback
    try:
        out = _construct(ScalarNode(tag, value))
    except (ValueError, OverflowError, yaml.YAMLError):
        raise _Fallback from None
    if len(value) <= 40 and len(_VALUES) < 200_000:
        _VALUES[key] = out
    return out


def _fast(text: str, rel: str, line_offset: int) -> Any:
    """parse_yaml for a file with nothing to report, built from libyaml's events rather than from the node
    tree yaml.compose makes of them (no node objects, each scalar's value looked up once per distinct text:
    ~0.25 CPU-s less on a 20-season archive's 4.6 MB). The same values and marks as _Builder. It says
    nothing itself: at the first thing that might need a diagnostic — an alias, an explicit tag, a merge
    key, a key that is empty, repeated or not a scalar, too deep a nesting, a second document, a value
    that cannot be constructed, a syntax error (yaml.YAMLError) — it raises _Fallback, and parse_yaml
    composes the file, which reports it exactly as before."""
    loader = _MemoLoader(text)
    try:
        get = loader.get_event
        get()                                          # stream start
        first = get()
        if first.__class__ is StreamEndEvent:          # nothing in it (or only comments)
            return None
        new, SM, off = _new, SourceMark, line_offset + 1
        MDictC, MListC = MDict, MList
        stack: list = []
        top = None
        is_map = False
        key = km = None          # in a mapping: the key read, waiting for its value (None: expecting a key)
        root = None
        while True:
            e = get()
            c = e.__class__
            if c is ScalarEvent:
                if e.anchor is not None or (e.tag is not None and e.tag != "!"):
                    raise _Fallback
                v = _value(loader, e.value, e.implicit)
                m = e.start_mark
                if top is None:    # the document is one scalar
                    root = v
                    break
                if is_map:
                    if key is None:
                        if v is None or v in top:
                            raise _Fallback
                        key, km = v, new(SM, (rel, m.line + off, m.column + 1))
                    else:
                        top[key] = v
                        top.key_marks[key] = km
                        top.value_marks[key] = new(SM, (rel, m.line + off, m.column + 1))
                        key = None
                else:
                    top.append(v)
                    top.marks.append(new(SM, (rel, m.line + off, m.column + 1)))
            elif c is MappingStartEvent or c is SequenceStartEvent:
                if e.anchor is not None or (e.tag is not None and e.tag != "!") or len(stack) > MAX_DEPTH:
                    raise _Fallback
                m = e.start_mark
                mark = new(SM, (rel, m.line + off, m.column + 1))
                o = MDictC(mark) if c is MappingStartEvent else MListC(mark)
                if top is None:
                    root = o
                elif is_map:
                    if key is None:    # a mapping or sequence as a key
                        raise _Fallback
                    top[key] = o
                    top.key_marks[key] = km
                    top.value_marks[key] = mark
                    key = None
                else:
                    top.append(o)
                    top.marks.append(mark)
                stack.append(top)
                top, is_map = o, c is MappingStartEvent
            elif c is DocumentEndEvent or c is StreamEndEvent:   # pragma: no cover - libyaml never ends early
                raise _Fallback
            elif c is AliasEvent:
                raise _Fallback
            else:   # the end of a mapping or sequence
                top = stack.pop()
                if top is None:
                    break
                is_map = top.__class__ is MDictC
        if get().__class__ is not DocumentEndEvent or get().__class__ is not StreamEndEvent:
            raise _Fallback   # a second document: composed, which says so
        return root
    finally:
        loader.dispose()


_PROBLEMS = {   # what _Builder reports: (message, hint, code), the message formatted with the words given
    "depth": (f"estrutura aninhada demais (mais de {MAX_DEPTH} níveis)",
              "os arquivos de conteúdo têm no máximo uns 8 níveis; confira o recuo", "depth"),
    "alias": ("âncoras e aliases do YAML (&, *) não são permitidos", "escreva o valor por extenso", "alias"),
    "merge": ("a chave de mesclagem \"<<\" não é permitida", "escreva as chaves por extenso", "alias"),
    "key-shape": ("uma chave deve ser um texto ou número simples", None, "content"),
    "key-empty": ("chave vazia ou inválida", None, "content"),
    "duplicate-key": ("chave repetida \"{key}\" (já aparece na linha {line})",
                      "apague uma das duas ou junte o conteúdo delas", "duplicate-key"),
    "impossible-date": ("data inexistente \"{value}\"",
                        "use uma data válida no formato AAAA-MM-DD, por exemplo 2026-03-14", "date"),
    "value": ("valor inválido \"{value}\": {exc}", None, "content"),
}
_NO_KEY = object()


class _Builder:
    """The tree of a composed file (yaml.compose's nodes): the same values and marks as _fast, and a diagnostic
    for each thing _fast leaves to it (see _PROBLEMS)."""

    def __init__(self, rel: str, diags: Diagnostics, line_offset: int):
        self.say = _Sayer(rel, diags, line_offset)
        self.seen: set[int] = set()

    def build(self, node, depth: int) -> Any:
        if depth > MAX_DEPTH:
            self.say.stop(node, "depth")
        if node.__class__ is ScalarNode:
            return self.say.scalar(node)
        if id(node) in self.seen:
            self.say.stop(node, "alias")
        self.seen.add(id(node))
        return self.sequence(node, depth) if node.__class__ is SequenceNode else self.mapping(node, depth)

    def child(self, node, depth: int) -> Any:
        """A value inside the collection at depth: a scalar, or a collection one level deeper."""
        return self.say.scalar(node) if node.__class__ is ScalarNode else self.build(node, depth + 1)

    def sequence(self, node, depth: int) -> MList:
        out = MList(self.say.mark(node))
        for item in node.value:
            out.marks.append(self.say.mark(item))
            out.append(self.child(item, depth))
        return out

    def mapping(self, node, depth: int) -> MDict:
        out = MDict(self.say.mark(node))
        for knode, vnode in node.value:
            key = self.key(knode, out)
            if key is not _NO_KEY:
                out[key] = self.child(vnode, depth)
                out.key_marks[key] = self.say.mark(knode)
                out.value_marks[key] = self.say.mark(vnode)
        return out

    def key(self, knode, mapping: MDict) -> Any:
        """knode's key for mapping, or _NO_KEY after saying why it is none (a merge key stops the build)."""
        if knode.tag == "tag:yaml.org,2002:merge":
            self.say.stop(knode, "merge")
        if knode.__class__ is not ScalarNode:
            return self.say.error(knode, "key-shape")
        key = self.say.scalar(knode)
        if key is None:
            return self.say.error(knode, "key-empty")
        if key in mapping:
            return self.say.error(knode, "duplicate-key", key=key, line=mapping.key_marks[key].line)
        return key


class _Sayer:
    """Where a node of a composed file was written, and the diagnostic of what is wrong there (_PROBLEMS)."""

    def __init__(self, rel: str, diags: Diagnostics, line_offset: int):
        self.rel = rel
        self.diags = diags
        self.offset = line_offset

    def mark(self, node) -> SourceMark:
        m = node.start_mark
        return _new(SourceMark, (self.rel, m.line + 1 + self.offset, m.column + 1))

    def error(self, node, problem: str, **words) -> Any:
        """Reports one of _PROBLEMS at node; _NO_KEY (what a key that is reported is)."""
        message, hint, code = _PROBLEMS[problem]
        self.diags.error(self.mark(node), message.format(**words) if words else message, hint, code=code)
        return _NO_KEY

    def stop(self, node, problem: str) -> None:
        """Reports one of _PROBLEMS at node and ends the build: the file has no tree."""
        self.error(node, problem)
        raise _Abort

    def scalar(self, node: ScalarNode) -> Any:
        """The scalar's value; its text after reporting why it has none (an impossible date: _InvalidDate)."""
        try:
            return _construct(node)
        except (ValueError, OverflowError) as exc:
            if node.tag == "tag:yaml.org,2002:timestamp":
                self.error(node, "impossible-date", value=node.value)
                return _InvalidDate(node.value)
            self.error(node, "value", value=node.value, exc=exc)
            return node.value
        except yaml.YAMLError as exc:
            self.error(node, "value", value=node.value, exc=exc)
            return node.value


class _InvalidDate(str):
    """An impossible date already reported; kept as text so later checks do not report it again."""


def is_reported_invalid(value: Any) -> bool:
    return isinstance(value, _InvalidDate)


class _Abort(Exception):
    pass


def is_date(value: Any) -> bool:
    return isinstance(value, _dt.date) and not isinstance(value, _dt.datetime)
