"""Runs a pydantic shape check on a YAML tree and turns every failure into a Portuguese diagnostic
at the line and column where the editor wrote the value."""
from __future__ import annotations

import datetime as dt
import re
import types
import typing
from typing import Any

from pydantic import BaseModel, ValidationError

from league.content.diagnostics import Diagnostics, SourceMark, did_you_mean
from league.content.yamlio import MDict, MList, is_reported_invalid


def describe(value: Any) -> str:
    """How a received value is shown in a message: the value and, in words, its kind."""
    if value is None:
        return "vazio"
    if isinstance(value, bool):
        return f"{'true' if value else 'false'} (sim/não)"
    if isinstance(value, float) and value != value:
        return ".nan (não é um número)"
    if isinstance(value, float) and value in (float("inf"), float("-inf")):
        return f"{'-' if value < 0 else ''}.inf (infinito)"
    if isinstance(value, (int, float)):
        return f"{value} (número)"
    if isinstance(value, dt.date):
        return f"{value.isoformat()} (data)"
    if isinstance(value, str):
        short = value if len(value) <= 40 else value[:37] + "…"
        return f"\"{short}\" (texto)"
    if isinstance(value, list):
        return "uma lista"
    if isinstance(value, dict):
        return "um mapa (chave: valor)"
    return repr(value)


def _strip(tp):
    while True:
        origin = typing.get_origin(tp)
        if origin is typing.Annotated:
            tp = typing.get_args(tp)[0]
            continue
        if origin in (typing.Union, types.UnionType):
            args = [a for a in typing.get_args(tp) if a is not type(None)]
            models = [a for a in map(_strip_once, args) if isinstance(a, type) and issubclass(a, BaseModel)]
            if len(args) == 1:
                tp = args[0]
                continue
            if models:
                return models[0]
            containers = [a for a in map(_strip_once, args) if typing.get_origin(a) in (list, dict)]
            if containers:
                tp = containers[0]
                continue
        return tp


def _strip_once(tp):
    while typing.get_origin(tp) is typing.Annotated:
        tp = typing.get_args(tp)[0]
    return tp


def _fields_at(model: type[BaseModel], loc: tuple) -> list[str] | None:
    """The keys allowed in the mapping at loc, walking the model's annotations."""
    tp: Any = model
    for elem in loc:
        tp = _strip(tp)
        if isinstance(tp, type) and issubclass(tp, BaseModel):
            if elem in tp.model_fields:
                tp = tp.model_fields[elem].annotation
            continue  # a union tag or validator name
        origin = typing.get_origin(tp)
        if origin is dict:
            tp = typing.get_args(tp)[1]
        elif origin is list:
            tp = typing.get_args(tp)[0]
    tp = _strip(tp)
    if isinstance(tp, type) and issubclass(tp, BaseModel):
        return list(tp.model_fields)
    return None


def _walk(raw: Any, loc: tuple, root_mark: SourceMark):
    """Follows loc through the YAML tree: (parent container, last key, value mark)."""
    node, parent, key, mark = raw, None, None, getattr(raw, "mark", root_mark)
    for elem in loc:
        if isinstance(node, MDict) and elem in node:
            parent, key, mark, node = node, elem, node.vmark(elem), node[elem]
        elif isinstance(node, MDict) and isinstance(elem, str) and elem.isdigit() and int(elem) in node:
            elem = int(elem)
            parent, key, mark, node = node, elem, node.vmark(elem), node[elem]
        elif isinstance(node, MList) and isinstance(elem, int) and 0 <= elem < len(node):
            parent, key, mark, node = node, elem, node.imark(elem), node[elem]
        # otherwise: a union tag or a key not present; stay on this node
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
            _report(model, raw, err, rel, root_mark, diags)
        return None


def _branch(elem: Any) -> bool:
    """Whether a loc element names a branch of a union of scalars (pydantic's tag: int, constrained-float…)."""
    return isinstance(elem, str) and (elem in ("int", "float", "str", "bool") or
                                      elem.startswith(("constrained-", "list[", "dict[")))


def _one_per_union(errors: list[dict]) -> list[dict]:
    """pydantic reports a value that fits no branch of a union once per branch (ranking_points' int | float:
    "-5" twice, once per type). One message per value: the branch whose type matched and whose limit did
    not (-5 is an int, below 0), or, when no type matched, one error that lists them all."""
    groups: dict = {}
    for i, err in enumerate(errors):
        loc = tuple(err["loc"])
        if loc and _branch(loc[-1]):
            groups.setdefault(loc[:-1], []).append(i)
    drop: set = set()
    merged: dict = {}
    for loc, members in groups.items():
        if len(members) < 2:
            continue
        typed = [i for i in members if errors[i]["type"] not in _TYPE_WORDS]
        if typed:
            drop.update(i for i in members if i != typed[0])
            errors[typed[0]] = {**errors[typed[0]], "branches": [errors[i]["loc"][-1] for i in members]}
            continue
        words = list(dict.fromkeys(_TYPE_WORDS[errors[i]["type"]] for i in members))
        if "um número" in words and "um número inteiro" in words:
            words.remove("um número inteiro")
        merged[members[0]] = {**errors[members[0]], "loc": loc, "type": "union_types", "ctx": {"words": words}}
        drop.update(members[1:])
    return [merged.get(i, err) for i, err in enumerate(errors) if i not in drop]


def _report(model, raw, err: dict, rel: str, root_mark: SourceMark, diags: Diagnostics) -> None:
    loc = tuple(err["loc"])
    etype = err["type"]
    value = err.get("input")
    placeholder = value if _is_placeholder(value) else (
        loc[loc.index("[key]") - 1] if "[key]" in loc and _is_placeholder(loc[loc.index("[key]") - 1]) else None)
    if placeholder is not None:
        if "[key]" in loc:
            p, k, mark, _ = _walk(raw, loc[:loc.index("[key]")], root_mark)
            mark = p.kmark(k) if isinstance(p, MDict) else mark
        else:
            mark = _walk(raw, loc, root_mark)[2]
        diags.error(mark, f"campo ainda não preenchido: \"{placeholder}\"{_path_words(loc, raw)}",
                    "troque o texto entre < > pelo valor certo (veja o comentário na linha)", code="placeholder")
        return
    if "[key]" in loc:
        cut = loc.index("[key]")
        parent, key, mark, node = _walk(raw, loc[:cut], root_mark)
        kmark = parent.kmark(key) if isinstance(parent, MDict) else mark
        if etype in ("greater_than_equal", "less_than_equal", "greater_than", "less_than"):   # a number as key
            _range_error(model, loc, etype, err.get("ctx", {}), loc[cut - 1], _path_words(loc[:cut - 1], raw), kmark,
                         diags)
            return
        diags.error(kmark, f"id inválido: recebido {describe(loc[cut - 1])}; esperado letras minúsculas sem acento, "
                    f"números e hífens", f"use \"{slugify(str(loc[cut - 1]))}\"", code="slug")
        return
    parent, key, mark, node = _walk(raw, loc, root_mark)
    where = _path_words(loc, raw)
    if etype == "missing":
        container_mark = getattr(node, "mark", mark)
        where = _path_words(loc[:-1], raw)
        diags.error(container_mark, f"falta a chave obrigatória \"{loc[-1]}\"{where}",
                    f"acrescente \"{loc[-1]}: …\"", code="missing")
        return
    if etype == "extra_forbidden":
        bad = loc[-1]
        kmark = parent.kmark(bad) if isinstance(parent, MDict) else mark
        allowed = _fields_at(model, loc[:-1]) or []
        hint = did_you_mean(str(bad), allowed)
        if not hint and allowed:
            hint = "chaves aceitas aqui: " + ", ".join(allowed)
        shown = bad if len(str(bad)) <= 60 else str(bad)[:57] + "…"
        diags.error(kmark, f"chave desconhecida \"{shown}\"{_path_words(loc[:-1])}", hint, code="unknown-key")
        return
    if is_reported_invalid(value):
        return  # already reported (impossible date)
    if etype in _DATE_ERRORS:
        _date_error(etype, value, where, mark, diags)
        return
    if etype in _TYPE_WORDS or etype == "union_types":
        words = " ou ".join(err["ctx"]["words"]) if etype == "union_types" else _TYPE_WORDS[etype]
        diags.error(mark, f"valor inválido{where}: recebido {describe(value)}; esperado {words}",
                    _number_text_hint(value) if "um número" in words else None, code="type")
        return
    if etype == "finite_number":
        lo, hi, _ = _bounds_at(model, loc)
        need = f"um número de {_num(lo)} a {_num(hi)}" if lo is not None and hi is not None else "um número finito"
        diags.error(mark, f"valor inválido{where}: recebido {describe(value)}; esperado {need}",
                    "escreva o valor em algarismos, ex.: 50.00 (.nan e .inf não são números)", code="range")
        return
    if etype == "literal_error":
        expected = err.get("ctx", {}).get("expected", "")
        options = [o.strip().strip("'") for o in expected.replace(" or ", ",").split(",") if o.strip()]
        hint = did_you_mean(value, options)
        diags.error(mark, f"valor inválido{where}: recebido {describe(value)}; esperado "
                    + " ou ".join(options), hint, code="choice")
        return
    if etype == "string_pattern_mismatch":
        diags.error(mark, f"id inválido{where}: recebido {describe(value)}; esperado letras minúsculas sem acento, "
                    f"números e hífens", f"use \"{slugify(str(value))}\"", code="slug")
        return
    if etype in ("too_short", "too_long"):
        ctx = err.get("ctx", {})
        n = ctx.get("min_length") if etype == "too_short" else ctx.get("max_length")
        got = len(value) if hasattr(value, "__len__") else "?"
        exact = _exact_length(model, loc)
        need = f"exatamente {exact}" if exact else (f"pelo menos {n}" if etype == "too_short" else f"no máximo {n}")
        hint = None if exact or etype == "too_short" else \
            f"o máximo, {n}, fica muito acima do que uma federação usa: confira se o arquivo certo foi salvo aqui"
        diags.error(mark, f"quantidade inválida{where}: {got} item(ns); esperado {need}", hint, code="length")
        return
    if etype in ("greater_than_equal", "less_than_equal", "greater_than", "less_than"):
        number = any("float" in b for b in err.get("branches", ()))   # int | float: "um número"
        _range_error(model, loc, etype, err.get("ctx", {}), value, where, mark, diags, number)
        return
    if etype == "union_tag_invalid":
        diags.error(mark, f"valor inválido{where}: recebido {describe(value)}", code="type")
        return
    diags.error(mark, f"valor inválido{where}: {err.get('msg')} (recebido {describe(value)})", code="type")


def _range_error(model, loc: tuple, etype: str, ctx: dict, value: Any, where: str, mark: SourceMark,
                 diags: Diagnostics, number: bool = False) -> None:
    """A number or date beyond its bounds (league.schema: non-negative where the rule needs it, and every
    value bounded far above real use): both bounds said, and what to do."""
    lo, hi, tp = _bounds_at(model, loc)
    bound = next(iter(ctx.values()), None)
    low = etype in ("greater_than_equal", "greater_than")
    if isinstance(hi if not low else lo, dt.date) and type(value) is str:   # a quoted date ('9999-12-31'), read as the date it is
        value = dt.date.fromisoformat(value)
    if isinstance(value, dt.date):
        if lo is not None and hi is not None:
            need = f"uma data de {lo.isoformat()} a {hi.isoformat()}"
        else:
            need = f"uma data {'a partir de' if low else 'até'} {bound}"
        diags.error(mark, f"data fora do limite{where}: recebido {value.isoformat()}; esperado {need}",
                    "confira o ano; escreva a data como AAAA-MM-DD, ex.: 2026-03-14", code="range")
        return
    kind = "um número inteiro" if tp is int and not number else "um número"
    if lo is not None and hi is not None:
        need = f"{kind} de {_num(lo)} a {_num(hi)}"
    else:
        word = {"greater_than_equal": "≥", "less_than_equal": "≤", "greater_than": ">", "less_than": "<"}[etype]
        need = f"{kind} {word} {_num(bound)}"
    if low:
        hint = "escreva o valor sem o sinal de menos" if bound == 0 and isinstance(value, (int, float)) and value < 0 \
            else f"use um valor a partir de {_num(bound)}" if etype == "greater_than_equal" else None
    elif (lo, hi) == (1900, 2100):   # a season's year
        hint = "confira o ano, ex.: 2026"
    else:
        hint = (f"o máximo, {_num(bound)}, fica muito acima do que uma federação usa: confira se o valor foi "
                "digitado certo (um zero a mais?)")
    diags.error(mark, f"valor fora do limite{where}: recebido {describe(value)}; esperado {need}", hint,
                code="range")


# a value that is not a date where a date goes (league.schema.Date): text other than AAAA-MM-DD, a number, a date
# with a time; and a quoted date that does not exist (league.schema._quoted_date)
_DATE_ERRORS = ("date_type", "date_parsing", "date_from_datetime_inexact", "date_from_datetime_parsing",
                "date_impossible")
_DAY_FIRST = re.compile(r"^\s*([0-9]{1,2})[/.-]([0-9]{1,2})[/.-]([0-9]{4})\s*$")   # 14/03/2026, 14.3.2026, 14-03-2026
_YEAR_FIRST = re.compile(r"^\s*([0-9]{4})[/.-]([0-9]{1,2})[/.-]([0-9]{1,2})\s*$")  # 2026/03/14, 2026-3-14


def _date_error(etype: str, value: Any, where: str, mark: SourceMark, diags: Diagnostics) -> None:
    """What a date field received and the one form it takes. `date: 2026-03-14` and `date: '2026-03-14'` are
    the same date (league.schema._quoted_date); anything else is reported here, with the value written."""
    if etype == "date_impossible":
        diags.error(mark, f"data inexistente \"{value}\"",
                    "use uma data válida no formato AAAA-MM-DD, por exemplo 2026-03-14", code="date")
        return
    if isinstance(value, str):
        short = value if len(value) <= 40 else value[:37] + "…"
        got = f"\"{short}\""
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


def _constraints(tp) -> tuple[Any, list]:
    """The type without Annotated layers and Optional, and the constraints (Ge, Le…) of those layers."""
    meta: list = []
    while True:
        origin = typing.get_origin(tp)
        if origin is typing.Annotated:
            args = typing.get_args(tp)
            for a in args[1:]:
                meta += list(getattr(a, "metadata", None) or [a])
            tp = args[0]
            continue
        if origin in (typing.Union, types.UnionType):
            args = [a for a in typing.get_args(tp) if a is not type(None)]
            if len(args) == 1:
                tp = args[0]
                continue
        return tp, meta


def _bounds_at(model, loc: tuple) -> tuple[Any, Any, Any]:
    """(lower bound, upper bound, type) of the value at loc, from the model's annotations (None: not found;
    only inclusive bounds, ge and le). A mapping's key is at (…, key, "[key]"), as pydantic reports it."""
    tp: Any = model
    meta: list = []
    for i, elem in enumerate(loc):
        if elem == "[key]":
            continue
        tp, meta = _constraints(tp)
        if isinstance(tp, type) and issubclass(tp, BaseModel):
            field = tp.model_fields.get(elem) if isinstance(elem, str) else None
            if field is not None:
                tp, meta = field.annotation, list(field.metadata)
            continue
        origin = typing.get_origin(tp)
        if origin in (typing.Union, types.UnionType):   # elem: the branch's tag (int, constrained-float, map…)
            for arg in typing.get_args(tp):
                inner, marks = _constraints(arg)
                name = getattr(inner, "__name__", "")
                if elem in (name, f"constrained-{name}") or any(getattr(m, "tag", None) == elem for m in marks):
                    tp = arg
                    break
            meta = []
        elif origin is dict:
            tp = typing.get_args(tp)[0 if loc[i + 1:i + 2] == ("[key]",) else 1]
            meta = []
        elif origin is list:
            tp = typing.get_args(tp)[0]
            meta = []
    tp, more = _constraints(tp)
    lo = hi = None
    for c in meta + more:
        if getattr(c, "ge", None) is not None:
            lo = c.ge
        if getattr(c, "le", None) is not None:
            hi = c.le
    return lo, hi, tp


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
        if isinstance(node, MDict) and (e in node or (isinstance(e, str) and e.isdigit() and int(e) in node)):
            key = e if e in node else int(e)
            text += ("." if text else "") + str(key)
            node = node[key]
            continue
        if isinstance(e, int) and isinstance(node, MList) and 0 <= e < len(node):
            text += f"[{e + 1}]"
            node = node[e]
            continue
        if isinstance(e, int):
            text += f"[{e + 1}]"
        elif e in ("text", "map", "int", "float", "str", "bool", "list[str]", "[key]") or \
                str(e).startswith(("list[", "function-", "constrained")):
            continue
        else:
            text += ("." if text else "") + str(e)
    return f" em {text}" if text else ""


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
