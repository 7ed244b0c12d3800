"""Runs a pydantic shape check on a YAML tree and turns every failure into a Portuguese diagnostic
at the line and column where the editor wrote the value."""
from __future__ import annotations

import datetime as dt
import re
from typing import Any, NamedTuple

from pydantic import BaseModel, ValidationError

from league.content.annotations import bounds_at, fields_at
from league.content.diagnostics import Diagnostics, SourceMark, did_you_mean
from league.content.yamlio import MDict, MList, is_reported_invalid


def describe(value: Any) -> str:
    """How a received value is shown in a message: the value and, in words, its kind."""
    if value is None:
        return "vazio"
    if isinstance(value, (bool, int, float)):
        return _describe_number(value)
    if isinstance(value, dt.date):
        return f"{value.isoformat()} (data)"
    if isinstance(value, str):
        return f"\"{_short(value)}\" (texto)"
    if isinstance(value, list):
        return "uma lista"
    if isinstance(value, dict):
        return "um mapa (chave: valor)"
    return repr(value)


def _describe_number(value: bool | int | float) -> str:
    """describe() of a boolean or a number, .nan and .inf included."""
    if isinstance(value, bool):
        return f"{'true' if value else 'false'} (sim/não)"
    if isinstance(value, float) and value != value:
        return ".nan (não é um número)"
    if isinstance(value, float) and value in (float("inf"), float("-inf")):
        return f"{'-' if value < 0 else ''}.inf (infinito)"
    return f"{value} (número)"


def _short(text: str, limit: int = 40) -> str:
    """A long text cut for a message: its first characters and "…"."""
    return text if len(text) <= limit else text[:limit - 3] + "…"


_ABSENT = object()


def _key_in(node: Any, elem: Any) -> Any:
    """The key or index under which the YAML node holds loc's elem (pydantic says "1" for a mapping's key 1);
    _ABSENT when it holds none: a union tag, a key not written, a node that is no container."""
    if isinstance(node, MDict):
        if elem in node:
            return elem
        if isinstance(elem, str) and elem.isdigit() and int(elem) in node:
            return int(elem)
    elif isinstance(node, MList) and isinstance(elem, int) and 0 <= elem < len(node):
        return elem
    return _ABSENT


def _walk(raw: Any, loc: tuple, root_mark: SourceMark):
    """Follows loc through the YAML tree: (parent container, last key, value mark)."""
    node, parent, key, mark = raw, None, None, getattr(raw, "mark", root_mark)
    for elem in loc:
        at = _key_in(node, elem)
        if at is _ABSENT:
            continue   # a union tag or a key not present; stay on this node
        mark = node.vmark(at) if isinstance(node, MDict) else node.imark(at)
        parent, key, node = node, at, node[at]
    return parent, key, mark, node


_TYPE_WORDS = {
    "string_type": "um texto", "int_type": "um número inteiro", "int_parsing": "um número inteiro",
    "float_type": "um número", "bool_type": "true ou false", "date_type": "uma data AAAA-MM-DD",
    "list_type": "uma lista", "dict_type": "um mapa (chave: valor)", "model_type": "um mapa (chave: valor)",
    "int_from_float": "um número inteiro", "date_from_datetime_inexact": "uma data AAAA-MM-DD",
    "model_attributes_type": "um mapa (chave: valor)",
}


def validate(model: type[BaseModel], raw: Any, rel: str, diags: Diagnostics, what: str = "o arquivo") -> BaseModel | None:
    """The validated model, or None after reporting every shape problem of raw."""
    root_mark = getattr(raw, "mark", SourceMark(rel, 1, 1))
    if raw is None:
        diags.error(SourceMark(rel, 1, 1), f"{what} está vazio", "preencha o arquivo; veja o modelo em `league new`",
                    code="empty")
        return None
    try:
        return model.model_validate(raw)
    except ValidationError as exc:
        for err in _one_per_union(exc.errors(include_url=False)):
            _Report(model, raw, err, root_mark, diags).tell()
        return None


def _branch(elem: Any) -> bool:
    """Whether a loc element names a branch of a union of scalars (pydantic's tag: int, constrained-float…)."""
    return isinstance(elem, str) and (elem in ("int", "float", "str", "bool") or
                                      elem.startswith(("constrained-", "list[", "dict[")))


def _one_per_union(errors: list[dict]) -> list[dict]:
    """pydantic reports a value that fits no branch of a union once per branch (ranking_points' int | float:
    "-5" twice, once per type). One message per value: the branch whose type matched and whose limit did
    not (-5 is an int, below 0), or, when no type matched, one error that lists them all."""
    errors = list(errors)
    drop: set = set()
    for loc, members in _union_groups(errors).items():
        typed = [i for i in members if errors[i]["type"] not in _TYPE_WORDS]
        if typed:   # that branch's error, knowing the branches (int | float: "um número")
            keep = typed[0]
            errors[keep] = {**errors[keep], "branches": [errors[i]["loc"][-1] for i in members]}
        else:
            keep = members[0]
            errors[keep] = _union_types_error(errors, loc, members)
        drop.update(i for i in members if i != keep)
    return [err for i, err in enumerate(errors) if i not in drop]


def _union_groups(errors: list[dict]) -> dict[tuple, list[int]]:
    """The errors about one value reported once per branch of its union: its loc → their indexes (two or more)."""
    groups: dict = {}
    for i, err in enumerate(errors):
        loc = tuple(err["loc"])
        if loc and _branch(loc[-1]):
            groups.setdefault(loc[:-1], []).append(i)
    return {loc: members for loc, members in groups.items() if len(members) >= 2}


def _union_types_error(errors: list[dict], loc: tuple, members: list[int]) -> dict:
    """One error for a value that has none of its union's types: "union_types", the types in words."""
    words = list(dict.fromkeys(_TYPE_WORDS[errors[i]["type"]] for i in members))
    if "um número" in words and "um número inteiro" in words:
        words.remove("um número inteiro")
    return {**errors[members[0]], "loc": loc, "type": "union_types", "ctx": {"words": words}}


_BOUND_ERRORS = ("greater_than_equal", "less_than_equal", "greater_than", "less_than")
# a value that is not a date where a date goes (league.content.schema.Date): text other than AAAA-MM-DD, a number, a date
# with a time; and a quoted date that does not exist (league.content.schema._quoted_date)
_DATE_ERRORS = ("date_type", "date_parsing", "date_from_datetime_inexact", "date_from_datetime_parsing",
                "date_impossible")
_SLUG_WORDS = "esperado letras minúsculas sem acento, números e hífens"


class _Report:
    """One pydantic error said to the editor, in Portuguese, at the YAML node its loc names: the value received,
    what was expected there and, when there is one, what to write instead."""

    def __init__(self, model, raw: Any, err: dict, root_mark: SourceMark, diags: Diagnostics):
        self.model, self.raw, self.err, self.root_mark, self.diags = model, raw, err, root_mark, diags
        self.loc = tuple(err["loc"])
        self.etype = err["type"]
        self.value = err.get("input")
        self.ctx = err.get("ctx", {})

    def tell(self) -> None:
        placeholder = self.placeholder()
        if placeholder is not None:
            self.unfilled(placeholder)
        elif "[key]" in self.loc:
            self.bad_key(self.loc.index("[key]"))
        else:
            self.bad_value()

    def placeholder(self) -> str | None:
        """The `<…>` of a `league new` skeleton left as the value, or as the mapping key, at loc."""
        if _is_placeholder(self.value):
            return self.value
        if "[key]" in self.loc:
            key = self.loc[self.loc.index("[key]") - 1]
            return key if _is_placeholder(key) else None
        return None

    def key_mark(self, cut: int) -> SourceMark:
        """Where the mapping key that loc[:cut] ends at was written (its value's mark if it is not found)."""
        parent, key, mark, _ = _walk(self.raw, self.loc[:cut], self.root_mark)
        return parent.kmark(key) if isinstance(parent, MDict) else mark

    def unfilled(self, placeholder: str) -> None:
        loc = self.loc
        mark = self.key_mark(loc.index("[key]")) if "[key]" in loc else _walk(self.raw, loc, self.root_mark)[2]
        self.diags.error(mark, f"campo ainda não preenchido: \"{placeholder}\"{_path_words(loc, self.raw)}",
                         "troque o texto entre < > pelo valor certo (veja o comentário na linha)", code="placeholder")

    def bad_key(self, cut: int) -> None:
        """A mapping's key that is not what goes there: a number out of its range, or not an id."""
        kmark, key = self.key_mark(cut), self.loc[cut - 1]
        if self.etype in _BOUND_ERRORS:   # a number as key
            _range_error(self.model, self.loc, self.etype, self.ctx, key, _path_words(self.loc[:cut - 1], self.raw),
                         kmark, self.diags)
            return
        self.diags.error(kmark, f"id inválido: recebido {describe(key)}; {_SLUG_WORDS}",
                         f"use \"{slugify(str(key))}\"", code="slug")

    def bad_value(self) -> None:
        parent, _key, mark, node = _walk(self.raw, self.loc, self.root_mark)
        if self.etype == "missing":
            _missing(self, getattr(node, "mark", mark))
        elif self.etype == "extra_forbidden":
            _unknown_key(self, parent.kmark(self.loc[-1]) if isinstance(parent, MDict) else mark)
        elif not is_reported_invalid(self.value):   # an impossible date is reported already
            _VALUE_ERRORS.get(self.etype, _other)(self, mark, _path_words(self.loc, self.raw))


# what each kind of error says: r, the error; mark, where its value (or key) was written; where, its path in
# words (" em boards[2]")
def _missing(r: _Report, container_mark: SourceMark) -> None:
    key = r.loc[-1]
    r.diags.error(container_mark, f"falta a chave obrigatória \"{key}\"{_path_words(r.loc[:-1], r.raw)}",
                  f"acrescente \"{key}: …\"", code="missing")


def _unknown_key(r: _Report, kmark: SourceMark) -> None:
    bad = r.loc[-1]
    allowed = fields_at(r.model, r.loc[:-1]) or []
    hint = did_you_mean(str(bad), allowed)
    if not hint and allowed:
        hint = "chaves aceitas aqui: " + ", ".join(allowed)
    r.diags.error(kmark, f"chave desconhecida \"{_short(str(bad), 60)}\"{_path_words(r.loc[:-1])}", hint,
                  code="unknown-key")


def _bad_date(r: _Report, mark: SourceMark, where: str) -> None:
    _date_error(r.etype, r.value, where, mark, r.diags)


def _wrong_type(r: _Report, mark: SourceMark, where: str) -> None:
    words = " ou ".join(r.ctx["words"]) if r.etype == "union_types" else _TYPE_WORDS[r.etype]
    r.diags.error(mark, f"valor inválido{where}: recebido {describe(r.value)}; esperado {words}",
                  _number_text_hint(r.value) if "um número" in words else None, code="type")


def _not_finite(r: _Report, mark: SourceMark, where: str) -> None:
    lo, hi, _ = bounds_at(r.model, r.loc)
    need = f"um número de {_num(lo)} a {_num(hi)}" if lo is not None and hi is not None else "um número finito"
    r.diags.error(mark, f"valor inválido{where}: recebido {describe(r.value)}; esperado {need}",
                  "escreva o valor em algarismos, ex.: 50.00 (.nan e .inf não são números)", code="range")


def _not_a_choice(r: _Report, mark: SourceMark, where: str) -> None:
    expected = r.ctx.get("expected", "")
    options = [o.strip().strip("'") for o in expected.replace(" or ", ",").split(",") if o.strip()]
    r.diags.error(mark, f"valor inválido{where}: recebido {describe(r.value)}; esperado "
                  + " ou ".join(options), did_you_mean(r.value, options), code="choice")


def _not_a_slug(r: _Report, mark: SourceMark, where: str) -> None:
    r.diags.error(mark, f"id inválido{where}: recebido {describe(r.value)}; {_SLUG_WORDS}",
                  f"use \"{slugify(str(r.value))}\"", code="slug")


def _wrong_length(r: _Report, mark: SourceMark, where: str) -> None:
    too_short = r.etype == "too_short"
    n = r.ctx.get("min_length" if too_short else "max_length")
    got = len(r.value) if hasattr(r.value, "__len__") else "?"
    exact = _exact_length(r.model, r.loc)
    need = f"exatamente {exact}" if exact else (f"pelo menos {n}" if too_short else f"no máximo {n}")
    hint = None if exact or too_short else \
        f"o máximo, {n}, fica muito acima do que uma federação usa: confira se o arquivo certo foi salvo aqui"
    r.diags.error(mark, f"quantidade inválida{where}: {got} item(ns); esperado {need}", hint, code="length")


def _out_of_range(r: _Report, mark: SourceMark, where: str) -> None:
    number = any("float" in b for b in r.err.get("branches", ()))   # int | float: "um número"
    _range_error(r.model, r.loc, r.etype, r.ctx, r.value, where, mark, r.diags, number)


def _no_branch(r: _Report, mark: SourceMark, where: str) -> None:
    r.diags.error(mark, f"valor inválido{where}: recebido {describe(r.value)}", code="type")


def _other(r: _Report, mark: SourceMark, where: str) -> None:
    r.diags.error(mark, f"valor inválido{where}: {r.err.get('msg')} (recebido {describe(r.value)})",
                  code="type")


# pydantic's error type → how it is said (a date's type errors are told as dates)
_VALUE_ERRORS = {
    **dict.fromkeys((*_TYPE_WORDS, "union_types"), _wrong_type),
    **dict.fromkeys(_DATE_ERRORS, _bad_date),
    "finite_number": _not_finite,
    "literal_error": _not_a_choice,
    "string_pattern_mismatch": _not_a_slug,
    "too_short": _wrong_length,
    "too_long": _wrong_length,
    **dict.fromkeys(_BOUND_ERRORS, _out_of_range),
    "union_tag_invalid": _no_branch,
}


_SIGNS = {"greater_than_equal": "≥", "less_than_equal": "≤", "greater_than": ">", "less_than": "<"}


class _Limits(NamedTuple):
    """The bounds a number or date broke: lo and hi, the model's inclusive bounds (None: not found), and the
    one pydantic names (bound) with how it was broken (etype: greater_than_equal…)."""

    lo: Any
    hi: Any
    bound: Any
    etype: str

    @property
    def low(self) -> bool:
        return self.etype in ("greater_than_equal", "greater_than")

    def dates(self) -> str:
        if self.lo is not None and self.hi is not None:
            return f"uma data de {self.lo.isoformat()} a {self.hi.isoformat()}"
        return f"uma data {'a partir de' if self.low else 'até'} {self.bound}"

    def numbers(self, kind: str) -> str:
        if self.lo is not None and self.hi is not None:
            return f"{kind} de {_num(self.lo)} a {_num(self.hi)}"
        return f"{kind} {_SIGNS[self.etype]} {_num(self.bound)}"

    def hint(self, value: Any) -> str | None:
        """What to do about a number beyond the bound."""
        if self.low and self.bound == 0 and isinstance(value, (int, float)) and value < 0:
            return "escreva o valor sem o sinal de menos"
        if self.low:
            return f"use um valor a partir de {_num(self.bound)}" if self.etype == "greater_than_equal" else None
        if (self.lo, self.hi) == (1900, 2100):   # a season's year
            return "confira o ano, ex.: 2026"
        return (f"o máximo, {_num(self.bound)}, fica muito acima do que uma federação usa: confira se o valor foi "
                "digitado certo (um zero a mais?)")


def _range_error(model, loc: tuple, etype: str, ctx: dict, value: Any, where: str, mark: SourceMark,
                 diags: Diagnostics, number: bool = False) -> None:
    """A number or date beyond its bounds (league.content.schema: non-negative where the rule needs it, and every
    value bounded far above real use): both bounds said, and what to do."""
    lo, hi, tp = bounds_at(model, loc)
    limits = _Limits(lo, hi, next(iter(ctx.values()), None), etype)
    if isinstance(lo if limits.low else hi, dt.date) and type(value) is str:   # a quoted date ('9999-12-31'),
        value = dt.date.fromisoformat(value)                                      # read as the date it is
    if isinstance(value, dt.date):
        diags.error(mark, f"data fora do limite{where}: recebido {value.isoformat()}; esperado {limits.dates()}",
                    "confira o ano; escreva a data como AAAA-MM-DD, ex.: 2026-03-14", code="range")
        return
    kind = "um número inteiro" if tp is int and not number else "um número"
    diags.error(mark, f"valor fora do limite{where}: recebido {describe(value)}; esperado {limits.numbers(kind)}",
                limits.hint(value), code="range")


_DAY_FIRST = re.compile(r"^\s*([0-9]{1,2})[/.-]([0-9]{1,2})[/.-]([0-9]{4})\s*$")   # 14/03/2026, 14.3.2026, 14-03-2026
_YEAR_FIRST = re.compile(r"^\s*([0-9]{4})[/.-]([0-9]{1,2})[/.-]([0-9]{1,2})\s*$")  # 2026/03/14, 2026-3-14


def _date_error(etype: str, value: Any, where: str, mark: SourceMark, diags: Diagnostics) -> None:
    """What a date field received and the one form it takes. `date: 2026-03-14` and `date: '2026-03-14'` are
    the same date (league.content.schema._quoted_date); anything else is reported here, with the value written."""
    if etype == "date_impossible":
        diags.error(mark, f"data inexistente \"{value}\"",
                    "use uma data válida no formato AAAA-MM-DD, por exemplo 2026-03-14", code="date")
        return
    if isinstance(value, str):
        got = f"\"{_short(value)}\""
    elif isinstance(value, dt.datetime):
        got = f"{value.isoformat(sep=' ')} (data e hora)"
    else:
        got = describe(value)
    diags.error(mark, f"data inválida{where}: recebido {got}; use AAAA-MM-DD, por exemplo 2026-03-14",
                _date_hint(value), code="date")


def _date_hint(value: Any) -> str | None:
    """The date the editor meant, in the form it takes, when that is clear: 14/03/2026 → 2026-03-14."""
    if isinstance(value, dt.datetime):
        return f"escreva só a data, sem a hora: {value.date().isoformat()}"
    if not isinstance(value, str):
        return None
    m = _DAY_FIRST.match(value)
    ymd = (m.group(3), m.group(2), m.group(1)) if m else None
    m = _YEAR_FIRST.match(value)
    ymd = (m.group(1), m.group(2), m.group(3)) if m else ymd
    if ymd is None:
        return None
    try:
        day = dt.date(int(ymd[0]), int(ymd[1]), int(ymd[2]))
    except ValueError:
        return None
    return f"escreva {day.isoformat()}"


def _num(x: Any) -> str:
    """A bound as an editor writes it: 1000000, not 1000000.0."""
    if isinstance(x, float) and x.is_integer():
        return str(int(x))
    return str(x)


_NUMBER_TEXT = re.compile(r"^\s*[-+]?(\d+(\.\d*)?|\.\d+)[eE][-+]?\d+\s*$")
_COMMA_DECIMAL = re.compile(r"^\s*[-+]?\d+,\d+\s*$")


def _number_text_hint(value: Any) -> str | None:
    """What to do when a number was written in a way YAML reads as text."""
    if not isinstance(value, str):
        return None
    if _NUMBER_TEXT.match(value):
        return "escreva o número por extenso, sem expoente (ex.: 1000, não 1e3)"
    if _COMMA_DECIMAL.match(value):
        return f"use ponto como separador decimal: {value.strip().replace(',', '.')}"
    return None


_PLACEHOLDER = re.compile(r"^<[\w-]+>$")


def _is_placeholder(value: Any) -> bool:
    """A `<…>` left from a `league new` skeleton."""
    return isinstance(value, str) and _PLACEHOLDER.match(value) is not None


def _exact_length(model, loc) -> int | None:
    # pairs are the only fixed-length lists in the content files
    return 2 if any(p in loc for p in ("pairs", "pair", "home", "away")) or (loc and loc[-1] == "order") else None


def _path_words(loc: tuple, raw: Any = None) -> str:
    """A readable path: keys joined by dots, list items counted from 1 (`boards[2]`); a number used as
    a mapping key (a Quatrilho table or registration number) stays a key (`tables.1`)."""
    text = ""
    node = raw
    for e in loc:
        at = _key_in(node, e)
        if at is not _ABSENT:
            text += _path_step(text, at, isinstance(node, MList))
            node = node[at]
        elif not _unwritten(e):
            text += _path_step(text, e, isinstance(e, int))
    return f" em {text}" if text else ""


def _path_step(text: str, key: Any, index: bool) -> str:
    """What one loc element adds to the path text so far: `[2]` for an index (counted from 1), `.key`."""
    return f"[{key + 1}]" if index else ("." if text else "") + str(key)


def _unwritten(elem: Any) -> bool:
    """Whether a loc element is pydantic's name for what the editor did not write: a union's branch, a
    validator, a mapping's key."""
    return elem in ("text", "map", "int", "float", "str", "bool", "list[str]", "[key]") or \
        str(elem).startswith(("list[", "function-", "constrained"))


def slugify(text: str) -> str:
    import unicodedata
    norm = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower()
    out, dash = [], False
    for ch in norm:
        if ch.isalnum():
            out.append(ch)
            dash = False
        elif not dash and out:
            out.append("-")
            dash = True
    return "".join(out).strip("-") or "id"
